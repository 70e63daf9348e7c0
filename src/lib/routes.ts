/**
 * The routing module: reads the collections once and yields every route's paths, so each page's `getStaticPaths`
 * is a one-liner over it. Steps and artifacts are grouped by session here (`stepsOf`, `artifactsOf`), in timeline
 * order and the reader's order. Paths come out session by session, in timeline order, so the render-time session cache
 * (`getSessionDetail`) sees the pages of one session one after another.
 *
 * A session's own pages (`/sessions/<id>/**`) are left out when this build reuses them (an incremental build, see
 * `archive/incremental.ts`) or another process renders them (a build split between render processes, see
 * `scripts/build.ts`); pages that list every session (home, audit, stats, report, short links, search,
 * sessions.json) always come from `allSessions()`. A joined build (ARCHIVE_JOIN) renders only those: every session's
 * own pages are in its part.
 */
import { getCollection, getEntry } from 'astro:content';
import { messagePagePaths, taskPagePaths, timelinePagePaths } from './archive/session-pages.ts';
import { recordFamilyNeighbours, rendersSession, sharedFamilyInputs } from './archive/incremental.ts';
import { newestSessionFirst } from './archive/order.ts';
import { shardFolder, siteSearchShards } from './search/shards.ts';
import { artifactDocumentSlug, searchDocumentGroups, type DocumentGroup } from './search/document.ts';
import { currentJoin } from './join/current.ts';
import type { SearchBundle } from './join/join.ts';
import { urls, useSessionBases } from './urls.ts';
import { auditOf, pageParam, paginate } from './audit/lists.ts';
import { groupCommands } from './audit/command-groups.ts';
import type { ArchiveInfo, ArtifactRow, BrowserFileRow, SessionSummary, StepRow, UploadRow } from './archive/schemas.ts';
import { buildSessionTree, type SessionTree, type TreeInput } from './family/tree.ts';
import { sessionLinks, type LinkContext } from './render/links.ts';

/** The three session collections, read once: sessions newest first, steps and artifacts grouped by session. */
interface Collections {
  sessions: SessionSummary[];
  steps: Map<string, StepRow[]>;
  artifacts: Map<string, ArtifactRow[]>;
}

// A joined build's session links point into the parts: the URL module is given their bases here, once, before any
// page renders (every page's getStaticPaths goes through this module).
const joinedAtStart = currentJoin();
if (joinedAtStart) useSessionBases(new Map(joinedAtStart.sessions.map((s) => [s.id, s.base])));

let collectionsOnce: Promise<Collections> | undefined;

function bySession<T extends { sessionId: string; position: number }>(rows: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.sessionId);
    if (list) list.push(row);
    else out.set(row.sessionId, [row]);
  }
  for (const list of out.values()) list.sort((a, b) => a.position - b.position);
  return out;
}

function collections(): Promise<Collections> {
  // A joined build has no step or artifact rows (they are in the parts); asking would only log that they are empty.
  const rowsToo = !currentJoin();
  collectionsOnce ??= Promise.all([
    getCollection('sessions'),
    rowsToo ? getCollection('steps') : Promise.resolve([]),
    rowsToo ? getCollection('artifacts') : Promise.resolve([]),
  ]).then(([sessions, steps, artifacts]) => {
    const loaded = {
      sessions: sessions.map((e) => e.data as SessionSummary).sort(newestSessionFirst),
      steps: bySession(steps.map((e) => e.data as StepRow)),
      artifacts: bySession(artifacts.map((e) => e.data as ArtifactRow)),
    };
    return loaded;
  },
  );
  return collectionsOnce;
}

/** Every session summary, newest first. */
export async function allSessions(): Promise<SessionSummary[]> {
  return (await collections()).sessions;
}

/** One session's timeline rows, in timeline order. */
export async function stepsOf(sessionId: string): Promise<readonly StepRow[]> {
  return (await collections()).steps.get(sessionId) ?? [];
}

/** One session's artifacts, in the reader's order. */
export async function artifactsOf(sessionId: string): Promise<readonly ArtifactRow[]> {
  return (await collections()).artifacts.get(sessionId) ?? [];
}

const linksBySession = new Map<string, Promise<LinkContext>>();

/** Where links in a session's Markdown lead: its artifacts' pages and published uploads (`render/links.ts`). */
export function sessionLinksOf(sessionId: string): Promise<LinkContext> {
  let links = linksBySession.get(sessionId);
  if (!links) {
    links = Promise.all([allSessions(), artifactsOf(sessionId)]).then(([sessions, artifacts]) =>
      sessionLinks({ sessionId, artifacts, uploads: sessions.find((s) => s.id === sessionId)?.uploads ?? [] }),
    );
    linksBySession.set(sessionId, links);
  }
  return links;
}

let familyOnce: Promise<readonly TreeInput[]> | undefined;

/**
 * What the session tree is built from, for every session, newest first: the sessions read here, or, in a render
 * process after the first of a split build (which reads only its own sessions), what the first process read.
 */
function familyInputs(): Promise<readonly TreeInput[]> {
  familyOnce ??= sharedFamilyInputs().then((shared) => shared ?? allSessions());
  return familyOnce;
}

/** Every archived session's title, by id (a page naming another session by its title). */
export async function sessionTitles(): Promise<ReadonlyMap<string, string>> {
  return new Map((await familyInputs()).map((s) => [s.id, s.title]));
}

let treeOnce: Promise<SessionTree> | undefined;

/** The session tree (who started whom), built once per build over every session (`family/tree.ts`). */
export function sessionTree(): Promise<SessionTree> {
  treeOnce ??= familyInputs().then((sessions) => {
    const tree = buildSessionTree(sessions);
    // The next incremental build re-renders a session when one of its family neighbours changed.
    recordFamilyNeighbours(Object.fromEntries([...tree.nodes.values()].map((n) => [n.id, n.neighbours])));
    return tree;
  });
  return treeOnce;
}

/** Ids of the sessions another session started (archived parent or not), for the audit lists. */
export async function subagentSessionIds(): Promise<ReadonlySet<string>> {
  const tree = await sessionTree();
  return new Set([...tree.nodes.values()].filter((n) => n.parent !== undefined).map((n) => n.id));
}

let renderedOnce: Promise<SessionSummary[]> | undefined;

/**
 * The sessions whose own pages this process renders: all of them, minus those an incremental build reuses and those
 * another render process of a split build renders.
 */
export function renderedSessions(): Promise<SessionSummary[]> {
  renderedOnce ??= allSessions().then((sessions) => (currentJoin() ? [] : sessions.filter((s) => rendersSession(s.id))));
  return renderedOnce;
}


const EMPTY_ARCHIVE: ArchiveInfo = {
  isDemo: false,
  redactionEnabled: true,
  inputs: '',
  roots: [],
  sessionsFound: 0,
  shadowed: [],
  problems: [],
  builtAt: new Date(0).toISOString(),
};

/** The build's `archive` entry (roots, flags, root-level problems). */
export async function archiveInfo(): Promise<ArchiveInfo> {
  const entry = await getEntry('archive', 'archive');
  return (entry?.data as ArchiveInfo | undefined) ?? EMPTY_ARCHIVE;
}

/** `/sessions/<id>/` */
export async function sessionPaths() {
  return (await renderedSessions()).map((session) => ({ params: { id: session.id }, props: { session } }));
}

/** `/sessions/<id>/conversation/<n>/`: the conversation pages after the first (the session page) of big sessions. */
export async function conversationPaths() {
  return (await renderedSessions()).flatMap((session) =>
    (session.conversationPages ?? []).slice(1).map((_, i) => ({ params: { id: session.id, n: String(i + 2) }, props: { session, n: i + 2 } })),
  );
}

/** `/sessions/<id>/commands/[<n>/]`: the commands a session ran, `PAGE_SIZE` a page. */
export async function sessionCommandPaths() {
  return (await renderedSessions()).flatMap((session) => {
    const commands = auditOf(session).commands;
    // The first page also groups every run by command (`groupCommands`): retries are one line with a count.
    return paginate(commands).map((page) => ({ params: { id: session.id, page: pageParam(page.n) }, props: { session, page, groups: page.n === 1 ? groupCommands(commands) : undefined } }));
  });
}

/** `/sessions/<id>/files/[<n>/]`: the file changes of a session, `PAGE_SIZE` a page. */
export async function sessionFilePaths() {
  return (await renderedSessions()).flatMap((session) =>
    paginate(auditOf(session).files).map((page) => ({ params: { id: session.id, page: pageParam(page.n) }, props: { session, page } })),
  );
}

/** `/sessions/<id>/changes/`: every file a session changed, once each, with its net diff. */
export async function sessionChangePaths() {
  return (await renderedSessions()).map((session) => ({ params: { id: session.id }, props: { session } }));
}

/** `/sessions/<id>/failures/`: every failed call of a session, whichever conversation page holds it. */
export async function sessionFailurePaths() {
  return (await renderedSessions()).map((session) => ({ params: { id: session.id }, props: { session } }));
}

/** `/sessions/<id>/steps/<key>/`, with the neighbouring rows for prev/next. */
export async function stepPaths() {
  const { steps } = await collections();
  return (await renderedSessions()).flatMap((session) => {
    const rows = steps.get(session.id) ?? [];
    return rows.map((row: StepRow, i: number) => ({
      params: { id: session.id, key: row.key },
      props: { session, row, prev: rows[i - 1], next: rows[i + 1] },
    }));
  });
}

/**
 * `/sessions/<id>/search/<doc>.html`: the session's search documents, one per turn or part of a long turn
 * (`search/document.ts`), each with its steps' keys.
 */
export async function searchDocumentPaths() {
  const { steps, artifacts } = await collections();
  return (await renderedSessions()).flatMap((session) => {
    const rows = steps.get(session.id) ?? [];
    const turns = searchDocumentGroups(rows).map((group, i) => ({
      params: { id: session.id, doc: group.slug },
      props: { session, group, first: i === 0 } as SearchDocumentProps,
    }));
    const pages = (artifacts.get(session.id) ?? []).map((artifact: ArtifactRow) => ({
      params: { id: session.id, doc: artifactDocumentSlug(artifact.slug) },
      props: { session, artifact } as SearchDocumentProps,
    }));
    return [...turns, ...pages];
  });
}

/** A search document's props: a turn's group of steps, or an artifact. */
export type SearchDocumentProps = { session: SessionSummary; group: DocumentGroup; first: boolean; artifact?: undefined } | { session: SessionSummary; artifact: ArtifactRow; group?: undefined };

/** `/sessions/<id>/artifacts/<slug>/` */
export async function artifactPaths() {
  const { artifacts } = await collections();
  return (await renderedSessions()).flatMap((session) =>
    (artifacts.get(session.id) ?? []).map((artifact: ArtifactRow) => ({
      params: { id: session.id, slug: artifact.slug },
      props: { session, artifact },
    })),
  );
}

/** `/sessions/<id>/artifacts/<slug>/versions/<n>/`: one page per entry of an artifact's history, when it has two or more. */
export async function artifactVersionPaths() {
  const { artifacts } = await collections();
  return (await renderedSessions()).flatMap((session) =>
    (artifacts.get(session.id) ?? [])
      .filter((artifact: ArtifactRow) => artifact.history > 1)
      .flatMap((artifact: ArtifactRow) =>
        Array.from({ length: artifact.history }, (_, i) => ({ params: { id: session.id, slug: artifact.slug, n: String(i + 1) }, props: { session, artifact, n: i + 1 } })),
      ),
  );
}

/** `/sessions/<id>/steps/<key>/<field>.txt` for the step fields too long for their page. */
export async function longTextPaths() {
  const { steps } = await collections();
  return (await renderedSessions()).flatMap((session) =>
    (steps.get(session.id) ?? []).flatMap((row: StepRow) =>
      (row.longFields ?? []).map((field) => ({ params: { id: session.id, key: row.key, field }, props: { session, row, field } })),
    ),
  );
}

/** `/sessions/<id>/uploads/<n>.<ext>` for raster images only. */
export async function uploadPaths() {
  return (await renderedSessions()).flatMap((session) =>
    session.uploads
      .filter((u: UploadRow) => u.served !== undefined)
      .map((upload: UploadRow) => ({ params: { id: session.id, file: upload.served as string }, props: { session, upload } })),
  );
}

/** `/sessions/<id>/browser/<name>` for the browser subagent's screenshots and click marks (raster images only). */
export async function browserFilePaths() {
  return (await renderedSessions()).flatMap((session) =>
    (session.browserTrail ?? [])
      .filter((f: BrowserFileRow) => f.served !== undefined)
      .map((browserFile: BrowserFileRow) => ({ params: { id: session.id, file: browserFile.served as string }, props: { session, browserFile } })),
  );
}

/** `/sessions/<id>/messages/[<n>/]` */
export async function messagePaths() {
  return messagePagePaths(await renderedSessions());
}

/** `/sessions/<id>/tasks/[<n>/]` */
export async function taskPaths() {
  return taskPagePaths(await renderedSessions());
}

/** `/sessions/<id>/tasks/<name>.txt`: the whole text of each task log too long for its page. */
export async function taskLogTextPaths() {
  return (await renderedSessions()).flatMap((session) =>
    (session.longTaskLogs ?? []).map((name) => ({ params: { id: session.id, name: `${name}.log` }, props: { session, name } })),
  );
}

/** `/sessions/<id>/timeline/[<n>/]`, with the session's rows of that page. */
export async function timelinePaths() {
  const { steps } = await collections();
  return timelinePagePaths(await renderedSessions()).map((path) => ({ ...path, props: { ...path.props, rows: steps.get(path.params.id) ?? [] } }));
}

/** `/s/<prefix>/`: every session's 8-character prefix, with all sessions sharing it. */
export async function shortLinkPaths() {
  const byPrefix = new Map<string, SessionSummary[]>();
  for (const s of await allSessions()) {
    const list = byPrefix.get(s.prefix) ?? [];
    list.push(s);
    byPrefix.set(s.prefix, list);
  }
  return [...byPrefix].map(([prefix, sessions]) => ({ params: { prefix }, props: { prefix, sessions } }));
}

/**
 * The Pagefind bundles the search page merges, each with the base its result URLs are relative to: this site's
 * shards holding at least one session (shard 0 when none), or in a joined build every part's.
 */
export async function searchBundles(): Promise<SearchBundle[]> {
  const joined = currentJoin();
  if (joined && joined.bundles.length > 0) return joined.bundles;
  if (joined) return [{ bundle: urls.pagefind(shardFolder(0)), baseUrl: urls.home() }];
  return siteSearchShards(await allSessions()).map((shard) => ({ bundle: urls.pagefind(shardFolder(shard.n)), baseUrl: urls.home() }));
}
