/**
 * What is the harness's, not a person's: the steps Antigravity puts in the timeline that nobody typed, read or ran
 * (system messages, the reminders before each reply, summaries of other conversations, knowledge items). One rule
 * for every reader of a timeline: the conversation folds these steps (`buildTurns`), and the search indexes of them
 * only what a person did through them (a background task's end and output, a message from another agent), never
 * the reminders: on the 21 held-out real sessions the turn documents held `CRITICAL INSTRUCTION` 3,750 times in 165
 * documents (issue 30), all of it the `EPHEMERAL_MESSAGE` Antigravity repeats before every reply. The step page and
 * the raw record still show them as recorded. Pure, no Astro.
 */
import type { Step } from '../brain/types.ts';
import type { FoldedKind } from './types.ts';
import { taskFinished, wrappedBody } from './text.ts';
import { readCommandText } from './transport.ts';

/** The harness's step types, by the fold the conversation gives them. */
const NOTE_KINDS: Readonly<Record<string, FoldedKind>> = {
  SYSTEM_MESSAGE: 'system',
  EPHEMERAL_MESSAGE: 'ephemeral',
  CONVERSATION_HISTORY: 'history',
  KNOWLEDGE_ARTIFACTS: 'knowledge',
};

/**
 * Folds whose words are the harness talking to the model, left out of the search: the reminders (planning mode,
 * "CRITICAL INSTRUCTION 1: …"), the summaries of the user's other conversations (each is found as itself), the
 * knowledge items.
 */
const UNSEARCHED: ReadonlySet<FoldedKind> = new Set(['ephemeral', 'history', 'knowledge']);

/**
 * The fold a step the conversation does not show as a request, reply, checkpoint, user action or result goes in:
 * its harness kind, or `other` (a step of `steps/<n>/` files alone).
 */
export function foldedKind(step: Pick<Step, 'type'>): FoldedKind {
  return Object.hasOwn(NOTE_KINDS, step.type) ? (NOTE_KINDS[step.type] as FoldedKind) : 'other';
}

/** The harness note a step is (a step with calls is the model's reply, whatever its type), or undefined. */
export function harnessNote(step: Pick<Step, 'type' | 'toolCalls'>): FoldedKind | undefined {
  if (step.toolCalls.length > 0 || !Object.hasOwn(NOTE_KINDS, step.type)) return undefined;
  return NOTE_KINDS[step.type];
}

/** True for a step the search leaves out whole: a reminder, a history or knowledge step. */
export function leftOutOfSearch(step: Pick<Step, 'type' | 'toolCalls'>): boolean {
  const note = harnessNote(step);
  return note !== undefined && UNSEARCHED.has(note);
}

/** `[Message] timestamp=… sender=… priority=… content=`: the header of a message between agents. */
const MESSAGE_HEAD = /^\s*\[Message\][^\n]*?\bcontent=/;

/**
 * The words of a system message a person looks for: what it carries, without the fixed preamble ("The following
 * is a <SYSTEM_MESSAGE> not actually sent by the user…"), the message header, and a finished task's transport
 * sentences ("The command exited with code 0. Output:"): `Task id "…/task-132" finished` and what it printed.
 */
export function systemMessageWords(content: string | undefined): string {
  const body = wrappedBody(content, 'SYSTEM_MESSAGE').replace(MESSAGE_HEAD, '');
  const done = taskFinished(body);
  if (!done) return body.trim();
  const printed = readCommandText(done.result.replace(/^\s*\r?\n/, ''));
  return `Task id "${done.taskId}" finished\n${printed.output}`.trim();
}
