/**
 * Usage and timing computed once (issue 29 point 3): per call, per turn, per session, per model, per day, and what
 * `npm run sessions -- --json` gives. Fixture databases are written by the tests in the real schema.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverSessions, readSession, type Session } from '../../src/lib/brain/index.ts';
import { sessionTurns } from '../../src/lib/turns/build.ts';
import { callPositions, callUsage, contextPerCall, sessionUsage, stepCall, usagePerDay, usagePerTurn, seconds } from '../../src/lib/turns/usage.ts';
import { SESSION, writeFixtureHome } from '../brain/conversation-db-fixture.ts';
import { costWords, estimateCost, PRICES } from '../../src/lib/turns/prices.ts';
import { projectRoot } from '../brain/helpers.ts';

let home: string;
let session: Session;
beforeEach(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), 'agy-usage-test-'));
  writeFixtureHome(home);
  const d = await discoverSessions({ geminiHome: home });
  session = await readSession(d.sessions[0]!);
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

describe('usage', () => {
  it('per session and per model: exact sums of every call, a failed call counted with no tokens', () => {
    expect(sessionUsage(session)).toEqual({
      calls: 3,
      input: 18937 + 578,
      cache_read: 24514,
      output: 288 + 140,
      thinking: 223 + 100,
      by_model: { 'Gemini 3.5 Flash (Medium)': { calls: 3, input: 19515, cache_read: 24514, output: 428, thinking: 323 } },
    });
    expect(sessionUsage({})).toBeUndefined();
  });

  it('per call: model, tokens, context, time to first token and duration; on the step the call produced', () => {
    const reply = session.steps.find((s) => s.key === '1')!;
    expect(callUsage(stepCall(reply, session.conversation)!)).toEqual({
      row: 0,
      model: 'Gemini 3.5 Flash (Medium)',
      input: 18937,
      cacheRead: 0,
      output: 288,
      thinking: 223,
      context: 18937,
      timeToFirstTokenMs: 2800,
      durationMs: 3090,
      requestAt: '2026-06-18T13:31:58.500Z',
      failed: false,
    });
    // The failed last call produced step 5, which was never written: it belongs after step 4.
    expect([...callPositions(session.steps, session.conversation!.calls)]).toEqual([
      [0, 1],
      [1, 4],
      [2, 4],
    ]);
    expect(contextPerCall(session.conversation).map((c) => c.context)).toEqual([18937, 578 + 24514]);
  });

  it('per turn and per day', () => {
    const turns = sessionTurns(session).turns;
    const perTurn = usagePerTurn(turns, session.steps, session.conversation);
    expect([...perTurn.entries()].map(([n, u]) => [n, u.calls, u.input])).toEqual([[1, 3, 19515]]);
    const days = usagePerDay([session.conversation, undefined]);
    expect([...days.entries()].map(([d, u]) => [d, u.calls, u.input, u.cache_read])).toEqual([
      ['2026-06-18', 1, 18937, 0],
      ['2026-06-19', 1, 578, 24514],
      ['undated', 1, 0, 0],
    ]);
  });

  it('npm run sessions -- --json gives usage in exact integers, absent without a database', () => {
    const other = path.join(home, 'antigravity', 'brain', '00000000-0000-4000-8000-000000000001', '.system_generated', 'logs');
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'transcript.jsonl'), '{"step_index":0,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","created_at":"2026-06-01T00:00:00Z","content":"<USER_REQUEST>hi</USER_REQUEST>"}\n');
    const listed = spawnSync(process.execPath, [path.join(projectRoot, 'scripts', 'sessions.ts'), '--json'], {
      cwd: projectRoot,
      env: { ...process.env, GEMINI_HOME: home, BRAIN_ROOTS: '', ARCHIVE_STORE: 'none', ARCHIVE_STORES: '' },
      encoding: 'utf8',
    });
    expect(listed.status, listed.stderr).toBe(0);
    const rows = JSON.parse(listed.stdout) as Array<{ id: string; usage?: unknown }>;
    expect(rows.find((r) => r.id === SESSION)!.usage).toEqual({
      calls: 3,
      input: 19515,
      cache_read: 24514,
      output: 428,
      thinking: 323,
      by_model: { 'Gemini 3.5 Flash (Medium)': { calls: 3, input: 19515, cache_read: 24514, output: 428, thinking: 323 } },
    });
    expect(rows.find((r) => r.id !== SESSION)).not.toHaveProperty('usage');
  });

  it('cost only as a dated estimate, and never for a model without a price', () => {
    const usage = sessionUsage(session)!;
    expect(estimateCost(usage.by_model)).toBeUndefined(); // Gemini 3.5 Flash (Medium) has no published price
    const byModel = { ...usage.by_model, 'Gemini 2.5 Flash': { calls: 1, input: 1_000_000, cache_read: 2_000_000, output: 100_000, thinking: 50_000 } };
    const e = estimateCost(byModel)!;
    expect(e.dollars).toBeCloseTo(0.3 + 2 * 0.075 + 0.1 * 2.5, 10);
    expect(e.unpriced).toEqual(['Gemini 3.5 Flash (Medium)']);
    expect(costWords(e)).toBe(`about $0.70 at API list prices of ${PRICES.asOf} (an estimate, not a bill; Gemini 3.5 Flash (Medium) not counted (no price))`);
  });
});

describe('durations of a call or a step (seconds)', () => {
  it('keeps hundredths under a minute and reads a longer one in minutes', () => {
    expect(seconds(1234)).toBe('1.23 s');
    expect(seconds(59_990)).toBe('59.99 s');
    expect(seconds(2_809_010)).toBe('46 min 49 s');
  });
});
