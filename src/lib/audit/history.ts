/**
 * An artifact's history: its `.resolved.N` versions in order (N ascending), then the plain `.resolved` (the latest
 * resolved copy), then the current document when it differs; each with the text before it, for a diff. Pure.
 */
import type { Artifact, ArtifactVersion } from '../brain/types.ts';
import { formatUtc } from '../archive/format.ts';

/** One entry of the history. */
export interface HistoryEntry {
  /** File relative to the session folder. */
  file: string;
  /** `version 0`, `latest resolved`, `current document`, or one the archive store kept (`…, last seen <time>`). */
  label: string;
  text: string;
  /** The previous entry's text (absent for the first). */
  before?: string;
  /** True when the text equals the previous entry's. */
  unchanged: boolean;
}

/** The versions of `artifact` in order, each with the text before it. */
export function artifactHistory(artifact: Artifact): HistoryEntry[] {
  const entries: { file: string; label: string; text: string }[] = artifact.versions.map((v) => ({
    file: v.file,
    label: versionLabel(v),
    text: v.text,
  }));
  const last = entries[entries.length - 1];
  if (artifact.text !== undefined && artifact.file && entries.length > 0 && last?.text !== artifact.text) {
    entries.push({ file: artifact.file, label: 'current document', text: artifact.text });
  }
  return entries.map((e, i) => {
    const before = entries[i - 1]?.text;
    return { ...e, ...(before !== undefined ? { before } : {}), unchanged: before !== undefined && before === e.text };
  });
}

/** How a version is named: by its `.resolved.N`, or as an earlier content the archive store kept after it changed. */
function versionLabel(v: ArtifactVersion): string {
  const base = v.version !== null ? `version ${v.version}` : v.file.endsWith('.md') ? 'earlier document' : 'latest resolved';
  return v.replacedAt ? `${v.version === null && !v.file.endsWith('.md') ? 'earlier resolved' : base} (kept by the archive store; last seen ${formatUtc(v.replacedAt)})` : base;
}
