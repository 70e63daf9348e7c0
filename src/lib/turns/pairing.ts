/**
 * Which result answers which call. Real logs carry no call id (SURVEY: no `tool_call_id` in any of 29 sessions),
 * so the order decides: a result step answers the next unanswered call of the PLANNER_RESPONSE before it. Where
 * one step made several calls (21 steps of d493099f), a result whose type names its tool (VIEW_FILE, RUN_COMMAND,
 * …) takes the first pending call of that tool, so a view answering the second of `[run_command, view_file]`
 * does not land on the command; GENERIC and ERROR_MESSAGE (jetski records every result as GENERIC) take the next.
 */
import type { Step } from '../brain/types.ts';
import { resultFits } from './outcome.ts';

/**
 * Step types that are never a tool's result: people, the model, and the system's own notes. Every other type
 * (RUN_COMMAND, CODE_ACTION, VIEW_FILE, GENERIC, ERROR_MESSAGE, GENERATE_IMAGE, types we have not seen) is.
 */
export const NOT_RESULT_TYPES: ReadonlySet<string> = new Set([
  'USER_INPUT',
  'PLANNER_RESPONSE',
  'SYSTEM_MESSAGE',
  'EPHEMERAL_MESSAGE',
  'CHECKPOINT',
  'CONVERSATION_HISTORY',
  'KNOWLEDGE_ARTIFACTS',
  // A step made of `steps/<n>/` files alone (session.ts): no record says what it was, so it answers no call.
  'STEP_FILES_ONLY',
  // A record without a usable step_index (merge.ts rule 1): only a step answers a call. A planted
  // `{"type":"RUN_COMMAND","exit_code":0,…}` between `make deploy` and its real result (exit 1) answered it.
  'INVALID_RECORD',
]);

/**
 * True for the user's own action in their editor: a `USER_EXPLICIT` record other than a USER_INPUT (`VIEW_FILE`
 * "the user opened …", `CODE_ACTION` "the user edited …"; overview.txt of older versions). It answers no call.
 */
export function isUserAction(step: Pick<Step, 'source' | 'type' | 'toolCalls'>): boolean {
  return step.source === 'USER_EXPLICIT' && step.type !== 'USER_INPUT' && step.toolCalls.length === 0;
}

/** True when a step is a tool's result (by type, and it makes no calls of its own); never the user's own action. */
export function isResultStep(step: Step): boolean {
  return step.toolCalls.length === 0 && !NOT_RESULT_TYPES.has(step.type) && !isUserAction(step);
}

/** A call (by step position and index in the step) and the position of the step answering it. */
export interface Pair {
  callPosition: number;
  callIndex: number;
  resultPosition?: number;
}

/** The outcome of pairing a timeline. */
export interface Pairing {
  /** One per call, in timeline order. */
  pairs: Pair[];
  /** Positions of result steps that no call claims. */
  orphans: number[];
}

/**
 * Pair every call with its result. A new step with calls, or a USER_INPUT, closes what the previous one left
 * unanswered (the user interrupted, or the result rolled off disk). An ERROR_MESSAGE with nothing pending is the
 * model's own error (e.g. "The model is currently unreachable"), an orphan like any other.
 */
export function pairCalls(steps: readonly Step[]): Pairing {
  const pairs: Pair[] = [];
  const orphans: number[] = [];
  let pending: { pair: Pair; name: string }[] = [];
  for (const step of steps) {
    if (step.toolCalls.length > 0) {
      pending = step.toolCalls.map((call, callIndex) => {
        const pair: Pair = { callPosition: step.position, callIndex };
        pairs.push(pair);
        return { pair, name: call.name };
      });
      continue;
    }
    if (step.type === 'USER_INPUT' || step.type === 'PLANNER_RESPONSE') {
      pending = [];
      continue;
    }
    if (!isResultStep(step)) continue;
    if (pending.length === 0) {
      orphans.push(step.position);
      continue;
    }
    let at = pending.findIndex((p) => resultFits(p.name, step.type));
    if (at < 0) at = 0;
    const [taken] = pending.splice(at, 1);
    if (taken) taken.pair.resultPosition = step.position;
  }
  return { pairs, orphans: claimEarlyResults(steps, pairs, orphans) };
}

/**
 * A result merged just before the call it answers: ede1eb3f's step 23 (a permission granted) sits before step 22
 * (the ask_permission call) in the merged timeline. When the step right after an orphan made calls, has a lower
 * `step_index` and its first call is unanswered, the orphan answers that call.
 */
function claimEarlyResults(steps: readonly Step[], pairs: Pair[], orphans: number[]): number[] {
  if (orphans.length === 0) return orphans;
  const firstPair = new Map<number, Pair>();
  for (const p of pairs) if (!firstPair.has(p.callPosition)) firstPair.set(p.callPosition, p);
  return orphans.filter((pos) => {
    const result = steps[pos];
    const next = steps[pos + 1];
    const pair = firstPair.get(pos + 1);
    const call = next?.toolCalls[0];
    if (!result || !next || !pair || !call || pair.resultPosition !== undefined) return true;
    if (next.index >= result.index || !resultFits(call.name, result.type)) return true;
    pair.resultPosition = pos;
    return false;
  });
}
