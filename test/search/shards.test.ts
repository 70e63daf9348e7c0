/**
 * Search shards by time (`src/lib/search/shards.ts`): the daily rebuild re-indexes this week's small shard, an old
 * session resumed changes its own shard only, buckets too big for one Pagefind process are split, and the
 * assignment depends on the sessions alone.
 */
import { describe, expect, it } from 'vitest';
import { assignSearchShards, shardBySession, type SearchShard, type ShardableSession } from '../../src/lib/search/shards.ts';

const id = (n: number) => `${n.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;

/** `count` sessions, one every `everyHours` from `from`, `pages` each. */
function history(from: string, count: number, everyHours: number, pages = 100, first = 0): ShardableSession[] {
  return Array.from({ length: count }, (_, i) => ({
    id: id(first + i),
    createdAt: new Date(Date.parse(from) + i * everyHours * 3_600_000).toISOString(),
    pages,
  }));
}

/** The shards as sets of ids, to compare membership whatever their numbers. */
const memberships = (shards: SearchShard[]) => shards.map((s) => s.ids.join(','));

/**
 * Add `added` to `sessions` and check that exactly one shard changed, the one holding it in `bucket`, small enough to
 * index again on every rebuild (a few dozen sessions, not a quarter of the site).
 */
function expectLandsAlone(sessions: ShardableSession[], added: ShardableSession, bucket: string): void {
  const before = assignSearchShards(sessions);
  const after = assignSearchShards([...sessions, added]);
  const changed = memberships(after).filter((m) => !memberships(before).includes(m));
  expect(changed).toHaveLength(1);
  const shard = after.find((s) => s.ids.includes(added.id));
  expect(shard?.bucket).toBe(bucket);
  expect(shard?.pages).toBeLessThan(2_000);
}

describe('search shards by time', () => {
  const past = history('2026-01-05T09:00:00Z', 250, 7); // 2026-01-05 to 03-19: the newest month is March

  it('puts every session in exactly one shard, numbered oldest first from 0', () => {
    const shards = assignSearchShards(past);
    expect(shards.map((s) => s.n)).toEqual(shards.map((_, i) => i));
    const all = shards.flatMap((s) => s.ids).sort();
    expect(all).toEqual(past.map((s) => s.id).sort());
    expect(shards.at(0)?.bucket).toBe('quarter:2026-Q1');
  });

  it('shards the newest month by week and older months by quarter', () => {
    const newest = history('2026-05-04T10:00:00Z', 10, 24, 50, 1000); // May 4–13
    const shards = assignSearchShards([...past, ...newest]);
    expect(shards.map((s) => s.bucket)).toEqual(['quarter:2026-Q1', 'week:2026-05-04', 'week:2026-05-11']);
  });

  it('lands a new session in a shard of its own week and leaves every other shard as it was', () => {
    expectLandsAlone(past, { id: id(5000), createdAt: '2026-03-16T08:00:00Z', pages: 300 }, 'week:2026-03-16');
  });

  it('changes one shard when an old session grows, none other', () => {
    const before = assignSearchShards(past);
    const grown = past.map((s, i) => (i === 40 ? { ...s, pages: s.pages + 500 } : s));
    const after = assignSearchShards(grown);
    const changed = after.filter((s, i) => s.pages !== before[i]?.pages);
    expect(changed).toHaveLength(1);
    expect(memberships(after)).toEqual(memberships(before));
  });

  it('splits a bucket over the capacity by a hash of the id, in as few shards as hold about the capacity each', () => {
    // ~101k pages in Q1 and one session years later, as the 100k bench home.
    const big = history('2026-01-05T09:00:00Z', 263, 7, 385);
    const shards = assignSearchShards([...big, { id: id(9999), createdAt: '2030-01-02T00:00:00Z', pages: 301 }], 30_000);
    expect(shards.map((s) => s.bucket)).toEqual(['quarter:2026-Q1#1/4', 'quarter:2026-Q1#2/4', 'quarter:2026-Q1#3/4', 'quarter:2026-Q1#4/4', 'week:2029-12-31']);
    // A hash spreads 263 sessions unevenly by a few percent: each holds about a quarter, none far over the capacity.
    const split = shards.slice(0, 4).map((s) => s.pages);
    expect(Math.min(...split)).toBeGreaterThan(20_000);
    expect(Math.max(...split)).toBeLessThan(33_000);
  });

  it('shards a busy newest week by day: a new session changes its day, and the next week joins the days again', () => {
    // As the 100k bench home: a session every ~6 h of ~385 pages, ~10k pages a week.
    const busy = history('2026-03-02T01:00:00Z', 56, 6, 385, 3000); // Mon 2 March to Sun 15 March
    expect(assignSearchShards(busy).map((s) => s.bucket)).toEqual([
      'week:2026-03-02',
      ...['09', '10', '11', '12', '13', '14', '15'].map((d) => `day:2026-03-${d}`),
    ]);
    const added = { id: id(6000), createdAt: '2026-03-15T23:00:00Z', pages: 301 };
    expectLandsAlone(busy, added, 'day:2026-03-15');
    // Monday comes: last week's days are one shard again, this week's first day one of its own (a quiet week).
    const monday = { id: id(6001), createdAt: '2026-03-16T09:00:00Z', pages: 301 };
    const nextWeek = assignSearchShards([...busy, added, monday]);
    expect(nextWeek.map((s) => s.bucket)).toEqual(['week:2026-03-02', 'week:2026-03-09', 'week:2026-03-16']);
  });

  it('joins the weeks of a month into their quarter once the newest session is in the next month', () => {
    const march = history('2026-03-02T09:00:00Z', 20, 24, 50, 2000);
    const inMarch = assignSearchShards([...past.slice(0, 50), ...march]);
    expect(inMarch.filter((s) => s.bucket.startsWith('week:')).length).toBeGreaterThan(1);
    const april = { id: id(9000), createdAt: '2026-04-01T08:00:00Z', pages: 10 };
    const inApril = assignSearchShards([...past.slice(0, 50), ...march, april]);
    expect(inApril.map((s) => s.bucket)).toEqual(['quarter:2026-Q1', 'week:2026-03-30']);
  });

  it('is a function of the sessions alone, whatever their order', () => {
    const shuffled = [...past].reverse();
    expect(assignSearchShards(shuffled)).toEqual(assignSearchShards(past));
  });

  it('keeps undated sessions searchable, in a shard of their own', () => {
    const shards = assignSearchShards([...past.slice(0, 3), { id: id(7000), createdAt: 'not a date', pages: 5 }]);
    expect(shards[0]?.bucket).toBe('undated');
    expect(shardBySession(shards).get(id(7000))).toBe(0);
  });

  it('has one empty root shard for a site without sessions', () => {
    expect(assignSearchShards([])).toEqual([{ n: 0, bucket: 'empty', ids: [], pages: 0 }]);
  });
});
