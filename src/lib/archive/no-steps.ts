/**
 * What a session's pages say when it has no steps: the truth where the reader knows it. "No steps were recorded (or
 * none could be read)" was vague where the folder plainly holds artifacts and no log at all (issue 20).
 */
import { MAIN } from '../brain/transcripts.ts';

const LOG_NAMES = [MAIN.compact, MAIN.full, MAIN.overview].map((p) => p.split('/').pop()).join(', ');

/** The sentence for a session without steps, from the logs read and the artifacts found. */
export function noStepsText(s: { transcriptFiles: readonly string[]; artifactCount: number }): string {
  if (s.transcriptFiles.length > 0)
    return `No step record could be read from ${s.transcriptFiles.join(', ')}; the problems below say why.`;
  const none = `no log (none of ${LOG_NAMES} in .system_generated/logs/)`;
  if (s.artifactCount > 0)
    return `This session's folder holds ${s.artifactCount} artifact${s.artifactCount === 1 ? '' : 's'} and ${none}: there are no steps to show.`;
  return `This session's folder holds ${none}: there are no steps to show.`;
}
