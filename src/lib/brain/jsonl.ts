/**
 * Tolerant JSONL: splits a byte buffer into lines and parses each one on its own, so one bad line never costs the
 * rest of the file. Works on bytes (not a stream of decoded text) because chunk rebuilds need byte offsets and
 * because a line of many MB is just a slice here.
 */
import { isUtf8 } from 'node:buffer';
import type { Problem } from './types.ts';

/** One non-empty line of a JSONL file, parsed or not. */
export interface JsonlLine {
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte in the buffer (after a leading BOM). */
  offset: number;
  /** The line's text, BOM and trailing CR removed, invalid UTF-8 replaced by U+FFFD. */
  raw: string;
  /** The parsed value; `undefined` when the line does not parse (a `bad-line` problem was recorded). */
  value?: unknown;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Split and parse `buf`. `file` (relative to the session folder) goes into the problems; `sessionId` too.
 * Blank lines are skipped silently; every other line that does not parse is a `bad-line` problem with its number.
 */
export function parseJsonl(
  buf: Buffer,
  file: string,
  sessionId: string | undefined,
  problems: Problem[],
): JsonlLine[] {
  const out: JsonlLine[] = [];
  let pos = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  // One check for the whole file; only a file with bad bytes pays for a per-line check.
  const allUtf8 = isUtf8(buf);
  let lineNo = 0;
  while (pos <= buf.length) {
    let end = buf.indexOf(LF, pos);
    const hasNewline = end !== -1;
    if (!hasNewline) end = buf.length;
    lineNo++;
    const start = pos;
    pos = end + 1;
    let stop = end;
    // CRLF, even mixed with LF in one file: drop every CR at the line's end.
    while (stop > start && buf[stop - 1] === CR) stop--;
    if (stop === start) {
      if (!hasNewline) break;
      continue;
    }
    if (!allUtf8 && !isUtf8(buf.subarray(start, stop))) {
      problems.push({
        kind: 'bad-encoding',
        sessionId,
        file,
        line: lineNo,
        message: `Line ${lineNo} holds bytes that are not valid UTF-8; they were replaced by U+FFFD.`,
      });
    }
    const raw = buf.toString('utf8', start, stop);
    if (raw.trim() === '') {
      if (!hasNewline) break;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      const startsInside = raw.trimStart()[0] !== '{';
      problems.push({
        kind: 'bad-line',
        sessionId,
        file,
        line: lineNo,
        message: startsInside
          ? `Line ${lineNo} (${stop - start} bytes) is not valid JSON: it starts inside a record (a torn line).`
          : `Line ${lineNo} (${stop - start} bytes) is not valid JSON: the record is cut short or garbled.`,
      });
      out.push({ line: lineNo, offset: start, raw });
      if (!hasNewline) break;
      continue;
    }
    out.push({ line: lineNo, offset: start, raw, value });
    if (!hasNewline) break;
  }
  return out;
}
