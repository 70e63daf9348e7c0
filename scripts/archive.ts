/**
 * `npm run archive`: keep what Antigravity wrote in the archive store before it rolls off disk. A thin layer over
 * `src/lib/store/`.
 *
 *   (no option)                snapshot every live session (only files whose size or mtime changed), print what was kept
 *   --watch                    snapshot once, then stay up and snapshot a session a few seconds after it is written
 *   --forget <uuid|prefix>     name the stored session(s) it would remove; remove with --yes
 *   --export FILE [--raw]      write a copy of the store safe to share (redacted; --raw: not redacted)
 *
 * Inputs as for the build: GEMINI_HOME / BRAIN_ROOTS, ARCHIVE_STORE (the store file). Safe from cron: concurrent
 * runs wait for each other (SQLite busy timeout), exit code 0 unless the store cannot be used (then 2, with a hint)
 * or the arguments are wrong (1).
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { discoverSessions, discoveryOptionsFromEnv } from '../src/lib/brain/index.ts';
import { snapshotPhase } from '../src/lib/archive/snapshot-phase.ts';
// Not the store's index: `manage.ts` (export, forget) loads the redactor and secretlint, which a snapshot from cron
// every few minutes does not need (it is imported when --export or --forget asks for it).
import { storePathFromEnv } from '../src/lib/store/location.ts';
import { closeStore, diagnoseStoreFailure, openStore } from '../src/lib/store/schema.ts';
import { describeSessions, snapshotSession } from '../src/lib/store/snapshot.ts';
import { snapshotConversation } from '../src/lib/store/conversation.ts';

/** How long a session must be quiet before a watched snapshot (Antigravity writes a step as several appends). */
const WATCH_QUIET_MS = Number(process.env.ARCHIVE_WATCH_QUIET_MS) || 2_000;
/** The longest a busy session waits for its snapshot, however often it is written. */
const WATCH_MAX_WAIT_MS = 10_000;

const log = { info: (m: string) => console.log(m), warn: (m: string) => console.warn(m) };

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      watch: { type: 'boolean' },
      forget: { type: 'string' },
      yes: { type: 'boolean' },
      export: { type: 'string' },
      raw: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }).values;
}
try {
  args = parse();
} catch (error) {
  fail(`${(error as Error).message}\nHint: npm run archive -- [--watch | --forget <uuid or prefix> [--yes] | --export FILE [--raw]]`);
}
if (args.help) {
  console.log('npm run archive -- [--watch | --forget <uuid or prefix> [--yes] | --export FILE [--raw]]');
  process.exit(0);
}

const store = storePathFromEnv();
if (!store) fail('ARCHIVE_STORE=none: there is no store to write.\nHint: unset ARCHIVE_STORE, or set it to a file path.');

try {
  if (args.forget !== undefined) await forget(store, args.forget, args.yes === true);
  else if (args.export !== undefined) await exportTo(store, path.resolve(args.export), args.raw === true);
  else {
    const outcome = await snapshotPhase(process.env, log, { verbose: true });
    if ('skipped' in outcome) console.log(`archive: ${outcome.skipped}.`);
    if (args.watch) await watchRoots(store);
  }
} catch (error) {
  const stop = diagnoseStoreFailure(error, store);
  if (stop) fail(stop.message, 2);
  throw error;
}

async function forget(file: string, prefix: string, yes: boolean): Promise<void> {
  const { forgetCandidates, forgetSession } = await import('../src/lib/store/manage.ts');
  const db = openStore(file);
  try {
    const candidates = forgetCandidates(db, prefix);
    if (candidates.length === 0) fail(`No stored session id starts with "${prefix}" (store ${file}).\nHint: npm run sessions lists them.`);
    if (candidates.length > 1) {
      console.error(`"${prefix}" matches ${candidates.length} stored sessions; give more of the id:`);
      for (const c of candidates) console.error(`  ${c.id}  ${c.product}`);
      process.exit(1);
    }
    const c = candidates[0] as (typeof candidates)[number];
    const what =
      `session ${c.id} (${c.product}; first seen ${c.firstSeen}, last seen ${c.lastSeen}` +
      `${c.goneSince ? `, not on disk since ${c.goneSince}` : ', still on disk'}): ${c.lines} transcript records, ${c.versions} file versions`;
    if (!yes) {
      console.log(`Would remove ${what} from ${file}.`);
      console.log('Hint: run again with --yes to remove it. A session still on disk is stored again by the next snapshot.');
      process.exit(1);
    }
    forgetSession(db, c.id);
    console.log(`Removed ${what}.`);
  } finally {
    closeStore(db, file);
  }
}

async function exportTo(file: string, to: string, raw: boolean): Promise<void> {
  const { exportStore } = await import('../src/lib/store/manage.ts');
  const db = openStore(file);
  try {
    const summary = await exportStore(db, to, { raw });
    console.log(
      `Exported ${summary.sessions} session(s) to ${summary.file}` +
        (summary.redacted
          ? `, redacted (${summary.textsRedacted} text(s) had secrets replaced).`
          : '. NOT redacted (--raw): it holds every secret the transcripts held; do not share it.'),
    );
  } finally {
    closeStore(db, file);
  }
}

/**
 * Stay up: watch every brain root (recursive `fs.watch`, inotify on Linux), and snapshot a session once it has
 * been quiet for WATCH_QUIET_MS (at most WATCH_MAX_WAIT_MS after its first change), so full-fidelity text is kept
 * before it rolls off. One snapshot at a time; the store's transaction per session keeps each one whole.
 */
async function watchRoots(file: string): Promise<void> {
  const options = discoveryOptionsFromEnv();
  const { roots } = await discoverSessions(options);
  if (roots.length === 0) fail('archive --watch: no brain folder found.\nHint: set GEMINI_HOME or BRAIN_ROOTS.');
  const db = openStore(file);
  const pending = new Map<string, { timer: NodeJS.Timeout; since: number }>();
  let queue = Promise.resolve();
  const snapshotLater = (id: string): void => {
    const now = Date.now();
    const known = pending.get(id);
    if (known) clearTimeout(known.timer);
    const since = known?.since ?? now;
    const wait = Math.max(0, Math.min(WATCH_QUIET_MS, since + WATCH_MAX_WAIT_MS - now));
    const timer = setTimeout(() => {
      pending.delete(id);
      queue = queue.then(() => snapshotOne(id)).catch((error: unknown) => console.error(`archive --watch: ${String(error)}`));
    }, wait);
    pending.set(id, { timer, since });
  };
  const snapshotOne = async (id: string): Promise<void> => {
    const { sessions } = await discoverSessions(options);
    const ref = sessions.find((r) => r.id === id);
    if (!ref) return; // deleted: the next full run marks it
    const s = await snapshotSession(db, ref);
    // Its conversation database too (`.db` and `-wal` are watched below): a step Antigravity writes there only.
    const dbChanged = await snapshotConversation(db, ref, new Date().toISOString());
    if (s.status === 'unchanged') {
      if (dbChanged) console.log(`${new Date().toISOString().slice(11, 19)} ${id.slice(0, 8)}: conversation database changed, kept`);
      return;
    }
    const stamp = new Date().toISOString().slice(11, 19);
    for (const line of describeSessions({ sessions: [s], goneNow: [], goneTotal: 0, ms: 0 })) console.log(`${stamp}${line}`);
  };
  const watchers: FSWatcher[] = [];
  for (const root of roots) {
    watchers.push(
      watch(root.path, { recursive: true }, (_event, name) => {
        if (!name) return;
        const id = String(name).split(path.sep)[0]?.toLowerCase();
        if (id && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) snapshotLater(id);
      }),
    );
  }
  // The conversation databases beside each brain folder: `<uuid>.db` and its `-wal` (the `-shm` is an index).
  for (const root of roots) {
    try {
      watchers.push(
        watch(path.join(path.dirname(root.path), 'conversations'), (_event, name) => {
          const m = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.db(?:-wal)?$/i.exec(String(name ?? ''));
          if (m?.[1]) snapshotLater(m[1].toLowerCase());
        }),
      );
    } catch {
      // No conversations folder beside this brain folder (older Antigravity versions): nothing to watch.
    }
  }
  console.log(`archive --watch: watching ${roots.length} brain folder(s); Ctrl-C to stop.`);
  const stop = (): void => {
    for (const w of watchers) w.close();
    // What was written but not yet snapshotted is snapshotted now, not dropped.
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      queue = queue.then(() => snapshotOne(id)).catch((error: unknown) => console.error(`archive --watch: ${String(error)}`));
    }
    pending.clear();
    void queue.finally(() => {
      closeStore(db, file);
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await new Promise(() => undefined);
}
