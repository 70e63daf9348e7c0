/**
 * What a store keeps of a transcript full of garbage. Every transcript line was kept as a row: a 6 MB file of
 * 2 million `{}` lines took a snapshot 66.6 s and 2.75 GB of memory and added 830 MB to the store for good, where
 * reading the folder took 10.5 s (issue 19). The reader shows none of that anyway: past the first 100 of a kind in
 * a file, bad records are counted, not listed (problems.ts), and a step written over and over keeps its first 19
 * raw records and the last (merge.ts). So of one version of a transcript the store keeps:
 *
 * - every line that is a step record (a usable `step_index`, step-index.ts), except repeats of an identical line
 *   past `REPEATS_KEPT` in a row (one step written over and over byte for byte: the same record each time);
 * - the first `OTHER_LINES_KEPT` lines that are not step records (not JSON, not an object, no usable step_index);
 * - the last line whatever it is (a torn line being written is known by being last).
 *
 * What it did not keep is counted in a `too-large` problem kept with the session. The choice for a line depends only
 * on the lines before it, so a file that grows keeps the same lines of its old part: their identities stay put.
 */
import { stepIndexOf } from '../brain/step-index.ts';
import type { Problem, TranscriptLine } from '../brain/types.ts';

/** Lines without a usable step number kept per transcript version. */
export const OTHER_LINES_KEPT = 1_000;
/** Copies of one line in a row kept (the reader keeps the first 19 records of a step and the last). */
export const REPEATS_KEPT = 20;

/** Collects the lines of one transcript version the store keeps (see the module comment). */
export class KeptLines {
  readonly lines: TranscriptLine[] = [];
  #pending: TranscriptLine | undefined;
  #pendingKept = false;
  #others = 0;
  #previousRaw: string | undefined;
  #run = 0;
  #droppedOthers = 0;
  #droppedRepeats = 0;

  /** Take the next line of the transcript, in order. */
  add(line: TranscriptLine): void {
    this.#settlePending();
    this.#run = line.raw === this.#previousRaw ? this.#run + 1 : 1;
    this.#previousRaw = line.raw;
    let keep: boolean;
    if (line.value !== undefined && stepIndexOf(line.value) !== undefined) {
      keep = this.#run <= REPEATS_KEPT;
      if (!keep) this.#droppedRepeats++;
    } else {
      keep = ++this.#others <= OTHER_LINES_KEPT;
      if (!keep) this.#droppedOthers++;
    }
    this.#pending = line;
    this.#pendingKept = keep;
  }

  /** The lines kept, once every line was added (the last one is always kept). */
  finish(): TranscriptLine[] {
    if (this.#pending) {
      if (!this.#pendingKept) {
        if (this.#run > REPEATS_KEPT && stepIndexOf(this.#pending.value) !== undefined) this.#droppedRepeats--;
        else this.#droppedOthers--;
      }
      this.lines.push(this.#pending);
      this.#pending = undefined;
    }
    return this.lines;
  }

  /** The problem saying what was counted and not stored, or undefined when every line was kept. */
  problem(sessionId: string, file: string): Problem | undefined {
    if (this.#droppedOthers === 0 && this.#droppedRepeats === 0) return undefined;
    const parts: string[] = [];
    if (this.#droppedOthers > 0) {
      parts.push(`${this.#droppedOthers.toLocaleString('en-US')} lines that are not step records (past the first ${OTHER_LINES_KEPT.toLocaleString('en-US')})`);
    }
    if (this.#droppedRepeats > 0) {
      parts.push(`${this.#droppedRepeats.toLocaleString('en-US')} repeats of an identical line (past ${REPEATS_KEPT} in a row)`);
    }
    return {
      kind: 'too-large',
      sessionId,
      file,
      message: `${file}: ${parts.join(' and ')} were counted, not stored, by the archive store.`,
    };
  }

  #settlePending(): void {
    if (this.#pending && this.#pendingKept) this.lines.push(this.#pending);
    this.#pending = undefined;
  }
}
