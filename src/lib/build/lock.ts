/**
 * The lock phase: one build at a time per out dir and per cache. Two builds at once into one out dir once exited 0
 * with two 0-byte session pages and a search shard missing a page, and the next build reused the empty pages; two
 * builds sharing a cache overwrite each other's plan, manifest and search shards.
 *
 * The lock is an OS lock on a file, taken through SQLite (`BEGIN EXCLUSIVE` on an empty database: an fcntl lock on
 * POSIX, LockFileEx on Windows). Node has no flock, and a pid file outlives a killed build (its pid may even be
 * reused); the kernel releases this lock when its process ends, however it ends, so a killed build never blocks the
 * next one. The lock files stay on disk and are empty: only the lock held on them means anything.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often a waiting build tries the lock again. */
const RETRY_MS = 250;
/** How often a waiting build says it is still waiting. */
const REMIND_MS = 60_000;

/** Locks held by this build; `release` lets go of all of them (ending the process does too). */
export interface BuildLock {
  release(): void;
}

/** Take the OS lock on `file` now, or return undefined when another process holds it. */
function tryLock(file: string): DatabaseSync | undefined {
  const db = new DatabaseSync(file, { timeout: 0 });
  try {
    // No journal file beside the lock: nothing is ever written.
    db.exec('PRAGMA journal_mode=MEMORY');
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (error) {
    db.close();
    if ((error as { errcode?: number }).errcode === 5 /* SQLITE_BUSY */) return undefined;
    throw error;
  }
}

/** Take the lock on `file` for `what`, waiting (and saying so) while another build holds it. */
async function lockFile(file: string, what: string, say: (line: string) => void): Promise<DatabaseSync> {
  mkdirSync(path.dirname(file), { recursive: true });
  const started = Date.now();
  const waited = (): string => `${((Date.now() - started) / 1000).toFixed(0)} s`;
  let lastSaid: number | undefined;
  for (;;) {
    const db = tryLock(file);
    if (db) {
      if (lastSaid !== undefined) say(`lock: ${what} is free after ${waited()}; building`);
      return db;
    }
    if (lastSaid === undefined) {
      say(`lock: another build is using ${what} (lock ${file}); waiting for it to finish (Ctrl-C to stop)`);
      lastSaid = Date.now();
    } else if (Date.now() - lastSaid >= REMIND_MS) {
      say(`lock: still waiting for ${what} (${waited()})`);
      lastSaid = Date.now();
    }
    await sleep(RETRY_MS);
  }
}

/**
 * Lock the out dir, then the cache (always in this order, so two builds never wait for each other in a circle).
 * Resolves once both are held.
 */
export async function lockBuild(
  outDirLock: string,
  cacheDir: string,
  labels: { outDir: string; cacheDir: string },
  say: (line: string) => void = (line) => console.log(line),
): Promise<BuildLock> {
  const held = [await lockFile(outDirLock, `the out dir ${labels.outDir}`, say)];
  try {
    held.push(await lockFile(path.join(cacheDir, 'build.lock'), `the cache ${labels.cacheDir}`, say));
  } catch (error) {
    held[0]?.close();
    throw error;
  }
  return {
    release() {
      for (const db of held.reverse()) db.close();
      held.length = 0;
    },
  };
}
