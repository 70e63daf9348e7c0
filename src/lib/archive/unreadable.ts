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
  if (ref.stored && existsSync(ref.dir)) {
    try {
      const fromDisk = await readSession({ ...ref, stored: undefined });
      fromDisk.problems.unshift(sessionProblem(ref, `The stored copy of this session could not be read (${why(first)}); it is shown from its folder on disk.`));
      return fromDisk;
    } catch {
      // Neither: the placeholder below.
    }
  }
  return emptySession(ref, [sessionProblem(ref, `This session could not be read (${why(first)}); it is listed with nothing in it.`)]);
}

const sessionProblem = (ref: SessionRef, message: string): Problem => ({ kind: 'unreadable', sessionId: ref.id, file: '.', message });

/**
 * A session the reader read but the archive could not build into rows and pages (an exception past every bound:
 * a bug): shown with nothing in it, its reader's problems kept and one more saying why, never left out.
 */
export function unbuiltSession(ref: SessionRef, read: Session, error: unknown): Session {
  const problem = sessionProblem(ref, `This session was read but could not be built (${why(error)}); it is listed with nothing in it. Its files are as they were.`);
  return emptySession(ref, [problem, ...read.problems]);
}

function emptySession(ref: SessionRef, problems: Problem[]): Session {
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
    problems,
    missingSteps: [],
  };
}
