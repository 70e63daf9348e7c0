/**
 * The shapes of what the content store holds, in one place. Strict: these are the cleaned, lean records the pages
 * use (never step bodies: issue 3 measured a store holding bodies running out of memory at 100k steps). Plain zod
 * from `astro/zod` so the pipeline can use the inferred types without any `astro:*` import.
 */
import { z } from 'astro/zod';
import { LONG_FIELDS } from './long-text.ts';
import { SessionAuditSchema } from '../audit/schemas.ts';
import { FamilyEvidenceSchema } from '../family/schemas.ts';

/** Where a problem was found; mirrors the reader's `Problem`. */
export const ProblemSchema = z.object({
  /** The reader's problem kind (`bad-line`, `unreadable`, …). */
  kind: z.string(),
  /** Session UUID; absent for root-level problems. */
  sessionId: z.string().optional(),
  /** Path relative to the session folder (or the root as given, for root-level problems). */
  file: z.string(),
  /** 1-based line number for line-oriented files. */
  line: z.number().optional(),
  /** What went wrong, for people. */
  message: z.string(),
  /** On the closing problem of a file's kind that went over the limit: how many more were counted, not listed. */
  more: z.number().optional(),
});

/** One redaction the redactor made; never the secret itself. */
export const RedactionSchema = z.object({
  /** Session UUID. */
  sessionId: z.string(),
  /** Step key when the secret was in a step. */
  stepKey: z.string().optional(),
  /** Which field (e.g. `content`, `tool_calls[0].args.CommandLine`, `artifact`). */
  where: z.string(),
  /** File relative to the session folder, when known. */
  file: z.string().optional(),
  /** Secret kind, e.g. `github-token`. */
  kind: z.string(),
  /** How many replacements. */
  count: z.number(),
});

/** Token counts of some model calls (`turns/usage.ts` `TokenCounts`). */
export const TokenCountsSchema = z.object({
  calls: z.number(),
  input: z.number(),
  cache_read: z.number(),
  output: z.number(),
  thinking: z.number(),
});

/** The session folder as discovered, so render time can read the bodies again. Never published. */
export const SessionRefSchema = z.object({
  /** Folder name (UUID). */
  id: z.string(),
  /** Product folder name. */
  product: z.string(),
  /** Absolute path of the brain root. */
  root: z.string(),
  /** Absolute path of the session folder. */
  dir: z.string(),
  /** Newest top-level mtime (tie-break between roots). */
  mtimeMs: z.number(),
  /** Folder ctime (last fallback for the start time). */
  ctimeMs: z.number(),
  /** Set when the session is read from the archive store (see `src/lib/store/`). */
  stored: z
    .object({
      /** Store files holding it. */
      stores: z.array(z.string()),
      /** Changes whenever a store's copy changes. */
      fingerprint: z.string(),
      /** Bytes stored for it. */
      bytes: z.number(),
      /** Set when its folder is gone from disk: since when (ISO). */
      notOnDiskSince: z.string().optional(),
    })
    .optional(),  /** Absolute path of its conversation database, when one is beside the brain folder. */
  conversationDb: z.string().optional(),
  /** A conversation database whose brain folder is gone. */
  noFolder: z.literal(true).optional(),
});

/**
 * One row of a session's timeline, an entry of the `steps` collection (id `<session>/<key>`): everything list views
 * and routing need, nothing more.
 */
export const StepRowSchema = z.object({
  /** UUID of the session the step belongs to. */
  sessionId: z.string(),
  /** URL key: `step_index`, or `<step_index>-<k>` after a rewind. */
  key: z.string(),
  /** `step_index` as recorded. */
  index: z.number(),
  /** 0-based position in the merged timeline. */
  position: z.number(),
  /** Step type as recorded (`RUN_COMMAND`, …). */
  type: z.string(),
  /** Status as recorded (`DONE`, `ERROR`, …). */
  status: z.string(),
  /** `USER_EXPLICIT`, `MODEL`, `SYSTEM`, … */
  source: z.string(),
  /** ISO timestamp, when recorded. */
  createdAt: z.string().optional(),
  /** Tool names of the step's calls, in order. */
  tools: z.array(z.string()),
  /**
   * One line saying what the step did, from the turn builder (`StepView.summary`): the user's words, what a call
   * acted on and how it ended, a checkpoint's summary; never a transport header or a wrapper tag (bounded length).
   */
  summary: z.string(),
  /**
   * True when the step failed (`StepView.failed`): a failed outcome (exit code ≠ 0, an error answer) on the call
   * and on its result, an error step. Never for a command that exited 0. Red in the pages means this, nothing else.
   */
  error: z.boolean(),
  /**
   * What the step counts as (`turns/failures.ts` `stepFailure`): `call` on the one result step of a failed call,
   * `agent` on an agent error. The timeline marks and counts these, so its numbers are the header's.
   */
  failure: z.enum(['call', 'agent']).optional(),
  /** The model in force at this step (from the `Model Selection` changes); absent when unknown. */
  model: z.string().optional(),
  /** Number of the turn holding the step (0 for steps before the first request). */
  turn: z.number().optional(),
  /** For a result step: the key of the step whose call it answers. */
  answers: z.string().optional(),
  /** For a step that made calls: the keys of the steps answering them, in call order (absent for unanswered ones). */
  results: z.array(z.string()).optional(),
  /**
   * The outcome of the step's (first) call, for a call step and for the result answering it: kind, status and the
   * one line (`npm test · exit 1`). Search titles and filters read it.
   */
  outcome: z
    .object({
      /** `ToolKind`: command, edit, view, list, search, web, image, task, permission, question, other. */
      kind: z.string(),
      /** `OutcomeStatus`: ok, failed, running, cancelled, unknown. */
      status: z.string(),
      /** `Outcome.line`. */
      line: z.string(),
      /** What the call acted on (command line, path, query), when it has one. */
      target: z.string().optional(),
      /** True when the command ran outside the sandbox (`BypassSandbox`). */
      bypass: z.boolean().optional(),
    })
    .optional(),
  /**
   * The model calls this step is the first product of (from the conversation database, `turns/usage.ts`
   * `callUsage`; a failed call whose reply was never written sits on the step before): each call on exactly one
   * row, so a turn's or a list's sums count it once.
   */
  calls: z
    .array(z.object({
      model: z.string(),
      input: z.number(),
      cacheRead: z.number(),
      output: z.number(),
      thinking: z.number(),
      timeToFirstTokenMs: z.number().optional(),
      durationMs: z.number().optional(),
      failed: z.boolean(),
    }))
    .optional(),
  /** Fields too long for the step page, published whole as `<field>.txt` beside it (absent when none). */
  longFields: z.array(z.enum(LONG_FIELDS)).optional(),
});

/** A root artifact, an entry of the `artifacts` collection (id `<session>/<slug>`), lean: the page reads the text at render time. */
export const ArtifactRowSchema = z.object({
  /** UUID of the session the artifact belongs to. */
  sessionId: z.string(),
  /** 0-based position in the session's artifact list (the reader's order). */
  position: z.number(),
  /** File name at the session root, e.g. `implementation_plan.md`. */
  name: z.string(),
  /** URL-safe key derived from the name (unique within the session). */
  slug: z.string(),
  /** Metadata summary (first line kept short). */
  summary: z.string().optional(),
  /** Metadata `updatedAt`. */
  updatedAt: z.string().optional(),
  /** Metadata `artifactType`. */
  artifactType: z.string().optional(),
  /** Number of `.resolved*` versions. */
  versions: z.number(),
  /** Entries of its history (`audit/history.ts`: the versions, then the current document when it differs): one page each. */
  history: z.number(),
});

/** A file the user uploaded; only raster images get a URL. */
export const UploadRowSchema = z.object({
  /** Relative path inside the session folder. */
  file: z.string(),
  /** File name. */
  name: z.string(),
  /** Bytes. */
  size: z.number(),
  /** Media type guessed from the extension. */
  mediaType: z.string(),
  /** Published file name (`<n>.<ext>`) for raster images; absent when not served (SVG, other files). */
  served: z.string().optional(),
});

/** A file of the browser subagent's trail (`BrowserFile`), placed at the step running at its time. */
export const BrowserFileRowSchema = z.object({
  /** Relative path inside the session folder. */
  file: z.string(),
  /** File name. */
  name: z.string(),
  /** `screenshot`, `page-text` (a page's DOM as text) or `click` (where the subagent clicked). */
  kind: z.enum(['screenshot', 'page-text', 'click']),
  /** Epoch ms from the file name. */
  at: z.number().optional(),
  /** Bytes. */
  size: z.number(),
  /** Media type guessed from the extension. */
  mediaType: z.string(),
  /** Published file name under `/sessions/<id>/browser/` for raster images; absent for text. */
  served: z.string().optional(),
  /** Key of the step running at its time (`conversation/browser-trail.ts`); absent when no step is dated. */
  stepKey: z.string().optional(),
});

/** A file of the session folder the site does not show, for `/report/`. */
export const NotShownRowSchema = z.object({
  /** Relative path inside the session folder. */
  file: z.string(),
  /** What it is, for people. */
  kind: z.string(),
  /** Bytes, when known. */
  size: z.number().optional(),
});

/**
 * One session, lean: header fields, counts, uploads, problems, redactions and audit rows. Its timeline rows and
 * artifacts are entries of the `steps` and `artifacts` collections (the routing module groups them by session).
 */
export const SessionSchema = z.object({
  /** UUID. */
  id: z.string(),
  /** First 8 characters of the UUID (the `/s/<prefix>/` short link). */
  prefix: z.string(),
  /** Product folder name. */
  product: z.string(),
  /** Title derived by the reader. */
  title: z.string(),
  /** How the session ended, one line, from its last turn: its reply, else what the log ends on (`turns/ending.ts`). */
  ending: z.string().optional(),
  /** What the ending is: `reply`, `no-reply`, `failed`, `request` (the log ends with the request), `summary` (no log). */
  endingKind: z.enum(['reply', 'no-reply', 'failed', 'request', 'summary']).optional(),
  /** Where each page of the conversation starts (`conversation/pages.ts`); absent or one entry for one page. */
  conversationPages: z.array(z.object({ turn: z.number(), item: z.number() })).optional(),
  /** Last model selected. */
  model: z.string().optional(),
  /** Models in the order used, consecutive repeats merged (the header's "A → B → C"); empty when none is named. */
  models: z.array(z.string()).optional(),
  /** Steps per model in force (`unknown` for steps before any model is named). */
  stepsPerModel: z.record(z.string(), z.number()).optional(),
  /**
   * Steps by the UTC day they were recorded (`audit/stats.ts` `stepDaysOf`), for the stats and `/sessions.json`:
   * the pages over every session need no timeline row, so a render process holds only the rows of the sessions it
   * renders (at 1M steps every row in one content store was 524 MB).
   */
  stepDays: z.record(z.string(), z.number()),
  /**
   * Tokens of every model call, from the conversation database (`turns/usage.ts`): totals and per model, exact
   * integers; absent without a database. `byDay` per UTC day of the request, for /stats/ and a joined site.
   */
  usage: TokenCountsSchema.extend({
    by_model: z.record(z.string(), TokenCountsSchema),
    byDay: z.record(z.string(), TokenCountsSchema.extend({ by_model: z.record(z.string(), TokenCountsSchema) })),
  }).optional(),
  /** What the turn builder counted: turns, files changed, failed calls and commands. */
  conversation: z
    .object({
      /** Turns (user requests; a turn 0 of steps before the first request counts too). */
      turns: z.number(),
      /** Distinct paths written or edited. */
      filesChanged: z.number(),
      /** Failed calls (`turns/failures.ts`): tool calls whose result failed. The number every page shows. */
      failedCalls: z.number(),
      /** Agent errors (`turns/failures.ts`): error steps that answer no call. Absent from parts built before it. */
      agentErrors: z.number().optional(),
      /** The failed calls that ran a command (exit code ≠ 0, an error answer): the audit's command filter. */
      failedCommands: z.number(),
    })
    .optional(),
  /**
   * Calls and results that could not be paired (real logs have no call id; results roll off disk): listed on
   * `/report/`. Each entry names the step; `name` is the call's tool, `type` the result step's type.
   */
  pairing: z
    .object({
      paired: z.number(),
      unpairedResults: z.array(z.object({ stepKey: z.string(), type: z.string() })),
      unansweredCalls: z.array(z.object({ stepKey: z.string(), callIndex: z.number(), name: z.string() })),
    })
    .optional(),
  /** Local time as recorded in the transcript (keeps its offset). */
  localTime: z.string().optional(),
  /** Workspace folder. */
  workspace: z.string().optional(),
  /** Start (ISO, UTC). */
  createdAt: z.string(),
  /** Set when no step record is dated: the start is an artifact's `updatedAt` or the folder's own time. */
  createdAtFrom: z.enum(['artifacts', 'folder']).optional(),
  /** Duration in ms, when timestamps exist. */
  durationMs: z.number().optional(),
  /** Timeline entries. */
  stepCount: z.number(),
  /** Tool calls. */
  toolCallCount: z.number(),
  /**
   * Error steps: ERROR_MESSAGE, status ERROR or an `error` field (`isErrorStep`). Each is a failed call's result or
   * an agent error (`conversation`), which is what pages show; kept for `/sessions.json` and the family tree.
   */
  errorCount: z.number(),
  /** Tool calls by name. */
  toolCounts: z.record(z.string(), z.number()),
  /** Messages (`messages/*.json`). */
  messageCount: z.number(),
  /** Task logs (`tasks/*.log`). */
  taskLogCount: z.number(),
  /** First message (in thread order) of each page of `/sessions/<id>/messages/` (`session-pages.ts`). */
  messagePageStarts: z.array(z.number()).optional(),
  /** First task log (by file name) of each page of `/sessions/<id>/tasks/` (`session-pages.ts`). */
  taskLogPageStarts: z.array(z.number()).optional(),
  /** Names of the task logs too long for a page (`TASK_LOG_PAGE_MAX`), published whole as `tasks/<name>.log.txt`. */
  longTaskLogs: z.array(z.string()).optional(),
  /** Root artifacts (entries of the `artifacts` collection). */
  artifactCount: z.number(),
  /** Uploads. */
  uploads: z.array(UploadRowSchema),
  /** The browser subagent's screenshots, page texts and click marks, by time; absent when none. */
  browserTrail: z.array(BrowserFileRowSchema).optional(),
  /** Files of the session folder the site does not show (listed on `/report/`); absent when every file is shown. */
  notShown: z.array(NotShownRowSchema).optional(),
  /** Transcript files read. */
  transcriptFiles: z.array(z.string()),
  /** Every problem found while reading this session. */
  problems: z.array(ProblemSchema),
  /** Every redaction made in this session. */
  redactions: z.array(RedactionSchema),
  /** Whether redaction ran for this entry (render time must redact the same way). */
  redacted: z.boolean(),
  /** Commands run, files touched and errors, lean (issue 6; `src/lib/audit/rows.ts`). */
  audit: SessionAuditSchema.optional(),
  /** What this session's own files say about its subagents, its parent and its background tasks (issue 14; `src/lib/family/`). */
  family: FamilyEvidenceSchema.optional(),
  /** Where the folder is, for render-time reads. Never shown on a page. */
  ref: SessionRefSchema,
  /** Set when the folder is gone from disk and the archive store kept the session: since when (ISO). */
  notOnDiskSince: z.string().optional(),
});

/** A brain root scanned. */
export const RootSchema = z.object({
  /** Absolute path (shown on /report/ only). */
  path: z.string(),
  /** Product folder name. */
  product: z.string(),
});

/** A copy of a session that lost the tie-break. */
export const ShadowedSchema = z.object({
  /** UUID. */
  id: z.string(),
  /** Folder of the copy not used. */
  shadowedDir: z.string(),
  /** Folder of the copy used. */
  winnerDir: z.string(),
});

/** The single `archive` entry: what the build looked at, for /report/ and the banners. */
export const ArchiveSchema = z.object({
  /** True when no root was found and the demo home was used. */
  isDemo: z.boolean(),
  /** False when ARCHIVE_REDACT=off. */
  redactionEnabled: z.boolean(),
  /** How inputs were chosen, for people (e.g. `GEMINI_HOME=/home/me/.gemini`). */
  inputs: z.string(),
  /** Brain roots scanned. */
  roots: z.array(RootSchema),
  /** Sessions discovered (one per UUID). */
  sessionsFound: z.number(),
  /** Shadowed copies. */
  shadowed: z.array(ShadowedSchema),
  /** Root-level problems from discovery. */
  problems: z.array(ProblemSchema),
  /** The archive store files the sessions were read from (none: read from the folders). */
  stores: z.array(z.string()).optional(),
  /** ISO time of the build. */
  builtAt: z.string(),
  /** In a joined build (ARCHIVE_JOIN): how many parts; absent in an ordinary build. */
  joinedParts: z.number().optional(),
});

export type ProblemRow = z.infer<typeof ProblemSchema>;
export type RedactionRow = z.infer<typeof RedactionSchema>;
export type StepRow = z.infer<typeof StepRowSchema>;
export type ArtifactRow = z.infer<typeof ArtifactRowSchema>;
export type UploadRow = z.infer<typeof UploadRowSchema>;
export type BrowserFileRow = z.infer<typeof BrowserFileRowSchema>;
export type NotShownRow = z.infer<typeof NotShownRowSchema>;
export type SessionSummary = z.infer<typeof SessionSchema>;
/** Everything the store keeps of one session: its entry in each of `sessions`, `steps` and `artifacts`. */
export interface SessionRows {
  session: SessionSummary;
  /** In timeline order. */
  steps: StepRow[];
  /** In the reader's order. */
  artifacts: ArtifactRow[];
}
export type ArchiveInfo = z.infer<typeof ArchiveSchema>;
export type SessionRefData = z.infer<typeof SessionRefSchema>;
