#!/usr/bin/env node
// `agy-archive <command>`: the project's commands for an install without a clone (`npx agy-archive build`,
// `npm install -g agy-archive`). Plain JavaScript that any Node runs: it starts the command's script on the Node the
// package pins (its `node` dependency, 24; Astro 7 needs >= 22.12), as `npm run <command>` does in a clone.
// The scripts are TypeScript, which Node strips itself, but not under node_modules, where an installed package
// lives: `strip-types.mjs` (preloaded into every Node process the command starts) strips them there.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const installed = packageRoot.split(path.sep).includes('node_modules');

const COMMANDS = {
  build: { script: 'scripts/build.ts', about: 'build the site from every session (or the demo) into --out DIR' },
  archive: { script: 'scripts/archive.ts', about: 'snapshot every live session into the archive store (--watch, --forget, --export)' },
  sessions: { script: 'scripts/sessions.ts', about: 'list the sessions the build will see (a prefix for one; --json)' },
  host: { script: 'scripts/host.ts', about: 'serve the built site with nginx or Caddy (--server, --port, --auth, --sso)' },
  preview: { script: 'node_modules/astro/bin/astro.mjs', about: 'serve the built site on http://localhost:4321/ (search needs http)' },
};

const HELP = `agy-archive: every Google Antigravity agent session on this machine, as a static, searchable audit website.

Usage: agy-archive <command> [--out DIR] [options]

${Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(9)} ${c.about}`).join('\n')}

  --out DIR  the site's folder (build writes it; host and preview serve it); default ./dist, or ARCHIVE_OUT_DIR
  --help     this text; \`agy-archive <command> --help\` for a command's own options

Reads ~/.gemini/*/brain/ (GEMINI_HOME, BRAIN_ROOTS); keeps an archive store in ~/.local/share/agy-archive/
(ARCHIVE_STORE). Every setting: https://www.npmjs.com/package/agy-archive (the README).`;

const COMMAND_HELP = {
  build: `Usage: agy-archive build [--out DIR]
Build the site from every session on this machine into DIR (default ./dist); with none found, the demo.
The out dir must be absent, empty, or a site this tool built. Env: GEMINI_HOME, BRAIN_ROOTS, ARCHIVE_STORE,
ARCHIVE_STORES, ARCHIVE_BASE, ARCHIVE_PRECOMPRESS (gzip,br), ARCHIVE_REDACT, ARCHIVE_CACHE_DIR (see the README).`,
  preview: `Usage: agy-archive preview [--out DIR]
Serve the built site in DIR (default ./dist) on http://localhost:4321/ (ARCHIVE_BASE: the base it was built with).`,
};

/** Stop with a message (exit code 2: wrong arguments). */
function stop(message) {
  console.error(message);
  process.exit(2);
}

/** The Node this package runs on: its own `node` dependency, else this one when it is new enough. */
function pinnedNode() {
  for (const candidate of [path.join(packageRoot, 'node_modules', 'node', 'bin', 'node'), path.join(packageRoot, 'node_modules', '.bin', 'node')]) {
    if (existsSync(candidate)) return candidate;
  }
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 18)) return process.execPath;
  stop(`agy-archive needs Node 22.18 or newer (this is ${process.version}), and its own copy of Node is missing.\nHint: reinstall the package (npm install -g agy-archive), which brings Node 24 with it.`);
}

const argv = process.argv.slice(2);
const name = argv[0];
if (!name || name === '--help' || name === '-h' || name === 'help') {
  console.log(HELP);
  process.exit(name ? 0 : 2);
}
if (name === '--version' || name === '-v') {
  const { readFileSync } = await import('node:fs');
  console.log(JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')).version);
  process.exit(0);
}
const command = COMMANDS[name];
if (!command) stop(`agy-archive: no command "${name}".\nHint: one of ${Object.keys(COMMANDS).join(', ')}; agy-archive --help says what each does.`);

// --out DIR (or --out=DIR) is the user's folder, relative to where they are; the rest goes to the command.
const rest = [];
let out;
for (let i = 1; i < argv.length; i++) {
  const arg = argv[i];
  if (arg === '--out') {
    out = argv[++i];
    if (!out) stop('agy-archive: --out needs a folder.');
  } else if (arg.startsWith('--out=')) out = arg.slice('--out='.length);
  else rest.push(arg);
}
if ((rest.includes('--help') || rest.includes('-h')) && COMMAND_HELP[name]) {
  console.log(COMMAND_HELP[name]);
  process.exit(0);
}

// Paths in settings mean the folder the user ran the command in (a clone's `npm run` resolved them against the
// project); `~` stays for the scripts to expand.
const env = { ...process.env };
const here = process.cwd();
const absolute = (p) => (p === '' || p === 'none' || p.startsWith('~') ? p : path.resolve(here, p));
for (const key of ['ARCHIVE_OUT_DIR', 'ARCHIVE_CACHE_DIR', 'ARCHIVE_STORE', 'GEMINI_HOME']) {
  if (env[key]?.trim()) env[key] = absolute(env[key].trim());
}
for (const key of ['BRAIN_ROOTS', 'ARCHIVE_STORES', 'ARCHIVE_JOIN']) {
  if (env[key]?.trim()) env[key] = env[key].split(':').map((p) => (p ? absolute(p) : p)).join(':');
}
if (out !== undefined) env.ARCHIVE_OUT_DIR = absolute(out);
else if (!env.ARCHIVE_OUT_DIR?.trim()) env.ARCHIVE_OUT_DIR = path.join(here, 'dist');
// An installed package keeps its build cache with the user's caches, not beside its code.
if (installed && !env.ARCHIVE_CACHE_DIR?.trim()) {
  env.ARCHIVE_CACHE_DIR = path.join(env.XDG_CACHE_HOME?.trim() || path.join(os.homedir(), '.cache'), 'agy-archive');
}
if (name === 'build') {
  // Astro's server bundle is written inside the project, where it finds the packages it imports.
  try {
    accessSync(packageRoot, constants.W_OK);
  } catch {
    stop(`agy-archive build writes its working files inside the package (${packageRoot}), which this user cannot write.\nHint: install it where you can write (npm install -g --prefix ~/.local agy-archive, or npx agy-archive build).`);
  }
}

env.ASTRO_TELEMETRY_DISABLED ??= '1';
const preload = pathToFileURL(path.join(packageRoot, 'bin', 'strip-types.mjs')).href;
env.NODE_OPTIONS = [env.NODE_OPTIONS, `--import=${preload}`, '--disable-warning=ExperimentalWarning'].filter(Boolean).join(' ');
const script = path.join(packageRoot, command.script);
const args = name === 'preview' ? [script, 'preview', ...rest] : [script, ...rest];
// build, host and preview run in the project as `npm run` does (their paths are absolute now); archive and sessions
// where the user is, so that `--export FILE` lands there.
const cwd = name === 'archive' || name === 'sessions' ? here : packageRoot;
const child = spawn(pinnedNode(), args, { cwd, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 1) : 1)));
