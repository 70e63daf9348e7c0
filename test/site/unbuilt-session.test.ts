/**
 * A session that cannot be built is a page that says why, never an absence (issue 27): when summarising a session
 * the reader read throws (an exception past every bound; a 5,000-level argument once overflowed the stack there),
 * `readSessionRows` returns the rows of an empty session whose problem says why, and hands that session to the
 * pages' spill, so no page is built from the session that threw.
 */
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { discoverSessions, type Session } from '../../src/lib/brain/index.ts';
import { readSessionRows } from '../../src/lib/archive/pipeline.ts';
import { casesDir } from '../brain/helpers.ts';

const failing = vi.hoisted(() => ({ left: 0 }));
vi.mock('../../src/lib/archive/summarise.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/lib/archive/summarise.ts')>();
  return {
    ...real,
    summariseSession: (...args: Parameters<typeof real.summariseSession>) => {
      if (failing.left > 0) {
        failing.left--;
        throw new RangeError('Maximum call stack size exceeded');
      }
      return real.summariseSession(...args);
    },
  };
});

describe('a session read but not built', () => {
  it('is an empty session whose problem says why, also on the pages, with the reader problems kept', async () => {
    const [ref] = (await discoverSessions({ geminiHome: path.join(casesDir, 'record-without-step-index') })).sessions;
    if (!ref) throw new Error('fixture missing');
    const whole = await readSessionRows(ref, true);
    expect(whole.steps).toHaveLength(9);

    failing.left = 1;
    const kept: Session[] = [];
    const rows = await readSessionRows(ref, true, async (s) => void kept.push(s));
    expect(rows.session.id).toBe(ref.id);
    expect(rows.steps).toEqual([]);
    const [why, ...rest] = rows.session.problems;
    expect(why?.message).toBe('This session was read but could not be built (Maximum call stack size exceeded); it is listed with nothing in it. Its files are as they were.');
    expect(rest.map((p) => `${p.kind}:${p.line}`)).toEqual(['bad-record:3', 'bad-record:6', 'bad-record:8']);
    // The pages read the last session kept: the empty one.
    expect(kept.at(-1)?.steps).toEqual([]);
    expect(kept.at(-1)?.problems[0]?.message).toBe(why?.message);
  });
});
