/**
 * Sessions written by other Antigravity versions: `overview.txt` as a log of its own tier (the only log before about
 * late May 2026, the beginning of some later sessions), dates and titles from the records, a folder of artifacts
 * with no log, step files no log holds. Fixture cases first, then the real sessions of ../shared/real-eras
 * (skipped when absent): every step number of every log is a step, the requests and replies are there, the dates
 * are the records'.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSessions, readSession, type Session } from '../../src/lib/brain/index.ts';
import { sessionTurns } from '../../src/lib/turns/index.ts';
import { casesDir, keys, readCase } from './helpers.ts';

const OVERVIEW = '.system_generated/logs/overview.txt';

describe('overview.txt', () => {
  it('is read as a log when it is the only one: every record a step, shown from it, its cuts named', async () => {
    const s = await readCase('overview-only');
    expect(s.transcriptFiles).toEqual([OVERVIEW]);
    expect(keys(s)).toEqual(['0', '4', '8', '11', '12', '14', '15']);
    expect(s.steps.every((st) => st.origin === 'overview' && st.sources[0]?.transcript === 'overview')).toBe(true);
    expect(s.steps.map((st) => st.sources[0]?.line)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Arguments are JSON-encoded as in the compact transcript; a cut one stays marked.
    expect(s.steps[1]?.toolCalls[0]?.args).toMatchObject({ AbsolutePath: 'C:\\work\\board\\app.js', StartLine: 1 });
    expect(s.steps[2]?.truncatedFields).toEqual(['tool_calls']);
    expect(s.steps[2]?.toolCalls[0]?.truncatedArgs).toEqual(['CodeContent']);
    // The log has no truncated_fields: a content ending in the marker is a cut content.
    expect(s.steps[5]?.truncatedFields).toEqual(['content']);
    expect(s.steps[0]?.truncatedFields).toEqual([]);
    expect(s.meta.title).toBe('Make the board editable.');
    expect(s.meta.requests).toEqual(['Make the board editable.', 'Thanks']);
    expect(s.meta.model).toBe('Gemini 3 Flash');
    expect(s.meta.createdAt).toBe('2026-05-06T09:00:00.000Z');
    expect(s.meta.createdAtFrom).toBeUndefined();
    expect(s.missingSteps).toEqual([]);
    // The report says the steps come from the older log alone, and what that log leaves out.
    expect(s.problems.filter((p) => p.file === OVERVIEW).map((p) => p.kind)).toEqual(['notice']);
    expect(s.problems.find((p) => p.file === OVERVIEW)?.message).toMatch(/^7 steps are read from .*overview\.txt alone/);
  });

  it('gives a session its beginning when transcript.jsonl takes over later; compact wins where both hold a step', async () => {
    const s = await readCase('overview-then-compact');
    expect(s.transcriptFiles).toEqual(['.system_generated/logs/transcript.jsonl', OVERVIEW]);
    expect(keys(s)).toEqual(['0', '3', '5', '6', '7', '8']);
    expect(s.steps.map((st) => st.origin)).toEqual(['overview', 'overview', 'compact', 'compact', 'compact', 'compact']);
    const five = s.steps[2];
    // The compact record wins (whole text), and the overview record is listed beside it.
    expect(five?.content).toContain('both pass on the first run');
    expect(five?.truncatedFields).toEqual([]);
    expect(five?.sources.map((x) => `${x.transcript}:${x.line}`)).toEqual(['compact:1', 'overview:3']);
    expect(s.meta.title).toBe('Set up the project.');
    expect(s.meta.createdAt).toBe('2026-06-10T10:00:00.000Z');
    // Steps 0–4 are not "never captured": overview.txt holds them.
    expect(s.missingSteps).toEqual([]);
  });
});

describe('overview.txt that contradicts the transcript (fixtures/cases/overview-contradicts)', () => {
  it('shows the transcript, joins each overview record to its step, and reports both disagreements', async () => {
    const s = await readCase('overview-contradicts');
    // The overview's USER_INPUT at step 1 was a step of its own: a user turn nobody typed.
    expect(keys(s)).toEqual(['0', '1', '2', '3']);
    expect(s.steps.filter((st) => st.type === 'USER_INPUT')).toHaveLength(1);
    expect(s.steps[1]?.type).toBe('PLANNER_RESPONSE');
    expect(s.steps[1]?.sources.map((x) => `${x.transcript}:${x.line}`)).toEqual(['full:2', 'overview:2']);
    expect(s.steps[3]?.content).toBe('The deploy failed: make exited 1.');
    expect(s.problems.map((p) => `${p.kind} ${p.file}:${p.line}`)).toEqual([`conflict ${OVERVIEW}:2`, `conflict ${OVERVIEW}:3`]);
    expect(s.problems[0]?.message).toContain('says step 1 is USER_EXPLICIT USER_INPUT; .system_generated/logs/transcript_full.jsonl line 2 says MODEL PLANNER_RESPONSE');
    expect(s.problems[1]?.message).toContain('holds other text for step 3 than .system_generated/logs/transcript_full.jsonl line 4');
  });

  it('takes a cut overview text that the transcript goes on from as agreeing', async () => {
    const s = await readCase('overview-then-compact');
    expect(s.problems.filter((p) => p.kind === 'conflict')).toEqual([]);
  });
});

describe('dates, titles and folders without a log', () => {
  it('dates and titles a folder of artifacts by the artifacts, and says where the date came from', async () => {
    const s = await readCase('artifacts-only');
    expect(s.steps).toEqual([]);
    expect(s.transcriptFiles).toEqual([]);
    expect(s.meta.title).toBe('Walkthrough of the landing page');
    expect(s.meta.createdAt).toBe('2026-05-07T12:00:00.000Z');
    expect(s.meta.createdAtFrom).toBe('artifacts');
  });

  it('falls back to the folder time only when nothing is dated, and says so', async () => {
    const s = await readCase('empty-session');
    expect(s.meta.createdAtFrom).toBe('folder');
  });
});

describe('step files no log holds', () => {
  it('stand as a step of their own, marked, keyed apart from every record key, where their number falls', async () => {
    const s = await readCase('step-files-without-record');
    expect(keys(s)).toEqual(['0', '3', '4-files', '5']);
    expect(s.steps.map((st) => st.position)).toEqual([0, 1, 2, 3]);
    const four = s.steps[2];
    expect(four).toMatchObject({ index: 4, type: 'STEP_FILES_ONLY', origin: 'step-files', stepFilesOnly: true, sources: [] });
    expect(four?.output).toEqual({ file: '.system_generated/steps/4/output.txt', text: 'Encountered error in step execution: context canceled\n', duplicateOfContent: false });
    expect(four?.contentMd?.file).toBe('.system_generated/steps/4/content.md');
    expect(s.unattachedStepFiles?.map((f) => f.index)).toEqual([4]);
    // It answers no call (nothing says it was step 3's result) and its row says what it is.
    const t = sessionTurns(s);
    expect(t.calls[0]?.resultStepKey).toBeUndefined();
    expect(t.steps[2]?.summary).toBe('Step files only, no log record: Encountered error in step execution: context canceled');
  });

  it('past the last record go last', async () => {
    const s = await readCase('output-duplicate');
    expect(keys(s).at(-1)).toBe('9-files');
  });
});

// The shared real sessions, beside the project (../shared) or beside its worktree folder (../../shared).
const realEras = [path.resolve(casesDir, '../../../shared/real-eras/gemini'), path.resolve(casesDir, '../../../../shared/real-eras/gemini')].find((p) => existsSync(p));

/** Every step_index of every log of a real session folder, counted here apart from the reader. */
function stepIndexesOnDisk(dir: string): { indexes: Set<number>; firstAt?: string; requests: number } {
  const logs = ['transcript.jsonl', 'transcript_full.jsonl', 'overview.txt', 'chunks/transcript/00000000.jsonl'];
  const indexes = new Set<number>();
  let firstAt: string | undefined;
  let requests = 0;
  for (const log of logs) {
    const file = path.join(dir, '.system_generated/logs', log);
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const rec = JSON.parse(line) as { step_index: number; created_at?: string; type?: string; content?: string };
      indexes.add(rec.step_index);
      if (rec.created_at && (firstAt === undefined || rec.created_at < firstAt)) firstAt = rec.created_at;
      if (log !== 'transcript_full.jsonl' && rec.type === 'USER_INPUT' && rec.content?.includes('<USER_REQUEST>')) requests++;
    }
  }
  return { indexes, firstAt, requests };
}

describe.skipIf(realEras === undefined)('the real sessions of other versions (real-eras)', () => {
  it('reads every step number of every log, the requests and the replies, dated by the records', async () => {
    const home = realEras as string;
    const { sessions } = await discoverSessions({ geminiHome: home });
    expect(sessions.length).toBe(3);
    for (const ref of sessions) {
      const s: Session = await readSession(ref);
      const disk = stepIndexesOnDisk(ref.dir);
      const read = new Set(s.steps.filter((st) => !st.stepFilesOnly).map((st) => st.index));
      expect([...disk.indexes].filter((i) => !read.has(i)), ref.id).toEqual([]);
      expect(s.meta.requests.length, ref.id).toBe(disk.requests);
      expect(s.steps.filter((st) => st.type === 'PLANNER_RESPONSE' && st.content).length, ref.id).toBeGreaterThan(0);
      expect(s.meta.createdAt, ref.id).toBe(new Date(disk.firstAt as string).toISOString());
      expect(s.meta.createdAtFrom, ref.id).toBeUndefined();
      expect(s.meta.title, ref.id).not.toBe(ref.id);
      if (readdirSync(path.join(ref.dir, '.system_generated/logs')).includes('overview.txt')) {
        expect(s.transcriptFiles, ref.id).toContain(OVERVIEW);
      }
    }
  });

  it('counts what the README says of the two overview-only sessions', async () => {
    const home = realEras as string;
    const { sessions } = await discoverSessions({ geminiHome: home });
    const byId = new Map<string, Session>();
    for (const ref of sessions) byId.set(ref.id, await readSession(ref));
    const b196 = byId.get('b1966f3f-61e3-430e-9371-75d1d9e4bc95');
    const d009 = byId.get('00986dca-d49e-4f74-8bac-8c74014f89b1');
    expect(b196?.steps.length).toBe(71);
    expect(b196?.steps.at(-1)?.index).toBe(158);
    expect(d009?.steps.length).toBe(131);
    expect(d009?.steps.at(-1)?.index).toBe(346);
    expect(d009?.meta.title).toBe('setup gemma locally');
    expect(d009?.meta.createdAt).toBe('2026-05-03T17:35:01.000Z');
  });
});
