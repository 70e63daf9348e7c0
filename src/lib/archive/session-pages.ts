/**
 * How a session's long lists are cut into pages, so no page under a session grows past `PAGE_HTML_MAX` (issue 11:
 * one real task-log page was 4.1 MB, one session page 4.8 MB). Pure, no `astro:*` import: the loader computes the
 * page starts once from the whole session (`summarise.ts`) and stores them in the lean summary, so each page's
 * `getStaticPaths` knows its pages without reading bodies.
 */
import type { Message, TaskLog } from '../brain/types.ts';
import { threadOrder } from '../audit/thread.ts';
import type { SessionSummary } from './schemas.ts';

/** The most HTML any page under a session may weigh (issue 11). */
export const PAGE_HTML_MAX = 1.5 * 1024 * 1024;

/**
 * Characters of transcript text one page holds before the next page starts. Well under `PAGE_HTML_MAX`: escaping
 * (`<` → `&lt;`), the markup around each item and the page frame add to it (a messages page of 200 real messages,
 * 430 kB of text, was 564 kB of HTML).
 */
export const PAGE_TEXT_BUDGET = 700_000;

/** Rows per page of a session's timeline table (a row is ~400 bytes of HTML: 1,000 rows ≈ 400 kB). */
export const TIMELINE_PAGE_ROWS = 1000;

/** Messages per page of a session's message thread at most (real session 86033144 has 1,179). */
export const MESSAGES_PER_PAGE = 200;

/** Characters of one message shown on its page (the rest is in its file, named under it). */
export const MESSAGE_TEXT_MAX = 20_000;

/**
 * A task log longer than this is shown by its head (`TASK_LOG_HEAD` characters) and a link to its whole text,
 * published beside the pages as `<name>.txt`: one real log alone was over a page's budget.
 */
export const TASK_LOG_PAGE_MAX = 400_000;
/** Characters of a long task log shown on its page. */
export const TASK_LOG_HEAD = 200_000;

/**
 * The index of the first item of each page: a page ends before the item that would take it past `maxChars`
 * (an item bigger than the budget gets a page of its own) or past `maxItems`. `[0]` for an empty list.
 */
export function pageStarts(sizes: readonly number[], maxItems: number, maxChars = PAGE_TEXT_BUDGET): number[] {
  const starts = [0];
  let items = 0;
  let chars = 0;
  sizes.forEach((size, i) => {
    if (items > 0 && (items >= maxItems || chars + size > maxChars)) {
      starts.push(i);
      items = 0;
      chars = 0;
    }
    items++;
    chars += size;
  });
  return starts;
}

/** The items of page `n` (1-based) given the page starts. */
export function pageSlice<T>(items: readonly T[], starts: readonly number[], n: number): T[] {
  return items.slice(starts[n - 1] ?? items.length, starts[n] ?? items.length);
}

/** The 1-based page holding item `index` given the page starts. */
export function pageOfIndex(starts: readonly number[], index: number): number {
  let n = 1;
  while (n < starts.length && (starts[n] ?? Infinity) <= index) n++;
  return n;
}

/** The timeline page (1-based) holding the step at `position`. */
export function timelinePageOf(position: number): number {
  return Math.floor(position / TIMELINE_PAGE_ROWS) + 1;
}

/** Timeline pages of a session of `steps` steps (at least 1). */
export function timelinePageCount(steps: number): number {
  return Math.max(1, Math.ceil(steps / TIMELINE_PAGE_ROWS));
}

/** Task logs in the order their pages show them (by file name). */
export function taskLogOrder(logs: readonly TaskLog[]): TaskLog[] {
  return [...logs].sort((a, b) => a.file.localeCompare(b.file));
}

/** The characters a task log puts on its page (its head when it is too long for one). */
export function taskLogShownChars(log: TaskLog): number {
  return log.text.length > TASK_LOG_PAGE_MAX ? TASK_LOG_HEAD : log.text.length;
}

/** The names of the task logs too long for a page (published whole beside it); absent when none. */
export function longTaskLogs(logs: readonly TaskLog[]): string[] | undefined {
  const long = taskLogOrder(logs).filter((log) => log.text.length > TASK_LOG_PAGE_MAX).map((log) => log.name);
  return long.length > 0 ? long : undefined;
}

/** The page starts of a session's task-log pages (in `taskLogOrder`). */
export function taskLogPageStarts(logs: readonly TaskLog[]): number[] {
  return pageStarts(taskLogOrder(logs).map((log) => taskLogShownChars(log) + 200), Infinity);
}

/** The page starts of a session's message pages (in `threadOrder`). */
export function messagePageStarts(messages: readonly Message[]): number[] {
  const sizes = threadOrder([...messages]).map((m) => Math.min(m.content?.length ?? 0, MESSAGE_TEXT_MAX) + (m.title?.length ?? 0) + 300);
  return pageStarts(sizes, MESSAGES_PER_PAGE);
}

/** Astro's param for page `n` of a paginated list: page 1 at the list's own URL, page n at `<n>/`. */
function pageParam(n: number): string | undefined {
  return n > 1 ? String(n) : undefined;
}

/** Page `n` of `count` pages, for a page's props. */
export interface PageOf {
  /** 1-based. */
  n: number;
  pages: number;
}

function everyPage<T>(count: number, make: (page: PageOf) => T): T[] {
  return Array.from({ length: Math.max(1, count) }, (_, i) => make({ n: i + 1, pages: Math.max(1, count) }));
}

/** `/sessions/<id>/messages/[<n>/]` for every session with messages (page numbers only; bodies at render time). */
export function messagePagePaths(sessions: SessionSummary[]) {
  return sessions.flatMap((session) => {
    if (session.messageCount === 0) return [];
    const starts = session.messagePageStarts ?? pageStarts(Array.from({ length: session.messageCount }, () => 0), MESSAGES_PER_PAGE);
    return everyPage(starts.length, (page) => ({ params: { id: session.id, page: pageParam(page.n) }, props: { session, ...page, starts } }));
  });
}

/** `/sessions/<id>/tasks/[<n>/]` for every session with task logs or background tasks (those on page 1). */
export function taskPagePaths(sessions: SessionSummary[]) {
  return sessions.flatMap((session) => {
    if (session.taskLogCount === 0 && (session.family?.backgroundTasks ?? 0) === 0) return [];
    const starts = session.taskLogPageStarts ?? [0];
    return everyPage(starts.length, (page) => ({ params: { id: session.id, page: pageParam(page.n) }, props: { session, ...page, starts } }));
  });
}

/** `/sessions/<id>/timeline/[<n>/]` for every session (an empty session still has its page). */
export function timelinePagePaths(sessions: SessionSummary[]) {
  return sessions.flatMap((session) =>
    everyPage(timelinePageCount(session.stepCount), (page) => ({ params: { id: session.id, page: pageParam(page.n) }, props: { session, ...page } })),
  );
}
