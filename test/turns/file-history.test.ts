/**
 * What changed, per file (`turns/file-history.ts`): each file once, its edits, whether it was created, and the net
 * diff from the first content the session saw to the last (or why not), on a fixture made for each case and on the
 * real sessions, where every whole view after an edit checks the replay.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import type { Session, ToolCall } from '../../src/lib/brain/types.ts';
import { sessionTurns } from '../../src/lib/turns/index.ts';
import { deletedPaths, fileHistories, netRowsShown, replayEdit, shownPathOf, wholeViewContent, type FileHistory } from '../../src/lib/turns/file-history.ts';
import { changedPaths } from '../../src/lib/turns/file-changes.ts';
import { auditRows } from '../../src/lib/audit/rows.ts';
import { projectRoot } from '../helpers/build-site.ts';

const caseHome = path.join(projectRoot, 'fixtures', 'cases', 'file-changes');
const realHome = path.resolve(projectRoot, '../shared/real-brains/gemini');

async function readHome(home: string): Promise<Session[]> {
  const discovery = await discoverSessions({ geminiHome: home });
  return Promise.all(discovery.sessions.map((ref) => readSession(ref)));
}

const historiesOf = (s: Session): FileHistory[] => fileHistories(s.steps, sessionTurns(s), { sessionId: s.id, workspace: s.meta.workspace });
const added = (h: FileHistory | undefined) => h?.net?.rows.filter((r) => r.kind === 'add').map((r) => r.text);
const removed = (h: FileHistory | undefined) => h?.net?.rows.filter((r) => r.kind === 'del').map((r) => r.text);

describe('replaying an edit', () => {
  const call = (name: string, args: Record<string, unknown>, truncatedArgs: string[] = []): ToolCall => ({ name, args, truncatedArgs }) as ToolCall;
  it('replaces the one occurrence, picks among several by StartLine, replaces all with AllowMultiple, says why it cannot', () => {
    expect(replayEdit('a\nb\n', call('replace_file_content', { TargetContent: 'b', ReplacementContent: 'c' }))).toEqual({ content: 'a\nc' });
    expect(replayEdit('x\ny\nx', call('replace_file_content', { TargetContent: 'x', ReplacementContent: 'z', StartLine: 3, EndLine: 3 }))).toEqual({ content: 'x\ny\nz' });
    expect(replayEdit('x\ny\nx', call('replace_file_content', { TargetContent: 'x', ReplacementContent: 'z' }))).toEqual({ why: 'its target text is in the content more than once' });
    expect(replayEdit('x\ny\nx', call('replace_file_content', { TargetContent: 'x', ReplacementContent: 'z', AllowMultiple: true }))).toEqual({ content: 'z\ny\nz' });
    expect(replayEdit('a', call('replace_file_content', { TargetContent: 'q', ReplacementContent: 'c' }))).toEqual({ why: 'its target text is not in the content the records hold' });
    expect(replayEdit('a', call('replace_file_content', { TargetContent: 'a', ReplacementContent: 'c' }, ['ReplacementContent']))).toEqual({ why: 'its arguments are cut in the transcript' });
    // CRLF in a target matches the LF content as the tool matches it; characters that are special in a RegExp are text.
    expect(replayEdit('a.*b\n$1\n', call('replace_file_content', { TargetContent: 'a.*b\r\n$1', ReplacementContent: '$&\\_' }))).toEqual({ content: '$&\\_' });
  });

  it('reads a view as the whole file only when it shows every line', () => {
    const view = (body: string, total: number, from: number, to: number) => ({ content: `Created At: x\nTotal Lines: ${total}\nShowing lines ${from} to ${to}\nThe following code has been modified to include a line number before every line.\n${body}`, truncatedFields: [] }) as never;
    expect(wholeViewContent(view('1: a\n2:\n3:   b', 3, 1, 3))).toBe('a\n\n  b');
    expect(wholeViewContent(view('1: a\n2: b', 3, 1, 2))).toBeUndefined();
    expect(wholeViewContent(view('2: b\n3: c', 3, 2, 3))).toBeUndefined();
    expect(wholeViewContent(view('1: a\n2: b<truncated 80 bytes>', 2, 1, 2))).toBeUndefined();
  });

  it('shows a path relative to the workspace or the session folder, Windows paths too', () => {
    expect(shownPathOf('C:\\W\\src\\a.ts', 'c:/w', 'id')).toEqual({ shownPath: 'src/a.ts', where: 'workspace' });
    expect(shownPathOf('/h/.gemini/antigravity/brain/ABC/task.md', '/w', 'abc')).toEqual({ shownPath: 'task.md', where: 'session-folder' });
    expect(shownPathOf('/elsewhere/x', '/w', 'abc')).toEqual({ shownPath: '/elsewhere/x', where: 'elsewhere' });
  });

  it('reads the files a command deletes, and nothing it does not name', () => {
    expect(deletedPaths('rm -rf build/out.js && git rm "docs/a b.md"; Remove-Item -Path C:\\w\\x.ps1 -Force', '/w')).toEqual(['/w/build/out.js', '/w/docs/a b.md', 'C:\\w\\x.ps1']);
    expect(deletedPaths('rm *.log $TMP/x; echo rm a; npm run rm', '/w')).toEqual([]);
    expect(deletedPaths('del .\\old.txt', 'D:\\site\\')).toEqual(['D:\\site/old.txt']);
  });

  it('shares a page budget of net-diff rows, each file keeping its floor', () => {
    const h = (n: number) => ({ net: { rows: Array.from({ length: n }), base: { kind: 'created', stepKey: '1' }, lastStepKey: '1', totalRows: n } }) as never;
    expect(netRowsShown([h(50), h(100), h(100), {} as never], 180, 30)).toEqual([50, 100, 30, 0]);
  });
});

describe('the file-changes case', () => {
  let files: FileHistory[];
  let session: Session;
  beforeAll(async () => {
    [session] = (await readHome(caseHome)) as [Session];
    files = historiesOf(session);
  });
  const file = (shown: string) => files.find((f) => f.shownPath === shown);

  it('lists each file once, changed ones first, relative to the workspace, with the header\'s count', () => {
    expect(files.map((f) => f.shownPath)).toEqual(['src/new.py', 'main.py', 'README.md', 'conf.ini', 'tmp/scratch.txt', 'gone.py']);
    expect(files.filter((f) => f.applied > 0)).toHaveLength(changedPaths(auditRows(session).files).length);
    expect(sessionTurns(session).turns.reduce((n, t) => n + t.stats.filesChanged.length, 0)).toBe(5);
  });

  it('gives a created file its net diff from nothing, checked by the later whole view', () => {
    const f = file('src/new.py');
    expect(f).toMatchObject({ created: { stepKey: '3' }, applied: 3, confirmedBy: ['10'] });
    expect(f?.net?.base).toEqual({ kind: 'created', stepKey: '3' });
    expect(added(f)).toEqual(['def a():', '    return 10', '', 'def b(x):', '    return x * 2']);
    expect(f).toMatchObject({ added: 5, removed: 0 });
  });

  it('diffs a file seen whole before its edit from that view, the StartLine choosing the occurrence', () => {
    const f = file('main.py');
    expect(f?.created).toBeUndefined();
    expect(f?.net?.base).toEqual({ kind: 'view', stepKey: '12' });
    expect(removed(f)).toEqual(['x = 1']);
    expect(added(f)).toEqual(['x = 2']);
    expect(f?.net?.rows.find((r) => r.kind === 'del')?.oldLine).toBe(4);
  });

  it('says why a file has no net diff, and lists its edits', () => {
    expect(file('README.md')).toMatchObject({ applied: 1, added: 1, removed: 1, noNet: expect.stringMatching(/never show this file whole before its first edit \(step 15\)/) });
    expect(file('README.md')?.net).toBeUndefined();
    expect(file('gone.py')).toMatchObject({ applied: 0, noNet: expect.stringMatching(/every attempt failed/) });
    expect(file('gone.py')?.edits).toEqual([expect.objectContaining({ failed: true, message: expect.stringMatching(/target content not found/) })]);
  });

  it('takes the content back from a whole view after an edit it cannot replay', () => {
    const f = file('conf.ini');
    expect(f?.net).toMatchObject({ base: { kind: 'view', stepKey: '20' }, lastStepKey: '24' });
    expect(removed(f)).toEqual(['k=1']);
    expect(added(f)).toEqual(['k=10']);
  });

  it('says a file was deleted when a later command names it, relative to its Cwd', () => {
    expect(file('tmp/scratch.txt')).toMatchObject({ created: { stepKey: '25' }, deleted: { stepKey: '27', command: 'ls && rm -f ./tmp/scratch.txt' } });
    expect(file('src/new.py')?.deleted).toBeUndefined();
  });

  it('places each edit in the conversation', () => {
    const turns = sessionTurns(session);
    for (const f of files)
      for (const e of f.edits) {
        const item = turns.turns[e.turnIndex ?? -1]?.items[e.itemIndex ?? -1];
        expect(item?.kind === 'reply' && item.calls.some((c) => c.id === e.callId), e.callId).toBe(true);
      }
  });
});

describe.skipIf(!existsSync(realHome))('the real sessions, per file', () => {
  let sessions: Session[];
  beforeAll(async () => {
    sessions = await readHome(realHome);
  });
  const byPrefix = (p: string) => sessions.find((s) => s.id.startsWith(p)) as Session;

  it('counts the files the header counts, each once', () => {
    for (const s of sessions) {
      const files = historiesOf(s);
      expect(new Set(files.map((f) => f.path)).size, s.id).toBe(files.length);
      expect(files.filter((f) => f.applied > 0).map((f) => f.path).sort(), s.id).toEqual(changedPaths(auditRows(s).files).sort());
    }
  });

  it('replays 86033144 as its own views saw the files: confirmed by later whole views, a rewind flagged', () => {
    const files = historiesOf(byPrefix('86033144'));
    const confirmations = files.reduce((n, f) => n + (f.confirmedBy?.length ?? 0), 0);
    expect(confirmations).toBeGreaterThanOrEqual(20);
    // telegram_bot.py: created at 7224; the view at 7335-1 (after a rewound turn) shows the file as before edit 7336.
    const bot = files.find((f) => f.shownPath === 'telegram_bot.py' && f.where === 'session-folder');
    expect(bot).toMatchObject({ created: { stepKey: '7224' }, differedAt: expect.arrayContaining(['7335-1']) });
    expect(bot?.net?.base).toEqual({ kind: 'created', stepKey: '7224' });
    // Every other file with whole views never disagrees with the replay.
    expect(files.filter((f) => f !== bot && f.differedAt)).toEqual([]);
    // A file two edits changed, seen whole before them: its net lines, not the edits' sum.
    const gitignore = files.find((f) => f.shownPath === '.gitignore');
    expect(gitignore?.net?.base.kind).toBe('view');
    expect(gitignore).toMatchObject({ applied: 2, added: 1, removed: 1 });
  });

  it('says why where the records cannot give a net diff', () => {
    const task = historiesOf(byPrefix('d493099f')).find((f) => f.shownPath === 'task.md');
    expect(task?.noNet).toMatch(/never show this file whole before its first edit \(step 1432\)/);
    const plan = historiesOf(byPrefix('0043a8fc')).find((f) => f.shownPath === 'implementation_plan.md');
    expect(plan?.noNet).toMatch(/whole-file write at step 26 is cut in the transcript/);
  });

  it('says 846521af deleted the script it wrote (step 219: rm scripts/check_images.js)', () => {
    const script = historiesOf(byPrefix('846521af')).find((f) => f.shownPath === 'scripts/check_images.js');
    expect(script?.deleted).toMatchObject({ stepKey: '219', command: 'rm scripts/check_images.js' });
  });
});
