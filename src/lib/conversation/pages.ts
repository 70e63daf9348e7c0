/**
 * Cutting a session's conversation into pages. A session page holding every turn of a 1,500-step session weighed
 * 1.5–4.8 MB (issue 11), so past `CONVERSATION_PAGE_BUDGET` of estimated HTML the turns go on to
 * `/sessions/<id>/conversation/<n>/`. A page ends between turns when it can; a turn heavier than a page by itself
 * is cut between its items, and the next page opens with the turn's header again, marked "continued".
 *
 * The weight of an item is known before rendering because everything the conversation shows in place is bounded
 * (`preview.ts`): the estimate is the shown text times the markup around it, measured on the demo and real builds.
 * Pure, no `astro:*` import: the loader computes the page starts once (`summarise.ts`) and the routes read them.
 */
import type { Session, Step } from '../brain/types.ts';
import type { ToolCallView, Turn, TurnItem } from '../turns/types.ts';
import { ENDING_MAX, subagentSpecs } from '../family/evidence.ts';
import { argLines, CHECKPOINT_MAX, EDIT_ARGS_MAX, OUTPUT_MAX, REPLY_MAX, REQUEST_MAX, THINKING_MAX, USER_ACTION_MAX } from './preview.ts';
import { editPreview, editPreviewWeight, resultEditPreview } from './edit.ts';

/**
 * Estimated HTML one conversation page holds before the next starts, so a reader's page stays under
 * `SESSION_PAGE_TARGET` (issue 22: the longest real session's page was 1.16 MB). On the real build the estimate
 * ran at 0.65–0.8 of the real weight (a budget of 480,000 gave pages of 290–372 KB); earlier builds measured up to
 * 0.9, which at this budget is 576 KB, still under the target.
 */
export const CONVERSATION_PAGE_BUDGET = 640_000;
/** The most HTML a conversation page (the session page included) should weigh, measured by `npm run bench`. */
export const SESSION_PAGE_TARGET = 600 * 1024;

/** Where a conversation page starts: the turn (index into `turns`) and the item within it. */
export interface PageStart {
  turn: number;
  item: number;
}

/** The markup of one call's card besides its text (line, outcome, details frame, links), in bytes. */
const CALL_FRAME = 1_100;
/** The markup of a turn's header and list entry. */
const TURN_FRAME = 1_600;
/**
 * What a call started, shown under its card (`CallStarted.astro`): per subagent, its card's markup besides its role,
 * ending line and session title (the demo parent's two subagents: 2.0 KB, ending lines of 78 and 240 characters),
 * and a background task's status line (270–280 bytes on the demo).
 */
const SUBAGENT_FRAME = 900;
const TASK_LINE = 400;
/** Markdown becomes more HTML than its text (paragraphs, code spans, highlighted fences). */
const MARKDOWN_FACTOR = 1.6;
/** Escaped plain text (`&lt;`, `&amp;`) is a little more than its characters. */
const TEXT_FACTOR = 1.15;

/** Highlighted code is many spans per line: measured 4–7 bytes of HTML per character of a fenced block. */
const CODE_FACTOR = 7;

/** Estimated HTML of `text` rendered as Markdown, its first `max` characters. */
function markdownWeight(text: string | undefined, max: number): number {
  if (!text) return 0;
  const shown = text.length > max ? text.slice(0, max) : text;
  let code = 0;
  for (const match of shown.matchAll(/```[^\n]*\n([\s\S]*?)(```|$)/g)) code += match[1]?.length ?? 0;
  return (shown.length - code) * MARKDOWN_FACTOR + code * CODE_FACTOR;
}

function callWeight(call: ToolCallView, step: Step | undefined, stepAt: (position: number) => Step | undefined): number {
  const args = step?.toolCalls[call.callIndex];
  const result = call.outcome.kind === 'edit' && call.resultPosition !== undefined ? stepAt(call.resultPosition) : undefined;
  const edit = editPreview(args, result?.content);
  const argChars = args ? argLines(args, edit ? EDIT_ARGS_MAX : undefined).reduce((n, a) => n + a.name.length + a.value.length + 40, 0) : 0;
  // An edit shows its diff instead of its output, unless it failed (CallCard).
  const output = edit && call.outcome.status !== 'failed' ? 0 : Math.min(call.outputHead?.length ?? 0, OUTPUT_MAX);
  // The ending line (at most ENDING_MAX) and the session title come from the tree, not this session: counted at most.
  const started = call.name === 'invoke_subagent' && args ? subagentSpecs(args).reduce((n, a) => n + SUBAGENT_FRAME + ((a.role?.length ?? 0) + ENDING_MAX + 120) * TEXT_FACTOR, 0) : 0;
  const task = call.outcome.background ? TASK_LINE : 0;
  return CALL_FRAME + started + task + editPreviewWeight(edit) + (argChars + output + call.outcome.line.length * 2 + (call.outcome.error?.length ?? 0)) * TEXT_FACTOR;
}

/** Estimated HTML bytes of one item of a turn. */
export function itemWeight(item: TurnItem, stepAt: (position: number) => Step | undefined): number {
  switch (item.kind) {
    case 'reply': {
      const step = stepAt(item.position);
      const text = markdownWeight(item.text, REPLY_MAX);
      const thinking = markdownWeight(item.thinking, THINKING_MAX);
      return 500 + text + thinking + item.calls.reduce((n, c) => n + callWeight(c, step, stepAt), 0);
    }
    case 'checkpoint':
      return 600 + markdownWeight(item.summary, CHECKPOINT_MAX);
    case 'folded':
      return 400 + item.stepKeys.length * 260;
    case 'orphan-result':
      return 900 + item.outcome.line.length * 2 + editPreviewWeight(resultEditPreview(stepAt(item.position)?.content));
    case 'user-action':
      // A diff row carries ~150 bytes of table markup besides its text.
      return 900 + Math.min(item.text.length, USER_ACTION_MAX) * TEXT_FACTOR + item.text.slice(0, USER_ACTION_MAX).split('\n').length * 150;
  }
}

/** Estimated HTML bytes of a turn's opening (header, request, chips). */
export function openingWeight(turn: Turn): number {
  const request = turn.request;
  const text = Math.min(request?.text.length ?? 0, REQUEST_MAX) * TEXT_FACTOR;
  return TURN_FRAME + text + (request?.mentionedFiles.reduce((n, f) => n + f.length + 80, 0) ?? 0);
}

/** The steps of a session by position, for weights. */
function stepsByPosition(session: Pick<Session, 'steps'>): (position: number) => Step | undefined {
  const byPosition = new Map(session.steps.map((s) => [s.position, s]));
  return (position) => byPosition.get(position);
}

/**
 * Where each conversation page starts. The first page also holds the session's header, strip and list of turns
 * (`fixedWeight`), so it fills up sooner.
 */
export function conversationPageStarts(turns: readonly Turn[], session: Pick<Session, 'steps'>, fixedWeight = 0, budget = CONVERSATION_PAGE_BUDGET): PageStart[] {
  const stepAt = stepsByPosition(session);
  const starts: PageStart[] = [{ turn: 0, item: 0 }];
  let used = fixedWeight;
  turns.forEach((turn, t) => {
    const opening = openingWeight(turn);
    const items = turn.items.map((item) => itemWeight(item, stepAt));
    const whole = opening + items.reduce((a, b) => a + b, 0);
    if (used > 0 && used + whole > budget && t > 0) {
      starts.push({ turn: t, item: 0 });
      used = 0;
    }
    used += opening;
    items.forEach((w, i) => {
      if (used + w > budget && i > 0 && used > opening) {
        starts.push({ turn: t, item: i });
        used = opening;
      }
      used += w;
    });
  });
  return starts;
}

/** The estimated weight of a session page's fixed parts (list of turns, strip), from the number of turns. */
export function firstPageFixedWeight(turns: number): number {
  return 20_000 + turns * 700;
}

/** One turn as a page shows it: the items of `turns[turn]` from `from` to before `to`. */
export interface PageTurn {
  turn: Turn;
  /** Index of the turn in the session's turns. */
  index: number;
  items: TurnItem[];
  /** True when the turn began on an earlier page. */
  continued: boolean;
  /** True when the turn goes on on the next page. */
  continues: boolean;
}

/** The turns (or parts of turns) on conversation page `n` (1-based). */
export function pageTurns(turns: readonly Turn[], starts: readonly PageStart[], n: number): PageTurn[] {
  const from = starts[n - 1] ?? { turn: turns.length, item: 0 };
  const to = starts[n] ?? { turn: turns.length, item: 0 };
  const out: PageTurn[] = [];
  for (let t = from.turn; t < turns.length && (t < to.turn || (t === to.turn && to.item > 0)); t++) {
    const turn = turns[t] as Turn;
    const first = t === from.turn ? from.item : 0;
    const last = t === to.turn ? to.item : turn.items.length;
    out.push({ turn, index: t, items: turn.items.slice(first, last), continued: first > 0, continues: last < turn.items.length });
  }
  return out;
}

/** The page (1-based) on which turn `index` opens. */
export function pageOfTurn(starts: readonly PageStart[], index: number): number {
  let n = 1;
  while (n < starts.length) {
    const next = starts[n] as PageStart;
    if (next.turn > index || (next.turn === index && next.item > 0)) break;
    n++;
  }
  return n;
}

/** The page (1-based) showing the item `item` of turn `index`. */
export function pageOfItem(starts: readonly PageStart[], index: number, item: number): number {
  let n = 1;
  while (n < starts.length) {
    const next = starts[n] as PageStart;
    if (next.turn > index || (next.turn === index && next.item > item)) break;
    n++;
  }
  return n;
}
