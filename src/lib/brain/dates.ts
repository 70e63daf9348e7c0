/**
 * Which timestamps the archive places on its time line. JavaScript dates run from year -271821 to 275760, and a
 * transcript can hold either end: issue 10 found `-271821-04-20T00:00:00Z` threw `RangeError: Invalid time value`
 * on `/stats/` (a day after the last date is no date), and a year-0 beside a year-9999 session drew 120,000 months
 * (a 28 MB page). Antigravity was released in 2025, so a date before 2000 or from 2100 on is not a time a session
 * ran: it is shown as given, reported, and left out of start times, durations, day groups, charts and sort keys.
 */

/** The span of times the archive places (UTC): from 2000-01-01 up to, not including, 2100-01-01. */
export const SANE_DATES = {
  fromMs: Date.UTC(2000, 0, 1),
  untilMs: Date.UTC(2100, 0, 1),
  /** For messages: the span as people read it. */
  text: 'from 2000 to 2099',
} as const;

/**
 * The one form of time Antigravity writes: ISO 8601 with a zone (every `created_at`, `timestamp`, `updatedAt` and
 * `Created At:` over the real sessions: `2025-11-20T10:00:00Z`, `…T10:00:00.123456789Z`, `…T10:00:00+09:00`), or a
 * bare day. `Date.parse` also takes "March 5, 2026" and "2026/03/05 10:00" and reads them in the machine's own time
 * zone, so one archive built in two places dated them apart: anything else is not a date here (issue 27).
 */
const ISO_TIME = /^(?:[+-]\d{6}|\d{4})-\d{2}-\d{2}(?:[Tt]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:[Zz]|[+-]\d{2}:?\d{2}))?$/;

/** Milliseconds of `value` when it is an ISO 8601 time inside `SANE_DATES`, else `undefined` (not one, or out of range). */
export function saneTime(value: string | undefined): number | undefined {
  if (value === undefined || !ISO_TIME.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms >= SANE_DATES.fromMs && ms < SANE_DATES.untilMs ? ms : undefined;
}

/** `value` as a UTC ISO string when it is a date inside `SANE_DATES`, else `undefined`. */
export function saneIso(value: string | undefined): string | undefined {
  const ms = saneTime(value);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

/** Why `value` is not placed, for a `bad-date` problem (`what` names the field, e.g. `created_at`). */
export function badDateMessage(what: string, value: string): string {
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return !ISO_TIME.test(value) || Number.isNaN(Date.parse(value))
    ? `${what} ${JSON.stringify(shown)} is not an ISO 8601 time with a zone (as Antigravity writes them, 2026-03-05T10:00:00Z); it is shown as given and left out of times and charts.`
    : `${what} ${JSON.stringify(shown)} is outside the years the archive places (${SANE_DATES.text}); it is shown as given and left out of times and charts.`;
}
