/**
 * Turn a read (and redacted) session into the lean rows the content store keeps: header fields, one row per step
 * and one per artifact, never a step body. Bodies are read again by id at render time (see `detail.ts`).
 */
import type { Session, Step, Upload } from '../brain/types.ts';
import { RASTER_EXTENSIONS } from '../brain/index.ts';
import type { Redaction } from '../redact/index.ts';
import { auditRows } from '../audit/rows.ts';
import { familyEvidence } from '../family/evidence.ts';
import type { ArtifactRow, SessionRows, SessionSummary, UploadRow, StepRow } from './schemas.ts';
import { isErrorStep, oneLine, stepSummary } from './step-summary.ts';
import { longFields } from './long-text.ts';

/** The published file name of an upload, or undefined when it is not served (not a raster image). */
export function servedUploadName(upload: Upload, position: number): string | undefined {
  const ext = RASTER_EXTENSIONS.get(upload.mediaType.toLowerCase());
  return upload.isImage && ext ? `${position}.${ext}` : undefined;
}

/** URL-safe, unique-within-session keys for artifact names. */
export function artifactSlugs(names: string[]): string[] {
  const seen = new Set<string>();
  return names.map((name) => {
    const base = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || 'artifact';
    let slug = base;
    for (let n = 2; seen.has(slug); n++) slug = `${base}-${n}`;
    seen.add(slug);
    return slug;
  });
}

/** The lean rows of one session: its header entry, one row per timeline entry and one per artifact. */
export function summariseSession(session: Session, redactions: Redaction[], redacted: boolean, ref: SessionSummary['ref']): SessionRows {
  const { meta } = session;
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
  }));
  const uploads: UploadRow[] = session.uploads.map((u, i) => ({
    file: u.file,
    name: u.name,
    size: u.size,
    mediaType: u.mediaType,
    served: servedUploadName(u, i),
  }));
  const steps: StepRow[] = session.steps.map((s) => withLongFields(s, {
    sessionId: session.id,
    key: s.key,
    index: s.index,
    position: s.position,
    type: s.type,
    status: s.status,
    source: s.source,
    createdAt: s.createdAt,
    tools: s.toolCalls.map((c) => c.name),
    summary: stepSummary(s),
    error: isErrorStep(s),
  }));
  const family = familyEvidence(session);
  const summary: SessionSummary = {
    id: session.id,
    prefix: session.id.slice(0, 8),
    product: session.product,
    title: oneLine(meta.title, 200) || session.id,
    model: meta.model,
    localTime: meta.localTime,
    workspace: meta.workspace,
    createdAt: meta.createdAt,
    durationMs: meta.durationMs,
    stepCount: meta.stepCount,
    toolCallCount: meta.toolCallCount,
    errorCount: meta.errorCount,
    toolCounts: meta.toolCounts,
    messageCount: session.messages.length,
    taskLogCount: session.taskLogs.length,
    artifactCount: artifacts.length,
    uploads,
    transcriptFiles: session.transcriptFiles,
    problems: session.problems.map((p) => ({ ...p })),
    redactions: redactions.map((r) => ({ ...r })),
    redacted,
    audit: auditRows(session),
    family,
    ref,
  };
  return { session: summary, steps, artifacts };
}

/** The row with `longFields` set when the step has fields too long for its page (left out otherwise: lean store). */
function withLongFields(step: Step, row: StepRow): StepRow {
  const long = longFields(step);
  return long.length > 0 ? { ...row, longFields: long } : row;
}
