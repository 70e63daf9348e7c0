/**
 * What one session's own files say about the sessions it belongs with: the subagents it started (from its
 * `invoke_subagent` calls and results, and from the messages its subagents and the system sent it) and the parent
 * that opened it (from its own first step). Derived once per session in the archive pipeline and kept lean in the
 * session's entry; `tree.ts` joins every session's evidence into one tree per build. Pure: no `astro:*`, no HTML.
 *
 * Only links the data draws: a message from another session without a role title says nothing about who started
 * whom (it could be either way), so it draws no link. In real session d493099f the subagent 849d95b3 sent 18
 * messages titled `Message from 并行创作团队 (teamwork_preview)` and the system 66 titled
 * `Error from 并行创作团队 (teamwork_preview)`, each naming its id; `sourceMetadata.tool.stepIndex` of those
 * messages is the step of the *child* (its `send_message` call), not of the parent, so it names no parent step.
 */
import { openingMessage } from '../brain/metadata.ts';
import type { Session, Step, ToolCall } from '../brain/types.ts';
import { displayValue } from '../archive/format.ts';
import { threadOrder } from '../audit/thread.ts';
import { groupBackgroundTasks } from './background-tasks.ts';
import { isSessionId } from './senders.ts';
import type { FamilyEvidence, LinkSource, SubagentClaim, SubagentEnding } from './schemas.ts';

/** Longest prompt kept per subagent (the step page shows the whole call). */
export const PROMPT_MAX = 600;
/** Longest ending line kept. */
export const ENDING_MAX = 240;

const UUID_G = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ROLE_TITLE = /^(Message|Error) from (.+) \(([^()]*)\)$/;
const ERROR_NAMING = /with id "([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/i;
const STRENGTH: LinkSource[] = ['invoke_subagent', 'opening-message', 'subagent-error', 'subagent-message'];

/** One subagent of an `invoke_subagent` call: its type, role and prompt as given (any of them may be missing). */
export interface SubagentSpec {
  type?: string;
  role?: string;
  prompt?: string;
}

type Agent = Record<string, unknown>;
const isAgent = (v: unknown): v is Agent => typeof v === 'object' && v !== null && !Array.isArray(v);
const pick = (a: Agent, ...names: string[]): string | undefined => {
  const v = names.map((n) => a[n]).find((x) => x !== undefined);
  const s = v === undefined ? '' : displayValue(v).trim();
  return s === '' ? undefined : s;
};

/**
 * The subagents of an `invoke_subagent` call: the spec documents `Subagents` (array of `{ TypeName, Role, Prompt }`);
 * any array argument of objects is taken, and a call with the fields at top level is one subagent.
 */
export function subagentSpecs(call: Pick<ToolCall, 'args'>): SubagentSpec[] {
  const list = Object.values(call.args).find((v) => Array.isArray(v) && v.some(isAgent)) as unknown[] | undefined;
  const agents: Agent[] = list ? list.filter(isAgent) : [call.args];
  return agents.map((a) => ({
    type: pick(a, 'TypeName', 'typeName', 'Type', 'type'),
    role: pick(a, 'Role', 'role', 'Name', 'name'),
    prompt: pick(a, 'Prompt', 'prompt', 'Task', 'task'),
  }));
}

function firstLine(text: string, max = ENDING_MAX): string {
  const line = text.replace(/^(Created At|Completed At):.*\n/gm, '').trim().split(/\r?\n/, 1)[0]?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function cutPrompt(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return text.length > PROMPT_MAX ? `${text.slice(0, PROMPT_MAX - 1)}…` : text;
}

/**
 * The result step of the `callIndex`-th call of `caller`: results follow their call, one per call, before the next
 * step that makes calls or the next user input (the real format carries no call id).
 */
function resultOf(steps: readonly Step[], caller: Step, callIndex: number): Step | undefined {
  const results: Step[] = [];
  for (const s of steps.slice(caller.position + 1)) {
    if (s.toolCalls.length > 0 || s.type === 'USER_INPUT' || s.type === 'PLANNER_RESPONSE') break;
    if (s.type === 'SYSTEM_MESSAGE' || s.type === 'EPHEMERAL_MESSAGE' || s.type === 'CHECKPOINT') continue;
    results.push(s);
  }
  return results[callIndex] ?? results[0];
}

function isErrorResult(step: Step): boolean {
  return step.type === 'ERROR_MESSAGE' || step.status === 'ERROR' || step.error !== undefined;
}

/** Pair the conversation ids a result names with the call's subagents: by role on the same line, else in order. */
function pairIds(text: string, specs: SubagentSpec[], self: string): Map<number, string> {
  const paired = new Map<number, string>();
  const extra: string[] = [];
  const taken = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    for (const match of line.matchAll(UUID_G)) {
      const id = match[0].toLowerCase();
      if (id === self || taken.has(id)) continue;
      taken.add(id);
      const byRole = specs.findIndex((s, i) => !paired.has(i) && s.role !== undefined && line.includes(s.role));
      if (byRole >= 0) paired.set(byRole, id);
      else extra.push(id);
    }
  }
  for (const id of extra) {
    const free = specs.findIndex((_, i) => !paired.has(i));
    paired.set(free >= 0 ? free : specs.length + paired.size, id);
  }
  return paired;
}

function later(a: SubagentEnding, b: SubagentEnding): SubagentEnding {
  if (!a.at) return b;
  if (!b.at) return a;
  return b.at >= a.at ? b : a;
}

function addSource(claim: SubagentClaim, source: LinkSource): void {
  if (!claim.derivedFrom.includes(source)) claim.derivedFrom.push(source);
  claim.derivedFrom.sort((x, y) => STRENGTH.indexOf(x) - STRENGTH.indexOf(y));
}

function seen(claim: SubagentClaim, at: string | undefined): void {
  if (!at) return;
  if (!claim.firstAt || at < claim.firstAt) claim.firstAt = at;
  if (!claim.lastAt || at > claim.lastAt) claim.lastAt = at;
}

/** What `session`'s own files say about its subagents, its parent and its background tasks. */
export function familyEvidence(session: Pick<Session, 'id' | 'steps' | 'messages' | 'taskLogs'>): FamilyEvidence {
  const self = session.id.toLowerCase();
  const subagents: SubagentClaim[] = [];
  const byChild = new Map<string, SubagentClaim>();
  const claimFor = (childId: string): SubagentClaim => {
    let claim = byChild.get(childId);
    if (!claim) {
      claim = { childId, derivedFrom: [], messages: 0, errors: 0, ending: { status: 'started', line: '' } };
      byChild.set(childId, claim);
      subagents.push(claim);
    }
    return claim;
  };

  // 1. invoke_subagent calls, each subagent with the conversation id its result names (when it names one).
  for (const step of session.steps) {
    step.toolCalls.forEach((call, callIndex) => {
      if (call.name !== 'invoke_subagent') return;
      const specs = subagentSpecs(call);
      const result = resultOf(session.steps, step, callIndex);
      const ids = result?.content ? pairIds(result.content, specs, self) : new Map<number, string>();
      const count = Math.max(specs.length, ...[...ids.keys()].map((k) => k + 1));
      for (let i = 0; i < count; i++) {
        const spec = specs[i] ?? {};
        const childId = ids.get(i);
        const claim: SubagentClaim = childId ? claimFor(childId) : { derivedFrom: [], messages: 0, errors: 0, ending: { status: 'started', line: '' } };
        if (!childId) subagents.push(claim);
        addSource(claim, 'invoke_subagent');
        claim.stepKey = step.key;
        claim.stepIndex = step.index;
        claim.agentIndex = i;
        claim.type = spec.type ?? claim.type;
        claim.role = spec.role ?? claim.role;
        claim.prompt = cutPrompt(spec.prompt);
        seen(claim, step.createdAt);
        if (result) {
          const failed = isErrorResult(result);
          const text = result.content ?? displayValue(result.error ?? '');
          claim.ending = later(claim.ending, {
            status: failed ? 'failed' : /\b(finished|completed)\b/i.test(text) && !childId ? 'finished' : 'started',
            line: firstLine(text),
            at: result.createdAt,
          });
          seen(claim, result.createdAt);
        }
      }
    });
  }

  // 2. Messages: from a subagent (titled with its role), or from the system about a subagent's error.
  for (const m of threadOrder(session.messages)) {
    const title = m.title ? ROLE_TITLE.exec(m.title) : null;
    if (isSessionId(m.sender) && m.sender.toLowerCase() !== self && title?.[1] === 'Message') {
      const claim = claimFor(m.sender.toLowerCase());
      addSource(claim, 'subagent-message');
      claim.role ??= title[2];
      claim.type ??= title[3];
      claim.messages++;
      seen(claim, m.timestamp);
      claim.ending = later(claim.ending, { status: 'reported', line: firstLine(m.content ?? ''), at: m.timestamp });
      continue;
    }
    const named = m.sender === 'system' && title?.[1] === 'Error' ? ERROR_NAMING.exec(m.content ?? '') : null;
    if (named && (named[1] as string).toLowerCase() !== self) {
      const claim = claimFor((named[1] as string).toLowerCase());
      addSource(claim, 'subagent-error');
      claim.role ??= title?.[2];
      claim.type ??= title?.[3];
      claim.errors++;
      seen(claim, m.timestamp);
      const reason = /execution:\s*(.+)$/s.exec(m.content ?? '')?.[1] ?? m.content ?? '';
      claim.ending = later(claim.ending, { status: 'failed', line: firstLine(reason), at: m.timestamp });
    }
  }

  // 3. The parent, from this session's own first step: step 0 delivered as a message from another session.
  const opening = openingMessage(session.steps);
  let parent: FamilyEvidence['parent'];
  if (opening && opening.sender !== self) {
    parent = { parentId: opening.sender, derivedFrom: 'opening-message', stepKey: opening.stepKey };
  }

  const backgroundTasks = groupBackgroundTasks(session).length;
  return parent ? { subagents, parent, backgroundTasks } : { subagents, backgroundTasks };
}
