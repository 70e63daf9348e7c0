/**
 * The Astro adapter over the archive pipeline: content-layer loaders for the `sessions` and `archive` collections.
 * Thin on purpose: discovery, reading, redaction and summaries live in `src/lib/archive/` (no astro imports).
 *
 * Factories validate their options at once (a programmer's mistake stops the build); inside `load()` they are
 * forgiving: a session that cannot be read is logged and skipped, never fatal. Unchanged sessions are skipped by
 * digest (reader, redactor and loader versions plus every file's size and mtime), sessions gone from disk are
 * deleted, and reading is bounded in concurrency.
 */
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { READER_VERSION } from '../lib/brain/index.ts';
import { REDACTOR_VERSION } from '../lib/redact/index.ts';
import {
  ArchiveSchema,
  READ_CONCURRENCY,
  SessionSchema,
  formatTotals,
  mapBounded,
  progressReporter,
  readSessionSummary,
  resolveArchiveInputs,
  sessionFingerprint,
  type ArchiveInfo,
  type ArchiveInputs,
  type ArchiveLog,
  type SessionSummary,
} from '../lib/archive/index.ts';

/** Bump when what the loader stores changes, so every digest changes and a warm build re-reads everything. */
export const LOADER_VERSION = 'brain-loader-2';

/** Id of the one entry of the `archive` collection. */
export const ARCHIVE_ENTRY_ID = 'archive';

/** Options of the loaders. */
export interface BrainLoaderOptions {
  /** Sessions read at once (default 4). */
  concurrency?: number;
  /** Environment to read inputs from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

function checkOptions(options: BrainLoaderOptions): Required<BrainLoaderOptions> {
  const concurrency = options.concurrency ?? READ_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new Error(
      `brain loader: concurrency must be a positive integer, got ${String(options.concurrency)}. ` +
        'Hint: leave it out to use the default of 4.',
    );
  }
  return { concurrency, env: options.env ?? process.env };
}

/**
 * Discovery runs once per build and is shared by both loaders (they run in the same process, possibly at once).
 */
let inputsOnce: Promise<ArchiveInputs> | undefined;
function archiveInputs(context: LoaderContext, env: NodeJS.ProcessEnv): Promise<ArchiveInputs> {
  const log: ArchiveLog = { info: (m) => context.logger.info(m), warn: (m) => context.logger.warn(m) };
  inputsOnce ??= resolveArchiveInputs(fileURLToPath(context.config.root), env, log);
  return inputsOnce;
}

/** Loader for `sessions`: one lean entry per session (see content.config.ts for why step rows live inside). */
export function sessionsLoader(options: BrainLoaderOptions = {}): Loader {
  const { concurrency, env } = checkOptions(options);
  return {
    name: 'agy-archive-sessions',
    schema: SessionSchema,
    async load(context) {
      const started = Date.now();
      const { store, logger, generateDigest, parseData } = context;
      const inputs = await archiveInputs(context, env);
      const refs = inputs.discovery.sessions;
      logger.info(`${refs.length} sessions found in ${inputs.discovery.roots.length} brain roots (${inputs.description})`);

      const onDisk = new Set(refs.map((r) => r.id));
      for (const id of store.keys()) if (!onDisk.has(id)) store.delete(id);

      const tick = progressReporter(refs.length, context.logger);
      let read = 0;
      await mapBounded(refs, concurrency, async (ref) => {
        try {
          const digest = generateDigest({
            loader: LOADER_VERSION,
            reader: READER_VERSION,
            redactor: REDACTOR_VERSION,
            redact: inputs.redactionEnabled,
            ref: [ref.product, ref.root, ref.dir],
            files: (await sessionFingerprint(ref.dir)).join('\n'),
          });
          if (store.get(ref.id)?.digest === digest) return;
          const summary = await readSessionSummary(ref, inputs.redactionEnabled);
          const data = await parseData({ id: ref.id, data: summary });
          store.set({ id: ref.id, data, digest });
          read++;
        } catch (error) {
          logger.error(`session ${ref.id} could not be read and is left out: ${String(error)}`);
        } finally {
          tick();
        }
      });

      let steps = 0;
      let problems = inputs.discovery.problems.length;
      let redactions = 0;
      for (const [, entry] of store.entries()) {
        const s = entry.data as SessionSummary;
        steps += s.steps.length;
        problems += s.problems.length;
        redactions += s.redactions.length;
      }
      logger.info(
        formatTotals({
          sessions: store.keys().length,
          read,
          skipped: refs.length - read,
          steps,
          problems,
          redactions,
          ms: Date.now() - started,
        }),
      );
    },
  };
}

/** Loader for `archive`: one entry describing the build's inputs, for /report/ and the banners. */
export function archiveLoader(options: BrainLoaderOptions = {}): Loader {
  const { env } = checkOptions(options);
  return {
    name: 'agy-archive-archive',
    schema: ArchiveSchema,
    async load(context) {
      const inputs = await archiveInputs(context, env);
      const { discovery } = inputs;
      const info: ArchiveInfo = {
        isDemo: inputs.isDemo,
        redactionEnabled: inputs.redactionEnabled,
        inputs: inputs.description,
        roots: discovery.roots.map((r) => ({ path: r.path, product: r.product })),
        sessionsFound: discovery.sessions.length,
        shadowed: discovery.shadowed.map((s) => ({ id: s.id, shadowedDir: s.shadowed.dir, winnerDir: s.winner.dir })),
        problems: discovery.problems.map((p) => ({ ...p })),
        builtAt: new Date().toISOString(),
      };
      const data = await context.parseData({ id: ARCHIVE_ENTRY_ID, data: info });
      context.store.clear();
      context.store.set({ id: ARCHIVE_ENTRY_ID, data });
    },
  };
}
