/**
 * Finding sessions: brain roots (every `$GEMINI_HOME/<product>/brain/`, or the `BRAIN_ROOTS` list), the UUID
 * folders in them, one copy per UUID (newest modification time wins), prefix resolution and newest-first order.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expandHome } from '../home-path.ts';
import type { BrainRoot, Discovery, Problem, SessionRef, ShadowedCopy } from './types.ts';

/** Session folder names: UUIDs only; anything else in a brain root is ignored. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where to look, from the environment: `BRAIN_ROOTS` (`:`-separated) replaces discovery; else `GEMINI_HOME`. */
export function discoveryOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): {
  geminiHome?: string;
  brainRoots?: string[];
} {
  const roots = (env.BRAIN_ROOTS ?? '')
    .split(':')
    .map((r) => r.trim())
    .filter((r) => r !== '')
    .map((r) => expandHome(r, env.HOME || os.homedir()));
  if (roots.length > 0) return { brainRoots: roots };
  const home = env.GEMINI_HOME?.trim();
  return { geminiHome: home ? expandHome(home, env.HOME || os.homedir()) : path.join(os.homedir(), '.gemini') };
}

/** Why `home` held no brain folder, for people: missing, a file, an empty folder, or no `<product>/brain/` in it. */
export async function whyNoBrainFolder(home: string): Promise<string> {
  try {
    const st = await fs.stat(home);
    if (!st.isDirectory()) return `${home} is a file, not a folder`;
    const names = await fs.readdir(home);
    return names.length === 0 ? `${home} is an empty folder` : `${home} holds no <product>/brain/ folder`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${home} does not exist` : `${home} cannot be read (${code ?? 'error'})`;
  }
}

function productOf(brainRoot: string): string {
  const resolved = path.resolve(brainRoot);
  return path.basename(resolved) === 'brain' ? path.basename(path.dirname(resolved)) : path.basename(resolved);
}

async function findRoots(options: { geminiHome?: string; brainRoots?: string[] }, problems: Problem[]): Promise<BrainRoot[]> {
  if (options.brainRoots && options.brainRoots.length > 0) {
    return options.brainRoots.map((r) => ({ path: path.resolve(r), product: productOf(r) }));
  }
  const home = options.geminiHome ?? path.join(os.homedir(), '.gemini');
  let entries;
  try {
    entries = await fs.readdir(home, { withFileTypes: true });
  } catch (error) {
    problems.push({
      kind: 'unreadable',
      file: home,
      message: `Cannot list ${home} (${(error as NodeJS.ErrnoException).code ?? 'error'}); set GEMINI_HOME or BRAIN_ROOTS.`,
    });
    return [];
  }
  const roots: BrainRoot[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!e.isDirectory() && !e.isSymbolicLink()) continue;
    const brain = path.join(home, e.name, 'brain');
    try {
      if ((await fs.stat(brain)).isDirectory()) roots.push({ path: path.resolve(brain), product: e.name });
    } catch {
      // No brain/ in this product folder: not a root.
    }
  }
  return roots;
}

async function sessionsIn(root: BrainRoot, problems: Problem[]): Promise<SessionRef[]> {
  let entries;
  try {
    entries = await fs.readdir(root.path, { withFileTypes: true });
  } catch (error) {
    problems.push({
      kind: 'unreadable',
      file: root.path,
      message: `Cannot list the brain folder ${root.path} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    });
    return [];
  }
  const refs = await Promise.all(
    entries
      .filter((e) => e.isDirectory() && UUID.test(e.name))
      .map(async (e): Promise<SessionRef | undefined> => {
        const dir = path.join(root.path, e.name);
        try {
          const st = await fs.stat(dir);
          let mtimeMs = st.mtimeMs;
          // Newest mtime of the folder's top level: writing a transcript deep inside does not touch the folder.
          for (const child of await fs.readdir(dir)) {
            try {
              const cst = await fs.lstat(path.join(dir, child));
              if (cst.mtimeMs > mtimeMs) mtimeMs = cst.mtimeMs;
            } catch {
              // vanished: ignore for the tie-break
            }
          }
          return { id: e.name.toLowerCase(), product: root.product, root: root.path, dir, mtimeMs, ctimeMs: st.ctimeMs };
        } catch (error) {
          problems.push({
            kind: 'unreadable',
            sessionId: e.name.toLowerCase(),
            file: root.path,
            message: `Cannot read the session folder ${e.name} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
          });
          return undefined;
        }
      }),
  );
  const found = refs.filter((r): r is SessionRef => r !== undefined);
  return withConversationDbs(root, found, problems);
}

/**
 * The conversation databases beside a brain folder (`<product>/conversations/<uuid>.db`, real-db README §1): each is
 * joined to its session, and one whose brain folder is gone is a session of its own, read from the database alone.
 * Only names are listed here (nothing is opened); a `-wal` without its `.db` is a problem.
 */
async function withConversationDbs(root: BrainRoot, refs: SessionRef[], problems: Problem[]): Promise<SessionRef[]> {
  const folder = path.join(path.dirname(root.path), 'conversations');
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch {
    return refs;
  }
  const byId = new Map(refs.map((r) => [r.id, r]));
  const dbs = new Set(names.filter((n) => n.endsWith('.db')).map((n) => n.slice(0, -3)));
  for (const name of names) {
    const id = name.endsWith('.db') ? name.slice(0, -3) : name.endsWith('.db-wal') ? name.slice(0, -7) : undefined;
    if (id === undefined || !UUID.test(id)) continue;
    const key = id.toLowerCase();
    if (name.endsWith('.db-wal')) {
      if (!dbs.has(id))
        problems.push({
          kind: 'unreadable',
          sessionId: key,
          file: `conversations/${name}`,
          message: `A write-ahead log without its database (conversations/${id}.db is missing) in ${root.product}; it cannot be read alone and is left out.`,
        });
      continue;
    }
    const dbPath = path.join(folder, name);
    let mtimeMs: number;
    let ctimeMs: number;
    try {
      const st = await fs.lstat(dbPath);
      mtimeMs = st.mtimeMs;
      ctimeMs = st.ctimeMs;
      const wal = await fs.lstat(`${dbPath}-wal`).catch(() => undefined);
      if (wal && wal.mtimeMs > mtimeMs) mtimeMs = wal.mtimeMs;
    } catch {
      continue;
    }
    const ref = byId.get(key);
    if (ref) {
      ref.conversationDb = dbPath;
      if (mtimeMs > ref.mtimeMs) ref.mtimeMs = mtimeMs;
    } else {
      refs.push({ id: key, product: root.product, root: root.path, dir: path.join(root.path, id), mtimeMs, ctimeMs, conversationDb: dbPath, noFolder: true });
    }
  }
  return refs;
}

/** Find every session under the roots. Never throws for what is on disk: problems are returned. */
export async function discoverSessions(options: { geminiHome?: string; brainRoots?: string[] }): Promise<Discovery> {
  const problems: Problem[] = [];
  const roots = await findRoots(options, problems);
  const perRoot = await Promise.all(roots.map((r) => sessionsIn(r, problems)));
  const byId = new Map<string, SessionRef[]>();
  for (const ref of perRoot.flat()) {
    const list = byId.get(ref.id);
    if (list) list.push(ref);
    else byId.set(ref.id, [ref]);
  }
  const sessions: SessionRef[] = [];
  const shadowed: ShadowedCopy[] = [];
  for (const [id, copies] of byId) {
    // Newest mtime wins; on a tie the earlier root (discovery order) wins.
    let winner = copies[0];
    for (const c of copies) if (winner && c.mtimeMs > winner.mtimeMs) winner = c;
    if (!winner) continue;
    sessions.push(winner);
    for (const c of copies) {
      if (c === winner) continue;
      shadowed.push({ id, shadowed: c, winner });
      problems.push({
        kind: 'shadowed',
        sessionId: id,
        file: c.root,
        message: `The copy in ${c.product} (modified ${new Date(c.mtimeMs).toISOString()}) is shadowed by the newer copy in ${winner.product} (modified ${new Date(winner.mtimeMs).toISOString()}).`,
      });
    }
  }
  // Before reading, the best guess at "newest first" is the modification time; compareNewestFirst orders read
  // sessions by their real start.
  sessions.sort((a, b) => b.mtimeMs - a.mtimeMs || a.id.localeCompare(b.id));
  const searched = options.brainRoots && options.brainRoots.length > 0
    ? { brainRoots: options.brainRoots.map((r) => path.resolve(r)) }
    : { geminiHome: path.resolve(options.geminiHome ?? path.join(os.homedir(), '.gemini')) };
  return { searched, roots, sessions, shadowed, problems };
}

/**
 * Whether discovery looked where `root` is: a brain folder it listed, one of the BRAIN_ROOTS it was given, or any
 * `<GEMINI_HOME>/<product>/brain/` of the home it listed, including a product folder deleted whole (its sessions are
 * gone from disk as surely as one deleted conversation). A root outside what was searched says nothing.
 */
export function searchedRoot(discovery: Discovery, root: string): boolean {
  if (discovery.roots.some((r) => r.path === root)) return true;
  const { brainRoots, geminiHome } = discovery.searched;
  if (brainRoots) return brainRoots.includes(root);
  return geminiHome !== undefined && path.basename(root) === 'brain' && path.dirname(path.dirname(root)) === geminiHome;
}

/**
 * Items whose id starts with `prefix` (case-insensitive). An exact id match returns just that item; an ambiguous
 * prefix returns every candidate.
 */
export function resolvePrefix<T extends { id: string }>(items: T[], prefix: string): T[] {
  const p = prefix.trim().toLowerCase();
  if (p === '') return [];
  const exact = items.filter((i) => i.id.toLowerCase() === p);
  if (exact.length > 0) return exact;
  return items.filter((i) => i.id.toLowerCase().startsWith(p));
}

/** Sort comparator: newest session start first; equal starts by id so the order is stable. */
export function compareNewestFirst(
  a: { id?: string; meta: { createdAt: string } },
  b: { id?: string; meta: { createdAt: string } },
): number {
  const ta = Date.parse(a.meta.createdAt);
  const tb = Date.parse(b.meta.createdAt);
  const diff = (Number.isNaN(tb) ? -Infinity : tb) - (Number.isNaN(ta) ? -Infinity : ta);
  if (diff !== 0 && !Number.isNaN(diff)) return diff > 0 ? 1 : -1;
  return (a.id ?? '').localeCompare(b.id ?? '');
}
