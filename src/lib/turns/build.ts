/**
 * The turn builder: a session's merged steps as a conversation. One pure function, `buildTurns`; pages render its
 * result and never pair calls or read outcomes themselves.
 */
import type { Message, Session, Step, TaskLog } from '../brain/types.ts';
import { saneTime } from '../brain/dates.ts';
import { modelSequence, modelSwitches, modelsPerStep, UNKNOWN_MODEL } from './models.ts';
import { outputFailureMessage, stepFailure } from './failures.ts';
import { isFileChange } from './file-changes.ts';
import { exitLabel } from './exit-codes.ts';
import { backgroundTaskId, errorText, firstLine, orphanOutcome, outcomeOf, pathShortener, shortTask, stepFailed } from './outcome.ts';
import { isResultStep, isUserAction, pairCalls } from './pairing.ts';
import { checkpointText, meaningfulLine, mentions, requestText, taskFinished, wrappedBody } from './text.ts';
import { readCommandText, readUserAction, type UserActionText } from './transport.ts';
import { callOutput } from './output.ts';
import { foldedKind } from './harness.ts';
import type {
  BackgroundTask,
  FoldedKind,
  PairingReport,
  SessionTurns,
  StepView,
  ToolCallView,
  Turn,
  TurnInput,
  TurnItem,
  TurnStats,
} from './types.ts';

/** Longest `ToolCallView.outputHead`: the head a turn shows in place; the step page has the rest. */
export const OUTPUT_HEAD_MAX = 1200;

/**
 * A gap between consecutive steps longer than this is idle time (the user away, a wait), left out of a turn's
 * active duration. Two minutes: the longest gaps between a result and the model's next step on the shared real
 * sessions while it was working are under a minute; user replies come after many minutes.
 */
export const IDLE_GAP_MS = 2 * 60_000;

/** Longest `StepView.summary`. */
export const STEP_SUMMARY_MAX = 160;

function ms(iso: string | undefined): number | undefined {
  return saneTime(iso);
}

function cut(text: string, max = STEP_SUMMARY_MAX): string {
  // Only the head can show: collapsing whitespace over a whole 50 kB command first was a measured cost.
  const line = text.slice(0, max * 4).replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Basename of a relative path (`/` or `\`). */
function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

/** Where each background task's end is told, indexed once per session (a scan per call was O(steps × tasks)). */
interface TaskEnds {
  /** Short task id (`task-12`) → the SYSTEM_MESSAGE steps saying it finished, in timeline order, with the exit code. */
  steps: Map<string, { position: number; key: string; exitCode?: number }[]>;
  /** Short task id → the first message file saying it finished, with the exit code. */
  messages: Map<string, { file: string; exitCode?: number }>;
  /** Short task id → its `tasks/task-N.log`. */
  logs: Map<string, string>;
}

const exitOf = (result: string): number | undefined => readCommandText(result.replace(/^\s*\r?\n/, '')).exitCode;

function indexTaskEnds(steps: readonly Step[], messages: readonly Message[], taskLogs: readonly TaskLog[]): TaskEnds {
  const ends: TaskEnds = { steps: new Map(), messages: new Map(), logs: new Map() };
  for (const s of steps) {
    if (s.type !== 'SYSTEM_MESSAGE' || !s.content?.includes('finished')) continue;
    const done = taskFinished(s.content);
    if (!done) continue;
    const short = shortTask(done.taskId);
    const entry: { position: number; key: string; exitCode?: number } = { position: s.position, key: s.key };
    const exit = exitOf(done.result);
    if (exit !== undefined) entry.exitCode = exit;
    const list = ends.steps.get(short);
    if (list) list.push(entry);
    else ends.steps.set(short, [entry]);
  }
  for (const m of messages) {
    const done = taskFinished(m.content);
    if (!done) continue;
    const short = shortTask(done.taskId);
    if (ends.messages.has(short)) continue;
    const exit = exitOf(done.result);
    ends.messages.set(short, exit !== undefined ? { file: m.file, exitCode: exit } : { file: m.file });
  }
  for (const t of taskLogs) {
    const name = baseName(t.file).replace(/\.log$/, '');
    if (!ends.logs.has(name)) ends.logs.set(name, t.file);
  }
  return ends;
}

/** Link a background command to the step and message saying it finished, and its task log. */
function linkBackground(taskId: string, runningStep: Step, ends: TaskEnds): BackgroundTask {
  const task: BackgroundTask = { taskId, runningStepKey: runningStep.key };
  const short = shortTask(taskId);
  const step = ends.steps.get(short)?.find((e) => e.position > runningStep.position);
  if (step) {
    task.finishedStepKey = step.key;
    if (step.exitCode !== undefined) task.exitCode = step.exitCode;
  }
  const message = ends.messages.get(short);
  if (message) {
    task.finishedMessageFile = message.file;
    if (task.exitCode === undefined && message.exitCode !== undefined) task.exitCode = message.exitCode;
  }
  const log = ends.logs.get(short);
  if (log) task.taskLogFile = log;
  return task;
}

const VERB: Record<string, string> = {
  run_command: 'Ran',
  write_to_file: 'Wrote',
  replace_file_content: 'Edited',
  multi_replace_file_content: 'Edited',
  view_file: 'Viewed',
  list_dir: 'Listed',
  grep_search: 'Searched',
  find_by_name: 'Found',
  code_search: 'Searched code for',
  skill_search: 'Searched skills for',
  search_web: 'Searched the web for',
  read_url_content: 'Read',
  generate_image: 'Generated image',
  manage_task: 'Task',
  command_status: 'Checked',
  schedule: 'Scheduled',
  ask_permission: 'Asked permission:',
  list_permissions: 'Listed',
  ask_question: 'Asked the user,',
};

/** What a call did, as a row says it: a verb for the tool, then the outcome line (`Ran npm test · exit 1`). */
export function callLine(call: ToolCallView): string {
  const verb = Object.hasOwn(VERB, call.name) ? VERB[call.name] : call.name;
  return `${verb} ${call.outcome.line}`;
}

/**
 * A failed call in one line without its reason (`Viewed C:/…/missing.md · failed`), for a page that shows the reason
 * in a box of its own: the step page said the error twice once the call's line carried it (issue 28).
 */
export function failedCallLine(call: ToolCallView): string {
  const verb = Object.hasOwn(VERB, call.name) ? VERB[call.name] : call.name;
  return `${verb} ${call.outcome.target ?? call.name} · failed`;
}

/** What a user's own action did, in one line: `The user opened notes.md (lines 1–2)`, `The user edited app.js (+1 −1)`. */
function userActionLine(action: UserActionText, type: string): string {
  const where = action.path ?? 'a file';
  if (action.action === 'view-file') return `The user opened ${where}${action.lines ? ` (lines ${action.lines.from}–${action.lines.to}${action.lines.total !== undefined ? ` of ${action.lines.total}` : ''})` : ''}`;
  if (action.action === 'edit') return `The user edited ${where} (+${action.added ?? 0} −${action.removed ?? 0})`;
  return `The user: ${meaningfulLine(action.text) || type}`;
}

/** The one-line summary of a step for its timeline row. */
function stepLine(step: Step, calls: ToolCallView[], answers: ToolCallView | undefined): string {
  if (isUserAction(step)) return cut(userActionLine(readUserAction(step.type, step.content), step.type));
  if (step.stepFilesOnly) {
    const words = meaningfulLine(step.output?.text ?? '') || meaningfulLine(step.contentMd?.text ?? '');
    return cut(`Step files only, no log record${words ? `: ${words}` : ''}`);
  }
  // A result row says it answers (↳) and what came of it; its Type column says which tool wrote it.
  if (answers) return cut(`↳ ${answers.outcome.line}`);
  if (calls.length > 0) {
    const [first, ...rest] = calls;
    const head = first ? callLine(first) : '';
    return cut(rest.length > 0 ? `${head} (+${rest.length} more)` : head);
  }
  switch (step.type) {
    case 'USER_INPUT': {
      const text = requestText(step.content);
      const sw = modelSwitches(step).at(-1);
      const words = meaningfulLine(text);
      // "from None" is the model chosen at the start, no switch (TurnView says it alike).
      return cut(words || (sw ? (sw.from ? `Model switched from ${sw.from} to ${sw.to}` : `Model: ${sw.to}`) : 'User input'));
    }
    case 'PLANNER_RESPONSE':
      return cut(meaningfulLine(step.content ?? '') || (step.thinking ? `Thinking: ${meaningfulLine(step.thinking)}` : 'Model response (empty)'));
    case 'CHECKPOINT': {
      const cp = checkpointText(step.content);
      const words = meaningfulLine(cp.summary.replace(/^#+\s*USER Objective:?\s*$/im, ''));
      return cut(`Checkpoint${cp.number !== undefined ? ` ${cp.number}` : ''}${words ? `: ${words}` : ''}`);
    }
    case 'SYSTEM_MESSAGE': {
      const body = wrappedBody(step.content, 'SYSTEM_MESSAGE');
      const done = taskFinished(body);
      if (done) {
        const exit = readCommandText(done.result.replace(/^\s*\r?\n/, '')).exitCode;
        return cut(`${shortTask(done.taskId)} finished${exit !== undefined ? ` · ${exitLabel(exit)}` : ''}`);
      }
      const content = /\bcontent=([\s\S]*)/.exec(body)?.[1];
      const sender = /\bsender=(\S+)/.exec(body)?.[1];
      const words = meaningfulLine(content ?? body);
      return cut(words ? `System${sender && sender !== 'system' ? ` (${shortTask(sender)})` : ''}: ${words}` : 'System message');
    }
    case 'EPHEMERAL_MESSAGE': {
      const body = wrappedBody(step.content, 'EPHEMERAL_MESSAGE');
      const tag = /^<([a-z_]+)>/.exec(body)?.[1];
      const words = meaningfulLine(body);
      return cut(`Reminder${tag ? ` (${tag.replace(/_/g, ' ')})` : ''}${words ? `: ${words}` : ''}`);
    }
    case 'CONVERSATION_HISTORY': {
      const n = (step.content?.match(/<conversation_summary\b|^## Conversation /gim) ?? []).length;
      return n > 0 ? `Conversation history (${n} earlier conversation${n === 1 ? '' : 's'})` : 'Conversation history';
    }
    case 'KNOWLEDGE_ARTIFACTS':
      return 'Knowledge items';
    case 'ERROR_MESSAGE':
      return cut(`Error: ${firstLine(errorText(step) ?? 'no message')}`);
    default: {
      if (isResultStep(step)) {
        const o = orphanOutcome(step);
        return cut(o.line);
      }
      return cut(meaningfulLine(step.content ?? '') || step.type);
    }
  }
}

function emptyStats(): TurnStats {
  return { steps: 0, toolCalls: 0, failures: 0, agentErrors: 0, filesChanged: [], commands: 0, stepsPerModel: {} };
}

/** Length of the union of `[start, end]` intervals, in ms. */
function unionLength(intervals: [number, number][]): number {
  const sorted = intervals.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let curStart = Number.NaN;
  let curEnd = Number.NaN;
  for (const [a, b] of sorted) {
    if (Number.isNaN(curStart) || a > curEnd) {
      if (!Number.isNaN(curStart)) total += curEnd - curStart;
      curStart = a;
      curEnd = b;
    } else if (b > curEnd) curEnd = b;
  }
  if (!Number.isNaN(curStart)) total += curEnd - curStart;
  return total;
}

/**
 * Build the turns of a session. `input.steps` is the merged timeline (`Session.steps`, positions 0…n−1); pass the
 * redacted session so every string in the result is redacted too. Never throws on odd data: a result without a
 * call becomes an `orphan-result` item and is counted in `pairing`.
 */
export function buildTurns(input: TurnInput): SessionTurns {
  const steps = input.steps;
  const { perStep, segments } = modelsPerStep(steps);
  const { pairs, orphans } = pairCalls(steps);
  const orphanSet = new Set(orphans);
  const orphanOutcomes = new Map<number, ReturnType<typeof orphanOutcome>>();
  const orphanOf = (step: Step): ReturnType<typeof orphanOutcome> => {
    let o = orphanOutcomes.get(step.position);
    if (!o) {
      o = orphanOutcome(step);
      orphanOutcomes.set(step.position, o);
    }
    return o;
  };
  const short = pathShortener(input.workspace);
  let byKey: Map<string, Step> | undefined;
  let taskEnds: TaskEnds | undefined;
  const stepByKey = (): Map<string, Step> => (byKey ??= new Map(steps.map((x) => [x.key, x])));

  // Calls, with outcomes and background tasks.
  const calls: ToolCallView[] = [];
  const callsByStep = new Map<number, ToolCallView[]>();
  const answeredBy = new Map<number, ToolCallView>();
  const pairing: PairingReport = { paired: 0, unpairedResults: [], unansweredCalls: [] };
  for (const pair of pairs) {
    const callStep = steps[pair.callPosition];
    const call = callStep?.toolCalls[pair.callIndex];
    if (!callStep || !call) continue;
    const result = pair.resultPosition !== undefined ? steps[pair.resultPosition] : undefined;
    const outcome = outcomeOf(call, result, short);
    if (result) {
      const taskId = outcome.kind === 'command' ? backgroundTaskId(result) : undefined;
      if (taskId) {
        taskEnds ??= indexTaskEnds(steps, input.messages ?? [], input.taskLogs ?? []);
        const task = linkBackground(taskId, result, taskEnds);
        outcome.background = task;
        // The RUNNING result has no Completed At; the step saying the task finished is when it ended.
        const finishedAt = task.finishedStepKey !== undefined ? stepByKey().get(task.finishedStepKey)?.createdAt : undefined;
        if (outcome.completedAt === undefined && finishedAt !== undefined) {
          outcome.completedAt = finishedAt;
          const a = ms(outcome.startedAt);
          const b = ms(finishedAt);
          if (a !== undefined && b !== undefined && b >= a) outcome.durationMs = b - a;
        }
        if (outcome.exitCode === undefined && task.exitCode !== undefined) {
          outcome.exitCode = task.exitCode;
          outcome.status = task.exitCode === 0 ? 'ok' : 'failed';
          // The line said how the call's own result left it ("running in the background", or "ended" with no code).
          outcome.line = `${outcome.line.replace(/ · (?:running in the background|ended)$/, '')} · ${exitLabel(task.exitCode)}, in the background`;
        }
      }
    }
    const view: ToolCallView = {
      id: `${callStep.key}.${pair.callIndex}`,
      callStepKey: callStep.key,
      callPosition: callStep.position,
      callIndex: pair.callIndex,
      name: call.name,
      outcome,
    };
    const model = perStep[callStep.position];
    if (model !== undefined) view.model = model;
    if (result) {
      view.resultStepKey = result.key;
      view.resultPosition = result.position;
      view.resultType = result.type;
      pairing.paired++;
      // The same text the call's step page shows (`callOutput`): a background command's is its task's final output.
      const output = callOutput(view, (key) => stepByKey().get(key));
      if (output) {
        view.outputChars = output.text.length;
        if (output.text !== '') view.outputHead = output.text.length > OUTPUT_HEAD_MAX ? output.text.slice(0, OUTPUT_HEAD_MAX) : output.text;
        // A background command's reason is in its task's final output, not in its RUNNING result.
        if (outcome.status === 'failed' && !outcome.error && output.from === 'task') {
          const why = outputFailureMessage(output.text);
          if (why) outcome.error = why;
        }
      }
      answeredBy.set(result.position, view);
    } else if (callStep.origin === 'overview') {
      outcome.resultNotLogged = true;
      outcome.line = outcome.line.replace(/ · no result$/, ' · result not logged');
    } else {
      // A step read from overview.txt alone has no result to find (above): that log never keeps tool results, so
      // its calls are not a pairing failure for the report.
      pairing.unansweredCalls.push({ stepKey: callStep.key, position: callStep.position, callIndex: pair.callIndex, name: call.name });
    }
    calls.push(view);
    const list = callsByStep.get(callStep.position);
    if (list) list.push(view);
    else callsByStep.set(callStep.position, [view]);
  }
  const finishedBy = new Map<string, string>();
  for (const c of calls) if (c.outcome.background?.finishedStepKey) finishedBy.set(c.outcome.background.finishedStepKey, c.id);
  for (const pos of orphans) {
    const s = steps[pos];
    if (s) pairing.unpairedResults.push({ stepKey: s.key, position: pos, type: s.type });
  }

  // Turns.
  const turns: Turn[] = [];
  const stepViews: StepView[] = [];
  let turn: Turn | undefined;
  const open = (number: number, from: number): Turn => {
    const t: Turn = { number, anchor: `turn-${number}`, items: [], stats: emptyStats(), fromPosition: from, toPosition: from };
    const model = perStep[from];
    if (model !== undefined) t.model = model;
    turns.push(t);
    return t;
  };
  const fold = (t: Turn, kind: FoldedKind, step: Step): void => {
    const last = t.items.at(-1);
    if (last?.kind === 'folded' && last.folded === kind) {
      last.stepKeys.push(step.key);
      last.positions.push(step.position);
    } else t.items.push({ kind: 'folded', folded: kind, stepKeys: [step.key], positions: [step.position] });
  };

  for (const step of steps) {
    const request = step.type === 'USER_INPUT' ? requestText(step.content) : undefined;
    if (request !== undefined) {
      const duplicate = turn?.request !== undefined && turn.request.text === request && turn.items.every((i) => i.kind === 'folded');
      if (!duplicate) {
        turn = open(turns.length === 0 ? 1 : (turns.at(-1)?.number ?? 0) + 1, step.position);
        const sw = modelSwitches(step).at(-1);
        turn.request = { stepKey: step.key, position: step.position, text: request, mentionedFiles: mentions(request) };
        if (step.createdAt) turn.request.createdAt = step.createdAt;
        if (sw) turn.request.modelSwitch = sw;
      } else if (turn) fold(turn, 'duplicate-request', step);
    } else {
      if (!turn) turn = open(0, step.position);
      if (step.type === 'PLANNER_RESPONSE' || step.toolCalls.length > 0) {
        const item: TurnItem = { kind: 'reply', stepKey: step.key, position: step.position, calls: callsByStep.get(step.position) ?? [] };
        if (step.createdAt) item.createdAt = step.createdAt;
        if (step.content && step.content.trim() !== '') item.text = step.content;
        if (step.thinking && step.thinking.trim() !== '') item.thinking = step.thinking;
        const model = perStep[step.position];
        if (model !== undefined) item.model = model;
        turn.items.push(item);
      } else if (step.type === 'CHECKPOINT') {
        const cp = checkpointText(step.content);
        const item: TurnItem = { kind: 'checkpoint', stepKey: step.key, position: step.position, summary: cp.summary };
        if (cp.number !== undefined) item.number = cp.number;
        if (step.createdAt) item.createdAt = step.createdAt;
        turn.items.push(item);
      } else if (isUserAction(step)) {
        const action = readUserAction(step.type, step.content);
        const item: TurnItem = { kind: 'user-action', action: action.action, stepKey: step.key, position: step.position, type: step.type, text: action.text };
        if (step.createdAt) item.createdAt = step.createdAt;
        if (action.path !== undefined) item.path = action.path;
        if (action.lines) item.lines = action.lines;
        if (action.added !== undefined) item.added = action.added;
        if (action.removed !== undefined) item.removed = action.removed;
        if (step.truncatedFields.includes('content')) item.cut = true;
        turn.items.push(item);
      } else if (isResultStep(step)) {
        if (orphanSet.has(step.position)) turn.items.push({ kind: 'orphan-result', stepKey: step.key, position: step.position, type: step.type, outcome: orphanOf(step) });
        // A paired result is shown through its call.
      } else fold(turn, foldedKind(step), step);
    }
    const t = turn as Turn;
    t.toPosition = step.position;
    const stepCalls = callsByStep.get(step.position) ?? [];
    const answers = answeredBy.get(step.position);
    const failed =
      answers !== undefined
        ? answers.outcome.status === 'failed'
        : stepCalls.length > 0
          ? stepCalls.some((c) => c.outcome.status === 'failed')
          : isResultStep(step)
            ? orphanOf(step).status === 'failed'
            : stepFailed(step);
    const view: StepView = { key: step.key, position: step.position, turn: t.number, summary: stepLine(step, stepCalls, answers), failed, callIds: stepCalls.map((c) => c.id) };
    const failure = stepFailure(step, answers, orphanSet.has(step.position) ? orphanOf(step) : undefined);
    if (failure) view.failure = failure;
    const model = perStep[step.position];
    if (model !== undefined) view.model = model;
    if (answers) view.answersCallId = answers.id;
    const finishes = finishedBy.get(step.key);
    if (finishes) view.finishesCallId = finishes;
    stepViews.push(view);
  }

  // Per-turn stats.
  const stepsPerModel: Record<string, number> = {};
  for (const t of turns) {
    const st = t.stats;
    const times: number[] = [];
    const intervals: [number, number][] = [];
    const changed = new Set<string>();
    for (let p = t.fromPosition; p <= t.toPosition; p++) {
      const s = steps[p];
      if (!s) continue;
      st.steps++;
      const m = perStep[p] ?? UNKNOWN_MODEL;
      st.stepsPerModel[m] = (st.stepsPerModel[m] ?? 0) + 1;
      stepsPerModel[m] = (stepsPerModel[m] ?? 0) + 1;
      const at = ms(s.createdAt);
      // A notice that a background task finished is the task's time, not the turn's: on real history it came 8
      // days after its turn (86033144 step 7592), and a turn of 12 s read as 184 h.
      if (at !== undefined && !finishedBy.has(s.key)) times.push(at);
      for (const c of callsByStep.get(p) ?? []) {
        st.toolCalls++;
        if (c.outcome.kind === 'command') st.commands++;
        if (isFileChange(c) && c.outcome.target && !changed.has(c.outcome.target)) {
          changed.add(c.outcome.target);
          st.filesChanged.push(c.outcome.target);
        }
        const a = ms(c.outcome.startedAt);
        const b = ms(c.outcome.completedAt);
        // A command that went on in the background ends when its task does (a dev server: days later); the turn
        // moved on when it was started. Its run is on the call (`durationMs`), not in the turn's time.
        if (c.outcome.background) {
          if (a !== undefined) times.push(a);
        } else if (a !== undefined && b !== undefined) {
          intervals.push([a, b]);
          times.push(b);
        }
      }
      // Counted by the step that records it (`stepFailure`): a failed call by its one result step, so a call is
      // counted once however many steps show it.
      const failure = stepViews[p]?.failure;
      if (failure === 'call') st.failures++;
      else if (failure === 'agent') st.agentErrors++;
    }
    if (times.length > 0) {
      const first = Math.min(...times);
      const last = Math.max(...times);
      st.startedAt = new Date(first).toISOString();
      st.endedAt = new Date(last).toISOString();
      st.wallClockMs = last - first;
      const sorted = [...times].sort((x, y) => x - y);
      for (let i = 1; i < sorted.length; i++) {
        const a = sorted[i - 1] as number;
        const b = sorted[i] as number;
        if (b - a <= IDLE_GAP_MS) intervals.push([a, b]);
      }
      st.activeMs = unionLength(intervals);
    }
  }

  return { turns, calls, steps: stepViews, models: segments, modelSequence: modelSequence(segments), stepsPerModel, pairing };
}

/** `buildTurns` over a read (and redacted) session: its steps, task logs, messages and workspace. */
export function sessionTurns(session: Pick<Session, 'steps' | 'taskLogs' | 'messages' | 'meta'>): SessionTurns {
  return buildTurns({ steps: session.steps, taskLogs: session.taskLogs, messages: session.messages, workspace: session.meta.workspace });
}
