/**
 * Why a call failed, in its row (issue 28 point 3): the message line of a PowerShell record (never only its `+ ~~~`
 * marker), long paths cut in their middle so the reason after them stays, garbled source text noticed, identical
 * retries one row. On the `failure-rows` case and the real sessions (skipped when ../shared is absent).
 */
import { describe, expect, it } from 'vitest';
import type { Session } from '../../src/lib/brain/types.ts';
import { callFailureMessage, failureLine, sessionTurns } from '../../src/lib/turns/index.ts';
import { looksGarbled, shortenPaths } from '../../src/lib/turns/failures.ts';
import { callRowReason, lineWithoutReason, rowMessage } from '../../src/lib/conversation/lines.ts';
import { groupRetries } from '../../src/lib/conversation/retries.ts';
import { readCase, readHome, sharedHome } from '../brain/helpers.ts';

const realHome = sharedHome('real-brains');
const erasHome = sharedHome('real-eras');


describe('the failure-rows case', async () => {
  const s = await readCase('failure-rows');
  const built = sessionTurns(s);
  const call = (key: string) => built.calls.find((c) => c.callStepKey === key) as (typeof built.calls)[number];

  it("says a PowerShell parser error's message, which stands after the marker lines", () => {
    expect(callRowReason(call('1'))).toBe("The token '&&' is not a valid statement separator in this version.");
  });

  it('says the FullyQualifiedErrorId of a record cut down to its + lines, never the marker', () => {
    const reason = callRowReason(call('3')) ?? '';
    expect(reason.split('\n')[0]).toBe('FullyQualifiedErrorId: CommandNotFoundException');
    expect(reason).not.toMatch(/~~~|^\+/m);
  });

  it('keeps garbled source text as it is and can say so', () => {
    const reason = callRowReason(call('5')) ?? '';
    expect(reason).toMatch(/^npm : 'npm' \uFFFD+ cmdlet/);
    expect(looksGarbled(reason)).toBe(true);
    expect(looksGarbled(callRowReason(call('1')) ?? '')).toBe(false);
  });

  it('cuts a long path in its middle and keeps the reason after it, in the row and in the outcome line', () => {
    const reason = callRowReason(call('7')) ?? '';
    expect(reason).toMatch(/^model output error: invalid tool call error \(invalid_args\) failed to read file: open C:\/Users\/DATA ENG\. O…s\/run_autonomous_scanner\.py: The system cannot find the file specified\.$/);
    expect(call('7').outcome.line).toMatch(/: The system cannot find the file specified\.$/);
    // The row line names the file; the reason is said once, under it.
    expect(lineWithoutReason(call('7').outcome.line, call('7').outcome.error)).toBe('.agents/trading_bot_skills/run_autonomous_scanner.py');
    expect(lineWithoutReason('npm test · exit 1', call('1').outcome.error)).toBe('npm test · exit 1');
  });

  it('makes three identical failed retries one row, and leaves a different failure or a reply alone', () => {
    const items = groupRetries(built.turns[0]?.items ?? []);
    expect(items.map((i) => (i.kind === 'retries' ? `retries ${i.first.stepKey}+${i.repeats.map((r) => r.stepKey).join('+')}` : i.kind))).toEqual(['reply', 'reply', 'reply', 'retries 7+9+11', 'reply']);
  });
});

describe('failure lines', () => {
  it('shortens only long paths, never a URL, and drops marker-only lines', () => {
    expect(shortenPaths('cd /a/b && ls ~/x/y')).toBe('cd /a/b && ls ~/x/y');
    expect(shortenPaths('see https://example.com/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w')).toBe('see https://example.com/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w');
    expect(shortenPaths(`open D:\\${'dir\\'.repeat(20)}file.txt: denied`)).toMatch(/^open D:\\dir\\.{1,20}….*\\file\.txt: denied$/);
    expect(rowMessage('+ npm install\n+ ~~~~~~~~~~\nnpm : not found')).toBe('+ npm install\nnpm : not found');
    expect(rowMessage('| a | b |\n| :--- | :--- |\n-> no tops confirmed')).toBe('| a | b |\n-> no tops confirmed');
    expect(failureLine('At line:1\n+ ~~~~\nboom')).toBe('At line:1 · boom');
  });
});

describe.skipIf(!realHome)('failure rows of the real sessions', async () => {
  const sessions = await readHome(realHome);
  const all = sessions.flatMap((s) => sessionTurns(s).calls.filter((c) => c.outcome.status === 'failed').map((c) => ({ s, c })));

  it('gives every failed call a reason whose end is not cut inside a path', () => {
    expect(all.length).toBeGreaterThan(30);
    const cutInPath: string[] = [];
    for (const { s, c } of all) {
      const reason = callRowReason(c);
      if (!reason) continue;
      // A harness error names the path, then says why: the why must be there.
      if (/failed to read file: open /.test(callFailureMessage(c) ?? '') && !/: The system cannot find the (file|path) specified\.$/.test(reason)) cutInPath.push(`${s.id.slice(0, 8)} ${c.callStepKey}: ${reason}`);
      expect(reason, `${s.id.slice(0, 8)} ${c.callStepKey}`).not.toMatch(/^\+\s*~+$/m);
    }
    expect(cutInPath).toEqual([]);
  });

  it('groups the two identical failed reads of 86033144 turn 49 (steps 7523, 7525)', () => {
    const s = sessions.find((x) => x.id.startsWith('86033144')) as Session;
    const turn = sessionTurns(s).turns.find((t) => t.number === 49);
    const runs = groupRetries(turn?.items ?? []).filter((i) => i.kind === 'retries');
    expect(runs.map((r) => [r.first.stepKey, ...r.repeats.map((x) => x.stepKey)])).toEqual([['7523', '7525']]);
  });

  it("notices 0043a8fc's Korean PowerShell error that the record holds garbled", () => {
    const s = sessions.find((x) => x.id.startsWith('0043a8fc')) as Session;
    const failed = sessionTurns(s).calls.filter((c) => c.outcome.status === 'failed');
    expect(failed.map((c) => looksGarbled(callRowReason(c) ?? ''))).toEqual([true]);
  });
});

describe.skipIf(!erasHome)('failure rows of the other eras', async () => {
  const sessions = await readHome(erasHome);
  it("notices 3adf6725's Spanish PowerShell error that the record holds garbled, and keeps its words", () => {
    const s = sessions.find((x) => x.id.startsWith('3adf6725')) as Session;
    const godot = sessionTurns(s).calls.find((c) => c.callStepKey === '16');
    const reason = callRowReason(godot as NonNullable<typeof godot>) ?? '';
    expect(reason).toMatch(/^godot : El t\uFFFDrmino 'godot' no se reconoce/);
    expect(looksGarbled(reason)).toBe(true);
  });
});
