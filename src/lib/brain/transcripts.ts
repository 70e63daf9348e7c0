/**
 * Which files hold each transcript, and their lines: one adapter per log, each handing the same `TranscriptLine`s
 * (with file and line) to the merge (merge.ts), which decides which record wins. The main file wins; chunks are
 * read only when the main file is missing, because where both exist the chunks are the same bytes again (reading
 * both would count every step twice). `overview.txt` has no chunks.
 */
import { readChunkedTranscript } from './chunks.ts';
import { forEachJsonlLine } from './jsonl.ts';
import type { ProblemBudget } from './problems.ts';
import { fileSize, listDir, readBytes, type SessionFs } from './session-fs.ts';
import { stepIndexOf } from './step-index.ts';
import type { StepRange, TranscriptLine, TranscriptName, TranscriptRead } from './types.ts';

export type { StepRange, TranscriptLine, TranscriptRead } from './types.ts';

/** The main file of each transcript, relative to the session folder. */
export const MAIN = {
  compact: '.system_generated/logs/transcript.jsonl',
  full: '.system_generated/logs/transcript_full.jsonl',
  /**
   * JSON Lines with the compact record's shape, though named `.txt` (real-eras README): user inputs and model
   * responses only, long values cut with `<truncated N bytes>`; the only log of sessions before about late May 2026.
   */
  overview: '.system_generated/logs/overview.txt',
} as const satisfies Record<TranscriptName, string>;

/** Every transcript, highest tier first (the merge's order of precedence). */
export const TRANSCRIPTS: readonly TranscriptName[] = ['full', 'compact', 'overview'];


/** Follows the lowest and highest valid `step_index` of the lines it is shown: a file's one window. */
export class CoverageTracker {
  #from = Infinity;
  #to = -Infinity;
  /** Take one line into account. */
  see(line: TranscriptLine): void {
    const n = stepIndexOf(line.value);
    if (n === undefined) return;
    if (n < this.#from) this.#from = n;
    if (n > this.#to) this.#to = n;
  }
  /** The window seen, or an empty list when no line had a step index. */
  ranges(): StepRange[] {
    return this.#from <= this.#to ? [{ from: this.#from, to: this.#to }] : [];
  }
}

/**
 * The ranges of step numbers from 0 to the highest covered that no window covered: what was never captured of a
 * transcript (before its first capture and between captures). Indices skipped inside one window are not counted:
 * the real files skip a few (SURVEY: 44 of 47 transcript files).
 */
export function uncoveredRanges(coverage: readonly StepRange[]): StepRange[] {
  const sorted = [...coverage].sort((a, b) => a.from - b.from);
  const out: StepRange[] = [];
  let next = 0;
  for (const r of sorted) {
    if (r.from > next) out.push({ from: next, to: r.from - 1 });
    next = Math.max(next, r.to + 1);
  }
  return out;
}

/**
 * Read one transcript: the main file, else (compact and full) its chunk rebuild, else nothing. Each line is
 * handed to `visit` in file order, lines that did not parse too (without a `value`); line problems go through
 * `budget`. Returns the files read.
 */
export async function readTranscript(
  sfs: SessionFs,
  transcript: TranscriptName,
  budget: ProblemBudget,
  visit: (line: TranscriptLine) => void,
): Promise<TranscriptRead> {
  const rel = MAIN[transcript];
  // A stored session (the archive store) hands over every line it kept, and the windows its snapshots saw.
  const kept = sfs.source?.transcript?.(transcript, budget, visit);
  if (kept) return kept;
  const coverage = new CoverageTracker();
  const seeing = (line: TranscriptLine): void => {
    coverage.see(line);
    visit(line);
  };
  const got = await readBytes(sfs, rel);
  if (got) {
    if (transcript !== 'overview') await noteLongerChunks(sfs, transcript, got.size);
    forEachJsonlLine(got.bytes, rel, sfs.sessionId, budget, (l) =>
      seeing({ transcript, file: rel, line: l.line, raw: l.raw, value: l.value }),
    );
    return { files: [rel], coverage: coverage.ranges() };
  }
  if (transcript === 'overview') return { files: [], coverage: [] };
  const rebuilt = await readChunkedTranscript(sfs, transcript, budget, seeing);
  if (!rebuilt) return { files: [], coverage: [] };
  sfs.problems.push({
    kind: 'notice',
    sessionId: sfs.sessionId,
    file: rel,
    message: `${rel} is missing; it was rebuilt from ${rebuilt.files.length} chunk file${rebuilt.files.length === 1 ? '' : 's'}.`,
  });
  return { files: rebuilt.files, coverage: coverage.ranges() };
}

/** Chunks that hold more bytes than the main file are not read, but the auditor should know. */
async function noteLongerChunks(sfs: SessionFs, transcript: 'compact' | 'full', mainSize: number): Promise<void> {
  const folder = `.system_generated/logs/chunks/${transcript === 'compact' ? 'transcript' : 'transcript_full'}`;
  const entries = (await listDir(sfs, folder)).filter((e) => e.kind === 'file' && e.name.endsWith('.jsonl'));
  if (entries.length === 0) return;
  let total = 0;
  for (const e of entries) total += (await fileSize(sfs, e.rel)) ?? 0;
  if (total > mainSize) {
    sfs.problems.push({
      kind: 'notice',
      sessionId: sfs.sessionId,
      file: folder,
      message: `The chunk files hold ${total - mainSize} bytes more than ${MAIN[transcript]}; only the main file was read.`,
    });
  }
}
