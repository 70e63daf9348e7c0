/**
 * The Astro adapter of a joined build (ARCHIVE_JOIN, `src/lib/join/`): the `sessions` collection holds every part's
 * sessions as their parts published them in `/sessions.json`, `archive` names the parts, and `steps` and
 * `artifacts` stay empty (a joined build renders no page of a session: those are in the parts). Thin on purpose:
 * reading and joining the parts is `currentJoin()`. A part that is not a built site stops the build (the operator
 * named a wrong folder); a bad entry is a problem on the joined `/report/`.
 */
import type { Loader } from 'astro/loaders';
import { ARCHIVE_ENTRY_ID } from './brain-loader.ts';
import { currentJoin } from '../lib/join/current.ts';
import { joinedSummary } from '../lib/join/join.ts';
import type { ArchiveInfo } from '../lib/archive/schemas.ts';

function joined() {
  const site = currentJoin();
  if (!site) throw new Error('join loader used without ARCHIVE_JOIN. Hint: this is a bug in src/content.config.ts.');
  return site;
}

/** `sessions`: every part's sessions, newest first. */
export function joinSessionsLoader(): Loader {
  return {
    name: 'agy-archive-join-sessions',
    load: async ({ store, parseData, logger }) => {
      const site = joined();
      store.clear();
      for (const s of site.sessions) store.set({ id: s.id, data: await parseData({ id: s.id, data: joinedSummary(s) }) });
      logger.info(`joined ${site.sessions.length} sessions from ${site.parts.length} parts (${site.bundles.length} search bundles)`);
    },
  };
}

/** `archive`: the parts joined, as the report's inputs, and the join's problems. */
export function joinArchiveLoader(): Loader {
  return {
    name: 'agy-archive-join-archive',
    load: async ({ store, parseData }) => {
      const site = joined();
      const info: ArchiveInfo = {
        isDemo: false,
        redactionEnabled: site.sessions.every((s) => s.redacted),
        inputs: `ARCHIVE_JOIN (${site.parts.map((p) => `${p.base}: ${p.sessions} sessions`).join('; ')})`,
        // The parts as the report's roots, each named by its base path.
        roots: site.parts.map((p) => ({ path: p.dir, product: p.base })),
        sessionsFound: site.sessions.length,
        shadowed: [],
        problems: site.problems,
        builtAt: new Date().toISOString(),
        joinedParts: site.parts.length,
      };
      store.clear();
      store.set({ id: ARCHIVE_ENTRY_ID, data: await parseData({ id: ARCHIVE_ENTRY_ID, data: info }) });
    },
  };
}

/** A collection a joined build leaves empty (`steps`, `artifacts`). */
export function emptyLoader(collection: string): Loader {
  return { name: `agy-archive-join-${collection}`, load: async ({ store }) => store.clear() };
}
