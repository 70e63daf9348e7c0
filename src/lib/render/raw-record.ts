/**
 * A raw transcript record for reading: JSON pretty-printed (two spaces a level), so a 20,000-character escaped line
 * reads field by field. The values are the record's own (parsed, printed again); a line that is not JSON (a torn
 * line, a chunk boundary) comes back exactly as read. Pure.
 */

/** `raw` pretty-printed when it is a JSON object or array, with whether it was. */
export function prettyRecord(raw: string): { text: string; pretty: boolean } {
  const trimmed = raw.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return { text: raw, pretty: false };
  try {
    return { text: JSON.stringify(JSON.parse(trimmed), null, 2), pretty: true };
  } catch {
    return { text: raw, pretty: false };
  }
}
