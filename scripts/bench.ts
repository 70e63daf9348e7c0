/**
 * `npm run bench -- --steps N` (default 100000): write a synthetic GEMINI_HOME of N steps, then measure in one run
 * (1) the framework floor (Astro with N trivial pages + Pagefind with our integration), (2) our cold build (fresh
 * cache and out dir), (3) our warm rebuild after adding one session (same cache), each as wall time and peak RSS of
 * the whole process tree, plus the time to the first search result in headless Chromium. Prints a table and writes
 * `bench-results.json` at the project root.
 *
 * Before the builds, the archive store (issue 12), each `npm run archive` as a child process, into a store of its
 * own: a snapshot of the whole home into an empty store, a second with nothing changed (target ≤ 1 s), one after a
 * new session was written (target ≤ 2 s; the session is removed again before the builds), and the store's size
 * against the home's bytes. The builds then snapshot into their own empty store (the cold build's time includes it).
 *
 * Output size: the files and bytes the cold build wrote (bytes per step), then the precompress phase alone over the
 * warm site (`.gz` and `.br` copies, ARCHIVE_PRECOMPRESS=gzip,br) with its time, memory and the copies' bytes.
 *
 * Conversation databases (issue 29 point 7): the later half of the home's sessions have one. The `db-read` phase reads
 * them all once, alone, as the build does (`scripts/bench/conversation-dbs.ts`); each store phase and build runs with
 * TMPDIR in the work folder, watched, so the results count the databases each one read (a read is a private copy in
 * a folder of its own: the cold build reads each twice, the snapshot and the pages; the no-op build must read none).
 *
 * Flags: --steps N, --seed S (1), --keep (keep the work folder), --skip-floor, --skip-search, --skip-precompress, --cpu-prof (profile
 * the cold build's Node processes, summary in the results), --query WORD (default `vitest`), --work DIR
 * (default bench-work/), --store-only (the store phases only; results in <work>/bench-store.json), --no-store (the
 * builds with ARCHIVE_STORE=none, reading the folders as before the store, to compare), --no-db (the same home
 * without its conversation databases, same transcripts, to compare). The same ARCHIVE_MAX_OLD_SPACE_MB heap flag as `npm run build` is used for the floor.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { summariseProfiles, type ProfileSummary } from './bench/cpu-profile.ts';
import { writeFloorProject } from './bench/floor.ts';
import { measure, siteSize, type Measurement, type SiteSize } from './bench/measure.ts';
import { pageWeights } from './bench/page-weight.ts';
import { timeFirstSearch, type SearchTiming } from './bench/search.ts';
import { assertChromium } from './lib/chromium.ts';
import { watchDbCopies } from './bench/db-copies.ts';
import type { DbReadFigures } from './bench/conversation-dbs.ts';
import { writeSyntheticHome, writeSyntheticSession } from './bench/synthetic-home.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values: flags } = parseArgs({
  options: {
    steps: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
    keep: { type: 'boolean', default: false },
    'skip-floor': { type: 'boolean', default: false },
    'skip-search': { type: 'boolean', default: false },
    'skip-precompress': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    query: { type: 'string', default: 'vitest' },
    work: { type: 'string', default: 'bench-work' },
    'store-only': { type: 'boolean', default: false },
    'no-store': { type: 'boolean', default: false },
    'no-db': { type: 'boolean', default: false },
  },
});

const steps = Number(flags.steps);
if (!Number.isInteger(steps) || steps < 1) {
  console.error(`--steps must be a positive integer, got ${flags.steps}. Hint: npm run bench -- --steps 2000`);
  process.exit(2);
}
if (!flags['skip-search']) {
  try {
    assertChromium();
  } catch (error) {
    console.error(`${(error as Error).message} Or pass --skip-search to leave search_ms out.`);
    process.exit(2);
  }
}

const heapMb = Number(process.env.ARCHIVE_MAX_OLD_SPACE_MB) || 8192;
const work = path.resolve(projectRoot, flags.work, `run-${steps}`);
const home = path.join(work, 'home');
const cache = path.join(work, 'cache');
const out = path.join(work, 'out');
/** The bench's own archive store (never the user's): the cold build snapshots into it empty. */
const store = path.join(work, 'archive.sqlite');
const floorDir = path.join(work, 'floor');
const profDir = path.join(work, 'prof');
/** TMPDIR of every store phase and build, watched: each conversation database read is a folder created there. */
const buildTmp = path.join(work, 'tmp');
const withDatabases = !flags['no-db'];
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const say = (s: string) => console.log(`[bench] ${s}`);
const load = () => os.loadavg().map((n) => n.toFixed(2)).join(' ');

say(`writing a synthetic home of ${steps} steps → ${home}`);
const t0 = performance.now();
const written = writeSyntheticHome(home, { steps, seed: Number(flags.seed), databases: withDatabases });
const homeS = (performance.now() - t0) / 1000;
say(
  `${written.sessions.length} sessions, ${(written.bytes / 2 ** 20).toFixed(0)} MiB in ${homeS.toFixed(1)} s; ` +
    `${written.databases.count} conversation databases (${(written.databases.bytes / 2 ** 20).toFixed(1)} MiB)${withDatabases ? '' : ' (--no-db)'}`,
);
const dbCopies = await watchDbCopies(buildTmp);
/** Conversation databases read per phase (store phases and builds), from the private copies made in `buildTmp`. */
const dbReads: Record<string, number> = {};
async function countDbReads<T>(label: string, run: () => Promise<T>): Promise<T> {
  await dbCopies.reset();
  const result = await run();
  dbReads[label] = await dbCopies.count();
  return result;
}

/** Env for our build: only our variables, nothing inherited that would change discovery. */
function buildEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GEMINI_HOME: home, ARCHIVE_OUT_DIR: out, ARCHIVE_CACHE_DIR: cache, ARCHIVE_STORE: flags['no-store'] ? 'none' : store, ARCHIVE_STORES: '', TMPDIR: buildTmp, ...extra };
  delete env.BRAIN_ROOTS;
  delete env.ARCHIVE_BASE;
  return env;
}

const loads: Record<string, string> = {};

/** Each phase as soon as it is measured, so a run that is stopped half-way still leaves its numbers. */
const done: Record<string, unknown> = {};
function record(m: Measurement, extra: Record<string, unknown> = {}): void {
  done[m.label] = { ...m, ...extra, load_before: loads[m.label] };
  writeFileSync(path.join(work, 'bench-partial.json'), `${JSON.stringify({ steps, phases: done }, null, 2)}\n`);
}

function failIfBad(m: Measurement): void {
  if (m.exitCode === 0) return;
  const tail = readFileSync(m.log, 'utf8').split('\n').slice(-30).join('\n');
  console.error(`[bench] ${m.label} failed with exit code ${m.exitCode}. Last lines of ${m.log}:\n${tail}`);
  process.exit(1);
}

async function search(dir: string, query: string): Promise<SearchTiming | undefined> {
  if (flags['skip-search']) return undefined;
  try {
    return await timeFirstSearch(dir, query);
  } catch (error) {
    say(`search timing failed: ${(error as Error).message}`);
    return undefined;
  }
}

/** Pages written (index.html files) and the search step's own report line, from the build's output. */
function siteFacts(dir: string, log: string): { pages: number; pagefindLine?: string } {
  let pages = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else if (e.name.endsWith('.html')) pages++;
    }
  };
  if (existsSync(dir)) walk(dir);
  const pagefindLine = readFileSync(log, 'utf8').split('\n').find((l) => l.includes('search index:'))?.trim();
  return { pages, pagefindLine };
}

/**
 * What the search index holds: its documents (Pagefind's page count over every bundle and language, from each
 * bundle's `pagefind-entry.json`), languages, and the files and bytes of the index.
 */
function indexFacts(dir: string): { documents: number; languages: Record<string, number>; files: number; bytes: number } {
  const root = path.join(dir, 'pagefind');
  const facts = { documents: 0, languages: {} as Record<string, number>, files: 0, bytes: 0 };
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else {
        facts.files++;
        facts.bytes += statSync(full).size;
        if (e.name === 'pagefind-entry.json') {
          const entry = JSON.parse(readFileSync(full, 'utf8')) as { languages?: Record<string, { page_count?: number }> };
          for (const [lang, index] of Object.entries(entry.languages ?? {})) {
            facts.documents += index.page_count ?? 0;
            facts.languages[lang] = (facts.languages[lang] ?? 0) + (index.page_count ?? 0);
          }
        }
      }
    }
  };
  if (existsSync(root)) walk(root);
  return facts;
}

/** The run's own figure from `npm run archive`'s closing line (`… in 0.4 s.`), without Node's start-up. */
function reportedSnapshotS(log: string): number | null {
  const m = /file versions? in ([\d.]+) s\./.exec(readFileSync(log, 'utf8'));
  return m ? Number(m[1]) : null;
}

// What reading the conversation databases costs alone: one pass over all of them, as the build reads each.
let dbRead: { m: Measurement; figures: DbReadFigures } | undefined;
if (written.databases.count > 0) {
  loads['db-read'] = load();
  say(`db-read: every conversation database read once, alone (load ${loads['db-read']})`);
  const m = await measure('db-read', process.execPath, [path.join(projectRoot, 'scripts/bench/conversation-dbs.ts'), home], {
    cwd: projectRoot,
    env: { ...process.env, TMPDIR: buildTmp },
    logFile: path.join(work, 'db-read.log'),
  });
  failIfBad(m);
  const figures = JSON.parse(readFileSync(m.log, 'utf8').trim().split('\n').pop() ?? '{}') as DbReadFigures;
  dbRead = { m, figures };
  record(m, { figures });
  say(`db-read: ${figures.databases} databases, ${figures.steps} steps and ${figures.calls} model calls in ${(figures.read_ms / 1000).toFixed(2)} s (process ${m.wallS} s)`);
}

const storeBench = path.join(work, 'store-bench.sqlite');
const archiveRun = (label: string) =>
  countDbReads(label, () =>
    measure(label, process.execPath, [path.join(projectRoot, 'scripts/archive.ts')], {
      cwd: projectRoot,
      env: { ...buildEnv(), ARCHIVE_STORE: storeBench },
      logFile: path.join(work, `${label}.log`),
    }),
  );
const storeBytes = (): number => [storeBench, `${storeBench}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
loads['snapshot-empty'] = load();
say(`store: snapshot of the whole home into an empty store (load ${loads['snapshot-empty']})`);
const snapEmpty = await archiveRun('snapshot-empty');
failIfBad(snapEmpty);
record(snapEmpty, { reported_s: reportedSnapshotS(snapEmpty.log), store_bytes: storeBytes() });
const snapUnchanged = await archiveRun('snapshot-unchanged');
failIfBad(snapUnchanged);
record(snapUnchanged, { reported_s: reportedSnapshotS(snapUnchanged.log) });
const extra = writeSyntheticSession(home, { steps: 300, seed: Number(flags.seed) + 2_000_003, product: 'antigravity', dayOffset: 5001, database: withDatabases });
const snapNew = await archiveRun('snapshot-new-session');
failIfBad(snapNew);
record(snapNew, { reported_s: reportedSnapshotS(snapNew.log), session_steps: extra.entries });
rmSync(extra.dir, { recursive: true, force: true });
for (const suffix of ['', '-wal', '-shm']) if (extra.database) rmSync(`${extra.database.path}${suffix}`, { force: true });
const storeResult = {
  home_bytes: written.bytes,
  store_bytes: storeBytes(),
  store_to_home: Math.round((storeBytes() / written.bytes) * 100) / 100,
  snapshot_empty: { wall_s: snapEmpty.wallS, reported_s: reportedSnapshotS(snapEmpty.log), peak_rss_mib: snapEmpty.peakTreeRssMib },
  snapshot_unchanged: { wall_s: snapUnchanged.wallS, reported_s: reportedSnapshotS(snapUnchanged.log), target_s: 1 },
  snapshot_new_session: { wall_s: snapNew.wallS, reported_s: reportedSnapshotS(snapNew.log), target_s: 2, steps: extra.entries },
};
say(
  `store: empty ${snapEmpty.wallS} s (${storeResult.snapshot_empty.reported_s} s in the run), unchanged ${snapUnchanged.wallS} s ` +
    `(${storeResult.snapshot_unchanged.reported_s} s), new session ${snapNew.wallS} s (${storeResult.snapshot_new_session.reported_s} s); ` +
    `store ${(storeResult.store_bytes / 2 ** 20).toFixed(1)} MiB for a ${(written.bytes / 2 ** 20).toFixed(1)} MiB home (${storeResult.store_to_home} ×); ` +
    `conversation databases read: ${dbReads['snapshot-empty']} (empty), ${dbReads['snapshot-unchanged']} (unchanged), ${dbReads['snapshot-new-session']} (new session)`,
);
if (flags['store-only']) {
  writeFileSync(path.join(work, 'bench-store.json'), `${JSON.stringify({ steps, date: new Date().toISOString(), node: process.version, loads, store: storeResult, databases: { home: written.databases, read: dbRead?.figures ?? null, reads_per_phase: dbReads } }, null, 2)}\n`);
  console.log(`\nwrote ${path.join(work, 'bench-store.json')}`);
  if (!flags.keep) rmSync(home, { recursive: true, force: true });
  process.exit(0);
}

let floor: Measurement | undefined;
let floorSearch: SearchTiming | undefined;
if (!flags['skip-floor']) {
  writeFloorProject(floorDir, projectRoot, steps);
  loads.floor = load();
  say(`floor: astro build of ${steps} trivial pages + pagefind (load ${loads.floor})`);
  floor = await measure('floor', process.execPath, [`--max-old-space-size=${heapMb}`, path.join(projectRoot, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: floorDir,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
    logFile: path.join(work, 'floor.log'),
  });
  record(floor);
  failIfBad(floor);
  say(`floor: ${floor.wallS} s, tree peak ${floor.peakTreeRssMib} MiB`);
  floorSearch = await search(path.join(floorDir, 'dist'), 'floor');
}

loads.cold = load();
say(`cold build (load ${loads.cold})`);
/** With --cpu-prof, each Node process of the build writes a profile into `dir`. */
const profEnv = (dir: string) =>
  flags['cpu-prof'] ? buildEnv({ NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --cpu-prof --cpu-prof-dir=${dir}`.trim() }) : buildEnv();
const coldEnv = profEnv(path.join(profDir, 'cold'));
const cold = await countDbReads('cold', () =>
  measure('cold', process.execPath, [path.join(projectRoot, 'scripts/build.ts')], {
    cwd: projectRoot,
    env: coldEnv,
    logFile: path.join(work, 'cold.log'),
  }),
);
record(cold);
failIfBad(cold);
const coldFacts = siteFacts(out, cold.log);
const coldSize = siteSize(out);
const coldIndex = indexFacts(out);
say(`search index: ${coldIndex.documents} documents (${Object.entries(coldIndex.languages).map(([l, n]) => `${l} ${n}`).join(', ')}), ${coldIndex.files} files, ${(coldIndex.bytes / 2 ** 20).toFixed(1)} MiB`);
say(`cold: ${cold.wallS} s, tree peak ${cold.peakTreeRssMib} MiB, ${coldFacts.pages} pages`);
const weights = pageWeights(out);
say(`page weight: largest session page ${weights.largestSessionPage?.bytes ?? 0} B, largest page under a session ${weights.largestPageUnderSession?.bytes ?? 0} B (${weights.largestPageUnderSession?.page ?? '—'}), ${weights.pagesOverCap} over 1.5 MB`);
const ourSearch = await search(out, flags.query);

// The daily rebuild: a session started 7 hours after the newest one (the home's sessions are 7 hours apart), so in
// the same month and most often the same week, as a new conversation is. (Until 4725996 it started ~4 years later,
// which now measures the monthly case instead: the weeks of the month before join their quarter's search shards.)
const added = writeSyntheticSession(home, { steps: 300, seed: Number(flags.seed) + 1_000_003, product: 'antigravity', dayOffset: written.sessions.length, database: withDatabases });
loads.warm = load();
say(`warm rebuild after adding session ${added.id} (${added.entries} steps) (load ${loads.warm})`);
const warm = await countDbReads('warm', () =>
  measure('warm', process.execPath, [path.join(projectRoot, 'scripts/build.ts')], {
    cwd: projectRoot,
    env: profEnv(path.join(profDir, 'warm')),
    logFile: path.join(work, 'warm.log'),
  }),
);
record(warm);
failIfBad(warm);
const warmFacts = siteFacts(out, warm.log);
say(`warm: ${warm.wallS} s, tree peak ${warm.peakTreeRssMib} MiB, ${warmFacts.pages} pages`);

// Nothing changed since the warm run: the build must say so and leave the out dir as it is.
loads.noop = load();
const buildIdBefore = readFileSync(path.join(out, '.agy-archive-build'), 'utf8');
const noop = await countDbReads('noop', () =>
  measure('noop', process.execPath, [path.join(projectRoot, 'scripts/build.ts')], {
    cwd: projectRoot,
    env: profEnv(path.join(profDir, 'noop')),
    logFile: path.join(work, 'noop.log'),
  }),
);
record(noop);
failIfBad(noop);
if (!readFileSync(noop.log, 'utf8').includes('nothing to do') || readFileSync(path.join(out, '.agy-archive-build'), 'utf8') !== buildIdBefore) {
  console.error('The build after the warm run changed nothing on disk, yet it did not say "nothing to do" and leave the out dir as it was.');
  process.exit(1);
}
say(`noop: ${noop.wallS} s`);
say(`conversation databases read: cold ${dbReads.cold}, warm ${dbReads.warm}, noop ${dbReads.noop}`);
if (dbReads.noop !== 0) console.error(`[bench] the build with nothing changed read ${dbReads.noop} conversation databases; it must read none (issue 29 point 7).`);
dbCopies.close();
/** The precompress phase alone over the warm site, as a process of its own; undefined with --skip-precompress. */
let precompress: { m: Measurement; size: SiteSize } | undefined;
if (!flags['skip-precompress']) {
  loads.precompress = load();
  say(`precompress (gzip,br) over the warm site (load ${loads.precompress})`);
  const m = await measure('precompress', process.execPath, [path.join(projectRoot, 'scripts/bench/precompress.ts'), out, 'gzip,br'], {
    cwd: projectRoot,
    env: process.env,
    logFile: path.join(work, 'precompress.log'),
  });
  record(m);
  failIfBad(m);
  precompress = { m, size: siteSize(out) };
  say(`precompress: ${m.wallS} s, peak ${m.peakTreeRssMib} MiB, gz ${(precompress.size.copies.gz.bytes / 2 ** 20).toFixed(1)} MiB, br ${(precompress.size.copies.br.bytes / 2 ** 20).toFixed(1)} MiB`);
}

let profile: { cold: ProfileSummary; warm?: ProfileSummary } | undefined;
if (flags['cpu-prof'] && existsSync(path.join(profDir, 'cold'))) {
  const warmDir = path.join(profDir, 'warm');
  profile = {
    cold: summariseProfiles(path.join(profDir, 'cold'), projectRoot),
    warm: existsSync(warmDir) ? summariseProfiles(warmDir, projectRoot) : undefined,
  };
}

const ratio = (a: number, b: number | undefined) => (b ? Math.round((a / b) * 100) / 100 : null);
const phase = (m: Measurement) => ({
  wall_s: m.wallS,
  peak_tree_rss_mib: m.peakTreeRssMib,
  peak_process_rss_mib: m.peakProcessRssMib,
  peak_process: m.peakProcess,
  programs: m.programs,
});
const results = {
  steps,
  floor_s: floor?.wallS ?? null,
  cold_s: cold.wallS,
  warm_s: warm.wallS,
  noop_s: noop.wallS,
  cold_ratio: ratio(cold.wallS, floor?.wallS),
  warm_ratio: ratio(warm.wallS, floor?.wallS),
  peak_rss_mib: Math.max(cold.peakTreeRssMib, warm.peakTreeRssMib),
  search_ms: ourSearch?.firstMs ?? null,
  indexed_documents: coldIndex.documents,
  max_single_process_rss_mib: Math.max(cold.peakProcessRssMib, warm.peakProcessRssMib),
  largest_session_page_bytes: weights.largestSessionPage?.bytes ?? null,
  largest_page_under_session_bytes: weights.largestPageUnderSession?.bytes ?? null,
  largest_conversation_page_bytes: weights.largestConversationPage?.bytes ?? null,
  conversation_pages_over_600kb: weights.conversationPagesOverTarget,
  output_files: coldSize.files,
  output_bytes: coldSize.bytes,
  output_bytes_per_step: Math.round(coldSize.bytes / steps),
  precompress_s: precompress?.m.wallS ?? null,
  precompress_gz_bytes: precompress?.size.copies.gz.bytes ?? null,
  precompress_br_bytes: precompress?.size.copies.br.bytes ?? null,
  databases: written.databases.count,
  database_bytes: written.databases.bytes,
  db_read_s: dbRead ? Math.round(dbRead.figures.read_ms / 10) / 100 : null,
  cold_db_reads: dbReads.cold,
  noop_db_reads: dbReads.noop,
  detail: {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, mem_gib: Math.round(os.totalmem() / 2 ** 30), platform: `${os.platform()} ${os.release()}` },
    node: process.version,
    heap_mb: heapMb,
    load_average_1_5_15_before: loads,
    home: { sessions: written.sessions.length + 1, mib: Math.round(written.bytes / 2 ** 20), write_s: Math.round(homeS * 10) / 10 },
    floor: floor ? phase(floor) : null,
    cold: { ...phase(cold), ...coldFacts },
    warm: { ...phase(warm), ...warmFacts },
    noop: phase(noop),
    search: { ours: ourSearch ?? null, floor: floorSearch ?? null },
    page_weight: weights,
    output: { cold: coldSize },
    index: coldIndex,
    precompress: precompress
      ? { ...phase(precompress.m), site: precompress.size, result: JSON.parse(readFileSync(precompress.m.log, 'utf8').trim().split('\n').pop() ?? 'null') as unknown }
      : null,
    cpu_profile: profile ?? null,
    store: storeResult,
    databases: {
      home: written.databases,
      with_wal: written.sessions.filter((s) => s.database?.wal).length,
      db_only_steps: written.sessions.reduce((n, s) => n + (s.database?.dbOnlySteps ?? 0), 0),
      read: dbRead ? { ...dbRead.figures, process: phase(dbRead.m) } : null,
      reads_per_phase: dbReads,
    },
  },
};
const json = `${JSON.stringify(results, null, 2)}\n`;
writeFileSync(path.join(projectRoot, 'bench-results.json'), json);
// A copy beside the logs, so several runs can be compared.
writeFileSync(path.join(work, 'bench-results.json'), json);

const row = (name: string, m: Measurement | undefined, r: number | null) =>
  m ? `| ${name.padEnd(6)} | ${m.wallS.toFixed(1).padStart(8)} | ${(r === null ? '—' : `${r.toFixed(2)}×`).padStart(6)} | ${String(m.peakTreeRssMib).padStart(14)} | ${`${m.peakProcessRssMib} (${m.peakProcess})`.padStart(22)} |` : `| ${name.padEnd(6)} | skipped |`;
console.log(`\n${steps} steps, ${os.cpus().length} cores, node ${process.version}`);
console.log('| phase  |   wall s |  ratio | tree peak MiB  |  max process MiB (who) |');
console.log('|--------|----------|--------|----------------|------------------------|');
console.log(row('floor', floor, floor ? 1 : null));
console.log(row('cold', cold, results.cold_ratio));
console.log(row('warm', warm, results.warm_ratio));
console.log(`page weight: largest session page ${weights.largestSessionPage ? `${weights.largestSessionPage.bytes} B (${weights.largestSessionPage.page})` : '—'}; largest page under a session ${weights.largestPageUnderSession ? `${weights.largestPageUnderSession.bytes} B (${weights.largestPageUnderSession.page})` : '—'}; ${weights.pagesOverCap} pages over 1.5 MB; largest conversation page ${weights.largestConversationPage ? `${weights.largestConversationPage.bytes} B (${weights.largestConversationPage.page})` : '—'}, ${weights.conversationPagesOverTarget} over 600 KB`);
console.log(row('noop', noop, ratio(noop.wallS, floor?.wallS)));
console.log(
  `conversation databases: ${written.databases.count} (${(written.databases.bytes / 2 ** 20).toFixed(1)} MiB)${flags['no-db'] ? ' (--no-db)' : ''}; ` +
    `${dbRead ? `reading them all once, alone: ${results.db_read_s} s (${dbRead.figures.steps} steps, ${dbRead.figures.calls} model calls); ` : ''}` +
    `read by the cold build ${dbReads.cold} times, the warm ${dbReads.warm}, the noop ${dbReads.noop}`,
);
console.log(`output: ${coldSize.files} files, ${(coldSize.bytes / 2 ** 20).toFixed(1)} MiB (${results.output_bytes_per_step} bytes per step)${precompress ? `; precompress ${precompress.m.wallS} s → gz ${(precompress.size.copies.gz.bytes / 2 ** 20).toFixed(1)} MiB (${precompress.size.copies.gz.files} files), br ${(precompress.size.copies.br.bytes / 2 ** 20).toFixed(1)} MiB` : ''}`);
console.log(
  `search_ms (first results, fresh Chromium): ${
    ourSearch
      ? `${ourSearch.firstMs} ms for "${ourSearch.query}" over ${ourSearch.shards} bundles (${ourSearch.results} results; again ${ourSearch.repeatMs} ms); ` +
        `start-up ${ourSearch.startupMs} ms (import ${ourSearch.importMs}, init and merges ${ourSearch.initMs}); ` +
        `a shared ?q= link ${ourSearch.coldMs} ms to its first result; first opening of a filter group ${ourSearch.filtersMs} ms`
      : 'not measured'
  }`,
);
for (const [name, p] of Object.entries(profile ?? {})) {
  if (!p) continue;
  console.log(`\n${name} build CPU profile (self time by bucket, ${p.totalMs} ms over its Node processes):`);
  for (const f of p.byCategory) console.log(`  ${String(f.ms).padStart(8)} ms  ${f.name}`);
}
console.log(`\nwrote bench-results.json; logs in ${work}`);
if (!flags.keep) {
  for (const d of [home, out, floorDir, cache]) rmSync(d, { recursive: true, force: true });
}
