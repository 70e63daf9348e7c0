/**
 * Sessions that belong together (issue 14): each session's own evidence, the tree joined over every session, the
 * background tasks grouped and the thread grouped by sender. On the demo home, the family cases and, when present,
 * the real sessions d493099f (a subagent team) and 86033144 (1,179 messages, two recurring tasks).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { discoverSessions, readSession, type Session } from '../../src/lib/brain/index.ts';
import { groupBackgroundTasks } from '../../src/lib/family/background-tasks.ts';
import { familyEvidence } from '../../src/lib/family/evidence.ts';
import { groupBySender } from '../../src/lib/family/senders.ts';
import { ancestorsOf, buildSessionTree, type TreeInput } from '../../src/lib/family/tree.ts';
import { sessionTurns } from '../../src/lib/turns/index.ts';
import { casesDir, caseId, projectRoot } from '../brain/helpers.ts';

// Beside the project (../shared, as for the conformance tests) or beside its worktree folder (../../shared).
const REAL = ['..', '../..'].map((up) => path.resolve(projectRoot, up, 'shared/real-brains/gemini')).find((p) => existsSync(p)) ?? '';
const hasReal = REAL !== '';

const PARENT = '5b1e0c2a-7d4f-4c1e-9a63-2f8d4e6b1c07';
const WRITER = 'a3c9e1f4-2b7d-4e58-8c16-9d0f3b2a7e51';
const CHECKER = 'c7d2f8b3-6e1a-4f94-b2c5-0a8e7d3f1b96';

async function readHome(home: string, only?: (id: string) => boolean): Promise<Session[]> {
  const d = await discoverSessions({ geminiHome: home });
  return Promise.all(d.sessions.filter((r) => !only || only(r.id)).map((r) => readSession(r)));
}

function treeInputs(sessions: Session[]): TreeInput[] {
  return sessions.map((s) => ({ id: s.id, title: s.meta.title, createdAt: s.meta.createdAt, errorCount: s.meta.errorCount, family: familyEvidence(s) }));
}

describe('the demo family: a parent, two subagents (one failing), two background tasks', () => {
  let sessions: Session[];
  beforeAll(async () => {
    sessions = await readHome(path.join(projectRoot, 'fixtures', 'demo'));
  });
  const byId = (id: string) => sessions.find((s) => s.id === id) as Session;

  it('reads each subagent of the invoke_subagent call with the conversation id its result names', () => {
    const claims = familyEvidence(byId(PARENT)).subagents;
    expect(claims.map((c) => [c.childId, c.role, c.type, c.stepKey, c.agentIndex, c.derivedFrom.join('+'), c.ending.status])).toEqual([
      [WRITER, 'Changelog writer', 'self', '1', 0, 'invoke_subagent+subagent-message', 'reported'],
      [CHECKER, 'Link checker', 'browser', '1', 1, 'invoke_subagent+subagent-error', 'failed'],
    ]);
    expect(claims[1]?.ending.line).toBe('RESOURCE_EXHAUSTED (code 429): Resource has been exhausted (e.g. check quota).');
  });

  it('nests both children under the parent, each link saying what it was derived from', () => {
    const tree = buildSessionTree(treeInputs(sessions));
    const parent = tree.nodes.get(PARENT);
    expect(parent?.children).toEqual([WRITER, CHECKER]);
    expect(parent?.descendants).toBe(2);
    expect(tree.roots).not.toContain(WRITER);
    const writer = tree.nodes.get(WRITER);
    expect(writer?.parent).toMatchObject({ id: PARENT, archived: true, stepKey: '1', role: 'Changelog writer' });
    expect(writer?.parent?.derivedFrom).toEqual(['invoke_subagent', 'opening-message', 'subagent-message']);
    expect(writer?.depth).toBe(1);
    expect(ancestorsOf(tree, CHECKER).map((n) => n.id)).toEqual([PARENT]);
    expect(tree.subagentSessions).toBe(2);
    expect(tree.orphans).toBe(0);
    // The landing-page session's browser subagent result names no conversation id: listed, linked to nothing.
    const landing = tree.nodes.get('1ef4ccf5-dd2a-4e44-90c2-4e0fc2ed9baf');
    expect(landing?.children).toEqual([]);
    expect(landing?.subagents.map((c) => [c.id, c.role, c.archived, c.ending.status])).toEqual([[undefined, 'Visual QA reviewer', false, 'finished']]);
  });

  it('groups the cron task (12 triggers, no end yet) and the docs build (finished, exit 0, with its log)', () => {
    const tasks = groupBackgroundTasks(byId(PARENT));
    expect(tasks.map((t) => [t.number, t.label, t.start?.tool, t.start?.stepKey, t.start?.callStepKey, t.messages, t.end?.status, t.end?.exitCode, t.log?.file])).toEqual([
      [4, 'Watch the nightly build', 'schedule', '4', '3', 12, undefined, undefined, '.system_generated/tasks/task-4.log'],
      [6, 'Build the docs site', 'run_command', '6', '5', 1, 'ok', 0, '.system_generated/tasks/task-6.log'],
    ]);
    expect(tasks[0]?.notices).toMatchObject([{ title: 'Watch the nightly build: Cron trigger #…', count: 12, firstNumber: 1, lastNumber: 12 }]);
    expect(tasks[1]?.start?.description).toBe('npm run docs:build');
  });

  it('groups the thread by sender with counts', () => {
    expect(groupBySender(byId(PARENT).messages).map((g) => [g.kind, g.count, g.titles.map((t) => `${t.title} ×${t.count}`).join('; ')])).toEqual([
      ['system', 1, 'Error from Link checker (browser) ×1'],
      ['session', 1, 'Message from Changelog writer (self) ×1'],
      ['task', 12, 'Watch the nightly build: Cron trigger #… ×12'],
      ['task', 1, 'Build the docs site finished ×1'],
    ]);
  });
});

describe('fixture cases: an orphan and a cycle', () => {
  it('keeps a child whose parent is not archived as a root marked orphan', async () => {
    const sessions = await readHome(path.join(casesDir, 'family-orphan'));
    const tree = buildSessionTree(treeInputs(sessions));
    const node = tree.nodes.get(caseId(21));
    expect(tree.roots).toEqual([caseId(21)]);
    expect(node).toMatchObject({ orphan: true, depth: 0, parent: { id: caseId(99), archived: false, derivedFrom: ['opening-message'] } });
    expect(tree.orphans).toBe(1);
  });

  it('breaks a cycle at its earliest session, which stays a root marked with the cycle', async () => {
    const sessions = await readHome(path.join(casesDir, 'family-cycle'));
    const tree = buildSessionTree(treeInputs(sessions));
    const [a, b] = [caseId(22), caseId(23)];
    expect(tree.roots).toEqual([a]);
    expect(tree.nodes.get(a)).toMatchObject({ cycle: [a, b], children: [b], depth: 0 });
    expect(tree.nodes.get(a)?.parent).toBeUndefined();
    expect(tree.nodes.get(b)?.parent).toMatchObject({ id: a, derivedFrom: ['subagent-message'], role: 'Reviewer' });
    expect(tree.cycles).toBe(1);
  });

  it('draws no link from an untitled message of another session (either could have started the other)', () => {
    const tree = buildSessionTree([
      { id: caseId(31), title: 'a', createdAt: '2026-01-01T00:00:00Z', family: { subagents: [], backgroundTasks: 0 } },
      { id: caseId(32), title: 'b', createdAt: '2026-01-01T00:01:00Z', family: { subagents: [], backgroundTasks: 0 } },
    ]);
    expect(tree.roots).toEqual([caseId(31), caseId(32)]);
  });
});

describe.skipIf(!hasReal)('real sessions', () => {
  let team: Session;
  let cron: Session;
  beforeAll(async () => {
    team = (await readHome(REAL, (id) => id.startsWith('d493099f')))[0] as Session;
    cron = (await readHome(REAL, (id) => id.startsWith('86033144')))[0] as Session;
  }, 120_000);

  it('d493099f: three subagents from their messages and the error notices, none archived here', () => {
    const claims = familyEvidence(team).subagents;
    expect(claims.map((c) => [c.childId?.slice(0, 8), c.role, c.type, c.messages, c.errors, c.derivedFrom.join('+'), c.ending.status]).sort()).toEqual([
      ['1ad17420', 'EP09安全边际文章写作', 'self', 1, 0, 'subagent-message', 'reported'],
      ['849d95b3', '并行创作团队', 'teamwork_preview', 18, 66, 'subagent-error+subagent-message', 'failed'],
      ['ea848974', 'EP10因子投资文章写作', 'self', 1, 0, 'subagent-message', 'reported'],
    ]);
    // Messages name the child's step (its send_message), not the parent's: no parent step is claimed.
    expect(claims.every((c) => c.stepKey === undefined)).toBe(true);
    const tree = buildSessionTree(treeInputs([team]));
    expect(tree.nodes.get(team.id)?.subagents.map((c) => c.archived)).toEqual([false, false, false]);
    expect(tree.nodes.get(team.id)?.parent).toBeUndefined();
  });

  it('d493099f: a background push started in the transcript ends with exit 0 and its log; an SSH check failed with 1', () => {
    const tasks = groupBackgroundTasks(team);
    const push = tasks.find((t) => t.number === 1468);
    expect(push).toMatchObject({ label: '推送到GitHub', start: { tool: 'run_command', stepKey: '1468', derivedFrom: 'transcript' }, end: { status: 'ok', exitCode: 0 }, log: { name: 'task-1468' } });
    expect(tasks.find((t) => t.number === 872)?.end).toMatchObject({ status: 'failed', exitCode: 1 });
    expect(tasks.find((t) => t.number === 1474)?.end?.status).toBe('cancelled');
    // With the turn builder's pairing the starts are its calls; on this session both ways find the same steps.
    const paired = groupBackgroundTasks({ ...team, calls: sessionTurns(team).calls });
    const starts = (list: typeof tasks) => list.filter((t) => t.start?.derivedFrom === 'transcript').map((t) => `${t.number}:${t.start?.callStepKey}:${t.start?.tool}`);
    expect(starts(paired)).toEqual(starts(tasks));
    expect(starts(paired)).toContain('1474:1473:schedule');
  });

  it('86033144: the two recurring tasks are two groups of 229 and 226 counted notices', () => {
    const tasks = groupBackgroundTasks(cron);
    const counted = (n: number) => tasks.find((t) => t.number === n)?.notices.map((x) => [x.title, x.count, x.firstNumber, x.lastNumber]);
    expect(counted(4215)).toEqual([['Schedule recurring execution: Cron trigger #…', 229, 1, 229]]);
    expect(counted(4252)).toEqual([['Recurring scan schedule: Cron trigger #…', 226, 1, 226]]);
    const senders = groupBySender(cron.messages);
    expect(senders.reduce((n, g) => n + g.count, 0)).toBe(cron.messages.length);
    expect(senders.find((g) => g.taskNumber === 4215)?.count).toBe(229);
  });
});

describe("a subagent's ending from its own conversation (issue 28: the one failure count)", () => {
  const claim = { childId: 'child', derivedFrom: ['invoke_subagent' as const], messages: 0, errors: 0, ending: { status: 'started' as const, line: '' } };
  const tree = (conversation?: TreeInput['conversation']) =>
    buildSessionTree([
      { id: 'parent', title: 'Parent', createdAt: '2026-08-01T00:00:00Z', family: { subagents: [claim], backgroundTasks: 0 } },
      { id: 'child', title: 'Child', createdAt: '2026-08-01T00:01:00Z', errorCount: 7, ...(conversation ? { conversation } : {}) },
    ]);

  it('says its failed calls and agent errors, never its error steps', () => {
    expect(tree({ failedCalls: 2, agentErrors: 1 }).nodes.get('parent')?.subagents[0]?.ending).toEqual({ status: 'failed', line: '2 failed calls, 1 agent error in its own conversation' });
    expect(tree({ failedCalls: 1 }).nodes.get('parent')?.subagents[0]?.ending.line).toBe('1 failed call in its own conversation');
    // Seven error steps and no failure by the one count: still only started.
    expect(tree({ failedCalls: 0, agentErrors: 0 }).nodes.get('parent')?.subagents[0]?.ending).toEqual({ status: 'started', line: '' });
  });
});
