/**
 * Exports: the `/sessions.json` index and a self-contained single-file HTML export of a session
 * (`/sessions/<uuid>/export.html`) to share or keep: the site in one file. Its conversation is the session page's,
 * drawn by the same components (`TurnView` through `components/export/ExportTurn.astro`, rendered to a string by the
 * route with Astro's container API and given here as `renderTurn`): rendered Markdown, thinking previews, why lines,
 * edit diffs, folds. Its stylesheet is the site's own (`global.css`, `conversation.css`, the highlight and diff CSS,
 * given as `css`), inline in one `<style>`; no script, no external reference (`export-links.ts` points every link
 * inside the file or shows it as text; images are named, not embedded), its own CSP, readable from `file://` in
 * light and dark. Every transcript string is text, never markup, as on the pages. Pure: no `astro:*` import.
 *
 * Size budget: `FILE_BUDGET` bytes. Artifacts take at most `ARTIFACTS_BUDGET`; the turns are drawn in order while
 * they fit, and the turns past the budget are listed one line each with their request; the cut is said in the file
 * and points to the site.
 */
import { plural } from '../archive/labels.ts';
import { noStepsText } from '../archive/no-steps.ts';
import type { Session } from '../brain/types.ts';
import type { Turn } from '../turns/types.ts';
import type { SessionSummary } from '../archive/schemas.ts';
import { shardBySession, shardFolder, siteSearchShards } from '../search/shards.ts';
import type { SessionAudit } from './schemas.ts';
import { formatClock, formatDuration, formatUtc, inRecordedZone } from '../archive/format.ts';
import { sessionTurns, type SessionTurns } from '../turns/index.ts';
import { failureWords, sessionFailureCounts } from '../turns/failures.ts';
import { filesChangedWords } from '../turns/file-changes.ts';
import { callsWords, promptWords, tokenWords, type TokenCounts } from '../turns/usage.ts';
import { escapeHtml } from '../render/escape.ts';
import { anchorIds, exportMarkup } from './export-links.ts';
import { anchors, urls } from '../urls.ts';
import { EXPORT_CSP } from '../site-policy.ts';

/**
 * Bytes of one export file (issue 28: the largest real session's export was 2.24 MB and 32k nodes; the site's own
 * pages of 86033144's conversation are ~1.1 MB over three pages).
 */
export const FILE_BUDGET = 1_000_000;
/** Bytes the artifacts may take of it (each artifact's text is cut to its share, and says so). */
export const ARTIFACTS_BUDGET = 150_000;

/**
 * One entry of `/sessions.json`. The first seven fields are the index tooling reads; the rest is what a joined site
 * (`src/lib/join/`) needs to show the session on its home, short links, stats and audit views without the part's
 * collections: the home card's facts, the counts, steps by day and per model the stats draw, the audit rows, the
 * family evidence that nests subagent sessions, the part's base path and the search shard that indexes it.
 */
export interface SessionIndexEntry {
  id: string;
  product: string;
  created: string;
  title: string;
  model: string | null;
  steps: number;
  url: string;
  prefix: string;
  workspace: string | null;
  localTime: string | null;
  durationMs: number | null;
  toolCalls: number;
  /**
   * Failed calls and agent errors (`turns/failures.ts`): the numbers the session's pages show, and the only ones
   * here. A third, `errors` (error steps), counted other things and read as a contradiction (issue 28).
   */
  failedCalls: number | null;
  agentErrors: number | null;
  toolCounts: Record<string, number>;
  messages: number;
  taskLogs: number;
  artifacts: number;
  redacted: boolean;
  /** Steps by the UTC day they were recorded (`stepDaysOf`). */
  stepDays: Record<string, number>;
  /** Commands run, files touched and errors (the audit views' rows). */
  audit: SessionAudit | null;
  /** Models in the order used, steps per model in force, the turn builder's counts (`SessionSummary`). */
  models: string[] | null;
  stepsPerModel: Record<string, number> | null;
  conversation: SessionSummary['conversation'] | null;
  /** What ties the session to the sessions it started or was started by (issue 14: the home nests subagents). */
  family: SessionSummary['family'] | null;
  /** How the session ended (one line), and since when its folder is gone from disk (the store kept it). */
  ending: string | null;
  /** What that line is (`turns/ending.ts`): `reply`, `no-reply`, `failed`, `request` or `summary`. */
  endingKind: SessionSummary['endingKind'] | null;
  notOnDiskSince: string | null;
  /**
   * Tokens of every model call, from the conversation database (`turns/usage.ts`), exact integers; absent for a
   * session without one. `usageByDay`: the same per UTC day of the request (the stats of a joined site).
   */
  usage?: { calls: number; input: number; cache_read: number; output: number; thinking: number; by_model: Record<string, TokenCounts> };
  usageByDay?: Record<string, TokenCounts & { by_model: Record<string, TokenCounts> }>;
  /** The site's base path (`/` or `/team-a/`): the session's pages are under it. */
  base: string;
  /** The Pagefind bundle holding the session's pages, relative to the base (`pagefind/`, `pagefind/shard-2/`). */
  searchBundle: string;
}

/** `/sessions.json`: every session, newest first (the order given). */
export function sessionIndex(sessions: SessionSummary[]): SessionIndexEntry[] {
  const shardOf = shardBySession(siteSearchShards(sessions));
  return sessions.map((s) => ({
    id: s.id,
    product: s.product,
    created: s.createdAt,
    title: s.title,
    model: s.model ?? null,
    steps: s.stepCount,
    url: urls.session(s.id),
    prefix: s.prefix,
    workspace: s.workspace ?? null,
    localTime: s.localTime ?? null,
    durationMs: s.durationMs ?? null,
    toolCalls: s.toolCallCount,
    failedCalls: s.conversation?.failedCalls ?? null,
    agentErrors: s.conversation?.agentErrors ?? null,
    toolCounts: s.toolCounts,
    messages: s.messageCount,
    taskLogs: s.taskLogCount,
    artifacts: s.artifactCount,
    redacted: s.redacted,
    stepDays: s.stepDays,
    audit: s.audit ?? null,
    models: s.models ?? null,
    stepsPerModel: s.stepsPerModel ?? null,
    conversation: s.conversation ?? null,
    family: s.family ?? null,
    ending: s.ending ?? null,
    endingKind: s.endingKind ?? null,
    notOnDiskSince: s.notOnDiskSince ?? null,
    base: urls.home(),
    searchBundle: `pagefind/${shardFolder(shardOf.get(s.id) ?? 0)}`,
    ...usageEntry(s.usage),
  }));
}

/** `usage` and `usageByDay` of an entry, or nothing without a conversation database. */
function usageEntry(usage: SessionSummary['usage']): Pick<SessionIndexEntry, 'usage' | 'usageByDay'> {
  if (!usage) return {};
  const { byDay, ...totals } = usage;
  return { usage: totals, usageByDay: byDay };
}

/** What the export adds to the site's stylesheet: its own frame, and the text that stands for links and images. */
const EXPORT_STYLE = `
body{max-width:72rem;margin:0 auto;padding:1.25rem}
.export-head h1{margin:0 0 .5rem;overflow-wrap:anywhere}.export-head dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.25rem 1rem}.export-head dt{color:var(--fg-soft)}.export-head dd{margin:0;overflow-wrap:anywhere}
.export-turns{font-size:.88rem}.export-turns td,.export-turns th{padding:.25rem .5rem}
.ext-link::after{content:" (" attr(data-url) ")";color:var(--fg-soft);overflow-wrap:anywhere}
.table-scroll{overflow-x:auto}
.site-link{text-decoration:underline dotted}.img-alt{color:var(--fg-soft)}
.export-cut{color:var(--warn);font-weight:600}.export-artifact{border:1px solid var(--border);border-radius:var(--radius);margin:.6rem 0;padding:.5rem .8rem}
.export-artifact pre{white-space:pre-wrap;overflow-wrap:anywhere}
`;

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** `text` cut to at most `max` UTF-8 bytes (at a character), and whether it was cut. */
function cutToBytes(text: string, max: number): { text: string; cut: boolean } {
  if (bytes(text) <= max) return { text, cut: false };
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (bytes(text.slice(0, mid)) <= max) lo = mid;
    else hi = mid - 1;
  }
  // Never end inside a surrogate pair.
  const end = lo > 0 && /[\uD800-\uDBFF]/.test(text[lo - 1] ?? '') ? lo - 1 : lo;
  return { text: text.slice(0, end), cut: true };
}

function turnTitle(turn: Turn): string {
  return turn.number === 0 ? 'Before the first request' : `Turn ${turn.number}`;
}

function requestLine(turn: Turn): string {
  const line = turn.request?.text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 110 ? `${line.slice(0, 109)}…` : line;
}

/** What the route gives the export besides the session: the site's CSS and the turn renderer (the pages' own). */
export interface SessionExportOptions {
  isDemo?: boolean;
  /** The session's turns, as the pages have them (built once per session read). */
  turns?: SessionTurns;
  /** The site's stylesheet text (no `url()`, no `@import`: the file fetches nothing). */
  css: string;
  /**
   * The given turns as the session page draws them, in order, each one's HTML (`ExportTurn.astro` through the
   * container API); a call draws them afresh (what a page says once, then names as the same, starts over).
   */
  renderTurns: (turns: readonly Turn[]) => Promise<string[]>;
  /** Bytes of the whole file (default `FILE_BUDGET`). */
  budget?: number;
}

/** The artifacts' section: each text as written, cut to its share of `ARTIFACTS_BUDGET`. */
function artifactsHtml(session: Session): string {
  if (session.artifacts.length === 0) return '';
  const share = Math.floor(ARTIFACTS_BUDGET / session.artifacts.length);
  const out = ['<h2 id="artifacts">Artifacts</h2>'];
  for (const a of session.artifacts) {
    out.push(`<section class="export-artifact"><h3 class="path">${escapeHtml(a.name)}</h3>`);
    if (a.metadata?.summary) out.push(`<p class="small muted">${escapeHtml(a.metadata.summary)}</p>`);
    if (a.metadata?.updatedAt) out.push(`<p class="small muted">updated ${escapeHtml(formatUtc(a.metadata.updatedAt))}</p>`);
    if (a.text === undefined) out.push('<p class="muted">Only the metadata is on disk.</p>');
    else {
      const shown = cutToBytes(a.text, share);
      out.push(`<pre>${escapeHtml(shown.text)}</pre>`);
      if (shown.cut) out.push(`<p class="export-cut">Cut here to fit the file: ${(a.text.length - shown.text.length).toLocaleString('en')} more characters on the archive site.</p>`);
    }
    if (a.versions.length > 0) out.push(`<p class="small muted">${plural(a.versions.length, 'resolved version')} (their history is on the archive site)</p>`);
    out.push('</section>');
  }
  return out.join('\n');
}

/** The whole export file of one session. */
export async function renderSessionExport(summary: SessionSummary, session: Session, options: SessionExportOptions): Promise<string> {
  const s = summary;
  const budget = options.budget ?? FILE_BUDGET;
  const built = options.turns ?? sessionTurns(session);
  // Counted as every page counts them (`turns/failures.ts`), so the file says what the site says.
  const failures = sessionFailureCounts(built);
  const facts: [string, string | undefined][] = [
    ['Session', s.id],
    ['Product', s.product],
    [built.modelSequence.length > 1 ? 'Models' : 'Model', built.modelSequence.length > 0 ? built.modelSequence.join(' → ') : s.model],
    ['Workspace', s.workspace],
    ['Started', `${formatUtc(s.createdAt)}${inRecordedZone(s.createdAt, s.localTime) ? ` · ${inRecordedZone(s.createdAt, s.localTime)} (its local time)` : ''}`],
    ['Duration', s.durationMs !== undefined ? formatDuration(s.durationMs) : undefined],
    ['Steps', `${plural(built.turns.filter((t) => t.number > 0).length, 'turn')}, ${plural(s.stepCount, 'step')}, ${plural(s.toolCallCount, 'tool call')}, ${filesChangedWords(s.conversation?.filesChanged ?? 0)}, ${failureWords.failedCalls(failures.failedCalls)}${failures.agentErrors > 0 ? `, ${failureWords.agentErrors(failures.agentErrors)}` : ''}`],
    ['Tokens', s.usage ? `${callsWords(s.usage.calls)}: ${tokenWords(s.usage)}${Object.keys(s.usage.by_model).length > 0 ? `; by model: ${Object.entries(s.usage.by_model).map(([m, u]) => `${m}: ${callsWords(u.calls)}, ${tokenWords(u)}`).join('; ')}` : ''}` : undefined],
    ['Last prompt', session.conversation?.prompt ? `${promptWords(session.conversation.prompt)} (its text is not published)` : undefined],
    ['How it ended', s.ending],
    ['Redaction', s.redacted ? 'secrets redacted' : 'OFF: secrets shown as recorded'],
  ];
  const head = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">',
    `<meta name="generator" content="agy-archive export"><title>${escapeHtml(s.title)} · agy-archive export</title>`,
    `<style>${options.css}\n${EXPORT_STYLE}</style></head><body>`,
    options.isDemo ? '<p class="badge">Demo archive: a sample session shipped with agy-archive.</p>' : '',
    `<header class="export-head"><h1>${escapeHtml(s.title)}</h1><dl>`,
    ...facts.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v as string)}</dd>`),
    '</dl></header>',
  ];
  if (built.turns.length > 0) {
    head.push('<h2 id="turns">Turns</h2><div class="table-scroll"><table class="export-turns"><thead><tr><th>Turn</th><th>Request</th><th>Time (UTC)</th><th>Duration</th><th>Calls</th><th>Failed calls</th><th>Agent errors</th></tr></thead><tbody>');
    for (const t of built.turns) {
      head.push(
        `<tr><td><a href="#${escapeHtml(anchors.turn(t.number))}">${t.number === 0 ? '·' : t.number}</a></td><td>${escapeHtml(t.number === 0 ? 'Before the first request' : requestLine(t))}</td><td class="mono">${escapeHtml(formatClock(t.stats.startedAt))}</td><td>${escapeHtml(formatDuration(t.stats.wallClockMs))}</td><td>${t.stats.toolCalls}</td><td>${t.stats.failures > 0 ? `<span class="badge badge-err">${t.stats.failures}</span>` : ''}</td><td>${t.stats.agentErrors > 0 ? `<span class="badge badge-err">${t.stats.agentErrors}</span>` : ''}</td></tr>`,
      );
    }
    head.push('</tbody></table></div>');
  } else {
    head.push(`<p class="muted">${escapeHtml(noStepsText(s))}</p>`);
  }
  const uploads =
    session.uploads.length > 0
      ? ['<h2 id="uploads">Uploads</h2><ul>', ...session.uploads.map((u) => `<li class="path">${escapeHtml(u.name)} <span class="muted">(${escapeHtml(u.mediaType)}, not embedded)</span></li>`), '</ul>'].join('\n')
      : '';
  const foot = `<p class="muted small">Exported by agy-archive from session ${escapeHtml(s.id)}: the session page's conversation in one file, no scripts, no external references. Each step is at <span class="path">${escapeHtml(urls.step(s.id, '<step>'))}</span> on the archive site.</p></body></html>`;
  const artifacts = artifactsHtml(session);
  // Each turn as the pages draw it, while the file stays within its budget; one line each for the rest.
  const fixed = bytes(head.join('\n')) + bytes(artifacts) + bytes(uploads) + bytes(foot);
  const briefLine = (turn: Turn) => `<li id="${escapeHtml(anchors.turn(turn.number))}">${escapeHtml(`${turnTitle(turn)}: ${requestLine(turn)} (${plural(turn.stats.steps, 'step')}, ${plural(turn.stats.toolCalls, 'call')})`)}</li>`;
  const headIds = anchorIds(head.join(''));
  // Weighed with its links as if they led only inside the turn: the longest form each can take in the file.
  const weigh = (html: string) => bytes(exportMarkup(html, { stepUrl: (key) => urls.step(s.id, key), siteBase: urls.home(), anchors: new Set([...headIds, ...anchorIds(html)]) }));
  const turns = built.turns;
  const weights = (await options.renderTurns(turns)).map(weigh);
  const briefWeights = turns.map((t) => bytes(briefLine(t)));
  // The turns in order while they fit, and always the last one when it fits (how the session ended, in full); the
  // turns between are one line each.
  const last = turns.length - 1;
  const lastCost = last >= 0 && fixed + 600 + (weights[last] ?? 0) + briefWeights.slice(0, last).reduce((a, b) => a + b, 0) <= budget ? (weights[last] ?? 0) : undefined;
  let used = fixed + 600 + (lastCost ?? 0);
  const drawnSet = new Set<number>();
  for (let i = 0; i < (lastCost !== undefined ? last : turns.length); i++) {
    const rest = briefWeights.slice(i + 1, lastCost !== undefined ? last : turns.length).reduce((a, b) => a + b, 0);
    if (used + (weights[i] ?? 0) + rest > budget) break;
    drawnSet.add(i);
    used += weights[i] ?? 0;
  }
  if (lastCost !== undefined) drawnSet.add(last);
  const chosen = turns.filter((_, i) => drawnSet.has(i));
  // Drawn again when some are left out, so what the file names "the same notice" is one it shows.
  const html = chosen.length === turns.length ? await options.renderTurns(turns) : await options.renderTurns(chosen);
  const parts: string[] = [];
  let gap: Turn[] = [];
  const flush = () => {
    if (gap.length === 0) return;
    parts.push(`<ul class="brief export-brief">${gap.map(briefLine).join('')}</ul>`);
    gap = [];
  };
  let k = 0;
  turns.forEach((turn, i) => {
    if (drawnSet.has(i)) {
      flush();
      parts.push(html[k++] ?? '');
    } else gap.push(turn);
  });
  flush();
  const left = turns.length - chosen.length;
  const brief =
    left > 0
      ? `<p class="export-cut" id="export-cut">This file draws ${plural(chosen.length, 'turn')} of ${turns.length} as the session page does${lastCost !== undefined ? ', the last one among them' : ''}; it stops at its size budget (${(budget / 1e6).toLocaleString('en')} MB), and ${left === 1 ? 'the other turn is one line' : `the other ${left} turns are one line each`} with its request. Their pages on the archive site hold everything.</p>`
      : '';
  const conversation = `${brief}<div class="conversation" id="conversation">${parts.join('\n')}</div>`;
  // Every link of the drawn markup points inside the file, or is shown as text (`export-links.ts`).
  const ids = anchorIds(`${head.join('')}${conversation}${artifacts}`);
  const local = exportMarkup(conversation, { stepUrl: (key) => urls.step(s.id, key), siteBase: urls.home(), anchors: ids });
  return [...head, local, artifacts, uploads, foot].join('\n');
}
