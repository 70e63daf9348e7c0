/**
 * Rebuilding a missing main transcript from `logs/chunks/<name>/*.jsonl`.
 *
 * Chunk files are fixed 102,400-byte slices of the main file (SURVEY: in ca4322d4 the concatenation byte-equals
 * transcript.jsonl and transcript_full.jsonl), so a record can be cut in half at a chunk boundary. Reading the
 * chunks one by one would turn every boundary into two bad lines; concatenating the bytes in name order gives the
 * main file back. Each line is then credited to the chunk file and line where it starts.
 */
import { forEachJsonlLine } from './jsonl.ts';
import type { ProblemBudget } from './problems.ts';
import { listDir, readBytes, type SessionFs } from './session-fs.ts';
import type { TranscriptLine } from './types.ts';

export type { TranscriptLine } from './types.ts';

/**
 * Hand each line of a transcript rebuilt from chunks to `visit` (in order, credited to its chunk file and line);
 * returns the chunk files read, `undefined` when there are no chunks.
 */
export async function readChunkedTranscript(
  sfs: SessionFs,
  transcript: 'compact' | 'full',
  budget: ProblemBudget,
  visit: (line: TranscriptLine) => void,
): Promise<{ files: string[] } | undefined> {
  const folder = `.system_generated/logs/chunks/${transcript === 'compact' ? 'transcript' : 'transcript_full'}`;
  const entries = (await listDir(sfs, folder)).filter((e) => e.kind === 'file' && e.name.endsWith('.jsonl'));
  if (entries.length === 0) return undefined;
  const parts: Buffer[] = [];
  const files: string[] = [];
  const starts: number[] = [];
  let total = 0;
  for (const entry of entries) {
    const got = await readBytes(sfs, entry.rel);
    if (!got) continue;
    parts.push(got.bytes);
    files.push(entry.rel);
    starts.push(total);
    total += got.bytes.length;
  }
  if (files.length === 0) return undefined;
  const whole = Buffer.concat(parts, total);
  // Problems from the rebuilt text are reported against the folder with the line number of the rebuilt file,
  // then re-pointed at the chunk file and line below.
  const problems = sfs.problems;
  const before = problems.length;

  // Map a byte offset of the concatenation to (chunk file, 1-based line in that chunk). Lines are visited in
  // increasing offset order, so one forward walk counting newlines is enough (linear in the bytes).
  let chunk = 0;
  let lineInChunk = 1;
  let scanned = 0;
  const locate = (offset: number): { file: string; line: number } => {
    while (chunk + 1 < starts.length && offset >= (starts[chunk + 1] ?? Infinity)) {
      lineInChunk = 1;
      chunk++;
      scanned = starts[chunk] ?? 0;
    }
    for (let nl = whole.indexOf(0x0a, scanned); nl !== -1 && nl < offset; nl = whole.indexOf(0x0a, nl + 1)) {
      lineInChunk++;
      scanned = nl + 1;
    }
    scanned = Math.max(scanned, offset);
    return { file: files[chunk] ?? folder, line: lineInChunk };
  };

  // Only lines that had a problem need their place remembered (a line's problems are recorded just before it is
  // visited, and the budget bounds how many are listed), not every line of the file.
  const byRebuiltLine = new Map<number, { file: string; line: number }>();
  let problemsSeen = before;
  forEachJsonlLine(whole, folder, sfs.sessionId, budget, (l) => {
    const where = locate(l.offset);
    if (problems.length !== problemsSeen) byRebuiltLine.set(l.line, where);
    visit({ transcript, file: where.file, line: where.line, raw: l.raw, value: l.value });
    // What the visitor recorded already names the chunk file and line.
    problemsSeen = problems.length;
  });
  for (let i = before; i < problems.length; i++) {
    const p = problems[i];
    if (!p || p.line === undefined || p.file !== folder) continue;
    const where = byRebuiltLine.get(p.line);
    if (where) problems[i] = { ...p, file: where.file, line: where.line };
  }
  return { files };
}
