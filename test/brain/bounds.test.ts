/**
 * Bad input stays bounded (issue 10): dates the archive cannot place are problems with file and line and are left
 * out of start times and durations; a file's problems are listed up to a limit and counted past it; a file of
 * `{}` lines keeps a bounded number of INVALID_RECORD steps; a step rewritten many times keeps a bounded number
 * of raw records. Sizes are asserted (problems kept, steps, sources), never times.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  discoverSessions,
  PROBLEMS_KEPT_PER_KIND,
  problemTotal,
  readSession,
  type Problem,
  type Session,
} from '../../src/lib/brain/index.ts';
import { SOURCES_KEPT_PER_STEP } from '../../src/lib/brain/merge.ts';
import { ProblemBudget } from '../../src/lib/brain/problems.ts';
import { saneTime } from '../../src/lib/brain/dates.ts';
import { makePathologicalHome, PATHOLOGICAL_SESSIONS, TRANSCRIPT } from '../../scripts/make-pathological-home.ts';
import { dayOf, formatClock, formatUtc, inRecordedZone } from '../../src/lib/archive/format.ts';
import { casesDir, caseId } from './helpers.ts';

const F = '.system_generated/logs/transcript_full.jsonl';

async function readHome(home: string): Promise<Map<string, Session>> {
  const d = await discoverSessions({ geminiHome: home });
  const out = new Map<string, Session>();
  for (const ref of d.sessions) out.set(ref.id, await readSession(ref));
  return out;
}

const at = (p: Problem) => `${p.kind} ${p.file}${p.line !== undefined ? `:${p.line}` : ''}`;

describe('dates the archive cannot place (fixtures/cases/bad-dates)', () => {
  let sessions: Map<string, Session>;
  const get = (n: number) => sessions.get(caseId(n))!;
  beforeAll(async () => {
    sessions = await readHome(path.join(casesDir, 'bad-dates'));
  });

  it('reports the first and last day JavaScript knows with file and line, and keeps them as given', () => {
    const min = get(30);
    expect(min.problems.map(at)).toEqual([`bad-date ${F}:1`]);
    expect(min.problems[0]?.message).toContain('"-271821-04-20T00:00:00Z" is outside the years the archive places');
    expect(min.steps[0]?.createdAt).toBe('-271821-04-20T00:00:00Z');
    // The start and the duration come from the times it can place.
    expect(min.meta.createdAt).toBe('2026-07-02T10:00:01.000Z');
    expect(min.meta.durationMs).toBe(30_000);

    const max = get(31);
    expect(max.problems.map(at)).toEqual([`bad-date ${F}:1`, `bad-date ${F}:2`]);
    expect(max.steps.map((s) => s.createdAt)).toEqual(['+275760-09-13T00:00:00.000Z', '+275760-09-13T00:00:00.000Z']);
    expect(max.meta.firstAt).toBeUndefined();
    expect(max.meta.durationMs).toBeUndefined();
    // With no time it can place, the start falls back to the folder's ctime, a real date.
    const year = new Date(max.meta.createdAt).getUTCFullYear();
    expect(year).toBeGreaterThanOrEqual(2000);
    expect(year).toBeLessThan(2100);
  });

  it('reports years 0 and 9999 in steps, a message and artifact metadata', () => {
    expect(get(32).problems.map(at).sort()).toEqual([
      `bad-date ${F}:1`,
      `bad-date ${F}:2`,
      'bad-date .system_generated/messages/bbbbbbbb-0000-4000-8000-000000000001.json',
      'bad-date plan.md.metadata.json',
    ]);
    expect(get(32).messages[0]?.timestamp).toBe('0000-01-01T00:00:00Z');
    expect(get(33).problems.map(at)).toEqual([`bad-date ${F}:1`]);
  });

  it('reports a created_at that is no date or no string, and keeps the number among the fields', () => {
    const s = get(34);
    expect(s.problems.map(at)).toEqual([`bad-date ${F}:2`, `bad-date ${F}:3`, `bad-date ${F}:4`, `bad-date ${F}:5`, `bad-date ${F}:6`]);
    expect(s.problems[0]?.message).toContain('"yesterday" is not an ISO 8601 time');
    expect(s.steps[2]?.extra.created_at).toBe(1783069200);
    expect(s.meta.durationMs).toBe(0);
  });

  it('takes only ISO 8601 times with a zone: words, slashes and a zoneless time are read in the machine\'s zone by Date.parse', () => {
    const s = get(34);
    const messages = s.problems.slice(2).map((p) => p.message);
    expect(messages[0]).toContain('"July 3, 2026 10:00" is not an ISO 8601 time');
    expect(messages[1]).toContain('"2026/07/03 10:00:00" is not an ISO 8601 time');
    expect(messages[2]).toContain('"2026-07-03T10:00:00" is not an ISO 8601 time');
    // Shown as written, never placed: the session's time span is its one real time.
    expect(s.steps.slice(3).map((x) => x.createdAt)).toEqual(['July 3, 2026 10:00', '2026/07/03 10:00:00', '2026-07-03T10:00:00']);
    expect(s.meta.createdAt).toBe('2026-07-03T09:00:00.000Z');
    expect(s.meta.durationMs).toBe(0);
    for (const ok of ['2026-07-03T09:00:00Z', '2026-07-03T09:00:00.123456789Z', '2026-07-03T18:00:00+09:00', '2026-07-03'])
      expect(saneTime(ok), ok).toBeTypeOf('number');
  });
});

describe('pages format a date they cannot place as given', () => {
  it('formats times in 2000–2099 and shows any other as written', () => {
    expect(formatUtc('2026-07-02T10:00:01Z')).toBe('2026-07-02 10:00:01 UTC');
    expect(formatUtc('+275760-09-13T00:00:00.000Z')).toBe('+275760-09-13T00:00:00.000Z');
    expect(formatUtc('1999-12-31T23:59:59Z')).toBe('1999-12-31T23:59:59Z');
    expect(formatClock('2100-01-01T00:00:00Z')).toBe('2100-01-01T00:00:00Z');
    expect(formatClock('x'.repeat(100))).toBe(`${'x'.repeat(39)}…`);
    expect(dayOf('-271821-04-20T00:00:00Z')).toBe('unknown date');
    expect(dayOf('2099-12-31T23:59:59Z')).toBe('2099-12-31');
  });
});

describe('a start time in the zone the session recorded (inRecordedZone)', () => {
  it('shows the UTC start in the recorded offset, never the first request\'s own time as the start', () => {
    // 86033144: the first step at 14:09:10Z, the first request's local time 17:19:53+03:00 (14:19:53Z).
    expect(inRecordedZone('2026-08-03T14:09:10Z', '2026-08-03T17:19:53+03:00')).toBe('2026-08-03 17:09:10 UTC+03:00');
    expect(inRecordedZone('2026-08-03T05:07:45Z', '2026-08-03T13:16:37+0800')).toBe('2026-08-03 13:07:45 UTC+08:00');
    expect(inRecordedZone('2026-08-03T02:00:00Z', '2026-08-02T21:30:00-04:30')).toBe('2026-08-02 21:30:00 UTC-04:30');
    expect(inRecordedZone('2026-08-03T02:00:00Z', '2026-08-03T02:05:00Z')).toBe('2026-08-03 02:00:00 UTC');
    expect(inRecordedZone('2026-08-03T02:00:00Z', 'tuesday')).toBeUndefined();
    expect(inRecordedZone('2026-08-03T02:00:00Z', undefined)).toBeUndefined();
  });
});

describe('a problem budget', () => {
  it('lists the first ones of a kind per file and counts the rest in one closing problem', () => {
    const problems: Problem[] = [];
    const budget = new ProblemBudget(problems, 'S', { 'bad-record': 'Not kept.' }, 3);
    for (let line = 1; line <= 10; line++) budget.add({ kind: 'bad-record', file: 'a', line, message: `r${line}` });
    budget.add({ kind: 'bad-line', file: 'a', line: 11, message: 'l11' });
    budget.add({ kind: 'bad-record', file: 'b', line: 1, message: 'b1' });
    budget.close();
    expect(problems.map((p) => `${p.kind} ${p.file} ${p.line ?? `+${p.more}`}`)).toEqual([
      'bad-record a 1', 'bad-record a 2', 'bad-record a 3', 'bad-line a 11', 'bad-record b 1', 'bad-record a +7',
    ]);
    expect(problems.at(-1)).toMatchObject({ sessionId: 'S', more: 7 });
    expect(problems.at(-1)?.message).toBe(
      '7 more bad-record problems in this file (lines 4–10) are counted, not listed: only the first 3 are listed with their lines. Not kept.',
    );
    expect(problemTotal(problems)).toBe(12);
  });
});

describe('files of many bad lines (generated)', () => {
  // Enough lines to be far past every limit; the 2-million-line case is run by hand (see the commit).
  const LINES = 20_000;
  let tmp: string;
  let sessions: Map<string, Session>;
  const s = PATHOLOGICAL_SESSIONS;
  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'agy-bounds-'));
    sessions = await readHome((await makePathologicalHome(tmp, LINES)).home);
  });
  afterAll(async () => {
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it('lists the first non-JSON lines with their numbers and counts the rest', () => {
    const session = sessions.get(s.notJson)!;
    expect(session.steps.map((st) => st.key)).toEqual(['0']);
    const listed = session.problems.filter((p) => p.line !== undefined);
    expect(listed).toHaveLength(PROBLEMS_KEPT_PER_KIND);
    expect(listed.map((p) => p.line)).toEqual(Array.from({ length: PROBLEMS_KEPT_PER_KIND }, (_, i) => i + 2));
    expect(session.problems).toHaveLength(PROBLEMS_KEPT_PER_KIND + 1);
    const closing = session.problems.at(-1)!;
    expect(closing).toMatchObject({ kind: 'bad-line', file: TRANSCRIPT, more: LINES - PROBLEMS_KEPT_PER_KIND });
    expect(closing.message).toContain(`(lines ${PROBLEMS_KEPT_PER_KIND + 2}–${LINES + 1})`);
    expect(problemTotal(session.problems)).toBe(LINES);
  });

  it('keeps only the first `{}` lines as INVALID_RECORD steps and counts the rest', () => {
    const session = sessions.get(s.emptyObjects)!;
    expect(session.steps).toHaveLength(1 + PROBLEMS_KEPT_PER_KIND);
    expect(session.steps.filter((st) => st.type === 'INVALID_RECORD')).toHaveLength(PROBLEMS_KEPT_PER_KIND);
    expect(session.problems).toHaveLength(PROBLEMS_KEPT_PER_KIND + 1);
    expect(session.problems.at(-1)).toMatchObject({ kind: 'bad-record', more: LINES - PROBLEMS_KEPT_PER_KIND });
    expect(session.problems.at(-1)?.message).toContain('not kept as INVALID_RECORD steps either');
    expect(session.meta.stepCount).toBe(1 + PROBLEMS_KEPT_PER_KIND);
  });

  it('merges a step written RUNNING many times into one DONE step with a bounded set of raw records', () => {
    const session = sessions.get(s.rewrites)!;
    expect(session.steps.map((st) => st.key)).toEqual(['0', '1']);
    const step = session.steps[1]!;
    expect(step).toMatchObject({ status: 'DONE', content: 'finished at last', exitCode: 0 });
    expect(step.sources).toHaveLength(SOURCES_KEPT_PER_STEP);
    // The first writes in file order, then the last one (the winner).
    expect(step.sources.map((r) => r.line)).toEqual([
      ...Array.from({ length: SOURCES_KEPT_PER_STEP - 1 }, (_, i) => i + 2),
      LINES + 2,
    ]);
    expect(step.omittedSources).toBe(LINES + 1 - SOURCES_KEPT_PER_STEP);
    expect(session.problems.map(at)).toEqual([`notice ${TRANSCRIPT}:${LINES + 2}`]);
    expect(session.problems[0]?.message).toContain(`written ${(LINES + 1).toLocaleString('en-US')} times`);
  });

  it('leaves the ordinary session beside them alone', () => {
    const session = sessions.get(s.ordinary)!;
    expect(session.problems).toEqual([]);
    expect(session.steps.map((st) => st.sources.length)).toEqual([1, 1, 1]);
    expect(session.meta.durationMs).toBe(9_000);
  });
});

describe('a transcript rebuilt from chunks full of bad lines', () => {
  let tmp: string;
  afterAll(async () => {
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it('credits the listed lines to their chunk file and line, and counts the rest', async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'agy-bounds-chunks-'));
    const id = '0dd00000-0000-4000-8000-0000000000c1';
    const folder = '.system_generated/logs/chunks/transcript_full';
    const dir = path.join(tmp, 'antigravity', 'brain', id, folder);
    await fs.mkdir(dir, { recursive: true });
    const record = (i: number) =>
      JSON.stringify({ step_index: i, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: '2026-08-01T09:00:00Z', content: `r${i}` });
    await fs.writeFile(path.join(dir, '00000000.jsonl'), `${record(0)}\n${'x\n'.repeat(150)}`);
    await fs.writeFile(path.join(dir, '00000001.jsonl'), `${'x\n'.repeat(150)}${record(1)}\n`);
    const session = (await readHome(tmp)).get(id)!;
    expect(session.steps.map((st) => `${st.key} ${st.sources[0]?.file.slice(-14)}:${st.sources[0]?.line}`)).toEqual([
      '0 00000000.jsonl:1',
      '1 00000001.jsonl:151',
    ]);
    const bad = session.problems.filter((p) => p.kind === 'bad-line');
    expect(bad).toHaveLength(PROBLEMS_KEPT_PER_KIND + 1);
    expect(bad.slice(0, 2).map(at)).toEqual([`bad-line ${folder}/00000000.jsonl:2`, `bad-line ${folder}/00000000.jsonl:3`]);
    expect(bad.at(-1)).toMatchObject({ file: folder, more: 300 - PROBLEMS_KEPT_PER_KIND });
  });
});
