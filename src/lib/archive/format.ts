/**
 * Formatting of times, durations and sizes for pages. Deterministic (UTC), so builds do not depend on TZ. A time
 * the archive does not place (not a date, or outside `SANE_DATES`, dates.ts) is shown as given.
 */
import { saneTime } from '../brain/dates.ts';

/** `2025-11-20 09:22:31 UTC`, or the input as given when it is not a date the archive places. */
export function formatUtc(iso: string | undefined): string {
  if (!iso) return '';
  const ms = saneTime(iso);
  if (ms === undefined) return iso;
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * `iso` in the zone a session recorded as its local time (`localTime`, `2026-08-03T17:19:53+03:00`: the first
 * request's "current local time"), as `2026-08-03 17:09:10 UTC+03:00`; undefined when either is not placed or the
 * recorded time names no zone. The header once showed that recorded time beside the session's UTC start as one
 * moment, though it is the first request's, 10 minutes after the first step (86033144).
 */
export function inRecordedZone(iso: string | undefined, localTime: string | undefined): string | undefined {
  const ms = saneTime(iso);
  const zone = localTime !== undefined && saneTime(localTime) !== undefined ? /(?:[Zz]|([+-])(\d{2}):?(\d{2}))$/.exec(localTime) : null;
  if (ms === undefined || !zone) return undefined;
  const sign = zone[1] === '-' ? -1 : 1;
  const offsetMin = zone[1] ? sign * (Number(zone[2]) * 60 + Number(zone[3])) : 0;
  const shifted = new Date(ms + offsetMin * 60_000).toISOString().slice(0, 19).replace('T', ' ');
  return `${shifted} UTC${zone[1] ? `${zone[1]}${zone[2]}:${zone[3]}` : ''}`;
}

/**
 * `09:22:31` (UTC), for timeline rows; the input as given when it is not a date the archive places, its first 40
 * characters in this narrow column (the step page shows it whole).
 */
export function formatClock(iso: string | undefined): string {
  if (!iso) return '';
  const ms = saneTime(iso);
  if (ms !== undefined) return new Date(ms).toISOString().slice(11, 19);
  return iso.length > 40 ? `${iso.slice(0, 39)}…` : iso;
}

/** `2025-11-20` (UTC day), for grouping; `unknown date` when it is not a date the archive places. */
export function dayOf(iso: string): string {
  const ms = saneTime(iso);
  return ms === undefined ? 'unknown date' : new Date(ms).toISOString().slice(0, 10);
}

/** `1 h 02 min`, `3 min 05 s`, `12 s`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  const h = Math.floor(m / 60);
  return `${h} h ${String(m % 60).padStart(2, '0')} min`;
}

/** `1.2 MB`, `340 B`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A value from a record (string or anything else) as display text. */
export function displayValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * A value safe to put in a `data-pagefind-filter="key:value"` attribute (no commas, one line, bounded). Trimmed
 * after the cut too: Pagefind trims values, so a cut that ends in a space would tag a value the page never showed.
 */
export function filterValue(value: string): string {
  return value.replace(/[,\r\n]+/g, ' ').trim().slice(0, 200).trimEnd() || 'unknown';
}
