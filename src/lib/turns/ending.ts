/**
 * How a session ended, from its last turn only (issue 28: quoting the last model prose anywhere in the session told
 * 18 of 34 real sessions wrong, e.g. "pushed and is now live on your GitHub" above a last request that got three
 * calls and no reply). The header, the home card, the export and `/sessions.json` all show `sessionEnding(…).text`.
 * Pure: no Astro, no HTML.
 *
 * The last turn ended with a reply when its last model prose comes after its last call: that prose's lead sentence
 * is the ending. Otherwise the turn got no reply, and the ending says so and what the log ends on: the last call
 * (how it ended, and why when it failed), an agent error, or the request itself.
 */
import { callFailureMessage, failureLine } from './failures.ts';
import { exitLabel } from './exit-codes.ts';
import { leadSentence, shorten } from './prose-line.ts';
import type { Turn, ToolCallView, TurnItem } from './types.ts';

/** Longest quoted reply kept. */
export const ENDING_MAX = 200;
/** Longest command, path or query quoted in an ending (cut in its middle: its start and its end both say what it was). */
const WHAT_MAX = 70;
/** Longest failure reason quoted in an ending. */
const REASON_MAX = 140;

/**
 * What the ending is: the last turn's `reply`; `no-reply` when the log ends on a call or an error after the last
 * prose, `failed` when that last call failed or the last thing is an agent error; `request` when the log ends with
 * the request itself; `summary` for a session with no log (the walkthrough's own summary).
 */
export type EndingKind = 'reply' | 'no-reply' | 'failed' | 'request' | 'summary';

export interface SessionEnding {
  kind: EndingKind;
  /** One line, plain text (at most about 400 characters). */
  text: string;
  /** The turn it comes from (absent for `summary`). */
  turn?: number;
  /** The step the ending names: the reply's, the last call's, the error's, the request's. */
  stepKey?: string;
}

/** `text` on one line, cut in its middle when longer than `max` (a command's tail, a path's file name stay). */
export function middleShorten(text: string, max: number): string {
  const line = text.slice(0, 8 * max).replace(/\s+/g, ' ').trim();
  const whole = text.length > 8 * max ? `${line}…` : line;
  if (whole.length <= max) return whole;
  const tail = Math.floor((max - 1) * 0.4);
  return `${whole.slice(0, max - 1 - tail).trimEnd()}…${whole.slice(whole.length - tail).trimStart()}`;
}

/** `tool `what`` for a call: what it acted on (its command or query; a path as its row writes it, workspace-relative). */
function callWhat(call: ToolCallView): string {
  const o = call.outcome;
  const fromLine = o.line.split(' · ')[0]?.replace(/ \+\d+ −\d+$/, '').replace(/ lines \d+–\d+(?: of \d+)?$/, '');
  const what = o.kind === 'command' || o.kind === 'search' || o.kind === 'web' ? (o.target ?? o.line) : fromLine || o.target;
  return what && what !== call.name ? `${call.name} \`${middleShorten(what, WHAT_MAX).replace(/`/g, "'")}\`` : call.name;
}

/** How a call ended, as the clause after its name. */
function callClause(call: ToolCallView): string {
  const o = call.outcome;
  switch (o.status) {
    case 'failed': {
      const exit = o.exitCode !== undefined ? exitLabel(o.exitCode) : '';
      const message = callFailureMessage(call);
      const reason = message ? failureLine(message, REASON_MAX) : '';
      const said = reason && !/^exit code -?\d+/.test(reason) ? reason : '';
      return `failed${exit || said ? ': ' : ''}${[exit, said].filter(Boolean).join(' · ')}`;
    }
    case 'running':
      return 'was still running in the background when the log ends';
    case 'cancelled':
      return 'was cancelled';
    case 'unknown':
      return o.resultNotLogged ? 'whose result this log does not keep (overview.txt records no tool results)' : 'with no result recorded';
    default: {
      const detail = o.exitCode !== undefined ? exitLabel(o.exitCode) : o.added !== undefined ? `+${o.added ?? 0} −${o.removed ?? 0}` : o.hits !== undefined ? o.line.split(' · ').at(-1) : undefined;
      return `which ended ok${detail ? ` (${detail})` : ''}`;
    }
  }
}

type Event = { kind: 'call'; call: ToolCallView } | { kind: 'agent-error'; stepKey: string; message: string } | { kind: 'result'; item: Extract<TurnItem, { kind: 'orphan-result' }> };

/**
 * What the turn's items end on after its last prose, and that prose: `reply` when no call comes after it, `said`
 * when calls do (what the model said before acting: "all 3 fixed, now pushing to GitHub" is no answer, but the
 * ending quotes it so as not to read as if the agent said nothing).
 */
function lastEvents(turn: Turn): { reply?: Extract<TurnItem, { kind: 'reply' }>; said?: Extract<TurnItem, { kind: 'reply' }>; events: Event[] } {
  const events: Event[] = [];
  for (let i = turn.items.length - 1; i >= 0; i--) {
    const item = turn.items[i] as TurnItem;
    if (item.kind === 'reply') {
      // A reply's calls come after its prose: prose with calls is what the model said before acting, not its answer.
      for (let c = item.calls.length - 1; c >= 0; c--) events.push({ kind: 'call', call: item.calls[c] as ToolCallView });
      if (item.text && item.text.trim() !== '') return events.length === 0 ? { reply: item, events } : { said: item, events };
    } else if (item.kind === 'orphan-result') {
      // An ERROR_MESSAGE no call claims is an agent error (`failures.ts`): "The model is currently unreachable."
      if (item.type === 'ERROR_MESSAGE') {
        events.push({ kind: 'agent-error', stepKey: item.stepKey, message: item.outcome.error ?? item.outcome.line });
      } else events.push({ kind: 'result', item });
    }
  }
  return { events };
}

/** Longest sentence quoted of what the model said before its last calls. */
const SAID_MAX = 90;

/**
 * The call that started the background task a status check names (86033144's last step, `command_status` of
 * `…/task-7644`, checks the `robocopy … /E /MOVE` of step 7643, still running when the log ends).
 */
function taskStartedBy(call: ToolCallView, turns: readonly Turn[]): ToolCallView | undefined {
  const id = call.outcome.target?.trim().split('/').pop();
  if (!id || !/^task-\d+$/.test(id)) return undefined;
  for (let t = turns.length - 1; t >= 0; t--) {
    for (const item of (turns[t] as Turn).items) {
      if (item.kind !== 'reply') continue;
      for (const c of item.calls) if (c !== call && c.outcome.background?.taskId.split('/').pop() === id) return c;
    }
  }
  return undefined;
}

/**
 * How the session ended, from its last turn (`turns.at(-1)`); `options.walkthroughSummary` stands in for a session
 * with no log at all.
 */
export function sessionEnding(turns: readonly Turn[], options: { walkthroughSummary?: string } = {}): SessionEnding | undefined {
  const turn = turns.at(-1);
  if (!turn) {
    const summary = options.walkthroughSummary?.trim();
    return summary ? { kind: 'summary', text: `No log of its steps is kept; its walkthrough says: ${shorten(summary, ENDING_MAX)}` } : undefined;
  }
  const { reply, said, events } = lastEvents(turn);
  if (reply?.text) {
    const line = leadSentence(reply.text, ENDING_MAX);
    if (line !== '') return { kind: 'reply', text: shorten(line, ENDING_MAX), turn: turn.number, stepKey: reply.stepKey };
  }
  const before = said?.text ? shorten(leadSentence(said.text, SAID_MAX), SAID_MAX).replace(/"/g, "'") : '';
  const who = turn.request ? `The last request (turn ${turn.number}) got no ${before ? 'final reply' : 'reply'}` : 'The log holds no request and no reply';
  const lead = before ? `the agent last said "${before}", and ` : '';
  const last = events[0];
  if (!last) {
    const stepKey = turn.request?.stepKey;
    return { kind: 'request', text: `${who}; the log ends with ${turn.request ? 'the request' : 'no call'}${stepKey ? ` (step ${stepKey})` : ''}.`, turn: turn.number, ...(stepKey ? { stepKey } : {}) };
  }
  if (last.kind === 'agent-error') {
    return { kind: 'failed', text: `${who}; ${lead}the log ends at step ${last.stepKey} with an agent error: ${failureLine(last.message, REASON_MAX)}`, turn: turn.number, stepKey: last.stepKey };
  }
  if (last.kind === 'result') {
    const o = last.item.outcome;
    const failed = o.status === 'failed';
    const how = failed ? `a failed result: ${failureLine(o.error ?? o.line, REASON_MAX)}` : `a result no call in the log claims: ${middleShorten(o.line, WHAT_MAX)}`;
    return { kind: failed ? 'failed' : 'no-reply', text: `${who}; ${lead}the log ends at step ${last.item.stepKey} with ${how}`, turn: turn.number, stepKey: last.item.stepKey };
  }
  const call = last.call;
  let text = `${who}; ${lead}the log ends at step ${call.callStepKey}, ${callWhat(call)}, ${callClause(call)}`;
  // A status check names its task by id only (`command_status task-7644`): say which command that task is.
  const started = taskStartedBy(call, turns);
  if (started) text += `: a check on step ${started.callStepKey}, ${callWhat(started)}, which ${started.outcome.status === 'running' ? 'was still running in the background when the log ends' : callClause(started).replace(/^(which |was )/, '')}`;
  // The last call may be a status check after the call that failed (86033144: Move-Item failed, then robocopy and a
  // command_status with no result): the failure is what the auditor needs to see.
  const failedBefore = events.slice(1).filter((e): e is Extract<Event, { kind: 'call' }> => e.kind === 'call' && e.call.outcome.status === 'failed');
  const lastFailed = failedBefore[0];
  if (call.outcome.status !== 'failed' && lastFailed) {
    const more = failedBefore.length > 1 ? ` (${failedBefore.length} calls failed since the last prose)` : '';
    text += `; before it, step ${lastFailed.call.callStepKey}, ${callWhat(lastFailed.call)}, ${callClause(lastFailed.call)}${more}`;
  }
  return { kind: call.outcome.status === 'failed' || lastFailed ? 'failed' : 'no-reply', text: /[.!?…]$/.test(text) ? text : `${text}.`, turn: turn.number, stepKey: call.callStepKey };
}
