/**
 * Sessions of the older log (`overview.txt`, issue 28): a call there has no result because that log never records
 * one, and a value it cut ends with `<truncated N bytes>`, said in words rather than drawn as raw text. On the
 * `overview-only` case and the real-eras sessions (skipped when ../shared is absent).
 */
import { describe, expect, it } from 'vitest';
import { sessionTurns } from '../../src/lib/turns/index.ts';
import { argLines, logCut, logCutWords } from '../../src/lib/conversation/preview.ts';
import { recordedCall } from '../../src/lib/conversation/view.ts';
import { readCase, readHome, sharedHome } from '../brain/helpers.ts';

const erasHome = sharedHome('real-eras');

describe('the overview-only case', async () => {
  const s = await readCase('overview-only');
  const built = sessionTurns(s);

  it('marks every call as one whose result that log does not keep', () => {
    expect(built.calls.length).toBeGreaterThan(0);
    for (const c of built.calls) expect(c.outcome).toMatchObject({ status: 'unknown', resultNotLogged: true });
  });

  it('takes the cut marker off a value and says how much was cut', () => {
    const write = built.calls.find((c) => c.name === 'write_to_file');
    const lines = argLines(recordedCall(s, write as NonNullable<typeof write>) as NonNullable<ReturnType<typeof recordedCall>>);
    const code = lines.find((l) => l.name === 'CodeContent');
    expect(code?.value).not.toContain('<truncated');
    expect(code?.logCutBytes).toBe(2779);
    expect(logCut('The board is editable now.\n\n<truncated 412 bytes>')).toEqual({ text: 'The board is editable now.\n', bytes: 412 });
    expect(logCut('no marker <truncated 3 bytes> inside')).toEqual({ text: 'no marker <truncated 3 bytes> inside' });
    expect(logCutWords(1994)).toBe('the log kept no more: 1,994 more bytes were cut');
  });
});

describe.skipIf(!erasHome)('the overview.txt sessions of real-eras', async () => {
  const sessions = await readHome(erasHome);

  it('never says "no result" of a call whose log keeps none, and still says it of a newer log', () => {
    for (const s of sessions) {
      const built = sessionTurns(s);
      const overviewOnly = s.steps.every((st) => st.origin === 'overview');
      for (const c of built.calls.filter((x) => x.outcome.status === 'unknown')) {
        expect(c.outcome.resultNotLogged === true, `${s.id.slice(0, 8)} ${c.callStepKey}`).toBe(overviewOnly);
        expect(c.outcome.line).not.toMatch(overviewOnly ? / · no result$/ : / · result not logged$/);
      }
    }
    expect(sessions.filter((s) => s.steps.every((st) => st.origin === 'overview')).map((s) => s.id.slice(0, 8)).sort()).toEqual(['00986dca', 'b1966f3f']);
  });
});
