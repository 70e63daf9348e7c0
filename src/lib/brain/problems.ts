/**
 * Bounded problem lists. A file can hold millions of bad lines (issue 10: 2 million non-JSON lines made 2 million
 * problems, and `/report/` ran out of string length after 8.6 GB), so the reader keeps, per file and kind, the
 * first `PROBLEMS_KEPT_PER_KIND` problems with their lines and counts the rest in one closing problem that says how
 * many more there were and on which lines. Memory and page size then grow with the number of files, not of lines.
 */
import type { Problem } from './types.ts';

/** How many problems of one kind in one file are kept with their line; the rest are counted. */
export const PROBLEMS_KEPT_PER_KIND = 100;

interface Tally {
  kind: Problem['kind'];
  file: string;
  kept: number;
  more: number;
  firstLine?: number;
  lastLine?: number;
}

/**
 * Adds problems to a session's list, keeping the first `limit` of each (file, kind) and counting the others;
 * `close()` appends one problem per (file, kind) that overflowed, with the count in `more`.
 */
export class ProblemBudget {
  readonly #problems: Problem[];
  readonly #sessionId: string | undefined;
  readonly #limit: number;
  readonly #notes: Partial<Record<Problem['kind'], string>>;
  readonly #tallies = new Map<string, Tally>();

  /**
   * `notes` adds a sentence to the closing count of a kind (e.g. that the records counted were not kept either);
   * `limit` is how many of each (file, kind) are listed.
   */
  constructor(
    problems: Problem[],
    sessionId: string | undefined,
    notes: Partial<Record<Problem['kind'], string>> = {},
    limit = PROBLEMS_KEPT_PER_KIND,
  ) {
    this.#problems = problems;
    this.#sessionId = sessionId;
    this.#notes = notes;
    this.#limit = limit;
  }

  /** Record `problem`; returns false when it was only counted (the caller may then skip building more for it). */
  add(problem: Problem): boolean {
    const key = `${problem.kind}\u0000${problem.file}`;
    let tally = this.#tallies.get(key);
    if (!tally) {
      tally = { kind: problem.kind, file: problem.file, kept: 0, more: 0 };
      this.#tallies.set(key, tally);
    }
    if (tally.kept < this.#limit) {
      tally.kept++;
      this.#problems.push(problem);
      return true;
    }
    tally.more++;
    if (problem.line !== undefined) {
      if (tally.firstLine === undefined) tally.firstLine = problem.line;
      tally.lastLine = problem.line;
    }
    return false;
  }

  /** Append the closing count of every (file, kind) that went over the limit. Call once, after the last `add`. */
  close(): void {
    for (const t of this.#tallies.values()) {
      if (t.more === 0) continue;
      const lines =
        t.firstLine === undefined
          ? ''
          : t.firstLine === t.lastLine
            ? ` (line ${t.firstLine})`
            : ` (lines ${t.firstLine}–${t.lastLine})`;
      const problem: Problem = {
        kind: t.kind,
        file: t.file,
        more: t.more,
        message:
          `${t.more.toLocaleString('en-US')} more ${t.kind} problems in this file${lines} are counted, not listed: ` +
          `only the first ${t.kept.toLocaleString('en-US')} are listed with their lines.` +
          (this.#notes[t.kind] ? ` ${this.#notes[t.kind]}` : ''),
      };
      if (this.#sessionId !== undefined) problem.sessionId = this.#sessionId;
      this.#problems.push(problem);
      t.more = 0;
    }
  }
}

/** How many problems a list stands for: each listed problem, plus the ones a closing problem counted. */
export function problemTotal(problems: readonly Pick<Problem, 'more'>[]): number {
  let n = 0;
  for (const p of problems) n += p.more ?? 1;
  return n;
}
