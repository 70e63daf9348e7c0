/**
 * Exit codes in words where the number alone says nothing: Windows NTSTATUS codes in hex with their meaning, the
 * shells' signal and not-found codes; an ordinary code stays "exit 1". On real sessions (skipped when absent):
 * 86033144's PowerShell commands that ended 1073807364, and the CLI's background tasks in real-db that ended
 * -1073741510.
 */
import { describe, expect, it } from 'vitest';
import { exitLabel, exitMeaning } from '../../src/lib/turns/exit-codes.ts';
import { sessionTurns } from '../../src/lib/turns/index.ts';
import { readHome, sharedHome } from '../brain/helpers.ts';

const realHome = sharedHome('real-brains');

describe('exitLabel', () => {
  it('names Windows status codes in hex, signed or not, and leaves ordinary codes as numbers', () => {
    expect(exitLabel(-1073741510)).toBe('exit -1073741510 (0xC000013A, Ctrl+C)');
    expect(exitLabel(3221225786)).toBe('exit 3221225786 (0xC000013A, Ctrl+C)');
    expect(exitLabel(1073807364)).toBe('exit 1073807364 (0x40010004, terminated)');
    expect(exitLabel(-1073741819)).toBe('exit -1073741819 (0xC0000005, access violation)');
    expect(exitLabel(-1073700000)).toBe('exit -1073700000 (0xC000A360)');
    expect(exitLabel(127)).toBe('exit 127 (command not found)');
    expect(exitLabel(130)).toBe('exit 130 (SIGINT, Ctrl+C)');
    for (const plain of [0, 1, 2, 255, -1, 1000]) expect(exitLabel(plain)).toBe(`exit ${plain}`);
    expect(exitMeaning(1.5)).toBeUndefined();
  });
});

const dbHome = ['vibecoding'].map((name) => sharedHome(`real-db/${name}`)).find(Boolean);

async function callsOf(home: string, prefix: string) {
  const session = (await readHome(home)).find((s) => s.id.startsWith(prefix));
  expect(session, prefix).toBeDefined();
  return sessionTurns(session!).turns.flatMap((t) => t.items).flatMap((i) => (i.kind === 'reply' ? i.calls : []));
}

describe.skipIf(!realHome)('the exit codes of real 86033144', () => {
  it('says which commands were terminated, on the call line and in how the failure reads', async () => {
    const ended = (await callsOf(realHome!, '86033144')).filter((c) => c.outcome.exitCode === 1073807364);
    expect(ended.length).toBeGreaterThan(0);
    for (const c of ended) {
      expect(c.outcome.line).toContain('exit 1073807364 (0x40010004, terminated)');
      expect(c.outcome.status).toBe('failed');
    }
  });
});

describe.skipIf(!dbHome)('the exit codes of the real CLI background tasks', () => {
  it('says a task stopped with Ctrl+C was stopped with Ctrl+C', async () => {
    const stopped = (await callsOf(dbHome!, '6b284218')).filter((c) => c.outcome.exitCode === -1073741510);
    expect(stopped.length).toBeGreaterThan(0);
    for (const c of stopped) expect(c.outcome.line).toMatch(/ · exit -1073741510 \(0xC000013A, Ctrl\+C\), in the background$/);
    expect(stopped.map((c) => c.outcome.line).join('\n')).not.toContain(' · ended · ');
  });
});
