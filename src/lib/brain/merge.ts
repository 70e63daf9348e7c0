/**
 * One timeline from the compact and the full transcript, and `overview.txt` below them.
 *
 * THE MERGE RULE
 * 1. Records. Every line that parses is a record. A record without a usable `step_index` is a `bad-record` problem
 *    and still becomes a step of its own (index -1, type `INVALID_RECORD`), so no parseable line is lost silently;
 *    past the first `PROBLEMS_KEPT_PER_KIND` of a file such records are counted, not kept (problems.ts). It makes
 *    no call (its `tool_calls` stay among its fields), answers none (turns/pairing.ts), and takes no part in rules
 *    2–6: it is shown right after the record it followed in its file, so it moves no other step.
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
 *    DONE shows DONE; among writes with the last one's status, one without `truncated_fields` beats a cut one. A
 *    compact-only step keeps its compact record with arguments decoded (args.ts) and names what is still cut in `truncatedFields` (the record's `truncated_fields`, plus `tool_calls` when an argument is cut).
 *    Every record of both sides is listed in `sources` (compact first, then full, each in file order), up to
 *    `SOURCES_KEPT_PER_STEP` per side: then the first ones and the last, the rest counted in `omittedSources`.
 * 5. Order. Each file's own order is kept (it is the order things were written; `created_at` has one-second
 *    resolution and goes backwards in places). Pairs whose order agrees in both files are anchors; between two
 *    anchors the unpaired occurrences of both files are interleaved by `created_at` (full first on ties and
 *    when either has no time). Linear time apart from a per-index candidate list.
 * 6. Keys. Walking the merged timeline, the first occurrence of index i is `i`, the k-th reuse is `i-k`.
 * 7. The overview tier. `overview.txt` (the log of versions before about late May 2026, and the beginning of some
 *    later sessions) is read into occurrences by rule 2 and placed after compact and full are merged. An overview
 *    occurrence pairs with the first merged step of the same index, source and type that shares a `created_at`
 *    with it, else with the first such step not yet paired (its times are not known to match the compact log's):
 *    the step keeps its compact/full content (full wins, then compact, then overview) and lists the overview
 *    record in `sources`. An unpaired one is a step of its own, shown from its overview record: arguments decoded
 *    as compact ones, and a value or content ending in `<truncated N bytes>` named in `truncatedFields` (the log
 *    has no `truncated_fields`). Order as in rule 5: paired ones are anchors, the rest interleaved by time (by
 *    step index where either has no time), the merged step first on ties.
 *    Where the two disagree, the transcript stands and a `conflict` problem names both lines: an overview record
 *    of another source or type at an index the transcripts hold once, and the overview reused no index there,
 *    describes that step (it became a step of its own, and an overview USER_INPUT a user turn nobody typed; issue
 *    27), so it joins it; a paired record whose text is not the transcript's (overview.txt cuts whole lines off
 *    the end, `…\n<truncated N bytes>`, so what it kept is a prefix) is reported too.
 */
import { readToolCalls } from './args.ts';
import { MAX_NESTING } from './nesting.ts';
import { badDateMessage, saneTime } from './dates.ts';
import { ProblemBudget } from './problems.ts';
import { readStepIndex } from './step-index.ts';
import type { Problem, SourceRef, Step, TranscriptLine, TranscriptName } from './types.ts';

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

/**
 * Raw records kept per occurrence: the first ones and always the last (the winner). A step rewritten 2 million
 * times (issue 10) kept 2 million raw lines and its page ran out of string length; the writes in between were
 * replaced by later ones, so their lines are counted, not kept.
 */
export const SOURCES_KEPT_PER_STEP = 20;
/** `created_at` values kept per occurrence for pairing (a real step has one; a pathological one is not paired by its 1,000th). */
const CREATED_ATS_KEPT = 100;

interface Occurrence {
  transcript: TranscriptName;
  index: number;
  source: string;
  type: string;
  /** The first records in file order, at most `SOURCES_KEPT_PER_STEP - 1`. */
  head: RawRecord[];
  /** The latest record (the winner of this side); also `head`'s last while the occurrence is short. */
  last: RawRecord;
  /** Records of this occurrence read in all. */
  writes: number;
  /** The latest record without `truncated_fields`, when there is one (see `fullestLatest`). */
  uncut?: RawRecord;
  /** Line of the first record not kept (between `head` and `last`), and of the last one not kept. */
  firstOmittedLine?: number;
  lastOmittedLine?: number;
  /** Every `created_at` of its records (almost always one), at most `CREATED_ATS_KEPT`. */
  createdAts: string[];
  /** Milliseconds of the first record's `created_at`, NaN without one (or outside the dates placed, dates.ts). */
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

function toRecord(src: TranscriptLine, sessionId: string, budget: ProblemBudget): RawRecord | undefined {
  const value = src.value;
  const rec =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  const reading = readStepIndex(rec, src.raw);
  const valid = reading.index !== undefined;
  const index = reading.index ?? -1;
  if (!valid) {
    // Past the limit an invalid record is counted, not kept as a step: 2 million `{}` lines made 2 million
    // INVALID_RECORD steps (issue 10, 8 GB in content sync) and hold nothing a reader of the site could use.
    const why = reading.missing ? 'no usable step_index' : reading.problem;
    const listed = budget.add({
      kind: 'bad-record',
      sessionId,
      file: src.file,
      line: src.line,
      message: `Line ${src.line} parses but is not a step record (${why}); it is kept as an INVALID_RECORD step.`,
    });
    if (!listed) return undefined;
  }
  const createdAt = typeof rec.created_at === 'string' ? rec.created_at : undefined;
  if (rec.created_at !== undefined && rec.created_at !== null && (createdAt === undefined || saneTime(createdAt) === undefined)) {
    budget.add({
      kind: 'bad-date',
      sessionId,
      file: src.file,
      line: src.line,
      message:
        createdAt === undefined
          ? `Line ${src.line}: created_at is not a string (${shortJson(rec.created_at)}); it is kept with the record's other fields and left out of times.`
          : `Line ${src.line}: ${badDateMessage('created_at', createdAt)}`,
    });
  }
  return {
    src,
    rec,
    index: valid ? index : -1,
    source: typeof rec.source === 'string' ? rec.source : '',
    type: valid ? (typeof rec.type === 'string' ? rec.type : 'UNKNOWN') : 'INVALID_RECORD',
    status: typeof rec.status === 'string' ? rec.status : 'UNKNOWN',
    createdAt,
    valid,
  };
}

function shortJson(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function isRewrite(prev: RawRecord, cur: RawRecord): boolean {
  if (prev.source !== cur.source || prev.type !== cur.type) return false;
  return (
    prev.status === 'RUNNING' ||
    (prev.createdAt !== undefined && prev.createdAt === cur.createdAt) ||
    prev.src.raw === cur.src.raw
  );
}

/**
 * Rule 2, one record at a time: groups one file's records into occurrences, in file order, as the lines are read,
 * so a record replaced by a later write is garbage at once (memory follows the merged steps, not the lines).
 */
export class TranscriptRecords {
  /** The occurrences so far, in file order. */
  readonly occurrences: Occurrence[] = [];
  readonly #latest = new Map<number, Occurrence>();
  readonly #transcript: TranscriptName;
  readonly #sessionId: string;
  readonly #budget: ProblemBudget;

  constructor(transcript: TranscriptName, sessionId: string, budget: ProblemBudget) {
    this.#transcript = transcript;
    this.#sessionId = sessionId;
    this.#budget = budget;
  }

  /** Take the next line of the file (lines that did not parse are ignored: they are problems already). */
  add(line: TranscriptLine): void {
    if (line.value === undefined) return;
    const r = toRecord(line, this.#sessionId, this.#budget);
    if (!r) return;
    const prev = r.valid ? this.#latest.get(r.index) : undefined;
    if (prev && isRewrite(prev.last, r)) {
      if (prev.head.length < SOURCES_KEPT_PER_STEP - 1) prev.head.push(r);
      else if (prev.last !== prev.head[prev.head.length - 1]) {
        prev.firstOmittedLine ??= prev.last.src.line;
        prev.lastOmittedLine = prev.last.src.line;
      }
      prev.last = r;
      if (cutFields(r) === 0) prev.uncut = r;
      prev.writes++;
      if (r.createdAt && prev.createdAts.length < CREATED_ATS_KEPT && !prev.createdAts.includes(r.createdAt))
        prev.createdAts.push(r.createdAt);
      return;
    }
    const occ: Occurrence = {
      transcript: this.#transcript,
      index: r.index,
      source: r.source,
      type: r.type,
      head: [r],
      last: r,
      writes: 1,
      ...(cutFields(r) === 0 ? { uncut: r } : {}),
      createdAts: r.createdAt ? [r.createdAt] : [],
      time: saneTime(r.createdAt) ?? Number.NaN,
      valid: r.valid,
    };
    this.occurrences.push(occ);
    if (r.valid) this.#latest.set(r.index, occ);
  }
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

/** The occurrence that speaks for a merged node: full, else compact (they share index, source and type). */
function nodeMain(node: Occurrence[]): Occurrence {
  return (node.find((o) => o.transcript === 'full') ?? node[0]) as Occurrence;
}

/** Does `a` come before `b` in time (by step index where either has no time)? Ties: no. */
function comesBefore(a: Occurrence, b: Occurrence): boolean {
  if (!Number.isNaN(a.time) && !Number.isNaN(b.time) && a.time !== b.time) return a.time < b.time;
  return a.index < b.index;
}

/** Rule 7: pair `overview.txt`'s occurrences with the merged nodes and place the rest among them. */
function placeOverview(nodes: Occurrence[][], overview: Occurrence[]): Occurrence[][] {
  if (overview.length === 0) return nodes;
  const byIndex = new Map<number, Occurrence[][]>();
  for (const node of nodes) {
    const main = nodeMain(node);
    if (!main.valid) continue;
    const list = byIndex.get(main.index);
    if (list) list.push(node);
    else byIndex.set(main.index, [node]);
  }
  const partner = new Map<Occurrence, Occurrence[]>();
  const taken = new Set<Occurrence[]>();
  const overviewUses = new Map<number, number>();
  for (const o of overview) if (o.valid) overviewUses.set(o.index, (overviewUses.get(o.index) ?? 0) + 1);
  for (const o of overview) {
    if (!o.valid) continue;
    const atIndex = byIndex.get(o.index) ?? [];
    const candidates = atIndex.filter((n) => {
      const m = nodeMain(n);
      return !taken.has(n) && m.source === o.source && m.type === o.type;
    });
    let match = candidates.find((n) => n.some((x) => x.createdAts.some((t) => o.createdAts.includes(t)))) ?? candidates[0];
    // One step at this index in each log, of another kind: the same step told two ways (rule 7), not a rewind.
    const only = atIndex[0];
    if (!match && atIndex.length === 1 && only && !taken.has(only) && overviewUses.get(o.index) === 1) match = only;
    if (!match) continue;
    taken.add(match);
    partner.set(o, match);
  }
  const nodePos = new Map<Occurrence[], number>();
  nodes.forEach((n, i) => nodePos.set(n, i));
  const out: Occurrence[][] = [];
  let ni = 0;
  let segment: Occurrence[] = [];
  const flush = (until: number): void => {
    let j = 0;
    while (ni < until || j < segment.length) {
      const node = ni < until ? nodes[ni] : undefined;
      const o = segment[j];
      if (o && (!node || comesBefore(o, nodeMain(node)))) {
        out.push([o]);
        j++;
      } else if (node) {
        out.push(node);
        ni++;
      }
    }
    segment = [];
  };
  for (const o of overview) {
    const node = partner.get(o);
    const at = node ? (nodePos.get(node) ?? -1) : -1;
    if (node && at >= ni) {
      flush(at);
      node.push(o);
      out.push(node);
      ni = at + 1;
    } else if (node) {
      // A pair that crosses an earlier anchor: the record joins its step where the step already is.
      node.push(o);
    } else segment.push(o);
  }
  flush(nodes.length);
  return out;
}

/** A `<truncated N bytes>` marker ending a text: `overview.txt` cuts long contents so and has no `truncated_fields`. */
const CUT_AT_END = /\n<truncated \d+ bytes>$/;

/** How many fields a record says are cut (its `truncated_fields`). */
function cutFields(r: RawRecord): number {
  return Array.isArray(r.rec.truncated_fields) ? r.rec.truncated_fields.length : 0;
}

/**
 * The record that speaks for an occurrence: the latest write (RUNNING then DONE shows DONE), except that an
 * untruncated write with the latest one's status beats a cut latest one. A store holding several snapshots of one
 * compact file can hold the same step written whole once and cut later: the fullest text wins.
 */
function fullestLatest(o: Occurrence): RawRecord {
  const uncut = o.uncut;
  return uncut && cutFields(o.last) > 0 && uncut.status === o.last.status ? uncut : o.last;
}

function sourceRef(r: RawRecord): SourceRef {
  return { transcript: r.src.transcript, file: r.src.file, line: r.src.line, raw: r.src.raw };
}

/** The kept records of one side, in file order: the head, then the last write when it is not the head's last. */
function keptRecords(o: Occurrence): RawRecord[] {
  return o.head[o.head.length - 1] === o.last ? o.head : [...o.head, o.last];
}

function buildStep(node: Occurrence[], position: number, sessionId: string, budget: ProblemBudget): Step {
  const compact = node.find((o) => o.transcript === 'compact');
  const full = node.find((o) => o.transcript === 'full');
  const overview = node.find((o) => o.transcript === 'overview');
  const side = full ?? compact ?? overview;
  if (!side) throw new Error('empty timeline node');
  const winner = fullestLatest(side);
  const rec = winner.rec;
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) if (!KNOWN_FIELDS.has(k)) extra[k] = v;
  if (rec.content !== undefined && rec.content !== null && typeof rec.content !== 'string') extra.content = rec.content;
  if (rec.thinking !== undefined && rec.thinking !== null && typeof rec.thinking !== 'string')
    extra.thinking = rec.thinking;
  if (rec.created_at !== undefined && rec.created_at !== null && typeof rec.created_at !== 'string')
    extra.created_at = rec.created_at;
  if (rec.truncated_fields !== undefined && full) extra.truncated_fields = rec.truncated_fields;
  // A record without a usable step_index makes no call (rule 1): its `tool_calls` are kept among its fields, as
  // read. As a call it closed the calls before it, and the next result answered it: a record planted between
  // `rm -rf /data` and its result gave that output to its own `echo harmless` (issue 27).
  if (!winner.valid && rec.tool_calls !== undefined) extra.tool_calls = rec.tool_calls;
  // overview.txt encodes arguments as the compact transcript does.
  const toolCalls = !winner.valid ? [] : readToolCalls(rec.tool_calls, winner.src.transcript === 'full' ? 'full' : 'compact', (arg) =>
    budget.add({
      kind: 'too-deep',
      sessionId,
      file: winner.src.file,
      line: winner.src.line,
      message:
        `Line ${winner.src.line}: argument ${arg.key} of tool call ${arg.call + 1} nests ${arg.depth.toLocaleString('en-US')} levels deep, ` +
        `past the ${MAX_NESTING} levels the archive keeps as structure; it is kept as the JSON text the transcript holds.`,
    }),
  );
  if (rec.tool_calls !== undefined && !Array.isArray(rec.tool_calls)) extra.tool_calls = rec.tool_calls;
  const truncatedFields: string[] = [];
  if (!full) {
    if (Array.isArray(rec.truncated_fields))
      for (const f of rec.truncated_fields) if (typeof f === 'string') truncatedFields.push(f);
    if (toolCalls.some((t) => t.truncatedArgs.length > 0) && !truncatedFields.includes('tool_calls'))
      truncatedFields.push('tool_calls');
    if (!compact && typeof rec.content === 'string' && CUT_AT_END.test(rec.content) && !truncatedFields.includes('content'))
      truncatedFields.push('content');
  }
  if (overview && overview !== side) noteOverviewConflict(overview, winner, sessionId, budget);
  const sources: SourceRef[] = [];
  let omittedSources = 0;
  for (const o of [compact, full, overview]) {
    if (!o) continue;
    const kept = keptRecords(o);
    for (const r of kept) sources.push(sourceRef(r));
    const omitted = o.writes - kept.length;
    if (omitted > 0) {
      omittedSources += omitted;
      budget.add({
        kind: 'notice',
        sessionId,
        file: o.last.src.file,
        line: o.last.src.line,
        message:
          `Step ${o.index} was written ${o.writes.toLocaleString('en-US')} times in this file; its page keeps the ` +
          `first ${o.head.length} and the last of its raw records. The ${omitted.toLocaleString('en-US')} writes in between ` +
          `(lines ${o.firstOmittedLine}–${o.lastOmittedLine}) were replaced by later ones and are counted, not kept.`,
      });
    }
  }
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
    origin: compact && full ? 'both' : full ? 'full' : compact ? 'compact' : 'overview',
    sources,
  };
  if (omittedSources > 0) step.omittedSources = omittedSources;
  if (winner.createdAt !== undefined) step.createdAt = winner.createdAt;
  const gone = notOnDiskSince(node);
  if (gone !== undefined) step.notOnDiskSince = gone;
  if (typeof rec.content === 'string') step.content = rec.content;
  if (typeof rec.thinking === 'string') step.thinking = rec.thinking;
  if ('error' in rec) step.error = rec.error;
  if ('error_code' in rec) step.errorCode = rec.error_code;
  if ('exit_code' in rec) step.exitCode = rec.exit_code;
  return step;
}

/** A `conflict` problem when the overview record of a step says another thing than the transcript that is shown. */
function noteOverviewConflict(overview: Occurrence, shown: RawRecord, sessionId: string, budget: ProblemBudget): void {
  const told = overview.last;
  const at = `${shown.src.file} line ${shown.src.line}`;
  let what: string | undefined;
  if (told.source !== shown.source || told.type !== shown.type) {
    what = `says step ${told.index} is ${told.source} ${told.type}; ${at} says ${shown.source} ${shown.type}`;
  } else if (typeof told.rec.content === 'string' && typeof shown.rec.content === 'string') {
    const kept = told.rec.content.replace(CUT_AT_END, '\n');
    const whole = kept.length < told.rec.content.length;
    const cut = Array.isArray(shown.rec.truncated_fields) && shown.rec.truncated_fields.includes('content');
    const agrees = whole ? shown.rec.content.startsWith(kept) || cut : shown.rec.content === told.rec.content || cut;
    if (!agrees) what = `holds other text for step ${told.index} than ${at}`;
  }
  if (what === undefined) return;
  budget.add({
    kind: 'conflict',
    sessionId,
    file: told.src.file,
    line: told.src.line,
    message: `Line ${told.src.line} ${what}. The transcript is shown; this record is kept among the step's raw records.`,
  });
}

/**
 * The latest `goneSince` of the node's records when every one kept of them is gone from disk (the archive store
 * kept them), else undefined.
 */
function notOnDiskSince(node: Occurrence[]): string | undefined {
  let latest: string | undefined;
  for (const occ of node) {
    for (const r of keptRecords(occ)) {
      const gone = r.src.goneSince;
      if (gone === undefined) return undefined;
      if (latest === undefined || gone > latest) latest = gone;
    }
  }
  return latest;
}

/** One file's occurrences with its invalid records set aside, each under the valid occurrence it followed. */
interface SetAside {
  valid: Occurrence[];
  /** The invalid occurrences after each valid one, in file order; under `undefined`, those before the first. */
  after: Map<Occurrence | undefined, Occurrence[]>;
}

/**
 * Rule 1's second half: a record without a usable `step_index` takes no part in ordering, pairing or keys. In the
 * interleave (rule 5) it could hold back or let through the records around it by its own `created_at`, so it is
 * set aside and shown right after the record it followed in its file.
 */
function setAsideInvalid(occurrences: Occurrence[]): SetAside {
  const valid: Occurrence[] = [];
  const after = new Map<Occurrence | undefined, Occurrence[]>();
  let previous: Occurrence | undefined;
  for (const o of occurrences) {
    if (o.valid) {
      valid.push(o);
      previous = o;
      continue;
    }
    const list = after.get(previous);
    if (list) list.push(o);
    else after.set(previous, [o]);
  }
  return { valid, after };
}

/** The ordered nodes with each file's invalid records back: those before a file's first record first, the rest after the record they followed. */
function putBackInvalid(nodes: Occurrence[][], files: readonly SetAside[]): Occurrence[][] {
  if (files.every((f) => f.after.size === 0)) return nodes;
  const out: Occurrence[][] = [];
  for (const f of files) for (const o of f.after.get(undefined) ?? []) out.push([o]);
  for (const node of nodes) {
    out.push(node);
    for (const occ of node) for (const f of files) for (const o of f.after.get(occ) ?? []) out.push([o]);
  }
  return out;
}

/**
 * Merge the transcripts read into `TranscriptRecords` into one ordered timeline (see the rule above). Problems go
 * through `budget`; the caller closes it.
 */
export function mergeRecords(
  compactRecords: TranscriptRecords,
  fullRecords: TranscriptRecords,
  sessionId: string,
  budget: ProblemBudget,
  overviewRecords?: TranscriptRecords,
): Step[] {
  const compact = setAsideInvalid(compactRecords.occurrences);
  const full = setAsideInvalid(fullRecords.occurrences);
  const overview = setAsideInvalid(overviewRecords?.occurrences ?? []);
  pairOccurrences(compact.valid, full.valid);
  const nodes = putBackInvalid(placeOverview(orderOccurrences(compact.valid, full.valid), overview.valid), [full, compact, overview]);
  const seen = new Map<number, number>();
  return nodes.map((node, position) => {
    const step = buildStep(node, position, sessionId, budget);
    const k = seen.get(step.index) ?? 0;
    seen.set(step.index, k + 1);
    step.occurrence = k;
    step.key = k === 0 ? String(step.index) : `${step.index}-${k}`;
    return step;
  });
}

/** Merge the transcripts' lines into one ordered timeline (see the rule above). Problems are appended. */
export function mergeTranscripts(
  compactLines: TranscriptLine[],
  fullLines: TranscriptLine[],
  sessionId: string,
  problems: Problem[],
  overviewLines: TranscriptLine[] = [],
): Step[] {
  const budget = new ProblemBudget(problems, sessionId, BAD_RECORD_NOTES);
  const compact = new TranscriptRecords('compact', sessionId, budget);
  const full = new TranscriptRecords('full', sessionId, budget);
  const overview = new TranscriptRecords('overview', sessionId, budget);
  for (const l of compactLines) compact.add(l);
  for (const l of fullLines) full.add(l);
  for (const l of overviewLines) overview.add(l);
  const steps = mergeRecords(compact, full, sessionId, budget, overview);
  budget.close();
  return steps;
}

/** What the closing count of a kind adds, for the kinds the merge reports (see `ProblemBudget`). */
export const BAD_RECORD_NOTES: Partial<Record<Problem['kind'], string>> = {
  'bad-record': 'Those lines are not kept as INVALID_RECORD steps either.',
};
