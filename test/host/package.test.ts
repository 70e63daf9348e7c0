/**
 * An install without a clone (issue 31 point 3), exactly as a user would: `npm pack`, `npm install -g` of that
 * tarball into a fresh prefix, then the installed `agy-archive build --out <folder>` from a folder of the user's,
 * with GEMINI_HOME an empty folder (so the demo is built, and no real history or store is touched). The installed
 * scripts are TypeScript under node_modules, which Node alone refuses to run: this proves the bin's loader does.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/build-site.ts';

/** Run a command; its exit code and output (stdout and stderr together). */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The environment of a user with nothing of agy-archive's yet: their home, caches and data in `dir`. */
function userEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: path.join(dir, 'home'), XDG_CACHE_HOME: path.join(dir, 'home', '.cache'), XDG_DATA_HOME: path.join(dir, 'home', '.local', 'share'), GEMINI_HOME: path.join(dir, 'empty-gemini') };
  // What `npm test` and vitest put in the environment is not the user's (VITEST makes the store refuse its default
  // path, which is in this temporary home here): PATH keeps the system's Node first.
  for (const key of Object.keys(env)) {
    if (/^(npm_|ARCHIVE_|VITEST)/.test(key) || ['BRAIN_ROOTS', 'NODE_OPTIONS', 'TEST', 'NODE_ENV'].includes(key)) delete env[key];
  }
  env.PATH = (env.PATH ?? '').split(path.delimiter).filter((p) => !p.includes(`${path.sep}node_modules${path.sep}`)).join(path.delimiter);
  return env;
}

describe('agy-archive installed from its tarball, without a clone', () => {
  let dir: string;
  let bin: string;
  let packageDir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'agy-package-'));
    for (const sub of ['home', 'empty-gemini', 'work', 'prefix']) mkdirSync(path.join(dir, sub), { recursive: true });
    const packed = await run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: projectRoot });
    expect(packed.code, packed.output).toBe(0);
    const tarball = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!);
    // The npm cache of the machine (HOME stays the real one here) keeps this quick; the registry fills any gap.
    const installed = await run('npm', ['install', '-g', '--prefix', path.join(dir, 'prefix'), '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: path.join(dir, 'work') });
    expect(installed.code, installed.output).toBe(0);
    bin = path.join(dir, 'prefix', 'bin', 'agy-archive');
    packageDir = path.join(dir, 'prefix', 'lib', 'node_modules', 'agy-archive');
  }, 900_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds what the site is made from, and none of the tests', () => {
    const files = readdirSync(packageDir);
    expect(files).toEqual(expect.arrayContaining(['bin', 'scripts', 'src', 'hosting', 'fixtures', 'astro.config.mjs', 'package.json', 'README.md']));
    expect(files).not.toContain('test');
    expect(readdirSync(path.join(packageDir, 'fixtures'))).toEqual(['demo']);
  });

  it('says its commands with --help, and a command it does not have with a hint', async () => {
    const help = await run(bin, ['--help'], { cwd: path.join(dir, 'work'), env: userEnv(dir) });
    expect(help.code).toBe(0);
    for (const command of ['build', 'archive', 'sessions', 'host', 'preview']) expect(help.output).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(help.output).toContain('--out DIR');
    const wrong = await run(bin, ['bulid'], { cwd: path.join(dir, 'work'), env: userEnv(dir) });
    expect([wrong.code, wrong.output]).toEqual([2, expect.stringContaining('no command "bulid"')]);
    // A TypeScript script under node_modules runs (host's own help).
    const host = await run(bin, ['host', '--help'], { cwd: path.join(dir, 'work'), env: userEnv(dir) });
    expect([host.code, host.output]).toEqual([0, expect.stringContaining('--server nginx|caddy')]);
  });

  it('agy-archive build --out <folder> builds the demo there, from any folder', async () => {
    const built = await run(bin, ['build', '--out', 'my site'], { cwd: path.join(dir, 'work'), env: userEnv(dir) });
    expect(built.code, built.output.slice(-3000)).toBe(0);
    const site = path.join(dir, 'work', 'my site');
    expect(readFileSync(path.join(site, 'index.html'), 'utf8')).toContain('Demo archive');
    const sessions = JSON.parse(readFileSync(path.join(site, 'sessions.json'), 'utf8')) as unknown[];
    expect(sessions.length).toBe(readdirSync(path.join(projectRoot, 'fixtures', 'demo')).filter((p) => p !== 'README.md').flatMap((p) => readdirSync(path.join(projectRoot, 'fixtures', 'demo', p, 'brain'))).length);
    expect(readdirSync(path.join(site, 'pagefind'))).toContain('pagefind.js');
    // Its cache went to the user's cache folder, not beside the package's code.
    expect(readdirSync(path.join(dir, 'home', '.cache', 'agy-archive')).length).toBeGreaterThan(0);
  }, 900_000);
});
