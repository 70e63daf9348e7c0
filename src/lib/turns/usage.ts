/**
 * Token usage and timing of model calls, computed once (issue 29 point 3): per call, per turn, per session, per
 * model and per day, from the conversation database's `gen_metadata` rows (`ModelCall`, read by
 * brain/conversation-db). Every page, export, JSON file and the CLI read these numbers from here. Sums are exact
 * integers as stored; a session without a database has no usage (never zeros that look measured).
 */
import { formatDuration } from '../archive/format.ts';
import type { ConversationDb, ModelCall, Step } from '../brain/types.ts';

/** Token counts of some calls. `input` is the uncached part; `cache_read` the part read from cache. */
export interface TokenCounts {
  calls: number;
  input: number;
  cache_read: number;
  output: number;
  thinking: number;
}

/** A session's usage: its totals and the same per model (by display name). */
export interface SessionUsage extends TokenCounts {
  by_model: Record<string, TokenCounts>;
}

/** One call as the pages show it. */
export interface CallUsage {
  row: number;
  model: string;
  input: number;
  cacheRead: number;
  output: number;
  thinking: number;
  /** Context the call read: uncached input plus cache-read. */
  context: number;
  timeToFirstTokenMs?: number;
  /** Time to first token plus streaming: the call's whole duration. */
  durationMs?: number;
  requestAt?: string;
  failed: boolean;
}

/** The name a call is counted under: its display name, else the responding model's id, else `unknown model`. */
export function callModel(call: ModelCall): string {
  return call.modelName ?? call.modelId ?? 'unknown model';
}

export function emptyCounts(): TokenCounts {
  return { calls: 0, input: 0, cache_read: 0, output: 0, thinking: 0 };
}

function add(into: TokenCounts, call: ModelCall): void {
  into.calls++;
  into.input += call.input;
  into.cache_read += call.cacheRead;
  into.output += call.output;
  into.thinking += call.thinking;
}

/** Sum of `calls`, and per model. Every `gen_metadata` row is a call, a failed one too (it has no tokens). */
export function usageOf(calls: readonly ModelCall[]): SessionUsage {
  const total: SessionUsage = { ...emptyCounts(), by_model: {} };
  for (const call of calls) {
    add(total, call);
    const name = callModel(call);
    const perModel = Object.hasOwn(total.by_model, name) ? total.by_model[name]! : (total.by_model[name] = emptyCounts());
    add(perModel, call);
  }
  return total;
}

/** A session's usage, absent without a conversation database. */
export function sessionUsage(session: { conversation?: ConversationDb }): SessionUsage | undefined {
  return session.conversation ? usageOf(session.conversation.calls) : undefined;
}

/** One call's numbers for a page. */
export function callUsage(call: ModelCall): CallUsage {
  const out: CallUsage = {
    row: call.row,
    model: callModel(call),
    input: call.input,
    cacheRead: call.cacheRead,
    output: call.output,
    thinking: call.thinking,
    context: call.input + call.cacheRead,
    failed: !call.hasUsage,
  };
  if (call.timeToFirstTokenMs !== undefined) out.timeToFirstTokenMs = call.timeToFirstTokenMs;
  if (call.timeToFirstTokenMs !== undefined || call.streamingMs !== undefined)
    out.durationMs = (call.timeToFirstTokenMs ?? 0) + (call.streamingMs ?? 0);
  if (call.requestAt) out.requestAt = call.requestAt;
  return out;
}

/** The call that produced `step` (its reply or the tool step it asked for), when the database names one. */
export function stepCall(step: Pick<Step, 'db'>, conversation: ConversationDb | undefined): ModelCall | undefined {
  const row = step.db?.callRow;
  if (row === undefined || !conversation) return undefined;
  return conversation.calls.find((c) => c.row === row);
}

/**
 * The timeline position each call belongs to: the first step it produced that is on the timeline, else (a failed
 * call whose reply was never written) the last step before the index it would have produced.
 */
export function callPositions(steps: readonly Pick<Step, 'index' | 'position' | 'db'>[], calls: readonly ModelCall[]): Map<number, number> {
  const byRow = new Map<number, number>();
  for (const s of steps) {
    const row = s.db?.callRow;
    if (row !== undefined && !byRow.has(row)) byRow.set(row, s.position);
  }
  const out = new Map<number, number>();
  for (const call of calls) {
    let at = byRow.get(call.row);
    if (at === undefined) {
      const first = Math.min(...call.stepIndices);
      for (const s of steps) if (s.index >= 0 && s.index < first) at = s.position;
    }
    if (at !== undefined) out.set(call.row, at);
  }
  return out;
}

/** Usage per turn, for turns given as inclusive position ranges (`Turn.fromPosition`…`toPosition`). */
export function usagePerTurn(
  turns: readonly { number: number; fromPosition: number; toPosition: number }[],
  steps: readonly Pick<Step, 'index' | 'position' | 'db'>[],
  conversation: ConversationDb | undefined,
): Map<number, SessionUsage> {
  const out = new Map<number, SessionUsage>();
  if (!conversation) return out;
  const positions = callPositions(steps, conversation.calls);
  for (const turn of turns) {
    const calls = conversation.calls.filter((c) => {
      const at = positions.get(c.row);
      return at !== undefined && at >= turn.fromPosition && at <= turn.toPosition;
    });
    if (calls.length > 0) out.set(turn.number, usageOf(calls));
  }
  return out;
}

/** Usage per UTC day of the request (`YYYY-MM-DD`), over many sessions; calls without a time under `undated`. */
export function usagePerDay(conversations: readonly (ConversationDb | undefined)[]): Map<string, SessionUsage> {
  const byDay = new Map<string, ModelCall[]>();
  for (const conversation of conversations) {
    for (const call of conversation?.calls ?? []) {
      const day = call.requestAt?.slice(0, 10) ?? 'undated';
      const list = byDay.get(day);
      if (list) list.push(call);
      else byDay.set(day, [call]);
    }
  }
  return new Map([...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, calls]) => [day, usageOf(calls)]));
}

/** Usage of many sessions together (the archive's totals and per model). */
export function usageOfAll(conversations: readonly (ConversationDb | undefined)[]): SessionUsage {
  return usageOf(conversations.flatMap((c) => c?.calls ?? []));
}

/** Each call's context size (uncached + cache-read input) in order, for a session's context chart. */
export function contextPerCall(conversation: ConversationDb | undefined): Array<{ row: number; context: number; model: string }> {
  return (conversation?.calls ?? []).filter((c) => c.hasUsage).map((c) => ({ row: c.row, context: c.input + c.cacheRead, model: callModel(c) }));
}

/** A token count as the pages write it: `1,523,125` (grouping fixed, whatever the locale). */
export function tokens(n: number): string {
  return n.toLocaleString('en-US');
}

/** The one wording of some calls' tokens, for every page, the export and the CLI. */
export function tokenWords(u: Pick<TokenCounts, 'input' | 'cache_read' | 'output' | 'thinking'>): string {
  return `${tokens(u.input)} input + ${tokens(u.cache_read)} cache-read, ${tokens(u.output)} output (${tokens(u.thinking)} thinking)`;
}

/** `1 model call` / `50 model calls`. */
export function callsWords(n: number): string {
  return `${tokens(n)} model call${n === 1 ? '' : 's'}`;
}

/** The last prompt's breakdown in words (`59,070 tokens: system prompt 12,064, tools 15,959, …`); its text is never published. */
export function promptWords(prompt: NonNullable<ConversationDb['prompt']>): string {
  const sections = prompt.sections.map((s) => `${s.section.toLowerCase()} ${tokens(s.tokens)}`).join(', ');
  const total = prompt.totalTokens !== undefined ? `${tokens(prompt.totalTokens)} tokens` : 'tokens not counted';
  return `${total}${sections ? `: ${sections}` : ''} (${tokens(prompt.tools)} tool definition${prompt.tools === 1 ? '' : 's'}, ${tokens(prompt.messages)} message${prompt.messages === 1 ? '' : 's'})`;
}

/** A duration in ms as `2.80 s` (calls take seconds; the real median time to first token is 2.36 s). */
export function seconds(ms: number): string {
  // Past a minute the hundredths say nothing and "2809.01 s" reads as a number to convert (review): 46 min 49 s.
  if (ms >= 60_000) return formatDuration(ms);
  return `${(ms / 1000).toFixed(2)} s`;
}
