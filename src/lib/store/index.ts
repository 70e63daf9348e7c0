/**
 * The archive store: the project's own durable copy of every session it has seen (SQLite through `node:sqlite`).
 * Pure: no Astro. Data flows disk → store (`snapshot.ts`) → reader (`read.ts`, the reader's own shapes).
 */
export { APPLICATION_ID, SCHEMA_VERSION, StoreError, openStore } from './schema.ts';
export { buildStoresFromEnv, defaultStorePath, storePathFromEnv } from './location.ts';
export {
  describeRun,
  describeSessions,
  snapshotAll,
  snapshotSession,
  storeTotals,
  type SessionSnapshot,
  type SnapshotSummary,
  type StoreTotals,
} from './snapshot.ts';
export { closeStoredReaders, listStoredSessions, readStoredSession, type StoredSessionInfo } from './read.ts';
export { exportStore, forgetCandidates, forgetSession, type ExportSummary, type ForgetCandidate } from './manage.ts';
