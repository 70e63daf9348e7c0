/**
 * `node scripts/bench/real-corpus.ts [--runs N] [--work DIR]`: what the conversation databases cost a build of the
 * real corpus (issue 29 point 7: "at most a few seconds to a cold build, nothing to a rebuild with nothing changed").
 * Builds every real session of `../shared/` (real-brains, real-eras, real-db) cold, with a fresh out dir, cache and
 * store each time, alternately as it is and without real-db's `conversations/` folders (a copy under the work folder
 * of real-db's product folders without them; brains, annotations and summaries kept), N times each (default 3), then
 * once more each with nothing changed. Reports every run, the medians and their difference, how many databases each
 * build read (counted from the private copies each read makes, `db-copies.ts`), and the databases read alone once
 * (`conversation-dbs.ts`). Results in `<work>/real-corpus.json`. Nothing is written under `../shared/`.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { findConversationDbs, readAllConversationDbs } from './conversation-dbs.ts';
import { watchDbCopies } from './db-copies.ts';
import { measure, type Measurement } from './measure.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    work: { type: 'string', default: 'bench-work/real-corpus' },
    shared: { type: 'string', default: path.resolve(projectRoot, '..', 'shared') },
  },
});
const runs = Number(flags.runs);
const shared = path.resolve(flags.shared);
const work = path.resolve(projectRoot, flags.work);
const realDb = path.join(shared, 'real-db');
if (!existsSync(realDb)) {
  console.error(`No real corpus at ${shared} (real-db missing). Hint: --shared /work/shared`);
  process.exit(2);
}
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const say = (s: string) => console.log(`[real-corpus] ${s}`);

/** Every `<home>/<product>/brain` under a real-* folder (`real-db/<who>/gemini/<product>/brain`, `real-brains/gemini/<product>/brain`). */
function brainRoots(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const full = path.join(d, e.name);
      if (e.name === 'brain') out.push(full);
      else if (depth < 4) walk(full, depth + 1);
    }
  };
  if (existsSync(dir)) walk(dir, 0);
  return out.sort();
}

// real-db without its databases: its product folders copied but for `conversations/`.
const bare = path.join(work, 'real-db-without-databases');
cpSync(realDb, bare, { recursive: true, preserveTimestamps: true, filter: (src) => path.basename(src) !== 'conversations' });
const others = ['real-brains', 'real-eras'].flatMap((d) => brainRoots(path.join(shared, d)));
const roots = { with: [...others, ...brainRoots(realDb)], without: [...others, ...brainRoots(bare)] };
const dbs = findConversationDbs(realDb);
say(`${roots.with.length} brain roots; real-db holds ${dbs.length} conversation databases`);

const tmp = path.join(work, 'tmp');
const copies = await watchDbCopies(tmp);

interface Run {
  label: string;
  wall_s: number;
  db_reads: number;
  load_before: string;
}
const results: Run[] = [];

async function build(kind: 'with' | 'without', label: string, fresh: boolean): Promise<Run> {
  const dir = path.join(work, kind);
  if (fresh) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const load = os.loadavg().map((n) => n.toFixed(2)).join(' ');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BRAIN_ROOTS: roots[kind].join(':'),
    ARCHIVE_OUT_DIR: path.join(dir, 'out'),
    ARCHIVE_CACHE_DIR: path.join(dir, 'cache'),
    ARCHIVE_STORE: path.join(dir, 'archive.sqlite'),
    ARCHIVE_STORES: '',
    TMPDIR: tmp,
  };
  delete env.GEMINI_HOME;
  delete env.ARCHIVE_BASE;
  await copies.reset();
  const m: Measurement = await measure(label, process.execPath, [path.join(projectRoot, 'scripts/build.ts')], { cwd: projectRoot, env, logFile: path.join(work, `${label}.log`) });
  const reads = await copies.count();
  if (m.exitCode !== 0) {
    console.error(`${label} failed (exit code ${m.exitCode}); last lines of ${m.log}:\n${readFileSync(m.log, 'utf8').split('\n').slice(-20).join('\n')}`);
    process.exit(1);
  }
  const run = { label, wall_s: m.wallS, db_reads: reads, load_before: load };
  say(`${label}: ${m.wallS} s, ${reads} database reads (load before ${load})`);
  results.push(run);
  return run;
}

const cold: Record<'with' | 'without', number[]> = { with: [], without: [] };
for (let i = 1; i <= runs; i++) {
  // Alternated, so a machine that slows down or speeds up during the runs weighs on both alike.
  for (const kind of i % 2 === 1 ? (['with', 'without'] as const) : (['without', 'with'] as const)) {
    cold[kind].push((await build(kind, `cold-${kind}-${i}`, true)).wall_s);
  }
}
const noop = { with: await build('with', 'noop-with', false), without: await build('without', 'noop-without', false) };
copies.close();
for (const [kind, run] of Object.entries(noop)) {
  if (!readFileSync(path.join(work, `${run.label}.log`), 'utf8').includes('nothing to do')) console.error(`[real-corpus] the ${kind} rebuild did not say "nothing to do"`);
}
const alone = await readAllConversationDbs(dbs);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const round = (n: number) => Math.round(n * 100) / 100;
const summary = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  databases: dbs.length,
  cold_with_s: round(median(cold.with)),
  cold_without_s: round(median(cold.without)),
  cold_db_cost_s: round(median(cold.with) - median(cold.without)),
  noop_with_s: noop.with.wall_s,
  noop_without_s: noop.without.wall_s,
  noop_db_reads: noop.with.db_reads,
  cold_db_reads: results.find((r) => r.label === 'cold-with-1')?.db_reads ?? null,
  read_alone: alone,
  runs: results,
};
writeFileSync(path.join(work, 'real-corpus.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(`\nreal corpus (${roots.with.length} brain roots, ${dbs.length} conversation databases), ${runs} cold builds each, medians:`);
console.log(`  cold build with the databases    ${summary.cold_with_s} s (${cold.with.join(', ')}); ${summary.cold_db_reads} database reads`);
console.log(`  cold build without them          ${summary.cold_without_s} s (${cold.without.join(', ')})`);
console.log(`  what the databases add           ${summary.cold_db_cost_s} s`);
console.log(`  rebuild, nothing changed         ${summary.noop_with_s} s with, ${summary.noop_without_s} s without; ${summary.noop_db_reads} database reads`);
console.log(`  the databases read alone, once   ${(alone.read_ms / 1000).toFixed(2)} s (${alone.steps} steps, ${alone.calls} model calls)`);
console.log(`wrote ${path.join(work, 'real-corpus.json')}`);
