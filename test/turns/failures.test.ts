/**
 * One definition of a failure and one message per failure (`src/lib/turns/failures.ts`), on the `step-errors`
 * case and on the real sessions (skipped when ../shared/real-brains is absent).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import { callFailureMessage, failureMessage, failureLine, isErrorStep, sessionFailureCounts, sessionTurns } from '../../src/lib/turns/index.ts';
import { projectRoot, readCase } from '../brain/helpers.ts';
import { summariseSession } from '../../src/lib/archive/summarise.ts';
import { errorCounts, errorGroups } from '../../src/lib/audit/lists.ts';

const erasHome = [path.resolve(projectRoot, '../shared/real-eras/gemini'), path.resolve(projectRoot, '../../shared/real-eras/gemini')].find((p) => existsSync(p));
const realHome = [path.resolve(projectRoot, '../shared/real-brains/gemini'), path.resolve(projectRoot, '../../shared/real-brains/gemini')].find((p) => existsSync(p));

describe('failures on the step-errors case', async () => {
  const s = await readCase('step-errors');
  const t = sessionTurns(s);
  const step = (key: string) => {
    const found = s.steps.find((x) => x.key === key);
    if (!found) throw new Error(`no step ${key}`);
    return found;
  };

  it('takes the message from where Antigravity writes it', () => {
    // Under the Created At / Completed At lines, not the header itself.
    expect(failureMessage(step('2'))).toBe('Encountered error in step execution: context canceled');
    // Stderr's last lines, not stdout and not the transport sentence.
    expect(failureMessage(step('4'))).toMatch(/ModuleNotFoundError: No module named 'yaml'$/);
    expect(failureMessage(step('4'))).not.toMatch(/checking 3 files|exit code/);
    // A command that printed nothing says nothing (a page says "no output", never "failed" as if it were a message).
    expect(failureMessage(step('6'))).toBeUndefined();
    // The harness's "Error Message:" line, without its "There was a problem parsing" preamble and the guidance.
    expect(failureMessage(step('8'))).toBe('model output error: invalid tool call error (invalid_args) failed to read file: open C:/w/missing.py: The system cannot find the file specified.');
    expect(failureMessage(step('10'))).toBe('model output error: model output must contain either output text or tool calls, these cannot both be empty, please try again');
    expect(failureMessage(step('12'))).toBe('UNAVAILABLE (code 503): No capacity available for model claude-sonnet-4-6 on the server');
    expect(failureLine(failureMessage(step('4')) ?? '')).not.toContain('\n');
    // Only the head of a text says so: a viewed log that quotes the sentence further down is no error.
    const quoted = { ...step('2'), type: 'VIEW_FILE', status: 'DONE', content: 'Created At: 2026-08-03T01:54:01Z\nCompleted At: 2026-08-03T01:55:00Z\nline 1\nEncountered error in step execution: boom' };
    expect(failureMessage(quoted)).toBeUndefined();
    expect(isErrorStep(quoted)).toBe(false);
  });

  it('counts failed calls and agent errors apart, each once', () => {
    // 4 calls failed (stopped, exit 2, exit 1, invalid call); 4 errors answer no call (two empty outputs, a 503, and
    // a step no log holds whose steps/15/output.txt says "Encountered error in step execution").
    expect(sessionFailureCounts(t)).toEqual({ failedCalls: 4, agentErrors: 4 });
    expect(t.calls.filter((c) => c.outcome.status === 'failed')).toHaveLength(4);
    expect(t.steps.filter((v) => v.failure === 'call').map((v) => v.key)).toEqual(['2', '4', '6', '8']);
    expect(t.steps.filter((v) => v.failure === 'agent').map((v) => v.key)).toEqual(['10', '11', '12', '15-files']);
    expect(failureMessage(step('15-files'))).toBe('Encountered error in step execution: context canceled');
    // The call's outcome carries the message; its line says why instead of "failed".
    const stopped = t.calls.find((c) => c.id === '1.0');
    expect(stopped?.outcome.error).toBe('Encountered error in step execution: context canceled');
    expect(stopped?.outcome.line).toBe('npm run build · Encountered error in step execution: context canceled');
    expect(t.calls.find((c) => c.id === '5.0')?.outcome.error).toBeUndefined();
  });
});

describe('failures grouped for /audit/errors/', async () => {
  const s = await readCase('step-errors');
  const summary = summariseSession(s, [], false, { id: s.id, product: s.product, root: '', dir: s.dir, mtimeMs: 0, ctimeMs: 0 }).session;

  it('groups identical messages with a count, first and last seen, and counts like the session', () => {
    const groups = errorGroups([summary]);
    expect(groups.map((g) => [g.message.split('\n').at(-1), g.occurrences.length, g.failedCalls, g.agentErrors])).toEqual([
      ['UNAVAILABLE (code 503): No capacity available for model claude-sonnet-4-6 on the server', 1, 0, 1],
      ['model output error: model output must contain either output text or tool calls, these cannot both be empty, please try again', 2, 0, 2],
      ['model output error: invalid tool call error (invalid_args) failed to read file: open C:/w/missing.py: The system cannot find the file specified.', 1, 1, 0],
      ['exit code 1, no output', 1, 1, 0],
      ["ModuleNotFoundError: No module named 'yaml'", 1, 1, 0],
      // The stopped command and the step no log holds (no time: it sorts with the session's start) said the same.
      ['Encountered error in step execution: context canceled', 2, 1, 1],
    ]);
    const twice = groups[1];
    expect([twice?.first.key, twice?.last.key, twice?.first.at, twice?.last.at]).toEqual(['10', '11', '2026-08-03T01:59:30Z', '2026-08-03T02:00:30Z']);
    expect(errorCounts([summary])).toEqual({ failedCalls: 4, agentErrors: 4, groups: 6 });
    expect(summary.conversation).toMatchObject({ failedCalls: 4, agentErrors: 4, failedCommands: 3 });
    // Each row says what it counts as; the recorded status stays as recorded (DONE on an ERROR_MESSAGE).
    expect(summary.audit?.errors.map((e) => [e.key, e.failure, e.status, e.tool ?? ''])).toEqual([
      ['2', 'call', 'ERROR', 'run_command'],
      ['4', 'call', 'DONE', 'run_command'],
      ['6', 'call', 'DONE', 'run_command'],
      ['8', 'call', 'DONE', 'view_file'],
      ['10', 'agent', 'DONE', ''],
      ['11', 'agent', 'DONE', ''],
      ['12', 'agent', 'DONE', ''],
      ['15-files', 'agent', 'UNKNOWN', ''],
    ]);
    expect(summary.audit?.commands.map((c) => c.message)).toEqual(['Encountered error in step execution: context canceled', expect.stringMatching(/ModuleNotFoundError/), 'exit code 1, no output']);
  });
});

describe.skipIf(!realHome)('failures on the real sessions', async () => {
  const d = realHome ? await discoverSessions({ geminiHome: realHome }) : { sessions: [] };
  const sessions = await Promise.all(d.sessions.map((ref) => readSession(ref)));

  it('gives every error step a message that says why', () => {
    const bad: string[] = [];
    let n = 0;
    for (const s of sessions) {
      for (const st of s.steps.filter(isErrorStep)) {
        n++;
        const m = failureMessage(st);
        if (!m || /^(Created At|Completed At):|^There was a problem parsing the tool call\.?$|^failed$|Guidance:|Retries remaining/.test(m)) bad.push(`${s.id.slice(0, 8)} ${st.key}: ${m}`);
      }
    }
    expect(n).toBe(79);
    expect(bad).toEqual([]);
  });

  it('counts each failed call once: the turns add up to the session, the marked steps to both', () => {
    const counts: Record<string, [number, number]> = {};
    for (const s of sessions) {
      const t = sessionTurns(s);
      const c = sessionFailureCounts(t);
      counts[s.id.slice(0, 8)] = [c.failedCalls, c.agentErrors];
      expect(t.steps.filter((v) => v.failure === 'call')).toHaveLength(c.failedCalls);
      expect(t.steps.filter((v) => v.failure === 'agent')).toHaveLength(c.agentErrors);
      // Every error step is a failed call's result or an agent error: nothing is dropped, nothing counted twice.
      const errorSteps = s.steps.filter(isErrorStep).length;
      const errorResults = t.steps.filter((v) => v.failure === 'call' && isErrorStep(s.steps[v.position] ?? { type: '', status: '' })).length;
      expect(errorResults + c.agentErrors).toBe(errorSteps);
    }
    expect(counts).toMatchInlineSnapshot(`
      {
        "0043a8fc": [
          1,
          0,
        ],
        "0694a4a2": [
          0,
          0,
        ],
        "846521af": [
          2,
          0,
        ],
        "86033144": [
          32,
          35,
        ],
        "a99681b1": [
          0,
          1,
        ],
        "ca4322d4": [
          2,
          0,
        ],
        "d493099f": [
          5,
          19,
        ],
        "ede1eb3f": [
          4,
          0,
        ],
      }
    `);
  });
});

describe.skipIf(!erasHome)('failure messages on the other eras (real-eras)', async () => {
  const d = erasHome ? await discoverSessions({ geminiHome: erasHome }) : { sessions: [] };
  const sessions = await Promise.all(d.sessions.map((ref) => readSession(ref)));

  it("says why a PowerShell command failed in the user's language, and never prints the Stdout/Stderr labels", () => {
    const s = sessions.find((x) => x.id.startsWith('3adf6725'));
    if (!s) throw new Error('no 3adf6725');
    const failed = sessionTurns(s).calls.filter((c) => c.outcome.status === 'failed');
    expect(failed.map((c) => callFailureMessage(c))).toEqual([
      // The record's message, not its location, command echo or CategoryInfo lines (CRLF output, Spanish).
      expect.stringMatching(/^godot : El t.rmino 'godot' no se reconoce como nombre de un cmdlet[^]*nuevo\.$/),
      // A background command whose final output was two empty blocks.
      'exit code 1 (in the background; its output is in its task log)',
    ]);
  });
});
