/**
 * `npm run host`: the configuration a real web server (nginx or Caddy) serves a built site with. The files are the
 * ones the project ships in `hosting/` and the README shows, which a user copies into `/etc/nginx/` or a Caddyfile:
 * nginx's is filled in at the lines marked "EDIT" (nginx reads no environment), Caddy's reads environment variables
 * (`{$AGY_ARCHIVE_DIST}`), so it is used as it is. Pure: text in, text out; `scripts/host.ts` runs the servers.
 */
import path from 'node:path';

/** The two servers `npm run host` knows. */
export const SERVERS = ['nginx', 'caddy'] as const;
export type ServerName = (typeof SERVERS)[number];

/** What a server is asked to serve, and how. */
export interface HostSettings {
  /** The built site (absolute). */
  siteDir: string;
  /** The base the site was built with (`/`, `/tools/agy-archive/`): starts and ends with `/`. */
  base: string;
  /** Address to listen on (`127.0.0.1`, `::1`, `0.0.0.0`). */
  address: string;
  port: number;
  /** An htpasswd file (bcrypt entries) that every path asks a login of; none when absent. */
  htpasswd?: string;
  /**
   * Single sign-on: the filled-in `hosting/nginx-sso.conf` nginx includes (its path), or for Caddy the login
   * service's address (`http://127.0.0.1:4180`) `hosting/caddy-sso.caddy` reads; none when absent.
   */
  sso?: string;
}

/** `host:port` with an IPv6 address in brackets. */
export function listenAddress(address: string, port: number): string {
  return `${address.includes(':') ? `[${address}]` : address}:${port}`;
}

/** A value as one nginx token: quoted, with `"` and `\` escaped (a site folder may hold spaces). */
function nginxString(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/**
 * Replace each `[from, to]` of `edits` in `template`, each found exactly once: when the shipped file changes so that
 * a line is gone or doubled, this says which, rather than serve a configuration nobody wrote.
 */
function fillIn(template: string, edits: Array<[string, string]>, file: string): string {
  let out = template;
  for (const [from, to] of edits) {
    const count = out.split(from).length - 1;
    if (count !== 1) throw new Error(`${file}: expected the line "${from.trim()}" once, found it ${count} times`);
    out = out.replace(from, () => to);
  }
  return out;
}

/** The shipped `hosting/nginx.conf` with the lines marked "EDIT" filled in for `settings`. */
export function nginxSiteConfig(template: string, settings: HostSettings, options: { brotli: boolean }): string {
  const siteDir = settings.siteDir.endsWith(path.sep) ? settings.siteDir : settings.siteDir + path.sep;
  const edits: Array<[string, string]> = [
    ['listen 127.0.0.1:8080;', `listen ${listenAddress(settings.address, settings.port)};`],
    ['location / {', `location ${nginxString(settings.base)} {`],
    ['alias /srv/agy-archive/dist/;', `alias ${nginxString(siteDir)};`],
    ['error_page 404 /404.html;', `error_page 404 ${nginxString(`${settings.base}404.html`)};`],
  ];
  if (settings.htpasswd) {
    edits.push(['#auth_basic "agy-archive";', 'auth_basic "agy-archive";']);
    edits.push(['#auth_basic_user_file /etc/nginx/agy-archive.htpasswd;', `auth_basic_user_file ${nginxString(settings.htpasswd)};`]);
  }
  if (settings.sso) edits.push(['#include /etc/nginx/agy-archive-sso.conf;', `include ${nginxString(settings.sso)};`]);
  // Without the module nginx refuses the directive; the gzip copies are still sent.
  if (!options.brotli) edits.push(['brotli_static on;', '# brotli_static on;']);
  return fillIn(template, edits, 'hosting/nginx.conf');
}

/**
 * The login service's address for `--sso`: an `http(s)://host:port` URL and nothing more (the files add the paths),
 * returned without a last slash; an error saying what is wrong otherwise.
 */
export function ssoServiceUrl(given: string): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new Error(`--sso ${given}: not a URL. Hint: the login service's address, e.g. --sso http://127.0.0.1:4180`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    throw new Error(`--sso ${given}: only http(s)://host:port is taken (the paths are in hosting/). Hint: --sso http://127.0.0.1:4180`);
  }
  return url.origin;
}

/** The shipped `hosting/nginx-sso.conf` with the login service's address (`ssoServiceUrl`) in its lines marked "EDIT". */
export function nginxSsoConfig(template: string, serviceUrl: string): string {
  return fillIn(
    template,
    [
      ['proxy_pass http://127.0.0.1:4180/oauth2/auth;', `proxy_pass ${serviceUrl}/oauth2/auth;`],
      ['proxy_pass http://127.0.0.1:4180;', `proxy_pass ${serviceUrl};`],
    ],
    'hosting/nginx-sso.conf',
  );
}

/**
 * The main configuration `npm run host` starts nginx with (what Debian's `/etc/nginx/nginx.conf` is on a server):
 * in the foreground, its pid and temp files in `runDir`, errors on stderr, the site's file included.
 */
export function nginxMainConfig(options: {
  runDir: string;
  siteConfig: string;
  mimeTypes: string;
  /** The brotli_static module's file, when installed. */
  brotliModule?: string;
  /** Workers' user, for a master started as root (they would run as `nobody` and not read the site). */
  user?: string;
}): string {
  const inRun = (name: string) => nginxString(path.join(options.runDir, name));
  return [
    'daemon off;',
    'worker_processes 1;',
    `pid ${inRun('nginx.pid')};`,
    'error_log stderr warn;',
    ...(options.user ? [`user ${options.user};`] : []),
    ...(options.brotliModule ? [`load_module ${nginxString(options.brotliModule)};`] : []),
    'events { worker_connections 512; }',
    'http {',
    `    include ${nginxString(options.mimeTypes)};`,
    '    default_type application/octet-stream;',
    '    types { application/javascript mjs; application/manifest+json webmanifest; }',
    '    access_log off;',
    // A missing page is answered with the site's 404 page; as an error line on the terminal it is only noise.
    '    log_not_found off;',
    '    sendfile on;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `    ${t}_temp_path ${inRun(`${t}-temp`)};`),
    `    include ${nginxString(options.siteConfig)};`,
    '}',
    '',
  ].join('\n');
}

/** The environment the shipped `hosting/Caddyfile` reads (`{$AGY_ARCHIVE_…}`) for `settings`. */
export function caddyEnv(settings: HostSettings, loginGlob: string): Record<string, string> {
  return {
    ...(settings.sso ? { AGY_ARCHIVE_SSO: settings.sso } : {}),
    // Any host name; where it listens is `bind`'s (a host in the site address only matches requests' Host).
    AGY_ARCHIVE_ADDRESS: `http://:${settings.port}`,
    AGY_ARCHIVE_BIND: settings.address.includes(':') ? `tcp6/[${settings.address}]` : `tcp4/${settings.address}`,
    AGY_ARCHIVE_DIST: settings.siteDir,
    AGY_ARCHIVE_BASE: settings.base.replace(/\/$/, ''),
    AGY_ARCHIVE_AUTH: loginGlob,
    // Several archives (and the tests) serve at once: no shared admin port.
    AGY_ARCHIVE_ADMIN: 'off',
  };
}

/** One user of an htpasswd file. */
export interface Login {
  user: string;
  hash: string;
}

/**
 * The users of an htpasswd file. Only bcrypt (`htpasswd -B`: `$2y$`, `$2a$`, `$2b$`) is taken: Caddy knows no other
 * scheme, and the others (MD5-crypt `$apr1$`, SHA-1, crypt) are weak for a file that guards a company's history.
 */
export function readHtpasswd(text: string, file: string): Login[] {
  const logins: Login[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const colon = line.indexOf(':');
    const user = line.slice(0, colon);
    const hash = line.slice(colon + 1);
    if (colon <= 0 || !/^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/.test(hash)) {
      throw new Error(
        `${file}:${i + 1}: not a user with a bcrypt hash. Hint: make the file with \`htpasswd -B -c ${file} <user>\` (bcrypt; other schemes are refused).`,
      );
    }
    if (/\s/.test(user)) throw new Error(`${file}:${i + 1}: a user name with a space. Hint: choose a name without spaces.`);
    logins.push({ user, hash });
  });
  if (logins.length === 0) throw new Error(`${file}: no user in it. Hint: add one with \`htpasswd -B ${file} <user>\`.`);
  return logins;
}

/** A Caddyfile `basicauth` block for `logins` (what `hosting/Caddyfile` imports). */
export function caddyLogin(logins: Login[]): string {
  return ['basicauth {', ...logins.map((l) => `\t${l.user} ${l.hash}`), '}', ''].join('\n');
}

/**
 * The base a built site was made for, read off its home page (the theme script every page loads from
 * `<base>theme-init.js`); undefined when `indexHtml` is not one of this tool's pages.
 */
export function siteBase(indexHtml: string): string | undefined {
  const m = /<script[^>]*\ssrc="([^"]*\/)theme-init\.js"/.exec(indexHtml);
  return m?.[1];
}
