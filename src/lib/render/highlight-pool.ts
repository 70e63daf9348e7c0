/**
 * Highlighting on the second core. Astro renders pages on one thread; Shiki was the largest share of it. When a
 * session is first loaded, its code blocks are queued here (`prehighlight`), and 1–2 worker threads highlight them
 * ahead of the session's pages, filling the same caches (memory, through `adoptHighlight`, and disk, in the
 * worker). A page that gets to a block first highlights it itself, as before; a page that gets to a block a worker
 * is on waits for that result. Output is the same either way: the cache is keyed by content.
 *
 * Safe by design: off with `ARCHIVE_HIGHLIGHT_WORKERS=0`; a worker that fails (or cannot start) makes its block
 * highlight inline and the pool stop; workers are `ref`'d only while they hold a job, so a build never waits for an
 * idle worker to exit, and a page awaiting a worker's result keeps the process alive until it comes.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { adoptHighlight, highlightCacheKey, isHighlightKnown } from './highlight.ts';

/** A block to highlight: exactly the text and language a page will pass to `highlightLines`. */
export interface HighlightBlock {
  code: string;
  lang: string;
}

/**
 * Workers to run: `ARCHIVE_HIGHLIGHT_WORKERS` (0 turns the pool off), else one fewer than the cores (the main
 * thread renders pages), at most 2 (the measurement: two threads highlight 1.5× faster than one; more
 * would compete with Astro and Pagefind for cores).
 */
export function highlightWorkerCount(env: NodeJS.ProcessEnv = process.env): number {
  const configured = env.ARCHIVE_HIGHLIGHT_WORKERS?.trim();
  if (configured !== undefined && configured !== '') {
    const n = Number(configured);
    return Number.isInteger(n) && n >= 0 ? Math.min(n, 8) : 0;
  }
  return Math.max(0, Math.min(2, os.availableParallelism() - 1));
}

const WORKER_FILE = 'highlight-worker.ts';

/**
 * The worker's source file. From source (tests, scripts) it sits beside this module. Astro bundles this module
 * into `.prerender` chunks (under the out dir, or a build folder inside the project), where no worker file is
 * beside it: then it is found by walking up to the project's `src/lib/render/`. The name is not a literal in
 * `new URL(…)` on purpose, so Vite does not try to bundle it as an asset.
 */
export function findWorkerFile(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, WORKER_FILE)];
  for (let dir = here; ; dir = path.dirname(dir)) {
    candidates.push(path.join(dir, 'src', 'lib', 'render', WORKER_FILE));
    if (path.dirname(dir) === dir) break;
  }
  candidates.push(path.join(process.cwd(), 'src', 'lib', 'render', WORKER_FILE));
  return candidates.find((file) => existsSync(file));
}

interface Job {
  id: number;
  key: string;
  code: string;
  lang: string;
  resolve: (lines: string[]) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  running: Map<number, Job>;
}

/** Jobs kept in flight per worker: one being highlighted, one waiting in its message queue. */
const PER_WORKER = 2;

let slots: Slot[] | undefined;
let broken = false;
let nextId = 1;
const queue: Job[] = [];
/** Counters for tests and the build log. */
export const highlightPoolStats = { queued: 0, done: 0, failed: 0, skipped: 0 };

function start(): Slot[] {
  if (slots) return slots;
  slots = [];
  const count = highlightWorkerCount();
  const file = count > 0 ? findWorkerFile() : undefined;
  if (!file) return slots;
  for (let i = 0; i < count; i++) {
    try {
      const worker = new Worker(file);
      worker.unref();
      const slot: Slot = { worker, running: new Map() };
      worker.on('message', (message: { id: number; lines?: string[]; error?: string }) => {
        const job = slot.running.get(message.id);
        if (!job) return;
        slot.running.delete(message.id);
        if (message.lines) {
          highlightPoolStats.done++;
          job.resolve(message.lines);
        } else {
          highlightPoolStats.failed++;
          job.reject(new Error(message.error ?? 'worker failed'));
        }
        pump(slot);
      });
      const fail = (error: Error) => stop(slot, error);
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`highlight worker exited with code ${code}`)));
      slots.push(slot);
    } catch {
      broken = true;
    }
  }
  return slots;
}

/** A worker failed: its jobs (and every queued one) are highlighted inline by the pages; no more workers. */
function stop(slot: Slot, error: Error): void {
  broken = true;
  for (const job of slot.running.values()) job.reject(error);
  slot.running.clear();
  for (const job of queue.splice(0)) job.reject(error);
  slots = slots?.filter((s) => s !== slot);
  void slot.worker.terminate().catch(() => undefined);
}

function pump(slot: Slot): void {
  while (slot.running.size < PER_WORKER && queue.length > 0) {
    const job = queue.shift() as Job;
    // A page got there first (it is highlighting it, or did): nothing to do.
    if (isHighlightKnown(job.key)) {
      highlightPoolStats.skipped++;
      continue;
    }
    slot.running.set(job.id, job);
    // From here a page asking for this block waits for the worker's result.
    adoptHighlight(job.key, job.lang, job.code, new Promise<string[]>((resolve, reject) => {
      job.resolve = resolve;
      job.reject = reject;
    }));
    slot.worker.postMessage({ id: job.id, code: job.code, lang: job.lang });
  }
  if (slot.running.size > 0) slot.worker.ref();
  else slot.worker.unref();
}

/**
 * Queues `blocks` for the workers (in order), skipping plain text and blocks already cached or in progress.
 * Returns at once; a no-op when the pool is off or broken.
 */
export function prehighlight(blocks: Iterable<HighlightBlock>): void {
  if (broken) return;
  const pool = start();
  if (pool.length === 0) return;
  for (const block of blocks) {
    const k = highlightCacheKey(block.code, block.lang);
    if (!k || isHighlightKnown(k.key)) continue;
    queue.push({ id: nextId++, key: k.key, code: k.text, lang: k.language, resolve: () => undefined, reject: () => undefined });
    highlightPoolStats.queued++;
  }
  for (const slot of pool) pump(slot);
}

/** Waits until the queue is empty and every worker is idle (tests; a build never needs to). */
export async function drainHighlightPool(): Promise<void> {
  while (queue.length > 0 || (slots ?? []).some((s) => s.running.size > 0)) {
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Stops the workers and forgets the queue (tests). */
export async function closeHighlightPool(): Promise<void> {
  const current = slots ?? [];
  slots = undefined;
  queue.length = 0;
  broken = false;
  await Promise.all(current.map((s) => s.worker.removeAllListeners('exit').terminate()));
}
