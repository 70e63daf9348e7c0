/**
 * A session's commands grouped by what was run (issue 28: 260 rows, 151 distinct, not grouped): one group per
 * command text, its runs counted, its failures by the one rule. On the real sessions (skipped when absent).
 */
import { describe, expect, it } from 'vitest';
import { summariseSession } from '../../src/lib/archive/summarise.ts';
import { auditOf } from '../../src/lib/audit/lists.ts';
import { commandKey, groupCommands } from '../../src/lib/audit/command-groups.ts';
import type { CommandRow } from '../../src/lib/audit/schemas.ts';
import { readHome, sharedHome } from '../brain/helpers.ts';

const realHome = sharedHome('real-brains');
const row = (key: string, command: string, extra: Partial<CommandRow> = {}): CommandRow => ({ key, call: 0, command, cut: false, bypass: false, outcome: 'ok', failed: false, ...extra });

describe('groupCommands', () => {
  it('makes one group per command text, in the order first run, with runs, failures and exit codes', () => {
    const groups = groupCommands([
      row('1', 'npm test', { exitCode: 1, failed: true, outcome: 'failed', cwd: '/w' }),
      row('3', 'git status'),
      row('5', 'npm  test\n', { exitCode: 0, cwd: '/w/app' }),
      row('7', 'npm test', { exitCode: 1, failed: true, outcome: 'failed', cwd: '/w' }),
    ]);
    expect(groups.map((g) => [g.command, g.runs.map((r) => r.key), g.failed, g.exitCodes, g.cwds])).toEqual([
      ['npm test', ['1', '5', '7'], 2, [1, 0], ['/w', '/w/app']],
      ['git status', ['3'], 0, [], []],
    ]);
    expect(commandKey(' a \n b ')).toBe('a b');
  });
});

describe.skipIf(!realHome)('the commands of the real sessions', async () => {
  const sessions = await readHome(realHome);

  it('keeps every run once, and groups the repeated ones of 86033144', () => {
    for (const s of sessions) {
      const commands = auditOf(summariseSession(s, [], false, { id: s.id, product: s.product, root: '', dir: s.dir, mtimeMs: 0, ctimeMs: 0 }).session).commands;
      const groups = groupCommands(commands);
      expect(groups.reduce((n, g) => n + g.runs.length, 0), s.id).toBe(commands.length);
      expect(groups.reduce((n, g) => n + g.failed, 0), s.id).toBe(commands.filter((c) => c.failed).length);
      if (s.id.startsWith('86033144')) {
        expect(groups.length).toBeLessThan(commands.length);
        expect(groups.some((g) => g.runs.length > 1)).toBe(true);
      }
    }
  });
});
