/**
 * Quiet folds: the steps nobody typed (system messages, ephemeral reminders, conversation history, knowledge
 * items) between two things that happened. The turn builder folds each run of one kind; a reader wants one line
 * per gap between replies ("3 notices"), and a reminder Antigravity repeats before every reply (the planning-mode
 * reminder: 847 of 1,246 ephemeral rows of a long real session) once, as "the same reminder ×N". Pure, no `astro:*`.
 */
import type { FoldedKind, TurnItem } from '../turns/types.ts';

/** One distinct notice of a gap and every step that said it. */
export interface NoticeGroup {
  /** What makes two notices the same (`noticeKey`). */
  id: string;
  folded: FoldedKind;
  /** The notice's one-line summary (the first step's). */
  summary: string;
  stepKeys: string[];
  positions: number[];
}

/** Consecutive folded items of a turn as one line. */
export interface NoticeGap {
  kind: 'gap';
  /** Steps in the gap. */
  steps: number;
  /** Steps by kind, in order of first appearance. */
  kinds: Array<[FoldedKind, number]>;
  /** The distinct notices, in order of first appearance. */
  groups: NoticeGroup[];
}

/** A turn's items with every run of folded items made one gap. */
export type QuietItem = Exclude<TurnItem, { kind: 'folded' }> | NoticeGap;

/** A step's text with its times taken out, so a reminder repeated at another time is the same reminder. */
export function noticeIdentity(content: string | undefined): string {
  return (content ?? '')
    .replace(/^(Created|Completed) At:[^\n]*\n?/gm, '')
    .replace(/\btimestamp=\S+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The key two notices share when they say the same thing; empty texts (a history step with no content) by summary. */
export function noticeKey(folded: FoldedKind, identity: string, summary: string): string {
  return `${folded}\u0000${identity || `#${summary}`}`;
}

/** How many times each notice (`noticeKey`) occurs over every turn of a session. */
export function noticeTotals(turns: ReadonlyArray<{ items: readonly TurnItem[] }>, identity: (position: number) => string, summaryAt: (position: number) => string): Map<string, number> {
  const totals = new Map<string, number>();
  for (const turn of turns) {
    for (const item of turn.items) {
      if (item.kind !== 'folded') continue;
      for (const position of item.positions) {
        const id = noticeKey(item.folded, identity(position), summaryAt(position));
        totals.set(id, (totals.get(id) ?? 0) + 1);
      }
    }
  }
  return totals;
}

/**
 * `items` with each run of consecutive `folded` items made one `NoticeGap`; within a gap, steps whose text is the
 * same (`identity`, by position) are one group. `summaryAt` gives a step's one-line summary.
 */
export function quietItems(items: readonly TurnItem[], identity: (position: number) => string, summaryAt: (position: number) => string): QuietItem[] {
  const out: QuietItem[] = [];
  let gap: NoticeGap | undefined;
  let byIdentity = new Map<string, NoticeGroup>();
  for (const item of items) {
    if (item.kind !== 'folded') {
      gap = undefined;
      out.push(item);
      continue;
    }
    if (!gap) {
      gap = { kind: 'gap', steps: 0, kinds: [], groups: [] };
      byIdentity = new Map();
      out.push(gap);
    }
    item.stepKeys.forEach((key, i) => {
      const position = item.positions[i] ?? -1;
      const open = gap as NoticeGap;
      open.steps++;
      const counted = open.kinds.find(([k]) => k === item.folded);
      if (counted) counted[1]++;
      else open.kinds.push([item.folded, 1]);
      const id = noticeKey(item.folded, identity(position), summaryAt(position));
      const group = byIdentity.get(id);
      if (group) {
        group.stepKeys.push(key);
        group.positions.push(position);
      } else {
        const fresh: NoticeGroup = { id, folded: item.folded, summary: summaryAt(position), stepKeys: [key], positions: [position] };
        byIdentity.set(id, fresh);
        open.groups.push(fresh);
      }
    });
  }
  return out;
}
