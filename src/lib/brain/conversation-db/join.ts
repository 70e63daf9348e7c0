/**
 * The conversation database as a tier of the one merge, below the transcripts (merge.ts places compact, full and
 * overview; this places the database's steps on that timeline).
 *
 * THE JOIN RULE
 * 1. A database step pairs with the last merged occurrence of the same `step_index` and type (`steps.idx` =
 *    `step_index` and the type names match in every joined row, real-db README §3; after a rewind the database
 *    holds the step now at that index, which is the latest occurrence). The transcript's text stands; the step gains
 *    `db` (status and its history, times, agent run, model call) and, where the transcript lacks it, the database's
 *    fuller text: a command's output written after the transcript line, an error step with empty content.
 * 2. A transcript line keeps the status the step had when it was written: 38 steps are RUNNING in a transcript and
 *    done, canceled or failed in the database (README §2.2). A RUNNING step takes the database's final status; any
 *    other disagreement of status or source is a conflict, listed on /report/ with the step's number, and the
 *    transcript's value stands.
 * 3. A database step with no such occurrence is a step of its own (`origin: 'db'`), shown from the database, placed
 *    before the first step with a higher index (checkpoints at 3 or 4, a whole turn at 64–69, the trailing steps
 *    after the transcript stopped). When its index is taken by a transcript step of another type, that is a
 *    conflict too, and the database's step keeps the key `<index>-db`.
 */
import type { ModelCall, Problem, Step } from '../types.ts';
import type { DbStep } from './fields.ts';

/** Statuses a step ends in; a transcript's RUNNING gives way to one of them. */
const FINAL = new Set(['DONE', 'ERROR', 'CANCELLED']);

/** Key of a database-only step whose index a transcript step of another type holds. */
export function dbStepKey(index: number): string {
  return `${index}-db`;
}

/**
 * Join `dbSteps` onto `steps` (the merged transcripts, in timeline order). Returns the new timeline; conflicts go to
 * `problems` with `file`.
 */
export function joinConversationDb(
  steps: Step[],
  dbSteps: readonly DbStep[],
  calls: readonly ModelCall[],
  sessionId: string,
  file: string,
  problems: Problem[],
): Step[] {
  if (dbSteps.length === 0) return steps;
  const callOfStep = new Map<number, number>();
  for (const call of calls) for (const i of call.stepIndices) if (!callOfStep.has(i)) callOfStep.set(i, call.row);
  const byIndex = new Map<number, Step[]>();
  for (const s of steps) {
    if (s.stepFilesOnly) continue;
    const list = byIndex.get(s.index);
    if (list) list.push(s);
    else byIndex.set(s.index, [s]);
  }
  const conflicts: string[] = [];
  const own: Step[] = [];
  for (const d of dbSteps) {
    const facts = { ...d.facts };
    const callRow = callOfStep.get(d.index);
    if (callRow !== undefined) facts.callRow = callRow;
    const candidates = byIndex.get(d.index) ?? [];
    const step = candidates.findLast((s) => s.type === d.type);
    if (!step) {
      const taken = candidates.length > 0;
      if (taken) conflicts.push(`step ${d.index}: the transcript has a ${candidates.at(-1)!.type} step, the database a ${d.type} step (both shown)`);
      own.push(dbOnlyStep(d, facts, taken ? dbStepKey(d.index) : String(d.index)));
      continue;
    }
    if (d.source !== undefined && d.source !== step.source)
      conflicts.push(`step ${d.index}: source ${step.source} in the transcript, ${d.source} in the database`);
    if (step.status === 'RUNNING' && FINAL.has(facts.status)) step.status = facts.status;
    else if (step.status !== facts.status && FINAL.has(step.status) && FINAL.has(facts.status))
      conflicts.push(`step ${d.index}: status ${step.status} in the transcript, ${facts.status} in the database`);
    const fuller = d.facts.fullerText ?? (d.type === 'ERROR_MESSAGE' ? d.content : undefined);
    if (fuller && !(step.content ?? '').includes(fuller.trim())) facts.fullerText = fuller;
    else delete facts.fullerText;
    step.db = facts;
  }
  if (conflicts.length > 0) {
    problems.push({
      kind: 'notice',
      sessionId,
      file,
      message: `The conversation database and the transcripts disagree on ${conflicts.length} step${conflicts.length === 1 ? '' : 's'} (the transcript's value is shown): ${conflicts.slice(0, 20).join('; ')}${conflicts.length > 20 ? `; … ${conflicts.length - 20} more` : ''}.`,
    });
  }
  const out = placeOwnSteps(steps, own);
  const onlyInDb = own.length;
  if (onlyInDb > 0) {
    problems.push({
      kind: 'notice',
      sessionId,
      file,
      message: `${onlyInDb} step${onlyInDb === 1 ? ' is' : 's are'} in the conversation database and in no transcript (${listed(own.map((s) => s.index))}); shown from the database.`,
    });
  }
  return out;
}

function dbOnlyStep(d: DbStep, facts: Step['db'] & object, key: string): Step {
  const step: Step = {
    key,
    index: d.index,
    occurrence: 0,
    position: 0,
    source: d.source ?? 'UNKNOWN',
    type: d.type,
    status: facts.status,
    toolCalls: d.toolCalls,
    extra: {},
    truncatedFields: [],
    origin: 'db',
    sources: [],
    db: facts,
  };
  if (facts.createdAt) step.createdAt = facts.createdAt;
  const content = d.content ?? facts.fullerText;
  if (content !== undefined) step.content = content;
  if (d.thinking !== undefined) step.thinking = d.thinking;
  if (facts.fullerText !== undefined && facts.fullerText === content) delete facts.fullerText;
  return step;
}

/** Each own step before the first step with a higher index; positions renumbered. */
function placeOwnSteps(steps: Step[], own: readonly Step[]): Step[] {
  if (own.length === 0) return steps;
  const out = [...steps];
  for (const step of own) {
    const at = out.findIndex((s) => s.index > step.index && s.index >= 0);
    out.splice(at < 0 ? out.length : at, 0, step);
  }
  out.forEach((s, i) => {
    s.position = i;
  });
  return out;
}

function listed(idxs: number[]): string {
  const ranges: string[] = [];
  let start = idxs[0];
  let prev = idxs[0];
  for (const i of [...idxs.slice(1), undefined]) {
    if (i !== undefined && prev !== undefined && i === prev + 1) {
      prev = i;
      continue;
    }
    if (start !== undefined) ranges.push(start === prev ? `step ${start}` : `steps ${start}–${prev}`);
    start = i;
    prev = i;
  }
  return ranges.join(', ');
}
