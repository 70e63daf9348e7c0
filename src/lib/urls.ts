/**
 * The one module that builds every link of the site, base-path aware (`ARCHIVE_BASE` → Astro `base` →
 * `basePath()`). Pages never write a path by hand: a change to the URL layout happens here.
 * Every page URL ends in `/` (Astro's directory build format); files (uploads, assets) do not.
 *
 * In a joined build (ARCHIVE_JOIN, `src/lib/join/`) a session's pages are in its part: every link under
 * `/sessions/<id>/` is built under that part's base path instead of this site's. Those bases are given to this
 * module (`useSessionBases`, by the routing module when the build is a join); it never reads the join itself, so
 * data flows one way (it used to import the join's state, which imports the audit export, which imports this).
 */

/** Each joined session's part base path (no trailing slash); empty for an ordinary build. */
let sessionBases: ReadonlyMap<string, string> = new Map();

/**
 * Give this module the base path of the part holding each session's pages (a joined build). A session not in the
 * map is this site's own.
 */
export function useSessionBases(bases: ReadonlyMap<string, string>): void {
  sessionBases = new Map([...bases].map(([id, base]) => [id, base.replace(/\/+$/, '')]));
}

/**
 * The site's base path without a trailing slash (`''` at the root). Read from ARCHIVE_BASE (the same variable
 * astro.config.mjs gives Astro as `base`): pages render in Node, and under Vite 8 `import.meta.env.BASE_URL`
 * in server code came out as `/` even with a base set (seen in the ARCHIVE_BASE build test).
 */
export function basePath(env: Record<string, string | undefined> = process.env): string {
  const raw = (env.ARCHIVE_BASE ?? '').trim();
  if (raw === '' || raw === '/') return '';
  return `/${raw.replace(/^\/+|\/+$/g, '')}`;
}

/** Join the base and path segments; each segment is URI-encoded. */
function page(...segments: string[]): string {
  const rest = segments.map((s) => encodeURIComponent(s)).join('/');
  return `${basePath()}/${rest}${rest ? '/' : ''}`;
}

function file(...segments: string[]): string {
  return `${basePath()}/${segments.map((s) => encodeURIComponent(s)).join('/')}`;
}

/** A page (`sessionPage`) or file (`sessionFile`) of session `id`: under its part's base in a joined build. */
function sessionPage(id: string, ...rest: string[]): string {
  const base = sessionBases.get(id);
  const own = page('sessions', id, ...rest);
  return base === undefined ? own : `${base}${own.slice(basePath().length)}`;
}

function sessionFile(id: string, ...rest: string[]): string {
  const base = sessionBases.get(id);
  const own = file('sessions', id, ...rest);
  return base === undefined ? own : `${base}${own.slice(basePath().length)}`;
}

/** Every link the site builds. */
export const urls = {
  home: (): string => page(),
  session: (id: string): string => sessionPage(id),
  step: (id: string, key: string): string => sessionPage(id, 'steps', key),
  /** The whole text of a step field too long for its page (`content`, `thinking`, `output`, `content-md`). */
  stepText: (id: string, key: string, field: string): string => sessionFile(id, 'steps', key, `${field}.txt`),
  artifact: (id: string, slug: string): string => sessionPage(id, 'artifacts', slug),
  /** One version of an artifact's history (`n` from 1, oldest first): its diff from the one before and its text. */
  artifactVersion: (id: string, slug: string, n: number): string => sessionPage(id, 'artifacts', slug, 'versions', String(n)),
  /** A published upload (`served` is the `<n>.<ext>` file name from the summary). */
  upload: (id: string, served: string): string => sessionFile(id, 'uploads', served),
  /** A published image of the browser subagent's trail (`served` from the summary's `browserTrail`). */
  browserFile: (id: string, served: string): string => sessionFile(id, 'browser', served),
  shortLink: (prefix: string): string => page('s', prefix),
  search: (query?: string): string => page('search') + (query ? `?q=${encodeURIComponent(query)}` : ''),
  report: (): string => page('report'),
  /** The report's list of passwords found in prose, for an owner to check each one. */
  reportProsePasswords: (): string => `${page('report')}#prose-passwords`,
  /** The build report of a joined part, from the part's base path (`/team-a/` → `/team-a/report/`). */
  partReport: (partBase: string): string => `${partBase.replace(/\/+$/, '')}/report/`,
  about: (): string => page('about'),
  /** A file under `public/` or generated at the root (e.g. `pagefind/pagefind.js`). */
  asset: (rel: string): string => `${basePath()}/${rel.replace(/^\/+/, '')}`,
  /** The Pagefind bundle folder. */
  pagefind: (rel = ''): string => `${basePath()}/pagefind/${rel}`,
  /** `/stats/`: charts across every session. */
  stats: (): string => page('stats'),
  /** An audit list page: `/audit/<view>/[<filter>/][<n>/]` (page 1 has no number). */
  auditList: (view: string, filter?: string, n = 1): string =>
    page('audit', view, ...(filter ? [filter] : []), ...(n > 1 ? [String(n)] : [])),
  /** `/audit/`: the audit views' overview. */
  auditHome: (): string => page('audit'),
  /** `/sessions.json`: every session, for tooling. */
  sessionsJson: (): string => file('sessions.json'),
  /** The self-contained single-file export of a session. */
  sessionExport: (id: string): string => sessionFile(id, 'export.html'),
  /** A session's messages, paginated (page 1 has no number). */
  messages: (id: string, n = 1): string => sessionPage(id, 'messages', ...(n > 1 ? [String(n)] : [])),
  /** A session's task logs, paginated (page 1 has no number). */
  tasks: (id: string, n = 1): string => sessionPage(id, 'tasks', ...(n > 1 ? [String(n)] : [])),
  /** The whole text of one task log (`name` as the reader names it: `task-879` for `tasks/task-879.log`), for logs too long for a page. */
  taskLogText: (id: string, name: string): string => sessionFile(id, 'tasks', `${name}.log.txt`),
  /** A task log on the task-log page `n` that holds it (`taskLogPageOf`). */
  taskLog: (id: string, name: string, n = 1): string => `${urls.tasks(id, n)}#${encodeURIComponent(anchors.taskLog(name))}`,
  /** A session's timeline table (every step), paginated (page 1 has no number). */
  timeline: (id: string, n = 1): string => sessionPage(id, 'timeline', ...(n > 1 ? [String(n)] : [])),
  /** A step's row in its session's timeline; `page` is the timeline page holding it (`timelinePageOf`). */
  stepInTimeline: (id: string, key: string, n = 1): string => `${urls.timeline(id, n)}#${encodeURIComponent(anchors.step(key))}`,
  /** A page of a session's conversation: page 1 is the session page itself, later pages `conversation/<n>/`. */
  conversation: (id: string, n = 1): string => (n > 1 ? sessionPage(id, 'conversation', String(n)) : sessionPage(id)),
  /** One background task (`<id>/task-N`) on its session's tasks page (page 1): start, notices, end and log. */
  backgroundTask: (id: string, n: number): string => `${sessionPage(id, 'tasks')}#${anchors.backgroundTask(n)}`,
  /** A tool call in the conversation, on the conversation page `n` that holds it. */
  callInConversation: (id: string, callId: string, n = 1): string => `${urls.conversation(id, n)}#${encodeURIComponent(anchors.call(callId))}`,
  /** Every command a session ran, paginated (page 1 has no number). */
  sessionCommands: (id: string, n = 1): string => sessionPage(id, 'commands', ...(n > 1 ? [String(n)] : [])),
  /** Every file change of a session, paginated (page 1 has no number). */
  sessionFiles: (id: string, n = 1): string => sessionPage(id, 'files', ...(n > 1 ? [String(n)] : [])),
  /** Every file a session changed, once each, with its net diff (`turns/file-history.ts`). */
  sessionChanges: (id: string): string => sessionPage(id, 'changes'),
  /** One file on its session's changes page (`n`: its 1-based place in the page's list). */
  fileInChanges: (id: string, n: number): string => `${sessionPage(id, 'changes')}#${anchors.changedFile(n)}`,
  /** Every failed call of a session on one page, across its conversation pages. */
  sessionFailures: (id: string): string => sessionPage(id, 'failures'),
  /** A turn of a session's conversation, on the conversation page `n` that holds it. */
  turn: (id: string, turn: number, n = 1): string => `${urls.conversation(id, n)}#${encodeURIComponent(anchors.turn(turn))}`,
  /** A step in the conversation, on the conversation page `n` that holds it. */
  stepInConversation: (id: string, key: string, n = 1): string => `${urls.conversation(id, n)}#${encodeURIComponent(anchors.step(key))}`,
};

/** Anchors inside a session page. */
export const anchors = {
  step: (key: string): string => `step-${key}`,
  /** A turn's header (`Turn.anchor` of the turn builder is the same). */
  turn: (n: number): string => `turn-${n}`,
  /** One tool call in the conversation (`ToolCallView.id`, `<callStepKey>.<callIndex>`). */
  call: (id: string): string => `call-${id}`,
  /** A task log's section on the task-log page, by the task's name: `task-12` is the log of task 12. */
  taskLog: (name: string): string => `task-${name.replace(/^task-/, '')}`,
  /** A background task's group on the tasks page. */
  backgroundTask: (n: number): string => `bg-task-${n}`,
  /** A file on a session's changes page, by its 1-based place in the list. */
  changedFile: (n: number): string => `file-${n}`,
  /** The session page's conversation (the skip link's target). */
  conversation: (): string => 'conversation',
  /** The session page's list of the subagents it started. */
  subagents: (): string => 'subagents',
};
