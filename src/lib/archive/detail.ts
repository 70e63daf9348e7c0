/**
 * Step bodies at render time. The content store holds only summaries; a page that needs a session's bodies asks
 * here by id, and gets the session as the loader read and redacted it, kept in a small LRU: the pages of one session
 * render one after another, so a handful of entries is enough.
 *
 * Reading and redacting a session is the costly part (secretlint), and the loader already did it during content
 * sync, in this same process. So the loader writes each session it read (for a session this process renders) to a
 * spill folder of this build (`spillSession`, `v8.serialize`, a structured copy read back far faster than reading
 * and redacting again), and a page's first ask reads it from there; a session with no spill file (its store entry
 * was unchanged, or the spill failed) is read and redacted here and spilled then. Astro renders route by route
 * (session pages, then step pages, artifacts, exports, messages, task logs), so each session is asked for up to six
 * times per build; every later ask reads the spill too. The folder is removed when the process exits; nothing is
 * kept between builds: a rebuild always reads the brain folders afresh.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import type { Session, Step } from '../brain/types.ts';
import { redactSession } from '../redact/index.ts';
import { sessionTurns, type SessionTurns, type ToolCallView } from '../turns/index.ts';
import { cacheRoot } from '../render/disk-cache.ts';
import { prehighlightSession } from './prerender-pool.ts';
import { readArchivedSession } from './source.ts';
import type { SessionRefData } from './schemas.ts';

/** Sessions kept in memory at once. */
export const DETAIL_CACHE_SIZE = 4;

const cache = new Map<string, Promise<Session>>();
/** Sessions this module has handed out at least once (their code blocks went to the highlight workers then). */
const seen = new Set<string>();

/**
 * The spill folder of this build process, named in the environment so the loader's and the pages' copies of this
 * module (two module graphs in one process) share it; the pid in the value keeps a child process from taking its
 * parent's folder.
 */
const SPILL_ENV = 'ARCHIVE_DETAIL_SPILL_DIR';

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
 * `$ARCHIVE_CACHE_DIR/detail-spill/<pid>-<time>/`, new for each build process (never reused: a later process with
 * the same pid must not find an old build's sessions). A build killed by a signal never runs its exit handler, so
 * the folders of processes no longer running are removed here first.
 */
function spillFolder(): string {
  const [pid, existing] = (process.env[SPILL_ENV] ?? '').split(/:(.*)/s);
  if (existing && Number(pid) === process.pid) return existing;
  const root = path.join(cacheRoot(), 'detail-spill');
  try {
    for (const name of readdirSync(root)) {
      const owner = Number(name.split('-')[0]);
      if (Number.isInteger(owner) && owner !== process.pid && !isAlive(owner)) rmSync(path.join(root, name), { recursive: true, force: true });
    }
  } catch {
    // No spill root yet.
  }
  const dir = path.join(root, `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(dir, { recursive: true });
  process.env[SPILL_ENV] = `${process.pid}:${dir}`;
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const cacheKey = (ref: SessionRefData, redactionEnabled: boolean): string => `${ref.dir}\0${redactionEnabled}`;

/** The spill file of a session: named by its cache key, so two sessions spilled at once never share a file. */
function spillFile(key: string): string {
  return path.join(spillFolder(), `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.v8`);
}

/** Write a session to this build's spill folder (whole or not at all); a failure only costs a read later. */
async function writeSpill(key: string, session: Session): Promise<void> {
  try {
    const file = spillFile(key);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, v8.serialize(session));
    await rename(tmp, file);
  } catch {
    // No spill (full or read-only disk): the next ask reads and redacts it again, as before.
  }
}

/** Called by the loader with a session it read and redacted, so the pages do not read and redact it again. */
export function spillSession(ref: SessionRefData, redactionEnabled: boolean, session: Session): Promise<void> {
  return writeSpill(cacheKey(ref, redactionEnabled), session);
}

/** Takes the session from the spill folder, or reads and redacts it (and spills it for the next ask). */
async function loadSession(key: string, ref: SessionRefData, redactionEnabled: boolean): Promise<Session> {
  let session: Session | undefined;
  try {
    session = v8.deserialize(await readFile(spillFile(key))) as Session;
  } catch {
    // Not spilled yet (or torn): read it.
  }
  if (!session) {
    session = (await redactSession(await readArchivedSession(ref), { enabled: redactionEnabled })).session;
    await writeSpill(key, session);
  }
  if (!seen.has(key)) {
    seen.add(key);
    // Its code blocks go to the highlight workers now, ahead of its step pages (off with ARCHIVE_HIGHLIGHT_WORKERS=0).
    prehighlightSession(session);
  }
  return session;
}

/** Empties the in-memory cache (for tests: the next ask goes to the spill folder or reads the session). */
export function forgetSessionDetails(): void {
  cache.clear();
}

/** The full, redacted session for `ref`, cached (least recently used evicted). */
export function getSessionDetail(ref: SessionRefData, redactionEnabled: boolean): Promise<Session> {
  const key = cacheKey(ref, redactionEnabled);
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


/** Each cached session's turns, built once per session object (the turn builder is pure: same session, same turns). */
const turnIndexes = new WeakMap<Session, { turns: SessionTurns; calls: Map<string, ToolCallView> }>();

function turnIndex(session: Session): { turns: SessionTurns; calls: Map<string, ToolCallView> } {
  let index = turnIndexes.get(session);
  if (!index) {
    const turns = sessionTurns(session);
    index = { turns, calls: new Map(turns.calls.map((c) => [c.id, c])) };
    turnIndexes.set(session, index);
  }
  return index;
}

/**
 * The turns of a session from `getSessionDetail` (calls paired with results, outcomes, models per step), built
 * from the redacted session the pages read, so pages render them and never pair or judge outcomes themselves.
 */
export function turnsOf(session: Session): SessionTurns {
  return turnIndex(session).turns;
}

/** A call of a session from `getSessionDetail` by its id (`<stepKey>.<callIndex>`). */
export function callOf(session: Session, id: string): ToolCallView | undefined {
  return turnIndex(session).calls.get(id);
}
