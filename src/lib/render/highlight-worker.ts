/**
 * A highlight worker thread (see `highlight-pool.ts`): highlights the blocks it is sent with the same
 * `highlightLines` the pages use (same Shiki, same cache key, and it writes the same disk cache), and posts the
 * lines back. Run from its source file by Node's type stripping; it imports only the render helpers.
 */
import { parentPort } from 'node:worker_threads';
import { highlightLines } from './highlight.ts';

/** One job: a block's text and language; answered with `{ id, lines }` or `{ id, error }`. */
interface Job {
  id: number;
  code: string;
  lang: string;
}

parentPort?.on('message', (job: Job) => {
  highlightLines(job.code, job.lang).then(
    (lines) => parentPort?.postMessage({ id: job.id, lines }),
    (error: unknown) => parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
