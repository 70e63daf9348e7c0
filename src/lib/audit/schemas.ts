/**
 * The shapes of the audit rows the content store keeps inside each session entry (strict, lean: previews and
 * numbers only; the linked step page holds the whole command, diff or error). Plain zod from `astro/zod`.
 */
import { z } from 'astro/zod';

/** One `run_command` call. */
export const CommandRowSchema = z.object({
  /** Key of the step that holds the call. */
  key: z.string(),
  /** 0-based index of the call among the step's tool calls. */
  call: z.number(),
  /** When the step was recorded (ISO); absent when it has no time the archive places (dates.ts). */
  at: z.string().optional(),
  /** `CommandLine`, bounded (see `cut`). */
  command: z.string(),
  /** True when the preview is shorter than the command (cut here, or still cut in a compact-only transcript). */
  cut: z.boolean(),
  /** `Cwd`. */
  cwd: z.string().optional(),
  /** `BypassSandbox` was true: the command ran outside the sandbox. */
  bypass: z.boolean(),
  /** Exit code, from the result step's `exit_code` or its text. */
  exitCode: z.number().optional(),
  /** What became of the command. */
  outcome: z.enum(['ok', 'failed', 'cancelled', 'running', 'unknown']),
  /** Non-zero exit code or an ERROR result. */
  failed: z.boolean(),
  /** Key of the RUN_COMMAND step holding the result, when one was found. */
  resultKey: z.string().optional(),
  /** Why it failed (`turns/failures.ts` `callFailureMessage`: stderr's last lines, the error), for a failed command. */
  message: z.string().optional(),
});

/** One file write or edit. */
export const FileChangeRowSchema = z.object({
  /** Key of the step that holds the call. */
  key: z.string(),
  /** 0-based index of the call among the step's tool calls. */
  call: z.number(),
  /** When the step was recorded (ISO); absent when it has no time the archive places (dates.ts). */
  at: z.string().optional(),
  /** `TargetFile`. */
  path: z.string(),
  /** `write_to_file`, `replace_file_content` or `multi_replace_file_content`. */
  tool: z.string(),
  /** Lines added (a whole-file write counts every line). */
  added: z.number(),
  /** Lines removed. */
  removed: z.number(),
  /** `Overwrite` was true on a write. */
  overwrite: z.boolean().optional(),
  /** Some argument is still cut in the transcript (counts may be short). */
  cut: z.boolean(),
  /** The edit call failed (`turns/failures.ts`): listed, but it changed nothing and no "files changed" counts it. */
  failed: z.boolean().optional(),
  /** Why it failed (`callFailureMessage`), for a failed edit. */
  message: z.string().optional(),
});

/**
 * One failure as `turns/failures.ts` counts it: the result step of a failed call, or an agent error (an error step
 * answering no call). A session's rows are its failed calls and agent errors, one each.
 */
export const ErrorRowSchema = z.object({
  /** Key of the step that records it (a failed call's result step, the agent error's own step). */
  key: z.string(),
  /** When the step was recorded (ISO); absent when it has no time the archive places (dates.ts). */
  at: z.string().optional(),
  /** Step type as recorded. */
  type: z.string(),
  /** Step status as recorded (an ERROR_MESSAGE is recorded DONE: the record finished, nothing succeeded). */
  status: z.string(),
  /** What it counts as: a failed call or an agent error. Absent in rows stored before it (read as an error step). */
  failure: z.enum(['call', 'agent']).optional(),
  /** The failed call's tool and the key of the step that made it. */
  tool: z.string().optional(),
  callKey: z.string().optional(),
  /** Why (`failureMessage`), bounded; may hold line breaks (a traceback's last lines). Empty when the record says nothing. */
  message: z.string(),
  /** `error_code`, as text. */
  errorCode: z.string().optional(),
});

/** One file a session's edit calls named, once (`turns/file-history.ts` `FileSummary`). */
export const ChangedFileSchema = z.object({
  /** The path as recorded (the one `changedPaths` counts). */
  path: z.string(),
  /** Relative to the workspace or the session's own folder when under one, else as recorded. */
  shownPath: z.string(),
  /** Edits that changed it, and failed attempts (which changed nothing). */
  edits: z.number(),
  failedEdits: z.number(),
  /** Lines added and removed: the net diff's when the records hold it (`net`), else the edits' sum. */
  added: z.number(),
  removed: z.number(),
  /** The session created it (its first edit a `write_to_file` without Overwrite, nothing seen of it before). */
  created: z.boolean().optional(),
  /** A command deleted it after its last edit (`deletedPaths`). */
  deleted: z.boolean().optional(),
  /** The records hold its first and last content: the changes page shows the net diff. */
  net: z.boolean(),
});

/** A session's audit rows, in timeline order. */
export const SessionAuditSchema = z.object({
  commands: z.array(CommandRowSchema),
  files: z.array(FileChangeRowSchema),
  errors: z.array(ErrorRowSchema),
  /** The files changed or attempted, once each, in the order first edited. Absent in entries stored before it. */
  changedFiles: z.array(ChangedFileSchema).optional(),
});

export type CommandRow = z.infer<typeof CommandRowSchema>;
export type FileChangeRow = z.infer<typeof FileChangeRowSchema>;
export type ChangedFile = z.infer<typeof ChangedFileSchema>;
export type ErrorRow = z.infer<typeof ErrorRowSchema>;
export type SessionAudit = z.infer<typeof SessionAuditSchema>;
