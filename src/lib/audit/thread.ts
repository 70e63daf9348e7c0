/** Message threads: `messages/*.json` in time order (file name order breaks ties and orders undated ones). Pure. */
import { saneTime } from '../brain/dates.ts';
import type { Message } from '../brain/types.ts';

/** Messages oldest first; undated messages after the dated ones, by file name. */
export function threadOrder(messages: Message[]): Message[] {
  return [...messages].sort((a, b) => {
    // A time the archive does not place (dates.ts) counts as none.
    const ta = saneTime(a.timestamp) ?? Number.NaN;
    const tb = saneTime(b.timestamp) ?? Number.NaN;
    const da = Number.isNaN(ta);
    const db = Number.isNaN(tb);
    if (da !== db) return da ? 1 : -1;
    if (!da && ta !== tb) return ta - tb;
    return a.file.localeCompare(b.file);
  });
}
