/**
 * Reading one session folder: transcripts → merged timeline, inventory, step files attached, metadata.
 */
import { joinConversationDb } from './conversation-db/join.ts';
import { readConversationDb, withStoredRows } from './conversation-db/read.ts';
import { productTitle } from './conversation-db/titles.ts';
import { badDateMessage, saneTime } from './dates.ts';
import { type Inventory, readInventory } from './inventory.ts';
import { BAD_RECORD_NOTES, mergeRecords, TranscriptRecords } from './merge.ts';
import { deriveMeta } from './metadata.ts';
import { ProblemBudget } from './problems.ts';
import { openSessionFs, type SessionSource } from './session-fs.ts';
import { MAIN, readTranscript, uncoveredRanges } from './transcripts.ts';
import type { MissingSteps, Problem, Session, SessionRef, Step, StepFiles, StepRange, TranscriptName, TranscriptRead } from './types.ts';

/**
 * Read a session, from its folder or, given a `source`, from wherever that keeps it (the archive store). Never
 * throws for bad data: everything that went wrong is in `session.problems`.
 */
export async function readSession(ref: SessionRef, source?: SessionSource): Promise<Session> {
  const problems: Problem[] = [];
  // A conversation database whose brain folder is gone is a session of its own: there is no folder to open.
  const sfs = await openSessionFs(ref.id, ref.dir, ref.noFolder ? [] : problems, source);
  // Line problems (bad lines, records, dates) are bounded per file and kind; see problems.ts.
  const budget = new ProblemBudget(problems, ref.id, BAD_RECORD_NOTES);
  // Each log is an adapter yielding the same records with file and line; the merge decides which wins.
  const compactRecords = new TranscriptRecords('compact', ref.id, budget);
  const fullRecords = new TranscriptRecords('full', ref.id, budget);
  const overviewRecords = new TranscriptRecords('overview', ref.id, budget);
  const [compact, full, overview, inventory, liveConversation] = await Promise.all([
    readTranscript(sfs, 'compact', budget, (line) => compactRecords.add(line)),
    readTranscript(sfs, 'full', budget, (line) => fullRecords.add(line)),
    readTranscript(sfs, 'overview', budget, (line) => overviewRecords.add(line)),
    readInventory(sfs),
    ref.conversationDb ? readConversationDb(ref.conversationDb, ref.id, budget) : undefined,
  ]);
  // What the archive store kept of the database stays when the database was deleted or rewritten (store/conversation.ts).
  const conversation = withStoredRows(liveConversation, source?.conversation?.());
  const merged = mergeRecords(compactRecords, fullRecords, ref.id, budget, overviewRecords);
  const unattachedStepFiles = attachStepFiles(merged, inventory.stepFiles);
  const transcriptSteps = withStepFilesSteps(merged, unattachedStepFiles);
  // The database is the tier below the transcripts: it adds to their steps and brings its own (join.ts).
  const steps = conversation
    ? joinConversationDb(transcriptSteps, conversation.steps, conversation.db.calls, ref.id, conversation.db.file, problems)
    : transcriptSteps;
  const meta = deriveMeta(ref.id, steps, inventory.artifacts, ref.ctimeMs);
  // No title from the steps (no request read): the one the product folder keeps for the conversation, if any.
  if (meta.title === ref.id) meta.title = (await productTitle(ref.root, ref.id))?.title ?? meta.title;
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
    transcriptFiles: [...compact.files, ...full.files, ...overview.files],
    problems,
    missingSteps: [
      missingSteps('compact', compact, overview.coverage),
      missingSteps('full', full, overview.coverage),
      missingSteps('overview', overview, []),
    ].filter((m): m is MissingSteps => m !== undefined),
  };
  noteOverviewSteps(steps, ref.id, problems);
  if (conversation) session.conversation = conversation.db;
  if (unattachedStepFiles.length > 0) session.unattachedStepFiles = unattachedStepFiles;
  if (inventory.browserTrail.length > 0) session.browserTrail = inventory.browserTrail;
  if (inventory.notShown.length > 0) session.notShown = inventory.notShown;
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

/**
 * What of one transcript was never captured; undefined when nothing is missing (or nothing was read). Steps that
 * `overview.txt` covers are not "never captured" for the transcripts above it: a session whose overview covers
 * 0–192 and whose transcript.jsonl takes over at 193 (real-eras README) is read whole from the two.
 */
function missingSteps(transcript: TranscriptName, read: TranscriptRead, coveredElsewhere: readonly StepRange[]): MissingSteps | undefined {
  if (read.files.length === 0 && read.coverage.length === 0) return undefined;
  const ranges = subtractRanges(uncoveredRanges(read.coverage), coveredElsewhere);
  return ranges.length > 0 ? { transcript, file: MAIN[transcript], ranges } : undefined;
}

/** `ranges` without the step numbers `minus` covers (both inclusive). */
function subtractRanges(ranges: readonly StepRange[], minus: readonly StepRange[]): StepRange[] {
  let out = [...ranges];
  for (const m of minus) {
    out = out.flatMap((r) => {
      if (m.to < r.from || m.from > r.to) return [r];
      const left = m.from > r.from ? [{ from: r.from, to: m.from - 1 }] : [];
      const right = m.to < r.to ? [{ from: m.to + 1, to: r.to }] : [];
      return [...left, ...right];
    });
  }
  return out;
}

/**
 * Say on the report that steps were read from `overview.txt` alone: what that log leaves out (tool results; long
 * values cut) is then not on the site either, and a reader of the session should know why.
 */
function noteOverviewSteps(steps: readonly Step[], sessionId: string, problems: Problem[]): void {
  const only = steps.filter((s) => s.origin === 'overview').length;
  if (only === 0) return;
  problems.push({
    kind: 'notice',
    sessionId,
    file: MAIN.overview,
    message:
      `${only} step${only === 1 ? ' is' : 's are'} read from ${MAIN.overview} alone, the log of Antigravity versions before about ` +
      'late May 2026: it keeps user inputs and model responses, not tool results, and cuts long values (<truncated N bytes>).',
  });
}

/** The key of a step made of `steps/<n>/` files alone: never a record's key (`<n>` or `<n>-<k>`, merge.ts rule 6). */
export function stepFilesKey(index: number): string {
  return `${index}-files`;
}

/**
 * The timeline with a step of its own for each `steps/<n>/` folder no log holds a record of (real: "context
 * canceled" in steps/4/output.txt; 86033144's transcripts start after six such folders), placed before the first
 * step with a higher index, so its output and fetched page have a page like every other step (issue 20).
 */
function withStepFilesSteps(steps: Step[], unattached: readonly StepFiles[]): Step[] {
  if (unattached.length === 0) return steps;
  const out = [...steps];
  for (const files of [...unattached].sort((a, b) => a.index - b.index)) {
    const step: Step = {
      key: stepFilesKey(files.index),
      index: files.index,
      occurrence: 0,
      position: 0,
      source: 'FILES',
      type: 'STEP_FILES_ONLY',
      status: 'UNKNOWN',
      toolCalls: [],
      extra: {},
      truncatedFields: [],
      origin: 'step-files',
      sources: [],
      stepFilesOnly: true,
    };
    if (files.output) step.output = { file: files.output.file, text: files.output.text, duplicateOfContent: false };
    if (files.contentMd) step.contentMd = files.contentMd;
    const at = out.findIndex((s) => s.index > files.index);
    out.splice(at < 0 ? out.length : at, 0, step);
  }
  out.forEach((s, i) => {
    s.position = i;
  });
  return out;
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
