/**
 * Exports: the `/sessions.json` index and a self-contained single-file HTML export of a session
 * (`/sessions/<uuid>/export.html`) to share or keep: one `<style>` element, no script, no external reference
 * (no link, image or font to fetch; uploads are listed, not embedded), its own CSP, readable from `file://` in light
 * and dark. Every transcript string goes through `escapeHtml`: text, never markup. Pure: no `astro:*` import.
 *
 * Size bound: each text field (content, thinking, an argument, an output, an artifact) keeps its first
 * `FIELD_MAX` characters, and once `TOTAL_MAX` characters of text are written the remaining steps are listed one
 * line each; both cuts are marked in the file and point to the step's page on the site.
 */
import type { Session, Step } from '../brain/types.ts';
import type { SessionSummary } from '../archive/schemas.ts';
import { displayValue, formatDuration, formatUtc } from '../archive/format.ts';
import { escapeHtml } from '../render/escape.ts';
import { anchors, urls } from '../urls.ts';

/** Characters kept of one text field. */
export const FIELD_MAX = 20_000;
/** Characters of step text written before the rest of the timeline goes to one line per step (~8 MB). */
export const TOTAL_MAX = 8_000_000;

/** One entry of `/sessions.json`. */
export interface SessionIndexEntry {
  id: string;
  product: string;
  created: string;
  title: string;
  model: string | null;
  steps: number;
  url: string;
}

/** `/sessions.json`: every session, newest first (the order given). */
export function sessionIndex(sessions: SessionSummary[]): SessionIndexEntry[] {
  return sessions.map((s) => ({
    id: s.id,
    product: s.product,
    created: s.createdAt,
    title: s.title,
    model: s.model ?? null,
    steps: s.stepCount,
    url: urls.session(s.id),
  }));
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--soft:#f6f8fa;--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--err:#cf222e;--errbg:#ffebe9;--ok:#1a7f37;--warn:#9a6700}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--soft:#151b23;--fg:#e6edf3;--muted:#9198a1;--border:#30363d;--err:#f85149;--errbg:#3c1618;--ok:#3fb950;--warn:#d29922}}
*{box-sizing:border-box}body{margin:0 auto;max-width:72rem;padding:1.5rem;background:var(--bg);color:var(--fg);font:15px/1.55 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
h1{font-size:1.5rem;margin:0 0 .5rem;overflow-wrap:anywhere}h2{font-size:1.15rem;margin:2rem 0 .75rem;border-bottom:1px solid var(--border);padding-bottom:.3rem}
pre,code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem}
pre{margin:.3rem 0;white-space:pre-wrap;overflow-wrap:anywhere;background:var(--soft);padding:.5rem .7rem;border-radius:4px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
.step{border:1px solid var(--border);border-radius:6px;margin:.6rem 0;padding:.5rem .8rem}.step.err{border-color:var(--err)}
.step h3{font-size:.95rem;margin:0;display:flex;gap:.5rem;flex-wrap:wrap;align-items:baseline}
.muted{color:var(--muted)}.badge{font-size:.75rem;font-weight:600;padding:0 .45rem;border-radius:999px;background:var(--soft);border:1px solid var(--border)}
.badge.err{color:var(--err);border-color:var(--err)}.badge.ok{color:var(--ok)}.cut{color:var(--warn);font-weight:600;font-size:.8rem}
.label{font-size:.8rem;color:var(--muted);margin-top:.4rem}.error{background:var(--errbg);color:var(--err)}
.brief li{font-size:.85rem}a{color:inherit}
`;

function cutText(text: string, max = FIELD_MAX): string {
  return text.length > max ? `${escapeHtml(text.slice(0, max))}\n<span class="cut">[… ${text.length - max} more characters: see the archive site]</span>` : escapeHtml(text);
}

function pre(text: string): string {
  return `<pre>${cutText(text)}</pre>`;
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}

function stepHtml(step: Step, sessionId: string): string {
  const err = step.type === 'ERROR_MESSAGE' || step.status === 'ERROR' || present(step.error);
  const parts: string[] = [
    `<section class="step${err ? ' err' : ''}" id="${escapeHtml(anchors.step(step.key))}">`,
    `<h3><span class="mono">${escapeHtml(step.key)}</span> ${escapeHtml(step.type)} <span class="badge${step.status === 'ERROR' ? ' err' : ''}">${escapeHtml(step.status)}</span> <span class="muted">${escapeHtml(step.source)}${step.createdAt ? ` · ${escapeHtml(formatUtc(step.createdAt))}` : ''}</span></h3>`,
  ];
  if (present(step.error) || present(step.errorCode) || present(step.exitCode)) {
    const head = [present(step.errorCode) ? `error code ${displayValue(step.errorCode)}` : '', present(step.exitCode) ? `exit code ${displayValue(step.exitCode)}` : ''].filter(Boolean).join(' · ');
    if (head) parts.push(`<div class="label">${escapeHtml(head)}</div>`);
    if (present(step.error)) parts.push(`<pre class="error">${cutText(displayValue(step.error))}</pre>`);
  }
  if (step.content) parts.push(pre(step.content));
  if (step.contentMd) parts.push(`<div class="label">${escapeHtml(step.contentMd.file)}</div>${pre(step.contentMd.text)}`);
  if (step.thinking) parts.push(`<details><summary class="label">Thinking</summary>${pre(step.thinking)}</details>`);
  for (const call of step.toolCalls) {
    parts.push(`<div class="label">Tool call <strong class="mono">${escapeHtml(call.name)}</strong>${call.truncatedArgs.length > 0 ? ` <span class="cut">cut in the transcript: ${escapeHtml(call.truncatedArgs.join(', '))}</span>` : ''}</div>`);
    if (call.name === 'run_command' && typeof call.args.CommandLine === 'string') {
      const bypass = call.args.BypassSandbox === true || call.args.BypassSandbox === 'true';
      parts.push(`${pre(call.args.CommandLine)}<div class="label">in ${escapeHtml(displayValue(call.args.Cwd))}${bypass ? ' · <span class="badge err">outside the sandbox (BypassSandbox)</span>' : ''}</div>`);
    } else {
      parts.push(pre(displayValue(call.args)));
    }
  }
  if (step.output && !step.output.duplicateOfContent) parts.push(`<div class="label">Output ${escapeHtml(step.output.file)}</div>${pre(step.output.text)}`);
  parts.push(`<div class="label">On the site: <span class="mono">${escapeHtml(urls.step(sessionId, step.key))}</span></div>`);
  parts.push('</section>');
  return parts.join('');
}

/** The whole export file of one session. */
export function renderSessionExport(summary: SessionSummary, session: Session, options: { isDemo?: boolean } = {}): string {
  const s = summary;
  const facts: [string, string | undefined][] = [
    ['Session', s.id],
    ['Product', s.product],
    ['Model', s.model],
    ['Workspace', s.workspace],
    ['Started', `${s.localTime ? `${s.localTime} (local, as recorded) · ` : ''}${formatUtc(s.createdAt)}`],
    ['Duration', s.durationMs !== undefined ? formatDuration(s.durationMs) : undefined],
    ['Steps', `${s.stepCount} steps, ${s.toolCallCount} tool calls, ${s.errorCount} errors`],
    ['Redaction', s.redacted ? 'secrets redacted' : 'OFF: secrets shown as recorded'],
  ];
  const out: string[] = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">',
    `<meta name="generator" content="agy-archive export"><title>${escapeHtml(s.title)} · agy-archive export</title>`,
    `<style>${STYLE}</style></head><body>`,
    options.isDemo ? '<p class="badge">Demo archive: a sample session shipped with agy-archive.</p>' : '',
    `<header><h1>${escapeHtml(s.title)}</h1><dl>`,
    ...facts.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v as string)}</dd>`),
    '</dl>',
    session.meta.request ? `<h2>Request</h2>${pre(session.meta.request)}` : '',
    '</header>',
    `<h2>Timeline (${session.steps.length} steps)</h2>`,
  ];
  let written = 0;
  let brief = false;
  for (const step of session.steps) {
    if (!brief && written > TOTAL_MAX) {
      brief = true;
      out.push(`<p class="cut">This export reached its size bound (${TOTAL_MAX.toLocaleString('en')} characters); the remaining steps are listed one line each. Their pages on the archive site hold everything.</p><ul class="brief">`);
    }
    if (brief) {
      const line = `${step.key} ${step.type} ${step.status}${step.createdAt ? ` ${formatUtc(step.createdAt)}` : ''}`;
      out.push(`<li class="mono">${escapeHtml(line)}</li>`);
      continue;
    }
    const html = stepHtml(step, s.id);
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
  out.push(`<p class="muted">Exported by agy-archive from session ${escapeHtml(s.id)}. A single file: no scripts, no external references.</p></body></html>`);
  return out.join('\n');
}
