/**
 * The archive store keeps the conversation database (issue 29 point 4): its steps and model calls by id, so a
 * database deleted or rewritten keeps its models, tokens and extra steps; the shareable export redacts them.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverSessions, type Session } from '../../src/lib/brain/index.ts';
import { closeStoredReaders, listStoredSessions, openStore, readStoredSession, snapshotAll } from '../../src/lib/store/index.ts';
import { exportStore } from '../../src/lib/store/manage.ts';
import { sessionUsage } from '../../src/lib/turns/usage.ts';
import { stepRow } from '../../scripts/lib/conversation-db-writer.ts';
import { SESSION, writeFixtureHome } from '../brain/conversation-db-fixture.ts';
import { tempDir } from './helpers.ts';

afterEach(() => closeStoredReaders());

async function snapshotHome(store: string, home: string) {
  const db = openStore(store);
  try {
    return await snapshotAll(db, await discoverSessions({ geminiHome: home }));
  } finally {
    db.close();
  }
}

/** The stored session, read with its database on disk (when there is one) as a build reads it. */
async function readBack(store: string, home: string): Promise<Session> {
  closeStoredReaders();
  const info = listStoredSessions([store]).find((s) => s.ref.id === SESSION)!;
  const onDisk = (await discoverSessions({ geminiHome: home })).sessions.find((r) => r.id === SESSION);
  return readStoredSession(onDisk?.conversationDb ? { ...info.ref, conversationDb: onDisk.conversationDb } : info.ref);
}

const version = (store: string) => {
  const db = new DatabaseSync(store, { readOnly: true });
  try {
    return Number((db.prepare('SELECT version FROM sessions WHERE id = ?').get(SESSION) as { version: number }).version);
  } finally {
    db.close();
  }
};

describe('the store keeps the conversation database', () => {
  it('a deleted database keeps its models, tokens and database-only steps', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'store.sqlite');
    const { dbPath } = writeFixtureHome(home);
    await snapshotHome(store, home);
    const v = version(store);
    await snapshotHome(store, home);
    expect(version(store)).toBe(v); // nothing changed: not read again, not bumped
    rmSync(dbPath);
    await snapshotHome(store, home);
    const s = await readBack(store, home);
    expect(s.steps.map((st) => `${st.key} ${st.origin}`)).toEqual(['0 full', '1 full', '2 full', '3 db', '4 db']);
    expect(s.steps[2]!.db!.fullerText).toBe('a.txt\nb.txt\n');
    expect(sessionUsage(s)).toEqual({
      calls: 3,
      input: 19515,
      cache_read: 24514,
      output: 428,
      thinking: 323,
      by_model: { 'Gemini 3.5 Flash (Medium)': { calls: 3, input: 19515, cache_read: 24514, output: 428, thinking: 323 } },
    });
    expect(s.conversation!.prompt!.totalTokens).toBe(59070);
  });

  it('a rewritten database keeps the rows it lost, and shows what it holds now', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'store.sqlite');
    const { dbPath } = writeFixtureHome(home);
    await snapshotHome(store, home);
    const v = version(store);
    const db = new DatabaseSync(dbPath);
    db.exec('DELETE FROM steps WHERE idx >= 3; DELETE FROM gen_metadata WHERE idx >= 1');
    const { payload, metadata } = stepRow({ idx: 5, type: 17, status: 3, source: 5, created: '2026-06-18T13:40:00Z', body: [24, [[3, [[1, 'a new error']]]]] });
    db.prepare('INSERT INTO steps (idx, step_type, status, metadata, step_payload) VALUES (5, 17, 3, ?, ?)').run(metadata, payload);
    db.close();
    await snapshotHome(store, home);
    expect(version(store)).toBeGreaterThan(v);
    const s = await readBack(store, home);
    expect(s.steps.map((st) => `${st.key} ${st.origin}`)).toEqual(['0 full', '1 full', '2 full', '3 db', '4 db', '5 db']);
    expect(s.steps[5]!.content).toBe('a new error');
    expect(s.conversation!.calls.map((c) => c.row)).toEqual([0, 1, 2]);
  });

  it('a database without its brain folder is kept too, and stays when it is deleted', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'store.sqlite');
    const { dbPath } = writeFixtureHome(home, { withFolder: false });
    await snapshotHome(store, home);
    expect(listStoredSessions([store]).find((s) => s.ref.id === SESSION)?.notOnDiskSince).toBeUndefined();
    rmSync(dbPath);
    await snapshotHome(store, home);
    closeStoredReaders();
    const info = listStoredSessions([store]).find((s) => s.ref.id === SESSION)!;
    expect(info.notOnDiskSince).toBeDefined();
    const s = await readStoredSession(info.ref);
    expect(s.steps.map((st) => `${st.key} ${st.origin}`)).toEqual(['0 db', '1 db', '2 db', '3 db', '4 db']);
    expect(s.meta.title).toBe('list the files');
    expect(sessionUsage(s)!.input).toBe(19515);
    expect(s.problems.filter((p) => p.kind === 'unreadable')).toEqual([]);
  });

  it('the shareable export redacts the stored rows', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'store.sqlite');
    const { dbPath } = writeFixtureHome(home);
    const key = `AIzaSy${'B'.repeat(33)}`;
    const db = new DatabaseSync(dbPath);
    const { payload, metadata } = stepRow({ idx: 4, type: 15, status: 3, source: 2, created: '2026-06-18T13:32:11Z', body: [20, [[1, `use the key ${key} here`]]] });
    db.prepare('UPDATE steps SET step_payload = ?, metadata = ? WHERE idx = 4').run(payload, metadata);
    db.close();
    await snapshotHome(store, home);
    const raw = new DatabaseSync(store, { readOnly: true });
    expect(JSON.stringify(raw.prepare('SELECT data FROM conversation_rows').all())).toContain(key);
    raw.close();
    const out = path.join(dir, 'shared.sqlite');
    const source = openStore(store);
    try {
      await exportStore(source, out);
    } finally {
      source.close();
    }
    const shared = new DatabaseSync(out, { readOnly: true });
    const rows = shared.prepare("SELECT data FROM conversation_rows WHERE kind = 'step' AND idx = 4").all() as Array<{ data: string }>;
    shared.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.data).not.toContain(key);
    expect(JSON.parse(rows[0]!.data).content).toBe('use the key [REDACTED:google-api-key] here');
  });
});
