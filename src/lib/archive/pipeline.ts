/**
 * Reading sessions for the content store: each one read, redacted and summarised, with bounded concurrency and
 * progress on the console. The Astro loader is a thin layer over this (it decides which sessions changed).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Session, SessionRef } from '../brain/types.ts';
import { redactSession } from '../redact/index.ts';
import type { ArchiveLog } from './inputs.ts';
import type { SessionRows } from './schemas.ts';
import { readSessionOrPlaceholder, unbuiltSession } from './unreadable.ts';
import { summariseSession } from './summarise.ts';

// Here since the build's plan phase imports them without the reading above (`fingerprint.ts`).
export { contentFingerprint, mapBounded, sessionFingerprint } from './fingerprint.ts';

/** Sessions read at once: reading is I/O and JSON parsing; more than a few only raises peak memory. */
export const READ_CONCURRENCY = 4;

/**
 * Read, redact and summarise one session into the rows of all three collections. Never throws for bad data (the
 * reader records problems). `keep` is given the redacted session before it is summarised (the loader spills it for
 * the pages, see `archive/detail.ts`). A session that was read but cannot be redacted or summarised (an exception
 * no bound caught: a 5,000-level argument once overflowed the stack here and the session vanished from the site)
 * becomes an empty session whose problem says why, and `keep` gets that one, so its pages say it too.
 */
export async function readSessionRows(
  ref: SessionRef,
  redactionEnabled: boolean,
  keep?: (session: Session) => Promise<void>,
): Promise<SessionRows> {
  const session = await readSessionOrPlaceholder(ref);
  try {
    return await sessionRows(ref, session, redactionEnabled, keep);
  } catch (error) {
    return sessionRows(ref, unbuiltSession(ref, session, error), redactionEnabled, keep);
  }
}

async function sessionRows(
  ref: SessionRef,
  session: Session,
  redactionEnabled: boolean,
  keep: ((session: Session) => Promise<void>) | undefined,
): Promise<SessionRows> {
  const { session: clean, redactions } = await redactSession(session, { enabled: redactionEnabled });
  if (keep) await keep(clean);
  return summariseSession(clean, redactions, redactionEnabled, {
    id: ref.id,
    product: ref.product,
    root: ref.root,
    dir: ref.dir,
    mtimeMs: ref.mtimeMs,
    ctimeMs: ref.ctimeMs,
    ...(ref.stored ? { stored: ref.stored } : {}),
  });
}

/** Progress on the console while reading: "read 120/480 sessions", about every 10% and at the end. */
export function progressReporter(total: number, log: ArchiveLog): () => void {
  let done = 0;
  const every = Math.max(1, Math.ceil(total / 10));
  return () => {
    done++;
    if (done % every === 0 || done === total) log.info(`read ${done}/${total} sessions`);
  };
}

/** Totals for the closing console line. */
export interface BuildTotals {
  sessions: number;
  read: number;
  skipped: number;
  steps: number;
  artifacts: number;
  problems: number;
  redactions: number;
  ms: number;
}

/** The closing console summary. */
export function formatTotals(t: BuildTotals): string {
  return (
    `archive: ${t.sessions} sessions (${t.read} read, ${t.skipped} unchanged), ${t.steps} steps, ${t.artifacts} artifacts, ` +
    `${t.problems} problems, ${t.redactions} redactions in ${(t.ms / 1000).toFixed(1)} s` +
    (t.problems > 0 ? ' (every problem is listed on /report/)' : '')
  );
}
