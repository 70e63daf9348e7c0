/**
 * The bounded pieces of a session's text the conversation view shows in place: a call's arguments as short
 * name/value lines, the head of its output, the head of a long reply or thinking. Each has a fixed most size, so a
 * page's weight can be known from the session before it is rendered (`pages.ts`) and a 1,500-step session stays
 * light; the step page always holds everything. Pure, no `astro:*` import.
 */
import type { ToolCall } from '../brain/types.ts';

/** Characters of one argument value shown in a call's card. */
export const ARG_VALUE_MAX = 400;
/** Characters of all argument values shown in a call's card. */
export const ARGS_MAX = 1_500;
/** Characters of a call's output shown in its card. */
export const OUTPUT_MAX = 1_200;
/** Characters of a model reply rendered in the conversation (longer replies continue on the step page). */
export const REPLY_MAX = 24_000;
/** Characters of thinking kept (folded) in the conversation. */
export const THINKING_MAX = 2_500;
/** Characters of a CHECKPOINT summary shown (folded past its first lines). */
export const CHECKPOINT_MAX = 8_000;
/** Characters of a user request shown in a turn's opening. */
export const REQUEST_MAX = 12_000;
/** Characters of a user's own action shown in place (the lines they opened, the diff of their edit). */
export const USER_ACTION_MAX = 4_000;

/** Arguments that only describe the call to the UI (the model's own one-line label), not what it acts on. */
const LABEL_ARGS = new Set(['toolSummary', 'toolAction', 'waitForPreviousTools']);

/** One argument shown in a call's card. */
export interface ArgLine {
  name: string;
  value: string;
  /** True when `value` was cut. */
  cut: boolean;
  /** Bytes the log itself left out of the value (its `<truncated N bytes>` marker, taken off `value`). */
  logCutBytes?: number;
}

/** The marker the compact transcript and `overview.txt` end a cut value or content with. */
const LOG_CUT = /\n?<truncated (\d+) bytes>\s*$/;

/**
 * `text` without the log's `<truncated N bytes>` marker at its end, and the N it gave: a page says "the log kept
 * only this much" in words (issue 28: the marker showed as raw text on every cut value of an overview.txt session).
 */
export function logCut(text: string): { text: string; bytes?: number } {
  const m = LOG_CUT.exec(text);
  return m ? { text: text.slice(0, m.index), bytes: Number(m[1]) } : { text };
}

/** The words for `logCut`'s bytes. */
export function logCutWords(bytes: number): string {
  return `the log kept no more: ${bytes.toLocaleString('en')} more bytes were cut`;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Characters of all argument values of an edit shown in its card: its diff above already shows the change. */
export const EDIT_ARGS_MAX = 600;

/** The arguments of `call` as bounded lines (`max` characters of values in all), the UI-only labels left out. */
export function argLines(call: ToolCall, max = ARGS_MAX): ArgLine[] {
  const out: ArgLine[] = [];
  let budget = max;
  for (const [name, raw] of Object.entries(call.args)) {
    if (LABEL_ARGS.has(name) || budget <= 0) continue;
    const { text, bytes } = logCut(asText(raw));
    const max = Math.min(ARG_VALUE_MAX, budget);
    const cut = text.length > max;
    const value = cut ? `${text.slice(0, max)}…` : text;
    budget -= value.length;
    out.push(bytes !== undefined && !cut ? { name, value, cut, logCutBytes: bytes } : { name, value, cut });
  }
  return out;
}

/** `text` cut to `max` characters at a line end when one is near, and whether it was cut. */
export function head(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  const at = text.lastIndexOf('\n', max);
  return { text: text.slice(0, at > max * 0.6 ? at : max), cut: true };
}
