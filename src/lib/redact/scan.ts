/**
 * Finding secrets in many strings at once. Calling secretlint once per string costs ~0.7 ms even for a short
 * string (it sets up 25 rules each time), far too slow for the hundreds of thousands of strings of a big archive.
 * So: a cheap prefilter drops the strings that cannot hold a secret, the rest (each in every decoded reading, see
 * `readings.ts`) are joined into batches with a separator, each batch is linted once, and the reported ranges are
 * mapped back to the strings they fall in. Then every secret found is looked for again, literally, in every
 * reading of every string of the call (one session): wherever it is written, in whatever encoding, it goes.
 */
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { AWS_SECRET_AT, CUT_TAILS, gluedTokens, OWN_PATTERNS, PREFILTER, PROSE_PREFILTER, SCAN_TRIGGER, SECRETLINT_CONFIG, kindForSecretlint } from './patterns.ts';
import { PROSE_PATTERNS, type ProsePattern, isProseKind } from './prose.ts';
import { type Reading, lastStartAtOrBefore, rangeInRoot, readingsOf } from './readings.ts';
import { renderedReading } from './rendered.ts';

// secretlint 12 profiles every lint whether anyone asks or not: each rule of each call sets performance marks, and
// its PerformanceObserver scans every mark kept so far on each one (secretlint/secretlint#1633, #1653; fixed in 13
// by `setEnabled`, #1673). The scan is quadratic in the marks of the process: at 1M steps the first render process
// spent over 10 minutes in that observer after reading every session, and the marks are never freed. Nothing here
// reads the profile, so no marks are made.
secretLintProfiler.mark = () => {};

/** A range of one string to replace by `[REDACTED:<kind>]`. */
export interface Hit {
  start: number;
  end: number;
  kind: string;
}

/** Options of `scanTexts`. */
export interface ScanOptions {
  /** `json[i]` marks `texts[i]` as a JSON document (a transcript line): only its decoded readings are scanned. */
  json?: readonly boolean[];
  /** `cutAtEnd[i]` marks `texts[i]` as cut short (a file over the reader's limit): a secret's start at its end goes. */
  cutAtEnd?: readonly boolean[];
}

/** Only this much of a cut text's end is tried for the start of a secret (`CUT_TAILS`): longer than any token. */
const CUT_TAIL_CHARS = 4096;

/** Between strings of a batch. NUL and newlines end every pattern's character class, so no match spans two strings. */
const SEPARATOR = '\n\0\n';
/** Batches stay around this size: big enough to amortise secretlint's setup, small enough to keep regexes fast. */
const BATCH_CHARS = 2_000_000;
/** Characters a token may continue with; used to widen a reported range that stops inside a token. */
const TOKEN_CHAR = /[A-Za-z0-9_\-+/=]/;

const QUOTE = /["']/;
/** The account number inside the range secretlint reports for an AWS account ID. */
const AWS_ACCOUNT_DIGITS = /[0-9]{4}-?[0-9]{4}-?[0-9]{4}(?=["']?$)/;

/** One reading of one string, in a batch. */
interface BatchItem {
  index: number;
  reading: Reading;
}

/** Each secret found, as it reads decoded, with the kind it was found as (the first kind wins). */
type Found = Map<string, string>;

/**
 * Finds the secrets of every string; `result[i]` are the hits of `texts[i]`, sorted and not overlapping. Pass all
 * strings of one session in one call: a secret found in one of them is then removed from all of them.
 */
export async function scanTexts(texts: readonly string[], options: ScanOptions = {}): Promise<Hit[][]> {
  const hits: Hit[][] = texts.map(() => []);
  const found: Found = new Map();
  // Readings that may hold any secret, and readings that may hold only a password in prose (no secretlint needed).
  const batches = { full: { items: [] as BatchItem[], chars: 0 }, prose: { items: [] as BatchItem[], chars: 0 } };
  const add = async (which: 'full' | 'prose', item: BatchItem): Promise<void> => {
    const batch = batches[which];
    batch.items.push(item);
    batch.chars += item.reading.text.length + SEPARATOR.length;
    if (batch.chars >= BATCH_CHARS) {
      await scanBatch(batch.items, hits, found, which === 'full');
      batch.items = [];
      batch.chars = 0;
    }
  };
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index]!;
    if (!SCAN_TRIGGER.test(text)) continue;
    const readings = readingsOf(text, options.json?.[index]);
    // Decoding never glues a token to a word, so only the most decoded readings need their glued tokens loosened.
    const parents = new Set(readings.map((r) => r.parent));
    const jsonParents = new Set(readings.map((r) => (r.layer === 'json' ? r.parent : undefined)));
    for (const reading of readings) {
      const prose = PROSE_PREFILTER.test(reading.text);
      if (PREFILTER.test(reading.text)) {
        await add('full', { index, reading });
        const unglued = parents.has(reading) ? undefined : ungluedReading(reading);
        if (unglued) await add('full', { index, reading: unglued });
      } else if (prose) {
        await add('prose', { index, reading });
      }
      // A password written in Markdown (`is **X**`, `| Password | X |`) reads as prose once rendered. A reading
      // with a JSON-decoded child is not rendered: the child holds the same text with its own newlines and marks.
      // (A percent-decoded child is another reading, not the same text: `**A!b%A0**` is a password, not A!b + NBSP.)
      const rendered = prose && !jsonParents.has(reading) ? renderedReading(reading) : undefined;
      if (rendered) await add('prose', { index, reading: rendered });
    }
  }
  for (const which of ['full', 'prose'] as const) {
    if (batches[which].items.length > 0) await scanBatch(batches[which].items, hits, found, which === 'full');
  }
  if (found.size > 0) removeFoundEverywhere(texts, options, found, hits);
  options.cutAtEnd?.forEach((cut, index) => {
    if (cut && texts[index] !== undefined) hits[index]!.push(...cutTailHits(texts[index]));
  });
  return hits.map(mergeHits);
}

/** The start of a secret that a cut left at the end of `text` (see `CUT_TAILS`). */
function cutTailHits(text: string): Hit[] {
  const from = Math.max(0, text.length - CUT_TAIL_CHARS);
  const tail = text.slice(from);
  const out: Hit[] = [];
  for (const { kind, regex } of CUT_TAILS) {
    const range = regex.exec(tail)?.indices?.[1];
    if (range && range[1] > range[0]) out.push({ start: from + range[0], end: from + range[1], kind });
  }
  return out;
}

async function scanBatch(items: BatchItem[], hits: Hit[][], found: Found, secretlint: boolean): Promise<void> {
  const starts: number[] = [];
  const parts: string[] = [];
  let offset = 0;
  for (const { reading } of items) {
    starts.push(offset);
    parts.push(reading.text);
    offset += reading.text.length + SEPARATOR.length;
  }
  const content = parts.join(SEPARATOR);
  const inBatch: Hit[] = [];

  const messages = secretlint
    ? (
        await lintSource({
          source: { content, filePath: 'transcript-strings.txt', contentType: 'text' },
          options: { config: SECRETLINT_CONFIG, noPhysicFilePath: true },
        })
      ).messages
    : [];
  for (const message of messages) {
    let [start, end] = message.range;
    if (message.messageId === 'AWSSecretAccessKey') {
      AWS_SECRET_AT.lastIndex = start;
      const key = AWS_SECRET_AT.exec(content)?.indices?.[1];
      if (key) [start, end] = key;
    } else if (message.messageId === 'AWSAccountID') {
      // Reported with its name and quotes (`"AWS_ACCOUNT_ID": "…"`): keep the name, and never take a JSON quote.
      const digits = AWS_ACCOUNT_DIGITS.exec(content.slice(start, end));
      if (digits) [start, end] = [start + digits.index, start + digits.index + digits[0].length];
    }
    // A secret neither starts nor ends with a quote; a quote in the range is the JSON (or shell) around it.
    while (start < end && QUOTE.test(content[start]!)) start++;
    while (end > start && QUOTE.test(content[end - 1]!)) end--;
    // Never trust a range to end on the token's end (see AWS_SECRET_AT): widen it over the rest of the token.
    while (end < content.length && TOKEN_CHAR.test(content[end]!)) end++;
    inBatch.push({ start, end, kind: kindForSecretlint(message.ruleId, message.messageId) });
  }
  for (const { kind, regex, group, startGroup, accept, anchor, fallback } of (secretlint ? [...OWN_PATTERNS, ...PROSE_PATTERNS] : PROSE_PATTERNS) as ProsePattern[]) {
    for (const match of anchor ? anchoredMatches(content, anchor, fallback ? [regex, fallback] : [regex], accept) : content.matchAll(regex)) {
      const range = match.indices?.[group];
      const from = startGroup === undefined ? range?.[0] : match.indices?.[startGroup]?.[0];
      if (range && from !== undefined && (anchor !== undefined || !accept || accept(match))) inBatch.push({ start: from, end: range[1], kind });
    }
  }

  // Map each batch range back to the reading(s) it falls in (a range over a separator is clipped to each side),
  // then onto the string the reading was decoded from.
  for (const hit of inBatch) {
    let k = lastStartAtOrBefore(starts, hit.start);
    for (; k < starts.length && starts[k]! < hit.end; k++) {
      const { index, reading } = items[k]!;
      const start = Math.max(hit.start - starts[k]!, 0);
      const end = Math.min(hit.end - starts[k]!, reading.text.length);
      if (end <= start) continue;
      const [rootStart, rootEnd] = rangeInRoot(reading, start, end);
      hits[index]!.push({ start: rootStart, end: rootEnd, kind: hit.kind });
      const secret = writtenAs(reading, start, end);
      if (!found.has(secret)) found.set(secret, hit.kind);
    }
  }
}

/**
 * The found secret as its reading writes it; for a rendered reading, as the text it was rendered from writes it
 * (`ab*cd*9` rendered is `abcd9`, which no other string holds), since found secrets are sought literally elsewhere.
 */
function writtenAs(reading: Reading, start: number, end: number): string {
  if (reading.layer !== 'rendered') return reading.text.slice(start, end);
  const from = reading.escapes!.source(start).start;
  return reading.parent!.text.slice(from, Math.max(from, reading.escapes!.source(end - 1).end));
}

/**
 * A reading with a space in place of the character just before each token glued to a word (`TOKENghp_…`), which
 * rules wanting a boundary before the token miss; the same length, so its positions are its parent's. Only made for
 * a reading that passed PREFILTER: found secrets are then sought literally, glued or not (`removeFoundEverywhere`).
 */
function ungluedReading(reading: Reading): Reading | undefined {
  let unglued = '';
  let at = 0;
  for (const [start] of gluedTokens(reading.text)) {
    unglued += `${reading.text.slice(at, start - 1)} `;
    at = start;
  }
  return at === 0 ? undefined : { text: unglued + reading.text.slice(at), parent: reading, layer: 'unglued' };
}

/**
 * Matches of `regexes` tried only where `anchor` (a cheap, literal-led search) matches: a regex led by a lookbehind
 * and an alternation of words is otherwise tried at every character of the batch. A regex finds one match per
 * place, which may be no value where another reading of the place is (`password to A=#b1`: "to A" as a qualifier
 * and `#b1`, or "to" and `A=#b1`), so each of `regexes` is tried there, and every match `accept`s is yielded.
 */
function* anchoredMatches(
  content: string,
  anchor: RegExp,
  regexes: readonly RegExp[],
  accept: ((match: RegExpMatchArray) => boolean) | undefined,
): Generator<RegExpExecArray> {
  const stickies = regexes.map((regex) => new RegExp(regex.source, `${regex.flags.replace('g', '')}y`));
  let after = 0;
  for (const hit of content.matchAll(anchor)) {
    if (hit.index < after) continue;
    for (const sticky of stickies) {
      sticky.lastIndex = hit.index;
      const match = sticky.exec(content);
      if (!match) break; // each regex after the first matches only where the first does
      if (!accept || accept(match)) {
        after = Math.max(after, match.index + match[0].length);
        yield match;
      }
    }
  }
}

/**
 * A found secret this short, or made of letters only under 16 characters, is not looked for elsewhere: a
 * placeholder password such as `password` would otherwise be blanked in every sentence of the session. Where it was
 * found (and wherever the patterns find it again) it is redacted all the same.
 */
function worthSeekingElsewhere(secret: string): boolean {
  if (secret.length < 8 || secret.includes('[REDACTED:')) return false;
  return secret.length >= 16 || (/[0-9]/.test(secret) && /[A-Za-z]/.test(secret));
}

/**
 * Every found secret, literally, in every reading of every string: a secret whose context only one string showed
 * (a rule that needs `AWS_SECRET_ACCESS_KEY=` before the key, a value the reader decoded from a cut argument) is
 * then gone from the raw lines and every other copy too, in any of the encodings `readingsOf` decodes.
 */
function removeFoundEverywhere(texts: readonly string[], options: ScanOptions, found: Found, hits: Hit[][]): void {
  const secrets = [...found.keys()].filter(worthSeekingElsewhere).sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return;
  const anySecret = new RegExp(secrets.map(escapeRegExp).join('|'), 'g');
  const first = secrets[secrets.length - 1]!.length; // the shortest: a text shorter than it cannot hold any
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index]!;
    const cut = text.includes(CUT_MARK_LITERAL);
    if (text.length < first && !cut) continue;
    for (const reading of readingsOf(text, options.json?.[index])) {
      for (const match of reading.text.matchAll(anySecret)) {
        const [start, end] = rangeInRoot(reading, match.index, match.index + match[0].length);
        hits[index]!.push({ start, end, kind: found.get(match[0])! });
      }
      if (cut) {
        for (const [start, end, secret] of cutStarts(reading.text, secrets)) {
          const [rootStart, rootEnd] = rangeInRoot(reading, start, end);
          hits[index]!.push({ start: rootStart, end: rootEnd, kind: found.get(secret)! });
        }
      }
    }
  }
}

/** How the compact transcript marks a value it cut: `…\n<truncated 2827 bytes>`. */
const CUT_MARK_LITERAL = '<truncated ';
/** A cut mark, searched for first (a regex led by the run before it was tried at every character: quadratic). */
const CUT_MARK = /\n<truncated \d+ bytes>/g;
/** Characters of the run just before a cut mark (a secret's start). */
const RUN_CHAR = /[^\s"'<>]/;
/** A cut start this short is not taken for a secret's start (it could be any word). */
const MIN_CUT_START = 6;
/** The run before a cut mark is looked at this far back at most: longer than any token. */
const MAX_CUT_RUN = 4096;

/**
 * The compact transcript cuts long values, which can leave the start of a secret just before its cut mark (22 of
 * a `ghp_` token's 40 characters), too short for any rule. Where that start is the start of a secret found whole
 * elsewhere in the session (the full transcript), it goes too: `[start, end, secret]` for each.
 */
function cutStarts(text: string, secrets: readonly string[]): [number, number, string][] {
  const out: [number, number, string][] = [];
  for (const mark of text.matchAll(CUT_MARK)) {
    const end = mark.index;
    let start = end;
    while (start > 0 && end - start < MAX_CUT_RUN && RUN_CHAR.test(text[start - 1]!)) start--;
    const run = text.slice(start, end);
    for (const secret of secrets) {
      for (let k = Math.min(secret.length - 1, run.length); k >= MIN_CUT_START; k--) {
        if (run.endsWith(secret.slice(0, k))) {
          out.push([end - k, end, secret]);
          break;
        }
      }
    }
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * Sorts hits and merges overlapping ones; a merged range keeps the kind of the hit that starts first (longest on
 * ties), except that a kind known by its format wins over a password in prose (`pw: x!eyJ…` is a JWT).
 */
export function mergeHits(hits: Hit[]): Hit[] {
  if (hits.length < 2) return hits;
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Hit[] = [{ ...hits[0]! }];
  for (const hit of hits.slice(1)) {
    const last = merged[merged.length - 1]!;
    if (hit.start < last.end) {
      last.end = Math.max(last.end, hit.end);
      if (isProseKind(last.kind) && !isProseKind(hit.kind)) last.kind = hit.kind;
    } else merged.push({ ...hit });
  }
  return merged;
}

/** The text with every hit replaced by `[REDACTED:<kind>]`. */
export function applyHits(text: string, hits: readonly Hit[]): string {
  let out = '';
  let at = 0;
  for (const hit of hits) {
    out += text.slice(at, hit.start) + `[REDACTED:${hit.kind}]`;
    at = hit.end;
  }
  return out + text.slice(at);
}
