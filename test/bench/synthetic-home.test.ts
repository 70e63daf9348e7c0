/**
 * The benchmark's synthetic home must be something the reader takes as real data: no bad lines, every timeline
 * entry the generator meant, and the survey's awkward features (cut arguments, rewinds, RUNNING→DONE, outputs,
 * artifact versions, compact/full over different stretches) actually present.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticHome, type SyntheticHome } from '../../scripts/bench/synthetic-home.ts';
import { discoverSessions, readSession, type Session } from '../../src/lib/brain/index.ts';

let dir: string;
let home: SyntheticHome;
let sessions: Session[];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'agy-synthetic-'));
  home = writeSyntheticHome(dir, { steps: 1200, seed: 7 });
  const discovery = await discoverSessions({ geminiHome: dir });
  sessions = await Promise.all(discovery.sessions.map((ref) => readSession(ref)));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('writeSyntheticHome', () => {
  it('writes the same bytes for the same seed', () => {
    const again = mkdtempSync(path.join(os.tmpdir(), 'agy-synthetic-'));
    try {
      const second = writeSyntheticHome(again, { steps: 1200, seed: 7 });
      const first = home.sessions[0];
      const twin = second.sessions[0];
      expect(twin?.id).toBe(first?.id);
      const rel = '.system_generated/logs/transcript.jsonl';
      expect(readFileSync(path.join(twin!.dir, rel), 'utf8')).toBe(readFileSync(path.join(first!.dir, rel), 'utf8'));
      // The databases too (a -wal differs only by the random salt SQLite gives each log, so the .db files are compared).
      const withDb = home.sessions.filter((s) => s.database).map((s) => s.database!.path);
      expect(withDb.length).toBeGreaterThan(0);
      for (const file of withDb) expect(readFileSync(file.replace(dir, again)).equals(readFileSync(file)), file).toBe(true);
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });

  it('spreads the steps over several products and sessions of different sizes', () => {
    expect(home.sessions.reduce((n, s) => n + s.entries, 0)).toBe(1200);
    expect(new Set(home.sessions.map((s) => s.product)).size).toBeGreaterThanOrEqual(3);
    const sizes = home.sessions.map((s) => s.entries).filter((n) => n > 0);
    expect(Math.max(...sizes)).toBeGreaterThan(3 * Math.min(...sizes));
  });

  it('reads with no bad lines and exactly the timeline entries it meant', () => {
    expect(sessions).toHaveLength(home.sessions.length);
    const bad = sessions.flatMap((s) => s.problems).filter((p) => p.kind === 'bad-line' || p.kind === 'bad-record' || p.kind === 'bad-json');
    expect(bad).toEqual([]);
    const byId = new Map(sessions.map((s) => [s.id, s]));
    for (const written of home.sessions) {
      // The steps only a conversation database holds (a checkpoint, steps after the transcripts stop) come on top.
      expect({ id: written.id, steps: byId.get(written.id)?.steps.length }).toEqual({ id: written.id, steps: written.entries + (written.database?.dbOnlySteps ?? 0) });
    }
  });

  it('gives the later half of the sessions a conversation database that joins its transcripts with no conflict', () => {
    const byId = new Map(sessions.map((s) => [s.id, s]));
    const withSteps = home.sessions.filter((s) => s.entries > 0);
    const firstWithDb = withSteps.findIndex((s) => s.database);
    expect(firstWithDb).toBeGreaterThan(0);
    expect(withSteps.slice(firstWithDb).every((s) => s.database)).toBe(true);
    expect(home.databases.count).toBe(withSteps.length - firstWithDb);
    for (const written of home.sessions) {
      const read = byId.get(written.id)!;
      if (!written.database) {
        expect(read.conversation).toBeUndefined();
        continue;
      }
      const db = read.conversation!;
      expect({ id: written.id, rows: db.stepRows, calls: db.calls.length }).toEqual({ id: written.id, rows: written.database.steps, calls: written.database.calls });
      expect(db.withWal).toBe(written.database.wal);
      // Every call names its model; the ones that did not fail have tokens, the last holds the prompt's breakdown.
      expect(db.calls.every((c) => c.modelName !== undefined)).toBe(true);
      expect(db.calls.filter((c) => c.hasUsage).every((c) => c.input > 0 && c.output === c.thinking + c.visible && c.modelId)).toBe(true);
      expect(db.prompt?.sections.map((s) => s.section)).toEqual(['System Prompt', 'Tools', 'Chat Messages']);
      // Each transcript step of a type the database has a number for is joined to its row.
      expect(read.steps.filter((s) => s.db && s.origin !== 'db').length).toBeGreaterThan(written.entries / 2);
      expect(read.steps.filter((s) => s.origin === 'db')).toHaveLength(written.database.dbOnlySteps);
      // No problem a real database would not give: only the notice naming the steps no transcript holds.
      const dbProblems = read.problems.filter((p) => p.file.startsWith('conversations/'));
      expect(dbProblems.filter((p) => !/in the conversation database and in no transcript/.test(p.message))).toEqual([]);
    }
    const dbs = home.sessions.flatMap((s) => (s.database ? [s.database] : []));
    expect(dbs.some((d) => d.wal)).toBe(true);
    expect(dbs.some((d) => d.dbOnlySteps > 1)).toBe(true);
  });

  it('writes the same transcripts without the databases', () => {
    const again = mkdtempSync(path.join(os.tmpdir(), 'agy-synthetic-'));
    try {
      const bare = writeSyntheticHome(again, { steps: 1200, seed: 7, databases: false });
      expect(bare.databases.count).toBe(0);
      const last = home.sessions.findLast((s) => s.database)!;
      const twin = bare.sessions.find((s) => s.id === last.id)!;
      const rel = '.system_generated/logs/transcript.jsonl';
      expect(readFileSync(path.join(twin.dir, rel), 'utf8')).toBe(readFileSync(path.join(last.dir, rel), 'utf8'));
      expect(existsSync(path.join(again, last.product, 'conversations'))).toBe(false);
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });

  it('has the survey features: cut arguments, rewinds, RUNNING→DONE, outputs, artifact versions, stretches', () => {
    const steps = sessions.flatMap((s) => s.steps);
    // Compact-only steps keep their cut arguments, decoded where possible, and say so.
    expect(steps.some((s) => s.toolCalls.some((c) => c.truncatedArgs.length > 0))).toBe(true);
    expect(steps.some((s) => s.truncatedFields.includes('content'))).toBe(true);
    // Full steps carry native values (booleans, numbers), not JSON-encoded strings.
    expect(steps.some((s) => s.origin !== 'compact' && s.toolCalls.some((c) => typeof c.args.Overwrite === 'boolean'))).toBe(true);
    // A reused index gets a `<index>-<k>` key; a RUNNING record rewritten DONE is one step with two sources.
    expect(home.sessions.some((s) => s.rewinds > 0)).toBe(true);
    expect(steps.some((s) => s.occurrence > 0 && s.key === `${s.index}-${s.occurrence}`)).toBe(true);
    expect(steps.some((s) => s.type === 'RUN_COMMAND' && s.status === 'DONE' && s.sources.length >= 2)).toBe(true);
    expect(steps.some((s) => s.output !== undefined)).toBe(true);
    expect(sessions.some((s) => s.artifacts.some((a) => a.versions.length > 1 && a.metadata !== undefined))).toBe(true);
    expect(sessions.some((s) => s.messages.length > 0)).toBe(true);
    expect(sessions.some((s) => s.taskLogs.length > 0)).toBe(true);
    const stretches = new Set(home.sessions.map((s) => s.stretch));
    expect(stretches.has('same')).toBe(true);
    expect(stretches.has('compact-only')).toBe(true);
    expect(steps.some((s) => s.origin === 'full') || steps.some((s) => s.origin === 'compact')).toBe(true);
  });
});
