/**
 * A raw transcript record for reading: JSON pretty-printed (two spaces a level), so a 20,000-character escaped line
 * reads field by field. The values are the record's own (parsed, printed again); a line that is not JSON (a torn
 * line, a chunk boundary) comes back exactly as read, and so does a record nested deeper than `PRETTY_NESTING`:
 * printed, each level indents its lines two more spaces, so a line of 3,000 brackets (6 KB) became 9 MB of spaces,
 * and at 5,000 `JSON.stringify` gives up. Real records nest at most 7 levels (brain/nesting.ts). Pure.
 */
import { nestingDepth } from '../brain/nesting.ts';

/** The deepest record pretty-printed; a deeper one is shown as written. */
export const PRETTY_NESTING = 16;

/** `raw` pretty-printed when it is a JSON object or array nesting no deeper than `PRETTY_NESTING`, with whether it was. */
export function prettyRecord(raw: string): { text: string; pretty: boolean } {
  const trimmed = raw.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return { text: raw, pretty: false };
  try {
    const value: unknown = JSON.parse(trimmed);
    if (nestingDepth(value, PRETTY_NESTING) > PRETTY_NESTING) return { text: raw, pretty: false };
    return { text: JSON.stringify(value, null, 2), pretty: true };
  } catch {
    return { text: raw, pretty: false };
  }
}
