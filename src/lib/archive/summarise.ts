/**
 * Turn a read (and redacted) session into the lean rows the content store keeps: header fields, one row per step
 * and one per artifact, never a step body. Bodies are read again by id at render time (see `detail.ts`).
 */
import { artifactHistory } from '../audit/history.ts';
import type { BrowserFile, Session, Step, Upload } from '../brain/types.ts';
import { RASTER_EXTENSIONS } from '../brain/index.ts';
import type { Redaction } from '../redact/index.ts';
import { auditRows } from '../audit/rows.ts';
import { stepDaysOf } from '../audit/stats.ts';
import { familyEvidence } from '../family/evidence.ts';
import type { ArtifactRow, BrowserFileRow, SessionRows, SessionSummary, UploadRow, StepRow } from './schemas.ts';
import { stepAtTime } from '../conversation/browser-trail.ts';
import { oneLine } from './step-summary.ts';
import { longFields } from './long-text.ts';
import { isFailedCall, sessionFailureCounts, sessionTurns, type SessionTurns, type ToolCallView } from '../turns/index.ts';
import { conversationSummary } from '../conversation/summary.ts';
import { longTaskLogs, messagePageStarts, taskLogPageStarts } from './session-pages.ts';
import { callPositions, callUsage, sessionUsage, usagePerDay } from '../turns/usage.ts';

/** The published file name of an upload, or undefined when it is not served (not a raster image). */
export function servedUploadName(upload: Upload, position: number): string | undefined {
  const ext = RASTER_EXTENSIONS.get(upload.mediaType.toLowerCase());
  return upload.isImage && ext ? `${position}.${ext}` : undefined;
}

/** The published names of the trail's images under `/sessions/<id>/browser/`: their own names where URL-safe. */
export function servedBrowserNames(files: readonly BrowserFile[]): Array<string | undefined> {
  const seen = new Set<string>();
  return files.map((f, i) => {
    const ext = RASTER_EXTENSIONS.get(f.mediaType.toLowerCase());
    if (!f.isImage || !ext) return undefined;
    const own = /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(f.name) && !seen.has(f.name) ? f.name : `${i}.${ext}`;
    seen.add(own);
    return own;
  });
}

/**
 * URL-safe, unique-within-session keys for artifact names. A name in a sub-folder (`docs/README.md`) joins its
 * parts with `~`, which a root name's key never holds: it cannot take the URL a root artifact has or will have.
 */
export function artifactSlugs(names: string[]): string[] {
  const seen = new Set<string>();
  const part = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || 'artifact';
  return names.map((name) => {
    const base = name.split('/').map(part).join('~');
    let slug = base;
    for (let n = 2; seen.has(slug); n++) slug = `${base}-${n}`;
    seen.add(slug);
    return slug;
  });
}

/** The lean rows of one session: its header entry, one row per timeline entry and one per artifact. */
export function summariseSession(session: Session, redactions: Redaction[], redacted: boolean, ref: SessionSummary['ref']): SessionRows {
  const { meta } = session;
  // The turn builder runs on the redacted session: every summary and outcome line below is redacted text.
  const turns = sessionTurns(session);
  const callById = new Map(turns.calls.map((c) => [c.id, c]));
  const slugs = artifactSlugs(session.artifacts.map((a) => a.name));
  const artifacts: ArtifactRow[] = session.artifacts.map((a, i) => ({
    sessionId: session.id,
    position: i,
    name: a.name,
    slug: slugs[i] ?? a.name,
    summary: a.metadata?.summary !== undefined ? oneLine(a.metadata.summary, 300) : undefined,
    updatedAt: a.metadata?.updatedAt,
    artifactType: a.metadata?.artifactType,
    versions: a.versions.length,
    history: artifactHistory(a).length,
  }));
  const uploads: UploadRow[] = session.uploads.map((u, i) => ({
    file: u.file,
    name: u.name,
    size: u.size,
    mediaType: u.mediaType,
    served: servedUploadName(u, i),
  }));
  const trail = session.browserTrail ?? [];
  const servedTrail = servedBrowserNames(trail);
  const browserTrail: BrowserFileRow[] = trail.map((f, i) => {
    const row: BrowserFileRow = { file: f.file, name: f.name, kind: f.kind, size: f.size, mediaType: f.mediaType };
    if (f.at !== undefined) row.at = f.at;
    const served = servedTrail[i];
    if (served !== undefined) row.served = served;
    const stepKey = stepAtTime(session.steps, f.at);
    if (stepKey !== undefined) row.stepKey = stepKey;
    return row;
  });
  // Each model call on the one row of the step it belongs to (usage.ts), so sums over rows count it once.
  const callAt = new Map<number, NonNullable<StepRow['calls']>>();
  if (session.conversation) {
    const rows = new Map(session.conversation.calls.map((c) => [c.row, c]));
    for (const [row, position] of callPositions(session.steps, session.conversation.calls)) {
      const { model, input, cacheRead, output, thinking, timeToFirstTokenMs, durationMs, failed } = callUsage(rows.get(row)!);
      const list = callAt.get(position) ?? [];
      list.push({ model, input, cacheRead, output, thinking, failed, ...(timeToFirstTokenMs !== undefined ? { timeToFirstTokenMs } : {}), ...(durationMs !== undefined ? { durationMs } : {}) });
      callAt.set(position, list);
    }
  }
  const steps: StepRow[] = session.steps.map((s) => {
    const view = turns.steps[s.position];
    const row: StepRow = {
      sessionId: session.id,
      key: s.key,
      index: s.index,
      position: s.position,
      type: s.type,
      status: s.status,
      source: s.source,
      createdAt: s.createdAt,
      tools: s.toolCalls.map((c) => c.name),
      summary: view?.summary ?? '',
      error: view?.failed ?? false,
    };
    const calls = callAt.get(s.position);
    if (calls) row.calls = calls;
    if (view?.failure !== undefined) row.failure = view.failure;
    if (view?.model !== undefined) row.model = view.model;
    if (view) row.turn = view.turn;
    const answered = view?.answersCallId !== undefined ? callById.get(view.answersCallId) : undefined;
    if (answered) row.answers = answered.callStepKey;
    const made = (view?.callIds ?? []).map((id) => callById.get(id)).filter((c) => c !== undefined);
    const results = made.flatMap((c) => (c.resultStepKey !== undefined ? [c.resultStepKey] : []));
    if (results.length > 0) row.results = results;
    const shown = answered ?? made[0];
    if (shown) row.outcome = outcomeRow(shown, s.toolCalls[shown.callIndex]?.args ?? session.steps[shown.callPosition]?.toolCalls[shown.callIndex]?.args);
    return withLongFields(s, row);
  });
  const family = familyEvidence(session);
  const conversation = conversationSummary(session, turns, oneLine(meta.title, 200) || session.id);
  const summary: SessionSummary = {
    id: session.id,
    prefix: session.id.slice(0, 8),
    product: session.product,
    title: conversation.title,
    ending: conversation.ending,
    endingKind: conversation.endingKind,
    conversationPages: conversation.pages.length > 1 ? conversation.pages : undefined,
    model: meta.model,
    models: turns.modelSequence,
    stepsPerModel: turns.stepsPerModel,
    stepDays: stepDaysOf({ createdAt: meta.createdAt }, steps),
    conversation: conversationCounts(turns),
    pairing: {
      paired: turns.pairing.paired,
      unpairedResults: turns.pairing.unpairedResults.map((r) => ({ stepKey: r.stepKey, type: r.type })),
      unansweredCalls: turns.pairing.unansweredCalls.map((c) => ({ stepKey: c.stepKey, callIndex: c.callIndex, name: c.name })),
    },
    localTime: meta.localTime,
    workspace: meta.workspace,
    createdAt: meta.createdAt,
    createdAtFrom: meta.createdAtFrom,
    durationMs: meta.durationMs,
    stepCount: meta.stepCount,
    toolCallCount: meta.toolCallCount,
    errorCount: meta.errorCount,
    toolCounts: meta.toolCounts,
    messageCount: session.messages.length,
    taskLogCount: session.taskLogs.length,
    messagePageStarts: messagePageStarts(session.messages),
    taskLogPageStarts: taskLogPageStarts(session.taskLogs),
    longTaskLogs: longTaskLogs(session.taskLogs),
    artifactCount: artifacts.length,
    uploads,
    transcriptFiles: session.transcriptFiles,
    problems: session.problems.map((p) => ({ ...p })),
    redactions: redactions.map((r) => ({ ...r })),
    redacted,
    audit: auditRows(session, turns),
    family,
    ref,
  };
  const usage = sessionUsage(session);
  if (usage) summary.usage = { ...usage, byDay: Object.fromEntries(usagePerDay([session.conversation])) };
  if (browserTrail.length > 0) summary.browserTrail = browserTrail;
  if (session.notShown) summary.notShown = session.notShown.map((f) => ({ ...f }));
  if (session.notOnDiskSince !== undefined) summary.notOnDiskSince = session.notOnDiskSince;
  return { session: summary, steps, artifacts };
}

/** The lean outcome of a call for its rows (and the search titles built from them). */
function outcomeRow(call: ToolCallView, args: Record<string, unknown> | undefined): NonNullable<StepRow['outcome']> {
  const o: NonNullable<StepRow['outcome']> = { kind: call.outcome.kind, status: call.outcome.status, line: call.outcome.line };
  if (call.outcome.target !== undefined) o.target = oneLine(call.outcome.target, 300);
  if (args?.BypassSandbox === true || args?.BypassSandbox === 'true') o.bypass = true;
  return o;
}

/** Turns, files changed and failures over the whole session (the failures as `turns/failures.ts` counts them). */
function conversationCounts(turns: SessionTurns): NonNullable<SessionSummary['conversation']> {
  const files = new Set(turns.turns.flatMap((t) => t.stats.filesChanged));
  const { failedCalls, agentErrors } = sessionFailureCounts(turns);
  return {
    turns: turns.turns.length,
    filesChanged: files.size,
    failedCalls,
    agentErrors,
    failedCommands: turns.calls.filter((c) => isFailedCall(c) && c.outcome.kind === 'command').length,
  };
}

/** The row with `longFields` set when the step has fields too long for its page (left out otherwise: lean store). */
function withLongFields(step: Step, row: StepRow): StepRow {
  const long = longFields(step);
  return long.length > 0 ? { ...row, longFields: long } : row;
}
