/**
 * The reader's source switch: a session the inputs found in the archive store (`ref.stored`) is read from the
 * store, any other from its folder. Everything downstream (redaction, rows, pages) gets the same shapes either way.
 */
import { readSession } from '../brain/index.ts';
import { openSessionFs, readBytes } from '../brain/session-fs.ts';
import type { Problem, Session, SessionRef } from '../brain/types.ts';
import { readStoredSession, storedFileBytes } from '../store/read.ts';

/** Read a session from wherever its ref says it is kept. */
export function readArchivedSession(ref: SessionRef): Promise<Session> {
  return ref.stored ? readStoredSession(ref) : readSession(ref);
}

/** The bytes of one file of a session (at most `maxBytes`), from the store or through the confined folder access. */
export async function readArchivedFile(ref: SessionRef, file: string, maxBytes: number): Promise<{ bytes: Buffer; size: number } | undefined> {
  if (ref.stored) return storedFileBytes(ref, file, maxBytes);
  const problems: Problem[] = [];
  return readBytes(await openSessionFs(ref.id, ref.dir, problems), file, maxBytes);
}
