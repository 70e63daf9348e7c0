/**
 * `npm run host` with the real servers (issue 31): nginx (with Debian's brotli_static module) and Caddy serve one
 * shared build (the demo sessions and a Korean one, under /tools/agy-archive/, precompressed) from the files in
 * `hosting/`, on free loopback ports. What a browser gets is read off the wire: the encoding negotiated, the
 * security headers against the policy the pages carry, caching, the site's 404, short links, every file under the
 * base, and search in Chromium through the server. A missing server is skipped loudly (never in CI).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import {
  HOST_SERVERS,
  HOSTED_BASE,
  KOREAN_SESSION,
  KOREAN_WORD,
  basicAuth,
  hostedBuild,
  installed,
  request,
  serverAvailable,
  startHost,
  type Hosted,
} from '../helpers/hosting.ts';
import { RESULT_LINK, expectProductFilterNarrows, resultCount } from '../helpers/search-ui.ts';
import type { SharedBuild } from '../helpers/shared-build.ts';
import { headerPolicy } from '../../src/lib/site-policy.ts';

const SERVERS = HOST_SERVERS;

/** Every file of the site, as paths relative to it (no dot files, no precompressed copies). */
function siteFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...siteFiles(dir, p));
    else if (!/\.(br|gz)$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The content of a page's `<meta http-equiv="Content-Security-Policy">` and `<meta name="referrer">`. */
function metaPolicies(html: string): { csp: string | undefined; referrer: string | undefined } {
  return {
    csp: /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1]?.replaceAll('&#39;', "'"),
    referrer: /<meta name="referrer" content="([^"]+)"/.exec(html)?.[1],
  };
}

let build: SharedBuild;
/** The site as served: through a folder whose name has spaces, with a TMPDIR that has them too (both servers quote). */
let spaced: string;
let served: string;
let hostEnv: Record<string, string>;
beforeAll(async () => {
  if (!SERVERS.some((s) => installed(s.name))) return;
  build = await hostedBuild();
  expect(build.code, build.output.slice(-3000)).toBe(0);
  spaced = mkdtempSync(path.join(os.tmpdir(), 'agy host space '));
  served = path.join(spaced, 'the site');
  symlinkSync(build.outDir, served);
  mkdirSync(path.join(spaced, 'tmp dir'));
  hostEnv = { TMPDIR: path.join(spaced, 'tmp dir') };
});
afterAll(() => {
  if (spaced) rmSync(spaced, { recursive: true, force: true });
});

for (const server of SERVERS) {
  describe.skipIf(!serverAvailable(server.name, server.apt, server.files))(`npm run host -- --server ${server.name}`, () => {
    let hosted: Hosted;
    const url = (rel = '') => `${hosted.origin}${HOSTED_BASE}${rel}`;
    const file = (rel: string) => readFileSync(path.join(build.outDir, rel));

    beforeAll(async () => {
      hosted = await startHost(served, ['--server', server.name], hostEnv);
    });
    afterAll(async () => {
      await hosted?.stop();
    });

    it('sends the brotli copy to a client that accepts br, gzip to one that accepts only gzip, the file otherwise, varying on Accept-Encoding', async () => {
      const css = readdirSync(path.join(build.outDir, '_astro')).find((f) => f.endsWith('.css'))!;
      for (const rel of ['index.html', 'sessions.json', `_astro/${css}`, 'pagefind/pagefind.js']) {
        const at = url(rel === 'index.html' ? '' : rel);
        const br = await request(at, { 'accept-encoding': 'gzip, deflate, br' });
        expect([br.status, br.headers['content-encoding']], rel).toEqual([200, 'br']);
        expect(br.body.equals(file(`${rel}.br`)), rel).toBe(true);
        const gzip = await request(at, { 'accept-encoding': 'gzip' });
        expect([gzip.status, gzip.headers['content-encoding']], rel).toEqual([200, 'gzip']);
        expect(gzip.body.equals(file(`${rel}.gz`)), rel).toBe(true);
        const plain = await request(at);
        expect([plain.status, plain.headers['content-encoding']], rel).toEqual([200, undefined]);
        expect(plain.body.equals(file(rel)), rel).toBe(true);
        for (const answer of [br, gzip, plain]) expect(answer.headers.vary, rel).toMatch(/Accept-Encoding/i);
      }
    });

    it('sends the policy each page carries as headers, with the frame policy a meta tag cannot carry', async () => {
      const session = readdirSync(path.join(build.outDir, 'sessions'))[0]!;
      for (const rel of ['', 'search/', 'report/', `sessions/${session}/`, `sessions/${session}/export.html`, 'no-such-page/']) {
        const answer = await request(url(rel));
        const meta = metaPolicies(answer.body.toString('utf8'));
        expect(meta.csp, rel).toBeTruthy();
        expect(answer.headers['content-security-policy'], rel).toBe(headerPolicy(meta.csp!));
        expect(answer.headers['referrer-policy'], rel).toBe(meta.referrer);
        expect(answer.headers['x-content-type-options'], rel).toBe('nosniff');
        expect(answer.headers['x-frame-options'], rel).toBe('DENY');
      }
      // Not only pages: a script and the search index too.
      for (const rel of ['theme-init.js', 'pagefind/pagefind-entry.json']) {
        const answer = await request(url(rel));
        expect(answer.headers['x-content-type-options'], rel).toBe('nosniff');
        expect(answer.headers['content-security-policy'], rel).toContain("frame-ancestors 'none'");
      }
    });

    it("caches hashed assets for a year and revalidates pages, sessions.json and Pagefind's entry files", async () => {
      const immutable = 'public, max-age=31536000, immutable';
      const hashed = readdirSync(path.join(build.outDir, '_astro')).filter((f) => !/\.(br|gz)$/.test(f));
      expect(hashed.length).toBeGreaterThan(2);
      for (const f of hashed) expect((await request(url(`_astro/${f}`))).headers['cache-control'], f).toBe(immutable);
      const index = readdirSync(path.join(build.outDir, 'pagefind', 'index'))[0]!;
      expect((await request(url(`pagefind/index/${index}`))).headers['cache-control']).toBe(immutable);
      const shards = JSON.parse(file('pagefind/shards.json').toString('utf8')) as string[];
      const revalidated = ['', 'search/', 'sessions.json', '404.html', 'pagefind/pagefind.js', 'pagefind/pagefind-entry.json', 'pagefind/shards.json', `pagefind/${shards[0]}/pagefind-entry.json`, `pagefind/${shards[0]}/pagefind.js`];
      for (const rel of revalidated) {
        const answer = await request(url(rel));
        expect([answer.status, answer.headers['cache-control']], rel).toEqual([200, 'no-cache']);
      }
    });

    it("answers a missing path 404 with the site's own page, and never serves the build's mark", async () => {
      const notFound = file('404.html');
      for (const rel of ['no-such-page/', 'sessions/00000000-0000-4000-8000-999999999999/', 'pagefind/nothing.js', '.agy-archive-build']) {
        const answer = await request(url(rel));
        expect(answer.status, rel).toBe(404);
        expect(answer.body.equals(notFound), rel).toBe(true);
      }
      // Outside the base is not the archive.
      expect((await request(`${hosted.origin}/sessions.json`)).status).toBe(404);
    });

    it('serves every file of the site under the base, short links leading to their session', async () => {
      const files = siteFiles(build.outDir);
      expect(files.length).toBeGreaterThan(300);
      for (const rel of files) {
        const answer = await request(url(rel), {}, 'HEAD');
        expect(answer.status, rel).toBe(200);
      }
      const short = (await request(url(`s/${KOREAN_SESSION.slice(0, 8)}/`))).body.toString('utf8');
      const target = /http-equiv="refresh" content="0; url=([^"]+)"/.exec(short)?.[1];
      expect(target).toBe(`${HOSTED_BASE}sessions/${KOREAN_SESSION}/`);
      expect((await request(`${hosted.origin}${target}`)).status).toBe(200);
      // Only on the address it was given (127.0.0.1 by default): another loopback address is refused.
      await expect(request(`http://127.0.0.2:${new URL(hosted.origin).port}${HOSTED_BASE}`)).rejects.toThrow(/ECONNREFUSED/);
      // A folder asked without its slash is redirected to it, on the host and port asked.
      const bare = await request(url(`sessions/${KOREAN_SESSION}`));
      expect([301, 308]).toContain(bare.status);
      expect(new URL(bare.headers.location!, hosted.origin).href).toBe(url(`sessions/${KOREAN_SESSION}/`));
    });

    describe.skipIf(!hasChromium())('in Chromium', () => {
      it('searches through the server: a word, a filter, a Korean word', async () => {
        const { context, close } = await launchBrowser();
        try {
          await expectProductFilterNarrows(context, `${hosted.origin}${HOSTED_BASE.slice(0, -1)}`, 'the');
          const page = await context.newPage();
          await page.goto(url(`search/?q=${encodeURIComponent(KOREAN_WORD)}`));
          expect(await resultCount(page, KOREAN_WORD)).toBeGreaterThan(0);
          const href = await page.locator(RESULT_LINK).first().getAttribute('href');
          expect(href).toContain(`${HOSTED_BASE}sessions/${KOREAN_SESSION}/`);
          await page.close();
        } finally {
          await close();
        }
      });
    });
  });
}

describe.skipIf(!installed('htpasswd'))('npm run host -- --auth (an htpasswd login on every path)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'agy-host-auth-'));
    const made = spawnSync('htpasswd', ['-B', '-b', '-c', path.join(dir, 'users'), 'alice', 'correct horse'], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    writeFileSync(path.join(dir, 'md5'), 'bob:$apr1$abcdefgh$0123456789abcdefghijkl\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const server of SERVERS) {
    it.skipIf(!installed(server.name))(`${server.name}: 401 without credentials or with a wrong password, the site with them`, async () => {
      // The site as ARCHIVE_OUT_DIR names it (no --out), as `npm run build` wrote it.
      const hosted = await startHost(undefined, ['--server', server.name, '--auth', path.join(dir, 'users')], { ...hostEnv, ARCHIVE_OUT_DIR: served });
      try {
        const session = readdirSync(path.join(build.outDir, 'sessions'))[0]!;
        const index = readdirSync(path.join(build.outDir, 'pagefind', 'index'))[0]!;
        const css = readdirSync(path.join(build.outDir, '_astro')).find((f) => f.endsWith('.css'))!;
        const paths = ['', 'search/', `sessions/${session}/`, `sessions/${session}/export.html`, 'sessions.json', `_astro/${css}`, 'pagefind/pagefind-entry.json', `pagefind/index/${index}`, `s/${session.slice(0, 8)}/`, 'no-such-page/', '404.html'];
        for (const rel of paths) {
          const at = `${hosted.origin}${HOSTED_BASE}${rel}`;
          const none = await request(at, { 'accept-encoding': 'br, gzip' });
          expect(none.status, rel).toBe(401);
          expect(none.headers['www-authenticate'], rel).toMatch(/^Basic /);
          expect(none.body.toString('utf8'), rel).not.toContain('agy-archive</title>');
          expect((await request(at, basicAuth('alice', 'wrong'))).status, rel).toBe(401);
          expect((await request(at, basicAuth('alice', 'correct horse'))).status, rel).toBe(rel === 'no-such-page/' ? 404 : 200);
        }
      } finally {
        await hosted.stop();
      }
    });
  }

  it('refuses an ARCHIVE_BASE the site was not built for, and a folder that holds no site', async () => {
    await expect(startHost(build.outDir, ['--server', 'nginx'], { ARCHIVE_BASE: '/' })).rejects.toThrow(/ARCHIVE_BASE is \/, but the site in .* was built for \/tools\/agy-archive\//);
    await expect(startHost(dir, ['--server', 'nginx'])).rejects.toThrow(/holds no built site[\s\S]*npm run build/);
  });

  it('refuses an htpasswd file without bcrypt hashes, saying how to make one', async () => {
    await expect(startHost(build.outDir, ['--server', 'caddy', '--auth', path.join(dir, 'md5')])).rejects.toThrow(/not a user with a bcrypt hash[\s\S]*htpasswd -B/);
  });
});
