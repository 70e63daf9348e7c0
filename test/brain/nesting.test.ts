/**
 * Nothing hides a session (issue 27): a tool-call argument nested 5,000 brackets deep, in the full transcript or
 * JSON-encoded in the compact one, made `String()`, `JSON.stringify`, `v8.serialize` and the summaries overflow
 * the stack, and the build dropped the whole session with exit 0. The reader keeps every value within
 * `MAX_NESTING` levels and each deeper part as its JSON text, with a `too-deep` problem naming file and line; the
 * rest of the session (its other steps, the call itself) is read, redacted and summarised as usual.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSessions, readSession, type Session } from '../../src/lib/brain/index.ts';
import { boundNesting, jsonText, MAX_NESTING, nestingDepth } from '../../src/lib/brain/nesting.ts';
import { readSessionRows } from '../../src/lib/archive/pipeline.ts';
import { decodeStep } from '../../src/lib/brain/conversation-db/fields.ts';
import { stepRow } from '../../scripts/lib/conversation-db-writer.ts';
import { where } from './helpers.ts';

const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

describe('bounding the nesting of a parsed value', () => {
  it('leaves a value within the bound as it is, the same object', () => {
    const value = JSON.parse(`{"a":${nested(MAX_NESTING - 1)}}`) as unknown;
    const before = JSON.stringify(value);
    expect(boundNesting(value)).toEqual([]);
    expect(JSON.stringify(value)).toBe(before);
    expect(nestingDepth(value)).toBe(MAX_NESTING);
  });

  it('keeps each part past the bound as its JSON text, and says where and how deep', () => {
    const value = JSON.parse(`{"tool_calls":[{"args":{"Deep":${nested(5_000, '{"k":"v"}')},"Ok":[1]}}]}`) as { tool_calls: [{ args: { Deep: unknown; Ok: unknown } }] };
    const cuts = boundNesting(value);
    expect(cuts).toEqual([{ path: 'tool_calls[0].args.Deep[0]…', depth: 5_005 }]);
    expect(nestingDepth(value, Number.MAX_SAFE_INTEGER)).toBe(MAX_NESTING);
    expect(value.tool_calls[0].args.Ok).toEqual([1]);
    // Level 100 holds the text of everything below it: the brackets left and the object at the bottom.
    let inner: unknown = value.tool_calls[0].args.Deep;
    for (let level = 5; level <= MAX_NESTING; level++) inner = (inner as unknown[])[0];
    expect(inner).toBe(nested(5_000 - (MAX_NESTING - 4), '{"k":"v"}'));
  });

  it('writes JSON text as JSON.stringify does, at any depth, and keeps a "__proto__" key a plain key', () => {
    for (const text of ['{"a":[1,"x",null,true,{"b":{}}],"c":-0.5e-7,"\\u2028":"\\n"}', '[]', '"s"', '3', nested(50, '{"__proto__":{"x":1}}')]) {
      expect(jsonText(JSON.parse(text))).toBe(JSON.stringify(JSON.parse(text)));
    }
    expect(jsonText(JSON.parse(nested(20_000)))).toBe(nested(20_000));
    const value = JSON.parse(`{"__proto__":${nested(MAX_NESTING + 5)}}`) as Record<string, unknown>;
    boundNesting(value);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
  });
});

describe('a session whose tool call nests 5,000 levels deep', () => {
  let tmp: string;
  const sessions = new Map<string, Session>();
  const FULL = '00000000-0000-4000-8000-0000000000d1';
  const COMPACT = '00000000-0000-4000-8000-0000000000d2';
  const line = (o: Record<string, unknown>) => JSON.stringify(o);
  const ask = line({ step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: '2026-07-01T10:00:00Z', content: '<USER_REQUEST>\nDeep args\n</USER_REQUEST>' });
  const reply = line({ step_index: 2, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: '2026-07-01T10:00:02Z', content: 'All done after the deep call.' });
  const call = (args: string) => `{"step_index":1,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-07-01T10:00:01Z","tool_calls":[{"name":"run_command","args":${args}}]}`;

  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'agy-nesting-'));
    const write = async (id: string, file: string, lines: string[]) => {
      const dir = path.join(tmp, 'antigravity', 'brain', id, '.system_generated', 'logs');
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, file), `${lines.join('\n')}\n`);
    };
    await write(FULL, 'transcript_full.jsonl', [ask, call(`{"CommandLine":"echo hi","Deep":${nested(5_000)}}`), reply]);
    await write(COMPACT, 'transcript.jsonl', [ask, call(JSON.stringify({ CommandLine: '"echo hi"', Deep: nested(5_000) })), reply]);
    const found = await discoverSessions({ geminiHome: tmp });
    for (const ref of found.sessions) sessions.set(ref.id, await readSession(ref));
  });
  afterAll(async () => {
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it('is read whole: every step, the call with its command, and a too-deep problem with file and line', () => {
    for (const [id, file] of [[FULL, 'transcript_full.jsonl'], [COMPACT, 'transcript.jsonl']] as const) {
      const s = sessions.get(id)!;
      expect(s.steps.map((st) => st.key), id).toEqual(['0', '1', '2']);
      expect(s.steps[1]?.toolCalls[0]?.args.CommandLine, id).toBe('echo hi');
      expect(where(s), id).toEqual([`too-deep .system_generated/logs/${file}:2`]);
      expect(s.problems[0]?.message, id).toMatch(/nests 5,00\d levels deep/);
      // Every recursive consumer after the reader now gets a value it can walk.
      expect(() => v8.serialize(s), id).not.toThrow();
    }
    // JSON-encoded in the compact transcript, the argument is kept as the text the transcript holds.
    expect(sessions.get(COMPACT)!.steps[1]?.toolCalls[0]?.args.Deep).toBe(nested(5_000));
  });

  it('is redacted and summarised into rows with its steps, not left out', async () => {
    const found = await discoverSessions({ geminiHome: tmp });
    for (const ref of found.sessions) {
      const rows = await readSessionRows(ref, true);
      expect(rows.steps.map((r) => r.key), ref.id).toEqual(['0', '1', '2']);
      expect(rows.session.problems.map((p) => p.kind), ref.id).toEqual(['too-deep']);
    }
  });
});

describe('a call in the conversation database whose arguments nest 5,000 deep', () => {
  it('keeps the arguments as the JSON text the database holds', () => {
    const args = `{"CommandLine":"echo hi","Deep":${nested(5_000)}}`;
    const { payload, metadata } = stepRow({ idx: 1, type: 15, status: 3, source: 2, created: '2026-06-18T13:31:58.500Z', body: [20, [[1, 'Running it.'], [7, [[1, 'c1'], [2, 'run_command'], [3, args]]]]] });
    const step = decodeStep({ idx: 1, step_type: 15, status: 3, step_payload: payload, metadata });
    expect(step.toolCalls).toEqual([{ name: 'run_command', args: { arguments: args }, truncatedArgs: [] }]);
    expect(() => v8.serialize(step)).not.toThrow();
  });
});
