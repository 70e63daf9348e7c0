/**
 * Finding secrets in many strings at once. Calling secretlint once per string costs ~0.7 ms even for a short
 * string (it sets up 25 rules each time), far too slow for the hundreds of thousands of strings of a big archive.
 * So: a cheap prefilter drops the strings that cannot hold a secret, the rest are joined into batches with a
 * separator, each batch is linted once, and the reported ranges are mapped back to the strings they fall in.
 */
import { lintSource } from '@secretlint/core';
import { AWS_SECRET_AT, OWN_PATTERNS, PREFILTER, SECRETLINT_CONFIG, kindForSecretlint } from './patterns.ts';

/** A range of one string to replace by `[REDACTED:<kind>]`. */
export interface Hit {
  start: number;
  end: number;
  kind: string;
}

/** Between strings of a batch. NUL and newlines end every pattern's character class, so no match spans two strings. */
const SEPARATOR = '\n\0\n';
/** Batches stay around this size: big enough to amortise secretlint's setup, small enough to keep regexes fast. */
const BATCH_CHARS = 2_000_000;
/** Characters a token may continue with; used to widen a reported range that stops inside a token. */
const TOKEN_CHAR = /[A-Za-z0-9_\-+/=]/;

/** Finds the secrets of every string; `result[i]` are the hits of `texts[i]`, sorted and not overlapping. */
export async function scanTexts(texts: readonly string[]): Promise<Hit[][]> {
  const hits: Hit[][] = texts.map(() => []);
  let batch: number[] = [];
  let batchChars = 0;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!;
    if (!PREFILTER.test(text)) continue;
    batch.push(i);
    batchChars += text.length + SEPARATOR.length;
    if (batchChars >= BATCH_CHARS) {
      await scanBatch(texts, batch, hits);
      batch = [];
      batchChars = 0;
    }
  }
  if (batch.length > 0) await scanBatch(texts, batch, hits);
  return hits.map(mergeHits);
}

async function scanBatch(texts: readonly string[], indices: number[], hits: Hit[][]): Promise<void> {
  const starts: number[] = [];
  const parts: string[] = [];
  let offset = 0;
  for (const i of indices) {
    starts.push(offset);
    parts.push(texts[i]!);
    offset += texts[i]!.length + SEPARATOR.length;
  }
  const content = parts.join(SEPARATOR);
  const found: Hit[] = [];

  const result = await lintSource({
    source: { content, filePath: 'transcript-strings.txt', contentType: 'text' },
    options: { config: SECRETLINT_CONFIG, noPhysicFilePath: true },
  });
  for (const message of result.messages) {
    let [start, end] = message.range;
    if (message.messageId === 'AWSSecretAccessKey') {
      AWS_SECRET_AT.lastIndex = start;
      const key = AWS_SECRET_AT.exec(content)?.indices?.[1];
      if (key) [start, end] = key;
    }
    // Never trust a range to end on the token's end (see AWS_SECRET_AT): widen it over the rest of the token.
    while (end < content.length && TOKEN_CHAR.test(content[end]!)) end++;
    found.push({ start, end, kind: kindForSecretlint(message.ruleId, message.messageId) });
  }
  for (const { kind, regex, group } of OWN_PATTERNS) {
    for (const match of content.matchAll(regex)) {
      const range = match.indices?.[group];
      if (range) found.push({ start: range[0], end: range[1], kind });
    }
  }

  // Map each batch range back to the string(s) it falls in; a range over a separator is clipped to each side.
  for (const hit of found) {
    let k = lastStartAtOrBefore(starts, hit.start);
    for (; k < starts.length && starts[k]! < hit.end; k++) {
      const index = indices[k]!;
      const base = starts[k]!;
      const start = Math.max(hit.start - base, 0);
      const end = Math.min(hit.end - base, texts[index]!.length);
      if (end > start) hits[index]!.push({ start, end, kind: hit.kind });
    }
  }
}

function lastStartAtOrBefore(starts: number[], position: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Sorts hits and merges overlapping ones; a merged range keeps the kind of the hit that starts first (longest on ties). */
function mergeHits(hits: Hit[]): Hit[] {
  if (hits.length < 2) return hits;
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Hit[] = [{ ...hits[0]! }];
  for (const hit of hits.slice(1)) {
    const last = merged[merged.length - 1]!;
    if (hit.start < last.end) last.end = Math.max(last.end, hit.end);
    else merged.push({ ...hit });
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
