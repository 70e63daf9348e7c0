/**
 * Loaded into every render process (`node --import`, see `render.ts`): gives each process its own temporary files
 * under a `.astro/` folder.
 *
 * Astro's content store writes `.astro/content-assets.mjs` and `.astro/content-modules.mjs` through a temporary
 * file of a fixed name, `<file>.tmp`, then renames it into place (Astro 7.3.5, `#writeFileAtomic` in
 * `content/mutable-data-store.js`). That folder belongs to the project root, not to the cache dir, so every Astro
 * process of one checkout shares it: the render processes of a split build, and builds into two out dirs at once
 * (the test suite runs several). When two write at once, one renames the other's temp file away and the second
 * rename fails: the build stops with `UnknownFilesystemError` (ENOENT, rename '.astro/content-assets.mjs.tmp').
 * It failed a join test and a split-build test that way (2026-12-01); upstream, parallel builds of one project are
 * withastro/astro#12992, closed without a fix.
 *
 * Here a temp file under `.astro/` gets the process id appended, in `writeFile` and in `rename` alike: each process
 * renames its own complete file, and a rename onto the same target is atomic, so the last writer wins with a whole
 * module (here always an empty map: no collection imports assets or modules).
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DOT_ASTRO = `${path.sep}.astro${path.sep}`;

/** `file` with this process's id appended when it is a temp file under a `.astro/` folder; else `file` itself. */
export function ownTempFile<T>(file: T): T | string {
  const name = file instanceof URL ? (file.protocol === 'file:' ? fileURLToPath(file) : '') : typeof file === 'string' ? file : '';
  return name.includes(DOT_ASTRO) && name.endsWith('.tmp') ? `${name}.${process.pid}` : file;
}

const { writeFile, rename } = fs.promises;
fs.promises.writeFile = ((file: Parameters<typeof writeFile>[0], ...rest: [Parameters<typeof writeFile>[1], Parameters<typeof writeFile>[2]?]) =>
  writeFile(ownTempFile(file), ...rest)) as typeof writeFile;
fs.promises.rename = ((from: Parameters<typeof rename>[0], to: Parameters<typeof rename>[1]) => rename(ownTempFile(from), to)) as typeof rename;
// `import { rename } from 'node:fs/promises'` binds the module's named export, which this updates from the object.
syncBuiltinESMExports();
