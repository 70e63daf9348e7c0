/**
 * Reading a long session quickly (issue 22), the pure pieces: Antigravity's `[diff_block_start]` text parsed into
 * diff rows, an edit call's compact view (its reason, a bounded diff, a new file's head), a thinking block's
 * headline, a failure's row message, a long line cut in the middle, and system steps folded into one line per gap
 * with repeated reminders named once.
 */
import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../src/lib/brain/types.ts';
import type { TurnItem } from '../../src/lib/turns/types.ts';
import { hasDiffBlock, renderDiffBlocks, splitDiffBlocks, withoutDiffMarkers } from '../../src/lib/render/diff-block.ts';
import { unifiedDiffRows } from '../../src/lib/render/diff.ts';
import { EDIT_ROWS_MAX, editPreview, editReason, resultEditPreview } from '../../src/lib/conversation/edit.ts';
import { middleCut, rowMessage, thinkingHeadline } from '../../src/lib/conversation/lines.ts';
import { noticeIdentity, noticeTotals, quietItems } from '../../src/lib/conversation/folds.ts';
import { textOf } from '../helpers/site-files.ts';

/** A CODE_ACTION result as real session 86033144 writes it (step 96 of another real session, shortened). */
const RESULT = [
  'Created At: 2026-07-05T14:58:48+08:00',
  'Completed At: 2026-07-05T14:58:48+08:00',
  'The following changes were made by the replace_file_content tool to: /p/src/data/x.ts. If relevant, proactively run terminal commands to execute this code for the USER. Don\'t ask for permission.',
  '[diff_block_start]',
  '@@ -164,7 +164,7 @@',
  ' const designNarrative = (title: string, paragraphs: string[]): ProductNarrative => ({',
  '   eyebrow: "02 / DESIGN LANGUAGE",',
  '   title,',
  '-  tone: "dark",',
  '+  tone: "red",',
  '   paragraphs',
  ' });',
  ' ',
  '[diff_block_end]',
  '',
  'Please note that the above snippet only shows the MODIFIED lines from the last change.',
].join('\n');

const call = (name: string, args: Record<string, unknown>, truncatedArgs: string[] = []): ToolCall => ({ name, args, truncatedArgs });

describe("Antigravity's diff blocks", () => {
  it('parses hunks with the file line numbers, context, additions and removals', () => {
    const parts = splitDiffBlocks(RESULT);
    expect(parts.map((p) => p.kind)).toEqual(['text', 'diff', 'text']);
    const diff = parts[1];
    if (diff?.kind !== 'diff') throw new Error('no diff');
    expect(diff.added).toBe(1);
    expect(diff.removed).toBe(1);
    expect(diff.rows[0]).toMatchObject({ kind: 'hunk', text: '@@ -164,7 +164,7 @@' });
    expect(diff.rows.find((r) => r.kind === 'del')).toEqual({ kind: 'del', oldLine: 167, text: '  tone: "dark",' });
    expect(diff.rows.find((r) => r.kind === 'add')).toEqual({ kind: 'add', newLine: 167, text: '  tone: "red",' });
  });

  it('keeps a block the transcript cut (no end marker) and its truncation note as a row', () => {
    const rows = unifiedDiffRows('@@ -19,7 +19,7 @@\n-a\n+b\n<truncated 408 bytes>');
    expect(rows.map((r) => r.kind)).toEqual(['hunk', 'del', 'add', 'hunk']);
    expect(rows.at(-1)?.text).toBe('<truncated 408 bytes>');
    expect(splitDiffBlocks('x\n[diff_block_start]\n@@ -1 +1 @@\n-a\n+b')).toHaveLength(2);
  });

  it('renders no marker text, only the diff table and the words around it', () => {
    const html = renderDiffBlocks(RESULT);
    expect(html).not.toContain('diff_block');
    expect(html).toContain('<tr class="diff-del">');
    expect(html).toContain('<tr class="diff-add">');
    expect(textOf(html)).toContain('Please note that the above snippet');
    expect(hasDiffBlock('no diff here')).toBe(false);
    expect(withoutDiffMarkers(RESULT)).not.toContain('diff_block');
    expect(withoutDiffMarkers(RESULT)).toContain('-  tone: "dark",\n+  tone: "red",');
    expect(renderDiffBlocks(RESULT)).toContain('data-pagefind-ignore');
    expect(renderDiffBlocks(RESULT, { indexed: true })).not.toContain('data-pagefind-ignore');
  });
});

describe('an edit in the conversation', () => {
  it('shows the reason (Description, else Instruction) and the diff of its arguments, numbered from StartLine', () => {
    const preview = editPreview(
      call('replace_file_content', { TargetFile: '/p/a.ts', Description: 'Make the tone red to match SyokPod', Instruction: 'Change dark to red', StartLine: 10, TargetContent: 'a\nb\nc', ReplacementContent: 'a\nB\nc' }),
    );
    expect(preview?.why).toBe('Make the tone red to match SyokPod');
    expect(preview?.from).toBe('args');
    expect(preview?.rows.find((r) => r.kind === 'del')).toMatchObject({ oldLine: 11, text: 'b' });
    expect(preview?.rows.find((r) => r.kind === 'add')).toMatchObject({ newLine: 11, text: 'B' });
    expect(editReason({ Instruction: '  Change\n dark  to red ' })).toBe('Change dark to red');
  });

  it('falls back to the diff in the result when the arguments were cut', () => {
    const preview = editPreview(call('replace_file_content', { TargetContent: 'x<truncated 10 bytes>', ReplacementContent: 'y' }, ['TargetContent']), RESULT);
    expect(preview?.from).toBe('result');
    expect(preview?.rows[0]).toMatchObject({ kind: 'hunk', text: '@@ -164,7 +164,7 @@' });
  });

  it('caps the rows shown and counts the rest, for every chunk of a multi-replace', () => {
    const big = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    const preview = editPreview(
      call('multi_replace_file_content', {
        ReplacementChunks: [
          { StartLine: 1, TargetContent: big, ReplacementContent: big.replaceAll('line', 'LINE') },
          { StartLine: 100, TargetContent: 'q', ReplacementContent: 'r' },
        ],
      }),
    );
    expect(preview?.rows).toHaveLength(EDIT_ROWS_MAX);
    expect(preview?.totalRows).toBeGreaterThan(80);
  });

  it("shows a new file's head as added lines, with its length", () => {
    const content = Array.from({ length: 30 }, (_, i) => `# line ${i + 1}`).join('\n');
    const preview = editPreview(call('write_to_file', { TargetFile: '/p/plan.md', CodeContent: content, Overwrite: false, Description: 'Create the plan' }));
    expect(preview?.shape).toBe('new-file');
    expect(preview?.fileLines).toBe(30);
    expect(preview?.rows.every((r) => r.kind === 'add')).toBe(true);
    expect(preview?.rows[0]).toMatchObject({ newLine: 1, text: '# line 1' });
    expect(preview?.rows).toHaveLength(EDIT_ROWS_MAX);
  });

  it('is nothing for a call that is not an edit, and a USER edit in the editor shows its diff', () => {
    expect(editPreview(call('run_command', { CommandLine: 'ls' }))).toBeUndefined();
    expect(editPreview(undefined)).toBeUndefined();
    const user = resultEditPreview('The following changes were made by the USER to: c:\\x.md.\n[diff_block_start]\n@@ -19,3 +19,3 @@\n a\n-b\n+c\n[diff_block_end]');
    expect(user?.rows.map((r) => r.kind)).toEqual(['hunk', 'ctx', 'del', 'add']);
  });
});

describe('the lines a folded row shows', () => {
  it("takes Gemini's bold headline, else the first sentence", () => {
    expect(thinkingHeadline("**Analyzing Visual Elements**\n\nI'm currently focused on the specific visual changes requested.")).toBe('Analyzing Visual Elements');
    expect(thinkingHeadline('The user wants me to continue generating images. Let me first check what is missing.')).toBe('The user wants me to continue generating images.');
    expect(thinkingHeadline('')).toBe('');
    expect(thinkingHeadline('x'.repeat(500)).length).toBeLessThanOrEqual(160);
  });

  it("keeps a failure's first two meaningful lines (the failure module puts the error first)", () => {
    expect(rowMessage("AssertionError: expected '41' to be '60'\n\nExpected: \"60\"\nReceived: \"41\"")).toBe("AssertionError: expected '41' to be '60'\nExpected: \"60\"");
    expect(rowMessage('  \n ')).toBeUndefined();
    expect(rowMessage(undefined)).toBeUndefined();
  });

  it('cuts a long line in the middle and keeps how it ended', () => {
    const [head, tail] = middleCut(`cd /very/long/path && python3 -m pytest tests/test_everything.py -k "slow and not flaky" · exit 1`);
    expect(tail).toBe(' · exit 1');
    expect(head.endsWith('flaky"')).toBe(true);
    expect(middleCut('ls')).toEqual(['ls', '']);
  });
});

describe('quiet folds', () => {
  const folded = (folded: 'system' | 'ephemeral' | 'history', keys: string[], positions: number[]): TurnItem => ({ kind: 'folded', folded, stepKeys: keys, positions });
  const reply = (key: string, position: number): TurnItem => ({ kind: 'reply', stepKey: key, position, calls: [] });
  const REMINDER = "Created At: 2026-01-01T00:00:00Z\n<EPHEMERAL_MESSAGE>\n<planning_mode>\nYou're in planning mode.";
  const texts: Record<number, string> = { 1: REMINDER, 2: 'task-1 finished', 3: REMINDER.replace('00:00:00', '00:05:00'), 5: REMINDER, 6: '' };
  const identity = (p: number) => noticeIdentity(texts[p]);
  const summary = (p: number) => (texts[p] ? `notice ${p}` : `history ${p}`);

  it('makes consecutive system, ephemeral and history steps one gap, the same text one group', () => {
    const items = quietItems([reply('0', 0), folded('ephemeral', ['1'], [1]), folded('system', ['2'], [2]), folded('ephemeral', ['3'], [3]), reply('4', 4), folded('ephemeral', ['5'], [5]), folded('history', ['6'], [6])], identity, summary);
    expect(items.map((i) => i.kind)).toEqual(['reply', 'gap', 'reply', 'gap']);
    const gap = items[1];
    if (gap?.kind !== 'gap') throw new Error('no gap');
    expect(gap.steps).toBe(3);
    expect(gap.kinds).toEqual([['ephemeral', 2], ['system', 1]]);
    expect(gap.groups.map((g) => g.stepKeys)).toEqual([['1', '3'], ['2']]);
  });

  it('counts a reminder over the whole session whatever its time', () => {
    const totals = noticeTotals([{ items: [folded('ephemeral', ['1'], [1]), folded('ephemeral', ['3', '5'], [3, 5])] }], identity, summary);
    expect([...totals.values()]).toEqual([3]);
  });
});

describe('a thinking headline keeps names', () => {
  it('keeps underscores inside a name and drops emphasis marks', () => {
    expect(thinkingHeadline('We need to run `test_deriv_connection` script to see why _initialization_ failed.')).toBe('We need to run test_deriv_connection script to see why initialization failed.');
  });
});
