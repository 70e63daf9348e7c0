/**
 * A synthetic GEMINI_HOME for the benchmark, modelled on `../shared/real-brains/SURVEY.md`: several products, many
 * small sessions and a few large ones, the real mix of (source, type, status) and tool names, compact transcripts
 * whose every tool argument is a JSON-encoded string (long values cut with `\n<truncated N bytes>`), full
 * transcripts with native values, RUNNING-then-DONE rewrites, rewinds that reuse step numbers, compact and full
 * covering different stretches, step outputs, artifacts with versions, messages and task logs.
 *
 * The later half of the sessions (the home's stand-in for mid-2026 on, when Antigravity began to keep one) have a
 * conversation database beside the brain (`<product>/conversations/<uuid>.db`, `synthetic-db.ts`); the earlier half
 * have none, as older sessions do not.
 *
 * Deterministic from the seed; written with synchronous appends of whole files, so 100k steps take seconds. The
 * databases draw from PRNGs of their own: a home written without them (`databases: false`) has the same transcripts.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeConversationDb } from '../lib/conversation-db-writer.ts';
import { syntheticConversationDb } from './synthetic-db.ts';
import { type CodeLang, Rng, TextGen } from './text.ts';

/** Options for `writeSyntheticHome`. */
export interface SyntheticHomeOptions {
  /** Timeline entries to write in total (RUNNING→DONE rewrites do not count, rewound steps do). */
  steps: number;
  /** PRNG seed; the same seed writes the same bytes. Default 1. */
  seed?: number;
  /** Write conversation databases for the later half of the sessions. Default true. */
  databases?: boolean;
}

/** Share of the sessions, the latest, that have a conversation database. */
const DATABASE_SHARE = 0.5;

/** What one written session holds, so tests can check the reader against it. */
export interface SyntheticSession {
  id: string;
  product: string;
  dir: string;
  /** Timeline entries the reader should produce. */
  entries: number;
  compactLines: number;
  fullLines: number;
  /** How compact and full cover the session. */
  stretch: Stretch;
  /** Times the step index went back to an earlier user input. */
  rewinds: number;
  /** Step records written twice: RUNNING first, then DONE. */
  runningRewrites: number;
  /** Compact lines carrying `truncated_fields`. */
  truncatedLines: number;
  /** Compact tool arguments cut with a `<truncated N bytes>` marker. */
  truncatedArgs: number;
  outputs: number;
  artifacts: number;
  messages: number;
  taskLogs: number;
  /** Its conversation database, when it has one. */
  database?: {
    path: string;
    /** `steps` rows and `gen_metadata` rows. */
    steps: number;
    calls: number;
    /** Steps only the database holds: the reader shows `entries + dbOnlySteps` steps. */
    dbOnlySteps: number;
    /** Rows left in the `-wal`. */
    wal: boolean;
    /** Bytes of `.db`, `-wal` and `-shm`. */
    bytes: number;
  };
}

/** What the whole home holds. */
export interface SyntheticHome {
  dir: string;
  steps: number;
  bytes: number;
  sessions: SyntheticSession[];
  /** The conversation databases: how many, their bytes (with `-wal` and `-shm`, also counted in `bytes`). */
  databases: { count: number; bytes: number };
}

type Stretch = 'same' | 'compact-only' | 'full-starts-later' | 'compact-starts-later' | 'none';

interface ToolCallRecord {
  name: string;
  args: Record<string, unknown>;
}

/** One step record as the agent would write it, with native values (the full transcript's view). */
export interface StepRecord {
  step_index: number;
  source: string;
  type: string;
  status: string;
  created_at: string;
  content?: string;
  thinking?: string;
  tool_calls?: ToolCallRecord[];
  error?: string;
  error_code?: number;
  exit_code?: number;
}

/** Real session sizes (compact lines) from the survey; sessions are drawn from these with jitter. */
const REAL_SIZES = [5, 28, 31, 42, 56, 71, 88, 102, 113, 123, 144, 157, 312, 326, 334, 350, 364, 494, 522, 539, 570, 717, 983, 1458, 1578, 1829];
const PRODUCTS = { antigravity: 22, 'antigravity-ide': 5, 'antigravity-cli': 1, jetski: 1 } as const;

/** Tool names by how often the survey saw them in compact transcripts. */
const TOOLS = {
  run_command: 1500,
  view_file: 866,
  write_to_file: 752,
  replace_file_content: 297,
  list_dir: 162,
  grep_search: 121,
  manage_task: 97,
  multi_replace_file_content: 92,
  schedule: 53,
  read_url_content: 53,
  ask_permission: 27,
  generate_image: 21,
  command_status: 19,
  search_web: 15,
  ask_question: 7,
  list_permissions: 5,
  call_mcp_tool: 2,
} as const;
type ToolName = keyof typeof TOOLS;

/** The step type that reports each tool's result. */
const RESULT_TYPE: Record<ToolName, string> = {
  run_command: 'RUN_COMMAND',
  view_file: 'VIEW_FILE',
  write_to_file: 'CODE_ACTION',
  replace_file_content: 'CODE_ACTION',
  multi_replace_file_content: 'CODE_ACTION',
  list_dir: 'LIST_DIRECTORY',
  grep_search: 'GREP_SEARCH',
  manage_task: 'GENERIC',
  schedule: 'GENERIC',
  ask_permission: 'GENERIC',
  command_status: 'GENERIC',
  list_permissions: 'GENERIC',
  read_url_content: 'READ_URL_CONTENT',
  generate_image: 'GENERATE_IMAGE',
  search_web: 'SEARCH_WEB',
  ask_question: 'ASK_QUESTION',
  call_mcp_tool: 'MCP_TOOL',
};

/** Compact transcript limits (chosen so that truncation rates land near the survey's). */
const CONTENT_LIMIT = 6000;
const CONTENT_HEAD = 3000;
const CONTENT_TAIL = 2000;
const ARG_LIMIT = 3000;
const ARG_KEEP = 2400;
const THINKING_LIMIT = 3000;

/** Write a synthetic home into `dir` (created if missing) holding `steps` timeline entries. */
export function writeSyntheticHome(dir: string, options: SyntheticHomeOptions): SyntheticHome {
  const total = Math.max(0, Math.floor(options.steps));
  const rng = new Rng(options.seed ?? 1);
  const cap = Math.max(5, Math.ceil(total / 4));
  const sizes: number[] = [];
  let left = total;
  while (left > 0) {
    let size = Math.min(cap, Math.max(3, Math.round(rng.pick(REAL_SIZES) * (0.7 + rng.next() * 0.6))));
    if (left - size < 3) size = left;
    sizes.push(size);
    left -= size;
  }
  const productOrder = Object.keys(PRODUCTS) as (keyof typeof PRODUCTS)[];
  const sessions: SyntheticSession[] = [];
  let bytes = 0;
  const withDatabase = (i: number) => options.databases !== false && i >= Math.floor(sizes.length * (1 - DATABASE_SHARE));
  sizes.forEach((size, i) => {
    // The first few sessions cover every product, the rest follow the real proportions.
    const product = i < productOrder.length ? (productOrder[i] as string) : rng.weighted(PRODUCTS);
    const written = writeSession(dir, { steps: size, seed: rng.int(1, 2 ** 31), product, dayOffset: i, database: withDatabase(i) });
    sessions.push(written.session);
    bytes += written.bytes;
  });
  // A few sessions with artifacts but no transcript at all (3 of 29 in the survey).
  for (let i = 0; i < Math.max(1, Math.floor(sizes.length / 30)); i++) {
    const written = writeSession(dir, { steps: 0, seed: rng.int(1, 2 ** 31), product: 'antigravity', dayOffset: sizes.length + i });
    sessions.push(written.session);
    bytes += written.bytes;
  }
  const dbs = sessions.flatMap((s) => (s.database ? [s.database] : []));
  return { dir, steps: total, bytes, sessions, databases: { count: dbs.length, bytes: dbs.reduce((n, d) => n + d.bytes, 0) } };
}

/** Options for one session. */
export interface SyntheticSessionOptions {
  steps: number;
  seed: number;
  product?: string;
  /** Days after 2026-01-05 the session starts (keeps sessions in a plausible order). */
  dayOffset?: number;
  /** Write its conversation database (a session with steps only). Default true: a new session has one. */
  database?: boolean;
}

/** Write one session into the home at `home` (used for the warm rebuild's "one new session"). */
export function writeSyntheticSession(home: string, options: SyntheticSessionOptions): SyntheticSession {
  return writeSession(home, options).session;
}

function writeSession(home: string, options: SyntheticSessionOptions): { session: SyntheticSession; bytes: number } {
  const rng = new Rng(options.seed);
  const text = new TextGen(rng);
  const product = options.product ?? 'antigravity';
  const id = rng.uuid();
  const dir = path.join(home, product, 'brain', id);
  const sys = path.join(dir, '.system_generated');
  mkdirSync(path.join(sys, 'logs'), { recursive: true });
  const user = rng.pick(['alex', 'sam', 'priya', 'wen', 'lucia', 'omar']);
  const workspace = `/Users/${user}/code/${rng.pick(['shop', 'atlas', 'ledger', 'pulse', 'orbit', 'notes'])}-${rng.int(1, 99)}`;
  const start = Date.UTC(2026, 0, 5) + (options.dayOffset ?? 0) * 3_600_000 * 7 + rng.int(0, 3_600_000);

  const session: SyntheticSession = {
    id,
    product,
    dir,
    entries: 0,
    compactLines: 0,
    fullLines: 0,
    stretch: 'none',
    rewinds: 0,
    runningRewrites: 0,
    truncatedLines: 0,
    truncatedArgs: 0,
    outputs: 0,
    artifacts: 0,
    messages: 0,
    taskLogs: 0,
  };
  let bytes = 0;
  const write = (rel: string, data: string) => {
    const file = path.join(dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, data);
    bytes += Buffer.byteLength(data);
  };

  const story = options.steps > 0 ? tellStory(rng, text, options.steps, start, workspace, id, user) : undefined;
  if (story) {
    session.entries = story.entries;
    session.rewinds = story.rewinds;
    session.runningRewrites = story.runningRewrites;
    // Rewinds make compact/full matching by occurrence ambiguous when one starts later, so such sessions keep
    // both transcripts over the same stretch (or only compact), as most real sessions do.
    session.stretch =
      story.rewinds > 0
        ? rng.weighted({ same: 3, 'compact-only': 1 })
        : rng.weighted({ same: 45, 'compact-only': 25, 'full-starts-later': 12, 'compact-starts-later': 18 });
    const cut = turnBoundary(story.records, rng);
    const compactRecords = session.stretch === 'compact-starts-later' ? story.records.slice(cut) : story.records;
    const fullRecords =
      session.stretch === 'compact-only' ? [] : session.stretch === 'full-starts-later' ? story.records.slice(cut) : story.records;
    const compact: string[] = [];
    for (const rec of compactRecords) {
      const line = compactLine(rec);
      if (line.truncated) session.truncatedLines++;
      session.truncatedArgs += line.cutArgs;
      compact.push(line.text);
    }
    write('.system_generated/logs/transcript.jsonl', `${compact.join('\n')}\n`);
    session.compactLines = compact.length;
    if (fullRecords.length > 0) {
      write('.system_generated/logs/transcript_full.jsonl', `${fullRecords.map((r) => JSON.stringify(r)).join('\n')}\n`);
      session.fullLines = fullRecords.length;
    }
    for (const [idx, output] of story.outputs) write(`.system_generated/steps/${idx}/output.txt`, output);
    session.outputs = story.outputs.size;
    for (const [name, log] of story.taskLogs) write(`.system_generated/tasks/${name}.log`, log);
    session.taskLogs = story.taskLogs.size;
    if (options.database !== false) {
      session.database = writeDatabase(home, product, id, workspace, story, options.seed);
      bytes += session.database.bytes;
    }
  }

  // Messages: most sessions have a few, a few have many (the survey's largest had 1,179).
  if (rng.chance(0.7)) {
    const count = rng.chance(0.1) ? rng.int(40, 200) : rng.int(1, 12);
    const read: Record<string, boolean> = {};
    for (let i = 0; i < count; i++) {
      const mid = rng.uuid();
      read[mid] = true;
      const ts = new Date(start + i * 45_000).toISOString();
      write(
        `.system_generated/messages/${mid}.json`,
        JSON.stringify({
          id: mid,
          recipient: id,
          sender: rng.chance(0.5) ? 'system' : `${id}/task-${rng.int(1, 900)}`,
          priority: rng.pick(['MESSAGE_PRIORITY_HIGH', 'MESSAGE_PRIORITY_NORMAL']),
          timestamp: ts,
          renderDetails: { messageTitle: text.sentence(3, 6) },
          content: text.paragraph(rng.int(1, 4)),
        }),
      );
    }
    write('.system_generated/messages/read.json', JSON.stringify(read));
    session.messages = count;
  }

  // Artifacts: markdown documents with metadata, some with resolved versions.
  const names = ['task.md', 'implementation_plan.md', 'walkthrough.md', 'design_notes.md', 'review.md'];
  const artifactCount = options.steps === 0 ? rng.int(2, 5) : rng.weighted({ 0: 3, 1: 2, 2: 2, 3: 3, 4: 2, 5: 1 } as Record<string, number>);
  for (let i = 0; i < Number(artifactCount); i++) {
    const name = names[i] as string;
    const doc = () => `# ${text.sentence(2, 6)}\n\n${text.paragraph(3)}\n\n${text.code('md', rng.int(10, 60))}\n`;
    write(name, doc());
    write(
      `${name}.metadata.json`,
      JSON.stringify(
        {
          summary: text.sentence(6, 18),
          updatedAt: new Date(start + rng.int(60_000, 7_200_000)).toISOString(),
          ...(rng.chance(0.5) ? { userFacing: true } : {}),
          ...(rng.chance(0.3) ? { artifactType: 'ARTIFACT_TYPE_MARKDOWN' } : {}),
          ...(rng.chance(0.15) ? { requestFeedback: true } : {}),
        },
        null,
        2,
      ),
    );
    if (rng.chance(0.3)) {
      const versions = rng.int(1, 8);
      for (let v = 0; v < versions; v++) write(`${name}.resolved.${v}`, doc());
      write(`${name}.resolved`, doc());
    }
    session.artifacts++;
  }
  if (rng.chance(0.2)) write(`scratch/${text.ident()}.py`, text.code('py', rng.int(10, 80)));
  return { session, bytes };
}

/** The session's conversation database from its story, with a PRNG of its own (the transcripts stay the same without it). */
function writeDatabase(home: string, product: string, id: string, workspace: string, story: Story, seed: number): NonNullable<SyntheticSession['database']> {
  const rows = syntheticConversationDb(story.records, (seed ^ 0x2b_d8_c0_1d) >>> 0 || 1, { id, workspace, taskLogs: story.taskLogs });
  const file = path.join(home, product, 'conversations', `${id}.db`);
  writeConversationDb(file, rows.steps, rows.calls, { conversationId: id, ...(rows.walFrom !== undefined ? { walFrom: rows.walFrom } : {}) });
  let bytes = 0;
  for (const suffix of ['', '-wal', '-shm']) bytes += statSync(`${file}${suffix}`, { throwIfNoEntry: false })?.size ?? 0;
  return { path: file, steps: rows.steps.length, calls: rows.calls.length, dbOnlySteps: rows.dbOnlySteps, wal: rows.walFrom !== undefined, bytes };
}

/** A line index where a user turn starts, a third of the way in or later (for stretches that start late). */
function turnBoundary(records: StepRecord[], rng: Rng): number {
  const from = Math.floor(records.length * (0.2 + rng.next() * 0.3));
  for (let i = from; i < records.length; i++) if (records[i]?.type === 'USER_INPUT') return i;
  return 0;
}

interface Story {
  records: StepRecord[];
  entries: number;
  rewinds: number;
  runningRewrites: number;
  outputs: Map<number, string>;
  taskLogs: Map<string, string>;
}

/** Invent a session's steps: user turns, each a run of planner responses, tool results and system notes. */
function tellStory(rng: Rng, text: TextGen, target: number, start: number, workspace: string, id: string, user: string): Story {
  const records: StepRecord[] = [];
  const outputs = new Map<number, string>();
  const taskLogs = new Map<string, string>();
  // A pool of files this session wrote; viewing or rewriting one repeats its text, as real sessions do.
  const files: { path: string; lang: CodeLang; code: string }[] = [];
  let idx = rng.chance(0.5) ? 0 : rng.int(100, 7000);
  let time = start;
  let entries = 0;
  let rewinds = 0;
  let runningRewrites = 0;
  const userInputs: number[] = [];
  const allowRewinds = target > 40 && rng.chance(0.3);
  const writeOutputs = rng.chance(0.25);

  const stamp = () => {
    time += rng.int(1, 40) * 1000;
    return new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
  };
  const header = (t: string) => `Created At: ${t}\nCompleted At: ${t}\n`;
  // The latest record written at each index: after a rewind, a new step of the same source and type right after a
  // RUNNING one would read as its rewrite (merge rule 2), so such an index is skipped (gaps are normal anyway).
  const latest = new Map<number, StepRecord>();
  const push = (rec: Omit<StepRecord, 'step_index' | 'created_at'>): StepRecord => {
    for (let prev = latest.get(idx); prev && prev.status === 'RUNNING' && prev.source === rec.source && prev.type === rec.type; prev = latest.get(idx)) idx++;
    const { source, type, status, ...rest } = rec;
    const full: StepRecord = { step_index: idx, source, type, status, created_at: stamp(), ...rest };
    records.push(full);
    latest.set(idx, full);
    entries++;
    // Missing indices inside the range are the rule in real files (44 of 47).
    idx += rng.chance(0.02) ? 2 : 1;
    return full;
  };
  const pickFile = (): { path: string; lang: CodeLang; code: string } => {
    if (files.length > 0 && rng.chance(0.3)) return rng.pick(files);
    const lang = text.lang();
    const file = { path: text.path(workspace, lang), lang, code: text.code(lang, rng.int(40, 200)) };
    files.push(file);
    return file;
  };

  while (entries < target) {
    // A rewind: the user goes back to an earlier request and sends it again; the indices after it are reused.
    if (allowRewinds && userInputs.length > 1 && rng.chance(0.08) && entries < target - 10) {
      const back = userInputs[rng.int(Math.max(0, userInputs.length - 4), userInputs.length - 2)] as number;
      if (back < idx - 1) {
        idx = back;
        rewinds++;
      }
    }
    userInputs.push(idx);
    const request = text.paragraph(rng.int(1, 4));
    const mention = rng.chance(0.3) ? ` Look at @[${pickFile().path.split('/').pop()}].` : '';
    push({
      source: 'USER_EXPLICIT',
      type: 'USER_INPUT',
      status: 'DONE',
      content:
        `<USER_REQUEST>\n${request}${mention}\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is: ` +
        `${new Date(time + 7_200_000).toISOString().slice(0, 19)}+02:00. This is the latest source of truth for time.\n` +
        `The user's OS version is mac.\n${rng.chance(0.2) ? 'The user has changed the setting `Model Selection` from Gemini 3.1 Pro (High) to Gemini 3.8 Flash (Medium). No need to acknowledge this.\n' : ''}` +
        `Active Document: ${workspace}/README.md\n</ADDITIONAL_METADATA>\n<user_information>\nThe USER's OS version is mac.\nWorkspace: ${workspace}\n</user_information>`,
    });
    if (entries >= target) break;
    if (records.length < 3 && rng.chance(0.5)) push({ source: 'SYSTEM', type: 'CONVERSATION_HISTORY', status: 'DONE' });
    const cycles = rng.int(1, 14);
    for (let c = 0; c < cycles && entries < target; c++) {
      if (rng.chance(0.006)) {
        push({ source: 'SYSTEM', type: 'CHECKPOINT', status: 'DONE', content: `{{ CHECKPOINT ${c} }}\n**The earlier parts of this conversation have been truncated.**\n\n${text.paragraph(8)}` });
        continue;
      }
      const tool = rng.weighted(TOOLS);
      const file = tool === 'view_file' || tool === 'write_to_file' || tool === 'replace_file_content' || tool === 'multi_replace_file_content' ? pickFile() : undefined;
      const call = toolCall(rng, text, tool, workspace, file, id);
      push({
        source: 'MODEL',
        type: 'PLANNER_RESPONSE',
        status: 'DONE',
        content: text.paragraph(rng.int(1, 3)),
        ...(rng.chance(0.45) ? { thinking: `**${text.sentence(2, 5)}**\n\n${text.paragraph(rng.int(1, 5))}\n\n\n` } : {}),
        tool_calls: [call],
      });
      if (entries >= target) break;
      const t = new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
      if (rng.chance(0.04)) {
        const error = `There was a problem parsing the tool call.\nError Message: model output error: invalid tool call error (invalid_args) ${text.sentence(5, 12)}\nRetries remaining: ${rng.int(1, 4)}.`;
        push({ source: 'SYSTEM', type: 'ERROR_MESSAGE', status: 'DONE', error, ...(rng.chance(0.3) ? { error_code: rng.int(1, 16) } : {}), content: `${header(t)}Error invalid tool call: ${error}` });
      } else {
        const result = toolResult(rng, text, tool, call, t, file, id);
        if (tool === 'run_command' && rng.chance(0.3)) {
          // A long command: recorded as RUNNING, then either rewritten DONE on the next line or left running
          // with a task log (what the survey's 270 RUNNING lines are).
          const taskId = `task-${idx}`;
          const running = push({
            source: 'MODEL',
            type: 'RUN_COMMAND',
            status: 'RUNNING',
            content: `Created At: ${t}\nTool is running as a background task with task id: ${id}/${taskId}\nTask Description: ${String(call.args.CommandLine)}\nTask logs are available at: file:///Users/${user}/.gemini/antigravity/brain/${id}/.system_generated/tasks/${taskId}.log`,
          });
          taskLogs.set(taskId, result.output ?? '');
          if (rng.chance(0.6)) {
            const done: StepRecord = { ...running, status: 'DONE', content: result.content, exit_code: 0 };
            records.push(done);
            latest.set(done.step_index, done);
            runningRewrites++;
          }
        } else {
          const rec = push({ source: 'MODEL', type: RESULT_TYPE[tool], status: result.status, content: result.content, ...(result.exitCode !== undefined ? { exit_code: result.exitCode } : {}) });
          if (result.output !== undefined && writeOutputs && rng.chance(0.5)) outputs.set(rec.step_index, result.output);
        }
      }
      if (entries < target && rng.chance(0.28)) {
        push({ source: 'SYSTEM', type: 'EPHEMERAL_MESSAGE', status: 'DONE', content: `<EPHEMERAL_MESSAGE>\n${text.paragraph(rng.int(1, 3))}\n</EPHEMERAL_MESSAGE>` });
      }
      if (entries < target && rng.chance(0.07)) {
        push({ source: 'SYSTEM', type: 'SYSTEM_MESSAGE', status: 'DONE', content: `The following is a <SYSTEM_MESSAGE> not actually sent by the user.\n\n<SYSTEM_MESSAGE>\n[Message] timestamp=${t} sender=${id}/task-${rng.int(1, 900)} content=${text.paragraph(2)}\n</SYSTEM_MESSAGE>` });
      }
    }
    if (entries < target) {
      // The turn ends with a plain answer (markdown with a code fence now and then).
      const fence = rng.chance(0.25) ? `\n\n\`\`\`ts\n${text.code('ts', rng.int(5, 30))}\n\`\`\`\n` : '';
      push({ source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', content: `### ${text.sentence(2, 6)}\n\n${text.paragraph(rng.int(2, 6))}\n\n* ${text.sentence()}\n* ${text.sentence()}${fence}` });
    }
  }
  return { records, entries, rewinds, runningRewrites, outputs, taskLogs };
}

function toolCall(rng: Rng, text: TextGen, tool: ToolName, workspace: string, file: { path: string; lang: CodeLang; code: string } | undefined, id: string): ToolCallRecord {
  const ux = { toolAction: text.sentence(2, 5), toolSummary: text.sentence(1, 3) };
  switch (tool) {
    case 'run_command':
      return { name: tool, args: { CommandLine: text.command(), Cwd: workspace, SafeToAutoRun: rng.chance(0.6), WaitMsBeforeAsync: rng.pick([0, 500, 3000, 5000]), ...ux } };
    case 'view_file':
      return { name: tool, args: { AbsolutePath: file?.path, ...(rng.chance(0.3) ? { StartLine: 1, EndLine: rng.int(40, 800) } : {}), ...ux } };
    case 'write_to_file': {
      const artifact = rng.chance(0.1);
      return {
        name: tool,
        args: {
          ...(artifact ? { ArtifactMetadata: { RequestFeedback: rng.chance(0.5), Summary: text.sentence(8, 20), UserFacing: true } } : {}),
          CodeContent: file?.code,
          Description: text.sentence(6, 16),
          Overwrite: rng.chance(0.5),
          TargetFile: artifact ? `/Users/x/.gemini/antigravity/brain/${id}/plan.md` : file?.path,
          ...ux,
        },
      };
    }
    case 'replace_file_content': {
      const lines = file?.code.split('\n') ?? [];
      const from = rng.int(0, Math.max(0, lines.length - 10));
      const to = Math.min(lines.length, from + rng.int(10, 120));
      const target = lines.slice(from, to).join('\n');
      return {
        name: tool,
        args: {
          AllowMultiple: false,
          Description: text.sentence(6, 16),
          EndLine: to,
          Instruction: text.sentence(5, 12),
          ReplacementContent: `${target}\n${text.code(file?.lang ?? 'ts', rng.int(3, 60))}`,
          StartLine: from + 1,
          TargetContent: target,
          TargetFile: file?.path,
          ...ux,
        },
      };
    }
    case 'multi_replace_file_content': {
      const chunks = [];
      for (let i = 0, n = rng.int(2, 5); i < n; i++) {
        const start = rng.int(1, 300);
        chunks.push({ AllowMultiple: false, EndLine: start + 8, ReplacementContent: text.code(file?.lang ?? 'ts', rng.int(4, 30)), StartLine: start, TargetContent: text.code(file?.lang ?? 'ts', rng.int(4, 20)) });
      }
      return { name: tool, args: { Description: text.sentence(6, 16), Instruction: text.sentence(5, 12), ReplacementChunks: chunks, TargetFile: file?.path, ...ux } };
    }
    case 'list_dir':
      return { name: tool, args: { DirectoryPath: workspace, ...ux } };
    case 'grep_search':
      return { name: tool, args: { CaseInsensitive: rng.chance(0.5), IsRegex: false, MatchPerLine: true, Query: text.ident(), SearchPath: `${workspace}/src`, ...ux } };
    case 'manage_task':
      return { name: tool, args: { Action: rng.pick(['create', 'update', 'complete']), TaskId: `task-${rng.int(1, 99)}`, Title: text.sentence(3, 8), ...ux } };
    case 'schedule':
      return { name: tool, args: { DelaySeconds: rng.int(5, 600), Reason: text.sentence(4, 10), ...ux } };
    case 'read_url_content':
      return { name: tool, args: { Url: `https://docs.example.com/${text.ident()}`, ...ux } };
    case 'generate_image':
      return { name: tool, args: { ImageName: `${text.ident()}_mockup`, Prompt: text.paragraph(2), ...ux } };
    case 'search_web':
      return { name: tool, args: { query: text.sentence(3, 8) } };
    case 'ask_question':
      return { name: tool, args: { Question: text.sentence(6, 14), Options: [text.sentence(2, 4), text.sentence(2, 4)] } };
    case 'call_mcp_tool':
      return { name: tool, args: { ServerName: 'firebase', ToolName: 'firestore_query', Arguments: { collection: text.ident(), limit: rng.int(1, 50) } } };
    default:
      return { name: tool, args: { CommandId: rng.uuid(), WaitDurationSeconds: rng.int(1, 60), ...ux } };
  }
}

function toolResult(
  rng: Rng,
  text: TextGen,
  tool: ToolName,
  call: ToolCallRecord,
  t: string,
  file: { path: string; lang: CodeLang; code: string } | undefined,
  id: string,
): { content: string; status: string; output?: string; exitCode?: number } {
  const header = `Created At: ${t}\nCompleted At: ${t}\n`;
  switch (tool) {
    case 'run_command': {
      // Mostly short output; now and then a build log of 10–70 KB.
      const lines = rng.chance(0.05) ? rng.int(150, 1200) : rng.int(2, 40);
      const output = text.commandOutput(lines);
      const failed = rng.chance(0.1);
      return {
        content: `${header}\n\t\t\t\tThe command ${failed ? 'failed with exit code: 1' : 'completed successfully'}.\n\t\t\t\tOutput:\n\t\t\t\t\n${output}`,
        status: 'DONE',
        output,
        ...(rng.chance(0.2) ? { exitCode: failed ? 1 : 0 } : {}),
      };
    }
    case 'view_file': {
      const code = file?.code ?? '';
      const numbered = code.split('\n').map((l, i) => `${i + 1}: ${l}`);
      return {
        content: `${header}File Path: \`file://${file?.path}\`\nTotal Lines: ${numbered.length}\nTotal Bytes: ${code.length}\nShowing lines 1 to ${numbered.length}\nThe following code has been modified to include a line number before every line, in the format: <line_number>: <original_line>. Please note that any changes targeting the original code should remove the line number, colon, and leading space.\n${numbered.join('\n')}\nThe above content shows the entire, complete file contents of the requested file.\n`,
        status: 'DONE',
      };
    }
    case 'write_to_file':
    case 'replace_file_content':
    case 'multi_replace_file_content': {
      if (rng.chance(0.02)) return { content: `${header}Error: target content not found in ${file?.path}`, status: 'ERROR' };
      if (tool === 'write_to_file') return { content: `${header}Created file file://${call.args.TargetFile} with requested content.`, status: 'DONE' };
      const before = String(call.args.TargetContent ?? text.code('ts', 6)).split('\n').slice(0, 12);
      const after = text.code(file?.lang ?? 'ts', rng.int(3, 14)).split('\n');
      const start = Number(call.args.StartLine ?? 1);
      return {
        content: `${header}The following changes were made by the ${tool} tool to: ${file?.path}. If relevant, proactively run terminal commands to execute this code for the USER. Don't ask for permission.\n[diff_block_start]\n@@ -${start},${before.length} +${start},${after.length} @@\n${before.map((l) => `-${l}`).join('\n')}\n${after.map((l) => `+${l}`).join('\n')}\n[diff_block_end]\n\nPlease note that the above snippet only shows the MODIFIED lines from the last change.`,
        status: 'DONE',
      };
    }
    case 'list_dir': {
      const entries = [];
      for (let i = 0, n = rng.int(3, 25); i < n; i++) entries.push(rng.chance(0.3) ? JSON.stringify({ name: text.ident(), isDir: true }) : JSON.stringify({ name: `${text.ident()}.ts`, sizeBytes: String(rng.int(10, 90000)) }));
      return { content: `${header}${entries.join('\n')}\n\nSummary: This directory contains ${entries.length} entries.`, status: 'DONE' };
    }
    case 'grep_search': {
      if (rng.chance(0.1)) return { content: `${header}Error: no results found`, status: 'ERROR' };
      const hits = [];
      for (let i = 0, n = rng.int(1, 30); i < n; i++) hits.push(JSON.stringify({ File: `${String(call.args.SearchPath)}/${text.ident()}.ts`, LineNumber: rng.int(1, 800), LineContent: `const ${String(call.args.Query)} = ${text.ident()}();` }));
      return { content: `${header}${hits.join('\n')}`, status: 'DONE' };
    }
    case 'read_url_content':
    case 'search_web':
      return { content: `${header}${text.paragraph(rng.int(5, 30))}`, status: 'DONE' };
    case 'generate_image':
      return { content: `${header}Generated image saved to file:///Users/x/.gemini/antigravity/brain/${id}/${String(call.args.ImageName)}.png`, status: 'DONE' };
    default:
      return { content: `${header}${text.sentence(5, 20)}`, status: 'DONE' };
  }
}

/** Cut `s` in the middle like the compact transcript does: head, marker, tail. */
function cutMiddle(s: string, head: number, tail: number): string {
  const dropped = Buffer.byteLength(s.slice(head, s.length - tail));
  return `${s.slice(0, head)}\n<truncated ${dropped} bytes>\n${s.slice(s.length - tail)}`;
}

/** The compact view of a record: every arg JSON-encoded as a string, long values cut, `truncated_fields` set. */
function compactLine(rec: StepRecord): { text: string; truncated: boolean; cutArgs: number } {
  const fields: string[] = [];
  let cutArgs = 0;
  const out: Record<string, unknown> = { step_index: rec.step_index, source: rec.source, type: rec.type, status: rec.status, created_at: rec.created_at };
  if (rec.content !== undefined) {
    if (rec.content.length > CONTENT_LIMIT) {
      out.content = cutMiddle(rec.content, CONTENT_HEAD, CONTENT_TAIL);
      fields.push('content');
    } else out.content = rec.content;
  }
  if (rec.thinking !== undefined) {
    if (rec.thinking.length > THINKING_LIMIT) {
      out.thinking = cutMiddle(rec.thinking, 1500, 1000);
      fields.push('thinking');
    } else out.thinking = rec.thinking;
  }
  if (rec.tool_calls) {
    out.tool_calls = rec.tool_calls.map((call) => {
      const args: Record<string, string> = {};
      for (const [k, v] of Object.entries(call.args)) {
        if (v === undefined) continue;
        const encoded = JSON.stringify(v);
        if (encoded.length > ARG_LIMIT) {
          args[k] = `${encoded.slice(0, ARG_KEEP)}\n<truncated ${Buffer.byteLength(encoded.slice(ARG_KEEP))} bytes>`;
          cutArgs++;
        } else args[k] = encoded;
      }
      return { name: call.name, args };
    });
    if (cutArgs > 0) fields.push('tool_calls');
  }
  if (rec.error !== undefined) out.error = rec.error;
  if (rec.error_code !== undefined) out.error_code = rec.error_code;
  if (rec.exit_code !== undefined) out.exit_code = rec.exit_code;
  if (fields.length > 0) out.truncated_fields = fields;
  return { text: JSON.stringify(out), truncated: fields.length > 0, cutArgs };
}

/** `node scripts/bench/synthetic-home.ts <dir> [steps] [seed]`: write a home by hand, to look at it. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = 'bench-work/home', steps = '2000', seed = '1'] = process.argv.slice(2);
  const t0 = performance.now();
  const home = writeSyntheticHome(path.resolve(dir), { steps: Number(steps), seed: Number(seed) });
  const ms = performance.now() - t0;
  console.log(
    `${home.sessions.length} sessions, ${home.steps} steps, ${(home.bytes / 2 ** 20).toFixed(1)} MiB (${home.databases.count} conversation databases, ` +
      `${(home.databases.bytes / 2 ** 20).toFixed(1)} MiB) in ${(ms / 1000).toFixed(1)} s → ${home.dir}`,
  );
}
