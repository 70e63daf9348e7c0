/**
 * `npm run build`: turns on Node's compile cache, then runs the build's phases (`build-phases.ts`, which reads top to
 * bottom). Node strips the types of every TypeScript file it loads, on every start: 285-320 ms of CPU of a rebuild
 * with nothing to do at 20k steps (1.2 s in all, load 9), 9 ms from the cache. The cache must be on before those
 * modules are loaded, and a module's static imports are all loaded before its code runs, hence this entry and a
 * dynamic import. It lives in the build's cache folder (`node-compile-cache/`; Node checks each entry against the
 * file's text), and the render processes inherit it (NODE_COMPILE_CACHE) for Astro's own modules.
 */
// First: sizes libuv's threadpool before any file is read (threadpool.ts says why).
import '../src/lib/build/threadpool.ts';
import { enableCompileCache } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDirOf } from '../src/lib/build/context.ts';

if (!process.env.NODE_COMPILE_CACHE) {
  const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  process.env.NODE_COMPILE_CACHE = path.join(cacheDirOf(projectRoot, process.env), 'node-compile-cache');
  // A cache that cannot be written (a read-only install) only costs the time it would save: Node says so and goes on.
  enableCompileCache(process.env.NODE_COMPILE_CACHE);
}
await import('./build-phases.ts');
