/**
 * Which files hold each transcript, and their lines. The main file wins; chunks are read only when the main file
 * is missing, because where both exist the chunks are the same bytes again (reading both would count every step
 * twice).
 */
import { readChunkedTranscript, type TranscriptLine } from './chunks.ts';
import { forEachJsonlLine } from './jsonl.ts';
import type { ProblemBudget } from './problems.ts';
import { fileSize, listDir, readBytes, type SessionFs } from './session-fs.ts';

export type { TranscriptLine } from './chunks.ts';

const MAIN = {
  compact: '.system_generated/logs/transcript.jsonl',
  full: '.system_generated/logs/transcript_full.jsonl',
} as const;

/**
 * Read one transcript (`compact` or `full`): the main file, else its chunk rebuild, else nothing. Each line is
 * handed to `visit` in file order, lines that did not parse too (without a `value`); line problems go through
 * `budget`. Returns the files read.
 */
export async function readTranscript(
  sfs: SessionFs,
  transcript: 'compact' | 'full',
  budget: ProblemBudget,
  visit: (line: TranscriptLine) => void,
): Promise<{ files: string[] }> {
  const rel = MAIN[transcript];
  const got = await readBytes(sfs, rel);
  if (got) {
    await noteLongerChunks(sfs, transcript, got.size);
    forEachJsonlLine(got.bytes, rel, sfs.sessionId, budget, (l) =>
      visit({ transcript, file: rel, line: l.line, raw: l.raw, value: l.value }),
    );
    return { files: [rel] };
  }
  const rebuilt = await readChunkedTranscript(sfs, transcript, budget, visit);
  if (!rebuilt) return { files: [] };
  sfs.problems.push({
    kind: 'notice',
    sessionId: sfs.sessionId,
    file: rel,
    message: `${rel} is missing; it was rebuilt from ${rebuilt.files.length} chunk file(s).`,
  });
  return rebuilt;
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
