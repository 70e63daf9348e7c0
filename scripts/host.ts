/**
 * `npm run host -- --server nginx|caddy [--port 8080] [--address 127.0.0.1] [--auth FILE | --sso URL] [--out DIR]`:
 * serve the built site with a real web server, in the foreground, from the configuration files in `hosting/` (the
 * ones the README shows and a user copies): precompressed copies, security headers, caching, the site's own 404 page,
 * and with `--auth` an htpasswd login on every path, or with `--sso` the company's login service asked first. Ctrl-C stops it. The server's pid and temp files live in a temp
 * folder removed on exit; nothing is written into the site.
 *
 * Env: ARCHIVE_OUT_DIR (the site; default dist/ in the project), ARCHIVE_BASE (must be the base the site was built
 * with; read off the site when unset).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { expandHome } from '../src/lib/home-path.ts';
import { BROTLI_MODULES, findProgram } from '../src/lib/host/find-program.ts';
import {
  SERVERS,
  caddyEnv,
  caddyLogin,
  listenAddress,
  nginxMainConfig,
  nginxSiteConfig,
  nginxSsoConfig,
  readHtpasswd,
  siteBase,
  ssoServiceUrl,
  type HostSettings,
  type ServerName,
} from '../src/lib/host/server-config.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const hostingDir = path.join(projectRoot, 'hosting');

const HELP = `Usage: npm run host -- --server nginx|caddy [options]
Serve the built site with a real web server, in the foreground (Ctrl-C stops it), from the files in hosting/.

  --server nginx|caddy  the server (Debian: apt-get install nginx libnginx-mod-http-brotli-static, or caddy)
  --port N              port to listen on (default 8080)
  --address ADDR        address to listen on (default 127.0.0.1: this machine only)
  --auth FILE           an htpasswd file of bcrypt hashes (htpasswd -B -c FILE <user>): every path asks a login
  --sso URL             single sign-on: every path is first asked of the login service at URL (oauth2-proxy's
                        endpoints, e.g. http://127.0.0.1:4180; hosting/nginx-sso.conf, hosting/caddy-sso.caddy)
  --out DIR             the built site (default ARCHIVE_OUT_DIR, else dist/)
  --help                this text

Env: ARCHIVE_OUT_DIR, ARCHIVE_BASE (the base the site was built with; read off the site when unset).`;

/** Stop with a message and a hint (exit code 2: a setting the command cannot use). */
function stop(message: string, hint?: string): never {
  console.error(hint ? `${message}\nHint: ${hint}` : message);
  process.exit(2);
}

const firstExisting = (paths: string[]): string | undefined => paths.find((p) => existsSync(p));

/** Where Debian (and other distributions) put nginx's mime.types. */
const MIME_TYPES = ['/etc/nginx/mime.types', '/usr/local/etc/nginx/mime.types', '/opt/homebrew/etc/nginx/mime.types'];

/** True when nothing listens on `address:port` yet. */
function portFree(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: address, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** True once `address:port` accepts a connection. */
function accepts(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: address, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

let args;
try {
  args = parseArgs({
    options: {
      server: { type: 'string' },
      port: { type: 'string', default: '8080' },
      address: { type: 'string', default: '127.0.0.1' },
      auth: { type: 'string' },
      sso: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  stop(String((error as Error).message), 'see `npm run host -- --help`.');
}
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const server = args.server as ServerName | undefined;
if (!server || !SERVERS.includes(server)) stop(`--server must be one of ${SERVERS.join(', ')}${server ? ` (not "${server}")` : ''}.`, 'npm run host -- --server nginx --port 8080');
const port = Number(args.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) stop(`--port must be a port number (not "${args.port}").`);

const siteDir = path.resolve(projectRoot, expandHome(args.out ?? process.env.ARCHIVE_OUT_DIR?.trim() ?? '') || 'dist');
let indexHtml = '';
try {
  indexHtml = readFileSync(path.join(siteDir, 'index.html'), 'utf8');
} catch {
  stop(`${siteDir} holds no built site (no index.html).`, 'run `npm run build` first, or point --out (or ARCHIVE_OUT_DIR) at the site.');
}
const builtBase = siteBase(indexHtml);
if (!builtBase) stop(`${siteDir}/index.html is not a page of an agy-archive site.`, 'point --out (or ARCHIVE_OUT_DIR) at a site `npm run build` wrote.');
const givenBase = process.env.ARCHIVE_BASE?.trim();
if (givenBase && givenBase.replace(/\/?$/, '/') !== builtBase) {
  stop(`ARCHIVE_BASE is ${givenBase}, but the site in ${siteDir} was built for ${builtBase}.`, `build again with ARCHIVE_BASE=${givenBase}, or serve it at ${builtBase} (unset ARCHIVE_BASE).`);
}

if (args.auth !== undefined && args.sso !== undefined) stop('--auth and --sso both put a login in front: give one of them.');

let htpasswd: string | undefined;
if (args.auth) {
  htpasswd = path.resolve(expandHome(args.auth));
  let text = '';
  try {
    text = readFileSync(htpasswd, 'utf8');
  } catch (error) {
    stop(`--auth ${args.auth}: ${(error as Error).message}`, `make it with \`htpasswd -B -c ${args.auth} <user>\` (apt-get install apache2-utils).`);
  }
  try {
    readHtpasswd(text, htpasswd);
  } catch (error) {
    stop((error as Error).message);
  }
}

let ssoService: string | undefined;
if (args.sso !== undefined) {
  try {
    ssoService = ssoServiceUrl(args.sso);
  } catch (error) {
    stop((error as Error).message);
  }
}

const settings: HostSettings = { siteDir, base: builtBase, address: args.address!, port, htpasswd };
const program = findProgram(server);
if (!program) {
  stop(`${server} is not installed.`, server === 'nginx' ? 'apt-get install nginx libnginx-mod-http-brotli-static' : 'apt-get install caddy');
}
if (!(await portFree(settings.address, port))) stop(`${listenAddress(settings.address, port)} is in use.`, 'choose another --port.');

const runDir = mkdtempSync(path.join(os.tmpdir(), 'agy-archive-host-'));
let command: string[];
let env: NodeJS.ProcessEnv = process.env;
if (server === 'nginx') {
  const mimeTypes = firstExisting(MIME_TYPES);
  if (!mimeTypes) stop('nginx\'s mime.types was not found (looked in /etc/nginx/).', 'install nginx from your distribution.');
  const brotliModule = firstExisting(BROTLI_MODULES);
  if (!brotliModule) console.error('agy-archive host: the brotli_static module is not installed; nginx sends the gzip copies only (apt-get install libnginx-mod-http-brotli-static).');
  if (ssoService) {
    settings.sso = path.join(runDir, 'agy-archive-sso.conf');
    writeFileSync(settings.sso, nginxSsoConfig(readFileSync(path.join(hostingDir, 'nginx-sso.conf'), 'utf8'), ssoService));
  }
  const siteConfig = path.join(runDir, 'agy-archive.conf');
  writeFileSync(siteConfig, nginxSiteConfig(readFileSync(path.join(hostingDir, 'nginx.conf'), 'utf8'), settings, { brotli: Boolean(brotliModule) }));
  const mainConfig = path.join(runDir, 'nginx.conf');
  // Started as root, nginx's workers would run as `nobody`, who may not read the site: they run as root too.
  writeFileSync(mainConfig, nginxMainConfig({ runDir, siteConfig, mimeTypes, brotliModule, user: process.getuid?.() === 0 ? 'root' : undefined }));
  const test = spawnSync(program, ['-t', '-q', '-p', runDir, '-c', mainConfig, '-e', 'stderr'], { encoding: 'utf8' });
  if (test.status !== 0) {
    rmSync(runDir, { recursive: true, force: true });
    stop(`nginx refused the configuration:\n${test.stderr.trim()}`);
  }
  command = [program, '-p', runDir, '-c', mainConfig, '-e', 'stderr'];
} else {
  const loginDir = path.join(runDir, 'login');
  let login = path.join(loginDir, '*.caddy');
  if (ssoService) {
    settings.sso = ssoService;
    login = path.join(hostingDir, 'caddy-sso.caddy');
  }
  if (htpasswd) {
    writeFileSync(path.join(runDir, 'login.caddy'), caddyLogin(readHtpasswd(readFileSync(htpasswd, 'utf8'), htpasswd)), { mode: 0o600 });
  }
  env = {
    ...process.env,
    ...caddyEnv(settings, htpasswd ? path.join(runDir, 'login.caddy') : login),
    // Caddy keeps an autosaved configuration and its data in the user's folders: here, in the run folder.
    XDG_CONFIG_HOME: path.join(runDir, 'config'),
    XDG_DATA_HOME: path.join(runDir, 'data'),
  };
  command = [program, 'run', '--config', path.join(hostingDir, 'Caddyfile'), '--adapter', 'caddyfile'];
}

const child = spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'inherit', 'inherit'] });
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    stopping = true;
    // nginx: TERM is a fast shutdown (QUIT would wait for idle keep-alive connections); Caddy stops on either.
    child.kill('SIGTERM');
  });
}
child.on('exit', (code, signal) => {
  rmSync(runDir, { recursive: true, force: true });
  if (!stopping) console.error(`agy-archive host: ${server} stopped (${signal ?? `exit code ${code}`}).`);
  process.exit(stopping ? 0 : (code ?? 1));
});
child.on('error', (error) => {
  rmSync(runDir, { recursive: true, force: true });
  stop(`${program} did not start: ${error.message}`);
});

// Say where it serves once it does (the tests wait for this line).
while (!(await accepts(settings.address, port))) {
  if (child.exitCode !== null || stopping) break;
  await new Promise((r) => setTimeout(r, 100));
}
if (child.exitCode === null && !stopping) {
  if (!htpasswd && !ssoService && !['127.0.0.1', '::1', 'localhost'].includes(settings.address)) {
    console.error(`agy-archive host: !!! ${settings.address} without --auth: anyone who reaches this machine reads every session of the archive. Put a login in front (README, "A login in front").`);
  }
  const shown = settings.address === '0.0.0.0' || settings.address === '::' ? 'localhost' : settings.address;
  console.log(
    `agy-archive host: ${server} serves ${siteDir} at http://${listenAddress(shown, port)}${builtBase}` +
      `${htpasswd ? ` (login: ${htpasswd})` : ''}${ssoService ? ` (single sign-on: ${ssoService})` : ''}. Ctrl-C stops it.`,
  );
}
