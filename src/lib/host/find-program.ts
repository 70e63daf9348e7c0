/** Where an installed program is, as `npm run host` and its tests look for nginx, caddy, htpasswd and systemd. */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The path of `name` when it is an executable file on PATH or in the sbin folders (Debian installs nginx in
 * /usr/sbin, which a user's PATH often lacks); undefined when it is not installed.
 */
export function findProgram(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = [...(env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const p = path.join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      if (statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Where Debian (`libnginx-mod-http-brotli-static`) and other distributions put nginx's brotli_static module. */
export const BROTLI_MODULES = [
  '/usr/share/nginx/modules/ngx_http_brotli_static_module.so',
  '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so',
  '/usr/lib64/nginx/modules/ngx_http_brotli_static_module.so',
];
