/**
 * How each kind of text is shown: the one place that decides it, so no page renders a user's words or a program's
 * output as Markdown by accident. Markdown eats characters: a backslash before punctuation (`C:\Users\x\.gemini\…`
 * lost its `\` before `.gemini` 164 times on the real sessions), `*` and `_` runs, single line breaks, and a line of
 * `====` under text becomes a heading. So only text written to be read as Markdown is rendered as Markdown:
 *
 * - `model`: the model's replies, thinking and subagent prompts. Markdown, "as written": a
 *   backslash escape keeps its backslash and `&…;` is not decoded (markdown.ts), because in transcripts a
 *   backslash is a Windows path, a JSON escape or LaTeX, never an escape the model meant.
 * - `artifact`: the session's documents (`implementation_plan.md`, …). Markdown as CommonMark reads it: a document
 *   meant to be rendered (real artifacts escape on purpose, `\[Topic\]`).
 * - `user`: what a person typed. Every character and line break as typed (`pre-wrap` text, the reader's font):
 *   a user's `**bold**` stays `**bold**`, which costs nothing, where rendering it could cost a character.
 * - `checkpoint`: Antigravity's summary of the conversation so far. Preformatted: it quotes the transcript's raw
 *   lines (`{"step_index":1491,…,"content":"<USER_REQUEST>\n…"}`), which Markdown turned into one huge paragraph
 *   with bold runs and broken code spans on the real sessions; as written, every character stays.
 * - `tool-output`, `system`, `message`, `task-log`: what a program printed or the harness said (command output,
 *   a background task's pytest report with its `====` rulers, system messages, errors, messages, task logs, a
 *   fetched page). Preformatted text.
 *
 * Pure: no Astro import. Components `Text.astro`, `Markdown.astro`, `Prose.astro`, `PlainText.astro` and
 * `UserText.astro` draw what this module decides.
 */

/** What a text is, by who wrote it and for whom. */
export type TextKind = 'model' | 'artifact' | 'user' | 'checkpoint' | 'tool-output' | 'system' | 'message' | 'task-log';

/** How a kind of text is drawn. */
export type Presentation =
  /** Sanitised Markdown (markdown.ts); `asWritten` keeps backslashes and `&…;` as typed. */
  | { as: 'markdown'; asWritten: boolean }
  /** Text with its line breaks, wrapped, in the reader's font (`UserText.astro`). */
  | { as: 'user-text' }
  /** Monospaced, every space and line as written (`PlainText.astro`). */
  | { as: 'preformatted' };

const PRESENTATIONS: Readonly<Record<TextKind, Presentation>> = {
  model: { as: 'markdown', asWritten: true },
  artifact: { as: 'markdown', asWritten: false },
  user: { as: 'user-text' },
  checkpoint: { as: 'preformatted' },
  'tool-output': { as: 'preformatted' },
  system: { as: 'preformatted' },
  message: { as: 'preformatted' },
  'task-log': { as: 'preformatted' },
};

/** How text of `kind` is shown. */
export function presentationOf(kind: TextKind): Presentation {
  return PRESENTATIONS[kind];
}

/** The step fields a step page shows. */
export type StepTextField = 'content' | 'thinking' | 'content-md' | 'output' | 'error';

/** Step types whose content the model wrote as prose (SURVEY.md's (source, type) table). */
const MODEL_PROSE_TYPES: ReadonlySet<string> = new Set(['PLANNER_RESPONSE']);

/**
 * The kind of one field of a step. `isResult` says the content answers a tool call (the turn builder's pairing:
 * jetski writes every result as GENERIC, so the type alone cannot say). Anything not known to be prose or a
 * person's words is preformatted: showing a character too many is harmless, losing one is not.
 */
export function stepTextKind(step: { type: string; source?: string }, field: StepTextField, isResult: boolean): TextKind {
  if (field === 'thinking') return 'model';
  if (field === 'output' || field === 'content-md') return 'tool-output';
  if (field === 'error') return 'system';
  if (isResult) return 'tool-output';
  if (step.type === 'USER_INPUT') return 'user';
  // The user's own actions in the editor (a file opened, an edit, USER_EXPLICIT VIEW_FILE / CODE_ACTION): what
  // the editor recorded of them, not words the user typed.
  if ((step.source ?? '').startsWith('USER')) return 'tool-output';
  if (step.type === 'CHECKPOINT') return 'checkpoint';
  if (MODEL_PROSE_TYPES.has(step.type)) return 'model';
  return step.source === 'SYSTEM' ? 'system' : 'tool-output';
}
