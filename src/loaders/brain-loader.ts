/**
 * The Astro adapter over the archive pipeline: content-layer loaders for the `sessions`, `steps`, `artifacts` and
 * `archive` collections. Thin on purpose: discovery, reading, redaction and summaries live in `src/lib/archive/`
 * (no astro imports).
 *
 * A loader fills only its own collection, yet one read of a session yields the rows of three. So the loaders share
 * one pass per build (`archivePass`): the first loader to run starts it, the others join the same pass, whether
 * Astro runs them at once (it does today) or one after another. The pass discovers the sessions once, computes each
 * session's digest once (reader, redactor and loader versions plus every file's size and mtime), and reads a session
 * at most once, on the first loader's demand, with bounded concurrency; the other loaders get the same rows.
 *
 * Each collection keeps, in its meta store, the digest of every session whose entries it holds (a session without
 * steps has no entry to carry one), and each entry carries its session's digest: a loader keeps the entries of
 * unchanged sessions, deletes those of sessions changed or gone from disk, and asks the pass only for the rest.
 *
 * Factories validate their options at once (a programmer's mistake stops the build); inside `load()` they are
 * forgiving: a session that cannot be read or built is an empty session whose problem says why
 * (`readSessionRows`). A session lost even so (its rows rejected) is logged and stops the build with an error: a
 * site that silently lacks a session it read is what an audit must never publish.
 */
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import type { Loader, LoaderContext } from 'astro/loaders';
import { problemTotal, READER_VERSION } from '../lib/brain/index.ts';
import type { SessionRef } from '../lib/brain/types.ts';
import { REDACTOR_VERSION } from '../lib/redact/index.ts';
import {
  ArchiveSchema,
  ArtifactRowSchema,
  READ_CONCURRENCY,
  SessionSchema,
  StepRowSchema,
  formatTotals,
  mapBounded,
  progressReporter,
  readSessionRows,
  resolveArchiveInputs,
  contentFingerprint,
  type ArchiveInfo,
  type ArchiveInputs,
  type ArchiveLog,
  type SessionRows,
  type SessionSummary,
} from '../lib/archive/index.ts';
import { spillSession } from '../lib/archive/detail.ts';
import { renderPart, rendersSession, shareFamilyInputs } from '../lib/archive/incremental.ts';
import { newestSessionFirst } from '../lib/archive/order.ts';

/** Bump when what the loader stores changes, so every digest changes and a warm build re-reads everything. */
// 9: the session tree's evidence (`family`) on each session entry, on top of the turn builder's 8.
// 10: the conversation's page starts, title and ending (conversation/summary.ts), message and task-log page starts.
// 11: each session's steps by day (`stepDays`) on its entry; timeline and artifact rows only of the sessions rendered.
// 12: failures counted once (turns/failures.ts): `conversation.agentErrors`, `StepRow.failure`, audit error rows
// that are the failed calls and agent errors with their message, a failed command's message.
// 13: conversation page starts from a smaller budget with edits' diffs weighed (issue 22).
// 14: one "files changed" (turns/file-changes.ts): an edit that did not fail; file rows marked `failed` with a message.
// 15: how it ended from the last turn (turns/ending.ts, `endingKind`); calls of overview.txt marked `resultNotLogged`.
// 16: the files a session changed, once each (`audit.changedFiles`, turns/file-history.ts).
// 18: a failed call's line keeps its reason (paths cut in the middle, up to 300 characters), a browser_subagent call's
//     line its task, a request setting the model at the start reads 'Model: X' (issue 28).
export const LOADER_VERSION = 'brain-loader-21';

/** Id of the one entry of the `archive` collection. */
export const ARCHIVE_ENTRY_ID = 'archive';

/** Options of the loaders. */
export interface BrainLoaderOptions {
  /** Sessions read at once (default 4). The first loader of a build sets it for the shared pass. */
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

/** The loaders that take rows from the pass; a session's rows are dropped from memory once all of them had it. */
const ROW_LOADERS = ['agy-archive-sessions', 'agy-archive-steps', 'agy-archive-artifacts'] as const;

/** One build's shared work: inputs, digests, and each session's rows read at most once. */
interface ArchivePass {
  /** Loaders that joined; a loader joining twice means a new sync (e.g. `astro dev`) and starts a new pass. */
  joined: Set<string>;
  inputs: Promise<ArchiveInputs>;
  /** Every discovered session's content digest, by id. */
  digests: Promise<Map<string, string>>;
  /** The rows of one session, read on first demand (bounded), shared by every loader. */
  rows(ref: SessionRef): Promise<SessionRows>;
  /** A row loader is done with a session (used or kept its entries). */
  release(id: string): void;
}

let current: ArchivePass | undefined;

/**
 * The inputs this process reads. A render process after the first of a split build (`scripts/build.ts`) renders
 * only its own sessions' pages and throws its pages over every session away, so it reads only its own sessions:
 * its content sync ends sooner (~20 s at 100k steps, be1cb55). The session tree its pages need is built from what
 * the first process read (`sharedFamilyInputs`), not by reading and redacting every session again.
 */
function onlyThisPart(inputs: ArchiveInputs, env: NodeJS.ProcessEnv): ArchiveInputs {
  if (renderPart(env) === 0) return inputs;
  const sessions = inputs.discovery.sessions.filter((ref) => rendersSession(ref.id, env));
  return { ...inputs, discovery: { ...inputs.discovery, sessions } };
}

function archivePass(name: string, context: LoaderContext, options: Required<BrainLoaderOptions>): ArchivePass {
  if (current && !current.joined.has(name)) {
    current.joined.add(name);
    return current;
  }
  const { logger, generateDigest } = context;
  const log: ArchiveLog = { info: (m) => logger.info(m), warn: (m) => logger.warn(m) };
  const inputs = resolveArchiveInputs(fileURLToPath(context.config.root), options.env, log).then((found) => onlyThisPart(found, options.env));
  const digests = inputs.then(async ({ discovery, redactionEnabled }) => {
    const out = new Map<string, string>();
    await mapBounded(discovery.sessions, 8, async (ref) => {
      const files = await contentFingerprint(ref);
      out.set(
        ref.id,
        generateDigest({
          loader: LOADER_VERSION,
          reader: READER_VERSION,
          redactor: REDACTOR_VERSION,
          redact: redactionEnabled,
          ref: [ref.product, ref.root, ref.dir],
          files: files.join('\n'),
        }),
      );
    });
    return out;
  });
  const limit = pLimit(options.concurrency);
  const reads = new Map<string, Promise<SessionRows>>();
  const released = new Map<string, number>();
  const pass: ArchivePass = {
    joined: new Set([name]),
    inputs,
    digests,
    rows(ref) {
      let rows = reads.get(ref.id);
      if (!rows) {
        rows = inputs
          .then(({ redactionEnabled }) =>
            limit(() =>
              // A session this process renders is spilled for its pages, which then skip reading and redacting it.
              readSessionRows(ref, redactionEnabled, rendersSession(ref.id, options.env) ? (session) => spillSession(ref, redactionEnabled, session) : undefined),
            ),
          )
          .catch((error: unknown) => {
            logger.error(`session ${ref.id} could not be read and is left out: ${String(error)}`);
            throw error;
          });
        // Loaders that await it handle the rejection; this keeps a rejection nobody awaits from being unhandled.
        rows.catch(() => undefined);
        reads.set(ref.id, rows);
      }
      return rows;
    },
    release(id) {
      const n = (released.get(id) ?? 0) + 1;
      released.set(id, n);
      if (n >= ROW_LOADERS.length) reads.delete(id);
    },
  };
  current = pass;
  return pass;
}

/** Meta-store key of the `{ sessionId: digest }` map of the sessions whose entries a collection holds. */
const HELD_KEY = 'session-digests';

function readHeld(context: LoaderContext): Map<string, string> {
  try {
    return new Map(Object.entries(JSON.parse(context.meta.get(HELD_KEY) ?? '{}') as Record<string, string>));
  } catch {
    return new Map();
  }
}

/** How one collection takes its entries from a session's rows. */
interface RowCollection {
  name: (typeof ROW_LOADERS)[number];
  /** The session an entry id belongs to. */
  sessionOf(entryId: string): string;
  entries(rows: SessionRows): { id: string; data: Record<string, unknown> }[];
  /** Whether the collection holds this session's entries at all (default: every session's). */
  holds?(sessionId: string): boolean;
}

/**
 * The timeline and artifact rows serve only the pages of one session, so a process holds only the rows of the
 * sessions it renders: not those an incremental build reuses or another render process of a split build renders.
 * At 1M steps the first render process's content store held every timeline row (524 MB, written by Astro's chunked
 * writer in 18 min); the pages over every session read the sessions' summaries (`stepDays` for the stats).
 */
const rendered = (options: Required<BrainLoaderOptions>) => (sessionId: string) => rendersSession(sessionId, options.env);

/**
 * Fill one collection from the shared pass; returns how many sessions' entries were (re)written. With `progress`,
 * logs what was found and "read N/M sessions" as sessions are done.
 */
async function fillCollection(
  context: LoaderContext,
  options: Required<BrainLoaderOptions>,
  collection: RowCollection,
  progress = false,
): Promise<{ refs: SessionRef[]; written: number; notHeld: number; inputs: ArchiveInputs }> {
  const { store, parseData, logger } = context;
  const pass = archivePass(collection.name, context, options);
  const inputs = await pass.inputs;
  const refs = inputs.discovery.sessions;
  if (progress) {
    logger.info(`${refs.length} sessions found in ${inputs.discovery.roots.length} brain roots (${inputs.description})`);
  }
  const tick = progress ? progressReporter(refs.length, logger) : () => undefined;
  let digests: Map<string, string>;
  try {
    digests = await pass.digests;
  } catch (error) {
    for (const ref of refs) pass.release(ref.id);
    throw error;
  }

  // Entries of sessions changed, gone from disk or not held here go; a changed session's new rows come from the pass.
  const holds = collection.holds ?? (() => true);
  for (const [id, entry] of store.entries()) {
    const session = collection.sessionOf(id);
    if (entry.digest !== digests.get(session) || !holds(session)) store.delete(id);
  }
  const held = readHeld(context);
  for (const [id, digest] of held) if (digests.get(id) !== digest || !holds(id)) held.delete(id);

  let written = 0;
  let notHeld = 0;
  const dropped: string[] = [];
  await mapBounded(refs, options.concurrency, async (ref) => {
    const digest = digests.get(ref.id) as string;
    const set: string[] = [];
    try {
      if (!holds(ref.id)) {
        notHeld++;
        return;
      }
      if (held.get(ref.id) === digest) return;
      const rows = await pass.rows(ref);
      for (const { id, data } of collection.entries(rows)) {
        store.set({ id, data: await parseData({ id, data }), digest });
        set.push(id);
      }
      held.set(ref.id, digest);
      written++;
    } catch (error) {
      // Logged once by the pass (or a schema error, same treatment): the session is left out of every collection.
      for (const id of set) store.delete(id);
      held.delete(ref.id);
      dropped.push(`${ref.id} (${error instanceof Error ? error.message : String(error)})`);
    } finally {
      pass.release(ref.id);
      tick();
    }
  });
  context.meta.set(HELD_KEY, JSON.stringify(Object.fromEntries(held)));
  if (dropped.length > 0) {
    // A session that cannot be built is an empty session saying why (archive/pipeline.ts); one lost even so must
    // not leave a site that lacks it and a build that says it succeeded.
    throw new Error(
      `${dropped.length} session${dropped.length === 1 ? '' : 's'} read could not be put in the ${collection.name} collection and would be missing from the site: ` +
        `${dropped.slice(0, 5).join('; ')}${dropped.length > 5 ? `; and ${dropped.length - 5} more` : ''}. ` +
        'Hint: this is a bug in agy-archive, not in the session; the site was left as it was.',
    );
  }
  return { refs, written, notHeld, inputs };
}

/** `2 sessions written, 3 unchanged, 259 not rendered here` for a row loader's log line. */
function rowCounts(sessions: number, written: number, notHeld: number): string {
  const parts = [`${written} sessions written`, `${sessions - written - notHeld} unchanged`];
  if (notHeld > 0) parts.push(`${notHeld} not rendered here`);
  return parts.join(', ');
}

const sessionPrefix = (entryId: string): string => entryId.slice(0, entryId.indexOf('/'));

/** Loader for `sessions`: one lean entry per session (header, counts, uploads, problems, redactions, audit rows). */
export function sessionsLoader(options: BrainLoaderOptions = {}): Loader {
  const checked = checkOptions(options);
  return {
    name: 'agy-archive-sessions',
    schema: SessionSchema,
    async load(context) {
      const started = Date.now();
      const { store, logger } = context;
      const { refs, written, inputs } = await fillCollection(
        context,
        checked,
        {
          name: 'agy-archive-sessions',
          sessionOf: (id) => id,
          entries: (rows) => [{ id: rows.session.id, data: rows.session }],
        },
        true,
      );
      // Part 0 of a split build read every session: the other render processes take the session tree's inputs from
      // it, as soon as its sessions are read. Handed on when its pages started, they waited through its content
      // store's write and Vite: at 1M steps render part 2 sat idle for 20 minutes with a render slot.
      shareFamilyInputs([...store.values()].map((entry) => entry.data as SessionSummary).sort(newestSessionFirst));
      let steps = 0;
      let artifacts = 0;
      let problems = problemTotal(inputs.discovery.problems);
      let redactions = 0;
      for (const [, entry] of store.entries()) {
        const s = entry.data as SessionSummary;
        steps += s.stepCount;
        artifacts += s.artifactCount;
        problems += problemTotal(s.problems);
        redactions += s.redactions.length;
      }
      logger.info(
        formatTotals({
          sessions: store.keys().length,
          read: written,
          skipped: refs.length - written,
          steps,
          artifacts,
          problems,
          redactions,
          ms: Date.now() - started,
        }),
      );
    },
  };
}

/** Loader for `steps`: one entry per timeline entry, id `<session>/<key>` (the lean row, never the body). */
export function stepsLoader(options: BrainLoaderOptions = {}): Loader {
  const checked = checkOptions(options);
  return {
    name: 'agy-archive-steps',
    schema: StepRowSchema,
    async load(context) {
      const { refs, written, notHeld } = await fillCollection(context, checked, {
        name: 'agy-archive-steps',
        sessionOf: sessionPrefix,
        entries: (rows) => rows.steps.map((row) => ({ id: `${row.sessionId}/${row.key}`, data: row })),
        holds: rendered(checked),
      });
      context.logger.info(`${context.store.keys().length} steps (${rowCounts(refs.length, written, notHeld)})`);
    },
  };
}

/** Loader for `artifacts`: one entry per root artifact, id `<session>/<slug>` (metadata only, never the text). */
export function artifactsLoader(options: BrainLoaderOptions = {}): Loader {
  const checked = checkOptions(options);
  return {
    name: 'agy-archive-artifacts',
    schema: ArtifactRowSchema,
    async load(context) {
      const { refs, written, notHeld } = await fillCollection(context, checked, {
        name: 'agy-archive-artifacts',
        sessionOf: sessionPrefix,
        entries: (rows) => rows.artifacts.map((row) => ({ id: `${row.sessionId}/${row.slug}`, data: row })),
        holds: rendered(checked),
      });
      context.logger.info(
        `${context.store.keys().length} artifacts (${rowCounts(refs.length, written, notHeld)})`,
      );
    },
  };
}

/** Loader for `archive`: one entry describing the build's inputs, for /report/ and the banners. */
export function archiveLoader(options: BrainLoaderOptions = {}): Loader {
  const checked = checkOptions(options);
  return {
    name: 'agy-archive-archive',
    schema: ArchiveSchema,
    async load(context) {
      const inputs = await archivePass('agy-archive-archive', context, checked).inputs;
      const { discovery } = inputs;
      const info: ArchiveInfo = {
        isDemo: inputs.isDemo,
        redactionEnabled: inputs.redactionEnabled,
        inputs: inputs.description,
        roots: discovery.roots.map((r) => ({ path: r.path, product: r.product })),
        sessionsFound: discovery.sessions.length,
        shadowed: discovery.shadowed.map((s) => ({ id: s.id, shadowedDir: s.shadowed.dir, winnerDir: s.winner.dir })),
        problems: discovery.problems.map((p) => ({ ...p })),
        ...(inputs.stores.length > 0 ? { stores: inputs.stores } : {}),
        builtAt: new Date().toISOString(),
      };
      const data = await context.parseData({ id: ARCHIVE_ENTRY_ID, data: info });
      context.store.clear();
      context.store.set({ id: ARCHIVE_ENTRY_ID, data });
    },
  };
}
