/**
 * Where the browser subagent's trail goes in a session. Antigravity records no link from a screenshot, a page's text
 * or a click mark to the step that made it, only the epoch milliseconds in the file name (`dom_1778306621003.txt`),
 * so each goes to the step running at that time: the last step recorded at or before it (real session b1966f3f:
 * three looks at the page 36 to 90 s after the `browser_subagent` call of step 52). A recording
 * (`<RecordingName>_<ms>.webp` at the root) goes to the `browser_subagent` call whose `RecordingName` it carries.
 *
 * Pure, no `astro:*` import.
 */
import { saneTime } from '../brain/dates.ts';

/** A step as placement needs it. */
export interface TimedStep {
  key: string;
  createdAt?: string;
}

/**
 * The key of the step running at `at` (epoch ms): the last step, in timeline order, recorded at or before it; the
 * first dated step when `at` comes before every step; undefined without a dated step or a time.
 */
export function stepAtTime(steps: readonly TimedStep[], at: number | undefined): string | undefined {
  if (at === undefined) return undefined;
  let found: string | undefined;
  let firstDated: string | undefined;
  for (const step of steps) {
    const t = saneTime(step.createdAt);
    if (t === undefined) continue;
    firstDated ??= step.key;
    if (t <= at) found = step.key;
  }
  return found ?? firstDated;
}

const RECORDING = /^(.+)_(\d{13})\.webp$/i;

/** The `RecordingName` a file name carries (`login_flow_1778306621003.webp` → `login_flow`), or undefined. */
export function recordingNameOf(fileName: string): string | undefined {
  return RECORDING.exec(fileName)?.[1];
}

/** The name of the recording a `browser_subagent` call asked for, from its arguments. */
export function requestedRecording(args: Record<string, unknown> | undefined): string | undefined {
  const name = args?.RecordingName;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
}

/** Recordings bigger than this are linked, not shown inline: a page of screenshots should not cost megabytes. */
export const INLINE_RECORDING_MAX_BYTES = 2 * 1024 * 1024;

/** The recordings (by file name) that the `browser_subagent` calls among `calls` asked for. */
export function recordingsOf<T extends { name: string }>(
  files: readonly T[],
  calls: ReadonlyArray<{ name: string; args: Record<string, unknown> }>,
): T[] {
  const asked = new Set(calls.filter((c) => c.name === 'browser_subagent').map((c) => requestedRecording(c.args)).filter((n) => n !== undefined));
  if (asked.size === 0) return [];
  return files.filter((f) => {
    const name = recordingNameOf(f.name);
    return name !== undefined && asked.has(name);
  });
}
