/**
 * Bounded on the store path (issue 19, point 5): a transcript of many tiny or garbage lines costs the store a
 * bounded number of rows (src/lib/store/garbage.ts); a session of many step folders reads back from the store in
 * time linear in them; reading a folder of thousands of step folders never runs out of file descriptors. On main
 * before this: 2 million `{}` lines added 830 MB to the store; 50,000 step folders took 7 min to read back (10,000:
 * 13.5 s); 30,023 of them were "unreadable (EMFILE)" without the store.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverSessions } from '../../src/lib/brain/index.ts';
import type { SessionRef } from '../../src/lib/brain/types.ts';
import { OTHER_LINES_KEPT, REPEATS_KEPT } from '../../src/lib/store/garbage.ts';
import { closeStoredReaders, listStoredSessions, openStore, readStoredSession, snapshotAll } from '../../src/lib/store/index.ts';
import { projectRoot } from '../helpers/build-site.ts';
import { SESSION_A, tempDir, transcript, writeSession } from './helpers.ts';

afterEach(() => closeStoredReaders());

const FULL = '.system_generated/logs/transcript_full.jsonl';

async function snapshot(home: string, store: string): Promise<void> {
  const db = openStore(store);
  try {
    await snapshotAll(db, await discoverSessions({ geminiHome: home }));
  } finally {
    db.close();
  }
}

async function readBack(store: string): Promise<Awaited<ReturnType<typeof readStoredSession>>> {
  const [info] = listStoredSessions([store]);
  return readStoredSession((info as { ref: SessionRef }).ref);
}

const storedLines = (store: string): number => {
  const db = openStore(store);
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM transcript_lines').get() as { n: number }).n);
  } finally {
    db.close();
  }
};

describe('a transcript of garbage lines', () => {
  it('keeps a bounded number of rows, says how many it counted, and keeps saying it', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const garbage = 200_000;
    writeSession(home, SESSION_A, { full: `${transcript(0, 1, false)}${'{}\n'.repeat(garbage)}` });
    const store = path.join(dir, 'archive.sqlite');
    await snapshot(home, store);
    // Two step records, the first OTHER_LINES_KEPT others, and the last line.
    expect(storedLines(store)).toBe(2 + OTHER_LINES_KEPT + 1);
    expect(statSync(store).size).toBeLessThan(2 * 2 ** 20);
    const notStored = `${FULL}: ${(garbage - OTHER_LINES_KEPT - 1).toLocaleString('en-US')} lines that are not step records (past the first 1,000) were counted, not stored, by the archive store.`;
    let session = await readBack(store);
    expect(session.problems.filter((p) => p.kind === 'too-large').map((p) => p.message)).toEqual([notStored]);
    expect(session.steps.filter((s) => s.type !== 'INVALID_RECORD').map((s) => s.key)).toEqual(['0', '1']);

    // Another file of the session changes: the transcript is not read again, and what it did not keep stays said.
    writeFileSync(path.join(home, 'antigravity', 'brain', SESSION_A, 'notes.md'), '# notes\n');
    await snapshot(home, store);
    closeStoredReaders();
    session = await readBack(store);
    expect(session.problems.filter((p) => p.kind === 'too-large').map((p) => p.message)).toEqual([notStored]);

    // The file grows by a step: the lines kept of its old part are the same, the new step is stored.
    appendFileSync(path.join(home, 'antigravity', 'brain', SESSION_A, FULL), transcript(2, 2, false));
    await snapshot(home, store);
    closeStoredReaders();
    session = await readBack(store);
    expect(session.steps.filter((s) => s.type !== 'INVALID_RECORD').map((s) => s.key)).toEqual(['0', '1', '2']);
    expect(storedLines(store)).toBe(2 + OTHER_LINES_KEPT + 1 + 1);
  }, 120_000);

  it('keeps REPEATS_KEPT copies of a record written over and over byte for byte', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const again = `${JSON.stringify({ step_index: 1, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'RUNNING', content: 'thinking' })}\n`;
    writeSession(home, SESSION_A, { full: `${transcript(0, 0, false)}${again.repeat(50_000)}${transcript(2, 2, false)}` });
    const store = path.join(dir, 'archive.sqlite');
    await snapshot(home, store);
    expect(storedLines(store)).toBe(1 + REPEATS_KEPT + 1);
    const session = await readBack(store);
    expect(session.steps.map((s) => [s.key, s.status])).toEqual([['0', 'DONE'], ['1', 'RUNNING'], ['2', 'DONE']]);
    expect(session.problems.map((p) => p.message)).toEqual([expect.stringContaining('49,980 repeats of an identical line (past 20 in a row)')]);
  }, 60_000);
});

/** A session of `n` steps, each with a `steps/<i>/output.txt`. */
function stepFolders(home: string, n: number): void {
  const dir = writeSession(home, SESSION_A, { full: transcript(0, n - 1, false) });
  for (let i = 0; i < n; i++) {
    mkdirSync(path.join(dir, '.system_generated', 'steps', String(i)), { recursive: true });
    writeFileSync(path.join(dir, '.system_generated', 'steps', String(i), 'output.txt'), `output of step ${i}\n`);
  }
}

describe('many step folders', () => {
  it('read back from the store in time linear in them (CPU time, 2,000 against 8,000)', async () => {
    const dir = tempDir();
    const cpuMs: number[] = [];
    for (const n of [2_000, 8_000]) {
      const home = path.join(dir, `home-${n}`);
      stepFolders(home, n);
      const store = path.join(dir, `${n}.sqlite`);
      await snapshot(home, store);
      await readBack(store); // warm: modules, the store's reader
      closeStoredReaders();
      const before = process.cpuUsage();
      const session = await readBack(store);
      const used = process.cpuUsage(before);
      cpuMs.push((used.user + used.system) / 1000);
      expect(session.steps.filter((s) => s.output !== undefined)).toHaveLength(n);
      closeStoredReaders();
    }
    // Linear is 4x; reading a folder by scanning every stored path was 12.6x here (898 ms, then 11,354 ms).
    expect(cpuMs[1] as number, `${cpuMs.join(' ms, ')} ms`).toBeLessThan(8 * (cpuMs[0] as number));
  }, 300_000);

  it('read from their folder open a bounded number of files: none is EMFILE under ulimit -n 200', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    stepFolders(home, 3_000);
    const out = await new Promise<string>((resolve) => {
      execFile(
        'bash',
        ['-c', `ulimit -n 200 && exec ${JSON.stringify(process.execPath)} scripts/sessions.ts ${SESSION_A.slice(0, 8)}`],
        { cwd: projectRoot, env: { ...process.env, GEMINI_HOME: home, BRAIN_ROOTS: '', ARCHIVE_STORE: 'none', ARCHIVE_STORES: '' }, maxBuffer: 64 * 2 ** 20 },
        (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
      );
    });
    expect(out).toMatch(/steps\s+3000\b/);
    expect(out).not.toContain('EMFILE');
  }, 120_000);
});
