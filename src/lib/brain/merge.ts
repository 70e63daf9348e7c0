/**
 * One timeline from the compact and the full transcript.
 *
 * THE MERGE RULE
 * 1. Records. Every line that parses is a record. A record without a usable `step_index` is a `bad-record` problem
 *    and still becomes a step of its own (index -1, type `INVALID_RECORD`), so no parseable line is ever lost.
 * 2. Occurrences, per file. Reading a file top to bottom, a record with index i either *rewrites* the latest
 *    occurrence of i in that file or starts a new one. It is a rewrite when source and type are the same AND the
 *    earlier record was RUNNING, or has the same `created_at`, or is the same line byte for byte. Anything else is
 *    a *reuse* (after a rewind the same number names a different step). SURVEY fact: in the 8 real sessions every
 *    same-index DONE→DONE repeat has a different `created_at`, i.e. a later different step, even when the type
 *    matches, so "same source+type" alone is not a rewrite.
 * 3. Pairing compact with full. A compact occurrence pairs with the first unpaired full occurrence of the same
 *    index, source and type that shares a `created_at` with it (when neither side has any `created_at`, the first
 *    unpaired one with the same index, source and type). Line N of compact is not line N of full, and pairing by
 *    occurrence number misaligns when one file starts mid-session (SURVEY's 5 "type differs" pairs in 86033144);
 *    pairing by (index, created_at) pairs every compact line of the real sessions with a full line of the same
 *    source and type. Same index and time but another source/type: two different steps, both kept.
 * 4. Content. In a pair the full side wins; within a side the last record (the latest write) wins: RUNNING then
 *    DONE shows DONE. A compact-only step keeps its compact record with arguments decoded (args.ts) and names what
 *    is still cut in `truncatedFields` (the record's `truncated_fields`, plus `tool_calls` when an argument is cut).
 *    Every record of both sides is listed in `sources` (compact first, then full, each in file order).
 * 5. Order. Each file's own order is kept (it is the order things were written; `created_at` has one-second
 *    resolution and goes backwards in places). Pairs whose order agrees in both files are anchors; between two
 *    anchors the unpaired occurrences of both files are interleaved by `created_at` (full first on ties and
 *    when either has no time). Linear time apart from a per-index candidate list.
 * 6. Keys. Walking the merged timeline, the first occurrence of index i is `i`, the k-th reuse is `i-k`.
 */
import { readToolCalls } from './args.ts';
import type { TranscriptLine } from './transcripts.ts';
import type { Problem, SourceRef, Step } from './types.ts';

interface RawRecord {
  src: TranscriptLine;
  rec: Record<string, unknown>;
  index: number;
  source: string;
  type: string;
  status: string;
  createdAt?: string;
  valid: boolean;
}

interface Occurrence {
  transcript: 'compact' | 'full';
  index: number;
  source: string;
  type: string;
  records: RawRecord[];
  /** Every `created_at` of its records (almost always one). */
  createdAts: string[];
  /** Milliseconds of the first record's `created_at`, NaN without one. */
  time: number;
  valid: boolean;
  pair?: Occurrence;
  anchor?: boolean;
}

const KNOWN_FIELDS = new Set([
  'step_index',
  'source',
  'type',
  'status',
  'created_at',
  'content',
  'thinking',
  'tool_calls',
  'truncated_fields',
  'error',
  'error_code',
  'exit_code',
]);

function toRecord(src: TranscriptLine, sessionId: string, problems: Problem[]): RawRecord {
  const value = src.value;
  const rec =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  const rawIndex = rec.step_index;
  const index =
    typeof rawIndex === 'number'
      ? rawIndex
      : typeof rawIndex === 'string' && /^\d+$/.test(rawIndex)
        ? Number(rawIndex)
        : Number.NaN;
  const valid = Number.isInteger(index) && index >= 0;
  if (!valid) {
    problems.push({
      kind: 'bad-record',
      sessionId,
      file: src.file,
      line: src.line,
      message: `Line ${src.line} parses but is not a step record (no usable step_index); it is kept as an INVALID_RECORD step.`,
    });
  }
  return {
    src,
    rec,
    index: valid ? index : -1,
    source: typeof rec.source === 'string' ? rec.source : '',
    type: valid ? (typeof rec.type === 'string' ? rec.type : 'UNKNOWN') : 'INVALID_RECORD',
    status: typeof rec.status === 'string' ? rec.status : 'UNKNOWN',
    createdAt: typeof rec.created_at === 'string' ? rec.created_at : undefined,
    valid,
  };
}

function isRewrite(prev: RawRecord, cur: RawRecord): boolean {
  if (prev.source !== cur.source || prev.type !== cur.type) return false;
  return (
    prev.status === 'RUNNING' ||
    (prev.createdAt !== undefined && prev.createdAt === cur.createdAt) ||
    prev.src.raw === cur.src.raw
  );
}

/** Rule 2: group one file's records into occurrences, in file order. */
function collectOccurrences(records: RawRecord[], transcript: 'compact' | 'full'): Occurrence[] {
  const out: Occurrence[] = [];
  const latest = new Map<number, Occurrence>();
  for (const r of records) {
    const prev = r.valid ? latest.get(r.index) : undefined;
    const last = prev?.records[prev.records.length - 1];
    if (prev && last && isRewrite(last, r)) {
      prev.records.push(r);
      if (r.createdAt && !prev.createdAts.includes(r.createdAt)) prev.createdAts.push(r.createdAt);
      continue;
    }
    const occ: Occurrence = {
      transcript,
      index: r.index,
      source: r.source,
      type: r.type,
      records: [r],
      createdAts: r.createdAt ? [r.createdAt] : [],
      time: r.createdAt ? Date.parse(r.createdAt) : Number.NaN,
      valid: r.valid,
    };
    out.push(occ);
    if (r.valid) latest.set(r.index, occ);
  }
  return out;
}

/** Rule 3: pair compact occurrences with full ones. */
function pairOccurrences(compact: Occurrence[], full: Occurrence[]): void {
  const byIndex = new Map<number, Occurrence[]>();
  for (const f of full) {
    if (!f.valid) continue;
    const list = byIndex.get(f.index);
    if (list) list.push(f);
    else byIndex.set(f.index, [f]);
  }
  for (const c of compact) {
    if (!c.valid) continue;
    const candidates = byIndex.get(c.index);
    if (!candidates) continue;
    let match: Occurrence | undefined;
    for (const f of candidates) {
      if (f.pair || f.source !== c.source || f.type !== c.type) continue;
      if (c.createdAts.length === 0 && f.createdAts.length === 0) {
        match = f;
        break;
      }
      if (c.createdAts.some((t) => f.createdAts.includes(t))) {
        match = f;
        break;
      }
    }
    if (match) {
      match.pair = c;
      c.pair = match;
    }
  }
}

/** Rule 5: stable interleave of two runs of unpaired occurrences by time, full first on ties. */
function interleave(full: Occurrence[], compact: Occurrence[], out: Occurrence[][]): void {
  let i = 0;
  let j = 0;
  while (i < full.length || j < compact.length) {
    const f = full[i];
    const c = compact[j];
    if (c && (!f || c.time < f.time)) {
      out.push([c]);
      j++;
    } else if (f) {
      out.push(f.pair ? [f.pair, f] : [f]);
      i++;
    }
  }
}

function orderOccurrences(compact: Occurrence[], full: Occurrence[]): Occurrence[][] {
  const fullPos = new Map<Occurrence, number>();
  full.forEach((f, i) => fullPos.set(f, i));
  const nodes: Occurrence[][] = [];
  let fi = 0;
  let segC: Occurrence[] = [];
  for (const c of compact) {
    const partner = c.pair;
    const at = partner ? (fullPos.get(partner) ?? -1) : -1;
    if (partner && at >= fi) {
      // An anchor: everything before it in both files comes first.
      interleave(full.slice(fi, at), segC, nodes);
      nodes.push([c, partner]);
      c.anchor = true;
      fi = at + 1;
      segC = [];
    } else if (!partner) {
      segC.push(c);
    }
    // A pair that crosses an earlier anchor is emitted with its full side, in full's order.
  }
  interleave(full.slice(fi), segC, nodes);
  return nodes;
}

function sourceRef(r: RawRecord): SourceRef {
  return { transcript: r.src.transcript, file: r.src.file, line: r.src.line, raw: r.src.raw };
}

function buildStep(node: Occurrence[], position: number): Step {
  const compact = node.find((o) => o.transcript === 'compact');
  const full = node.find((o) => o.transcript === 'full');
  const side = full ?? compact;
  if (!side) throw new Error('empty timeline node');
  const winner = side.records[side.records.length - 1] ?? side.records[0];
  if (!winner) throw new Error('occurrence without records');
  const rec = winner.rec;
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) if (!KNOWN_FIELDS.has(k)) extra[k] = v;
  if (rec.content !== undefined && rec.content !== null && typeof rec.content !== 'string') extra.content = rec.content;
  if (rec.thinking !== undefined && rec.thinking !== null && typeof rec.thinking !== 'string')
    extra.thinking = rec.thinking;
  if (rec.truncated_fields !== undefined && full) extra.truncated_fields = rec.truncated_fields;
  const toolCalls = readToolCalls(rec.tool_calls, winner.src.transcript);
  if (rec.tool_calls !== undefined && !Array.isArray(rec.tool_calls)) extra.tool_calls = rec.tool_calls;
  const truncatedFields: string[] = [];
  if (!full) {
    if (Array.isArray(rec.truncated_fields))
      for (const f of rec.truncated_fields) if (typeof f === 'string') truncatedFields.push(f);
    if (toolCalls.some((t) => t.truncatedArgs.length > 0) && !truncatedFields.includes('tool_calls'))
      truncatedFields.push('tool_calls');
  }
  const sources: SourceRef[] = [];
  if (compact) for (const r of compact.records) sources.push(sourceRef(r));
  if (full) for (const r of full.records) sources.push(sourceRef(r));
  const step: Step = {
    key: '',
    index: side.index,
    occurrence: 0,
    position,
    source: winner.source,
    type: winner.type,
    status: winner.status,
    toolCalls,
    extra,
    truncatedFields,
    origin: compact && full ? 'both' : full ? 'full' : 'compact',
    sources,
  };
  if (winner.createdAt !== undefined) step.createdAt = winner.createdAt;
  if (typeof rec.content === 'string') step.content = rec.content;
  if (typeof rec.thinking === 'string') step.thinking = rec.thinking;
  if ('error' in rec) step.error = rec.error;
  if ('error_code' in rec) step.errorCode = rec.error_code;
  if ('exit_code' in rec) step.exitCode = rec.exit_code;
  return step;
}

/** Merge the two transcripts' lines into one ordered timeline (see the rule above). Problems are appended. */
export function mergeTranscripts(
  compactLines: TranscriptLine[],
  fullLines: TranscriptLine[],
  sessionId: string,
  problems: Problem[],
): Step[] {
  const toRecords = (lines: TranscriptLine[]) =>
    lines.filter((l) => l.value !== undefined).map((l) => toRecord(l, sessionId, problems));
  const compact = collectOccurrences(toRecords(compactLines), 'compact');
  const full = collectOccurrences(toRecords(fullLines), 'full');
  pairOccurrences(compact, full);
  const nodes = orderOccurrences(compact, full);
  const seen = new Map<number, number>();
  return nodes.map((node, position) => {
    const step = buildStep(node, position);
    const k = seen.get(step.index) ?? 0;
    seen.set(step.index, k + 1);
    step.occurrence = k;
    step.key = k === 0 ? String(step.index) : `${step.index}-${k}`;
    return step;
  });
}
