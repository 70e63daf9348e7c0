/**
 * Run a command and measure it: wall time, and the peak RSS of its whole process tree (the child and every
 * descendant, summed) sampled from /proc every ~200 ms, plus the largest single process and, per program name, when
 * it was alive (so `pagefind` time inside a build can be told apart from Astro's).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** What one measured run took. */
export interface Measurement {
  label: string;
  wallS: number;
  exitCode: number | null;
  /** Peak of the summed RSS of the process tree, MiB. */
  peakTreeRssMib: number;
  /** Peak RSS of any single process in the tree, MiB, and which program it was. */
  peakProcessRssMib: number;
  peakProcess: string;
  /** Per program name (`/proc/<pid>/comm`): seconds from first to last sighting, and its peak RSS (MiB). */
  programs: Record<string, { firstS: number; lastS: number; peakRssMib: number }>;
  samples: number;
  log: string;
}

const PAGE = 4096;
const MIB = 1024 * 1024;

/** Every pid's parent, from /proc/<pid>/stat (field 4, after the `(comm)` that may hold spaces). */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(name), Number(rest[1]));
    } catch {
      // The process ended between listing and reading.
    }
  }
  return out;
}

function rssOf(pid: number): { rss: number; comm: string } | undefined {
  try {
    const statm = readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ');
    return { rss: Number(statm[1]) * PAGE, comm: programName(pid) };
  } catch {
    return undefined;
  }
}

/**
 * A readable name: Node renames its main thread (`comm` is `MainThread`), so for node the script is named too,
 * e.g. `node astro.mjs`, `node build.ts`.
 */
function programName(pid: number): string {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const exe = path.basename(argv[0] ?? readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
  if (exe !== 'node') return exe;
  const script = argv.slice(1).find((a) => !a.startsWith('-'));
  return script ? `node ${path.basename(script)}` : 'node';
}

/** The pid and all its descendants. */
function tree(root: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const [pid, ppid] of parents()) {
    const list = byParent.get(ppid);
    if (list) list.push(pid);
    else byParent.set(ppid, [pid]);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    out.push(pid);
    for (const child of byParent.get(pid) ?? []) stack.push(child);
  }
  return out;
}

/** Run `cmd args` with `env` in `cwd`, output to `logFile`, sampling the tree until it exits. */
export function measure(
  label: string,
  cmd: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string; intervalMs?: number; echo?: boolean },
): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const log = createWriteStream(options.logFile);
    const started = performance.now();
    const child = spawn(cmd, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const result: Measurement = {
      label,
      wallS: 0,
      exitCode: null,
      peakTreeRssMib: 0,
      peakProcessRssMib: 0,
      peakProcess: '',
      programs: {},
      samples: 0,
      log: options.logFile,
    };
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        log.write(chunk);
        if (options.echo) process.stderr.write(chunk);
      });
    }
    const sample = () => {
      if (child.pid === undefined) return;
      const now = (performance.now() - started) / 1000;
      let sum = 0;
      for (const pid of tree(child.pid)) {
        const got = rssOf(pid);
        if (!got) continue;
        sum += got.rss;
        const mib = got.rss / MIB;
        if (mib > result.peakProcessRssMib) {
          result.peakProcessRssMib = mib;
          result.peakProcess = got.comm;
        }
        const prog = (result.programs[got.comm] ??= { firstS: now, lastS: now, peakRssMib: 0 });
        prog.lastS = now;
        prog.peakRssMib = Math.max(prog.peakRssMib, mib);
      }
      result.peakTreeRssMib = Math.max(result.peakTreeRssMib, sum / MIB);
      result.samples++;
    };
    const timer = setInterval(sample, options.intervalMs ?? 200);
    sample();
    child.on('error', (error) => {
      clearInterval(timer);
      reject(new Error(`Could not start ${cmd}: ${error.message}`));
    });
    child.on('close', (code) => {
      clearInterval(timer);
      result.wallS = (performance.now() - started) / 1000;
      result.exitCode = code;
      for (const p of Object.values(result.programs)) {
        p.firstS = round(p.firstS);
        p.lastS = round(p.lastS);
        p.peakRssMib = Math.round(p.peakRssMib);
      }
      result.peakTreeRssMib = Math.round(result.peakTreeRssMib);
      result.peakProcessRssMib = Math.round(result.peakProcessRssMib);
      result.wallS = round(result.wallS);
      log.end(() => resolve(result));
    });
  });
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** What a built site holds on disk: files and bytes, its precompressed copies (`.gz`, `.br`) counted apart. */
export interface SiteSize {
  files: number;
  bytes: number;
  copies: { gz: { files: number; bytes: number }; br: { files: number; bytes: number } };
}

/** Count the files and bytes under `dir` (nothing followed outside it: symlinks are not entered). */
export function siteSize(dir: string): SiteSize {
  const size: SiteSize = { files: 0, bytes: 0, copies: { gz: { files: 0, bytes: 0 }, br: { files: 0, bytes: 0 } } };
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const bytes = statSync(p).size;
        const copy = e.name.endsWith('.gz') ? size.copies.gz : e.name.endsWith('.br') ? size.copies.br : undefined;
        if (copy) {
          copy.files++;
          copy.bytes += bytes;
        } else {
          size.files++;
          size.bytes += bytes;
        }
      }
    }
  };
  walk(dir);
  return size;
}
