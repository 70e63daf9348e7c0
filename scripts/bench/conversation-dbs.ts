/**
 * `node scripts/bench/conversation-dbs.ts DIR…`: what reading the conversation databases costs, alone. Finds every
 * `<product>/conversations/<uuid>.db` under the folders given (a GEMINI_HOME, `../shared/real-db`, …; brain folders
 * are not walked), reads each one as the build does (`readConversationDb`: a private copy of `.db` and `-wal`, the
 * schema, every step and call decoded), one after another, and prints a line and then the figures as JSON:
 * `{ databases, bytes, wal_bytes, steps, calls, problems, read_ms, slowest }`. A cold build reads each database
 * twice (the snapshot into the store, then the pages); a rebuild with nothing changed reads none.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { readConversationDb } from '../../src/lib/brain/conversation-db/read.ts';
import { ProblemBudget } from '../../src/lib/brain/problems.ts';
import type { Problem } from '../../src/lib/brain/types.ts';

/** The figures of one pass over the databases. */
export interface DbReadFigures {
  databases: number;
  /** Bytes of the `.db` files, and of their `-wal` files. */
  bytes: number;
  wal_bytes: number;
  /** `steps` rows and model calls read. */
  steps: number;
  calls: number;
  /** Problems the reader reported (a synthetic home has only the notices naming database-only steps). */
  problems: number;
  read_ms: number;
  slowest: { file: string; ms: number } | null;
}

/** Every `conversations/*.db` under `dir`, without walking into brain folders. */
export function findConversationDbs(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory() || e.name === 'brain' || e.name === 'node_modules') continue;
      const full = path.join(d, e.name);
      if (e.name === 'conversations') {
        for (const f of readdirSync(full)) if (f.endsWith('.db')) out.push(path.join(full, f));
      } else if (depth < 6) walk(full, depth + 1);
    }
  };
  walk(dir, 0);
  return out.sort();
}

export async function readAllConversationDbs(files: readonly string[]): Promise<DbReadFigures> {
  const size = (f: string) => statSync(f, { throwIfNoEntry: false })?.size ?? 0;
  const figures: DbReadFigures = { databases: files.length, bytes: 0, wal_bytes: 0, steps: 0, calls: 0, problems: 0, read_ms: 0, slowest: null };
  for (const file of files) {
    figures.bytes += size(file);
    figures.wal_bytes += size(`${file}-wal`);
    const problems: Problem[] = [];
    const id = path.basename(file, '.db');
    const t0 = performance.now();
    const budget = new ProblemBudget(problems, id);
    const read = await readConversationDb(file, id, budget);
    budget.close();
    const ms = performance.now() - t0;
    figures.read_ms += ms;
    if (!figures.slowest || ms > figures.slowest.ms) figures.slowest = { file, ms: Math.round(ms) };
    figures.steps += read?.db.stepRows ?? 0;
    figures.calls += read?.db.calls.length ?? 0;
    figures.problems += problems.length;
  }
  figures.read_ms = Math.round(figures.read_ms);
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dirs = process.argv.slice(2);
  if (dirs.length === 0) {
    console.error('Usage: node scripts/bench/conversation-dbs.ts DIR… (a GEMINI_HOME or any folder holding <product>/conversations/)');
    process.exit(2);
  }
  const files = dirs.flatMap((d) => findConversationDbs(path.resolve(d)));
  const f = await readAllConversationDbs(files);
  console.log(
    `${f.databases} conversation databases, ${((f.bytes + f.wal_bytes) / 2 ** 20).toFixed(1)} MiB (-wal ${(f.wal_bytes / 2 ** 20).toFixed(1)} MiB), ` +
      `${f.steps} steps and ${f.calls} model calls read in ${(f.read_ms / 1000).toFixed(2)} s` +
      `${f.slowest ? ` (slowest ${f.slowest.ms} ms: ${f.slowest.file})` : ''}, ${f.problems} problems`,
  );
  console.log(JSON.stringify(f));
}
