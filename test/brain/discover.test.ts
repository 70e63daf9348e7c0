import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compareNewestFirst,
  discoverSessions,
  discoveryOptionsFromEnv,
  readSession,
  resolvePrefix,
} from '../../src/lib/brain/index.ts';
import { caseId, casesDir } from './helpers.ts';

const temps: string[] = [];
afterAll(async () => {
  for (const t of temps) await fs.rm(t, { recursive: true, force: true });
});

describe('discovery', () => {
  it('only UUID folders are sessions', async () => {
    const d = await discoverSessions({ geminiHome: path.join(casesDir, 'non-uuid-folders') });
    expect(d.roots.map((r) => r.product)).toEqual(['antigravity']);
    expect(d.sessions.map((s) => s.id)).toEqual([caseId(9)]);
    expect(d.problems).toEqual([]);
  });

  it('the copy with the newest mtime wins; the other is reported as shadowed', async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'brain-dup-'));
    temps.push(tmp);
    await fs.cp(path.join(casesDir, 'duplicate-root'), tmp, { recursive: true });
    const id = caseId(7);
    const setTimes = async (product: string, when: Date) => {
      const dir = path.join(tmp, product, 'brain', id);
      await fs.utimes(path.join(dir, '.system_generated'), when, when);
      await fs.utimes(dir, when, when);
    };
    await setTimes('antigravity', new Date('2026-01-01T00:00:00Z'));
    await setTimes('antigravity-ide', new Date('2026-03-01T00:00:00Z'));
    let d = await discoverSessions({ geminiHome: tmp });
    expect(d.sessions.map((s) => s.product)).toEqual(['antigravity-ide']);
    expect(d.shadowed.map((s) => [s.shadowed.product, s.winner.product])).toEqual([['antigravity', 'antigravity-ide']]);
    expect(d.problems.map((p) => [p.kind, p.sessionId])).toEqual([['shadowed', id]]);
    const s = await readSession(d.sessions[0]!);
    expect(s.meta.title).toBe('Copy in antigravity-ide');

    await setTimes('antigravity', new Date('2026-06-01T00:00:00Z'));
    d = await discoverSessions({ geminiHome: tmp });
    expect(d.sessions.map((x) => x.product)).toEqual(['antigravity']);
  });

  it('BRAIN_ROOTS replaces discovery; GEMINI_HOME otherwise; ~/.gemini by default', () => {
    expect(discoveryOptionsFromEnv({ BRAIN_ROOTS: '/a/x/brain:/b/brain', GEMINI_HOME: '/g' })).toEqual({
      brainRoots: ['/a/x/brain', '/b/brain'],
    });
    expect(discoveryOptionsFromEnv({ GEMINI_HOME: '/g' })).toEqual({ geminiHome: '/g' });
    expect(discoveryOptionsFromEnv({})).toEqual({ geminiHome: path.join(os.homedir(), '.gemini') });
  });

  it('takes the product from a BRAIN_ROOTS entry', async () => {
    const root = path.join(casesDir, 'rewind/antigravity/brain');
    const d = await discoverSessions({ brainRoots: [root] });
    expect(d.roots).toEqual([{ path: root, product: 'antigravity' }]);
    expect(d.sessions.map((s) => s.id)).toEqual([caseId(1)]);
  });

  it('a missing home is a problem, not an exception', async () => {
    const d = await discoverSessions({ geminiHome: path.join(os.tmpdir(), 'no-such-gemini-home') });
    expect(d.sessions).toEqual([]);
    expect(d.problems.map((p) => p.kind)).toEqual(['unreadable']);
  });

  it('resolves prefixes, every candidate when ambiguous', () => {
    const items = [{ id: 'abcdef12-0000' }, { id: 'abcdef12-1111' }, { id: 'ffff0000-2222' }];
    expect(resolvePrefix(items, 'abcdef12')).toHaveLength(2);
    expect(resolvePrefix(items, 'ABCDEF12-1')).toEqual([{ id: 'abcdef12-1111' }]);
    expect(resolvePrefix(items, 'ffff0000-2222')).toEqual([{ id: 'ffff0000-2222' }]);
    expect(resolvePrefix(items, '9')).toEqual([]);
  });

  it('orders newest first by start time', () => {
    const list = [
      { id: 'a', meta: { createdAt: '2026-01-01T00:00:00.000Z' } },
      { id: 'b', meta: { createdAt: '2026-03-01T00:00:00.000Z' } },
      { id: 'c', meta: { createdAt: '2026-02-01T00:00:00.000Z' } },
    ];
    expect(list.sort(compareNewestFirst).map((x) => x.id)).toEqual(['b', 'c', 'a']);
  });
});
