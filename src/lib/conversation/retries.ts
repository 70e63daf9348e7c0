/**
 * Identical retries as one row (issue 28: three identical failed reads took ~1,100 px of a real conversation): replies
 * next to each other that say nothing and make the same one call, which fails the same way, are drawn as the first
 * call with "failed ×N" and links to each step. Pure, no `astro:*` import.
 */
import { callFailureMessage } from '../turns/failures.ts';
import type { ToolCallView, TurnItem } from '../turns/types.ts';

type Reply = Extract<TurnItem, { kind: 'reply' }>;

/** A run of identical failed retries: the first reply as drawn, the later ones behind it. */
export interface RetryRun {
  kind: 'retries';
  first: Reply;
  repeats: Reply[];
}

/** What makes two replies the same retry: no prose, one call, failed, with the same tool, target and message. */
export function retryKey(item: { kind: string }): string | undefined {
  if (item.kind !== 'reply') return undefined;
  const reply = item as Reply;
  if ((reply.text ?? '').trim() !== '' || reply.calls.length !== 1) return undefined;
  const call = reply.calls[0] as ToolCallView;
  if (call.outcome.status !== 'failed') return undefined;
  return JSON.stringify([call.name, call.outcome.target ?? call.outcome.line, callFailureMessage(call) ?? '']);
}

/** `items` with every run of two or more identical failed retries (`retryKey`) made one `RetryRun`. */
export function groupRetries<T extends { kind: string }>(items: readonly T[]): Array<T | RetryRun> {
  const out: Array<T | RetryRun> = [];
  let run: RetryRun | undefined;
  let runKey: string | undefined;
  for (const item of items) {
    const key = retryKey(item);
    if (key !== undefined && key === runKey && run) {
      run.repeats.push(item as unknown as Reply);
      continue;
    }
    if (key !== undefined) {
      run = { kind: 'retries', first: item as unknown as Reply, repeats: [] };
      runKey = key;
      out.push(run);
      continue;
    }
    run = undefined;
    runKey = undefined;
    out.push(item);
  }
  // A run of one is the reply itself.
  return out.map((x) => (x.kind === 'retries' && (x as RetryRun).repeats.length === 0 ? ((x as RetryRun).first as unknown as T) : x));
}
