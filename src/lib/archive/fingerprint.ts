/**
 * What a session's content digest is made of, and the bounded map the plan phase runs it with. Apart from
 * `pipeline.ts` (reading, redaction, summaries: Shiki, secretlint, the turn model) so that `scripts/build.ts` plans
 * without loading them: a rebuild with nothing to do loaded 368 modules, ~0.8 s of CPU of which was the reading it
 * never did (issue 32 point 3).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import type { SessionRef } from '../brain/types.ts';

/**
 * What changes when a session's content changes, for content digests: the store's version of a stored session, or
 * every file's size and mtime of a folder (`sessionFingerprint`).
 */
export async function contentFingerprint(ref: SessionRef): Promise<string[]> {
  const files = ref.stored ? [`stored\0${ref.stored.fingerprint}`] : ref.noFolder ? [] : await sessionFingerprint(ref.dir);
  return ref.conversationDb ? [...files, ...(await conversationDbFingerprint(ref.conversationDb))] : files;
}

/** The conversation database and its WAL, by size and mtime (the `-shm` is an index: it changes nothing we show). */
async function conversationDbFingerprint(dbPath: string): Promise<string[]> {
  const out: string[] = [];
  for (const file of [dbPath, `${dbPath}-wal`]) {
    const st = await fs.lstat(file).catch(() => undefined);
    out.push(`${path.basename(file)}\t${st ? `${st.size}\t${Math.trunc(st.mtimeMs)}` : '-'}`);
  }
  return out;
}

/**
 * Every file under a session folder with its size and mtime, sorted: the part of a content digest that changes
 * when anything on disk changes. Symlinks are listed as links (never followed).
 */
export async function sessionFingerprint(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string): Promise<void> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
    } catch {
      out.push(`${rel}/?`);
      return;
    }
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        await walk(childRel);
        continue;
      }
      try {
        const st = await fs.lstat(path.join(dir, childRel));
        out.push(`${childRel}\t${st.size}\t${Math.trunc(st.mtimeMs)}`);
      } catch {
        out.push(`${childRel}\t?`);
      }
    }
  }
  await walk('');
  return out.sort();
}

/** Run `work` over `items` with at most `concurrency` at once; results in input order. */
export async function mapBounded<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const limit = pLimit(concurrency);
  return Promise.all(items.map((item) => limit(() => work(item))));
}
