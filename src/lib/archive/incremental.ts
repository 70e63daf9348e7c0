/**
 * Incremental builds: reuse the pages of sessions that did not change, and the search shards that hold only such
 * sessions. No `astro:*` import: `scripts/build.ts` plans (before `astro build`), the routing module reads the
 * plan (which sessions not to render), the search step restores the reused folders and indexes changed shards.
 *
 * A session's own pages (`/sessions/<id>/**`) depend on that session's files, the site's code and the build
 * settings, so its *reuse key* hashes those: the session's content digest (reader and redactor versions, every
 * file's size and mtime — the same fingerprint the loader uses), a fingerprint of every file of the site's code,
 * ARCHIVE_BASE, the redaction and demo flags and the roots scanned (the page frame shows their count and the
 * demo/redaction banners). The frame shows nothing else that depends on other sessions (the build time is on
 * /report/ only). The one exception is the session tree (issue 14): a session's page names its parent and its
 * subagents, so a session is reused only when, besides its own key, the keys of its family neighbours as the last
 * build's tree found them (`family.json`, written by the routing module) are unchanged too; a session re-rendered for
 * a neighbour gets a search mark so its shard is re-indexed. A session that newly names an unchanged, unrelated
 * session as its parent or subagent is not seen until that session's files change: the tree of this build is known
 * only after the plan (it needs every session read).
 *
 * Soundness: the manifest describes the site being served (the out dir) and is written only after a build was
 * swapped in (a failed build changes neither, so the next one still reuses). It names the absolute out dir, a build
 * id also written into the out dir, and each session folder's files with their sizes (a digest), so a build into
 * another folder, a deleted folder, a folder some other build wrote, or a session folder with a page missing,
 * emptied or cut short renders those pages again. A reused folder is copied into the new site by hard links, so the
 * served site is never touched: nothing writes into a reused file (folders are only renamed), and the old site's
 * names are removed only after the swap.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { READER_VERSION } from '../brain/index.ts';
import { makeScratchFolder } from '../build/folders.ts';
import type { SessionRef } from '../brain/types.ts';
import type { TreeInput } from '../family/tree.ts';
import { REDACTOR_VERSION } from '../redact/settings.ts';
import type { ArchiveInputs } from './inputs.ts';
import { contentFingerprint, mapBounded } from './fingerprint.ts';

/** Bump when the plan, manifest or shard layout changes, or a session folder gains pages (incremental-3: its search documents): every cached page and shard is then rebuilt. */
export const INCREMENTAL_VERSION = 'incremental-3';

/**
 * Set to `after-parts` by `scripts/build.ts` for the render processes of a split build: it runs the search step
 * itself (`buildSearch` in `integrations/pagefind.ts`). Here, not there, so the build does not load Pagefind to
 * name it.
 */
export const SEARCH_STEP_ENV = 'ARCHIVE_SEARCH_STEP';

/** The environment variable naming the plan file `scripts/build.ts` writes for the Astro process. */
export const PLAN_ENV = 'ARCHIVE_REUSE_PLAN';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

/** What the code of the site is: every file under `src/` and `public/`, the Astro config and the lockfile. */
export async function siteFingerprint(projectRoot: string): Promise<string> {
  const hash = createHash('sha256').update(`${INCREMENTAL_VERSION}\0${process.version}\0`);
  const files: string[] = ['astro.config.mjs', 'package-lock.json'];
  async function walk(rel: string): Promise<void> {
    const entries = await fs.readdir(path.join(projectRoot, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const childRel = `${rel}/${e.name}`;
      if (e.isDirectory()) await walk(childRel);
      else files.push(childRel);
    }
  }
  await walk('src');
  await walk('public');
  for (const rel of files.sort()) {
    const bytes = await fs.readFile(path.join(projectRoot, rel)).catch(() => Buffer.from('\0missing'));
    hash.update(`${rel}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

/** The settings every page depends on besides the code. */
export interface BuildSettings {
  /** ARCHIVE_BASE as given ('' when unset). */
  base: string;
  redactionEnabled: boolean;
  isDemo: boolean;
  /** Roots scanned (the frame shows their count). */
  roots: string[];
  /** ARCHIVE_PRECOMPRESS's encodings: reused folders carry the copies the last build wrote, so a change renders all. */
  precompress?: string[];
}

/** The digest of a session's content (the same inputs as the loader's digest) and the bytes of its files. */
export async function sessionContentDigest(ref: SessionRef): Promise<{ digest: string; bytes: number }> {
  const files = await contentFingerprint(ref);
  const bytes = ref.stored ? ref.stored.bytes : files.reduce((sum, line) => sum + (Number(line.split('\t')[1]) || 0), 0);
  return { digest: sha([READER_VERSION, REDACTOR_VERSION, ref.product, ref.root, ref.dir, files.join('\n')].join('\0')), bytes };
}

/**
 * Every discovered session's reuse key, the hash of what all of them share (code and settings), and each session's
 * size in bytes (to split the rendering between processes, see `assignRenderParts`).
 */
export async function sessionReuseKeys(
  inputs: ArchiveInputs,
  site: string,
  settings: BuildSettings,
  cacheDir?: string,
): Promise<{ shared: string; keys: Record<string, string>; bytes: Record<string, number>; neighbours: Record<string, string[]> }> {
  const shared = sha(JSON.stringify({ v: INCREMENTAL_VERSION, site, ...settings }));
  const keys: Record<string, string> = {};
  const bytes: Record<string, number> = {};
  await mapBounded(inputs.discovery.sessions, 8, async (ref) => {
    const content = await sessionContentDigest(ref);
    keys[ref.id] = sha(`${shared}\0${ref.id}\0${content.digest}`);
    bytes[ref.id] = content.bytes;
  });
  return { shared, keys, bytes, neighbours: cacheDir ? readFamilyNeighbours(cacheDir) : {} };
}

/**
 * What the pages over every session show besides the sessions themselves: how the inputs were chosen, the shadowed
 * copies and the problems of the roots (all on /report/). A new shadowed copy changes no session's key, yet changes
 * the report, so a build with nothing else changed still has something to do.
 */
export function discoveryDigest(inputs: Pick<ArchiveInputs, 'description' | 'discovery'>): string {
  const { shadowed, problems } = inputs.discovery;
  return sha(
    JSON.stringify({
      inputs: inputs.description,
      shadowed: shadowed.map((s) => [s.id, s.shadowed.dir, s.winner.dir]),
      problems,
    }),
  );
}

/**
 * Whether the site served in `liveDir` is already what this build would write: the last build into it is the one
 * that wrote it (its mark), with the same code and settings, the same discovery, and the same sessions with the same
 * keys (every session's files unchanged, none added or gone). Returns why not, or undefined when there is nothing to
 * do. Costs what the keys cost (one stat per session file) and two small reads: no page of the site is read.
 */
export function whySomethingToDo(
  cacheDir: string,
  liveDir: string,
  { shared, keys, discovery }: { shared: string; keys: Record<string, string>; discovery: string },
): string | undefined {
  const previous = readManifest(cacheDir);
  if (!previous) return 'no earlier successful build';
  if (previous.outDir !== liveDir) return `the last build went to ${previous.outDir}`;
  if (previous.buildId !== readSiteMark(liveDir)?.buildId) return 'the out dir is not the one the last build wrote';
  if (!existsSync(path.join(liveDir, 'index.html'))) return 'the out dir has no index.html';
  if (previous.shared !== shared) return "the site's code or build settings changed";
  if (previous.discovery !== discovery) return 'the roots, shadowed copies or root problems changed';
  const ids = Object.keys(keys);
  if (ids.length !== Object.keys(previous.keys).length) return 'sessions were added or are gone';
  const changed = ids.filter((id) => previous.keys[id] !== keys[id]);
  if (changed.length > 0) return `${changed.length} sessions changed or are new`;
  return undefined;
}

const FAMILY_FILE = 'family.json';

/** The last build's family neighbours by session id (see `recordFamilyNeighbours`); empty when unknown. */
function readFamilyNeighbours(cacheDir: string): Record<string, string[]> {
  try {
    const parsed = JSON.parse(readFileSync(path.join(incrementalDir(cacheDir), FAMILY_FILE), 'utf8')) as { version?: string; neighbours?: Record<string, string[]> };
    return parsed.version === INCREMENTAL_VERSION && parsed.neighbours ? parsed.neighbours : {};
  } catch {
    return {};
  }
}

/**
 * Record this build's family neighbours (sessions whose pages show each other, from the session tree) beside the plan
 * file, for the next build's reuse keys. Only the first render process writes (every process builds the same tree);
 * without a plan (a plain `astro build`) nothing is reused next time anyway.
 */
export function recordFamilyNeighbours(neighbours: Record<string, string[]>, env: NodeJS.ProcessEnv = process.env): void {
  const planFile = env[PLAN_ENV];
  if (!planFile || renderPart(env) !== 0) return;
  const related = Object.fromEntries(Object.entries(neighbours).filter(([, list]) => list.length > 0));
  writeAtomic(path.join(path.dirname(planFile), FAMILY_FILE), JSON.stringify({ version: INCREMENTAL_VERSION, neighbours: related }));
}

const FAMILY_INPUTS_FILE = 'family-inputs.json';

/** How long a render process after the first waits for the first one's family inputs before it gives up. */
const FAMILY_INPUTS_WAIT_MS = 60 * 60_000;

/** Whether this process is part of a build split between render processes (then `renderPart` says which). */
function splitPlan(env: NodeJS.ProcessEnv): (BuildPlan & { planId: string }) | undefined {
  const plan = currentPlan(env);
  return plan?.parts !== undefined && plan.planId !== undefined ? (plan as BuildPlan & { planId: string }) : undefined;
}

/**
 * Render part 0 of a split build, once its content sync read every session: hand every session's family inputs
 * (`TreeInput`: id, title, start, error count and its lean family evidence, in the order given) to the other render
 * processes, beside the plan. They read only their own sessions (be1cb55: ~20 s less content sync at 100k steps)
 * but their pages name parents and subagents that part 0 read. Does nothing in any other process.
 */
export function shareFamilyInputs(sessions: readonly TreeInput[], env: NodeJS.ProcessEnv = process.env): void {
  const plan = splitPlan(env);
  const planFile = env[PLAN_ENV];
  if (!plan || !planFile || renderPart(env) !== 0) return;
  const lean = sessions.map(({ id, title, createdAt, errorCount, conversation, family }) => ({
    id,
    title,
    createdAt,
    errorCount,
    ...(conversation ? { conversation: { failedCalls: conversation.failedCalls, ...(conversation.agentErrors !== undefined ? { agentErrors: conversation.agentErrors } : {}) } } : {}),
    family,
  }));
  writeAtomic(path.join(path.dirname(planFile), FAMILY_INPUTS_FILE), JSON.stringify({ planId: plan.planId, sessions: lean }));
}

/**
 * In a render process after the first of a split build: every session's family inputs as part 0 read them (waits
 * for part 0's `shareFamilyInputs` of this plan; the build stops every part when one fails). Undefined in any other
 * process: it read every session itself.
 */
export async function sharedFamilyInputs(env: NodeJS.ProcessEnv = process.env): Promise<TreeInput[] | undefined> {
  const plan = splitPlan(env);
  const planFile = env[PLAN_ENV];
  if (!plan || !planFile || renderPart(env) === 0) return undefined;
  const file = path.join(path.dirname(planFile), FAMILY_INPUTS_FILE);
  const started = Date.now();
  for (;;) {
    try {
      const shared = JSON.parse(readFileSync(file, 'utf8')) as { planId?: string; sessions?: TreeInput[] };
      if (shared.planId === plan.planId && shared.sessions) return shared.sessions;
    } catch {
      // Not written yet (it is renamed into place whole), or the last build's.
    }
    if (Date.now() - started > FAMILY_INPUTS_WAIT_MS) {
      throw new Error(`Render part 0 never wrote ${file} for this build. Hint: run \`npm run build\` again.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The last successful build into an out dir. */
interface Manifest {
  version: string;
  outDir: string;
  buildId: string;
  /** The site fingerprint and settings the keys were made with (to say why nothing was reused). */
  shared: string;
  keys: Record<string, string>;
  /** Each session folder's files and sizes as published (see `folderDigest`). */
  folders: Record<string, string>;
  /** What the pages over every session read besides the sessions (see `discoveryDigest`); absent from older builds. */
  discovery?: string;
}

/** What this build reuses; written to a file the Astro process reads (path in `ARCHIVE_REUSE_PLAN`). */
export interface BuildPlan {
  /** This plan's own id: the files the render processes hand each other name it (see `shareFamilyInputs`). */
  planId?: string;
  /** The out dir users serve (the live site): reused folders come from here. */
  outDir: string;
  /** Where this build writes the new site (render part 0 and the search step), swapped in when it succeeded. */
  siteDir: string;
  /** Where the reused session folders wait (hard links) while Astro empties and fills `siteDir`. */
  reusedDir: string;
  /** The folder digest of every reused session (checked against the last manifest; carried into the next). */
  folders: Record<string, string>;
  /** Reuse key of every discovered session (the search step keys its shards with them). */
  keys: Record<string, string>;
  /** Sessions whose pages are reused (not rendered). */
  reused: string[];
  /**
   * Sessions rendered again only because a family neighbour changed (their own key is unchanged), with a hash of
   * their neighbours' keys: the search step adds it to their shard's key so the shard is indexed again.
   */
  familyMarks?: Record<string, string>;
  /** Hash of the site fingerprint and settings (see `sessionReuseKeys`). */
  shared: string;
  /** The discovery's digest (see `discoveryDigest`), carried into the manifest. */
  discovery?: string;
  /** Why nothing could be reused, for the log (undefined when the last build's pages were usable). */
  whyNone?: string;
  /**
   * Which render process renders each session's pages (see `assignRenderParts`), when the build is split between
   * processes; undefined for a build in one process. Part 0 also renders the pages over every session.
   */
  parts?: Record<string, number>;
}

const BUILD_ID_FILE = '.agy-archive-build';

function incrementalDir(cacheDir: string): string {
  return path.join(cacheDir, 'incremental');
}

function readManifest(cacheDir: string): Manifest | undefined {
  try {
    const m = JSON.parse(readFileSync(path.join(incrementalDir(cacheDir), 'manifest.json'), 'utf8')) as Manifest;
    return m.version === INCREMENTAL_VERSION ? m : undefined;
  } catch {
    return undefined;
  }
}

/** Write a file whole or not at all. */
function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** What a built site says about itself (`.agy-archive-build` at its top). */
export interface SiteMark {
  buildId: string;
  /** True for the demo archive, false for one built from real sessions; undefined when an older build wrote it. */
  demo?: boolean;
}

/** The mark of the site in `dir`, or undefined when there is none (not a site this tool finished). */
export function readSiteMark(dir: string): SiteMark | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dir, BUILD_ID_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
  try {
    const mark = JSON.parse(text) as Partial<SiteMark>;
    if (typeof mark.buildId === 'string') return { buildId: mark.buildId, demo: typeof mark.demo === 'boolean' ? mark.demo : undefined };
  } catch {
    // An older build wrote the id alone.
  }
  return { buildId: text };
}

/** A file (with its size) or a folder (no size) inside a folder, by its `/`-separated relative path. */
interface FolderEntry {
  rel: string;
  size?: number;
}

/** How many file-system calls run at once when listing, linking and checking pages (each waits on the disk). */
const FILE_CONCURRENCY = 32;

/** Every file and folder under `dir`, sorted by relative path. */
async function listFolder(dir: string): Promise<FolderEntry[]> {
  const dirents = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const entries = await mapBounded(dirents, FILE_CONCURRENCY, async (e): Promise<FolderEntry> => {
    const abs = path.join(e.parentPath, e.name);
    const rel = path.relative(dir, abs).split(path.sep).join('/');
    return e.isDirectory() ? { rel } : { rel, size: (await fs.stat(abs)).size };
  });
  return entries.sort((x, y) => (x.rel < y.rel ? -1 : x.rel > y.rel ? 1 : 0));
}

/**
 * The files of a session folder with their sizes, as a digest: recorded when a build is published and compared
 * before a folder is reused, so a page deleted, emptied or cut short since (by hand, or by a build that did not
 * hold the lock) is rendered again instead of reused.
 */
function folderDigest(entries: FolderEntry[]): string {
  const hash = createHash('sha256');
  for (const e of entries) hash.update(e.size === undefined ? `${e.rel}/\n` : `${e.rel}\t${e.size}\n`);
  return hash.digest('hex');
}

/**
 * Copy the folder `from` to `to` by hard links (the same files, no bytes copied; a copy where linking fails, e.g.
 * across file systems) and return its folder digest. Nothing is ever written into a reused file, so the site that
 * `from` belongs to is never changed. Linking costs one call per file: on this 2-core VM under load, 10k files
 * took 2.5–11 s synchronously, less with calls in flight at once.
 */
async function linkFolder(from: string, to: string): Promise<string> {
  const entries = await listFolder(from);
  await fs.mkdir(to, { recursive: true });
  // Sorted by path: a folder comes before what it holds.
  for (const e of entries) if (e.size === undefined) await fs.mkdir(path.join(to, e.rel), { recursive: true });
  await mapBounded(
    entries.filter((e) => e.size !== undefined),
    FILE_CONCURRENCY,
    (e) => fs.link(path.join(from, e.rel), path.join(to, e.rel)).catch(() => fs.copyFile(path.join(from, e.rel), path.join(to, e.rel), constants.COPYFILE_FICLONE)),
  );
  return folderDigest(entries);
}

/** Where this build reads the live site and writes the new one (see `src/lib/build/folders.ts`). */
export interface PlanFolders {
  live: string;
  staging: string;
  reused: string;
}

/** What to plan besides the keys: sessions not to reuse whatever their key, and whether to link before returning. */
export interface PlanOptions {
  /** Sessions whose folders were found not as published by an earlier try of this build: rendered. */
  distrust?: readonly string[];
  /**
   * Link the reused folders before the plan is returned, leaving out (rendering) any not as published. Without it
   * the plan reuses every unchanged session and `linked` links them while Astro renders (one core each: linking
   * 100k files took 10 s of a 48 s warm build at 100k steps, before Astro started); a folder found not as
   * published then fails the try, and the build plans again with it distrusted.
   */
  linkFirst?: boolean;
}

/** The plan, its file, and the linking of the reused folders: resolves with the sessions not as published. */
export interface PlannedReuse {
  plan: BuildPlan;
  planFile: string;
  linked: Promise<string[]>;
}

/**
 * Before `astro build`: compare every session's key with the last build's, set the unchanged sessions' folders of
 * the live site aside into `folders.reused` (hard links, checked against the manifest's record of each folder), and
 * write the plan. The live site is only read.
 */
export async function planBuild(
  cacheDir: string,
  folders: PlanFolders,
  { shared, keys, neighbours = {}, discovery }: { shared: string; keys: Record<string, string>; neighbours?: Record<string, string[]>; discovery?: string },
  split: (toRender: string[]) => Record<string, number> | undefined = () => undefined,
  options: PlanOptions = { linkFirst: true },
): Promise<PlannedReuse> {
  const dir = incrementalDir(cacheDir);
  mkdirSync(dir, { recursive: true });
  const outDir = folders.live;
  await fs.rm(folders.reused, { recursive: true, force: true });
  makeScratchFolder(folders.reused);

  const previous = readManifest(cacheDir);
  const reused: string[] = [];
  const reusedFolders: Record<string, string> = {};
  const buildIdOnDisk = readSiteMark(outDir)?.buildId;
  const whyNone = !previous
    ? 'no earlier successful build'
    : previous.outDir !== outDir
      ? `the last build went to ${previous.outDir}`
      : previous.buildId !== buildIdOnDisk
        ? 'the out dir is not the one the last build wrote'
        : previous.shared !== shared
          ? "the site's code or build settings changed"
          : undefined;
  const familyMarks: Record<string, string> = {};
  let linked: Promise<string[]> = Promise.resolve([]);
  if (previous && whyNone === undefined) {
    const distrusted = new Set(options.distrust ?? []);
    const candidates = Object.entries(keys).filter(([id, key]) => {
      if (previous.keys[id] !== key || previous.folders[id] === undefined || distrusted.has(id)) return false;
      const family = neighbours[id] ?? [];
      if (family.some((n) => previous.keys[n] !== keys[n])) {
        familyMarks[id] = sha(family.map((n) => `${n}:${keys[n] ?? 'missing'}`).join('\0'));
        return false;
      }
      return true;
    });
    // A few sessions at a time, each linking its files with calls in flight at once. Resolves with the sessions
    // whose folder is missing, unreadable or not as published (their partial links removed).
    const link = async (): Promise<string[]> => {
      const bad: string[] = [];
      await mapBounded(candidates, 4, async ([id]) => {
        const to = path.join(folders.reused, id);
        try {
          if ((await linkFolder(path.join(outDir, 'sessions', id), to)) !== previous.folders[id]) throw new Error('changed since it was published');
        } catch {
          bad.push(id);
          await fs.rm(to, { recursive: true, force: true });
        }
      });
      return bad.sort();
    };
    if (options.linkFirst) {
      const bad = new Set(await link());
      for (const [id] of candidates) if (!bad.has(id)) reused.push(id);
    } else {
      for (const [id] of candidates) reused.push(id);
      linked = link();
      // Never an unhandled rejection while Astro runs: the caller awaits it after rendering.
      linked.catch(() => {});
    }
    for (const id of reused) reusedFolders[id] = previous.folders[id] as string;
  }
  const reusedSet = new Set(reused);
  const parts = split(Object.keys(keys).filter((id) => !reusedSet.has(id)));
  const plan: BuildPlan = {
    planId: randomUUID(),
    outDir,
    siteDir: folders.staging,
    reusedDir: folders.reused,
    folders: reusedFolders,
    keys,
    reused: reused.sort(),
    shared,
    discovery,
    whyNone,
    parts,
  };
  if (Object.keys(familyMarks).length > 0) plan.familyMarks = familyMarks;
  const planFile = path.join(dir, 'plan.json');
  writeAtomic(planFile, JSON.stringify(plan));
  return { plan, planFile, linked };
}

/** The plan read last, by the file it came from (read once per process and file). */
let planOnce: { file: string | undefined; plan: BuildPlan | null } | undefined;

/** The plan of this build (from `ARCHIVE_REUSE_PLAN`), or undefined for a build not started by `scripts/build.ts`. */
export function currentPlan(env: NodeJS.ProcessEnv = process.env): BuildPlan | undefined {
  const file = env[PLAN_ENV];
  if (planOnce === undefined || planOnce.file !== file) {
    planOnce = { file, plan: null };
    if (file) {
      try {
        planOnce.plan = JSON.parse(readFileSync(file, 'utf8')) as BuildPlan;
      } catch (error) {
        throw new Error(`The build plan ${file} could not be read (${String(error)}). Hint: run \`npm run build\` again.`);
      }
    }
  }
  return planOnce.plan ?? undefined;
}

/** The environment variable naming the render part this Astro process renders (`0` when unset). */
export const PART_ENV = 'ARCHIVE_RENDER_PART';

/** The render part of this process: 0 (the only one, or the one that also renders the pages over all sessions). */
export function renderPart(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env[PART_ENV] ?? 0);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

const reusedSets = new WeakMap<BuildPlan, Set<string>>();

/** Whether this process renders the pages of session `id`: not reused, and in this process's part. */
export function rendersSession(id: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const plan = currentPlan(env);
  if (!plan) return true;
  let reused = reusedSets.get(plan);
  if (!reused) reusedSets.set(plan, (reused = new Set(plan.reused)));
  if (reused.has(id)) return false;
  return plan.parts === undefined || (plan.parts[id] ?? 0) === renderPart(env);
}

/**
 * Part 0's extra load, as a share of the bytes to render: it reads every session during content sync (the others
 * read only their own) and renders the pages over every session. Measured at 100k steps on 2 cores: its sync took
 * 55 s against the second part's 34 s (~8 % of a part's 255 s of rendering), and with this share it still ended
 * its rendering 17 s after the second part.
 */
const PART_ZERO_EXTRA = 0.07;

/**
 * Split the sessions to render between `count` processes, balanced by their size in bytes (largest first, each to
 * the part with the least so far; page count and rendering time grow with a session's transcripts), part 0 with
 * `PART_ZERO_EXTRA` counted in.
 */
export function assignRenderParts(toRender: string[], bytes: Record<string, number>, count: number): Record<string, number> {
  const load = Array.from({ length: count }, () => 0);
  const total = toRender.reduce((sum, id) => sum + (bytes[id] ?? 0), 0);
  load[0] = total * PART_ZERO_EXTRA;
  const parts: Record<string, number> = {};
  const bySize = [...toRender].sort((a, b) => (bytes[b] ?? 0) - (bytes[a] ?? 0) || a.localeCompare(b));
  for (const id of bySize) {
    let least = 0;
    for (let n = 1; n < count; n++) if ((load[n] ?? 0) < (load[least] ?? 0)) least = n;
    parts[id] = least;
    load[least] = (load[least] ?? 0) + (bytes[id] ?? 0);
  }
  return parts;
}

/**
 * After Astro wrote the new site into `siteDir`: move the reused folders in. Throws when the plan is for another
 * folder or a reused session was rendered too (the build must then fail rather than publish a site without those
 * pages). Returns how many were moved.
 */
export function restoreReused(siteDir: string, env: NodeJS.ProcessEnv = process.env): number {
  const plan = currentPlan(env);
  if (!plan || plan.reused.length === 0) return 0;
  if (path.resolve(plan.siteDir) !== path.resolve(siteDir)) {
    throw new Error(`The build plan is for ${plan.siteDir}, not ${siteDir}. Hint: run \`npm run build\` again.`);
  }
  mkdirSync(path.join(siteDir, 'sessions'), { recursive: true });
  let restored = 0;
  for (const id of plan.reused) {
    const from = path.join(plan.reusedDir, id);
    const to = path.join(siteDir, 'sessions', id);
    if (!existsSync(from)) continue; // already restored (a second build:done hook)
    if (existsSync(to)) throw new Error(`Session ${id} was rendered although its pages were reused.`);
    renameSync(from, to);
    restored++;
  }
  return restored;
}

/** What an out dir's new site is, for `recordBuild` once it is swapped in. */
export interface SealedSite {
  manifest: Manifest | undefined;
  /** How many pages were checked whole (those this build rendered). */
  pagesChecked: number;
}

/**
 * The pages a build wrote are whole: not empty, and ending with `</html>` (a page cut short by a killed or
 * overlapping write ends anywhere). Reads the last bytes of each; throws naming the first bad one.
 */
async function checkPage(file: string, size: number): Promise<void> {
  if (size === 0) throw new Error(`${file} is empty.`);
  const tail = Buffer.alloc(Math.min(size, 64));
  const handle = await fs.open(file, 'r');
  try {
    await handle.read(tail, 0, tail.length, size - tail.length);
  } finally {
    await handle.close();
  }
  if (!/<\/html>\s*$/i.test(tail.toString('latin1'))) throw new Error(`${file} does not end with </html> (cut short).`);
}

/**
 * Before the new site in `siteDir` is published: check it is whole (its front page there; every page it rendered
 * whole, see `checkPage`; every reused session's folder back), write its mark (build id, demo flag) and make the
 * manifest the next build reuses from (the folder digest of each session: computed for the rendered ones, carried
 * for the reused ones). Throws with a message when the site is not whole: it is then not published.
 */
export async function sealSite(siteDir: string, plan: BuildPlan | undefined, isDemo: boolean): Promise<SealedSite> {
  if (!existsSync(path.join(siteDir, 'index.html'))) throw new Error(`The new site in ${siteDir} has no index.html.`);
  const reused = new Set(plan?.reused ?? []);
  const missing = [...reused].filter((id) => !existsSync(path.join(siteDir, 'sessions', id, 'index.html')));
  if (missing.length > 0) {
    throw new Error(`The pages of ${missing.length} reused sessions were not put into ${siteDir} (e.g. ${missing[0]}).`);
  }
  // Every page this build rendered: outside /sessions/, and in each session folder not reused.
  const pages: { file: string; size: number }[] = [];
  const folders: Record<string, string> = {};
  const collect = (dir: string, entries: FolderEntry[]): void => {
    for (const e of entries) if (e.size !== undefined && e.rel.endsWith('.html')) pages.push({ file: path.join(dir, e.rel), size: e.size });
  };
  for (const e of await fs.readdir(siteDir, { withFileTypes: true })) {
    const abs = path.join(siteDir, e.name);
    if (!e.isDirectory()) collect(siteDir, [{ rel: e.name, size: (await fs.stat(abs)).size }]);
    else if (e.name !== 'sessions') collect(abs, await listFolder(abs));
  }
  await mapBounded(sessionFoldersIn(siteDir), 4, async (id) => {
    if (reused.has(id)) {
      folders[id] = plan?.folders[id] ?? '';
      return;
    }
    const dir = path.join(siteDir, 'sessions', id);
    const entries = await listFolder(dir);
    folders[id] = folderDigest(entries);
    collect(dir, entries);
  });
  await mapBounded(pages, FILE_CONCURRENCY, (page) => checkPage(page.file, page.size));
  const buildId = randomUUID();
  writeFileSync(path.join(siteDir, BUILD_ID_FILE), `${JSON.stringify({ buildId, demo: isDemo } satisfies SiteMark)}\n`);
  const manifest = plan && {
    version: INCREMENTAL_VERSION,
    outDir: plan.outDir,
    buildId,
    shared: plan.shared,
    keys: plan.keys,
    folders,
    ...(plan.discovery === undefined ? {} : { discovery: plan.discovery }),
  };
  return { manifest, pagesChecked: pages.length };
}

/** After the new site was swapped in: write the manifest for the next build (none for a build without a plan). */
export function recordBuild(cacheDir: string, sealed: SealedSite): void {
  if (!sealed.manifest) return;
  mkdirSync(incrementalDir(cacheDir), { recursive: true });
  writeAtomic(path.join(incrementalDir(cacheDir), 'manifest.json'), JSON.stringify(sealed.manifest));
}

/** A build that could not plan renders everything: forget the last build, so a partial plan is never used. */
export function abandonBuild(cacheDir: string): void {
  const dir = incrementalDir(cacheDir);
  rmSync(path.join(dir, 'manifest.json'), { force: true });
  rmSync(path.join(dir, 'plan.json'), { force: true });
}

/** Session folders present in an out dir (for a search step run without a plan). */
export function sessionFoldersIn(outDir: string): string[] {
  const dir = path.join(outDir, 'sessions');
  try {
    return readdirSync(dir).filter((name) => statSync(path.join(dir, name)).isDirectory());
  } catch {
    return [];
  }
}
