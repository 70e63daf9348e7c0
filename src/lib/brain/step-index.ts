/**
 * What a record's `step_index` may be: a whole number from 0 to 2^53 − 1 (`Number.MAX_SAFE_INTEGER`), given as a
 * JSON number or a string of digits. Anything else is not a step number. One line `{"step_index":1e20}` once
 * stopped every build and every snapshot (SQLite refused the REAL in an INTEGER column), and a number above 2^53
 * (read back from the store as an integer JavaScript cannot hold) dropped its session from the site silently;
 * such a record is now kept as an INVALID_RECORD step with a problem naming the value, like any record without a
 * usable step number.
 */

/** A record's step number, or why it has none (`missing`: no `step_index` at all). */
export type StepIndexReading = { index: number } | { index?: undefined; missing: true } | { index?: undefined; missing: false; problem: string };

/** The largest step number kept as one. */
export const MAX_STEP_INDEX = Number.MAX_SAFE_INTEGER;

/** The `step_index` as written in the line (`1e20`, `-3`, `"12"`), for messages; the parsed value when not found. */
function asWritten(raw: unknown, line: string | undefined): string {
  const written = line === undefined ? undefined : /"step_index"\s*:\s*("(?:[^"\\]|\\.){0,40}"|[^,}\s]{1,40})/.exec(line)?.[1];
  if (written !== undefined) return written;
  let text: string;
  try {
    text = JSON.stringify(raw) ?? String(raw);
  } catch {
    text = String(raw);
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * Read the `step_index` of a parsed line (`value`); `line` is its raw text, to name the value as written (a float
 * such as `1e20` is `100000000000000000000` once parsed).
 */
export function readStepIndex(value: unknown, line?: string): StepIndexReading {
  const raw = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { step_index?: unknown }).step_index : undefined;
  if (raw === undefined || raw === null) return { missing: true };
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,20}$/.test(raw) ? Number(raw) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= 0) return { index: n };
  return {
    missing: false,
    problem: `step_index ${asWritten(raw, line)} is not a whole number from 0 to ${MAX_STEP_INDEX} (2^53 − 1)`,
  };
}

/** A line's step number, or undefined when it has none that is usable. */
export function stepIndexOf(value: unknown): number | undefined {
  const reading = readStepIndex(value);
  return reading.index;
}
