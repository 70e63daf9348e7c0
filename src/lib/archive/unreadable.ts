/**
 * A session that cannot be read at all still shows: with no steps and a problem saying why, so `/report/` lists it
 * and the home page counts it. A session whose stored copy could not be read (a number above 2^53 in an older
 * store made node:sqlite throw) was once left out of every collection, with exit code 0 and nothing on the report.
 */
import { existsSync } from 'node:fs';
import { readSession } from '../brain/index.ts';
import { deriveMeta } from '../brain/metadata.ts';
import type { Problem, Session, SessionRef } from '../brain/types.ts';
import { readArchivedSession } from './source.ts';

const why = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Read a session (`readArchivedSession`); when that throws, its folder (for a stored session still on disk), else
 * an empty session. Either way the failure is a problem of the session.
 */
export async function readSessionOrPlaceholder(ref: SessionRef): Promise<Session> {
  let first: unknown;
  try {
    return await readArchivedSession(ref);
  } catch (error) {
    first = error;
  }
  const problem = (message: string): Problem => ({ kind: 'unreadable', sessionId: ref.id, file: '.', message });
  if (ref.stored && existsSync(ref.dir)) {
    try {
      const fromDisk = await readSession({ ...ref, stored: undefined });
      fromDisk.problems.unshift(problem(`The stored copy of this session could not be read (${why(first)}); it is shown from its folder on disk.`));
      return fromDisk;
    } catch {
      // Neither: the placeholder below.
    }
  }
  return {
    id: ref.id,
    product: ref.product,
    dir: ref.dir,
    meta: deriveMeta(ref.id, [], [], ref.ctimeMs),
    steps: [],
    artifacts: [],
    messages: [],
    taskLogs: [],
    uploads: [],
    scratch: [],
    transcriptFiles: [],
    problems: [problem(`This session could not be read (${why(first)}); it is listed with nothing in it.`)],
    missingSteps: [],
  };
}
