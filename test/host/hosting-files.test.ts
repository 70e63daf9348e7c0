/**
 * The files of `hosting/` (issue 31): the README shows each as it is (what a user copies is what the tests serve
 * with), they send the policies the pages carry (`src/lib/site-policy.ts`), and `npm run host` fills them in only
 * where they say "EDIT". The servers themselves are in `servers.test.ts`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/build-site.ts';
import { caddyEnv, caddyLogin, nginxMainConfig, nginxSiteConfig, nginxSsoConfig, readHtpasswd, siteBase, ssoServiceUrl } from '../../src/lib/host/server-config.ts';
import { EXPORT_CSP, PAGE_CSP, REFERRER_POLICY, X_FRAME_OPTIONS, headerPolicy } from '../../src/lib/site-policy.ts';

const read = (rel: string) => readFileSync(path.join(projectRoot, rel), 'utf8');
const readme = read('README.md');
const nginx = read('hosting/nginx.conf');
const caddy = read('hosting/Caddyfile');
const nginxSso = read('hosting/nginx-sso.conf');
const caddySso = read('hosting/caddy-sso.caddy');

/** Every fenced block of the README, by its language. */
function fencedBlocks(markdown: string, lang: string): string[] {
  return [...markdown.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]!);
}

/** How many lines of `b` differ from the same line of `a`. */
const changed = (a: string, b: string) => a.split('\n').filter((line, i) => line !== b.split('\n')[i]).length;

const BCRYPT = '$2y$05$abcdefghijklmnopqrstuu5S3jQ3Ty0N5rUcyvW0J0QiC7fJeZ4pa';
const settings = { siteDir: '/srv/my archive/dist', base: '/tools/agy-archive/', address: '127.0.0.1', port: 9123 };

describe('hosting/', () => {
  it('is what the README shows, byte for byte', () => {
    expect(fencedBlocks(readme, 'nginx')).toContain(nginx);
    expect(fencedBlocks(readme, 'caddy')).toContain(caddy);
    expect(fencedBlocks(readme, 'nginx')).toContain(nginxSso);
    expect(fencedBlocks(readme, 'caddy')).toContain(caddySso);
  });

  it('sends the policies the pages carry, with the frame policy, in both servers', () => {
    for (const [name, text] of [['nginx', nginx], ['caddy', caddy]] as const) {
      expect(text, name).toContain(`"${headerPolicy(PAGE_CSP)}"`);
      expect(text, name).toContain(`"${headerPolicy(EXPORT_CSP)}"`);
      expect(text, name).toContain(`Referrer-Policy ${REFERRER_POLICY}`);
      expect(text, name).toContain(`X-Frame-Options ${X_FRAME_OPTIONS}`);
    }
  });

  it('nginx: npm run host fills in the lines marked EDIT, quoting paths, and the login only when asked', () => {
    const plain = nginxSiteConfig(nginx, settings, { brotli: true });
    expect(plain).toContain('listen 127.0.0.1:9123;');
    expect(plain).toContain('location "/tools/agy-archive/" {');
    expect(plain).toContain('alias "/srv/my archive/dist/";');
    expect(plain).toContain('error_page 404 "/tools/agy-archive/404.html";');
    expect(plain).toContain('#auth_basic "agy-archive";');
    expect(plain).toContain('\n        brotli_static on;');
    const login = nginxSiteConfig(nginx, { ...settings, address: '::1', htpasswd: '/etc/a "b".htpasswd' }, { brotli: false });
    expect(login).toContain('listen [::1]:9123;');
    expect(login).toContain('\n        auth_basic "agy-archive";');
    expect(login).toContain('auth_basic_user_file "/etc/a \\"b\\".htpasswd";');
    expect(login).toContain('# brotli_static on;');
    // Every other line is the shipped file's own.
    expect(changed(nginx, plain)).toBe(4);
  });

  it('single sign-on: npm run host fills in the service address only, and nginx includes the file only when asked', () => {
    const sso = nginxSsoConfig(nginxSso, 'http://10.0.0.5:9091');
    expect(sso).toContain('proxy_pass http://10.0.0.5:9091/oauth2/auth;');
    expect(sso).toContain('proxy_pass http://10.0.0.5:9091;');
    expect(sso).not.toContain('4180');
    expect(changed(nginxSso, sso)).toBe(2);
    expect(nginxSiteConfig(nginx, settings, { brotli: true })).toContain('#include /etc/nginx/agy-archive-sso.conf;');
    const included = nginxSiteConfig(nginx, { ...settings, sso: '/run/my sso.conf' }, { brotli: true });
    expect(included).toContain('\n    include "/run/my sso.conf";');
    // Caddy reads the address from its environment, as the file says.
    expect(caddyEnv({ ...settings, sso: 'http://10.0.0.5:9091' }, '/x.caddy').AGY_ARCHIVE_SSO).toBe('http://10.0.0.5:9091');
    expect(caddyEnv(settings, '/x.caddy')).not.toHaveProperty('AGY_ARCHIVE_SSO');
    expect(caddySso).toContain('{$AGY_ARCHIVE_SSO:http://127.0.0.1:4180}');
  });

  it("single sign-on: --sso takes a service's address, nothing more", () => {
    expect(ssoServiceUrl('http://127.0.0.1:4180')).toBe('http://127.0.0.1:4180');
    expect(ssoServiceUrl('https://login.internal:8443/')).toBe('https://login.internal:8443');
    expect(ssoServiceUrl('http://[::1]:4180')).toBe('http://[::1]:4180');
    for (const bad of ['http://127.0.0.1:4180/oauth2/auth', 'http://127.0.0.1:4180/?a=1', 'http://u:p@127.0.0.1:4180', 'file:///etc/passwd']) {
      expect(() => ssoServiceUrl(bad), bad).toThrow(/only http\(s\):\/\/host:port is taken/);
    }
    expect(() => ssoServiceUrl('127.0.0.1:4180x')).toThrow(/not a URL/);
  });

  it('nginx: a shipped file whose EDIT line is gone is refused by name, not served half filled in', () => {
    expect(() => nginxSiteConfig(nginx.replace('listen 127.0.0.1:8080;', 'listen 80;'), settings, { brotli: true })).toThrow(
      /expected the line "listen 127.0.0.1:8080;" once, found it 0 times/,
    );
  });

  it("nginx: the main file keeps pid and temp files in the run folder and loads brotli_static when it is there", () => {
    const main = nginxMainConfig({ runDir: '/tmp/run', siteConfig: '/tmp/run/site.conf', mimeTypes: '/etc/nginx/mime.types', brotliModule: '/m/brotli.so' });
    expect(main).toContain('daemon off;');
    expect(main).toContain('pid "/tmp/run/nginx.pid";');
    expect(main).toContain('load_module "/m/brotli.so";');
    expect(main).toContain('include "/tmp/run/site.conf";');
    expect(main).not.toContain('user ');
    expect(nginxMainConfig({ runDir: '/r', siteConfig: '/r/s', mimeTypes: '/m', user: 'root' })).toContain('user root;');
  });

  it('caddy: the variables the Caddyfile reads, each of them in it', () => {
    const env = caddyEnv(settings, '/tmp/run/login/*.caddy');
    expect(env).toEqual({
      AGY_ARCHIVE_ADDRESS: 'http://:9123',
      AGY_ARCHIVE_BIND: 'tcp4/127.0.0.1',
      AGY_ARCHIVE_DIST: '/srv/my archive/dist',
      AGY_ARCHIVE_BASE: '/tools/agy-archive',
      AGY_ARCHIVE_AUTH: '/tmp/run/login/*.caddy',
      AGY_ARCHIVE_ADMIN: 'off',
    });
    for (const name of Object.keys(env)) expect(caddy).toContain(`{$${name}:`);
    expect(caddyEnv({ ...settings, base: '/' }, '').AGY_ARCHIVE_BASE).toBe('');
    expect(caddyEnv({ ...settings, address: '::1' }, '').AGY_ARCHIVE_BIND).toBe('tcp6/[::1]');
  });

  it('an htpasswd file: bcrypt users taken, any other scheme refused with the line and how to make one', () => {
    const logins = readHtpasswd(`# team\nalice:${BCRYPT}\r\n\nbob:${BCRYPT.replace('$2y$', '$2b$')}\n`, 'users');
    expect(logins.map((l) => l.user)).toEqual(['alice', 'bob']);
    expect(caddyLogin(logins)).toBe(`basicauth {\n\talice ${BCRYPT}\n\tbob ${BCRYPT.replace('$2y$', '$2b$')}\n}\n`);
    expect(() => readHtpasswd(`alice:${BCRYPT}\nbob:$apr1$abcdefgh$0123456789abcdefghijkl\n`, 'users')).toThrow(/^users:2: not a user with a bcrypt hash.*htpasswd -B/);
    expect(() => readHtpasswd('carol:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=\n', 'users')).toThrow(/users:1/);
    expect(() => readHtpasswd('# nobody\n', 'users')).toThrow(/no user in it/);
  });

  it("reads the base a site was built for off its home page", () => {
    expect(siteBase('<script src="/tools/agy-archive/theme-init.js"></script>')).toBe('/tools/agy-archive/');
    expect(siteBase('<script src="/theme-init.js"></script>')).toBe('/');
    expect(siteBase('<html><body>hello</body></html>')).toBeUndefined();
  });
});
