/** The archive pipeline: inputs, reading, summaries for the store, bodies at render time. No `astro:*` imports. */
export { resolveArchiveInputs, consoleLog, DEMO_HOME, type ArchiveInputs, type ArchiveLog } from './inputs.ts';
export {
  readSessionRows,
  sessionFingerprint,
  contentFingerprint,
  progressReporter,
  mapBounded,
  formatTotals,
  READ_CONCURRENCY,
  type BuildTotals,
} from './pipeline.ts';
export { getSessionDetail } from './detail.ts';
export { readUploadBytes } from './uploads.ts';
export { toolAction, toolSummary, isErrorStep, oneLine } from './step-summary.ts';
export * from './schemas.ts';
export { formatUtc, formatClock, dayOf, formatDuration, formatBytes, displayValue, filterValue } from './format.ts';
