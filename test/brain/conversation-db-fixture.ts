/**
 * Small conversation databases in the real schema (real-db README §2), written by the tests with node:sqlite, their
 * protobuf columns encoded with `@bufbuild/protobuf`'s BinaryWriter. A fixture home is laid out as on disk:
 * `<home>/<product>/brain/<uuid>/…` and `<home>/<product>/conversations/<uuid>.db`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

/** A protobuf message as a list of `[field number, value]`; a nested array is a nested message. */
export type Fields = Array<[number, number | string | Uint8Array | Fields]>;

export function encode(fields: Fields): Uint8Array {
  const w = new BinaryWriter();
  for (const [no, value] of fields) {
    if (typeof value === 'number') w.tag(no, WireType.Varint).uint64(value);
    else if (typeof value === 'string') w.tag(no, WireType.LengthDelimited).string(value);
    else if (value instanceof Uint8Array) w.tag(no, WireType.LengthDelimited).bytes(value);
    else w.tag(no, WireType.LengthDelimited).bytes(encode(value));
  }
  return w.finish();
}

/** The schema of all eight real databases, as `sqlite_master` holds it. */
export const REAL_SCHEMA = [
  'CREATE TABLE `trajectory_meta` (`trajectory_id` text,`cascade_id` text,`trajectory_type` integer,`source` integer,PRIMARY KEY (`trajectory_id`))',
  'CREATE TABLE `steps` (`idx` integer,`step_type` integer NOT NULL DEFAULT 0,`status` integer NOT NULL DEFAULT 0,`has_subtrajectory` numeric NOT NULL DEFAULT false,`metadata` blob,`error_details` blob,`permissions` blob,`task_details` blob,`render_info` blob,`step_payload` blob,`step_format` integer NOT NULL DEFAULT 0,PRIMARY KEY (`idx`))',
  'CREATE INDEX `idx_steps_status` ON `steps`(`status`)',
  'CREATE INDEX `idx_steps_step_type` ON `steps`(`step_type`)',
  'CREATE TABLE `gen_metadata` (`idx` integer,`data` blob,`size` integer NOT NULL DEFAULT 0,PRIMARY KEY (`idx`))',
  'CREATE TABLE `executor_metadata` (`idx` integer,`data` blob,PRIMARY KEY (`idx`))',
  'CREATE TABLE `parent_references` (`idx` integer,`data` blob,PRIMARY KEY (`idx`))',
  'CREATE TABLE `trajectory_metadata_blob` (`id` text DEFAULT "main",`data` blob,PRIMARY KEY (`id`))',
  'CREATE TABLE `battle_mode_infos` (`idx` integer,`data` blob,PRIMARY KEY (`idx`))',
];

const ts = (iso: string): Fields => {
  const ms = Date.parse(iso);
  return [
    [1, Math.floor(ms / 1000)],
    [2, (ms % 1000) * 1e6],
  ];
};

export interface FixtureStep {
  idx: number;
  type: number;
  status: number;
  /** metadata 3: 2 MODEL, 4 USER_EXPLICIT, 5 SYSTEM. */
  source: number;
  created: string;
  /** The type-specific payload field and its message. */
  body?: [number, Fields];
  history?: Array<[number, string]>;
  /** Raw bytes for step_payload instead (malformed blobs). */
  rawPayload?: Uint8Array;
}

export function stepRow(s: FixtureStep): { payload: Uint8Array; metadata: Uint8Array } {
  const metadata: Fields = [
    [1, ts(s.created)],
    [3, s.source],
    [12, 'exec-1'],
    [20, [[2, s.idx]]],
    [26, (s.history ?? [[s.status, s.created]]).map(([st, at]): [number, Fields] => [1, [[1, st], [2, ts(at)]]])],
  ];
  const meta = encode(metadata);
  const payload: Fields = [
    [1, s.type],
    [4, s.status],
    [5, meta],
  ];
  if (s.body) payload.push(s.body);
  return { payload: s.rawPayload ?? encode(payload), metadata: meta };
}

export interface FixtureCall {
  idx: number;
  steps: number[];
  usage?: { input: number; cacheRead: number; thinking: number; visible: number };
  model?: string;
  modelId?: string;
  requestAt?: string;
  ttftMs?: number;
  streamMs?: number;
  failed?: string;
  /** The whole prompt (1.1 …) with a token budget: only the last row has it. */
  prompt?: { system: string; tools: number; sections: Array<[string, number]> };
}

export function callData(c: FixtureCall): Uint8Array {
  const call: Fields = [[3, 1020]];
  if (c.prompt) {
    call.push([1, c.prompt.system]);
    for (let i = 0; i < c.prompt.tools; i++) call.push([8, [[1, `tool${i}`]]]);
    call.push([2, [[2, 1], [3, 'the secret prompt text']]]);
  }
  if (c.usage) {
    call.push([4, [[1, 1020], [2, c.usage.input], [3, c.usage.thinking + c.usage.visible], ...(c.usage.cacheRead ? ([[5, c.usage.cacheRead]] as Fields) : []), [6, 24], [9, c.usage.thinking], [10, c.usage.visible]]]);
  }
  const nine: Fields = [];
  if (c.requestAt) nine.push([4, ts(c.requestAt)]);
  if (c.prompt) nine.push([10, [[1, c.prompt.sections.reduce((a, [, n]) => a + n, 0)], [3, c.prompt.sections.map(([name, n]): [number, Fields] => [1, [[1, name], [4, n]]])]]]);
  if (nine.length > 0) call.push([9, nine]);
  const dur = (ms: number): Fields => [[1, Math.floor(ms / 1000)], [2, (ms % 1000) * 1e6]];
  if (c.ttftMs !== undefined) call.push([11, dur(c.ttftMs)]);
  if (c.streamMs !== undefined) call.push([12, dur(c.streamMs)]);
  if (c.failed) call.push([17, [[3, c.failed]]]);
  if (c.modelId) call.push([19, c.modelId]);
  if (c.model) call.push([21, c.model]);
  const data: Fields = [[1, call]];
  const packed = new BinaryWriter();
  for (const i of c.steps) packed.uint64(i);
  data.push([2, packed.finish()]);
  data.push([4, 'exec-1']);
  if (c.failed) data.push([5, new Uint8Array()]);
  return encode(data);
}

/** Write a conversation database at `file` in the real schema (WAL mode like Antigravity's); returns nothing. */
export function writeConversationDb(file: string, steps: FixtureStep[], calls: FixtureCall[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new DatabaseSync(file);
  try {
    db.exec('PRAGMA journal_mode=WAL');
    for (const sql of REAL_SCHEMA) db.exec(sql);
    db.exec('PRAGMA user_version=1');
    const insertStep = db.prepare('INSERT INTO steps (idx, step_type, status, metadata, step_payload) VALUES (?, ?, ?, ?, ?)');
    for (const s of steps) {
      const { payload, metadata } = stepRow(s);
      insertStep.run(s.idx, s.type, s.status, metadata, payload);
    }
    const insertCall = db.prepare('INSERT INTO gen_metadata (idx, data, size) VALUES (?, ?, ?)');
    for (const c of calls) {
      const data = callData(c);
      insertCall.run(c.idx, data, data.length);
    }
  } finally {
    db.close();
  }
}

export const SESSION = 'aaaaaaaa-0000-4000-8000-000000000029';

/**
 * A home with one session: transcript steps 0–2 (a request, a reply with a `run_command` call, the command still
 * RUNNING), and a database that holds them plus a checkpoint (3) and a reply the transcript never got (4).
 */
export function writeFixtureHome(home: string, options: { withFolder?: boolean } = {}): { dbPath: string; brain: string } {
  const product = path.join(home, 'antigravity');
  const brain = path.join(product, 'brain');
  const logs = path.join(brain, SESSION, '.system_generated', 'logs');
  if (options.withFolder !== false) {
    mkdirSync(logs, { recursive: true });
    const lines = [
      { step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: '2026-06-18T13:31:58Z', content: '<USER_REQUEST>\nlist the files\n</USER_REQUEST>' },
      { step_index: 1, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: '2026-06-18T13:31:59Z', content: 'I will list them.', tool_calls: [{ name: 'run_command', args: { CommandLine: 'ls' } }] },
      { step_index: 2, source: 'MODEL', type: 'RUN_COMMAND', status: 'RUNNING', created_at: '2026-06-18T13:32:02Z', content: 'Created At: 2026-06-18T13:32:02Z\nTool is running as a background task' },
    ];
    writeFileSync(path.join(logs, 'transcript_full.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  } else {
    mkdirSync(brain, { recursive: true });
  }
  const dbPath = path.join(product, 'conversations', `${SESSION}.db`);
  writeConversationDb(
    dbPath,
    [
      { idx: 0, type: 14, status: 3, source: 4, created: '2026-06-18T13:31:58.100Z', body: [19, [[2, 'list the files']]] },
      { idx: 1, type: 15, status: 3, source: 2, created: '2026-06-18T13:31:58.500Z', history: [[8, '2026-06-18T13:31:58.500Z'], [3, '2026-06-18T13:32:01.000Z']], body: [20, [[1, 'I will list them.'], [3, 'thinking it over'], [7, [[1, 'c1'], [2, 'run_command'], [3, '{"CommandLine":"ls"}']]]]] },
      { idx: 2, type: 21, status: 3, source: 2, created: '2026-06-18T13:32:02Z', history: [[1, '2026-06-18T13:32:02Z'], [9, '2026-06-18T13:32:03Z'], [2, '2026-06-18T13:32:04Z'], [3, '2026-06-18T13:32:09Z']], body: [28, [[2, '/work'], [21, [[1, 'a.txt\nb.txt\n']]]]] },
      { idx: 3, type: 23, status: 3, source: 5, created: '2026-06-18T13:32:10Z', body: [30, [[4, 'Listing files\nList the workspace files'], [12, 3], [19, 'list the files']]] },
      { idx: 4, type: 15, status: 3, source: 2, created: '2026-06-18T13:32:11Z', body: [20, [[1, 'There are two files.'], [3, 'count them']]] },
    ],
    [
      { idx: 0, steps: [1, 2], usage: { input: 18937, cacheRead: 0, thinking: 223, visible: 65 }, model: 'Gemini 3.5 Flash (Medium)', modelId: 'gemini-3-flash-a', requestAt: '2026-06-18T13:31:58.500Z', ttftMs: 2800, streamMs: 290 },
      { idx: 1, steps: [4], usage: { input: 578, cacheRead: 24514, thinking: 100, visible: 40 }, model: 'Gemini 3.5 Flash (Medium)', modelId: 'gemini-3-flash-a', requestAt: '2026-06-19T00:10:00Z', ttftMs: 1000, streamMs: 100 },
      { idx: 2, steps: [5], failed: 'request failed: network', model: 'Gemini 3.5 Flash (Medium)', prompt: { system: 'SYSTEM PROMPT TEXT', tools: 3, sections: [['System Prompt', 12064], ['Tools', 15959], ['Chat Messages', 31047]] } },
    ],
  );
  return { dbPath, brain };
}
