/**
 * The content collections, fed by our loaders over the archive pipeline.
 *
 * - `sessions`: one lean entry per session (id = UUID): header, counts, uploads, problems, redactions, audit rows.
 * - `steps`: one entry per timeline entry (id `<uuid>/<key>`): type, status, time, tools, a one-line summary; only of
 *   the sessions this process renders (the pages over every session read the `sessions` entries).
 * - `artifacts`: one entry per root artifact (id `<uuid>/<slug>`): name, metadata summary, update time, versions; as
 *   `steps`, only of the sessions rendered.
 * - `archive`: one entry (id `archive`) with the roots scanned, shadowed copies, root-level problems and the demo and
 *   redaction flags, for /report/ and the banners.
 *
 * The three session collections come from one read of each changed session, shared by their loaders (see
 * `src/loaders/brain-loader.ts`); the routing module (`src/lib/routes.ts`) groups steps and artifacts by session.
 * Bodies (step text, tool arguments and output, artifact text) are never stored: Vite bundles the whole store, and
 * issue 3 measured a store holding every step body running out of memory at 100k steps where a lean one builds in
 * 81 s. Pages read bodies by id at render time (`getSessionDetail`).
 */
import { defineCollection } from 'astro:content';
import { ArchiveSchema, ArtifactRowSchema, SessionSchema, StepRowSchema } from './lib/archive/schemas.ts';
import { archiveLoader, artifactsLoader, sessionsLoader, stepsLoader } from './loaders/brain-loader.ts';
import { emptyLoader, joinArchiveLoader, joinSessionsLoader } from './loaders/join-loader.ts';
import { joinFolders } from './lib/join/current.ts';

// A joined build (ARCHIVE_JOIN) reads the parts' `/sessions.json`, not brain folders (`src/loaders/join-loader.ts`).
const joining = joinFolders().length > 0;

export const collections = {
  sessions: defineCollection({ loader: joining ? joinSessionsLoader() : sessionsLoader(), schema: SessionSchema }),
  steps: defineCollection({ loader: joining ? emptyLoader('steps') : stepsLoader(), schema: StepRowSchema }),
  artifacts: defineCollection({ loader: joining ? emptyLoader('artifacts') : artifactsLoader(), schema: ArtifactRowSchema }),
  archive: defineCollection({ loader: joining ? joinArchiveLoader() : archiveLoader(), schema: ArchiveSchema }),
};
