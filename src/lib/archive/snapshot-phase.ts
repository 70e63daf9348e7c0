/**
 * The build's snapshot phase, and `npm run archive`'s default run: copy what is new on disk into the archive store
 * before anything reads it, so the build reads the store (every step ever seen), not just today's window.
 *
 * It snapshots nothing, and never creates a store, when there is nothing of the user's to keep: with
 * `ARCHIVE_STORE=none`, when building from other machines' stores (`ARCHIVE_STORES`), and when no brain folder is
 * found and no store exists yet (the demo build reads `fixtures/demo` and must not write the user's default store).
 */
import { existsSync } from 'node:fs';
import { discoverSessions, discoveryOptionsFromEnv } from '../brain/index.ts';
import { buildStoresFromEnv, storePathFromEnv } from '../store/location.ts';
import { closeStore, openStore } from '../store/schema.ts';
import { describeRun, describeSessions, snapshotAll, storeTotals, type SnapshotSummary } from '../store/snapshot.ts';
import type { ArchiveLog } from './inputs.ts';

/** What the phase did: the store written and the run's summary, or why nothing was snapshotted. */
export type SnapshotOutcome =
  | { store: string; summary: SnapshotSummary }
  | { store?: undefined; skipped: string };

/**
 * Snapshot every live session into the store the environment names. A store that cannot be used (not ours, newer,
 * corrupt) throws `StoreError` with a hint: the caller stops, the file is untouched.
 */
export async function snapshotPhase(env: NodeJS.ProcessEnv, log: ArchiveLog, options: { verbose?: boolean } = {}): Promise<SnapshotOutcome> {
  if (buildStoresFromEnv(env).length > 0) return { skipped: 'ARCHIVE_STORES is set: the site is built from those stores, nothing is snapshotted' };
  const store = storePathFromEnv(env);
  if (!store) return { skipped: 'ARCHIVE_STORE=none: the site is built from the folders on disk, nothing is kept' };
  const discovery = await discoverSessions(discoveryOptionsFromEnv(env));
  if (discovery.roots.length === 0) {
    // The store is never created for nothing (the demo build must not write one). One that exists still learns
    // that the sessions it keeps from the searched home are gone: GEMINI_HOME deleted whole is that many deleted
    // conversations.
    if (!existsSync(store)) return { skipped: 'no brain folder found: nothing to snapshot' };
  }
  const db = openStore(store);
  try {
    const summary = await snapshotAll(db, discovery);
    if (options.verbose) for (const line of describeSessions(summary)) log.info(line);
    log.info(`${describeRun(summary, storeTotals(db))} Store: ${store}`);
    return { store, summary };
  } finally {
    closeStore(db, store);
  }
}
