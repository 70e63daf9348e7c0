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

/**
 * The subagents a call started, as the session tree has them: those the tree placed at this call's step. The tree
 * keys a subagent by its call's step (`ChildLink.stepKey`), so only an `invoke_subagent` call claims them.
 */
export function subagentsOfCall<T extends { stepKey?: string }>(subagents: readonly T[], call: Pick<ToolCallView, 'name' | 'callStepKey'>): T[] {
  return call.name === 'invoke_subagent' ? subagents.filter((c) => c.stepKey === call.callStepKey) : [];
}

/**
 * The background task each call became (by call id), as the family's grouping has it: by the task id a call's
 * outcome names; a task the builder paired with no call, by the call the grouping read from its announcement (the
 * last call of that tool in the step it names).
 */
export function tasksByCall<T extends { taskId: string; start?: { callStepKey?: string; tool?: string } }>(tasks: readonly T[], calls: readonly Pick<ToolCallView, 'id' | 'name' | 'callStepKey' | 'outcome'>[]): Map<string, T> {
  const out = new Map<string, T>();
  const byId = new Map(tasks.map((t) => [t.taskId, t]));
  const claimed = new Set<T>();
  for (const call of calls) {
    const task = call.outcome.background ? byId.get(call.outcome.background.taskId) : undefined;
    if (task) {
      out.set(call.id, task);
      claimed.add(task);
    }
  }
  for (const task of tasks) {
    if (claimed.has(task) || !task.start?.callStepKey) continue;
    const call = calls.findLast((c) => c.callStepKey === task.start?.callStepKey && c.name === task.start.tool && !out.has(c.id));
    if (call) out.set(call.id, task);
  }
  return out;
}
