/**
 * A private copy of a conversation database and its WAL, so nothing in the user's folder is ever opened by SQLite.
 *
 * Why a copy: opening the `.db` itself, even read-only, is not read-only on disk. Read-write checkpoints the WAL into
 * it when the last connection closes (a copy of e853036a's `.db` grew from 921,600 to 954,368 bytes and its WAL
 * became empty), and a read-only open creates `-wal`/`-shm` when they are missing (real-db README §2.1). A copy of
 * `.db` and `-wal` opened in a folder of our own gets the WAL applied there; the `-shm` is only an index SQLite
 * rebuilds, so it is never read.
 *
 * Bounds: each file is opened non-blocking and must be a regular file (a FIFO would block a plain open forever),
 * at most `MAX_DB_BYTES`, read within `COPY_DEADLINE_MS`. Antigravity may write while we copy: the pair is copied
 * again (up to `COPY_ATTEMPTS` times) until size and mtime of both are the same before and after.
 */
import { constants, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Largest `.db` or `-wal` copied (the largest real one is 3.7 MB; a conversation of 10k steps stays far under). */
export const MAX_DB_BYTES = 512 * 1024 * 1024;
const COPY_DEADLINE_MS = 30_000;
/** Name prefix of each copy's folder under the temp folder: one folder per database read (the bench counts them). */
export const COPY_FOLDER_PREFIX = 'agy-archive-db-';
const COPY_ATTEMPTS = 3;

export class CopyRefused extends Error {}

interface Stamp {
  size: number;
  mtimeMs: number;
}

/** Reads one file whole into memory, refusing anything but a bounded regular file. `undefined` when it is absent. */
async function readBounded(file: string, deadline: number): Promise<{ bytes: Buffer; stamp: Stamp } | undefined> {
  let handle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CopyRefused(`cannot open it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new CopyRefused(`it is not a regular file (${st.isFIFO() ? 'a FIFO' : st.isDirectory() ? 'a folder' : 'a special file'})`);
    if (st.size > MAX_DB_BYTES) throw new CopyRefused(`it is ${st.size} bytes, over the ${MAX_DB_BYTES}-byte limit`);
    const bytes = Buffer.alloc(st.size);
    let filled = 0;
    while (filled < st.size) {
      if (Date.now() > deadline) throw new CopyRefused(`reading it took over ${COPY_DEADLINE_MS / 1000} s`);
      const { bytesRead } = await handle.read(bytes, filled, Math.min(st.size - filled, 4 << 20), filled);
      if (bytesRead === 0) break; // shrank while read: the stamp check below copies again
      filled += bytesRead;
    }
    return { bytes: bytes.subarray(0, filled), stamp: { size: st.size, mtimeMs: st.mtimeMs } };
  } finally {
    await handle.close();
  }
}

async function stampOf(file: string): Promise<Stamp | undefined> {
  try {
    const st = await fs.stat(file);
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
}

function sameStamp(a: Stamp | undefined, b: Stamp | undefined): boolean {
  return a?.size === b?.size && a?.mtimeMs === b?.mtimeMs;
}

/** The copy: where it is, and whether a WAL came with it. `dispose` removes the folder. */
export interface PrivateCopy {
  db: string;
  withWal: boolean;
  /** Set when the files kept changing while copied: the last copy is used anyway. */
  unsettled: boolean;
  dispose(): Promise<void>;
}

/**
 * Copy `<dbPath>` and `<dbPath>-wal` into a new folder under the temp folder. Throws `CopyRefused` (with why) for a
 * file that is not a bounded regular file; `undefined` when the `.db` is absent.
 */
export async function copyConversationDb(dbPath: string): Promise<PrivateCopy | undefined> {
  const deadline = Date.now() + COPY_DEADLINE_MS;
  const walPath = `${dbPath}-wal`;
  let db: Awaited<ReturnType<typeof readBounded>>;
  let wal: Awaited<ReturnType<typeof readBounded>>;
  let unsettled = true;
  for (let attempt = 0; attempt < COPY_ATTEMPTS; attempt++) {
    // The WAL first: a checkpoint between the two reads moves rows from the WAL into the `.db`, and a `.db` read
    // after it still holds them; the other order could lose them from both.
    wal = await readBounded(walPath, deadline);
    db = await readBounded(dbPath, deadline);
    if (!db) return undefined;
    const [dbNow, walNow] = await Promise.all([stampOf(dbPath), stampOf(walPath)]);
    if (sameStamp(db.stamp, dbNow) && sameStamp(wal?.stamp, walNow)) {
      unsettled = false;
      break;
    }
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), COPY_FOLDER_PREFIX));
  const dispose = () => fs.rm(dir, { recursive: true, force: true });
  try {
    const copy = path.join(dir, 'conversation.db');
    await fs.writeFile(copy, db!.bytes);
    if (wal && wal.bytes.length > 0) await fs.writeFile(`${copy}-wal`, wal.bytes);
    return { db: copy, withWal: wal !== undefined && wal.bytes.length > 0, unsettled, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
