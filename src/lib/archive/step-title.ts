/**
 * What a step page is called: a title that says what happened (`Step 37 · run_command python -m http.server 8080 ·
 * exit 1`, `Step 12 · User: make the header sticky`, `Step 40 · Reply: Done, the tests pass`) instead of the record
 * type's enum (`PLANNER_RESPONSE · step 37`), and the record type by a human name for its badge. Pure: the facts
 * come from the turn builder (the call a result answers, the calls a step made, the timeline row's summary).
 */
import { meaningfulLine, requestText } from '../turns/text.ts';
import { plainLine } from '../conversation/summary.ts';
import { stepTypeLabel } from './labels.ts';

export { stepTypeLabel };

/** Longest headline in a title (characters); the page shows the whole text below. */
export const HEADLINE_MAX = 110;

/** A call as the headline needs it: the tool's name and the outcome's one line (`python x.py · exit 1`). */
interface CallLine {
  name: string;
  outcome: { line: string };
}

/** What the headline is made from. */
export interface StepHeadlineInput {
  type: string;
  /** The timeline row's one line (`StepView.summary`). */
  summary?: string;
  content?: string;
  thinking?: string;
  /** The call this step answers, when it is a result. */
  answers?: CallLine;
  /** The calls this step made. */
  made?: readonly CallLine[];
  /** The error's message, when the step is an error. */
  error?: string;
}

function cut(text: string, max = HEADLINE_MAX): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** `run_command <command> · exit 1`, the command cut in its middle when long so the ending stays in view. */
function callHeadline(call: CallLine, more = ''): string {
  const line = `${call.name} ${call.outcome.line}`.replace(/\s+/g, ' ').trim();
  const at = line.lastIndexOf(' · ');
  const tail = `${at > 0 ? line.slice(at) : ''}${more}`;
  const head = at > 0 ? line.slice(0, at) : line;
  const room = HEADLINE_MAX - tail.length;
  return room > 20 && head.length > room ? `${head.slice(0, room - 1).trimEnd()}…${tail}` : `${head}${tail}`;
}

/** What happened at the step, one line without the step number. */
export function stepHeadline(step: StepHeadlineInput): string {
  if (step.answers) return cut(callHeadline(step.answers));
  switch (step.type) {
    case 'USER_INPUT': {
      const words = meaningfulLine(requestText(step.content), HEADLINE_MAX);
      return cut(words ? `User: ${words}` : step.summary || 'User input');
    }
    case 'PLANNER_RESPONSE': {
      // The model's Markdown marks off (`design.md`, **bold**, [text](link)): a title is plain text.
      const words = plainLine(meaningfulLine(step.content ?? '', HEADLINE_MAX * 2));
      if (words) return cut(`Reply: ${words}`);
      const [first, ...rest] = step.made ?? [];
      if (first) return cut(callHeadline(first, rest.length > 0 ? ` (+${rest.length} more)` : ''));
      const thought = plainLine(meaningfulLine(step.thinking ?? '', HEADLINE_MAX * 2));
      return cut(thought ? `Thinking: ${thought}` : 'Model reply (empty)');
    }
    case 'ERROR_MESSAGE':
      return cut(`Error: ${(step.error ?? step.summary ?? '').replace(/^Error:?\s*/i, '') || 'no message recorded'}`);
    default: {
      if (step.error) return cut(`${stepTypeLabel(step.type)}: ${step.error}`);
      const line = (step.summary ?? '').replace(/^↳\s*/, '');
      return cut(line ? (line.toLowerCase().startsWith(stepTypeLabel(step.type).toLowerCase()) ? line : `${stepTypeLabel(step.type)}: ${line}`) : stepTypeLabel(step.type));
    }
  }
}

/** The page's title: `Step 37 · run_command python -m http.server 8080 · exit 1`. */
export function stepTitle(key: string, step: StepHeadlineInput): string {
  return `Step ${key} · ${stepHeadline(step)}`;
}
