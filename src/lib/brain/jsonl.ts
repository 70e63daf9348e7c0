/**
 * Tolerant JSONL: splits a byte buffer into lines and parses each one on its own, so one bad line never costs the
 * rest of the file. Works on bytes (not a stream of decoded text) because chunk rebuilds need byte offsets and
 * because a line of many MB is just a slice here.
 */
import { isUtf8 } from 'node:buffer';
import { boundNesting, nestingMessage } from './nesting.ts';
import type { ProblemBudget } from './problems.ts';
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
/** What a JSON text can start with, after JSON's own whitespace. */
const JSON_START = /^[ \t\r\n]*[{["\-0-9tfn]/;
const CR = 0x0d;

/**
 * Split and parse `buf`, handing each line to `visit` in file order (nothing is collected here, so a file of
 * millions of lines costs what the visitor keeps). `file` (relative to the session folder) goes into the problems;
 * `sessionId` too. Blank lines are skipped silently; every other line that does not parse is a `bad-line` problem
 * with its number (recorded before the line is visited) and is visited without a `value`.
 */
export function forEachJsonlLine(
  buf: Buffer,
  file: string,
  sessionId: string | undefined,
  problems: ProblemBudget,
  visit: (line: JsonlLine) => void,
): void {
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
    if (!allUtf8 && !isUtf8(buf.subarray(start, stop))) problems.add(badEncoding(file, lineNo, sessionId));
    const raw = buf.toString('utf8', start, stop);
    if (raw.trim() === '') {
      if (!hasNewline) break;
      continue;
    }
    const value = parseLine(raw);
    if (value === undefined) {
      problems.add(badLine(raw, stop - start, file, lineNo, sessionId));
      visit({ line: lineNo, offset: start, raw });
      if (!hasNewline) break;
      continue;
    }
    boundLineNesting(value, file, lineNo, sessionId, problems);
    visit({ line: lineNo, offset: start, raw, value });
    if (!hasNewline) break;
  }
}

/**
 * One line's value as the reader takes it: `undefined` when it is not JSON. A line whose first character can start
 * no JSON value is bad without a parse: a thrown parse costs microseconds, and a file of 2 million such lines
 * (issue 10) spent most of its read throwing.
 */
export function parseLine(raw: string): unknown {
  return JSON_START.test(raw) ? parseOrUndefined(raw) : undefined;
}

/**
 * Keeps a parsed line's value within the nesting the archive handles (nesting.ts), in place; a part cut at the
 * bound is a `too-deep` problem with the line.
 */
export function boundLineNesting(value: unknown, file: string, line: number, sessionId: string | undefined, problems: ProblemBudget): void {
  const cuts = boundNesting(value);
  if (cuts.length > 0) problems.add({ kind: 'too-deep', sessionId, file, line, message: nestingMessage(line, cuts) });
}

/** The `bad-line` problem of line `line` (`bytes` long) that does not parse. */
export function badLine(raw: string, bytes: number, file: string, line: number, sessionId: string | undefined): Problem {
  const startsInside = raw.trimStart()[0] !== '{';
  return {
    kind: 'bad-line',
    sessionId,
    file,
    line,
    message: startsInside
      ? `Line ${line} (${bytes} bytes) is not valid JSON: it starts inside a record (a torn line).`
      : `Line ${line} (${bytes} bytes) is not valid JSON: the record is cut short or garbled.`,
  };
}

/** The `bad-encoding` problem of line `line`, whose invalid bytes were replaced. */
export function badEncoding(file: string, line: number, sessionId: string | undefined): Problem {
  return { kind: 'bad-encoding', sessionId, file, line, message: `Line ${line} holds bytes that are not valid UTF-8; they were replaced by U+FFFD.` };
}

/** `JSON.parse(raw)`, or `undefined` when it does not parse (JSON itself has no `undefined`). */
function parseOrUndefined(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
