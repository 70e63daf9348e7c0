/**
 * Where a session's images belong in its conversation. Antigravity keeps them beside the transcripts with no record
 * of where they were used, so they are placed by what the data says:
 *
 * - an image the user attached (`.user_uploaded/*`, `media__<ms>.<ext>`, `uploaded_media_<ms>.<ext>` at the root)
 *   goes to the turn whose request mentions it (`@[.user_uploaded/current-landing.png]` in the demo), else to the
 *   first request sent at or after the time in its name (real session a99681b1: `media__1781501967677.jpg`, sent
 *   with the request six minutes later);
 * - an image a tool made (`<name>_<13-digit ms>.png` at the root, as `generate_image` saves them) goes to the call
 *   that made it: the `generate_image` call named `<name>`, a browser recording (`<name>_<ms>.webp`) the
 *   `browser_subagent` call whose `RecordingName` is `<name>`, else a call whose output names the file, else the turn
 *   running at the time in its name.
 *
 * Pure, no `astro:*` import.
 */
import { saneTime } from '../brain/dates.ts';
import { recordingNameOf, requestedRecording } from './browser-trail.ts';
import type { ToolCallView, Turn } from '../turns/types.ts';

/** An image as the conversation places it (an `UploadRow` has these fields). */
export interface PlacedImage {
  /** Relative path in the session folder. */
  file: string;
  name: string;
  /** Published file name; only served images are placed. */
  served?: string;
}

/** Images by where they go. */
export interface ImagePlaces<T extends PlacedImage> {
  /** By turn number: images the user attached to that turn's request. */
  turns: Record<number, T[]>;
  /** By call id (`ToolCallView.id`): images the call made. */
  calls: Record<string, T[]>;
  /** By turn number: images made during the turn that no call claims. */
  madeInTurn: Record<number, T[]>;
  /** Images that could not be placed. */
  elsewhere: T[];
}

const UPLOAD_NAME = /^(?:media__|uploaded_media_)(\d{13})\.[a-z0-9]+$/i;
const MADE_NAME = /^(.+)_(\d{13})\.[a-z0-9]+$/i;

/** What an image's name says: attached by the user or made by a tool, and the time (ms) in its name. */
export function imageOrigin(image: Pick<PlacedImage, 'file' | 'name'>): { origin: 'uploaded' | 'made'; at?: number; base?: string } {
  const uploaded = UPLOAD_NAME.exec(image.name);
  if (image.file.split(/[\\/]/).includes('.user_uploaded')) return { origin: 'uploaded', at: uploaded ? Number(uploaded[1]) : undefined };
  if (uploaded) return { origin: 'uploaded', at: Number(uploaded[1]) };
  const made = MADE_NAME.exec(image.name);
  if (made) return { origin: 'made', at: Number(made[2]), base: made[1] };
  return { origin: 'uploaded' };
}

const time = saneTime;

const lastSegment = (path: string): string => path.split(/[\\/]/).pop() ?? path;

function push<K extends string | number, T>(map: Record<K, T[]>, key: K, value: T): void {
  (map[key] ??= []).push(value);
}

/** The turn running at time `at` (its start at or before it), or undefined. */
function turnAt(turns: readonly Turn[], at: number): Turn | undefined {
  let found: Turn | undefined;
  for (const turn of turns) {
    const start = time(turn.stats.startedAt);
    if (start !== undefined && start <= at) found = turn;
  }
  return found;
}

/**
 * Place every served image. `argsOf` gives a call's arguments (for `generate_image`'s `ImageName`).
 */
export function placeImages<T extends PlacedImage>(
  images: readonly T[],
  turns: readonly Turn[],
  calls: readonly ToolCallView[],
  argsOf: (call: ToolCallView) => Record<string, unknown> | undefined,
): ImagePlaces<T> {
  const places: ImagePlaces<T> = { turns: {}, calls: {}, madeInTurn: {}, elsewhere: [] };
  for (const image of images) {
    if (image.served === undefined) continue;
    const { origin, at, base } = imageOrigin(image);
    if (origin === 'uploaded') {
      const mentioned = turns.find((t) => t.request?.mentionedFiles.some((m) => m === image.file || lastSegment(m) === image.name));
      // Sent with the first request at or after the upload (a second of slack for clocks rounding apart).
      const sent = mentioned ?? (at !== undefined ? turns.find((t) => t.request && (time(t.request.createdAt) ?? -Infinity) >= at - 1000) : undefined);
      if (sent) push(places.turns, sent.number, image);
      else places.elsewhere.push(image);
      continue;
    }
    const recording = recordingNameOf(image.name);
    const maker =
      calls.find((c) => c.outcome.producedFile !== undefined && lastSegment(c.outcome.producedFile) === image.name) ??
      (recording !== undefined ? calls.find((c) => c.name === 'browser_subagent' && requestedRecording(argsOf(c)) === recording) : undefined) ??
      calls.find((c) => c.name === 'generate_image' && (argsOf(c)?.ImageName === base || c.outcome.target === base)) ??
      calls.find((c) => c.outputHead?.includes(image.name));
    if (maker) {
      push(places.calls, maker.id, image);
      continue;
    }
    const turn = at !== undefined ? turnAt(turns, at) : undefined;
    if (turn) push(places.madeInTurn, turn.number, image);
    else places.elsewhere.push(image);
  }
  return places;
}
