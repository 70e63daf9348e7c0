import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileHome, HOSTILE, SHORT, makeHostileHome } from '../../scripts/make-hostile-home.ts';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import type { Problem, Session } from '../../src/lib/brain/types.ts';
import { redactSession } from '../../src/lib/redact/index.ts';
import { containsString } from './strings.ts';

let tmp: string;
let hostile: HostileHome;
const sessions = new Map<string, Session>();

/** Reads a session, failing (instead of hanging the run) if the reader blocks, e.g. on a FIFO. */
function readWithin(ms: number, ...args: Parameters<typeof readSession>): Promise<Session> {
  return Promise.race([
    readSession(...args),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`readSession blocked for ${ms} ms`)), ms)),
  ]);
}

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'agy-hostile-'));
  hostile = await makeHostileHome(tmp);
  const discovery = await discoverSessions({ geminiHome: hostile.home });
  for (const ref of discovery.sessions) sessions.set(ref.id, await readWithin(30_000, ref));
}, 120_000);

afterAll(async () => {
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

const problemsOf = (id: string): Problem[] => sessions.get(id)?.problems ?? [];
const has = (id: string, kind: Problem['kind'], file: string, line?: number) =>
  problemsOf(id).some((p) => p.kind === kind && p.file === file && (line === undefined || p.line === line));

describe('the reader over the hostile home', () => {
  it('reads every session without throwing or blocking', () => {
    expect([...sessions.keys()].sort()).toEqual(Object.values(hostile.sessions).sort());
  });

  it('never returns anything from outside a session folder', () => {
    for (const session of sessions.values()) expect(containsString(session, hostile.outsideMarker)).toBe(false);
  });

  it('reports every symlink out of the session (files and folders) with its file', () => {
    const id = hostile.sessions.markup;
    for (const file of [
      'leak.md', 'leak.md.resolved.0', 'leak.md.metadata.json', '.system_generated/steps/2/output.txt',
      '.system_generated/tasks/leak.log', '.system_generated/messages/0badc0de-1111-4000-8000-00000000dead.json',
      '.user_uploaded/leak.png', 'scratch/outside-folder', 'scratch/outside-root',
    ]) {
      expect(has(id, 'symlink-outside', file), file).toBe(true);
    }
    expect(has(hostile.sessions.unreadable, 'symlink-outside', '.system_generated/tasks')).toBe(true);
    // A symlinked folder on the way to a transcript is confined too, not only a symlinked file.
    expect(has(hostile.sessions.linkedLogs, 'symlink-outside', '.system_generated/logs/transcript.jsonl')).toBe(true);
    expect(sessions.get(hostile.sessions.linkedLogs)!.steps).toEqual([]);
  });

  it('keeps tool calls named like Object.prototype members, or not named by a string, as data', () => {
    const step = sessions.get(hostile.sessions.markup)!.steps.find((s) => s.index === 8)!;
    expect(step.toolCalls.map((c) => c.name)).toEqual(['constructor', '__proto__', 'toString', '{"toString":1}']);
    const counts = sessions.get(hostile.sessions.markup)!.meta.toolCounts;
    expect(Object.getOwnPropertyNames(counts)).toEqual(expect.arrayContaining(['constructor', '__proto__', 'toString']));
    expect(counts.constructor).toBe(1);
  });

  it('reports files that cannot be read (a folder, a dangling link), and keeps the rest of the session', () => {
    const id = hostile.sessions.unreadable;
    expect(has(id, 'unreadable', '.system_generated/logs/transcript.jsonl')).toBe(true);
    expect(has(id, 'unreadable', '.system_generated/logs/transcript_full.jsonl')).toBe(true);
    expect(sessions.get(id)!.artifacts.map((a) => a.name)).toContain('task.md');
    // FIFOs are never opened (that would block) but are not silently dropped either.
    expect(has(id, 'unreadable', '.system_generated/messages/0badc0de-2222-4000-8000-000000000001.json')).toBe(true);
    expect(has(id, 'unreadable', 'fifo.md')).toBe(true);
    expect(has(id, 'unreadable', 'scratch/fifo.txt')).toBe(true);
    if (hostile.chmodBlocksReads) expect(problemsOf(id).some((p) => p.file === 'locked.md')).toBe(true);
  });

  it('reports the torn last line of a transcript still being written, with its line', () => {
    const id = hostile.sessions.torn;
    expect(has(id, 'bad-line', '.system_generated/logs/transcript_full.jsonl', hostile.lines.tornLast)).toBe(true);
    expect(sessions.get(id)!.steps.map((s) => s.index)).toEqual([0, 1]);
  });

  it('reports bad encoding and a raw NUL with file and line, and keeps the huge line and the many tool calls', () => {
    const id = hostile.sessions.huge;
    const full = '.system_generated/logs/transcript_full.jsonl';
    expect(has(id, 'bad-encoding', full, hostile.lines.badUtf8)).toBe(true);
    expect(has(id, 'bad-line', full, hostile.lines.rawNul)).toBe(true);
    const session = sessions.get(id)!;
    const step1 = session.steps.find((s) => s.index === 1)!;
    expect(step1.toolCalls).toHaveLength(3000);
    const huge = session.steps.find((s) => s.index === 6);
    // Either kept whole, or cut with a `too-large` problem: never silently gone.
    expect(huge !== undefined || problemsOf(id).some((p) => p.kind === 'too-large' && p.file === full)).toBe(true);
    expect(session.steps.some((s) => s.index === 7)).toBe(true);
  });

  it('a string step_index is a problem, not a crash', () => {
    expect(has(hostile.sessions.markup, 'bad-record', '.system_generated/logs/transcript_full.jsonl', 6)).toBe(true);
  });

  it('keeps hostile text as text, unchanged', () => {
    const session = sessions.get(hostile.sessions.markup)!;
    const step1 = session.steps.find((s) => s.index === 1)!;
    expect(step1.content).toBe(HOSTILE);
    expect(step1.thinking).toBe(HOSTILE);
    expect(step1.toolCalls[0]!.name).toBe(SHORT);
    expect(session.messages[0]!.content).toBe(HOSTILE);
  });

  it('redaction copes with the hostile sessions (deep nesting, 50 MB) and removes the planted token', async () => {
    for (const session of sessions.values()) {
      const { session: redacted } = await redactSession(session);
      expect(containsString(redacted, hostile.plantedSecret)).toBe(false);
    }
    expect(containsString(sessions.get(hostile.sessions.markup), hostile.plantedSecret)).toBe(true);
    // A guard against a hang, not a speed bound: 50 MB take over a minute on a loaded 2-core machine.
  }, 300_000);
});
