/**
 * The brain reader's public API: plain data in, plain data out, no Astro. Everything that goes wrong while
 * reading is a `Problem` in the result, never an exception.
 */
export { compareNewestFirst, discoverSessions, discoveryOptionsFromEnv, resolvePrefix, whyNoBrainFolder } from './discover.ts';
export { readSession } from './session.ts';
export { PROBLEMS_KEPT_PER_KIND, problemTotal } from './problems.ts';
export { SANE_DATES, saneIso, saneTime } from './dates.ts';
export { RASTER_EXTENSIONS } from './inventory.ts';
export type * from './types.ts';

/** Bump when the reader's output changes for the same input: it goes into content digests. */
// 6: values nested past MAX_NESTING kept as text (nesting.ts); records without a usable step_index make no call
// and are set aside from ordering (merge.ts rule 1).
export const READER_VERSION = '7';
