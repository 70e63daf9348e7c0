/**
 * File access confined to one session folder. Every read goes through here so that a symlink pointing out of the
 * folder is never followed (it becomes a `symlink-outside` problem) and an unreadable file is an `unreadable`
 * problem instead of an exception. Paths given and returned are relative to the session folder.
 */
import { isUtf8 } from 'node:buffer';
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { ConversationDbRead } from './conversation-db/read.ts';
import type { ProblemBudget } from './problems.ts';
import type { Problem, TranscriptLine, TranscriptName, TranscriptRead } from './types.ts';

/**
 * Where a session's files come from when not from its folder on disk: the archive store implements it
 * (`src/lib/store/`), so the reader reads a stored session through the same functions, and does not care where it
 * came from. Paths are relative to the session folder, `/`-separated.
 */
export interface SessionSource {
  /** A folder's entries, sorted by name; a missing folder is an empty list. */
  list(rel: string): SafeEntry[];
  /** A file's bytes (at most `maxBytes`) and its whole size; `undefined` when there is no such file. */
  read(rel: string, maxBytes: number): { bytes: Buffer; size: number } | undefined;
  /**
   * One transcript's lines handed to `visit` in order, when the source keeps transcripts as records rather than
   * files (the store keeps every line it ever saw); `undefined` to read the transcript's files through `read` as on
   * disk (the store keeps `overview.txt` as a file).
   */
  transcript?(transcript: TranscriptName, budget: ProblemBudget, visit: (line: TranscriptLine) => void): TranscriptRead | undefined;
  /** The rows of the session's conversation database the source kept (the store), merged under the live database's. */
  conversation?(): ConversationDbRead | undefined;
}

/** The session folder being read and the problems found while reading it. */
export interface SessionFs {
  sessionId: string;
  /** Read through this instead of the disk (a stored session); absent for a folder on disk. */
  source?: SessionSource;
  /** Absolute path as discovered. */
  dir: string;
  /** The folder's real path (symlinks resolved), for the inside/outside check. */
  realDir: string;
  problems: Problem[];
}

/** A directory entry that is safe to open. */
export interface SafeEntry {
  name: string;
  /** Relative to the session folder, `/`-separated. */
  rel: string;
  kind: 'file' | 'dir';
  /** True for a plain file or folder (no symlink on the way): safe to open without another check. */
  plain: boolean;
}

/** Prepare confined access to `dir`. */
export async function openSessionFs(
  sessionId: string,
  dir: string,
  problems: Problem[],
  source?: SessionSource,
): Promise<SessionFs> {
  if (source) return { sessionId, dir, realDir: dir, problems, source };
  let realDir = dir;
  try {
    realDir = await fs.realpath(dir);
  } catch (error) {
    problems.push(unreadable(sessionId, '.', error));
  }
  return { sessionId, dir, realDir, problems };
}

function isInside(realDir: string, target: string): boolean {
  return target === realDir || target.startsWith(realDir + path.sep);
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

function unreadable(sessionId: string, rel: string, error: unknown): Problem {
  const code = errorCode(error);
  return {
    kind: 'unreadable',
    sessionId,
    file: rel,
    message: `Could not read ${rel}${code ? ` (${code})` : ''}; it is left out.`,
  };
}

/**
 * Where `rel` really points, or `undefined` (with a problem recorded) when it leads outside the session folder or
 * cannot be resolved. A missing path is `undefined` without a problem.
 */
async function resolveInside(sfs: SessionFs, rel: string): Promise<string | undefined> {
  const abs = path.join(sfs.dir, rel);
  try {
    const real = await fs.realpath(abs);
    if (isInside(sfs.realDir, real)) return real;
    sfs.problems.push({
      kind: 'symlink-outside',
      sessionId: sfs.sessionId,
      file: rel,
      message: `${rel} is a symlink to a place outside the session folder; it was not followed.`,
    });
    return undefined;
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') {
      sfs.problems.push(unreadable(sfs.sessionId, rel, error));
      return undefined;
    }
    // A dangling symlink: still say so when it points outside.
    try {
      const target = await fs.readlink(abs);
      const resolved = path.resolve(path.dirname(abs), target);
      sfs.problems.push({
        kind: isInside(sfs.realDir, resolved) ? 'unreadable' : 'symlink-outside',
        sessionId: sfs.sessionId,
        file: rel,
        message: isInside(sfs.realDir, resolved)
          ? `${rel} is a symlink to a missing file; it is left out.`
          : `${rel} is a symlink to a place outside the session folder; it was not followed.`,
      });
    } catch {
      // Plainly missing.
    }
    return undefined;
  }
}

/**
 * Files and folders open at once for reading, across every session read in this process. Each open and each
 * listing holds a descriptor until it is done, and the inventory reads a session's step folders all at once: 50,000
 * step folders in one session made 30,023 of them "unreadable (EMFILE)" (issue 19). Only the open-read-close of one
 * file and one folder listing take a slot (never a slot inside a slot, so it cannot deadlock).
 */
export const OPEN_FILES_AT_ONCE = 64;
const fileSlots = pLimit(OPEN_FILES_AT_ONCE);

/** Whether `abs` can be found by its name as decoded (false for a name whose bytes are not UTF-8). */
async function existsByName(abs: string): Promise<boolean> {
  try {
    await fs.lstat(abs);
    return true;
  } catch {
    return false;
  }
}

/** List a folder inside the session; missing folder = empty list. Symlinks are checked and followed only inside. */
export async function listDir(sfs: SessionFs, rel: string): Promise<SafeEntry[]> {
  if (sfs.source) return sfs.source.list(rel);
  let abs = sfs.dir;
  if (rel !== '.') {
    // The folder itself (or a folder on the way) may be a symlink out of the session.
    const real = await resolveInside(sfs, rel);
    if (real === undefined) return [];
    abs = real;
  }
  let dirents;
  try {
    dirents = await fileSlots(() => fs.readdir(abs, { withFileTypes: true }));
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') sfs.problems.push(unreadable(sfs.sessionId, rel, error));
    return [];
  }
  const out: SafeEntry[] = [];
  for (const d of dirents) {
    const childRel = rel === '.' ? d.name : `${rel}/${d.name}`;
    if (d.name.includes('\uFFFD') && !(await existsByName(path.join(abs, d.name)))) {
      // A name whose bytes are not UTF-8 comes back with U+FFFD in it and cannot be opened by that name: once
      // skipped without a word.
      sfs.problems.push({
        kind: 'unreadable',
        sessionId: sfs.sessionId,
        file: childRel,
        message: `A name in ${rel === '.' ? 'the session folder' : rel} is not UTF-8 (shown as ${JSON.stringify(d.name)}); it cannot be read by that name and is left out.`,
      });
      continue;
    }
    if (d.isFile()) out.push({ name: d.name, rel: childRel, kind: 'file', plain: true });
    else if (d.isDirectory()) out.push({ name: d.name, rel: childRel, kind: 'dir', plain: true });
    else if (d.isSymbolicLink()) {
      const real = await resolveInside(sfs, childRel);
      if (real === undefined) continue;
      try {
        const st = await fs.stat(real);
        // A symlinked folder inside the session is listed as a file-less entry: following it could loop.
        if (st.isFile()) out.push({ name: d.name, rel: childRel, kind: 'file', plain: false });
      } catch (error) {
        sfs.problems.push(unreadable(sfs.sessionId, childRel, error));
      }
    } else {
      // A FIFO, socket or device: opening it could block or read forever, so it is listed as a problem instead.
      sfs.problems.push({
        kind: 'unreadable',
        sessionId: sfs.sessionId,
        file: childRel,
        message: `${childRel} is not a regular file (a pipe, socket or device); it is left out.`,
      });
    }
  }
  out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}

/**
 * Read a listed file as text. A plain entry (no symlink on the way, checked by `listDir`) is opened without resolving
 * its path again: folders of a thousand small message files are common (SURVEY: 1,179 in 86033144). A listed file
 * that vanished before it was read is a problem.
 */
export async function readListedText(sfs: SessionFs, entry: SafeEntry, maxBytes: number): Promise<string | undefined> {
  if (!entry.plain || sfs.source) return readText(sfs, entry.rel, maxBytes);
  const got = await readOpened(sfs, entry.rel, path.join(sfs.dir, entry.rel), maxBytes, true);
  return got && decodeText(sfs, entry.rel, got.bytes, got.size);
}

/**
 * How long opening a file may take before it is given up as a problem. A last resort: with `O_NONBLOCK` a pipe opens
 * at once, so only a hung network or FUSE mount could hold an open this long.
 */
const OPEN_TIMEOUT_MS = 10_000;

/**
 * Open flags for reading a file that was listed as regular: `O_NONBLOCK` so that a file swapped for a FIFO after
 * listing opens at once instead of waiting for a writer forever (the opened descriptor is then checked and refused),
 * `O_NOFOLLOW` so that a last part swapped for a symlink is not followed (ELOOP, an `unreadable` problem).
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** The problem of a path that is not a regular file. */
function notRegular(sfs: SessionFs, rel: string): Problem {
  return {
    kind: 'unreadable',
    sessionId: sfs.sessionId,
    file: rel,
    message: `${rel} is not a regular file (a folder, pipe, socket or device); it is left out.`,
  };
}

/**
 * Open `abs` (the file `rel` of the session) and read at most `maxBytes`, refusing anything the opened descriptor
 * says is not a regular file: what was listed or stat'ed as a file may have been replaced since, and reading a FIFO
 * blocks for good. `undefined`, with a problem recorded, when it cannot be read (a missing file is a problem only
 * when `missingIsProblem`).
 */
function readOpened(
  sfs: SessionFs,
  rel: string,
  abs: string,
  maxBytes: number,
  missingIsProblem = false,
): Promise<{ bytes: Buffer; size: number } | undefined> {
  // The open timeout runs from when a slot is free, not while waiting for one.
  return fileSlots(() => readOpenedNow(sfs, rel, abs, maxBytes, missingIsProblem));
}

async function readOpenedNow(
  sfs: SessionFs,
  rel: string,
  abs: string,
  maxBytes: number,
  missingIsProblem: boolean,
): Promise<{ bytes: Buffer; size: number } | undefined> {
  let handle: FileHandle | undefined;
  try {
    const opening = fs.open(abs, READ_FLAGS);
    const stopTimer = new AbortController();
    const timedOut = sleep(OPEN_TIMEOUT_MS, undefined, { signal: stopTimer.signal }).catch(() => undefined);
    handle = await Promise.race([opening, timedOut]).finally(() => stopTimer.abort());
    if (!handle) {
      // Close it should the open ever end.
      void opening.then((late) => late.close()).catch(() => {});
      sfs.problems.push({
        kind: 'unreadable',
        sessionId: sfs.sessionId,
        file: rel,
        message: `${rel} could not be opened within ${OPEN_TIMEOUT_MS / 1000} s; it is left out.`,
      });
      return undefined;
    }
    const st = await handle.stat();
    if (!st.isFile()) {
      sfs.problems.push(notRegular(sfs, rel));
      return undefined;
    }
    const { size } = st;
    if (size <= maxBytes) return { bytes: await handle.readFile(), size };
    const bytes = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(bytes, 0, maxBytes, 0);
    return { bytes: bytes.subarray(0, bytesRead), size };
  } catch (error) {
    if (missingIsProblem || errorCode(error) !== 'ENOENT') sfs.problems.push(unreadable(sfs.sessionId, rel, error));
    return undefined;
  } finally {
    await handle?.close().catch(() => {});
  }
}

/**
 * Read a file's bytes, at most `maxBytes` (the size is returned too). `undefined` when it cannot be read. The whole
 * path is resolved and confined, not just its last part: a symlinked `.system_generated/logs/` folder pointing out
 * of the session must not publish what it points at. Only regular files are read (see `readOpened`).
 */
export async function readBytes(
  sfs: SessionFs,
  rel: string,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<{ bytes: Buffer; size: number } | undefined> {
  if (sfs.source) return sfs.source.read(rel, maxBytes);
  const target = await resolveInside(sfs, rel);
  if (target === undefined) return undefined;
  return readOpened(sfs, rel, target, maxBytes);
}

/** File size, or `undefined` (symlinks outside are reported). */
export async function fileSize(sfs: SessionFs, rel: string): Promise<number | undefined> {
  if (sfs.source) return sfs.source.read(rel, 0)?.size;
  const real = await resolveInside(sfs, rel);
  if (real === undefined) return undefined;
  try {
    return (await fs.stat(real)).size;
  } catch (error) {
    sfs.problems.push(unreadable(sfs.sessionId, rel, error));
    return undefined;
  }
}

/**
 * Read a text file, bounded: bytes past `maxBytes` are left out with a `too-large` problem; invalid UTF-8 is
 * replaced (a `bad-encoding` problem).
 */
export async function readText(sfs: SessionFs, rel: string, maxBytes: number): Promise<string | undefined> {
  const got = await readBytes(sfs, rel, maxBytes);
  if (!got) return undefined;
  return decodeText(sfs, rel, got.bytes, got.size);
}

/** Decode bytes read from `rel` as UTF-8, noting cut or invalid text as problems. */
export function decodeText(sfs: SessionFs, rel: string, bytes: Buffer, size: number): string {
  let body = bytes;
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) body = body.subarray(3);
  if (size > bytes.length) {
    sfs.problems.push({
      kind: 'too-large',
      sessionId: sfs.sessionId,
      file: rel,
      message: `${rel} is ${size} bytes; only the first ${bytes.length} bytes are kept.`,
    });
  } else if (!isUtf8(body)) {
    sfs.problems.push({
      kind: 'bad-encoding',
      sessionId: sfs.sessionId,
      file: rel,
      message: `${rel} holds bytes that are not valid UTF-8; they were replaced by U+FFFD.`,
    });
  }
  return body.toString('utf8');
}

