/**
 * A tiny static file server over a built site, on 127.0.0.1 and a random port, for browser tests. Serves
 * `<dir>/<path>` and `<dir>/<path>/index.html`, with content types for what the site emits; refuses paths
 * that leave `dir`. `base` mounts the site under a sub-path (like ARCHIVE_BASE). Shared by the browser tests and
 * the bench's search timing.
 */
import { createReadStream, promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** A running server. */
export interface StaticServer {
  /** e.g. `http://127.0.0.1:43123` (no trailing slash; add the base yourself). */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serve `dir` (under `base`, default `/`). `fixed` maps absolute pathnames to HTML served as they are, outside the
 * base (the bench's blank page, where no site script runs).
 */
export async function serveStatic(dir: string, base = '/', fixed: Record<string, string> = {}): Promise<StaticServer> {
  const root = path.resolve(dir);
  const prefix = base.endsWith('/') ? base : `${base}/`;
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      const page = fixed[url.pathname];
      if (page !== undefined) {
        res.writeHead(200, { 'Content-Type': TYPES['.html'] as string }).end(page);
        return;
      }
      let pathname = decodeURIComponent(url.pathname);
      if (!pathname.startsWith(prefix) && pathname !== prefix.slice(0, -1)) {
        res.writeHead(404).end('not found');
        return;
      }
      pathname = pathname.slice(prefix.length - 1) || '/';
      let file = path.resolve(root, `.${pathname}`);
      if (file !== root && !file.startsWith(root + path.sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      let st = await fs.stat(file).catch(() => undefined);
      if (st?.isDirectory()) {
        if (!pathname.endsWith('/')) {
          res.writeHead(301, { Location: `${url.pathname}/${url.search}` }).end();
          return;
        }
        file = path.join(file, 'index.html');
        st = await fs.stat(file).catch(() => undefined);
      }
      if (!st?.isFile()) {
        const notFound = path.join(root, '404.html');
        res.writeHead(404, { 'Content-Type': TYPES['.html'] as string });
        createReadStream(notFound).on('error', () => res.end('not found')).pipe(res);
        return;
      }
      res.writeHead(200, {
        'Content-Type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'Content-Length': st.size,
        'X-Content-Type-Options': 'nosniff',
      });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(500).end('error');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
