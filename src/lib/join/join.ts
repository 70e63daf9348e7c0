/**
 * Joining built parts (ARCHIVE_JOIN): a company archive outgrows one build, so each machine or team builds its own
 * part under its own base path, and a top-level build joins them. A part is a plain folder, the `dist/` of an
 * ordinary build; all the join reads of it is its `/sessions.json` (`SessionIndexEntry`: the home card's facts,
 * counts, steps by day, audit rows, base path and search bundle of every session). The joined site lists every
 * part's sessions and links into the part for their pages; its search merges every part's Pagefind bundles.
 *
 * Pure: plain data in, plain data out, problems listed (no Astro import). `readPart` is the only function that
 * touches the disk.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'astro/zod';
import type { SessionIndexEntry } from '../audit/export.ts';
import { TokenCountsSchema, type ProblemRow, type SessionSummary } from '../archive/schemas.ts';

/** A `/sessions.json` entry as the join reads it: loose (a part built by a newer version may carry more). */
export const JoinEntrySchema = z.looseObject({
  id: z.string().min(1),
  product: z.string(),
  created: z.string(),
  title: z.string(),
  model: z.string().nullable(),
  steps: z.number(),
  url: z.string(),
  prefix: z.string(),
  workspace: z.string().nullable(),
  localTime: z.string().nullable(),
  durationMs: z.number().nullable(),
  toolCalls: z.number(),
  /** Error steps, in parts built before sessions.json kept only failed calls and agent errors. */
  errors: z.number().optional(),
  toolCounts: z.record(z.string(), z.number()),
  messages: z.number(),
  taskLogs: z.number(),
  artifacts: z.number(),
  redacted: z.boolean(),
  stepDays: z.record(z.string(), z.number()),
  audit: z
    // `changedFiles` (the per-file grouping of /audit/files/) was stripped by a strict object, and the joined
    // /audit/files/ differed from its part's.
    .object({ commands: z.array(z.looseObject({})), files: z.array(z.looseObject({})), errors: z.array(z.looseObject({})), changedFiles: z.array(z.looseObject({})).optional() })
    .nullable(),
  // Fields a part built before them does not carry: the joined site shows what the part's own pages would without.
  models: z.array(z.string()).nullable().default(null),
  stepsPerModel: z.record(z.string(), z.number()).nullable().default(null),
  conversation: z.looseObject({}).nullable().default(null),
  family: z.looseObject({}).nullable().default(null),
  ending: z.string().nullable().default(null),
  notOnDiskSince: z.string().nullable().default(null),
  failedCalls: z.number().nullable().default(null),
  agentErrors: z.number().nullable().default(null),
  base: z.string(),
  searchBundle: z.string(),
  usage: TokenCountsSchema.extend({ by_model: z.record(z.string(), TokenCountsSchema) }).optional(),
  usageByDay: z.record(z.string(), TokenCountsSchema.extend({ by_model: z.record(z.string(), TokenCountsSchema) })).optional(),
});

/** One part: its folder, its base path (`/team-a/`) and its sessions, as read. */
export interface JoinPart {
  dir: string;
  base: string;
  sessions: SessionIndexEntry[];
}

/** A session of the joined site, with the part that holds its pages. */
export interface JoinedSession extends SessionIndexEntry {
  /** The part's folder, for the report. */
  partDir: string;
  /** Error steps, as a part built before sessions.json dropped that third count published them. */
  errors?: number;
}

/** A Pagefind bundle to merge into the joined search, and the base its result URLs are relative to. */
export interface SearchBundle {
  /** URL of the bundle folder, ending in `/` (`/team-a/pagefind/shard-1/`). */
  bundle: string;
  /** The part's base path, ending in `/` (`/team-a/`): Pagefind prefixes its result URLs with it. */
  baseUrl: string;
}

/** The joined site's data. */
export interface JoinedSite {
  parts: { dir: string; base: string; sessions: number }[];
  /** Every session of every part, newest first; a session in two parts is listed once (the first part given). */
  sessions: JoinedSession[];
  /** Every part's bundles holding sessions, parts in the order given, shards in order. */
  bundles: SearchBundle[];
  /** What could not be joined (bad entries, a session in two parts), for `/report/`. */
  problems: ProblemRow[];
}

/** Thrown when a part folder is not a built site: the operator's mistake, so the build stops with a hint. */
export class JoinPartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'JoinPartError';
  }
}

/** `/team-a/` from `/team-a`, `team-a/`, `` or `/`: leading and trailing slash, as Pagefind's `baseUrl` wants. */
function slashed(base: string): string {
  const inner = base.trim().replace(/^\/+|\/+$/g, '');
  return inner ? `/${inner}/` : '/';
}

/**
 * Read one built part (`<dir>/sessions.json`). Throws `JoinPartError` when the folder holds no site or no readable
 * index; an entry that does not parse is left out and listed as a problem, the rest of the part is joined.
 */
export function readPart(dir: string): { part: JoinPart; problems: ProblemRow[] } {
  const file = path.join(dir, 'sessions.json');
  let raw: unknown;
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a folder');
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new JoinPartError(
      `ARCHIVE_JOIN: ${dir} is not a built part (${file}: ${String(error instanceof Error ? error.message : error)}). ` +
        'Hint: give the out dir of an `npm run build` (its dist/ folder), one per part, `:`-separated.',
      { cause: error },
    );
  }
  if (!Array.isArray(raw)) throw new JoinPartError(`ARCHIVE_JOIN: ${file} is not a list of sessions. Hint: rebuild the part with this version of agy-archive.`);
  const problems: ProblemRow[] = [];
  const sessions: SessionIndexEntry[] = [];
  raw.forEach((value, i) => {
    const parsed = JoinEntrySchema.safeParse(value);
    if (parsed.success) sessions.push(parsed.data as unknown as SessionIndexEntry);
    else {
      const issue = parsed.error.issues[0];
      problems.push({
        kind: 'join-entry',
        file,
        message: `entry ${i + 1} left out: ${issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'does not parse'} (a part built by an older version: rebuild it)`,
      });
    }
  });
  // Every entry names the part's base; a part with no session says nothing, and its base matters to nobody.
  const base = slashed(sessions[0]?.base ?? '/');
  return { part: { dir, base, sessions: sessions.map((s) => ({ ...s, base: slashed(s.base) })) }, problems };
}

function newestFirst(a: SessionIndexEntry, b: SessionIndexEntry): number {
  return a.created < b.created ? 1 : a.created > b.created ? -1 : a.id.localeCompare(b.id);
}

/** Join parts (see the module comment). Two parts under one base would overwrite each other's pages: a problem. */
export function joinParts(parts: readonly JoinPart[], given: readonly ProblemRow[] = []): JoinedSite {
  const problems: ProblemRow[] = [...given];
  const seen = new Map<string, string>();
  const sessions: JoinedSession[] = [];
  const bundles: SearchBundle[] = [];
  const bases = new Map<string, string>();
  for (const part of parts) {
    const other = bases.get(part.base);
    if (other !== undefined && part.sessions.length > 0) {
      problems.push({ kind: 'join-base', file: part.dir, message: `built under the same base path (${part.base}) as ${other}: their pages would be served from one place` });
    }
    if (part.sessions.length > 0) bases.set(part.base, part.dir);
    const partBundles = new Set<string>();
    for (const s of part.sessions) {
      const first = seen.get(s.id);
      if (first !== undefined) {
        problems.push({ kind: 'join-duplicate', sessionId: s.id, file: part.dir, message: `session also in ${first}; the joined site links to the copy there` });
        continue;
      }
      seen.set(s.id, part.dir);
      sessions.push({ ...s, partDir: part.dir });
      partBundles.add(s.searchBundle);
    }
    for (const rel of [...partBundles].sort()) bundles.push({ bundle: `${part.base}${rel.replace(/^\/+/, '')}`, baseUrl: part.base });
  }
  sessions.sort(newestFirst);
  return { parts: parts.map((p) => ({ dir: p.dir, base: p.base, sessions: p.sessions.length })), sessions, bundles, problems };
}

/** Read and join the parts in `dirs` (the folders of ARCHIVE_JOIN, in order). */
export function joinPartFolders(dirs: readonly string[]): JoinedSite {
  const problems: ProblemRow[] = [];
  const parts = dirs.map((dir) => {
    const read = readPart(dir);
    problems.push(...read.problems);
    return read.part;
  });
  return joinParts(parts, problems);
}

/**
 * A joined session as the site's session summary, for the collections the joined site's pages read: the facts and
 * counts the part published, nothing of its files (no uploads, problems or redactions: those are on the part's own
 * pages and report). `ref` points nowhere: a joined build renders no page of a session.
 */
export function joinedSummary(s: JoinedSession): SessionSummary {
  return {
    id: s.id,
    prefix: s.prefix,
    product: s.product,
    title: s.title,
    ...(s.model !== null ? { model: s.model } : {}),
    ...(s.localTime !== null ? { localTime: s.localTime } : {}),
    ...(s.workspace !== null ? { workspace: s.workspace } : {}),
    createdAt: s.created,
    ...(s.durationMs !== null ? { durationMs: s.durationMs } : {}),
    stepCount: s.steps,
    toolCallCount: s.toolCalls,
    errorCount: s.errors ?? 0,
    toolCounts: s.toolCounts,
    messageCount: s.messages,
    taskLogCount: s.taskLogs,
    artifactCount: s.artifacts,
    uploads: [],
    transcriptFiles: [],
    problems: [],
    redactions: [],
    redacted: s.redacted,
    ...(s.audit ? { audit: s.audit as SessionSummary['audit'] } : {}),
    ...(s.models ? { models: s.models } : {}),
    ...(s.stepsPerModel ? { stepsPerModel: s.stepsPerModel } : {}),
    stepDays: s.stepDays,
    ...(s.usage ? { usage: { ...s.usage, byDay: s.usageByDay ?? {} } } : {}),
    ...(s.conversation ? { conversation: s.conversation } : {}),
    ...(s.family ? { family: s.family } : {}),
    ...(s.ending !== null ? { ending: s.ending } : {}),
    ...(s.notOnDiskSince !== null ? { notOnDiskSince: s.notOnDiskSince } : {}),
    ref: { id: s.id, product: s.product, root: '', dir: '', mtimeMs: 0, ctimeMs: 0 },
  };
}
