/**
 * Which Pagefind bundle (search shard) holds each session's pages: shards by time, so that the daily rebuild (one
 * or two new sessions into a big archive) re-indexes one small shard rather than a quarter of the site.
 *
 * Pagefind cannot add pages to a bundle: a shard holding a changed session is indexed again whole. With sessions
 * spread over 4 shards by a hash of their id, one new 300-step session at 100k steps re-indexed 12,783 pages (13 s
 * of a 28 s warm build, BENCHMARKS.md). Sessions are mostly written once, at the time they start, so:
 *
 * - sessions starting in the same UTC month as the newest session are sharded by ISO week (a new session lands in
 *   this week's shard, holding this week's sessions only); the newest week itself by UTC day once it holds more than
 *   `WEEK_BY_DAY_FROM` pages, so a busy week does not cost its whole index on every rebuild;
 * - older sessions are sharded by calendar quarter (an old session resumed changes its own quarter's shard only);
 * - a bucket with more than `SHARD_CAPACITY` pages is split by a hash of the id into K = ⌈pages / capacity⌉ shards of
 *   about pages / K each (a hash, not time ranges, so a resumed old session changes only its own shard). About 3 GiB
 *   of Pagefind memory per 25k pages: no shard outgrows a process at any archive size.
 *
 * When the newest session moves into a new week, the days of the week before join their week's shard, and into a new
 * month, the weeks of the month before join their quarter's: that week, or that quarter, is indexed once again
 * ("merge old shards now and then"). The assignment is a pure function of the
 * sessions (their start, id and size), never of an earlier build, so the site is the same whichever way it is built
 * (cold, incremental, split between processes). Shards are numbered oldest first; shard 0 is Pagefind's root bundle
 * (`pagefind/`, holding the `pagefind.js` the search page loads), shard n > 0 is `pagefind/shard-<n>/`.
 */
import { createHash } from 'node:crypto';

/**
 * The most pages a shard holds before its bucket is split. Pagefind's memory grows with a bundle's pages (the
 * largest service peaked at 2,951 MiB on 4 shards of ~25k pages at 100k steps), and every shard costs the search
 * page its own entry, meta and index chunks: with the hash-sharded index at 100k steps, 8 shards took 642–670 ms to
 * the first results against 365–483 ms for 4. 30k splits a 101k-page quarter into 4 shards of ~25k.
 */
export const SHARD_CAPACITY = 30_000;

/**
 * From this many pages the newest week is sharded by day. The 100k bench home writes ~9k pages a week: its week shard
 * took 10.0 s of a 35 s daily rebuild, its day ~1.3k pages. A person's ordinary week (a few thousand pages) stays one
 * shard, so the search page merges no more bundles than it needs.
 */
export const WEEK_BY_DAY_FROM = 4_000;

/** What the assignment needs of a session. */
export interface ShardableSession {
  id: string;
  /** ISO start time; unparseable or missing dates go to the `undated` bucket. */
  createdAt: string;
  /** Pages with a search body, about: one per step and per artifact, and the session's own. */
  pages: number;
}

/** One search shard: its number, the time bucket it covers and its sessions (sorted by id). */
export interface SearchShard {
  n: number;
  /** `day:2026-03-04`, `week:2026-03-02`, `quarter:2026-Q1`, `undated`; with `#k/K` when its bucket was split in K. */
  bucket: string;
  ids: string[];
  pages: number;
}

/** The pages of a session as the index counts them, from its summary's counts. */
export function indexedPages(session: { stepCount: number; artifactCount: number }): number {
  return session.stepCount + session.artifactCount + 1;
}

/**
 * The site's search shards over every session's summary. `sessions.json` names each session's bundle from it, the
 * search page lists its bundles, and the index step groups the pages by what `sessions.json` says: one assignment.
 */
export function siteSearchShards(sessions: readonly { id: string; createdAt: string; stepCount: number; artifactCount: number }[]): SearchShard[] {
  return assignSearchShards(sessions.map((s) => ({ id: s.id, createdAt: s.createdAt, pages: indexedPages(s) })));
}

const DAY_MS = 86_400_000;

/** The UTC day start and the Monday (UTC) of the ISO week of `t` (ms). */
function dayAndWeek(t: number): { day: number; monday: number } {
  const d = new Date(t);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return { day, monday: day - ((d.getUTCDay() + 6) % 7) * DAY_MS };
}

const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The bucket of a start time `t` (ms), given the newest session's `newest` (ms) and whether the newest week goes by
 * day; sortable by start.
 */
function bucketOf(t: number, newest: number, newestWeekByDay: boolean): { key: string; start: number } {
  if (!Number.isFinite(t)) return { key: 'undated', start: -Infinity };
  const d = new Date(t);
  const n = new Date(newest);
  if (d.getUTCFullYear() === n.getUTCFullYear() && d.getUTCMonth() === n.getUTCMonth()) {
    // ISO weeks start on Monday (UTC); a week reaching back into the month before still starts there.
    const { day, monday } = dayAndWeek(t);
    if (newestWeekByDay && monday === dayAndWeek(newest).monday) return { key: `day:${isoDay(day)}`, start: day };
    return { key: `week:${isoDay(monday)}`, start: monday };
  }
  const quarter = Math.floor(d.getUTCMonth() / 3);
  return { key: `quarter:${d.getUTCFullYear()}-Q${quarter + 1}`, start: Date.UTC(d.getUTCFullYear(), quarter * 3, 1) };
}

/** A stable hash of an id into `k` parts. */
function partOf(id: string, k: number): number {
  return createHash('sha1').update(id).digest().readUInt32BE(0) % k;
}

/**
 * The shards of a site, oldest first, every session in exactly one. A site without sessions has one empty shard 0
 * (the root bundle always exists).
 */
export function assignSearchShards(sessions: readonly ShardableSession[], capacity = SHARD_CAPACITY): SearchShard[] {
  const times = sessions.map((s) => Date.parse(s.createdAt));
  const newest = times.reduce((max, t) => (Number.isFinite(t) && t > max ? t : max), -Infinity);
  const byDay = newestWeekPages(sessions, times, newest) > WEEK_BY_DAY_FROM;
  const buckets = new Map<string, { start: number; members: ShardableSession[] }>();
  sessions.forEach((s, i) => {
    const { key, start } = bucketOf(times[i] as number, newest, byDay);
    const bucket = buckets.get(key) ?? { start, members: [] };
    bucket.members.push(s);
    buckets.set(key, bucket);
  });
  const shards: SearchShard[] = [];
  const ordered = [...buckets].sort(([a, x], [b, y]) => x.start - y.start || a.localeCompare(b));
  for (const [key, { members }] of ordered) {
    const pages = members.reduce((sum, s) => sum + Math.max(1, s.pages), 0);
    const k = Math.max(1, Math.ceil(pages / capacity));
    const parts: ShardableSession[][] = Array.from({ length: k }, () => []);
    for (const s of members) parts[k === 1 ? 0 : partOf(s.id, k)]?.push(s);
    parts.forEach((part, i) => {
      if (part.length === 0) return;
      shards.push({
        n: shards.length,
        bucket: k === 1 ? key : `${key}#${i + 1}/${k}`,
        ids: part.map((s) => s.id).sort(),
        pages: part.reduce((sum, s) => sum + Math.max(1, s.pages), 0),
      });
    });
  }
  return shards.length > 0 ? shards : [{ n: 0, bucket: 'empty', ids: [], pages: 0 }];
}

/** The pages of the sessions in the newest session's month and ISO week. */
function newestWeekPages(sessions: readonly ShardableSession[], times: readonly number[], newest: number): number {
  if (!Number.isFinite(newest)) return 0;
  const week = bucketOf(newest, newest, false).key;
  return sessions.reduce((sum, s, i) => (bucketOf(times[i] as number, newest, false).key === week ? sum + Math.max(1, s.pages) : sum), 0);
}

/** The folder of shard `n` under the Pagefind bundle folder: `''` for shard 0, else `shard-<n>/`. */
export function shardFolder(n: number): string {
  return n === 0 ? '' : `shard-${n}/`;
}

/** Each session's shard number, from `assignSearchShards`. */
export function shardBySession(shards: readonly SearchShard[]): Map<string, number> {
  const byId = new Map<string, number>();
  for (const shard of shards) for (const id of shard.ids) byId.set(id, shard.n);
  return byId;
}
