/**
 * A file swapped for a FIFO after the reader listed it must be a problem, never a hang (`npm run sessions` and the
 * build): opened without blocking, the opened descriptor checked (src/lib/brain/session-fs.ts). One test swaps a
 * listed file by hand between listing and reading; the others run the real commands while a helper process flips
 * a hundred task logs between file and FIFO, each under a timeout so a regression fails instead of hanging the run.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { removeTree } from '../helpers/temp.ts';
import { listDir, openSessionFs, readBytes, readListedText } from '../../src/lib/brain/session-fs.ts';
import type { Problem } from '../../src/lib/brain/types.ts';
import { buildSite, projectRoot } from '../helpers/build-site.ts';

const SESSION = 'e08e5d5e-3fdf-42fd-b1cb-0e2f06167eb0';
const LOGS = 100;
/** The problem of a file that the opened descriptor showed was not a regular file. */
const REFUSED = 'is not a regular file (a folder, pipe, socket or device); it is left out.';

const hasMkfifo = process.platform !== 'win32' && spawnSync('mkfifo', ['--version']).error === undefined;

const work = mkdtempSync(path.join(os.tmpdir(), 'agy-fifo-swap-'));
const home = path.join(work, 'home');
const sessionDir = path.join(home, 'jetski', 'brain', SESSION);
const tasks = path.join(sessionDir, '.system_generated', 'tasks');
const logFiles = Array.from({ length: LOGS }, (_, i) => path.join(tasks, `swapped-${String(i).padStart(3, '0')}.log`));

/** Start flipping the task logs between file and FIFO; stopped when the test ends. */
async function startSwapping(): Promise<void> {
  const spares = mkdtempSync(path.join(work, 'spares-'));
  execFileSync('mkfifo', logFiles.map((_, i) => path.join(spares, `fifo-${i}`)));
  const swapper = spawn(process.execPath, [path.join(projectRoot, 'test', 'helpers', 'fifo-swapper.ts'), spares, ...logFiles], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  onTestFinished(async () => {
    const ended = new Promise((resolve) => swapper.once('close', resolve));
    swapper.kill('SIGKILL');
    await ended;
    // Put the regular files back wherever the swapper stopped.
    for (const [i, file] of logFiles.entries()) {
      try {
        renameSync(path.join(spares, `regular-${i}`), file);
      } catch {
        // Already in place.
      }
    }
  });
  await new Promise<void>((resolve, reject) => {
    swapper.stdout.once('data', () => resolve());
    swapper.once('error', reject);
  });
}

beforeAll(() => {
  cpSync(path.join(projectRoot, 'fixtures', 'demo', 'jetski'), path.join(home, 'jetski'), { recursive: true });
  mkdirSync(tasks, { recursive: true });
  for (const [i, file] of logFiles.entries()) writeFileSync(file, `task log ${i}\n`);
});
afterAll(() => removeTree(work));

describe.skipIf(!hasMkfifo)('a file swapped for a FIFO after listing', () => {
  it('is a problem for the reader, which does not block', async () => {
    const problems: Problem[] = [];
    const sfs = await openSessionFs(SESSION, sessionDir, problems);
    const listed = (await listDir(sfs, '.system_generated/tasks')).find((e) => e.name === path.basename(logFiles[0] as string));
    expect(listed?.kind).toBe('file');
    const spare = path.join(work, 'spare-regular.log');
    renameSync(logFiles[0] as string, spare);
    execFileSync('mkfifo', [logFiles[0] as string]);
    onTestFinished(() => {
      rmSync(logFiles[0] as string);
      renameSync(spare, logFiles[0] as string);
    });
    // Each read would wait for a writer forever if the FIFO were opened blocking.
    expect(await readListedText(sfs, listed!, 1024)).toBeUndefined();
    expect(await readBytes(sfs, listed!.rel)).toBeUndefined();
    expect(problems.map((p) => `${p.kind} ${p.file} ${p.message}`)).toEqual([
      `unreadable ${listed!.rel} ${listed!.rel} ${REFUSED}`,
      `unreadable ${listed!.rel} ${listed!.rel} ${REFUSED}`,
    ]);
  }, 10_000);

  it('never hangs `npm run sessions`', async () => {
    await startSwapping();
    for (let run = 0; run < 3; run++) {
      const result = spawnSync(process.execPath, [path.join(projectRoot, 'scripts', 'sessions.ts'), SESSION.slice(0, 8)], {
        cwd: projectRoot,
        env: { ...process.env, GEMINI_HOME: home, BRAIN_ROOTS: '' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.signal, 'npm run sessions hung (killed after 30 s)').toBeNull();
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain(SESSION);
    }
  }, 200_000);

  it('never hangs the build, and the refused files are problems on /report/', async () => {
    await startSwapping();
    const outDir = path.join(work, 'dist');
    const result = await Promise.race([
      buildSite({ env: { GEMINI_HOME: home }, outDir, cacheDir: path.join(work, 'cache') }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the build hung for 240 s')), 240_000)),
    ]);
    expect(result.code, result.output.slice(-2000)).toBe(0);
    const report = readFileSync(path.join(outDir, 'report', 'index.html'), 'utf8');
    expect(report).toMatch(/\.system_generated\/tasks\/swapped-\d{3}\.log/);
    expect(report).toContain('is not a regular file');
  }, 300_000);
});
