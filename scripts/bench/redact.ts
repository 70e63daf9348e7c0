/**
 * `node scripts/bench/redact.ts --home DIR [--runs N] [--redactor FILE]`: the redaction cost on its own. Reads every
 * session of a GEMINI_HOME with the reader, then times `redactSession` over each, and prints the read and redact
 * totals per run (min and median over the runs), as wall time and as this process's CPU time (user + system),
 * which moves far less than wall time when other work shares the cores. `--steps N` first writes a synthetic home of N steps into `--home`
 * (the bench's generator, `synthetic-home.ts`). `--redactor` loads `redactSession` from another copy of
 * `src/lib/redact/index.ts` (e.g. one exported from an older commit), so two redactors can be timed back to back on
 * the same machine state. The copy must sit inside the project, where `@secretlint/*` resolves, but not under
 * `node_modules/` (Node strips types only outside it): `bench-work/` (ignored by git) works, e.g.
 * `mkdir -p bench-work/old/lib/redact && git show <commit>:src/lib/redact/scan.ts > bench-work/old/lib/redact/scan.ts`
 * (the same for `index.ts` and `patterns.ts`), then `--redactor bench-work/old/lib/redact/index.ts`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import type { Session } from '../../src/lib/brain/types.ts';
import { writeSyntheticHome } from './synthetic-home.ts';

const { values: flags } = parseArgs({
  options: {
    home: { type: 'string' },
    steps: { type: 'string' },
    seed: { type: 'string', default: '1' },
    runs: { type: 'string', default: '3' },
    redactor: { type: 'string', default: path.resolve(import.meta.dirname, '../../src/lib/redact/index.ts') },
  },
});
if (!flags.home) {
  console.error('--home DIR is required. Hint: node scripts/bench/redact.ts --home /tmp/home100k --steps 100000');
  process.exit(2);
}
const home = path.resolve(flags.home);
if (flags.steps) {
  const written = writeSyntheticHome(home, { steps: Number(flags.steps), seed: Number(flags.seed) });
  console.log(`wrote ${written.sessions.length} sessions, ${written.steps} steps, ${(written.bytes / 2 ** 20).toFixed(0)} MiB → ${home}`);
}
if (!existsSync(home)) {
  console.error(`no home at ${home}. Hint: add --steps 100000 to write one.`);
  process.exit(2);
}

const { redactSession } = (await import(pathToFileURL(path.resolve(flags.redactor)).href)) as {
  redactSession: (session: Session) => Promise<{ session: Session; redactions: unknown[] }>;
};
const { sessions: refs } = await discoverSessions({ geminiHome: home });
const runs = Math.max(1, Number(flags.runs));
const readMs: number[] = [];
const redactMs: number[] = [];
const readCpuMs: number[] = [];
const redactCpuMs: number[] = [];
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
let steps = 0;
let redactions = 0;
for (let run = 0; run < runs; run++) {
  let read = 0;
  let redact = 0;
  let readCpu = 0;
  let redactCpu = 0;
  steps = 0;
  redactions = 0;
  // One session at a time, as the loader does per read slot: the whole home at once would measure the GC instead.
  for (const ref of refs) {
    const c0 = cpuMs();
    const t0 = performance.now();
    const session = await readSession(ref);
    const t1 = performance.now();
    const c1 = cpuMs();
    const result = await redactSession(session);
    const t2 = performance.now();
    const c2 = cpuMs();
    read += t1 - t0;
    redact += t2 - t1;
    readCpu += c1 - c0;
    redactCpu += c2 - c1;
    steps += session.steps.length;
    redactions += result.redactions.length;
  }
  readMs.push(read);
  redactMs.push(redact);
  readCpuMs.push(readCpu);
  redactCpuMs.push(redactCpu);
  console.log(
    `run ${run + 1}: read ${(read / 1000).toFixed(2)} s (cpu ${(readCpu / 1000).toFixed(2)} s), ` +
      `redact ${(redact / 1000).toFixed(2)} s (cpu ${(redactCpu / 1000).toFixed(2)} s)`,
  );
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `${refs.length} sessions, ${steps} steps, ${redactions} redaction places, redactor ${path.relative(process.cwd(), flags.redactor)}\n` +
    `read:   wall min ${s(Math.min(...readMs))}, median ${s(median(readMs))}; ` +
    `cpu min ${s(Math.min(...readCpuMs))}, median ${s(median(readCpuMs))}\n` +
    `redact: wall min ${s(Math.min(...redactMs))}, median ${s(median(redactMs))}; ` +
    `cpu min ${s(Math.min(...redactCpuMs))}, median ${s(median(redactCpuMs))}`,
);
