/**
 * The user's own actions in their editor (`USER_EXPLICIT` VIEW_FILE and CODE_ACTION, overview.txt of older
 * versions) are content of the turn where they happened, never a tool's result; on the fixture case and on the
 * real session of ../shared/real-eras that has them (skipped when absent). And a session read from overview.txt
 * alone: its calls have no results to find, which is no pairing failure.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import { renderUnifiedDiff, unifiedDiffRows } from '../../src/lib/render/diff.ts';
import { sessionTurns, type TurnItem } from '../../src/lib/turns/index.ts';
import { projectRoot, readCase } from '../brain/helpers.ts';

type UserAction = Extract<TurnItem, { kind: 'user-action' }>;
const actionsOf = (items: TurnItem[]): UserAction[] => items.filter((i): i is UserAction => i.kind === 'user-action');

describe('user actions', () => {
  it('puts what the user opened and edited in the turn where it happened, not on a pending call', async () => {
    const s = await readCase('overview-only');
    const t = sessionTurns(s);
    expect(t.turns.map((turn) => turn.number)).toEqual([1, 2]);
    const items = t.turns[0]?.items ?? [];
    expect(items.map((i) => (i.kind === 'user-action' ? `${i.kind}:${i.action}` : i.kind))).toEqual([
      'reply',
      'reply',
      'user-action:view-file',
      'user-action:edit',
      'reply',
    ]);
    const [view, edit] = actionsOf(items);
    expect(view).toMatchObject({ stepKey: '11', type: 'VIEW_FILE', path: 'C:\\work\\board\\notes.md', lines: { from: 1, to: 2, total: 2 }, createdAt: '2026-05-06T09:01:00Z' });
    expect(view?.text).toBe('1: # Notes\n2: edit works');
    expect(edit).toMatchObject({ stepKey: '12', type: 'CODE_ACTION', path: 'C:\\work\\board\\notes.md', added: 1, removed: 1 });
    expect(edit?.text).toBe('@@ -1,2 +1,2 @@\n # Notes\n-edit works\n+edit works everywhere');
    // The user's VIEW_FILE does not answer the model's view_file call of step 4 (overview.txt keeps no results).
    expect(t.calls.find((c) => c.callStepKey === '4')?.resultStepKey).toBeUndefined();
    expect(t.pairing.unpairedResults).toEqual([]);
    // Calls read from overview.txt alone have no result in that log: no pairing failure to report.
    expect(t.pairing.unansweredCalls).toEqual([]);
    const rows = new Map(t.steps.map((v) => [v.key, v.summary]));
    expect(rows.get('11')).toBe('The user opened C:\\work\\board\\notes.md (lines 1–2 of 2)');
    expect(rows.get('12')).toBe('The user edited C:\\work\\board\\notes.md (+1 −1)');
  });

  it('draws the edit as a diff with old and new line numbers, a cut diff ending in its marker', () => {
    const rows = unifiedDiffRows('@@ -19,3 +19,3 @@\n a\n-b\n+c\n<truncated 408 bytes>');
    expect(rows.map((r) => `${r.kind}:${r.oldLine ?? ''}:${r.newLine ?? ''}:${r.text}`)).toEqual([
      'hunk:::@@ -19,3 +19,3 @@',
      'ctx:19:19:a',
      'del:20::b',
      'add::20:c',
      'hunk:::<truncated 408 bytes>',
    ]);
    expect(renderUnifiedDiff('@@ -1 +1 @@\n-<b>\n+&')).toContain('<td class="diff-code"><span class="line">&lt;b&gt;</span></td>');
  });
});

const realEras = [path.resolve(projectRoot, '../shared/real-eras/gemini'), path.resolve(projectRoot, '../../shared/real-eras/gemini')].find((p) => existsSync(p));

describe.skipIf(realEras === undefined)('user actions on the real session that has them (real-eras b1966f3f)', () => {
  it('shows its 4 opened files and 3 edits in their turns, each edit with its diff', async () => {
    const { sessions } = await discoverSessions({ geminiHome: realEras as string });
    const ref = sessions.find((r) => r.id.startsWith('b1966f3f'));
    if (!ref) throw new Error('b1966f3f missing from real-eras');
    const t = sessionTurns(await readSession(ref));
    const actions = t.turns.flatMap((turn) => actionsOf(turn.items));
    expect(actions.map((a) => a.action).sort()).toEqual(['edit', 'edit', 'edit', 'view-file', 'view-file', 'view-file', 'view-file']);
    for (const a of actions.filter((x) => x.action === 'edit')) {
      expect(a.path).toMatch(/kodari\.md$/);
      expect(a.text.startsWith('@@ ')).toBe(true);
      expect((a.added ?? 0) + (a.removed ?? 0)).toBeGreaterThan(0);
      expect(a.cut).toBe(true);
    }
    // Not one of them answers a model's call.
    const keys = new Set(actions.map((a) => a.stepKey));
    expect(t.calls.filter((c) => c.resultStepKey !== undefined && keys.has(c.resultStepKey))).toEqual([]);
  });
});
