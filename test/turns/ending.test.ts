/**
 * How a session ended, from its last turn only (`src/lib/turns/ending.ts`, issue 28 point 1): on the cases named for
 * it (`ending-no-reply`, `ending-failed-call`, `overview-only`), on the real sessions and the other eras (skipped when
 * ../shared is absent), and through the one summary every page, the export and `/sessions.json` read.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../src/lib/brain/types.ts';
import { sessionTurns } from '../../src/lib/turns/index.ts';
import { middleShorten, sessionEnding } from '../../src/lib/turns/ending.ts';
import { conversationSummary, sessionEnding as summaryEnding } from '../../src/lib/conversation/summary.ts';
import { summariseSession } from '../../src/lib/archive/summarise.ts';
import { sessionIndex } from '../../src/lib/audit/export.ts';
import { projectRoot, readCase, readHome, sharedHome } from '../brain/helpers.ts';

const realHome = sharedHome('real-brains');
const erasHome = sharedHome('real-eras');

const endingOf = (s: Session) => sessionEnding(sessionTurns(s).turns);


describe('the ending cases', () => {
  it('says the last request got no reply and what the log ends on, never an older turn’s prose', async () => {
    const s = await readCase('ending-no-reply');
    const e = endingOf(s);
    expect(e).toEqual({
      kind: 'no-reply',
      text: 'The last request (turn 2) got no final reply; the agent last said "Now I\'ll commit and push it.", and the log ends at step 9, run_command `git push origin main`, with no result recorded.',
      turn: 2,
      stepKey: '9',
    });
    // Turn 1's "pushed and is now live" was what the header quoted before.
    expect(e?.text).not.toMatch(/live on your GitHub/);
    // Prose that comes with a call ("Now I'll commit and push it.") is what the model said before acting, no reply:
    // quoted as what it last said, never as the ending itself.
    expect(e?.text).toMatch(/^The last request \(turn 2\) got no final reply; the agent last said "Now I'll commit and push it\.", and /);
  });

  it('says a failed last call failed and why (the message, not the PowerShell marker lines)', async () => {
    const s = await readCase('ending-failed-call');
    const e = endingOf(s);
    expect(e?.kind).toBe('failed');
    expect(e?.text).toMatch(/^The last request \(turn 1\) got no final reply; the agent last said "I am moving the whole project to the Desktop now; this keeps every file\.", and the log ends at step 1, run_command `Move-Item -Path .*-Force`, failed: exit 1 · Move-Item : Cannot create a file when that file already exists\.$/);
    expect(e?.text).not.toMatch(/~~~/);
  });

  it("says an overview.txt call's result is not in that log, rather than that it had none", async () => {
    const s = await readCase('overview-only');
    const t = sessionTurns(s);
    expect(t.calls.every((c) => c.outcome.resultNotLogged === true)).toBe(true);
    // The last request was answered by nothing: that is what the log shows.
    expect(sessionEnding(t.turns)).toMatchObject({ kind: 'request', text: 'The last request (turn 2) got no reply; the log ends with the request (step 15).' });
    // Without the last request, the turn ends on the write whose result that log never keeps.
    const earlier = sessionEnding(t.turns.slice(0, -1).map((turn) => ({ ...turn, items: turn.items.filter((i) => i.kind !== 'reply' || i.calls.length > 0) })));
    expect(earlier?.text).toMatch(/step 8, write_to_file `C:\\work\\board\\app\.js`, whose result this log does not keep \(overview\.txt records no tool results\)\.$/);
  });

  it('quotes the reply when the last turn ends with one, and the walkthrough only for a session with no log', async () => {
    const demo = await readHome(path.join(projectRoot, 'fixtures', 'demo'));
    const rate = demo.find((s) => s.id.startsWith('04c6284a')) as Session;
    expect(endingOf(rate)).toMatchObject({ kind: 'reply', text: expect.stringMatching(/^Done: /) });
    expect(sessionEnding([], { walkthroughSummary: 'Built and deployed the dashboard.' })).toEqual({ kind: 'summary', text: 'No log of its steps is kept; its walkthrough says: Built and deployed the dashboard.' });
    expect(sessionEnding([])).toBeUndefined();
  });

  it('gives the header, the home card, the export and sessions.json the same line (one summary)', async () => {
    const s = await readCase('ending-failed-call');
    const summary = summariseSession(s, [], false, { id: s.id, product: s.product, root: '', dir: s.dir, mtimeMs: 0, ctimeMs: 0 });
    const line = endingOf(s)?.text;
    expect(conversationSummary(s, sessionTurns(s), s.id).ending).toBe(line);
    expect(summary.session.ending).toBe(line);
    expect(summary.session.endingKind).toBe('failed');
    expect(sessionIndex([summary.session])[0]).toMatchObject({ ending: line, endingKind: 'failed' });
  });

  it('cuts a long command in its middle, so its start and its end stay', () => {
    const cut = middleShorten(`robocopy "C:\\Users\\${'x'.repeat(200)}\\src" "D:\\dest" /E /MOVE`, 60);
    expect(cut).toHaveLength(60);
    expect(cut).toMatch(/^robocopy "C:\\Users\\x+…(x*\\)?src" "D:\\dest" \/E \/MOVE$/);
    expect(middleShorten('git push', 60)).toBe('git push');
  });
});

describe.skipIf(!realHome)('the ending of the real sessions', async () => {
  const sessions = await readHome(realHome);
  const ending = (prefix: string) => endingOf(sessions.find((s) => s.id.startsWith(prefix)) as Session);

  it('names the failed move of 86033144 after the status check the log ends on', () => {
    const e = ending('86033144');
    expect(e?.kind).toBe('failed');
    expect(e?.text).toMatch(/^The last request \(turn 55\) got no reply; the log ends at step 7645, command_status `task-7644`, with no result recorded: a check on step 7643, run_command `robocopy .*\/E \/MOVE`, which was still running in the background when the log ends; before it, step 7641, run_command `Move-Item .*-Recurse`, failed: exit 1 · Move-Item: A parameter cannot be found that matches parameter name 'Recurse'\.$/);
    // The prose of an older turn ("The user wants the entire project … moved") is not how it ended.
    expect(e?.text).not.toMatch(/The user wants/);
  });

  it('says d493099f got no reply to its last request, not that its push was under way', () => {
    const e = ending('d493099f');
    expect(e).toMatchObject({ kind: 'no-reply', turn: 11, stepKey: '1760' });
    expect(e?.text).toMatch(/^The last request \(turn 11\) got no final reply; the agent last said "3个文字错误全部修复完毕！现在把到目前为止的所有修改推送到GitHub：", and the log ends at step 1760, run_command `cd .*`, with no result recorded\.$/);
    expect(e?.text).not.toMatch(/^3个/);
  });

  it('quotes the reply where the last turn has one, and says what the log ends on elsewhere', () => {
    expect(ending('ca4322d4')).toMatchObject({ kind: 'reply', text: expect.stringMatching(/^Yes, absolutely! All of these files/) });
    expect(ending('846521af')).toMatchObject({ kind: 'reply', text: expect.stringMatching(/^Saya telah mencipta fail ringkasan/) });
    expect(ending('ede1eb3f')?.text).toMatch(/failed: exit 1 · Copy-Item: A positional parameter cannot be found that accepts argument '\/Y'\.$/);
    expect(ending('0043a8fc')?.text).toBe('The last request (turn 4) got no reply; the log ends at step 41, write_to_file `walkthrough.md`, which ended ok (+27 −0).');
    expect(ending('a99681b1')?.kind).toBe('no-reply');
    const noLog = sessions.find((s) => s.id.startsWith('0694a4a2')) as Session;
    expect(summaryEnding(noLog, sessionTurns(noLog).turns)).toMatchObject({ kind: 'summary', text: expect.stringMatching(/^No log of its steps is kept; its walkthrough says: /) });
  });
});

describe.skipIf(!erasHome)('the ending of the other eras (real-eras)', async () => {
  const sessions = await readHome(erasHome);
  const ending = (prefix: string) => endingOf(sessions.find((s) => s.id.startsWith(prefix)) as Session);

  it('reads the last turn of overview.txt sessions and of the chunk-only one', () => {
    expect(ending('b1966f3f')).toMatchObject({ kind: 'reply', text: '충성! 코다리 개발부장입니다! 🫡🚀' });
    expect(ending('00986dca')?.kind).toBe('reply');
    expect(ending('3adf6725')).toMatchObject({ kind: 'no-reply', stepKey: '56', text: expect.stringMatching(/run_command `New-Item .*`, with no result recorded\.$/) });
  });
});
