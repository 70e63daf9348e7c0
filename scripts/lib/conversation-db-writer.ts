/**
 * A writer of conversation databases (`<product>/conversations/<uuid>.db`) in the real schema (`../shared/real-db/`
 * README §2), with node:sqlite, their protobuf columns encoded with `@bufbuild/protobuf`'s BinaryWriter. One writer
 * for the tests' small fixtures (`test/brain/conversation-db-fixture.ts`) and the benchmark's synthetic home
 * (`scripts/bench/synthetic-db.ts`). Pure: no Astro, nothing from the reader, so what it writes checks the reader.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Timestamp `{1: seconds, 2: nanos}` (README §2) of an ISO time. */
const ts = (iso: string): Fields => {
  const ms = Date.parse(iso);
  return [
    [1, Math.floor(ms / 1000)],
    [2, (ms % 1000) * 1e6],
  ];
};

/** Duration `{1: seconds, 2: nanos}` of a number of milliseconds. */
const duration = (ms: number): Fields => [
  [1, Math.floor(ms / 1000)],
  [2, (ms % 1000) * 1e6],
];

/** One `steps` row. */
export interface WrittenStep {
  idx: number;
  type: number;
  status: number;
  /** metadata 3: 2 MODEL, 4 USER_EXPLICIT, 5 SYSTEM. */
  source: number;
  created: string;
  /** metadata 6 and 8: first output and finished (README §2.2); absent when not given. */
  firstOutput?: string;
  finished?: string;
  /** metadata 12: the agent run; default `exec-1`. */
  execution?: string;
  /** metadata 4: the tool call that made a tool step {1 id, 2 name, 3 arguments JSON}. */
  madeBy?: { id: string; name: string; args: string };
  /** The type-specific payload field and its message. */
  body?: [number, Fields];
  history?: Array<[number, string]>;
  /** Raw bytes for step_payload instead (malformed blobs). */
  rawPayload?: Uint8Array;
}

export function stepRow(s: WrittenStep): { payload: Uint8Array; metadata: Uint8Array } {
  const metadata: Fields = [
    [1, ts(s.created)],
    [3, s.source],
  ];
  if (s.madeBy) metadata.push([4, [[1, s.madeBy.id], [2, s.madeBy.name], [3, s.madeBy.args]]]);
  if (s.firstOutput) metadata.push([6, ts(s.firstOutput)]);
  if (s.finished) metadata.push([8, ts(s.finished)]);
  metadata.push([12, s.execution ?? 'exec-1']);
  metadata.push([20, [[2, s.idx]]]);
  metadata.push([26, (s.history ?? [[s.status, s.created]]).map(([st, at]): [number, Fields] => [1, [[1, st], [2, ts(at)]]])]);
  const meta = encode(metadata);
  const payload: Fields = [
    [1, s.type],
    [4, s.status],
    [5, meta],
  ];
  if (s.body) payload.push(s.body);
  return { payload: s.rawPayload ?? encode(payload), metadata: meta };
}

/** One `gen_metadata` row: a model call. */
export interface WrittenCall {
  idx: number;
  steps: number[];
  usage?: { input: number; cacheRead: number; thinking: number; visible: number };
  model?: string;
  modelId?: string;
  /** gen_metadata 4: the agent run; default `exec-1`. */
  execution?: string;
  requestAt?: string;
  ttftMs?: number;
  streamMs?: number;
  failed?: string;
  /**
   * The whole prompt (1.1 …) with a token budget: only the last row has it. `messages` (default one) are written
   * as 1.2 entries, `tools` tool definitions as 1.8 (with `toolText` as description when given).
   */
  prompt?: { system: string; tools: number; sections: Array<[string, number]>; messages?: string[]; toolText?: string };
}

export function callData(c: WrittenCall): Uint8Array {
  const call: Fields = [[3, 1020]];
  if (c.prompt) {
    call.push([1, c.prompt.system]);
    for (let i = 0; i < c.prompt.tools; i++) call.push([8, c.prompt.toolText === undefined ? [[1, `tool${i}`]] : [[1, `tool${i}`], [2, c.prompt.toolText]]]);
    for (const text of c.prompt.messages ?? ['the secret prompt text']) call.push([2, [[2, 1], [3, text]]]);
  }
  if (c.usage) {
    call.push([4, [[1, 1020], [2, c.usage.input], [3, c.usage.thinking + c.usage.visible], ...(c.usage.cacheRead ? ([[5, c.usage.cacheRead]] as Fields) : []), [6, 24], [9, c.usage.thinking], [10, c.usage.visible]]]);
  }
  const nine: Fields = [];
  if (c.requestAt) nine.push([4, ts(c.requestAt)]);
  if (c.prompt) nine.push([10, [[1, c.prompt.sections.reduce((a, [, n]) => a + n, 0)], [3, c.prompt.sections.map(([name, n]): [number, Fields] => [1, [[1, name], [4, n]]])]]]);
  if (nine.length > 0) call.push([9, nine]);
  if (c.ttftMs !== undefined) call.push([11, duration(c.ttftMs)]);
  if (c.streamMs !== undefined) call.push([12, duration(c.streamMs)]);
  if (c.failed) call.push([17, [[3, c.failed]]]);
  if (c.modelId) call.push([19, c.modelId]);
  if (c.model) call.push([21, c.model]);
  const data: Fields = [[1, call]];
  const packed = new BinaryWriter();
  for (const i of c.steps) packed.uint64(i);
  data.push([2, packed.finish()]);
  data.push([4, c.execution ?? 'exec-1']);
  if (c.failed) data.push([5, new Uint8Array()]);
  return encode(data);
}

/** Options of `writeConversationDb`. */
export interface WriteOptions {
  /** The conversation's uuid: a `trajectory_meta` row as the real ones have (README §2.4). */
  conversationId?: string;
  /**
   * Leave the steps from this index on, and the calls that produced only such steps, in the write-ahead log, as a
   * copy of a database Antigravity still has open looks (real e853036a: steps 104–110 only in its `-wal`). The
   * `.db`, `-wal` and `-shm` are written as they were while the writer's connection was open.
   */
  walFrom?: number;
}

/** Write a conversation database at `file` in the real schema (WAL mode like Antigravity's). */
export function writeConversationDb(file: string, steps: WrittenStep[], calls: WrittenCall[], options: WriteOptions = {}): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const walFrom = options.walFrom;
  const inWal = (s: WrittenStep) => walFrom !== undefined && s.idx >= walFrom;
  const callInWal = (c: WrittenCall) => walFrom !== undefined && c.steps.length > 0 && c.steps.every((i) => i >= walFrom);
  const db = new DatabaseSync(file);
  let open = true;
  try {
    db.exec('PRAGMA journal_mode=WAL');
    for (const sql of REAL_SCHEMA) db.exec(sql);
    db.exec('PRAGMA user_version=1');
    if (options.conversationId) {
      db.prepare('INSERT INTO trajectory_meta (trajectory_id, cascade_id, trajectory_type, source) VALUES (?, ?, 4, 1)').run(`${options.conversationId}-t`, options.conversationId);
    }
    const insertStep = db.prepare('INSERT INTO steps (idx, step_type, status, metadata, step_payload) VALUES (?, ?, ?, ?, ?)');
    const insertCall = db.prepare('INSERT INTO gen_metadata (idx, data, size) VALUES (?, ?, ?)');
    // One transaction per part: a commit each row would sync the file each row.
    const insert = (part: { steps: WrittenStep[]; calls: WrittenCall[] }) => {
      db.exec('BEGIN');
      for (const s of part.steps) {
        const { payload, metadata } = stepRow(s);
        insertStep.run(s.idx, s.type, s.status, metadata, payload);
      }
      for (const c of part.calls) {
        const data = callData(c);
        insertCall.run(c.idx, data, data.length);
      }
      db.exec('COMMIT');
    };
    insert({ steps: steps.filter((s) => !inWal(s)), calls: calls.filter((c) => !callInWal(c)) });
    if (walFrom === undefined) return;
    // Everything so far into the `.db`, then the rest into the log alone, kept there (no automatic checkpoint).
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.exec('PRAGMA wal_autocheckpoint=0');
    insert({ steps: steps.filter(inWal), calls: calls.filter(callInWal) });
    // The files as they are while open; closing the last connection would checkpoint the log into the `.db`.
    const saved = ['', '-wal', '-shm'].map((suffix) => [`${file}${suffix}`, existsSync(`${file}${suffix}`) ? readFileSync(`${file}${suffix}`) : undefined] as const);
    db.close();
    open = false;
    for (const [name, bytes] of saved) {
      if (bytes) writeFileSync(name, bytes);
      else rmSync(name, { force: true });
    }
  } finally {
    if (open) db.close();
  }
}

