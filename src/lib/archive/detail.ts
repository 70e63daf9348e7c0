/**
 * Step bodies at render time. The content store holds only summaries; a page that needs a session's bodies asks
 * here by id. The session is read again through the reader and the redactor (the same way the loader did) and
 * kept in a small LRU: the pages of one session render one after another, so a handful of entries is enough.
 *
 * Astro renders route by route (session pages, then step pages, artifacts, exports, messages, task logs), so each
 * session is asked for once per route: up to six reads and redactions of every session per build, and redaction
 * (secretlint) is the costly part. So the first read of a session in a build is also written to a spill folder of
 * this process under the cache folder (`v8.serialize`, a structured copy, read back far faster than reading and redacting again), which is
 * removed when the process exits. Nothing is kept between builds: a rebuild always reads the brain folders afresh.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import { readSession } from '../brain/index.ts';
import type { Session, Step } from '../brain/types.ts';
import { redactSession } from '../redact/index.ts';
import { cacheRoot } from '../render/disk-cache.ts';
import { prehighlightSession } from './prerender-pool.ts';
import type { SessionRefData } from './schemas.ts';

/** Sessions kept in memory at once. */
export const DETAIL_CACHE_SIZE = 4;

const cache = new Map<string, Promise<Session>>();
/** Sessions read in this process, by cache key → their spill file. */
const spilled = new Map<string, string>();
let spillDir: string | undefined;

/** True when process `pid` is running (signal 0 only checks). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * `$ARCHIVE_CACHE_DIR/detail-spill/<pid>-<time>/`. A build killed by a signal never runs its exit handler, so the
 * folders of processes no longer running are removed here first.
 */
function spillFolder(): string {
  if (!spillDir) {
    const root = path.join(cacheRoot(), 'detail-spill');
    try {
      for (const name of readdirSync(root)) {
        const pid = Number(name.split('-')[0]);
        if (Number.isInteger(pid) && pid !== process.pid && !isAlive(pid)) rmSync(path.join(root, name), { recursive: true, force: true });
      }
    } catch {
      // No spill root yet.
    }
    spillDir = path.join(root, `${process.pid}-${Date.now().toString(36)}`);
    mkdirSync(spillDir, { recursive: true });
    const dir = spillDir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return spillDir;
}

/** Reads and redacts a session, or takes this build's earlier result from the spill folder. */
async function loadSession(key: string, ref: SessionRefData, redactionEnabled: boolean): Promise<Session> {
  const file = spilled.get(key);
  if (file) {
    try {
      return v8.deserialize(await readFile(file)) as Session;
    } catch {
      spilled.delete(key); // Gone or torn: read it again.
    }
  }
  const session = (await redactSession(await readSession(ref), { enabled: redactionEnabled })).session;
  if (!file) {
    // Its code blocks go to the highlight workers now, ahead of its step pages (off with ARCHIVE_HIGHLIGHT_WORKERS=0).
    prehighlightSession(session);
  }
  try {
    // Named by the session's cache key, never by a count: pages render a few at a time, so two sessions can be
    // spilled at once, and a count read before either write ends gave both the same file.
    const target = path.join(spillFolder(), `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.v8`);
    await writeFile(target, v8.serialize(session));
    spilled.set(key, target);
  } catch {
    // No spill (full or read-only tmp): the next route reads and redacts it again, as before.
  }
  return session;
}

/** The full, redacted session for `ref`, cached (least recently used evicted). */
export function getSessionDetail(ref: SessionRefData, redactionEnabled: boolean): Promise<Session> {
  const key = `${ref.dir}\0${redactionEnabled}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const pending = loadSession(key, ref, redactionEnabled);
  // A failed read must not stay cached.
  pending.catch(() => cache.delete(key));
  cache.set(key, pending);
  while (cache.size > DETAIL_CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    if (oldest === undefined) break;
    cache.delete(oldest);
  }
  return pending;
}

/** Each cached session's steps by key, built once per session (a page looked its step up with `find`: O(n²)). */
const stepIndexes = new WeakMap<Session, Map<string, Step>>();

/** The step `key` of a session from `getSessionDetail`, by a map built once per session. */
export function stepOf(session: Session, key: string): Step | undefined {
  let index = stepIndexes.get(session);
  if (!index) {
    index = new Map(session.steps.map((step) => [step.key, step]));
    stepIndexes.set(session, index);
  }
  return index.get(key);
}

