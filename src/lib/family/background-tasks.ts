/**
 * Background tasks as one thing each: the messages a task sent (`sender` = `<session>/task-N`), the step that
 * started it, its `tasks/task-N.log`, its repeated notices counted, and how it ended. Pure: no `astro:*`, no HTML.
 *
 * What the real format says (real sessions d493099f and 86033144):
 * - A command or timer that goes on in the background answers its call with a result step reading
 *   `Tool is running as a background task with task id: <session>/task-N`; N is that result step's index.
 * - When it ends, a message arrives from `<session>/task-N` titled `<toolSummary> finished` (or `Command execution
 *   finished`, `… was canceled`) whose content is `Task id "…" finished with result:` and the command's own result
 *   text (`The command completed successfully.` / `The command failed with exit code: N`); its
 *   `sourceMetadata.tool` holds the call (`toolCall.name`, `argumentsJson`) and `stepIndex` = N.
 * - A timer ends with one message titled `<summary>: Timer has expired` or `…: Timer Cancelled`.
 * - A recurring schedule sends one message per firing, titled `<summary>: Cron trigger #K`: in 86033144 task-4215
 *   fired 229 times and task-4252 226 times. Those are notices, counted, not 455 rows.
 */
import { MAX_NESTING, nestingDepth } from '../brain/nesting.ts';
import type { Message, Step, TaskLog } from '../brain/types.ts';
import type { ToolCallView } from '../turns/types.ts';
import { threadOrder } from '../audit/thread.ts';

/** `<session uuid>/task-<N>` as a sender, with its parts. */
const TASK_SENDER = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/task-(\d+)$/i;
const RUNNING_AS_TASK = /running as a background task with task id:\s*(\S+\/task-(\d+))/i;
const FINISHED = /^Task id "([^"]+)" (finished|was cancell?ed) with result:/;
/** Longest start description and end output kept per task (the log and the message files hold the rest). */
export const TASK_TEXT_MAX = 2_000;

/** The parts of a task sender, or undefined when `sender` is no task. */
export function parseTaskSender(sender: string | undefined): { sessionId: string; number: number; taskId: string } | undefined {
  const m = sender ? TASK_SENDER.exec(sender) : null;
  return m ? { sessionId: (m[1] as string).toLowerCase(), number: Number(m[2]), taskId: sender as string } : undefined;
}

/** A run of messages of one task with the same title once numbers are set aside (`Cron trigger #…`). */
export interface TaskNotice {
  /** The title with its running number replaced by `#…`, e.g. `Watch the build: Cron trigger #…`. */
  title: string;
  count: number;
  /** The first and last running number seen (`#1` … `#229`), when the title has one. */
  firstNumber?: number;
  lastNumber?: number;
  firstAt?: string;
  lastAt?: string;
  /** How many of them were hidden from the user (`hideFromUser`). */
  hidden: number;
  /** The content of the first one (cut at `TASK_TEXT_MAX`). */
  sample?: string;
  /** The message file of the first one. */
  file: string;
}

/** How a task ended, from its last `finished` / `canceled` / timer message. */
export interface TaskEnd {
  status: 'ok' | 'failed' | 'cancelled' | 'expired';
  exitCode?: number;
  at?: string;
  /** The message's title as written. */
  title?: string;
  /** The result text after `… with result:` (cut at `TASK_TEXT_MAX`). */
  output: string;
  file: string;
}

/** One background task of a session. */
export interface BackgroundTaskGroup {
  /** `<session>/task-N` as written. */
  taskId: string;
  number: number;
  /** HTML anchor on the session page, `task-N`. */
  anchor: string;
  /** What it was, from the call's `toolSummary` or the messages' titles. */
  label?: string;
  /** The call that started it, when the transcript or a message shows it. */
  start?: {
    /** Key of the result step that announced the task (index N), when the timeline holds it. */
    stepKey?: string;
    /** Key of the step holding the call (the step before the announcement that made tool calls). */
    callStepKey?: string;
    tool?: string;
    /** The command line, or the schedule / timer description. */
    description?: string;
    at?: string;
    /** Where the start was read from. */
    derivedFrom: 'transcript' | 'message';
  };
  /** Every message of the task that is not its end, grouped by title. */
  notices: TaskNotice[];
  /** Every message the task sent (notices and end). */
  messages: number;
  end?: TaskEnd;
  /** `tasks/task-N.log`, when the session holds it. */
  log?: { file: string; name: string; chars: number };
}

/** What `groupBackgroundTasks` reads: a session's id, steps, messages and task logs. */
export interface BackgroundTaskInput {
  id: string;
  steps: readonly Step[];
  messages: readonly Message[];
  taskLogs: readonly TaskLog[];
  /**
   * The turn builder's calls (`SessionTurns.calls`), when the caller has them: a call whose outcome went on in the
   * background names its task, so the start is the builder's pairing instead of "the last call before the
   * announcement".
   */
  calls?: readonly ToolCallView[];
}

function cut(text: string): string {
  return text.length > TASK_TEXT_MAX ? `${text.slice(0, TASK_TEXT_MAX - 1)}…` : text;
}

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** `sourceMetadata.tool` of a message (the call behind it), when present. */
export function messageTool(m: Message): { conversationId?: string; stepIndex?: number; name?: string; args?: Record<string, unknown> } | undefined {
  const tool = record(record(m.raw.sourceMetadata)?.tool);
  if (!tool) return undefined;
  const call = record(tool.toolCall);
  let args: Record<string, unknown> | undefined;
  if (typeof call?.argumentsJson === 'string') {
    try {
      const parsed: unknown = JSON.parse(call.argumentsJson);
      // Within the nesting the archive keeps (brain/nesting.ts); deeper, the message's raw JSON still holds them.
      args = nestingDepth(parsed) <= MAX_NESTING ? record(parsed) : undefined;
    } catch {
      args = undefined;
    }
  }
  return {
    conversationId: typeof tool.conversationId === 'string' ? tool.conversationId : undefined,
    stepIndex: typeof tool.stepIndex === 'number' ? tool.stepIndex : undefined,
    name: typeof call?.name === 'string' ? call.name : undefined,
    args,
  };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** How a `finished` message or a timer message says the task ended, or undefined for a notice. */
function endOf(m: Message): TaskEnd | undefined {
  const content = m.content ?? '';
  const finished = FINISHED.exec(content);
  if (finished) {
    const output = content.slice(finished[0].length).replace(/^\s*\n/, '');
    // `failed with exit code: N` / `completed successfully.` (antigravity), `exited with code N.` (jetski, ca4322d4).
    const coded = /The command (?:failed with exit code:|exited with code)\s*(-?\d+)/.exec(output);
    const exitCode = coded ? Number(coded[1]) : /The command completed successfully\./.test(output) ? 0 : undefined;
    const status = finished[2] !== 'finished' ? 'cancelled' : exitCode !== undefined && exitCode !== 0 ? 'failed' : 'ok';
    return { status, exitCode, at: m.timestamp, title: m.title, output: cut(output.trim()), file: m.file };
  }
  if (m.title && /: Timer has expired$/.test(m.title)) return { status: 'expired', at: m.timestamp, title: m.title, output: cut(content), file: m.file };
  if (m.title && /: Timer Cancell?ed$/.test(m.title)) return { status: 'cancelled', at: m.timestamp, title: m.title, output: cut(content), file: m.file };
  return undefined;
}

/** The title with its running number set aside: `X: Cron trigger #12` → `X: Cron trigger #…`, 12. */
function noticeKey(title: string | undefined): { title: string; number?: number } {
  if (!title) return { title: '(no title)' };
  const m = /#(\d+)\s*$/.exec(title);
  return m ? { title: `${title.slice(0, m.index)}#…`, number: Number(m[1]) } : { title };
}

/** What a title says the task was: the part before `: Cron trigger`, `: Timer …` or ` finished`. */
function labelOf(title: string | undefined): string | undefined {
  if (!title) return undefined;
  const m = /^(.*?)(?::\s*(?:Cron trigger #\d+|Timer has expired|Timer Cancell?ed)| finished| was cancell?ed)$/.exec(title);
  const label = m?.[1]?.trim();
  return label && !/^(Command execution|Run command)$/.test(label) ? label : undefined;
}

/**
 * Every background task of a session, by task number: its messages (notices counted by title, the end apart), the
 * step that started it and its log. A task known only from its log or only from its announcement is kept too.
 * Tasks of other sessions (a sender naming another session's task) are left to that session.
 */
export function groupBackgroundTasks(input: BackgroundTaskInput): BackgroundTaskGroup[] {
  const id = input.id.toLowerCase();
  const groups = new Map<number, BackgroundTaskGroup>();
  const group = (n: number, taskId = `${input.id}/task-${n}`): BackgroundTaskGroup => {
    let g = groups.get(n);
    if (!g) {
      g = { taskId, number: n, anchor: `task-${n}`, notices: [], messages: 0 };
      groups.set(n, g);
    }
    return g;
  };

  // The builder's pairing first: each call that went on in the background, with the step announcing its task.
  for (const call of input.calls ?? []) {
    const bg = call.outcome.background;
    const task = parseTaskSender(bg?.taskId);
    if (!bg || !task || task.sessionId !== id) continue;
    const g = group(task.number, bg.taskId);
    const description = call.outcome.target ?? /Task Description:\s*(.*)/.exec(input.steps[call.resultPosition ?? -1]?.content ?? '')?.[1];
    g.start = {
      stepKey: bg.runningStepKey,
      callStepKey: call.callStepKey,
      tool: call.name,
      description: description !== undefined ? cut(description) : undefined,
      at: call.resultPosition !== undefined ? input.steps[call.resultPosition]?.createdAt : undefined,
      derivedFrom: 'transcript',
    };
    g.label ??= str(input.steps[call.callPosition]?.toolCalls[call.callIndex]?.args.toolSummary);
  }

  // Else the announcement: the result step saying a call went on as task N, and the last call in the step before it.
  for (const step of input.steps) {
    const m = RUNNING_AS_TASK.exec(step.content ?? '');
    if (!m || parseTaskSender(m[1])?.sessionId !== id) continue;
    const g = group(Number(m[2]), m[1]);
    if (g.start) continue;
    const caller = [...input.steps.slice(0, step.position)].reverse().find((s) => s.toolCalls.length > 0);
    const call = caller?.toolCalls.at(-1);
    const description = str(call?.args.CommandLine) ?? /Task Description:\s*(.*)/.exec(step.content ?? '')?.[1];
    g.start = {
      stepKey: step.key,
      callStepKey: caller?.key,
      tool: call?.name,
      description: description !== undefined ? cut(description) : undefined,
      at: step.createdAt,
      derivedFrom: 'transcript',
    };
    g.label ??= str(call?.args.toolSummary);
  }

  for (const m of threadOrder([...input.messages])) {
    const task = parseTaskSender(m.sender);
    if (!task || task.sessionId !== id) continue;
    const g = group(task.number, task.taskId);
    g.messages++;
    const tool = messageTool(m);
    if (!g.start && tool?.name) {
      const description = str(tool.args?.CommandLine) ?? str(tool.args?.Prompt);
      g.start = { tool: tool.name, description: description !== undefined ? cut(description) : undefined, derivedFrom: 'message' };
    }
    g.label ??= str(tool?.args?.toolSummary) ?? labelOf(m.title);
    const end = endOf(m);
    if (end) {
      // A later end wins (real 86033144 task-1060 sent two `finished` messages); the earlier one stays a notice.
      if (g.end) pushNotice(g, { title: g.end.title, timestamp: g.end.at, file: g.end.file, content: g.end.output, hidden: false });
      g.end = end;
      continue;
    }
    pushNotice(g, m);
  }

  for (const log of input.taskLogs) {
    // The reader names a log without its extension (`task-12` for `tasks/task-12.log`).
    const m = /^task-(\d+)(?:\.log)?$/.exec(log.name);
    if (!m) continue;
    group(Number(m[1])).log = { file: log.file, name: log.name, chars: log.text.length };
  }
  return [...groups.values()].sort((a, b) => a.number - b.number);
}

function pushNotice(g: BackgroundTaskGroup, m: Pick<Message, 'title' | 'timestamp' | 'file' | 'content' | 'hidden'>): void {
  const { title, number } = noticeKey(m.title);
  let notice = g.notices.find((n) => n.title === title);
  if (!notice) {
    notice = { title, count: 0, hidden: 0, file: m.file, firstAt: m.timestamp, sample: m.content !== undefined ? cut(m.content) : undefined };
    g.notices.push(notice);
  }
  notice.count++;
  if (m.hidden) notice.hidden++;
  if (m.timestamp) notice.lastAt = m.timestamp;
  if (number !== undefined) {
    notice.firstNumber = Math.min(notice.firstNumber ?? number, number);
    notice.lastNumber = Math.max(notice.lastNumber ?? number, number);
  }
}

const memo = new WeakMap<object, BackgroundTaskGroup[]>();

/** `groupBackgroundTasks`, once per session object (a session's step pages share the read session). */
export function backgroundTasksOf(session: Omit<BackgroundTaskInput, 'calls'>, calls?: readonly ToolCallView[]): BackgroundTaskGroup[] {
  let tasks = memo.get(session);
  if (!tasks) {
    tasks = groupBackgroundTasks({ ...session, calls });
    memo.set(session, tasks);
  }
  return tasks;
}
