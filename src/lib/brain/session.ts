/**
 * Reading one session folder: transcripts → merged timeline, inventory, step files attached, metadata.
 */
import { badDateMessage, saneTime } from './dates.ts';
import { type Inventory, readInventory } from './inventory.ts';
import { BAD_RECORD_NOTES, mergeRecords, TranscriptRecords } from './merge.ts';
import { deriveMeta } from './metadata.ts';
import { ProblemBudget } from './problems.ts';
import { openSessionFs, type SessionSource } from './session-fs.ts';
import { MAIN, readTranscript, uncoveredRanges, type TranscriptRead } from './transcripts.ts';
import type { MissingSteps, Problem, Session, SessionRef, Step, StepFiles } from './types.ts';

/**
 * Read a session, from its folder or, given a `source`, from wherever that keeps it (the archive store). Never
 * throws for bad data: everything that went wrong is in `session.problems`.
 */
export async function readSession(ref: SessionRef, source?: SessionSource): Promise<Session> {
  const problems: Problem[] = [];
  const sfs = await openSessionFs(ref.id, ref.dir, problems, source);
  // Line problems (bad lines, records, dates) are bounded per file and kind; see problems.ts.
  const budget = new ProblemBudget(problems, ref.id, BAD_RECORD_NOTES);
  const compactRecords = new TranscriptRecords('compact', ref.id, budget);
  const fullRecords = new TranscriptRecords('full', ref.id, budget);
  const [compact, full, inventory] = await Promise.all([
    readTranscript(sfs, 'compact', budget, (line) => compactRecords.add(line)),
    readTranscript(sfs, 'full', budget, (line) => fullRecords.add(line)),
    readInventory(sfs),
  ]);
  const steps = mergeRecords(compactRecords, fullRecords, ref.id, budget);
  const unattachedStepFiles = attachStepFiles(steps, inventory.stepFiles);
  const meta = deriveMeta(ref.id, steps, inventory.artifacts, ref.ctimeMs);
  noteBadDates(inventory, ref.id, budget);
  budget.close();
  const session: Session = {
    id: ref.id,
    product: ref.product,
    dir: ref.dir,
    meta,
    steps,
    artifacts: inventory.artifacts,
    messages: inventory.messages,
    taskLogs: inventory.taskLogs,
    uploads: inventory.uploads,
    scratch: inventory.scratch,
    transcriptFiles: [...compact.files, ...full.files],
    problems,
    missingSteps: [missingSteps('compact', compact), missingSteps('full', full)].filter(
      (m): m is MissingSteps => m !== undefined,
    ),
  };
  if (unattachedStepFiles.length > 0) session.unattachedStepFiles = unattachedStepFiles;
  return session;
}

/** Message times and artifact `updatedAt`s the archive cannot place (dates.ts) are problems, like a step's. */
function noteBadDates(inventory: Inventory, sessionId: string, budget: ProblemBudget): void {
  const check = (file: string, what: string, value: string | undefined) => {
    if (value !== undefined && saneTime(value) === undefined)
      budget.add({ kind: 'bad-date', sessionId, file, message: badDateMessage(what, value) });
  };
  for (const m of inventory.messages) check(m.file, 'timestamp', m.timestamp);
  for (const a of inventory.artifacts) check(`${a.name}.metadata.json`, 'updatedAt', a.metadata?.updatedAt);
}

/** What of one transcript was never captured; undefined when nothing is missing (or nothing was read). */
function missingSteps(transcript: 'compact' | 'full', read: TranscriptRead): MissingSteps | undefined {
  const ranges = uncoveredRanges(read.coverage);
  return ranges.length > 0 ? { transcript, file: MAIN[transcript], ranges } : undefined;
}

/**
 * Attach `steps/<idx>/output.txt` and `content.md` to a step with that index. Under reuse the folder name cannot
 * say which occurrence wrote it, so: the last occurrence whose content already holds the output text (the
 * evidence), else the last occurrence (a reused index overwrites the folder). Files whose index is not in the
 * timeline (the transcripts start later, SURVEY 86033144) are returned, not dropped.
 */
function attachStepFiles(steps: Step[], stepFiles: StepFiles[]): StepFiles[] {
  if (stepFiles.length === 0) return [];
  const byIndex = new Map<number, Step[]>();
  for (const s of steps) {
    const list = byIndex.get(s.index);
    if (list) list.push(s);
    else byIndex.set(s.index, [s]);
  }
  const unattached: StepFiles[] = [];
  for (const files of stepFiles) {
    const candidates = byIndex.get(files.index);
    if (!candidates || candidates.length === 0) {
      unattached.push(files);
      continue;
    }
    const trimmed = files.output?.text.trim() ?? '';
    const holding =
      trimmed === ''
        ? undefined
        : candidates.findLast((s) => s.content !== undefined && s.content.includes(trimmed));
    const step = holding ?? candidates[candidates.length - 1];
    if (!step) continue;
    if (files.output) {
      step.output = {
        file: files.output.file,
        text: files.output.text,
        duplicateOfContent: holding !== undefined,
      };
    }
    if (files.contentMd) step.contentMd = files.contentMd;
  }
  return unattached;
}
