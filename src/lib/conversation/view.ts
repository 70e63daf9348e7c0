/**
 * The small look-ups the conversation pages need around the turn builder's turns (`turnsOf` in archive/detail.ts,
 * built once per session read): a call's recorded arguments, the page of a task log. Pages render what the builder
 * returns; they never pair calls or judge outcomes themselves. Pure, no `astro:*`.
 */
import type { Session, ToolCall } from '../brain/types.ts';
import type { ToolCallView } from '../turns/index.ts';
import { pageOfIndex, taskLogOrder } from '../archive/session-pages.ts';

const stepIndexes = new WeakMap<Session, Map<string, Session['steps'][number]>>();

/** The recorded tool call a `ToolCallView` names (its arguments), or undefined when the step is gone. */
export function recordedCall(session: Session, call: Pick<ToolCallView, 'callStepKey' | 'callIndex'>): ToolCall | undefined {
  let index = stepIndexes.get(session);
  if (!index) {
    index = new Map(session.steps.map((s) => [s.key, s]));
    stepIndexes.set(session, index);
  }
  return index.get(call.callStepKey)?.toolCalls[call.callIndex];
}

/** The name (`task-N`) and task-log page of each `tasks/*.log` file, by relative path. */
export function taskLogPages(session: Session, starts: readonly number[] | undefined): Map<string, { name: string; page: number }> {
  const out = new Map<string, { name: string; page: number }>();
  taskLogOrder(session.taskLogs).forEach((log, i) => out.set(log.file, { name: log.name, page: pageOfIndex(starts ?? [0], i) }));
  return out;
}
