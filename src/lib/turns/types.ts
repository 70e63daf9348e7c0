/**
 * The exported shapes of the turn builder (`buildTurns` in `./build.ts`): a session's merged steps read as a
 * conversation. Pure data, no Astro, no HTML; every string is text as read (after redaction when the builder is
 * given a redacted session, which is how the loader calls it), and every value survives `JSON.stringify` and
 * `v8.serialize` (no Maps, no class instances), so the loader can store it and the pages read it.
 *
 * Steps are named by their `key` (`Step.key`, the URL key of `/sessions/<id>/steps/<key>/`) and their `position`
 * (0-based place in the merged timeline), never by object identity.
 */

/**
 * What kind of work a tool call does, from its tool name (`run_command` → `command`, `replace_file_content` →
 * `edit`, …). Unknown tools are `other`. Pages filter and colour by this, never by the result step's `type`
 * (jetski records every result as `GENERIC`).
 */
export type ToolKind =
  | 'command'
  | 'edit'
  | 'view'
  | 'list'
  | 'search'
  | 'web'
  | 'image'
  | 'task'
  | 'permission'
  | 'question'
  | 'other';

/**
 * How a call ended, from the data: `failed` only for a non-zero exit code, an ERROR_MESSAGE answer, an `error`
 * field or status ERROR. `running` when the only record left is RUNNING (a background task whose end was never
 * seen), `cancelled` for status CANCELLED, `unknown` when no result answers the call. Red means `failed`, nothing else.
 */
export type OutcomeStatus = 'ok' | 'failed' | 'running' | 'cancelled' | 'unknown';

/** A background task a command became (`Tool is running as a background task with task id: …/task-N`). */
export interface BackgroundTask {
  /** The full task id as written, e.g. `ca4322d4-…/task-132`. */
  taskId: string;
  /** Key of the RUNNING result step that announced it. */
  runningStepKey: string;
  /** Key of the later step (SYSTEM_MESSAGE, `manage_task` / `command_status` result) that says it finished. */
  finishedStepKey?: string;
  /** `messages/<uuid>.json` whose content says the task finished (relative path in the session folder). */
  finishedMessageFile?: string;
  /** `tasks/task-N.log` of this task, when the session holds it (relative path in the session folder). */
  taskLogFile?: string;
  /** Exit code reported when it finished. */
  exitCode?: number;
}

/**
 * What a call did and how it ended, taken from its arguments and its result's text (never from `toolSummary`).
 * Only the fields that apply to the call's kind are set.
 */
export interface Outcome {
  kind: ToolKind;
  status: OutcomeStatus;
  /**
   * One line saying what happened, for timelines, turn lines and search titles:
   * `npm test · exit 1`, `src/app.ts +12 −3`, `src/app.ts lines 1–80 of 120`, `"TODO" · 4 hits`,
   * `write_file on D:/site granted`, or the error message.
   */
  line: string;
  /** What the call acted on: the command line, the target path, the query, the URL (one line, not cut). */
  target?: string;
  /** A command's working folder (`Cwd`). */
  cwd?: string;
  /** A command's exit code, as reported in its result (or its task's end). */
  exitCode?: number;
  /** Lines added and removed by an edit (from the diff in the result, else from the arguments). */
  added?: number;
  removed?: number;
  /** The line range a view showed, 1-based inclusive, and the file's total lines when stated. */
  lineRange?: { from: number; to: number; total?: number };
  /** Number of hits of a search tool (grep, find, web search results, directory entries for a list). */
  hits?: number;
  /** The error message, for a failed call (first lines, without the transport header). */
  error?: string;
  /** What a permission request asked for and whether it was granted, e.g. `write_file on D:/site`. */
  granted?: string;
  /** `Created At` / `Completed At` of the result, ISO, and the difference in ms. */
  startedAt?: string;
  completedAt?: string;
  durationMs?: number;
  /** Set when the command went on in the background. */
  background?: BackgroundTask;
  /**
   * Set when no result answers the call because the log that holds it never records results: a step read from
   * `overview.txt` alone (real-eras b1966f3f, 00986dca). Its `unknown` status then says nothing about the call.
   */
  resultNotLogged?: true;
  /** A file the call made that the result names (a generated image's path as written). */
  producedFile?: string;
}

/**
 * One tool call paired with the result step that answers it. Real logs carry no call id: a result step answers
 * the next unanswered call of the PLANNER_RESPONSE before it, in order (see `pairCalls`).
 */
export interface ToolCallView {
  /** Stable id within the session, `<callStepKey>.<callIndex>`, usable as an HTML anchor suffix. */
  id: string;
  /** Key and position of the PLANNER_RESPONSE (or other step) that made the call. */
  callStepKey: string;
  callPosition: number;
  /** 0-based index of the call in that step's `toolCalls`. */
  callIndex: number;
  /** The tool name as recorded, e.g. `run_command`. */
  name: string;
  /** The result step that answers it; absent when none does (cut off, cancelled, rolled off disk). */
  resultStepKey?: string;
  resultPosition?: number;
  /** The result step's `type` as recorded (`RUN_COMMAND`, `GENERIC`, `ERROR_MESSAGE`, …). */
  resultType?: string;
  outcome: Outcome;
  /** The head of the result's text with Antigravity's transport header stripped (at most `OUTPUT_HEAD_MAX` characters). */
  outputHead?: string;
  /** Length of the whole stripped output, so a page can say how much more the step page holds. */
  outputChars?: number;
  /** Model in force when the call was made. */
  model?: string;
}

/** Where the pairing failed, listed on `/report/` as problems. */
export interface PairingReport {
  /** Calls that found their result. */
  paired: number;
  /** Result steps with no unanswered call before them (e.g. the transcript starts mid-session). */
  unpairedResults: { stepKey: string; position: number; type: string }[];
  /** Calls no result answered. */
  unansweredCalls: { stepKey: string; position: number; callIndex: number; name: string }[];
}

/** A stretch of consecutive steps under one model (from the `Model Selection` changes in USER_INPUT). */
export interface ModelSegment {
  /** The model's name as Antigravity writes it, e.g. `Claude Sonnet 4.6 (Thinking)`; absent when unknown. */
  model?: string;
  /** First and last position (inclusive) of the stretch. */
  fromPosition: number;
  toPosition: number;
  /** Key of the first step, to link to where the switch happened. */
  firstStepKey: string;
  /** Steps in the stretch. */
  steps: number;
}

/** What the user said to open a turn. */
export interface UserRequest {
  stepKey: string;
  position: number;
  createdAt?: string;
  /** The text inside `<USER_REQUEST>`, trimmed (the whole content when the tags are missing). */
  text: string;
  /** `@[…]` mentions of this request, in order, unique. */
  mentionedFiles: string[];
  /** Set when this input switched the model. */
  modelSwitch?: { from?: string; to: string };
}

/** Steps that are shown folded, by what they are. */
export type FoldedKind = 'system' | 'ephemeral' | 'history' | 'knowledge' | 'duplicate-request' | 'other';

/** One entry in a turn, in timeline order. */
export type TurnItem =
  /** The model's text (Markdown) and/or thinking, with the calls it made in this step. */
  | {
      kind: 'reply';
      stepKey: string;
      position: number;
      createdAt?: string;
      text?: string;
      thinking?: string;
      /** The calls this step made, each with its result and outcome. */
      calls: ToolCallView[];
      model?: string;
    }
  /** A CHECKPOINT step, shown as the summary it is. */
  | { kind: 'checkpoint'; stepKey: string; position: number; createdAt?: string; number?: number; summary: string }
  /** A run of consecutive system / ephemeral / history steps, folded with a count. */
  | { kind: 'folded'; folded: FoldedKind; stepKeys: string[]; positions: number[] }
  /**
   * The user's own action in their editor where it happened (`USER_EXPLICIT` VIEW_FILE, CODE_ACTION): a file they
   * opened (its lines) or edited (the edit's unified diff, `[diff_block_start]` markers removed).
   */
  | {
      kind: 'user-action';
      action: 'view-file' | 'edit' | 'other';
      stepKey: string;
      position: number;
      /** The record's type as written (`VIEW_FILE`, `CODE_ACTION`, …). */
      type: string;
      createdAt?: string;
      path?: string;
      lines?: { from: number; to: number; total?: number };
      /** The viewed lines, the edit's diff, or the whole content of another action. */
      text: string;
      added?: number;
      removed?: number;
      /** True when the record's content was cut (`<truncated N bytes>`, overview.txt). */
      cut?: boolean;
    }
  /** A result step no call claims, shown with its own outcome. */
  | { kind: 'orphan-result'; stepKey: string; position: number; type: string; outcome: Outcome };

/** Counts and times of one turn. */
export interface TurnStats {
  /** First and last `created_at` in the turn (ISO). */
  startedAt?: string;
  endedAt?: string;
  /** `endedAt − startedAt`. */
  wallClockMs?: number;
  /** Wall-clock minus idle gaps longer than `IDLE_GAP_MS` between consecutive steps (waiting on the user or a sleep). */
  activeMs?: number;
  steps: number;
  toolCalls: number;
  /** Failed calls (`failures.ts`: calls whose result failed, unclaimed tool results that failed). */
  failures: number;
  /** Agent errors (`failures.ts`: error steps that answer no call). */
  agentErrors: number;
  /** Paths written or edited, unique, in order of first change. */
  filesChanged: string[];
  /** Commands run (outcome kind `command`). */
  commands: number;
  /** Steps per model in force (`unknown` for none). */
  stepsPerModel: Record<string, number>;
}

/** One turn: a user request and everything until the next one. */
export interface Turn {
  /** 1-based; turn 0 holds steps before the first request (a transcript that starts mid-session). */
  number: number;
  /** HTML anchor, `turn-<number>`. */
  anchor: string;
  /** Absent for turn 0. */
  request?: UserRequest;
  /** Model in force at the turn's first step. */
  model?: string;
  items: TurnItem[];
  stats: TurnStats;
  /** First and last position (inclusive) of the steps in the turn. */
  fromPosition: number;
  toPosition: number;
}

/** How the builder sees one step, for timeline rows and step pages (indexed by position). */
export interface StepView {
  key: string;
  position: number;
  /** Number of the turn holding the step. */
  turn: number;
  model?: string;
  /** One informative line for the timeline row (no `Created At:`, no `<USER_REQUEST>`, no boilerplate). */
  summary: string;
  /** True only when the step is a failure (a failed outcome, an error step); never for exit code 0. */
  failed: boolean;
  /**
   * What the step counts as (`failures.ts` `stepFailure`): `call` for the result of a failed call, `agent` for an
   * agent error. The steps marked `call` are the session's failed calls, one each.
   */
  failure?: 'call' | 'agent';
  /** Ids (`ToolCallView.id`) of the calls this step made. */
  callIds: string[];
  /** Id of the call this step answers, when it is a result. */
  answersCallId?: string;
  /** Id of the background command whose end this step reports (a SYSTEM_MESSAGE `Task id "…" finished`). */
  finishesCallId?: string;
}

/** Everything the turn builder derives from a session's steps. */
export interface SessionTurns {
  turns: Turn[];
  /** Every call, in timeline order; `ToolCallView.id` names them. */
  calls: ToolCallView[];
  /** One entry per step, in timeline order (`steps[position]`). */
  steps: StepView[];
  /** Model stretches in timeline order. */
  models: ModelSegment[];
  /** Models in the order used, consecutive repeats merged: `["A", "B", "C"]` for "A → B → C". */
  modelSequence: string[];
  /** Steps per model over the whole session (`unknown` for none). */
  stepsPerModel: Record<string, number>;
  pairing: PairingReport;
}

/**
 * The builder's input: the parts of a read `Session` it looks at (steps for everything; task logs and messages to
 * link background commands to their `tasks/task-N.log` and the message saying they finished).
 */
export interface TurnInput {
  steps: import('../brain/types.ts').Step[];
  taskLogs?: import('../brain/types.ts').TaskLog[];
  messages?: import('../brain/types.ts').Message[];
  /** The session's workspace (`SessionMeta.workspace`): outcome lines write paths under it relative to it. */
  workspace?: string;
}
