/**
 * The order `vitest run` starts test files in: the slow ones (they build a site or drive a browser, SLOW_TESTS in
 * vitest.config.ts) before the rest. Vitest's own order is the last run's durations, longest first, and on a fresh
 * clone (CI: `npm ci` removes node_modules/.vite, where they are kept) the largest file first, which starts a build
 * of a minute or more after most unit files: the last minute of the run was then one worker finishing a build while
 * the other sat idle. Slow files first, each group in Vitest's order, leaves the short unit files to fill the end.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A sequencer class that starts the files matching `slow` (globs relative to the project root) first. */
export function slowFirst(slow: string[]): typeof BaseSequencer {
  return class SlowFirstSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const isSlow = (spec: TestSpecification): boolean => {
        const rel = path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/');
        return slow.some((glob) => path.matchesGlob(rel, glob));
      };
      return [...sorted.filter(isSlow), ...sorted.filter((spec) => !isSlow(spec))];
    }
  };
}
