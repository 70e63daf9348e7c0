/**
 * The hosting tests' shared pieces: one build for all of them (the demo sessions and a Korean one, under a sub-path,
 * precompressed), `npm run host` started on a free loopback port and stopped, and plain HTTP requests that send
 * exactly the headers given (Node's fetch adds its own Accept-Encoding and decompresses).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { BROTLI_MODULES, findProgram } from '../../src/lib/host/find-program.ts';

export { BROTLI_MODULES };
import { projectRoot } from './build-site.ts';
import { sharedBuild, type SharedBuild } from './shared-build.ts';

/** The servers `npm run host` runs, with the Debian packages that hold them and the files that must exist. */
export const HOST_SERVERS = [
  { name: 'nginx', apt: 'nginx libnginx-mod-http-brotli-static', files: BROTLI_MODULES },
  { name: 'caddy', apt: 'caddy', files: [] as readonly string[] },
] as const;

/** The base the hosted site is built under (every page must be served beneath it). */
export const HOSTED_BASE = '/tools/agy-archive/';

/** The Korean session of fixtures/hosting, and the Korean word of its request. */
export const KOREAN_SESSION = '00000000-0000-4000-8000-000000000070';
export const KOREAN_WORD = '배포';

/** The demo's four products' brain folders and the Korean one, precompressed, under `HOSTED_BASE`; built once a run. */
export function hostedBuild(): Promise<SharedBuild> {
  const demo = path.join(projectRoot, 'fixtures', 'demo');
  const roots = ['antigravity', 'antigravity-ide', 'antigravity-cli', 'jetski'].map((p) => path.join(demo, p, 'brain'));
  roots.push(path.join(projectRoot, 'fixtures', 'hosting', 'korean', 'antigravity-ide', 'brain'));
  return sharedBuild('hosted', { BRAIN_ROOTS: roots.join(':'), ARCHIVE_BASE: HOSTED_BASE, ARCHIVE_PRECOMPRESS: 'gzip,br' });
}

/** The program's path when installed (on PATH or in the sbin folders), else undefined. */
export const installed = (program: string): string | undefined => findProgram(program);

/**
 * True when the tests of `program` may run; false (after a loud line) where it is missing. CI (`AGY_ARCHIVE_CI=1`,
 * set by `.ci/run`, which installs every server) never skips: a missing server fails there.
 */
export function serverAvailable(program: string, apt: string, files: readonly string[] = []): boolean {
  if (installed(program) && (files.length === 0 || files.some((f) => existsSync(f)))) return true;
  const message = `\n!!! ${program} is not installed: its hosting tests are SKIPPED. Install it: apt-get install ${apt}\n`;
  if (process.env.AGY_ARCHIVE_CI === '1') throw new Error(message);
  console.warn(message);
  return false;
}

/** A port nothing listens on now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A running `npm run host`. */
export interface Hosted {
  /** `http://127.0.0.1:<port>` (add the base). */
  origin: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Start `scripts/host.ts` over `siteDir` (`--out`; undefined: as `env` says, ARCHIVE_OUT_DIR) with `args`; resolves
 * once it says it serves (rejects if it exits first).
 */
export async function startHost(siteDir: string | undefined, args: string[], env: Record<string, string> = {}): Promise<Hosted> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  delete childEnv.ARCHIVE_BASE;
  delete childEnv.ARCHIVE_OUT_DIR;
  Object.assign(childEnv, env);
  const child: ChildProcess = spawn(process.execPath, [path.join(projectRoot, 'scripts', 'host.ts'), '--port', String(port), ...(siteDir ? ['--out', siteDir] : []), ...args], {
    cwd: projectRoot,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (/ serves .* at http:/.test(output)) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    void exited.then(() => reject(new Error(`npm run host ${args.join(' ')} exited before serving:\n${output}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** An answer as it came over the wire. */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request with exactly `headers` (no Accept-Encoding unless given); the body as sent, not decompressed. */
export function request(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** `Authorization` for a user and password. */
export function basicAuth(user: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}
