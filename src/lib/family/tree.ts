/**
 * The session tree: which archived session started which, joined once per build from every session's own evidence
 * (`evidence.ts`). Pure: no `astro:*`, no HTML; the routing module builds it once over all sessions.
 *
 * Each session has at most one parent. Candidates come from the parent's side (its `invoke_subagent` result, the
 * messages its subagents and the system sent it) and from the child's side (its first step is a message from the
 * parent); the strongest evidence wins (`invoke_subagent`, then the child's own first step, then messages), then the
 * earliest-started parent, then the id. A child whose only named parent is not archived is a root marked `orphan`.
 * A choice that would close a cycle (A under B under A) is dropped for the cycle's earliest-started session, which
 * becomes a root marked with the cycle, so every session is reachable from exactly one root.
 */
import type { FamilyEvidence, LinkSource, SubagentClaim, SubagentEnding } from './schemas.ts';
import { failureWords } from '../turns/failures.ts';

const STRENGTH: LinkSource[] = ['invoke_subagent', 'opening-message', 'subagent-error', 'subagent-message'];

/** What the tree needs of a session (the lean summary has all of it). */
export interface TreeInput {
  id: string;
  title: string;
  createdAt: string;
  errorCount?: number;
  /** The session's failures as `turns/failures.ts` counts them (the lean summary's `conversation`). */
  conversation?: { failedCalls: number; agentErrors?: number };
  family?: FamilyEvidence;
}

/** A session's parent, as the tree chose it. */
export interface ParentLink {
  id: string;
  /** False for an orphan: the named parent is not in the archive. */
  archived: boolean;
  title?: string;
  /** The parent's step holding the `invoke_subagent` call, when that is what named the child. */
  stepKey?: string;
  stepIndex?: number;
  role?: string;
  type?: string;
  /** Every kind of evidence for this link, strongest first. */
  derivedFrom: LinkSource[];
}

/** One subagent listed under its parent. */
export interface ChildLink {
  /** Absent when the call's result named no conversation id. */
  id?: string;
  archived: boolean;
  title?: string;
  role?: string;
  type?: string;
  prompt?: string;
  stepKey?: string;
  stepIndex?: number;
  agentIndex?: number;
  derivedFrom: LinkSource[];
  messages: number;
  errors: number;
  ending: SubagentEnding;
  /** False when the child is archived but the tree put it under another parent (or a cycle kept it a root). */
  inTree: boolean;
}

/** A session's place in the tree. */
export interface TreeNode {
  id: string;
  title: string;
  createdAt: string;
  parent?: ParentLink;
  /** A root whose named parent is not archived. */
  orphan: boolean;
  /** Set when the session claimed a parent that descends from it: the sessions of that cycle, in order. */
  cycle?: string[];
  /** Archived children placed under it, earliest first (ids). */
  children: string[];
  /** Every subagent its own files name (archived or not), in the order they appear. */
  subagents: ChildLink[];
  /**
   * Sessions whose data this session's pages show or whose claims concern it (its parent candidates, the subagents
   * it names, the members of its cycle): an incremental build re-renders it when one of them changes.
   */
  neighbours: string[];
  /** 0 for a root. */
  depth: number;
  /** Children, grandchildren, … */
  descendants: number;
}

/** The tree over every session of a build. */
export interface SessionTree {
  nodes: ReadonlyMap<string, TreeNode>;
  /** Root ids, in input order. */
  roots: string[];
  /** Sessions with a parent (archived or not). */
  subagentSessions: number;
  orphans: number;
  cycles: number;
}

interface Candidate {
  parentId: string;
  rank: number;
  parentCreatedAt: string;
  claim?: SubagentClaim;
  derivedFrom: LinkSource[];
}

function better(a: Candidate, b: Candidate): Candidate {
  if (a.rank !== b.rank) return a.rank < b.rank ? a : b;
  if (a.parentCreatedAt !== b.parentCreatedAt) return a.parentCreatedAt < b.parentCreatedAt ? a : b;
  return a.parentId <= b.parentId ? a : b;
}

/** Build the tree over `sessions` (any order; roots keep it). */
export function buildSessionTree(sessions: readonly TreeInput[]): SessionTree {
  const byId = new Map(sessions.map((s) => [s.id.toLowerCase(), s]));
  const candidates = new Map<string, Candidate[]>();
  const add = (childId: string, c: Candidate): void => {
    if (childId === c.parentId) return;
    const list = candidates.get(childId) ?? [];
    list.push(c);
    candidates.set(childId, list);
  };
  for (const s of sessions) {
    const id = s.id.toLowerCase();
    for (const claim of s.family?.subagents ?? []) {
      if (!claim.childId || !byId.has(claim.childId)) continue;
      add(claim.childId, { parentId: id, rank: STRENGTH.indexOf(claim.derivedFrom[0] ?? 'subagent-message'), parentCreatedAt: s.createdAt, claim, derivedFrom: [...claim.derivedFrom] });
    }
    const p = s.family?.parent;
    if (p) add(id, { parentId: p.parentId, rank: STRENGTH.indexOf(p.derivedFrom), parentCreatedAt: byId.get(p.parentId)?.createdAt ?? '', derivedFrom: [p.derivedFrom] });
  }

  // Each child's best candidate; the child's own claim and the parent's claim about the same pair are one link.
  const chosen = new Map<string, Candidate>();
  for (const [childId, list] of candidates) {
    const archived = list.filter((c) => byId.has(c.parentId));
    const pool = archived.length > 0 ? archived : list;
    let best = pool.reduce(better);
    const same = list.filter((c) => c.parentId === best.parentId);
    const derivedFrom = [...new Set(same.flatMap((c) => c.derivedFrom))].sort((x, y) => STRENGTH.indexOf(x) - STRENGTH.indexOf(y));
    best = { ...best, claim: same.find((c) => c.claim)?.claim, derivedFrom };
    chosen.set(childId, best);
  }

  // Break cycles: follow each chain of archived parents; a chain that comes back drops its earliest session's link.
  const cycleOf = new Map<string, string[]>();
  for (const start of chosen.keys()) {
    const path: string[] = [];
    const onPath = new Set<string>();
    let at: string | undefined = start;
    while (at && chosen.has(at) && !onPath.has(at)) {
      path.push(at);
      onPath.add(at);
      const next: string = (chosen.get(at) as Candidate).parentId;
      at = byId.has(next) ? next : undefined;
    }
    if (at && onPath.has(at)) {
      const cycle = path.slice(path.indexOf(at));
      const earliest = cycle.reduce((a, b) => {
        const ca = byId.get(a)?.createdAt ?? '';
        const cb = byId.get(b)?.createdAt ?? '';
        return cb < ca || (cb === ca && b < a) ? b : a;
      });
      chosen.delete(earliest);
      const i = cycle.indexOf(earliest);
      cycleOf.set(earliest, [...cycle.slice(i), ...cycle.slice(0, i)]);
    }
  }

  const nodes = new Map<string, TreeNode>();
  for (const s of sessions) {
    const id = s.id.toLowerCase();
    const c = chosen.get(id);
    const parentArchived = c ? byId.has(c.parentId) : false;
    nodes.set(id, {
      id,
      title: s.title,
      createdAt: s.createdAt,
      parent: c
        ? {
            id: c.parentId,
            archived: parentArchived,
            title: byId.get(c.parentId)?.title,
            stepKey: c.claim?.stepKey,
            stepIndex: c.claim?.stepIndex,
            role: c.claim?.role,
            type: c.claim?.type,
            derivedFrom: c.derivedFrom,
          }
        : undefined,
      orphan: c !== undefined && !parentArchived,
      cycle: cycleOf.get(id),
      children: [],
      subagents: [],
      neighbours: [],
      depth: 0,
      descendants: 0,
    });
  }
  for (const node of nodes.values()) {
    if (node.parent?.archived) nodes.get(node.parent.id)?.children.push(node.id);
  }
  for (const node of nodes.values()) {
    node.children.sort((a, b) => {
      const na = nodes.get(a) as TreeNode;
      const nb = nodes.get(b) as TreeNode;
      return na.createdAt < nb.createdAt ? -1 : na.createdAt > nb.createdAt ? 1 : a.localeCompare(b);
    });
  }
  for (const s of sessions) {
    const node = nodes.get(s.id.toLowerCase()) as TreeNode;
    node.subagents = (s.family?.subagents ?? []).map((claim) => {
      const child = claim.childId ? nodes.get(claim.childId) : undefined;
      return {
        id: claim.childId,
        archived: child !== undefined,
        title: child?.title,
        role: claim.role,
        type: claim.type,
        prompt: claim.prompt,
        stepKey: claim.stepKey,
        stepIndex: claim.stepIndex,
        agentIndex: claim.agentIndex,
        derivedFrom: claim.derivedFrom,
        messages: claim.messages,
        errors: claim.errors,
        ending: childEnding(claim.ending, byId.get(claim.childId ?? '')),
        inTree: child?.parent?.id === node.id,
      };
    });
  }
  const neighbours = new Map<string, Set<string>>();
  const link = (a: string, b: string): void => {
    if (a === b) return;
    for (const [x, y] of [[a, b], [b, a]] as const) {
      const set = neighbours.get(x) ?? new Set<string>();
      set.add(y);
      neighbours.set(x, set);
    }
  };
  for (const [childId, list] of candidates) for (const c of list) link(childId, c.parentId);
  for (const [id, cycle] of cycleOf) for (const other of cycle) link(id, other);
  for (const node of nodes.values()) node.neighbours = [...(neighbours.get(node.id) ?? [])].sort();

  const roots: string[] = [];
  const walk = (id: string, depth: number): number => {
    const node = nodes.get(id) as TreeNode;
    node.depth = depth;
    node.descendants = node.children.reduce((n, c) => n + 1 + walk(c, depth + 1), 0);
    return node.descendants;
  };
  for (const s of sessions) {
    const node = nodes.get(s.id.toLowerCase()) as TreeNode;
    if (!node.parent?.archived) {
      roots.push(node.id);
      walk(node.id, 0);
    }
  }
  let subagentSessions = 0;
  let orphans = 0;
  for (const node of nodes.values()) {
    if (node.parent) subagentSessions++;
    if (node.orphan) orphans++;
  }
  return { nodes, roots, subagentSessions, orphans, cycles: cycleOf.size };
}

/**
 * How a child ended: the parent's view (an error notice, its last message), else, when nothing arrived after the
 * start and the child is archived, what its own conversation says (its failed calls and agent errors).
 */
function childEnding(ending: SubagentEnding, child: TreeInput | undefined): SubagentEnding {
  if (ending.status !== 'started' || !child) return ending;
  // The one count (failed calls, then agent errors), as its own header says it; not its error steps, a third number.
  const failed = child.conversation?.failedCalls ?? 0;
  const agent = child.conversation?.agentErrors ?? 0;
  if (failed + agent === 0) return ending;
  const words = [failed > 0 ? failureWords.failedCalls(failed) : undefined, agent > 0 ? failureWords.agentErrors(agent) : undefined].filter(Boolean).join(', ');
  return { status: 'failed', line: `${words} in its own conversation`, at: ending.at };
}

/** The node of `id`, its parent chain up to the root (nearest first). */
export function ancestorsOf(tree: SessionTree, id: string): TreeNode[] {
  const out: TreeNode[] = [];
  let at = tree.nodes.get(id)?.parent;
  while (at?.archived && out.length < tree.nodes.size) {
    const node = tree.nodes.get(at.id);
    if (!node) break;
    out.push(node);
    at = node.parent;
  }
  return out;
}
