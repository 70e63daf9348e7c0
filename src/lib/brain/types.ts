/**
 * The plain data the brain reader returns. No Astro, no HTML: every string here is text exactly as read from disk
 * (decoded where the format encodes it), and everything that went wrong is a `Problem`, never an exception.
 *
 * Paths in `Problem.file`, `SourceRef.file` and the inventory types are relative to the session folder
 * (e.g. `.system_generated/logs/transcript.jsonl`), so they can be shown and published without leaking the
 * reader's home folder. Absolute paths live only in `SessionRef.dir` and `BrainRoot.path`.
 */

/** What kind of thing went wrong while reading. Each one is listed on `/report/`. */
export type ProblemKind =
  /** A JSONL line that does not parse (torn head, torn tail, chunk boundary piece, garbage). */
  | 'bad-line'
  /** A line that parses but is not a step record (not an object, no usable step_index, wrong field types). */
  | 'bad-record'
  /** A file or folder that could not be read (permissions, I/O error, vanished while reading). */
  | 'unreadable'
  /** A symlink whose target is outside the session folder; it was not followed. */
  | 'symlink-outside'
  /** A JSON side file (metadata, message) that does not parse. */
  | 'bad-json'
  /** Bytes that are not valid UTF-8 (replaced by U+FFFD) or NUL bytes in text. */
  | 'bad-encoding'
  /** The same session UUID in another root lost the tie-break (newest mtime wins). */
  | 'shadowed'
  /** A file too large to keep in full; the part kept and the size are in the message. */
  | 'too-large'
  /** A value nested deeper than the reader keeps as structure (nesting.ts); the deeper part is kept as its text. */
  | 'too-deep'
  /**
   * A timestamp that is not a date, or lies outside the years the archive places (`SANE_DATES` in dates.ts): shown
   * as given, left out of start times, durations, day groups, charts and sort keys.
   */
  | 'bad-date'
  /**
   * Two records of one step that disagree (e.g. `overview.txt` naming another type, or other text, than the
   * transcript at the same index): the higher source is shown, the other kept among the step's raw records.
   */
  | 'conflict'
  /** Anything else worth an auditor's attention (e.g. a main transcript rebuilt from chunks). */
  | 'notice';

/** One thing that went wrong, with where. Reading always goes on after a problem. */
export interface Problem {
  kind: ProblemKind;
  /** Session UUID, absent for root-level problems (a root that cannot be listed). */
  sessionId?: string;
  /** Path relative to the session folder; for root-level problems, the root's path as given by the user. */
  file: string;
  /** 1-based line number, for line-oriented files. */
  line?: number;
  /** Human-readable description; never contains secrets beyond what the file itself held (redaction runs later). */
  message: string;
  /**
   * Set on the closing problem of a (file, kind) that went over the per-file limit (problems.ts): how many more
   * problems of that kind the file held, counted but not listed one by one.
   */
  more?: number;
}

/** A `<product>/brain/` folder. */
export interface BrainRoot {
  /** Absolute path of the brain folder. */
  path: string;
  /** The product folder name: `antigravity`, `antigravity-cli`, `jetski`, anything else. */
  product: string;
}

/** A session folder found on disk, before it is read. */
export interface SessionRef {
  /** The folder name, a UUID (lower-cased as on disk). */
  id: string;
  product: string;
  /** Absolute path of the brain root it was found in. */
  root: string;
  /** Absolute path of the session folder. */
  dir: string;
  /** Newest mtime inside the folder's top level (used for the tie-break between roots). */
  mtimeMs: number;
  /** The folder's ctime, the last fallback for the session's start time. */
  ctimeMs: number;
  /** Set when the session is read from the archive store rather than its folder (`src/lib/store/`). */
  stored?: StoredRef;
  /**
   * Absolute path of its conversation database (`<product>/conversations/<uuid>.db`, beside the brain folder) when
   * one is there; never published.
   */
  conversationDb?: string;
  /** Set for a conversation database whose brain folder is gone: the session is read from the database alone. */
  noFolder?: true;
}

/** Where the archive store keeps a session, and what changes when its stored copy changes. */
export interface StoredRef {
  /** The store files holding it (absolute paths). */
  stores: string[];
  /** Changes whenever any store's copy of the session changes (for content digests). */
  fingerprint: string;
  /** Bytes stored for it (to balance split rendering). */
  bytes: number;
  /** Set when its folder is gone from disk: since when (ISO). */
  notOnDiskSince?: string;
}

/** A copy of a session that lost the tie-break to a newer copy in another root. */
export interface ShadowedCopy {
  id: string;
  /** The copy that was not used. */
  shadowed: SessionRef;
  /** The copy that was used. */
  winner: SessionRef;
}

/** What discovery found: roots, the sessions to read (one per UUID), and what it skipped. */
export interface Discovery {
  /**
   * Where discovery looked: the GEMINI_HOME whose `<product>/brain/` folders it listed, or the BRAIN_ROOTS it was
   * given. The snapshot needs it to tell a brain folder that vanished (its sessions are gone from disk) from one it
   * was never asked to read (a BRAIN_ROOTS build of one product says nothing about the others).
   */
  searched: { geminiHome?: string; brainRoots?: string[] };
  roots: BrainRoot[];
  sessions: SessionRef[];
  shadowed: ShadowedCopy[];
  problems: Problem[];
}

/**
 * The logs a session's steps are read from, highest tier first: `full` = `transcript_full.jsonl`, `compact` =
 * `transcript.jsonl` (or their chunk rebuilds), `overview` = `overview.txt`, the only log of Antigravity versions
 * before about late May 2026 (compact records of user inputs and model responses only, long values cut).
 */
export type TranscriptName = 'compact' | 'full' | 'overview';

/** Where a step record was read from: which transcript, which line, and the line's text as read. */
export interface SourceRef {
  /** Which log (see `TranscriptName`). */
  transcript: TranscriptName;
  /** Path relative to the session folder of the file actually read. */
  file: string;
  /** 1-based line number in that file. */
  line: number;
  /** The raw line (BOM and CR removed), so the step page can show the record exactly as read. */
  raw: string;
}

/** One tool call of a step, with arguments decoded to native values. */
export interface ToolCall {
  name: string;
  /** Arguments as native JSON values (compact's JSON-encoded strings are decoded). */
  args: Record<string, unknown>;
  /** Names of arguments whose value is still cut (`<truncated N bytes>`) because only the compact record had it. */
  truncatedArgs: string[];
}

/** A step's `steps/<idx>/output.txt`. */
export interface StepOutput {
  /** Relative path of the file. */
  file: string;
  text: string;
  /** True when the text already stands in the step's content: pages show it once. */
  duplicateOfContent: boolean;
}

/** One entry of the merged timeline. */
export interface Step {
  /** Stable URL key: `step_index`, or `<step_index>-<k>` for its k-th reuse after a rewind (k ≥ 1). */
  key: string;
  /** The `step_index` as recorded. */
  index: number;
  /** 0 for the first step with this index, k for its k-th reuse. */
  occurrence: number;
  /** 0-based position in the merged, chronological timeline. */
  position: number;
  /** `USER_EXPLICIT`, `MODEL`, `SYSTEM`, or whatever the record says. */
  source: string;
  /** `USER_INPUT`, `PLANNER_RESPONSE`, `RUN_COMMAND`, …, or any unknown type as recorded. */
  type: string;
  /** `DONE`, `RUNNING`, `ERROR`, `CANCELLED`, or any unknown status as recorded (last write wins). */
  status: string;
  /** ISO timestamp as recorded; absent when the record has none. */
  createdAt?: string;
  content?: string;
  thinking?: string;
  toolCalls: ToolCall[];
  /** The record's `error` field, as recorded (string or object). */
  error?: unknown;
  errorCode?: unknown;
  exitCode?: unknown;
  /** Every other top-level field of the record, nobody documented it but it is kept. */
  extra: Record<string, unknown>;
  /** Fields still cut in what we kept (only when the full record was not available): `content`, `thinking`, `tool_calls`. */
  truncatedFields: string[];
  /**
   * Which transcripts held this step: `both` = compact and full. `overview` when only `overview.txt` did; a step
   * that `overview.txt` holds too says so in its `sources`. `step-files` for a step no log holds whose
   * `steps/<n>/` files were found (its key is `<n>-files`, and `stepFilesOnly` is set). `db` for a step only the
   * conversation database holds (`conversation-db/join.ts`): shown from the database, `sources` empty.
   */
  origin: 'full' | 'compact' | 'both' | 'overview' | 'step-files' | 'db';
  /**
   * The records that went into this step, in reading order (e.g. RUNNING then DONE, compact and full): all of
   * them, or for a step written more than `SOURCES_KEPT_PER_STEP` times in one file the first ones and the last.
   */
  sources: SourceRef[];
  /** Records of this step read but not kept in `sources` (writes replaced by later ones); absent when none. */
  omittedSources?: number;
  output?: StepOutput;
  /**
   * Set when none of the step's records is in the transcripts on disk any more (the archive store kept them): the
   * time of the first snapshot that no longer saw them (ISO).
   */
  notOnDiskSince?: string;
  /** `steps/<idx>/content.md`, when present. */
  contentMd?: { file: string; text: string };
  /**
   * Set on a step made of `steps/<n>/` files alone: no log holds a record of step n (it failed before it was
   * logged, e.g. "context canceled", or the logs start later). Its type is `STEP_FILES_ONLY`.
   */
  stepFilesOnly?: true;
  /** What the conversation database holds about this step (model call, times, status history); absent without one. */
  db?: StepDbFacts;
}

/** Metadata from a root `<name>.metadata.json`; every field kept. */
export interface ArtifactMetadata {
  summary?: string;
  updatedAt?: string;
  artifactType?: string;
  /** The whole parsed object. */
  raw: Record<string, unknown>;
}

/** A `.resolved` / `.resolved.N` version of an artifact. */
export interface ArtifactVersion {
  /** Relative path. */
  file: string;
  /** N for `.resolved.N`; `null` for the plain `.resolved` (the latest resolved copy). */
  version: number | null;
  text: string;
  /**
   * For a version the archive store kept after the file changed on disk: when that content was last seen (ISO).
   * Absent for what is on disk now.
   */
  replacedAt?: string;
}

/**
 * An artifact: a markdown document, or the metadata of a non-markdown one (code artifacts are not kept on disk), at
 * the session root or in a sub-folder (`docs/README.md`, `browser/scratchpad_ab12cd34.md`).
 */
export interface Artifact {
  /**
   * Path relative to the session folder without its version suffix: a file name at the root (`implementation_plan.md`,
   * `script.js`), or `<folder>/<name>` for one in a sub-folder.
   */
  name: string;
  /** Relative path of the document, absent when only metadata exists. */
  file?: string;
  /** Markdown text, absent when only metadata exists or the artifact is not markdown. */
  text?: string;
  metadata?: ArtifactMetadata;
  /** Versions ordered by N ascending, the plain `.resolved` last. */
  versions: ArtifactVersion[];
}

/** A `messages/<uuid>.json` record. */
export interface Message {
  file: string;
  id?: string;
  sender?: string;
  recipient?: string;
  title?: string;
  content?: string;
  timestamp?: string;
  priority?: string;
  hidden: boolean;
  raw: Record<string, unknown>;
}

/** A `tasks/*.log` file. */
export interface TaskLog {
  file: string;
  name: string;
  text: string;
}

/** A file the user uploaded (`.user_uploaded/*`) or an uploaded image at the session root. */
export interface Upload {
  /** Relative path inside the session folder. */
  file: string;
  name: string;
  size: number;
  /** Guessed from the extension, e.g. `image/png`; `application/octet-stream` when unknown. */
  mediaType: string;
  /** Raster images that pages may show with `<img>`; SVG is never treated as an image to inline. */
  isImage: boolean;
}

/**
 * A file of the browser subagent's trail, named by the epoch milliseconds it was written at: a screenshot
 * (`.tempmediaStorage/media_<session>_<ms>.png`), a page's DOM as text (`.tempmediaStorage/dom_<ms>.txt`) or where it
 * clicked (`.system_generated/click_feedback/click_feedback_<ms>.png`). Images are published as they are; the text
 * goes through redaction like every other text.
 */
export interface BrowserFile {
  file: string;
  name: string;
  kind: 'screenshot' | 'page-text' | 'click';
  /** Epoch ms from the file name; absent when the name carries none. */
  at?: number;
  size: number;
  mediaType: string;
  /** True for a raster image a page may show with `<img>`. */
  isImage: boolean;
  /** The page text of a `dom_<ms>.txt` (bounded). */
  text?: string;
}

/** A file of the session folder the site does not show: listed on `/report/` with what it is and its size. */
export interface NotShownFile {
  file: string;
  /** What it is, for people (`scratch file`, `unknown: .bin in .system_generated/`). */
  kind: string;
  /** Bytes; absent when it could not be stat'ed. */
  size?: number;
}

/** A file under `scratch/`. Text is kept for text files (bounded); binary files are listed only. */
export interface ScratchFile {
  file: string;
  size: number;
  text?: string;
}

/** What the reader derives from the steps for headers, lists and filters. */
export interface SessionMeta {
  /** First line of the first request, trimmed; falls back to the first artifact summary or the UUID. */
  title: string;
  /** The first `<USER_REQUEST>` text. */
  request?: string;
  /** Every request, in order. */
  requests: string[];
  /** Last model selected (`Model Selection` … `to X`). */
  model?: string;
  /** The first `The current local time is:` value, as written (keeps its offset). */
  localTime?: string;
  /** `@[...]` mentions, unique, in order of first appearance. */
  mentionedFiles: string[];
  /** The workspace folder (most used `Cwd`, or from `<user_information>`). */
  workspace?: string;
  /**
   * Session start: step 0's `created_at`, else the earliest record's, whichever log holds it; without any dated
   * record, the earliest artifact `updatedAt`, else the folder ctime (ISO); `createdAtFrom` then says which.
   */
  createdAt: string;
  /** Set when no step record is dated: `createdAt` is an artifact's `updatedAt`, or the folder's own time. */
  createdAtFrom?: 'artifacts' | 'folder';
  /** Earliest and latest `created_at` of any step (ISO), absent without timestamps. */
  firstAt?: string;
  lastAt?: string;
  durationMs?: number;
  /** Entries in the merged timeline. */
  stepCount: number;
  toolCallCount: number;
  /** Tool calls by tool name. */
  toolCounts: Record<string, number>;
  /** Steps by type. */
  typeCounts: Record<string, number>;
  /** ERROR_MESSAGE steps plus steps with status ERROR or an `error` field. */
  errorCount: number;
}

/** A whole session, read. */
export interface Session {
  id: string;
  product: string;
  /** Absolute path of the folder (never published). */
  dir: string;
  meta: SessionMeta;
  steps: Step[];
  artifacts: Artifact[];
  messages: Message[];
  taskLogs: TaskLog[];
  uploads: Upload[];
  scratch: ScratchFile[];
  /** The browser subagent's screenshots, page texts and click marks, by time; absent when there are none. */
  browserTrail?: BrowserFile[];
  /** Files of the folder the site does not show (`inventory.ts` `classifyFile`); absent when every file is shown. */
  notShown?: NotShownFile[];
  /** Which transcript files were read (relative paths), including chunk rebuilds and `overview.txt`. */
  transcriptFiles: string[];
  problems: Problem[];
  /**
   * `steps/<idx>/` files whose index names no step record of any log (e.g. the transcripts start later in the
   * session). Each also stands in the timeline as a step of its own (`stepFilesOnly`, key `<idx>-files`); absent
   * when every step file was attached to a record's step.
   */
  unattachedStepFiles?: StepFiles[];
  /** Step numbers no transcript file ever showed us, per transcript (before the first capture and in gaps). */
  missingSteps: MissingSteps[];
  /** Set when the session was read from the archive store and its folder is gone from disk: since when (ISO). */
  notOnDiskSince?: string;
  /** When the archive store first and last saw the session (absent when read straight from disk). */
  archived?: { firstSeen: string; lastSeen: string };
  /** Its conversation database as read (model calls, prompt breakdown); absent without one. */
  conversation?: ConversationDb;
}

/** Step-number ranges of one transcript that were never captured. */
export interface MissingSteps {
  transcript: TranscriptName;
  /** The transcript's main file, relative to the session folder. */
  file: string;
  /** Inclusive ranges of `step_index`, ascending. */
  ranges: Array<{ from: number; to: number }>;
}

/** One line of a transcript as read, with where it came from. */
export interface TranscriptLine extends SourceRef {
  value?: unknown;
  /** Set by the archive store for a line no longer in the file on disk: the first snapshot that missed it (ISO). */
  goneSince?: string;
}

/** An inclusive range of step numbers. */
export interface StepRange {
  from: number;
  to: number;
}

/** One transcript as read. */
export interface TranscriptRead {
  /** The files read, relative to the session folder. */
  files: string[];
  /**
   * The step-number ranges the files were seen to hold (inclusive, disjoint, ascending): for a folder, the one
   * window from its lowest to its highest index; the store passes every window its snapshots saw.
   */
  coverage: StepRange[];
}

/** The files of one `.system_generated/steps/<idx>/` folder. */
export interface StepFiles {
  index: number;
  output?: { file: string; text: string };
  contentMd?: { file: string; text: string };
}

/**
 * What Antigravity's conversation database (`<product>/conversations/<uuid>.db`, real-db README) adds to a step:
 * its status with history, its times, the agent run and the model call that made it, and fuller text. Every string
 * here goes through redaction like the transcripts' (it is part of the session).
 */
export interface StepDbFacts {
  /** The database's status for the step, as a word (`DONE`, `CANCELLED`, …; `STATUS_<n>` for a number not known). */
  status: string;
  /** The status number as stored. */
  statusCode: number;
  /** Every status the step went through, with when (ISO), oldest first. */
  statusHistory: Array<{ status: string; at?: string }>;
  /** Created (for a model reply: when the request started), first output and finished (ISO). */
  createdAt?: string;
  firstOutputAt?: string;
  finishedAt?: string;
  /** The agent run the step belongs to. */
  executionId?: string;
  /** The `gen_metadata` row (`ModelCall.row`) of the model call that produced this step. */
  callRow?: number;
  /**
   * A command's combined output, or an error's text, as the database holds it, when the step's transcript text
   * lacks it (a command written while it ran; an error step with empty content).
   */
  fullerText?: string;
}

/** One model call (`gen_metadata` row) of a conversation database. Token counts are exact integers as stored. */
export interface ModelCall {
  /** The row's `idx`. */
  row: number;
  /** The steps this call produced (their `step_index`). */
  stepIndices: number[];
  /** Display name (`Gemini 3.5 Flash (Medium)`), absent when the row has none. */
  modelName?: string;
  /** The responding model's id (`gemini-3-flash-a`). */
  modelId?: string;
  /** Antigravity's model enum number. */
  modelEnum?: number;
  executionId?: string;
  /** False for a call that failed and has no usage (its attempts' errors are in `errors`). */
  hasUsage: boolean;
  /** Uncached input tokens. */
  input: number;
  /** Input tokens read from cache. */
  cacheRead: number;
  /** Output tokens (= thinking + visible on every real row). */
  output: number;
  thinking: number;
  visible: number;
  /** When the request started (ISO). */
  requestAt?: string;
  /** Time to first token and streaming time (first token to last), in ms. */
  timeToFirstTokenMs?: number;
  streamingMs?: number;
  /** Error texts of failed attempts (a retried call keeps its failed attempt here). */
  errors: string[];
}

/** The prompt of a conversation's last call, as numbers only: its text is never published (issue 29 point 5). */
export interface PromptBreakdown {
  totalTokens?: number;
  /** Token counts per section as Antigravity counts them (`System Prompt`, `Tools`, `Chat Messages`). */
  sections: Array<{ section: string; tokens: number }>;
  /** Counts of what the prompt holds. */
  tools: number;
  messages: number;
  systemPromptChars: number;
}

/** A conversation database as read (read-only, from a private copy). */
export interface ConversationDb {
  /** Where it is, relative to the product folder: `conversations/<uuid>.db`. */
  file: string;
  /** Whether a `-wal` was beside it and read with it. */
  withWal: boolean;
  /** Fingerprint of its schema (hash of `sqlite_master`), the known one or another. */
  schema: string;
  /** Rows of `steps` read. */
  stepRows: number;
  calls: ModelCall[];
  prompt?: PromptBreakdown;
  /** Conversation title from `agyhub_summaries_proto.pb` or the checkpoint, when the database has one. */
  title?: string;
}
