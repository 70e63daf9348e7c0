/**
 * The cross-session audit lists (`/audit/commands/`, `/audit/files/`, `/audit/errors/`): every session's rows
 * flattened, newest first, and cut into pages so no page grows with the archive (about 15k commands at 100k steps).
 * Pure: works on the lean session summaries, no `astro:*` import.
 */
import type { SessionSummary } from '../archive/schemas.ts';
import type { ChangedFile, CommandRow, ErrorRow, FileChangeRow, SessionAudit } from './schemas.ts';
import { changedPaths } from '../turns/file-changes.ts';

/** Rows per list page. */
export const PAGE_SIZE = 500;
/** Paths per page of `/audit/files/`. */
export const PATHS_PER_PAGE = 200;

/** The session a flattened row came from (what a list needs to show and link it). */
export interface RowSession {
  id: string;
  prefix: string;
  title: string;
  product: string;
  /** True when the session was started by another one (the session tree); audit pages can leave such rows out. */
  subagent?: boolean;
}

/** A row with its session. */
export type Located<T> = T & { session: RowSession };

const EMPTY: SessionAudit = { commands: [], files: [], errors: [] };

/** A session's audit rows (empty for entries stored before the rows existed). */
export function auditOf(session: Pick<SessionSummary, 'audit'>): SessionAudit {
  return session.audit ?? EMPTY;
}

/** Ids of the sessions another session started (from the session tree); empty when none. */
export type SubagentIds = ReadonlySet<string>;
const NONE: SubagentIds = new Set();

function located<T extends { at?: string; key: string }>(sessions: SessionSummary[], pick: (a: SessionAudit) => T[], subagents: SubagentIds): Located<T>[] {
  const out: Located<T>[] = [];
  for (const s of sessions) {
    const session: RowSession = { id: s.id, prefix: s.prefix, title: s.title, product: s.product };
    if (subagents.has(s.id)) session.subagent = true;
    // Rows without a time take their session's start, so they sort with it.
    for (const row of pick(auditOf(s))) out.push({ ...row, at: row.at ?? s.createdAt, session });
  }
  return out.sort(newestFirst);
}

function newestFirst(a: { at?: string; session: RowSession; key: string }, b: { at?: string; session: RowSession; key: string }): number {
  const ta = a.at ?? '';
  const tb = b.at ?? '';
  if (ta !== tb) return ta < tb ? 1 : -1;
  if (a.session.id !== b.session.id) return a.session.id.localeCompare(b.session.id);
  return b.key.localeCompare(a.key, undefined, { numeric: true });
}

/** The command filters, each its own set of pages (so they work without JavaScript). */
export const COMMAND_FILTERS = {
  all: { label: 'All commands', keep: (_: CommandRow) => true },
  'outside-sandbox': { label: 'Outside the sandbox', keep: (c: CommandRow) => c.bypass },
  failed: { label: 'Failed', keep: (c: CommandRow) => c.failed },
} as const;

/** A command filter name. */
export type CommandFilter = keyof typeof COMMAND_FILTERS;

/** Every command of every session, newest first. */
export function allCommands(sessions: SessionSummary[], subagents: SubagentIds = NONE): Located<CommandRow>[] {
  return located(sessions, (a) => a.commands, subagents);
}

/** Every error row of every session, newest first. */
export function allErrors(sessions: SessionSummary[], subagents: SubagentIds = NONE): Located<ErrorRow>[] {
  return located(sessions, (a) => a.errors, subagents);
}

/** Every file change of every session, newest first. */
export function allFileChanges(sessions: SessionSummary[], subagents: SubagentIds = NONE): Located<FileChangeRow>[] {
  return located(sessions, (a) => a.files, subagents);
}

/** What one session did to a path: its file facts (`turns/file-history.ts`) and its edit calls, newest first. */
export interface SessionFileGroup {
  session: RowSession;
  /** The session's facts for the path; absent for an entry stored before they were kept. */
  file?: ChangedFile;
  /** The file's 1-based place on the session's changes page (its anchor there). */
  n?: number;
  changes: Located<FileChangeRow>[];
  /** Edits that changed it and failed attempts, lines added and removed (net where the session's records allow). */
  edits: number;
  failedEdits: number;
  added: number;
  removed: number;
}

/** One path, once: every session that changed it (most recent first), every change (newest first). */
export interface PathGroup {
  path: string;
  changes: Located<FileChangeRow>[];
  sessions: SessionFileGroup[];
  /** Summed over its sessions: each session's net lines where it has them, else its edits' sum. */
  added: number;
  removed: number;
  /** Edits applied and failed, over every session. */
  edits: number;
  failedEdits: number;
  /** Some session created it. */
  created: boolean;
  /** Newest change time. */
  lastAt: string;
}

/**
 * File changes grouped by path, and within a path by session, as a session's changes page groups them (each file
 * once, its edits, lines added and removed); the most recently changed path first.
 */
export function fileGroups(sessions: SessionSummary[], subagents: SubagentIds = NONE): PathGroup[] {
  const facts = new Map<string, { file: ChangedFile; n: number }>();
  for (const s of sessions) (auditOf(s).changedFiles ?? []).forEach((file, i) => facts.set(`${s.id}\n${file.path}`, { file, n: i + 1 }));
  const byPath = new Map<string, PathGroup>();
  for (const change of allFileChanges(sessions, subagents)) {
    let group = byPath.get(change.path);
    if (!group) {
      group = { path: change.path, changes: [], sessions: [], added: 0, removed: 0, edits: 0, failedEdits: 0, created: false, lastAt: change.at ?? '' };
      byPath.set(change.path, group);
    }
    group.changes.push(change);
    let bySession = group.sessions.find((g) => g.session.id === change.session.id);
    if (!bySession) {
      const known = facts.get(`${change.session.id}\n${change.path}`);
      bySession = { session: change.session, changes: [], edits: 0, failedEdits: 0, added: 0, removed: 0 };
      if (known) {
        bySession.file = known.file;
        bySession.n = known.n;
      }
      group.sessions.push(bySession);
    }
    bySession.changes.push(change);
    // A failed edit changed nothing (`turns/file-changes.ts`): listed, its lines not added to the path's.
    if (change.failed) bySession.failedEdits++;
    else bySession.edits++;
    if (!bySession.file && !change.failed) {
      bySession.added += change.added;
      bySession.removed += change.removed;
    }
  }
  for (const group of byPath.values()) {
    for (const g of group.sessions) {
      if (g.file) {
        g.added = g.file.added;
        g.removed = g.file.removed;
        if (g.file.created) group.created = true;
      }
      group.added += g.added;
      group.removed += g.removed;
      group.edits += g.edits;
      group.failedEdits += g.failedEdits;
    }
  }
  return [...byPath.values()];
}

/** A page of a paginated list. */
export interface ListPage<T> {
  /** 1-based page number. */
  n: number;
  /** Number of pages (at least 1: an empty list still has its page). */
  pages: number;
  /** Total items across pages. */
  total: number;
  items: T[];
}

/** Cut `items` into pages of `size` (one empty page when there are none). */
export function paginate<T>(items: T[], size = PAGE_SIZE): ListPage<T>[] {
  const pages = Math.max(1, Math.ceil(items.length / size));
  return Array.from({ length: pages }, (_, i) => ({ n: i + 1, pages, total: items.length, items: items.slice(i * size, (i + 1) * size) }));
}

/** Astro route params for a paginated list: page 1 at the list's own URL, page n at `<n>/`. */
export function pageParam(n: number): string | undefined {
  return n > 1 ? String(n) : undefined;
}

/** Every page of `/audit/commands/` (each filter, each page number) as a catch-all route param and its rows. */
export function commandListPaths(sessions: SessionSummary[], subagents: SubagentIds = NONE) {
  const commands = allCommands(sessions, subagents);
  const counts = filterCounts(commands);
  return (Object.keys(COMMAND_FILTERS) as CommandFilter[]).flatMap((filter) =>
    paginate(commands.filter(COMMAND_FILTERS[filter].keep)).map((page) => {
      const parts = [filter === 'all' ? undefined : filter, pageParam(page.n)].filter((p) => p !== undefined);
      return { params: { path: parts.length > 0 ? parts.join('/') : undefined }, props: { filter, page, counts } };
    }),
  );
}

function filterCounts(commands: CommandRow[]): Record<CommandFilter, number> {
  return {
    all: commands.length,
    'outside-sandbox': commands.filter(COMMAND_FILTERS['outside-sandbox'].keep).length,
    failed: commands.filter(COMMAND_FILTERS.failed.keep).length,
  };
}

/** Every page of `/audit/files/` (path groups, paginated). */
export function fileListPaths(sessions: SessionSummary[], subagents: SubagentIds = NONE) {
  const groups = fileGroups(sessions, subagents);
  const changes = groups.reduce((n, g) => n + g.changes.length, 0);
  const failed = groups.reduce((n, g) => n + g.changes.filter((c) => c.failed).length, 0);
  const filesChanged = changedPaths(groups.flatMap((g) => g.changes)).length;
  return paginate(groups, PATHS_PER_PAGE).map((page) => ({ params: { page: pageParam(page.n) }, props: { page, changes, failed, filesChanged } }));
}

/** Message groups per page of `/audit/errors/`. */
export const ERROR_GROUPS_PER_PAGE = 200;
/** Occurrences linked per group (the newest); the count says how many there are in all. */
export const OCCURRENCES_SHOWN = 50;

/** The failures that said the same thing: one message, how often, first and last seen, every occurrence. */
export interface ErrorGroup {
  /** The message as every occurrence has it (`''` when the record said nothing). */
  message: string;
  /** Newest first. */
  occurrences: Located<ErrorRow>[];
  /** How many of them are failed calls and how many agent errors (`turns/failures.ts`). */
  failedCalls: number;
  agentErrors: number;
  /** Tools of the failed calls, and error codes, each once, in order of first use. */
  tools: string[];
  errorCodes: string[];
  /** Oldest and newest occurrence. */
  first: Located<ErrorRow>;
  last: Located<ErrorRow>;
}

/** What a row counts as; rows stored before `failure` existed were error steps answering no call of their own. */
function failureOf(row: ErrorRow): 'call' | 'agent' {
  return row.failure ?? (row.type === 'ERROR_MESSAGE' ? 'agent' : 'call');
}

/**
 * Every failure of every session grouped by identical message (the same empty-model-output error was 70 rows of
 * one list), the group seen last first. A group of one is a failure that happened once.
 */
export function errorGroups(sessions: SessionSummary[], subagents: SubagentIds = NONE): ErrorGroup[] {
  const byMessage = new Map<string, ErrorGroup>();
  for (const row of allErrors(sessions, subagents)) {
    let g = byMessage.get(row.message);
    if (!g) {
      g = { message: row.message, occurrences: [], failedCalls: 0, agentErrors: 0, tools: [], errorCodes: [], first: row, last: row };
      byMessage.set(row.message, g);
    }
    // Rows arrive newest first: the first row is the last seen, each later one the earliest so far.
    g.occurrences.push(row);
    g.first = row;
    if (failureOf(row) === 'call') g.failedCalls++;
    else g.agentErrors++;
    if (row.tool && !g.tools.includes(row.tool)) g.tools.push(row.tool);
    if (row.errorCode !== undefined && !g.errorCodes.includes(row.errorCode)) g.errorCodes.push(row.errorCode);
  }
  return [...byMessage.values()];
}

/** Totals of message groups: failed calls, agent errors, different messages. */
function groupTotals(groups: ErrorGroup[]): { failedCalls: number; agentErrors: number; groups: number } {
  return {
    failedCalls: groups.reduce((n, g) => n + g.failedCalls, 0),
    agentErrors: groups.reduce((n, g) => n + g.agentErrors, 0),
    groups: groups.length,
  };
}

/** The failed calls and agent errors of every session, counted from the same rows the list shows. */
export function errorCounts(sessions: SessionSummary[], subagents: SubagentIds = NONE): { failedCalls: number; agentErrors: number; groups: number } {
  return groupTotals(errorGroups(sessions, subagents));
}

/** Every page of `/audit/errors/`: message groups, paginated, with the totals. */
export function errorListPaths(sessions: SessionSummary[], subagents: SubagentIds = NONE) {
  const groups = errorGroups(sessions, subagents);
  const counts = groupTotals(groups);
  return paginate(groups, ERROR_GROUPS_PER_PAGE).map((page) => ({ params: { page: pageParam(page.n) }, props: { page, counts } }));
}
