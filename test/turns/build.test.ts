/**
 * The turn builder on the demo, the fixture cases and the real sessions (skipped when ../shared/real-brains is
 * absent). Small values as inline snapshots: the outcome line of a command, the turns of a rewind.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSessions, readSession, type Session } from '../../src/lib/brain/index.ts';
import { buildTurns, callOutput, displayBody, sessionTurns, type SessionTurns } from '../../src/lib/turns/index.ts';
import { projectRoot, readCase } from '../brain/helpers.ts';

const demoHome = path.join(projectRoot, 'fixtures', 'demo');
/** The shared real sessions: next to the main checkout (`/work/main/../shared`) or to a worktree's folder. */
const realHome = [path.resolve(projectRoot, '../shared/real-brains/gemini'), path.resolve(projectRoot, '../../shared/real-brains/gemini')].find((p) => existsSync(p));

async function readHome(home: string): Promise<Map<string, Session>> {
  const d = await discoverSessions({ geminiHome: home });
  const sessions = await Promise.all(d.sessions.map((ref) => readSession(ref)));
  return new Map(sessions.map((s) => [s.id.slice(0, 8), s]));
}

function turnsOf(sessions: Map<string, Session>, prefix: string): { s: Session; t: SessionTurns } {
  const s = sessions.get(prefix);
  if (!s) throw new Error(`no session ${prefix}`);
  return { s, t: sessionTurns(s) };
}

const call = (t: SessionTurns, id: string) => {
  const c = t.calls.find((x) => x.id === id);
  if (!c) throw new Error(`no call ${id}`);
  return c;
};

describe('turn builder on the demo', async () => {
  const demo = await readHome(demoHome);

  it('pairs every call of 04c6284a with its result and names the one error no call made', () => {
    const { t } = turnsOf(demo, '04c6284a');
    expect(t.pairing.paired).toBe(t.calls.length);
    expect(t.pairing.unansweredCalls).toEqual([]);
    expect(t.pairing.unpairedResults).toEqual([{ stepKey: '88', position: 88, type: 'ERROR_MESSAGE' }]);
    // Step 11 runs `npm test`; step 12 holds its output, and each names the other.
    expect(call(t, '11.0').resultStepKey).toBe('12');
    expect(t.steps.find((v) => v.key === '12')?.answersCallId).toBe('11.0');
  });

  it('reads outcomes from the data: exit codes, edits, views, searches, permissions', () => {
    const { t } = turnsOf(demo, '04c6284a');
    expect(call(t, '11.0').outcome.line).toMatchInlineSnapshot(`"npm test -- --reporter=dot · exit 0"`);
    expect(call(t, '52.0').outcome).toMatchObject({ status: 'failed', exitCode: 1 });
    expect(call(t, '52.0').outcome.line).toMatchInlineSnapshot(`"npx vitest run test/rate-limit.test.ts · exit 1"`);
    expect(call(t, '46.0').outcome.line).toMatchInlineSnapshot(`"src/routes/orders.ts +2 −1"`);
    expect(call(t, '40.0').outcome.lineRange).toEqual({ from: 1, to: 20, total: 21 });
    expect(call(t, '9.0').outcome.line).toMatchInlineSnapshot(`""rateLimit|rate-limit|throttle" in src · 0 hits"`);
    expect(call(t, '82.0').outcome.hits).toBe(1);
    expect(call(t, '20.0').outcome.line).toMatch(/ · 4 sources$/);
    expect(call(t, '30.0').outcome.granted).toMatchInlineSnapshot(`"command(npm)"`);
    expect(call(t, '38.0').outcome).toMatchObject({ status: 'failed', error: 'replace_file_content: target content not found in /Users/maya/code/orders-api/src/app.ts' });
    expect(call(t, '65.0').outcome.status).toBe('cancelled');
  });

  it('gives times as metadata and strips the transport header from the output', () => {
    const { t } = turnsOf(demo, '04c6284a');
    const c = call(t, '58.0');
    expect(c.outcome).toMatchObject({ startedAt: '2026-03-12T09:23:25+02:00', completedAt: '2026-03-12T09:23:33+02:00', durationMs: 8000 });
    expect(c.outputHead?.startsWith('\n> orders-api@2.4.1 test') || c.outputHead?.startsWith('> orders-api@2.4.1 test')).toBe(true);
    for (const v of t.calls) {
      expect(v.outputHead ?? '').not.toMatch(/^Created At:|The command completed successfully|The following code has been modified to include a line number/m);
    }
  });

  it('links a background command to the message saying it finished and its task log', () => {
    const { t } = turnsOf(demo, '04c6284a');
    // The turn shows the task's final output, not "Tool is running as a background task".
    expect(call(t, '11.0').outputHead).toContain('Test Files  9 passed (9)');
    expect(call(t, '11.0').outcome.background).toEqual({
      taskId: '04c6284a-930e-444f-982e-37e931b8daf3/task-12',
      runningStepKey: '12',
      finishedStepKey: '15',
      exitCode: 0,
      finishedMessageFile: expect.stringMatching(/^\.system_generated\/messages\/.+\.json$/),
      taskLogFile: '.system_generated/tasks/task-12.log',
    });
  });

  it("takes a call's output from its result, its output.txt, or the message saying its background task finished", () => {
    const { s, t } = turnsOf(demo, '04c6284a');
    const byKey = (key: string) => s.steps.find((x) => x.key === key);
    const background = callOutput(call(t, '11.0'), byKey);
    expect(background).toMatchObject({ from: 'task', stepKey: '15' });
    expect(background?.text).toContain('Test Files  9 passed (9)');
    expect(background?.text).not.toMatch(/Task id|The command completed successfully|<\/SYSTEM_MESSAGE>/);
    expect(callOutput(call(t, '52.0'), byKey)).toMatchObject({ from: 'file', stepKey: '53', file: '.system_generated/steps/53/output.txt' });
    expect(callOutput(call(t, '93.0'), byKey)?.text.startsWith(' docs/rate-limiting.md')).toBe(true);
  });

  it('opens each turn with the user words and counts what happened in it', () => {
    const { t } = turnsOf(demo, '04c6284a');
    expect(t.turns.map((x) => [x.number, x.request?.text.split('\n')[0], x.stats.toolCalls, x.stats.failures, x.stats.agentErrors, x.stats.filesChanged.length])).toMatchInlineSnapshot(`
      [
        [
          1,
          "Add rate limiting to the public API.",
          11,
          0,
          0,
          1,
        ],
        [
          2,
          "Plan looks good. Keep in-memory for tests like you said. Leave internal tokens limited for now, go ahead.",
          25,
          2,
          0,
          8,
        ],
        [
          3,
          "Nice. Two more things: /healthz must never be limited (k8s probes hit it every 2s), and internal service tokens (they start with int_) should skip the limiter after all. @[src/middleware/rate-limit.ts]",
          6,
          0,
          1,
          2,
        ],
      ]
    `);
    expect(t.turns[2]?.request?.mentionedFiles).toEqual(['src/middleware/rate-limit.ts']);
    expect(t.turns[1]?.items.find((i) => i.kind === 'checkpoint')).toMatchObject({ kind: 'checkpoint', number: 1, summary: expect.stringMatching(/^# USER Objective:/) });
    const stats = t.turns[0]?.stats;
    expect(stats?.wallClockMs).toBeGreaterThan(0);
    expect(stats?.activeMs).toBeLessThanOrEqual(stats?.wallClockMs ?? 0);
  });

  it('writes timeline rows without transport headers, tags or boilerplate, and red only for failures', () => {
    for (const s of demo.values()) {
      const t = sessionTurns(s);
      for (const v of t.steps) {
        expect(v.summary).not.toMatch(/^Created At:|<USER_REQUEST>|\{\{ CHECKPOINT|^The following is an? </);
        expect(v.summary).not.toBe('');
      }
    }
    const { t } = turnsOf(demo, '04c6284a');
    const failed = t.steps.filter((v) => v.failed).map((v) => v.key);
    expect(failed).toEqual(['38', '39', '52', '53', '88']);
    expect(t.steps.find((v) => v.key === '60')?.summary).toMatchInlineSnapshot(`"Checkpoint 1: Per-API-key rate limiting for the orders API"`);
  });

  it('gives each step the model in force and the session its sequence', () => {
    for (const s of demo.values()) {
      const t = buildTurns(s);
      expect(t.steps.length).toBe(s.steps.length);
      expect(Object.values(t.stepsPerModel).reduce((a, b) => a + b, 0)).toBe(s.steps.length);
      expect(t.modelSequence.at(-1)).toBe(s.meta.model);
    }
  });
});

describe('turn builder on fixture cases', () => {
  it('gives a rewind two turns, and the result whose call was rewound away becomes an orphan', async () => {
    const s = await readCase('rewind');
    const t = buildTurns(s);
    expect(t.turns.map((x) => ({ n: x.number, request: x.request?.text, items: x.items.map((i) => `${i.kind} ${'stepKey' in i ? i.stepKey : i.stepKeys.join(',')}`) }))).toMatchInlineSnapshot(`
      [
        {
          "items": [
            "reply 1",
            "orphan-result 2",
            "reply 3",
          ],
          "n": 1,
          "request": "Build it",
        },
        {
          "items": [
            "reply 3-1",
            "checkpoint 4",
          ],
          "n": 2,
          "request": "No, do it differently",
        },
      ]
    `);
    expect(t.pairing.unpairedResults.map((r) => r.stepKey)).toEqual(['2']);
  });

  it('reads models per step from the Model Selection lines of user inputs', () => {
    const steps = [
      { type: 'USER_INPUT', content: '<USER_REQUEST>\nhi\n</USER_REQUEST>' },
      { type: 'PLANNER_RESPONSE', content: 'hello' },
      { type: 'USER_INPUT', content: '<USER_REQUEST>\nagain\n</USER_REQUEST>\n`Model Selection` from Gemini 3.1 Pro (High) to Claude Sonnet 4.6 (Thinking). No need to comment on this change if the user doesn\'t ask about it.' },
      { type: 'PLANNER_RESPONSE', content: 'I quote `Model Selection` from A to B. No need to worry' },
      { type: 'USER_INPUT', content: '<USER_REQUEST>\nback\n</USER_REQUEST>\n`Model Selection` from Claude Sonnet 4.6 (Thinking) to Gemini 3.1 Pro (High). No need to comment' },
    ].map((x, i) => ({ key: String(i), index: i, occurrence: 0, position: i, source: 'MODEL', status: 'DONE', toolCalls: [], extra: {}, truncatedFields: [], origin: 'full' as const, sources: [], ...x }));
    const t = buildTurns({ steps });
    expect(t.steps.map((v) => v.model)).toEqual(['Gemini 3.1 Pro (High)', 'Gemini 3.1 Pro (High)', 'Claude Sonnet 4.6 (Thinking)', 'Claude Sonnet 4.6 (Thinking)', 'Gemini 3.1 Pro (High)']);
    expect(t.modelSequence).toEqual(['Gemini 3.1 Pro (High)', 'Claude Sonnet 4.6 (Thinking)', 'Gemini 3.1 Pro (High)']);
    expect(t.stepsPerModel).toEqual({ 'Gemini 3.1 Pro (High)': 3, 'Claude Sonnet 4.6 (Thinking)': 2 });
    expect(t.turns[1]?.request?.modelSwitch).toEqual({ from: 'Gemini 3.1 Pro (High)', to: 'Claude Sonnet 4.6 (Thinking)' });
  });

  it('strips command, view and edit transport text for display', () => {
    expect(displayBody('Created At: 2026-07-03T07:04:21Z\nCompleted At: 2026-07-03T07:04:21Z\n\n\t\t\t\tThe command failed with exit code: 1\n\t\t\tStdout:\n\t\t\tx\n\t\t\tStderr:\n\t\t\tboom\n', 'run_command', 'RUN_COMMAND')).toMatchInlineSnapshot(`
      "Stdout:
      x
      Stderr:
      boom
      "
    `);
    expect(displayBody('Created At: a\nCompleted At: b\nFile Path: `file:///x/a%20b.ts`\nTotal Lines: 2\nTotal Bytes: 9\nShowing lines 1 to 2\nThe following code has been modified to include a line number before every line, in the format: <line_number>: <original_line>. Please note that any changes targeting the original code should remove the line number, colon, and leading space.\n1: a\n2: b', 'view_file', 'GENERIC')).toBe('1: a\n2: b');
  });
});

describe.skipIf(!realHome)('turn builder on the real sessions', async () => {
  const real = realHome ? await readHome(realHome) : new Map<string, Session>();

  it('pairs results with calls, leaving only what the logs lack', () => {
    const counts = Object.fromEntries(
      [...real.entries()].map(([id, s]) => {
        const t = buildTurns(s);
        return [id, [t.calls.length, t.pairing.paired, t.pairing.unpairedResults.length, t.pairing.unansweredCalls.length]];
      }),
    );
    // [calls, paired, results no call claims, calls nothing answered]
    expect(counts).toMatchInlineSnapshot(`
      {
        "0043a8fc": [
          17,
          17,
          0,
          0,
        ],
        "0694a4a2": [
          0,
          0,
          0,
          0,
        ],
        "846521af": [
          137,
          137,
          0,
          0,
        ],
        "86033144": [
          217,
          179,
          36,
          38,
        ],
        "a99681b1": [
          1,
          1,
          1,
          0,
        ],
        "ca4322d4": [
          124,
          123,
          0,
          1,
        ],
        "d493099f": [
          157,
          126,
          25,
          31,
        ],
        "ede1eb3f": [
          10,
          10,
          0,
          0,
        ],
      }
    `);
  });

  it('reads exit codes from jetski GENERIC results and background tasks from system messages', () => {
    const { t } = turnsOf(real, 'ca4322d4');
    expect(call(t, '67.0').outcome).toMatchObject({ kind: 'command', status: 'failed', exitCode: 1 });
    expect(call(t, '131.0').outcome.background).toMatchObject({ runningStepKey: '132', finishedStepKey: '134', exitCode: 0, taskLogFile: '.system_generated/tasks/task-132.log' });
    expect(call(t, '131.0').outcome).toMatchObject({ status: 'ok', completedAt: '2026-08-17T14:24:47Z', durationMs: 16000 });
  });

  it('keeps a background task out of its turn\'s time: the turn ends with its own last step, not the task', () => {
    const { t } = turnsOf(real, '86033144');
    // Turn 17 started a command that went on in the background for 8 days; turn 52 holds the notice that it
    // finished (step 7592, 2026-08-11). Both were 184–187 h; the turns themselves took minutes.
    const byNumber = new Map(t.turns.map((turn) => [turn.number, turn]));
    expect(byNumber.get(17)?.stats.endedAt).toBe('2026-08-03T14:52:43.000Z');
    expect(byNumber.get(52)?.stats.wallClockMs).toBeLessThan(60_000);
    const backgroundCall = t.calls.find((c) => c.callStepKey === '7188');
    expect(backgroundCall?.outcome.background).toBeDefined();
    expect(backgroundCall?.outcome.durationMs).toBeGreaterThan(100 * 3_600_000);
    for (const turn of t.turns) expect(turn.stats.wallClockMs ?? 0, `turn ${turn.number}`).toBeLessThan(24 * 3_600_000);
  });

  it('never marks an exit-0 command failed, and always marks a non-zero exit failed', () => {
    for (const s of real.values()) {
      for (const c of buildTurns(s).calls) {
        if (c.outcome.exitCode === 0) expect(c.outcome.status).not.toBe('failed');
        if (c.outcome.exitCode !== undefined && c.outcome.exitCode !== 0) expect(c.outcome.status).toBe('failed');
      }
    }
  });

  it('names the model sequence of a session that switched', () => {
    expect(turnsOf(real, '86033144').t.modelSequence).toMatchInlineSnapshot(`
      [
        "GPT-OSS 120B (Medium)",
        "Claude Sonnet 4.6 (Thinking)",
        "GPT-OSS 120B (Medium)",
      ]
    `);
  });

  it('writes informative timeline rows on real data', () => {
    for (const s of real.values()) {
      for (const v of buildTurns(s).steps) {
        expect(v.summary).not.toMatch(/^Created At:|<USER_REQUEST>|\{\{ CHECKPOINT|^The following is an? </);
        expect(v.summary).not.toBe('');
      }
    }
  });
});
