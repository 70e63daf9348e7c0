/**
 * Audit rows from real and demo sessions: commands with their sandbox flag and exit code (paired with the
 * RUN_COMMAND result step), file changes with line counts, errors with their code; lists and stats over them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import type { Session, Step } from '../../src/lib/brain/types.ts';
import { auditRows, commandOutcome } from '../../src/lib/audit/rows.ts';
import { allCommands, commandListPaths, fileGroups, paginate } from '../../src/lib/audit/lists.ts';
import { archiveStats } from '../../src/lib/audit/stats.ts';
import { summariseSession } from '../../src/lib/archive/summarise.ts';
import type { SessionRows, SessionSummary } from '../../src/lib/archive/schemas.ts';
import { changedPaths } from '../../src/lib/turns/file-changes.ts';
import { projectRoot } from '../helpers/build-site.ts';

const demoHome = path.join(projectRoot, 'fixtures', 'demo');
const realHome = path.resolve(projectRoot, '../shared/real-brains/gemini');

async function readHome(home: string): Promise<Session[]> {
  const discovery = await discoverSessions({ geminiHome: home });
  return Promise.all(discovery.sessions.map((ref) => readSession(ref)));
}

function rowsOf(sessions: Session[]): SessionRows[] {
  return sessions.map((s) =>
    summariseSession(s, [], false, { id: s.id, product: s.product, root: '', dir: s.dir, mtimeMs: 0, ctimeMs: 0 }),
  );
}

function summaries(sessions: Session[]): SessionSummary[] {
  return rowsOf(sessions).map((r) => r.session);
}

describe('audit rows of the demo sessions', () => {
  let sessions: Session[];
  beforeAll(async () => {
    sessions = await readHome(demoHome);
  });
  const byPrefix = (p: string) => sessions.find((s) => s.id.startsWith(p)) as Session;

  it('flags a command run with BypassSandbox (given as the JSON string "true" in the compact record)', () => {
    const rows = auditRows(byPrefix('7fc10e1b')).commands;
    const outside = rows.filter((c) => c.bypass);
    expect(outside.map((c) => c.command)).toEqual([`env | sort | grep -E '^(AWS|BILLING|FX|GITHUB|PYTEST)'`]);
    expect(outside[0]).toMatchObject({ key: '14', cwd: '/home/priya/src/billing-service', exitCode: 0, outcome: 'ok', resultKey: '15' });
  });

  it('gives a failing command its exit code from the RUN_COMMAND step that follows', () => {
    const failed = auditRows(byPrefix('04c6284a')).commands.filter((c) => c.failed);
    expect(failed).toEqual([
      expect.objectContaining({ key: '52', command: 'npx vitest run test/rate-limit.test.ts', exitCode: 1, outcome: 'failed', resultKey: '53' }),
    ]);
    const cancelled = auditRows(byPrefix('04c6284a')).commands.find((c) => c.command === 'REDIS_URL= npm run dev');
    expect(cancelled).toMatchObject({ outcome: 'cancelled', failed: false, resultKey: '66' });
    expect(cancelled?.exitCode).toBeUndefined();
  });

  it('lists file changes with lines added and removed, and errors with their error_code', () => {
    const audit = auditRows(byPrefix('04c6284a'));
    expect(audit.files.length).toBeGreaterThan(5);
    expect(audit.files.every((f) => f.path.startsWith('/'))).toBe(true);
    // Its failures as every page counts them: two failed calls (an edit, a test run) and one agent error.
    expect(audit.errors).toEqual([
      expect.objectContaining({ key: '39', type: 'CODE_ACTION', status: 'ERROR', failure: 'call', tool: 'replace_file_content', callKey: '38' }),
      expect.objectContaining({ key: '53', type: 'RUN_COMMAND', failure: 'call', tool: 'run_command', message: expect.stringMatching(/^AssertionError: expected '41' to be '60'/) }),
      expect.objectContaining({ key: '88', type: 'ERROR_MESSAGE', failure: 'agent', errorCode: '500', message: 'The model encountered an internal error.' }),
    ]);
    // The failed command's row says why, from the step's output.txt (the transcript cut the output short).
    expect(audit.commands.find((c) => c.failed)?.message).toMatch(/^AssertionError: expected '41' to be '60'/);
  });

  it('lists a failed edit as failed, with its message, and counts it in no "files changed"', () => {
    const session = byPrefix('04c6284a');
    const audit = auditRows(session);
    const failed = audit.files.filter((f) => f.failed);
    // Step 38's replace_file_content failed (its result, step 39, is status ERROR): listed, marked, with why.
    expect(failed).toEqual([expect.objectContaining({ key: '38', tool: 'replace_file_content', failed: true, message: expect.stringMatching(/\S/) })]);
    expect(audit.files.filter((f) => !f.failed).every((f) => f.failed === undefined && f.message === undefined)).toBe(true);
    // One definition: the header's count (the turn builder's) is the files list's count of edits that did not fail.
    const summary = summaries([session])[0] as SessionSummary;
    expect(summary.conversation?.filesChanged).toBe(changedPaths(audit.files).length);
    expect(changedPaths(audit.files)).toEqual([...new Set(audit.files.filter((f) => !f.failed).map((f) => f.path))]);
    // A path only a failed edit touched is not changed; a failed attempt adds no lines to its path's group.
    expect(changedPaths([{ path: '/a', failed: true }, { path: '/b' }, { path: '/b' }])).toEqual(['/b']);
    const groups = fileGroups([{ ...summary, audit }]);
    const group = groups.find((g) => g.path === failed[0]?.path);
    expect(group?.added).toBe(group?.changes.filter((c) => !c.failed).reduce((n, c) => n + c.added, 0));
  });

  it('flattens every session newest first, filters, groups by path and paginates', () => {
    const all = summaries(sessions);
    const commands = allCommands(all);
    const total = sessions.reduce((n, s) => n + auditRows(s).commands.length, 0);
    expect(commands).toHaveLength(total);
    for (let i = 1; i < commands.length; i++) expect((commands[i - 1]?.at ?? '') >= (commands[i]?.at ?? '')).toBe(true);
    const paths = commandListPaths(all);
    expect(paths.map((p) => p.params.path)).toEqual([undefined, 'outside-sandbox', 'failed']);
    expect(paths[1]?.props.page.items.every((c) => c.bypass)).toBe(true);
    expect(paths[2]?.props.page.total).toBe(commands.filter((c) => c.failed).length);
    const groups = fileGroups(all);
    expect(new Set(groups.map((g) => g.path)).size).toBe(groups.length);
    expect(paginate([1, 2, 3, 4, 5], 2).map((p) => [p.n, p.items])).toEqual([[1, [1, 2]], [2, [3, 4]], [3, [5]]]);
    expect(paginate([], 2)).toEqual([{ n: 1, pages: 1, total: 0, items: [] }]);
  });

  it('counts stats: sessions per day, tools, products, lengths', () => {
    const rows = rowsOf(sessions);
    const st = archiveStats(rows.map((r) => r.session));
    expect(st.sessions).toBe(sessions.length);
    expect(st.sessionsPer.reduce((n, d) => n + d.value, 0)).toBe(sessions.length);
    expect(st.stepsPer.reduce((n, d) => n + d.value, 0)).toBe(st.steps);
    expect(st.tools.find((t) => t.label === 'run_command')?.value).toBe(allCommands(summaries(sessions)).length);
    expect(st.lengths.reduce((n, d) => n + d.value, 0)).toBe(sessions.length);
    expect(st.products.map((p) => p.label).sort()).toEqual([...new Set(sessions.map((s) => s.product))].sort());
  });
});

describe('commandOutcome', () => {
  const step = (over: Partial<Step>): Step =>
    ({ key: '1', index: 1, occurrence: 0, position: 0, source: 'MODEL', type: 'RUN_COMMAND', status: 'DONE', toolCalls: [], extra: {}, truncatedFields: [], origin: 'full', sources: [], ...over }) as Step;
  it('reads the exit code from the field, else from the text', () => {
    expect(commandOutcome(step({ exitCode: 2 }))).toEqual({ exitCode: 2, outcome: 'failed' });
    expect(commandOutcome(step({ content: 'Created At: x\n\n\t\t\t\tThe command failed with exit code: 127\n' }))).toEqual({ exitCode: 127, outcome: 'failed' });
    expect(commandOutcome(step({ content: 'The command completed successfully.\nOutput:' }))).toEqual({ exitCode: 0, outcome: 'ok' });
    expect(commandOutcome(step({ status: 'RUNNING', content: 'Task Description: npm run dev' }))).toEqual({ outcome: 'running' });
    expect(commandOutcome(undefined)).toEqual({ outcome: 'unknown' });
  });
});

describe.skipIf(!existsSync(realHome))('audit rows of the real sessions', () => {
  let sessions: Session[];
  beforeAll(async () => {
    sessions = await readHome(realHome);
  });

  it('finds every run_command call, and pairs each with the result the turn builder gives it', () => {
    for (const s of sessions) {
      const calls = s.steps.flatMap((st) => st.toolCalls.filter((c) => c.name === 'run_command'));
      const rows = auditRows(s).commands;
      expect(rows, s.id).toHaveLength(calls.length);
      // A result is a step without calls of its own, of a tool-result type (jetski writes them all as GENERIC).
      const results = new Set(s.steps.filter((st) => st.toolCalls.length === 0 && !['USER_INPUT', 'PLANNER_RESPONSE', 'SYSTEM_MESSAGE', 'EPHEMERAL_MESSAGE', 'CHECKPOINT', 'CONVERSATION_HISTORY', 'KNOWLEDGE_ARTIFACTS'].includes(st.type)).map((st) => st.key));
      const paired = rows.flatMap((r) => (r.resultKey !== undefined ? [r.resultKey] : []));
      expect(paired.every((k) => results.has(k)), s.id).toBe(true);
      expect(new Set(paired).size, s.id).toBe(paired.length);
    }
    // Real session 846521af: 22 calls, 22 RUN_COMMAND results, exit codes only in the text.
    const cli = auditRows(sessions.find((s) => s.id.startsWith('846521af')) as Session).commands;
    expect(cli.filter((c) => c.resultKey).length).toBe(22);
    expect(cli.filter((c) => c.exitCode === 0).length).toBeGreaterThan(15);
    // Real jetski session ca4322d4 runs outside the sandbox and records its results as GENERIC steps saying
    // "The command exited with code N.": every command is paired and its exit code read.
    const jetski = auditRows(sessions.find((s) => s.id.startsWith('ca4322d4')) as Session).commands;
    expect(jetski.filter((c) => c.bypass).length).toBeGreaterThan(50);
    expect(jetski.filter((c) => c.resultKey !== undefined).length).toBe(jetski.length);
    expect(jetski.filter((c) => c.exitCode !== undefined).length).toBe(jetski.length);
    expect(jetski.filter((c) => c.outcome === 'failed').map((c) => [c.key, c.exitCode])).toEqual([['67', 1], ['262', 1]]);
  });

  it('keeps the rows lean (bounded previews)', () => {
    for (const s of sessions) {
      const audit = auditRows(s);
      expect(audit.commands.every((c) => c.command.length <= 240)).toBe(true);
      const perRow = JSON.stringify(audit).length / Math.max(1, audit.commands.length + audit.files.length + audit.errors.length);
      expect(perRow, s.id).toBeLessThan(1000);
    }
  });
});
