/**
 * Step bodies at render time. The content store holds only summaries; a page that needs a session's bodies asks
 * here by id. The session is read again through the reader and the redactor (the same way the loader did) and
 * kept in a small LRU: the pages of one session render one after another, so a handful of entries is enough.
 */
import { readSession } from '../brain/index.ts';
import type { Session, Step } from '../brain/types.ts';
import { redactSession } from '../redact/index.ts';
import { prehighlightSession } from './prerender-pool.ts';
import type { SessionRefData } from './schemas.ts';

/** Sessions kept in memory at once. */
export const DETAIL_CACHE_SIZE = 4;

const cache = new Map<string, Promise<Session>>();

/** The full, redacted session for `ref`, cached (least recently used evicted). */
export function getSessionDetail(ref: SessionRefData, redactionEnabled: boolean): Promise<Session> {
  const key = `${ref.dir}\0${redactionEnabled}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const pending = (async () => {
    const session = (await redactSession(await readSession(ref), { enabled: redactionEnabled })).session;
    // Its code blocks go to the highlight workers now, ahead of its step pages (off with ARCHIVE_HIGHLIGHT_WORKERS=0).
    prehighlightSession(session);
    return session;
  })();
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

