/**
 * The content collections, fed by our loaders over the archive pipeline.
 *
 * - `sessions`: one lean entry per session. Its step rows (key, type, status, time, tools, one-line summary) and
 *   artifact rows live INSIDE the session entry rather than in `steps`/`artifacts` collections: at 100k steps a
 *   separate entry per step would add an id, digest and wrapper per row to a store Vite has to bundle, and it would
 *   need a second read of each session (a loader only fills its own collection). The routing module
 *   (`src/lib/routes.ts`) flattens the rows into step and artifact paths instead. Bodies are never stored: pages
 *   read them at render time (`getSessionDetail`).
 * - `archive`: one entry (id `archive`) with the roots scanned, shadowed copies, root-level problems and the demo and
 *   redaction flags, for /report/ and the banners.
 */
import { defineCollection } from 'astro:content';
import { ArchiveSchema, SessionSchema } from './lib/archive/schemas.ts';
import { archiveLoader, sessionsLoader } from './loaders/brain-loader.ts';

export const collections = {
  sessions: defineCollection({ loader: sessionsLoader(), schema: SessionSchema }),
  archive: defineCollection({ loader: archiveLoader(), schema: ArchiveSchema }),
};
