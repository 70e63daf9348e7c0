/**
 * Exports: the `/sessions.json` index and a self-contained single-file HTML export of a session
 * (`/sessions/<uuid>/export.html`) to share or keep: one `<style>` element, no script, no external reference
 * (no link, image or font to fetch; uploads are listed, not embedded), its own CSP, readable from `file://` in light
 * and dark. Every transcript string goes through `escapeHtml`: text, never markup. Pure: no `astro:*` import.
 *
 * The layout is the session page's (issue 11): a table of turns, then each turn opening with the user's words,
 * the agent's replies (Markdown source kept as text: rendered Markdown would carry links out of the file), thinking
 * folded, each call one line with its outcome from the turn builder, folded to its arguments and output head.
 * Every link points inside the file (`#turn-N`, `#step-N`); the site's URL of each step is written as text.
 *
 * Size bound: each text field (content, thinking, an argument, an output, an artifact) keeps its first
 * `FIELD_MAX` characters, and once `TOTAL_MAX` characters of text are written the remaining turns are listed one
 * line each; both cuts are marked in the file and point to the page on the site.
 */
import { plural } from '../archive/labels.ts';
import { noStepsText } from '../archive/no-steps.ts';
import type { Session } from '../brain/types.ts';
import type { StepView, ToolCallView, Turn, TurnItem } from '../turns/types.ts';
import type { SessionSummary } from '../archive/schemas.ts';
import { shardBySession, shardFolder, siteSearchShards } from '../search/shards.ts';
import type { SessionAudit } from './schemas.ts';
import { formatClock, formatDuration, formatUtc } from '../archive/format.ts';
import { argLines, EDIT_ARGS_MAX } from '../conversation/preview.ts';
import { editPreview } from '../conversation/edit.ts';
import { renderDiffRows } from '../render/diff.ts';
import { recordedCall } from '../conversation/view.ts';
import { sessionTurns, type SessionTurns } from '../turns/index.ts';
import { failureWords, isFailedOrphan, sessionFailureCounts } from '../turns/failures.ts';
import { filesChangedWords } from '../turns/file-changes.ts';
import { callsWords, promptWords, tokenWords, type TokenCounts } from '../turns/usage.ts';
import { escapeHtml } from '../render/escape.ts';
import { anchors, urls } from '../urls.ts';
import { EXPORT_CSP } from '../site-policy.ts';

/** Characters kept of one text field. */
export const FIELD_MAX = 20_000;
/** Characters of step text written before the rest of the timeline goes to one line per step (~8 MB). */
export const TOTAL_MAX = 8_000_000;

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

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--soft:#f6f8fa;--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--err:#cf222e;--errbg:#ffebe9;--ok:#1a7f37;--warn:#9a6700;--user:#ddf4ff;--userline:#0550ae}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--soft:#151b23;--fg:#e6edf3;--muted:#9198a1;--border:#30363d;--err:#f85149;--errbg:#3c1618;--ok:#3fb950;--warn:#d29922;--user:#0c2d6b;--userline:#79c0ff}}
*{box-sizing:border-box}body{margin:0 auto;max-width:72rem;padding:1.5rem;background:var(--bg);color:var(--fg);font:15px/1.55 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
h1{font-size:1.5rem;margin:0 0 .5rem;overflow-wrap:anywhere}h2{font-size:1.15rem;margin:2rem 0 .3rem}
pre,code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem}
pre{margin:.3rem 0;white-space:pre-wrap;overflow-wrap:anywhere;background:var(--soft);padding:.5rem .7rem;border-radius:4px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;font-size:.88rem}td,th{text-align:left;padding:.25rem .5rem;border-bottom:1px solid var(--border);vertical-align:top}th{color:var(--muted);font-weight:600}
.turn{border-top:2px solid var(--border);margin-top:1.5rem}.turn.err{border-top-color:var(--err)}
.stats{color:var(--muted);font-size:.85rem;margin:0 0 .5rem}
.request{background:var(--user);border-left:3px solid var(--userline);padding:.5rem .8rem;border-radius:0 6px 6px 0;white-space:pre-wrap;overflow-wrap:anywhere}
.text{white-space:pre-wrap;overflow-wrap:anywhere;margin:.5rem 0}
.who{font-size:.8rem;color:var(--muted)}
.chips{display:flex;flex-wrap:wrap;gap:.3rem;list-style:none;padding:0;margin:.4rem 0 0}.chips li{font-size:.78rem;border:1px solid var(--border);border-radius:999px;padding:0 .45rem}
.calls{list-style:none;padding:0;margin:.3rem 0;display:grid;gap:2px}
details.call{border:1px solid var(--border);border-radius:4px}details.call.err{border-color:var(--err);border-left-width:3px}
details.call>summary{padding:.15rem .5rem;cursor:pointer;overflow-wrap:anywhere}.call .body{padding:.3rem .7rem}
.kind{font:600 .7rem ui-monospace,monospace;text-transform:uppercase;color:var(--muted);margin-right:.4rem}.err .kind{color:var(--err)}
.muted{color:var(--muted)}.badge{font-size:.75rem;font-weight:600;padding:0 .45rem;border-radius:999px;background:var(--soft);border:1px solid var(--border)}
.badge.err{color:var(--err);border-color:var(--err)}.cut{color:var(--warn);font-weight:600;font-size:.8rem}
.label{font-size:.8rem;color:var(--muted);margin-top:.4rem}.error{background:var(--errbg);color:var(--err)}
.fold{color:var(--muted);font-size:.85rem}.step{border:1px solid var(--border);border-radius:6px;margin:.6rem 0;padding:.5rem .8rem}
.brief li{font-size:.85rem}a{color:inherit}
.diff{border-collapse:collapse;width:100%;font:.8rem ui-monospace,monospace}.diff thead{display:none}.diff td{padding:0 .4rem;white-space:pre-wrap;overflow-wrap:anywhere;vertical-align:top}
.diff .diff-num{color:var(--muted);text-align:right;width:1%;white-space:nowrap}.diff .diff-marker{width:1%}.diff-add{background:rgba(46,160,67,.18)}.diff-del{background:rgba(248,81,73,.18)}.diff-hunk{background:rgba(84,174,255,.15);font-style:italic}
`;

function cutText(text: string, max = FIELD_MAX): string {
  return text.length > max ? `${escapeHtml(text.slice(0, max))}\n<span class="cut">[… ${text.length - max} more characters: see the archive site]</span>` : escapeHtml(text);
}

function pre(text: string): string {
  return `<pre>${cutText(text)}</pre>`;
}

const KIND: Record<string, string> = { command: 'run', edit: 'edit', view: 'view', list: 'list', search: 'search', web: 'web', image: 'image', task: 'task', permission: 'permission', question: 'ask', other: 'tool' };
const FOLDED: Record<string, string> = { system: 'system messages', ephemeral: 'ephemeral messages', history: 'history steps', knowledge: 'knowledge items', 'duplicate-request': 'repeated requests', other: 'other steps' };

function callHtml(call: ToolCallView, session: Session, sessionId: string): string {
  const o = call.outcome;
  const failed = o.status === 'failed';
  const recorded = recordedCall(session, call);
  const bypass = recorded?.args.BypassSandbox === true || recorded?.args.BypassSandbox === 'true';
  const status = failed ? ' <span class="badge err">failed</span>' : o.status === 'running' ? ' <span class="badge">running</span>' : o.status === 'unknown' ? ' <span class="badge">no result</span>' : '';
  const parts = [
    `<li><details class="call${failed ? ' err' : ''}" id="${escapeHtml(anchors.call(call.id))}"><summary><span class="kind">${escapeHtml(KIND[o.kind] ?? 'tool')}</span>${escapeHtml(o.line || call.name)}${status}${bypass ? ' <span class="badge err">outside the sandbox (BypassSandbox)</span>' : ''}</summary><div class="body">`,
  ];
  if (call.resultStepKey) parts.push(`<span id="${escapeHtml(anchors.step(call.resultStepKey))}"></span>`);
  if (o.error) parts.push(`<pre class="error">${cutText(o.error)}</pre>`);
  // An edit as on the site's conversation pages (conversation/edit.ts): its reason and a compact diff, not its
  // result's text (Antigravity's [diff_block_start] markup).
  const edit = editPreview(recorded, call.resultStepKey !== undefined && o.kind === 'edit' ? session.steps.find((st) => st.key === call.resultStepKey)?.content : undefined);
  if (edit) {
    if (edit.why) parts.push(`<p>${escapeHtml(edit.why)}</p>`);
    parts.push(renderDiffRows(edit.rows));
    if (edit.totalRows > edit.rows.length) parts.push(`<div class="label">${edit.totalRows - edit.rows.length} more lines: see the archive site</div>`);
  }
  const args = recorded ? argLines(recorded, edit ? EDIT_ARGS_MAX : undefined) : [];
  if (args.length > 0) parts.push(`<dl>${args.map((a) => `<dt class="mono">${escapeHtml(a.name)}</dt><dd><pre>${escapeHtml(a.value)}</pre></dd>`).join('')}</dl>`);
  if (call.outputHead && call.outputHead.trim() !== '' && (!edit || failed)) parts.push(`<div class="label">Output${(call.outputChars ?? 0) > call.outputHead.length ? ` (first ${call.outputHead.length} of ${call.outputChars} characters)` : ''}</div>${pre(call.outputHead)}`);
  parts.push(`<div class="label"><span class="mono">${escapeHtml(call.name)}</span> · call step ${escapeHtml(call.callStepKey)}${call.resultStepKey ? ` · result step ${escapeHtml(call.resultStepKey)}` : ''} · on the site: <span class="mono">${escapeHtml(urls.step(sessionId, call.resultStepKey ?? call.callStepKey))}</span></div>`);
  parts.push('</div></details></li>');
  return parts.join('');
}

function itemHtml(item: TurnItem, session: Session, sessionId: string, stepView: (position: number) => StepView | undefined): string {
  const stepSummary = (position: number): string => stepView(position)?.summary ?? '';
  switch (item.kind) {
    case 'reply': {
      const parts = [`<div class="reply" id="${escapeHtml(anchors.step(item.stepKey))}">`];
      if (item.thinking?.trim()) parts.push(`<details class="fold"><summary>Thinking · step ${escapeHtml(item.stepKey)}</summary>${pre(item.thinking)}</details>`);
      if (item.text?.trim()) parts.push(`<div class="who">Agent${item.createdAt ? ` · ${escapeHtml(formatClock(item.createdAt))}` : ''}</div><div class="text">${cutText(item.text)}</div>`);
      if (item.calls.length > 0) parts.push(`<ul class="calls">${item.calls.map((c) => callHtml(c, session, sessionId)).join('')}</ul>`);
      parts.push('</div>');
      return parts.join('');
    }
    case 'checkpoint':
      return `<details class="fold" id="${escapeHtml(anchors.step(item.stepKey))}"><summary>Checkpoint${item.number !== undefined ? ` ${item.number}` : ''}: Antigravity summarised the conversation so far</summary>${pre(item.summary)}</details>`;
    case 'folded':
      return `<details class="fold"><summary>${item.stepKeys.length} ${escapeHtml(FOLDED[item.folded] ?? 'other steps')}</summary><ul>${item.stepKeys
        .map((key, i) => `<li id="${escapeHtml(anchors.step(key))}">step ${escapeHtml(key)} <span class="muted">${escapeHtml(stepSummary(item.positions[i] ?? -1))}</span></li>`)
        .join('')}</ul></details>`;
    case 'user-action': {
      const what = item.action === 'view-file' ? 'opened' : item.action === 'edit' ? 'edited' : 'did';
      return `<div class="step" id="${escapeHtml(anchors.step(item.stepKey))}"><div class="who">User${item.createdAt ? ` · ${escapeHtml(formatClock(item.createdAt))}` : ''} · ${what}${item.path ? ` <span class="mono">${escapeHtml(item.path)}</span>` : ''} <span class="muted">(step ${escapeHtml(item.stepKey)}, ${escapeHtml(item.type)})</span></div>${pre(item.text)}</div>`;
    }
    case 'orphan-result':
      // An agent error (failures.ts `stepFailure`) answers no call: named as one with its message, as on the site.
      if (stepView(item.position)?.failure === 'agent')
        return `<div class="step err" id="${escapeHtml(anchors.step(item.stepKey))}"><span class="badge err">agent error</span> <span class="muted">(step ${escapeHtml(item.stepKey)})</span><pre class="error">${cutText(item.outcome.error ?? item.outcome.line)}</pre></div>`;
      return `<div class="step${item.outcome.status === 'failed' ? ' err' : ''}" id="${escapeHtml(anchors.step(item.stepKey))}"><span class="kind">result</span>${escapeHtml(item.outcome.line || item.type)}${item.outcome.status === 'failed' ? ` <span class="badge err">${isFailedOrphan(item.type, item.outcome) ? 'failed' : 'agent error'}</span>` : ''} <span class="muted">(step ${escapeHtml(item.stepKey)}, no call recorded for it)</span></div>`;
  }
}

function turnTitle(turn: Turn): string {
  return turn.number === 0 ? 'Before the first request' : `Turn ${turn.number}`;
}

function requestLine(turn: Turn): string {
  const line = turn.request?.text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 110 ? `${line.slice(0, 109)}…` : line;
}

function turnHtml(turn: Turn, session: Session, sessionId: string, stepView: (position: number) => StepView | undefined): string {
  const st = turn.stats;
  const stats = [
    st.startedAt ? formatUtc(st.startedAt) : '',
    st.wallClockMs !== undefined ? `${formatDuration(st.wallClockMs) || '0 s'} wall-clock${st.activeMs !== undefined && st.activeMs !== st.wallClockMs ? ` (${formatDuration(st.activeMs) || '0 s'} active)` : ''}` : '',
    plural(st.toolCalls, 'tool call'),
    st.filesChanged.length > 0 ? filesChangedWords(st.filesChanged.length) : '',
    st.failures > 0 ? failureWords.failedCalls(st.failures) : '',
    st.agentErrors > 0 ? failureWords.agentErrors(st.agentErrors) : '',
    turn.model ?? '',
  ].filter(Boolean);
  const parts = [`<section class="turn${st.failures + st.agentErrors > 0 ? ' err' : ''}" id="${escapeHtml(anchors.turn(turn.number))}"><h2>${escapeHtml(turnTitle(turn))}</h2><p class="stats">${escapeHtml(stats.join(' · '))}</p>`];
  const r = turn.request;
  if (r) {
    parts.push(`<div id="${escapeHtml(anchors.step(r.stepKey))}"><div class="who">User${r.createdAt ? ` · ${escapeHtml(formatClock(r.createdAt))}` : ''}${r.modelSwitch ? ` · model switched to ${escapeHtml(r.modelSwitch.to)}` : ''}</div><div class="request">${cutText(r.text)}</div>`);
    if (r.mentionedFiles.length > 0) parts.push(`<ul class="chips">${r.mentionedFiles.map((f) => `<li class="mono">${escapeHtml(f)}</li>`).join('')}</ul>`);
    parts.push('</div>');
  }
  for (const item of turn.items) parts.push(itemHtml(item, session, sessionId, stepView));
  parts.push('</section>');
  return parts.join('');
}

/** The whole export file of one session (`turns`: the session's turns, as the pages have them). */
export function renderSessionExport(summary: SessionSummary, session: Session, options: { isDemo?: boolean; turns?: SessionTurns } = {}): string {
  const s = summary;
  // The pages' own turns when given (built once per session read), else built here.
  const built = options.turns ?? sessionTurns(session);
  const stepView = (position: number) => built.steps[position];
  // Counted as every page counts them (`turns/failures.ts`), so the file says what the site says.
  const failures = sessionFailureCounts(built);
  const facts: [string, string | undefined][] = [
    ['Session', s.id],
    ['Product', s.product],
    [built.modelSequence.length > 1 ? 'Models' : 'Model', built.modelSequence.length > 0 ? built.modelSequence.join(' → ') : s.model],
    ['Workspace', s.workspace],
    ['Started', `${s.localTime ? `${s.localTime} (local, as recorded) · ` : ''}${formatUtc(s.createdAt)}`],
    ['Duration', s.durationMs !== undefined ? formatDuration(s.durationMs) : undefined],
    ['Steps', `${plural(built.turns.filter((t) => t.number > 0).length, 'turn')}, ${plural(s.stepCount, 'step')}, ${plural(s.toolCallCount, 'tool call')}, ${filesChangedWords(s.conversation?.filesChanged ?? 0)}, ${failureWords.failedCalls(failures.failedCalls)}${failures.agentErrors > 0 ? `, ${failureWords.agentErrors(failures.agentErrors)}` : ''}`],
    ['Tokens', s.usage ? `${callsWords(s.usage.calls)}: ${tokenWords(s.usage)}${Object.keys(s.usage.by_model).length > 0 ? `; by model: ${Object.entries(s.usage.by_model).map(([m, u]) => `${m}: ${callsWords(u.calls)}, ${tokenWords(u)}`).join('; ')}` : ''}` : undefined],
    ['Last prompt', session.conversation?.prompt ? `${promptWords(session.conversation.prompt)} (its text is not published)` : undefined],
    ['How it ended', s.ending],
    ['Redaction', s.redacted ? 'secrets redacted' : 'OFF: secrets shown as recorded'],
  ];
  const out: string[] = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">',
    `<meta name="generator" content="agy-archive export"><title>${escapeHtml(s.title)} · agy-archive export</title>`,
    `<style>${STYLE}</style></head><body>`,
    options.isDemo ? '<p class="badge">Demo archive: a sample session shipped with agy-archive.</p>' : '',
    `<header><h1>${escapeHtml(s.title)}</h1><dl>`,
    ...facts.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v as string)}</dd>`),
    '</dl></header>',
  ];
  if (built.turns.length > 0) {
    out.push('<h2 id="turns">Turns</h2><table><thead><tr><th>Turn</th><th>Request</th><th>Time (UTC)</th><th>Duration</th><th>Calls</th><th>Failed calls</th><th>Agent errors</th></tr></thead><tbody>');
    for (const t of built.turns) {
      out.push(
        `<tr><td><a href="#${escapeHtml(anchors.turn(t.number))}">${t.number === 0 ? '·' : t.number}</a></td><td>${escapeHtml(t.number === 0 ? 'Before the first request' : requestLine(t))}</td><td class="mono">${escapeHtml(formatClock(t.stats.startedAt))}</td><td>${escapeHtml(formatDuration(t.stats.wallClockMs))}</td><td>${t.stats.toolCalls}</td><td>${t.stats.failures > 0 ? `<span class="badge err">${t.stats.failures}</span>` : ''}</td><td>${t.stats.agentErrors > 0 ? `<span class="badge err">${t.stats.agentErrors}</span>` : ''}</td></tr>`,
      );
    }
    out.push('</tbody></table>');
  } else {
    out.push(`<p class="muted">${escapeHtml(noStepsText(s))}</p>`);
  }
  let written = 0;
  let brief = false;
  for (const turn of built.turns) {
    if (!brief && written > TOTAL_MAX) {
      brief = true;
      out.push(`<p class="cut">This export reached its size bound (${TOTAL_MAX.toLocaleString('en')} characters); the remaining turns are listed one line each. Their pages on the archive site hold everything.</p><ul class="brief">`);
    }
    if (brief) {
      out.push(`<li id="${escapeHtml(anchors.turn(turn.number))}">${escapeHtml(`${turnTitle(turn)}: ${requestLine(turn)} (${plural(turn.stats.steps, 'step')}, ${plural(turn.stats.toolCalls, 'call')})`)}</li>`);
      continue;
    }
    const html = turnHtml(turn, session, s.id, stepView);
    written += html.length;
    out.push(html);
  }
  if (brief) out.push('</ul>');
  if (session.artifacts.length > 0) {
    out.push('<h2>Artifacts</h2>');
    for (const a of session.artifacts) {
      out.push(`<section class="step"><h3 class="mono">${escapeHtml(a.name)}</h3>`);
      if (a.metadata?.summary) out.push(`<div class="label">${escapeHtml(a.metadata.summary)}</div>`);
      if (a.metadata?.updatedAt) out.push(`<div class="label">updated ${escapeHtml(formatUtc(a.metadata.updatedAt))}</div>`);
      out.push(a.text !== undefined ? pre(a.text) : '<div class="muted">Only the metadata is on disk.</div>');
      if (a.versions.length > 0) out.push(`<div class="label">${a.versions.length} resolved versions (see the archive site for their history)</div>`);
      out.push('</section>');
    }
  }
  if (session.uploads.length > 0) {
    out.push('<h2>Uploads</h2><ul>');
    for (const u of session.uploads) out.push(`<li class="mono">${escapeHtml(u.name)} <span class="muted">(${escapeHtml(u.mediaType)}, not embedded)</span></li>`);
    out.push('</ul>');
  }
  out.push(`<p class="muted">Exported by agy-archive from session ${escapeHtml(s.id)}. A single file: no scripts, no external references. Each step is at <span class="mono">${escapeHtml(urls.step(s.id, '<step>'))}</span> on the archive site.</p></body></html>`);
  return out.join('\n');
}
