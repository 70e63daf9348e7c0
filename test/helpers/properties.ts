/**
 * The one source of fast-check settings for every property test: `FC_SEED` replays a run (every property and every
 * `fc.sample` of the process draws from it), `FC_RUNS` sets how many cases each property tries (the test's own
 * count when unset). Without `FC_SEED` the seed is random per process, so each run tries new cases; a failure names
 * the seed to replay it with (fast-check's report for `fc.assert`, `replayHint` for tests that sample).
 * `.ci/run` picks a fresh `FC_SEED` each run and prints it.
 */
import fc from 'fast-check';

function seedFromEnv(): number {
  const given = process.env.FC_SEED?.trim();
  if (!given) return Math.floor(Math.random() * 2 ** 31) - 2 ** 30;
  const seed = Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED=${given} is not an integer`);
  return seed;
}

function runsFromEnv(): number | undefined {
  const given = process.env.FC_RUNS?.trim();
  if (!given) return undefined;
  const runs = Number(given);
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`FC_RUNS=${given} is not a positive integer`);
  return runs;
}

/** This process's seed (from `FC_SEED`, else drawn once). */
export const PROPERTY_SEED = seedFromEnv();

/** `FC_RUNS` when set. */
const RUNS = runsFromEnv();

/** How to replay this process's draws, for failure messages. */
export const replayHint = `FC_SEED=${PROPERTY_SEED}`;

/**
 * Parameters for `fc.assert`: this process's seed and `FC_RUNS` cases (else `runs`). The failure report of
 * fast-check names the seed and the path of the smallest counterexample; the hint is added to it.
 */
export function propertyRuns<T>(runs: number, extra: fc.Parameters<T> = {}): fc.Parameters<T> {
  return {
    ...extra,
    seed: PROPERTY_SEED,
    numRuns: RUNS ?? runs,
    reporter: (details) => {
      if (details.failed) throw new Error(`${fc.defaultReportMessage(details)}\nReplay with ${replayHint} (and FC_RUNS=${RUNS ?? runs}).`);
    },
  };
}

/** Parameters for `fc.sample`: `count` draws from this process's seed (a sample's size is the test's, not FC_RUNS). */
export function sampleRuns(count: number, offset = 0): { seed: number; numRuns: number } {
  return { seed: PROPERTY_SEED + offset, numRuns: count };
}
