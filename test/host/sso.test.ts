/**
 * Single sign-on in front of the archive (issue 31 point 2): `npm run host -- --sso URL` serves the shared hosted
 * build with the real nginx (auth_request) and Caddy (forward_auth), from `hosting/nginx-sso.conf` and
 * `hosting/caddy-sso.caddy`, in front of a login service started here on a loopback port. The service stands in for
 * the company's: it speaks oauth2-proxy's endpoints (`/oauth2/auth` answers 202 for a signed-in session cookie, 401
 * otherwise; `/oauth2/sign_in`; `/oauth2/callback` sets the session and sends the browser back) and records every
 * check it is asked. What a browser gets is read off the wire: every kind of path refused without the session and
 * served with it, the way to sign in carrying the address asked, the check seeing that address, and nothing of the
 * archive served while the service is down.
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_SERVERS, HOSTED_BASE, freePort, hostedBuild, installed, request, serverAvailable, startHost, type Hosted } from '../helpers/hosting.ts';
import type { SharedBuild } from '../helpers/shared-build.ts';

const SERVERS = HOST_SERVERS;

const COOKIE = '_oauth2_proxy';
const SESSION = 'signed-in-as-alice';

/** What the login service was asked to check: the path it was called on and the headers naming the request. */
interface Check {
  method: string;
  path: string;
  forwardedUri: string | undefined;
  forwardedMethod: string | undefined;
  cookie: string | undefined;
  bodyLength: number;
}

/** A login service with oauth2-proxy's endpoints, on a free loopback port; `stop` takes it down. */
async function startLoginService(): Promise<{ url: string; checks: Check[]; stop: () => Promise<void> }> {
  const checks: Check[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://service');
      const signedIn = (req.headers.cookie ?? '').split(/;\s*/).includes(`${COOKIE}=${SESSION}`);
      if (url.pathname === '/oauth2/auth') {
        const header = (name: string) => req.headers[name] as string | undefined;
        checks.push({ method: req.method!, path: req.url!, forwardedUri: header('x-forwarded-uri'), forwardedMethod: header('x-forwarded-method'), cookie: req.headers.cookie, bodyLength: Buffer.concat(chunks).length });
        res.writeHead(signedIn ? 202 : 401, signedIn ? { 'x-auth-request-user': 'alice' } : {}).end();
      } else if (url.pathname === '/oauth2/sign_in') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Sign in</title><a href="/oauth2/callback?rd=${encodeURIComponent(url.searchParams.get('rd') ?? '')}">Sign in</a>`);
      } else if (url.pathname === '/oauth2/callback') {
        res.writeHead(302, { location: encodeURI(url.searchParams.get('rd') ?? '/'), 'set-cookie': `${COOKIE}=${SESSION}; Path=/; HttpOnly` }).end();
      } else {
        res.writeHead(404).end();
      }
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    checks,
    // A proxy keeps its connections to the service open (Caddy does): they are closed with it.
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let build: SharedBuild;

/** True when `body` holds the start of the site's `file` (its first 64 bytes): a page or file of the archive leaked. */
function holdsPartOf(body: Buffer, file: string): boolean {
  return body.includes(readFileSync(path.join(build.outDir, file)).subarray(0, 64));
}
beforeAll(async () => {
  if (!SERVERS.some((s) => installed(s.name))) return;
  build = await hostedBuild();
  expect(build.code, build.output.slice(-3000)).toBe(0);
});

for (const server of SERVERS) {
  describe.skipIf(!serverAvailable(server.name, server.apt, server.files))(`npm run host -- --server ${server.name} --sso URL`, () => {
    let service: Awaited<ReturnType<typeof startLoginService>>;
    let hosted: Hosted;
    /** Each kind of path the site has, relative to the base, and what a signed-in request gets. */
    let paths: Array<{ rel: string; status: number; file?: string }>;
    const url = (rel: string) => `${hosted.origin}${HOSTED_BASE}${rel}`;
    const signedIn = { cookie: `${COOKIE}=${SESSION}` };

    beforeAll(async () => {
      service = await startLoginService();
      hosted = await startHost(build.outDir, ['--server', server.name, '--sso', service.url]);
      const session = readdirSync(path.join(build.outDir, 'sessions'))[0]!;
      const css = readdirSync(path.join(build.outDir, '_astro')).find((f) => f.endsWith('.css'))!;
      const index = readdirSync(path.join(build.outDir, 'pagefind', 'index'))[0]!;
      paths = [
        { rel: '', status: 200, file: 'index.html' },
        { rel: 'search/?q=%EB%B0%B0%ED%8F%AC', status: 200, file: 'search/index.html' },
        { rel: `sessions/${session}/`, status: 200, file: `sessions/${session}/index.html` },
        { rel: `sessions/${session}/export.html`, status: 200, file: `sessions/${session}/export.html` },
        { rel: 'sessions.json', status: 200, file: 'sessions.json' },
        { rel: `_astro/${css}`, status: 200, file: `_astro/${css}` },
        { rel: 'pagefind/pagefind-entry.json', status: 200, file: 'pagefind/pagefind-entry.json' },
        { rel: `pagefind/index/${index}`, status: 200, file: `pagefind/index/${index}` },
        { rel: `s/${session.slice(0, 8)}/`, status: 200, file: `s/${session.slice(0, 8)}/index.html` },
        { rel: '404.html', status: 200, file: '404.html' },
        { rel: 'no-such-page/', status: 404, file: '404.html' },
        { rel: '.agy-archive-build', status: 404, file: '404.html' },
      ];
    });
    afterAll(async () => {
      await hosted?.stop();
      await service?.stop();
    });

    it('sends a request without the session, on every kind of path, to sign in with the address it asked, and serves nothing of the archive', async () => {
      for (const { rel, file } of paths) {
        for (const headers of [{}, { cookie: `${COOKIE}=someone-else` }] as Array<Record<string, string>>) {
          const answer = await request(url(rel), headers);
          expect(answer.status, rel).toBe(302);
          const location = new URL(answer.headers.location!, hosted.origin);
          expect(location.origin + location.pathname, rel).toBe(`${hosted.origin}/oauth2/sign_in`);
          expect(location.searchParams.get('rd'), rel).toBe(decodeURIComponent(url(rel)));
          expect(holdsPartOf(answer.body, file!), rel).toBe(false);
        }
      }
      // Outside the base too: the server's every path asks.
      expect((await request(`${hosted.origin}/sessions.json`)).status).toBe(302);
    });

    it('serves every kind of path to a signed-in request as the site has it, with its headers, and asks the service about each with the address asked', async () => {
      service.checks.length = 0;
      for (const { rel, status, file } of paths) {
        const answer = await request(url(rel), signedIn);
        expect(answer.status, rel).toBe(status);
        expect(answer.body.equals(readFileSync(path.join(build.outDir, file!))), rel).toBe(true);
        expect(answer.headers['x-content-type-options'], rel).toBe('nosniff');
        expect(answer.headers['content-security-policy'], rel).toContain("frame-ancestors 'none'");
        // The check was a GET to the service's check endpoint, without a body, naming this request.
        const check = service.checks.at(-1)!;
        expect(check, rel).toMatchObject({ method: 'GET', path: '/oauth2/auth', forwardedUri: `${HOSTED_BASE}${rel}`, forwardedMethod: 'GET', cookie: signedIn.cookie, bodyLength: 0 });
      }
      const asked = new Set(service.checks.map((c) => c.forwardedUri));
      for (const { rel } of paths) expect(asked.has(`${HOSTED_BASE}${rel}`), rel).toBe(true);
    });

    it("leaves the service's own pages open, so that signing in leads back to the page asked", async () => {
      const asked = url('search/?q=%EB%B0%B0%ED%8F%AC');
      const toSignIn = (await request(asked)).headers.location!;
      const signIn = await request(new URL(toSignIn, hosted.origin).href);
      expect(signIn.status).toBe(200);
      const callback = /href="([^"]+)"/.exec(signIn.body.toString('utf8'))![1]!.replaceAll('&amp;', '&');
      const signedInNow = await request(new URL(callback, hosted.origin).href);
      expect(signedInNow.status).toBe(302);
      const cookie = signedInNow.headers['set-cookie']![0]!.split(';')[0]!;
      const back = new URL(signedInNow.headers.location!, hosted.origin).href;
      expect(decodeURIComponent(back)).toBe(decodeURIComponent(asked));
      const page = await request(back, { cookie });
      expect(page.status).toBe(200);
      expect(page.body.equals(readFileSync(path.join(build.outDir, 'search', 'index.html')))).toBe(true);
    });

    it('serves nothing while the login service is down, signed in or not (fails closed, never open)', async () => {
      await service.stop();
      for (const { rel, file } of paths) {
        for (const headers of [signedIn, {}] as Array<Record<string, string>>) {
          const answer = await request(url(rel), headers);
          expect(answer.status, rel).toBeGreaterThanOrEqual(500);
          expect(holdsPartOf(answer.body, file!), rel).toBe(false);
        }
      }
    });
  });
}

describe.skipIf(!installed('nginx'))('npm run host -- --sso: what it refuses', () => {
  it('a URL with a path, a scheme other than http(s), and --sso with --auth', async () => {
    await expect(startHost(build.outDir, ['--server', 'nginx', '--sso', 'http://127.0.0.1:4180/oauth2/'])).rejects.toThrow(/only http\(s\):\/\/host:port is taken/);
    await expect(startHost(build.outDir, ['--server', 'nginx', '--sso', 'ftp://127.0.0.1:4180'])).rejects.toThrow(/only http\(s\):\/\/host:port is taken/);
    await expect(startHost(build.outDir, ['--server', 'nginx', '--sso', 'login-host'])).rejects.toThrow(/not a URL/);
    await expect(startHost(build.outDir, ['--server', 'nginx', '--sso', 'http://127.0.0.1:4180', '--auth', 'users.htpasswd'])).rejects.toThrow(/--auth and --sso both put a login in front/);
  });
});
