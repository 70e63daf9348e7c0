/**
 * The conversation database of a synthetic session (`<product>/conversations/<uuid>.db`, issue 29), in the shapes
 * of the eight real ones (`../shared/real-db/` README): a `steps` row for each step the transcripts hold at its index
 * now (after a rewind, the latest), with source, final status, status history, times and the type's payload; a
 * `gen_metadata` row per reply (the model call: display name and model id, uncached input that grows with the
 * conversation while the cache-read part follows it, output split into thinking and visible, time to first token
 * and streaming time), the last row holding the whole prompt; and the steps only a database has: a checkpoint near
 * the start (all 8 real ones), and in a third of the sessions a few steps after the transcripts stop (a task notice,
 * empty replies whose calls failed, a network error: e853036a 104–110). A quarter keep their newest rows in the
 * `-wal`, as a copy of a database Antigravity has open (e853036a, d0bd9822).
 *
 * Types the reader has no number for (EPHEMERAL_MESSAGE, READ_URL_CONTENT, …: no real database holds one) get no
 * row, so the bench's /report/ has no notice a real home would not have. Its own PRNG, seeded from the session's,
 * so a home written with or without databases has the same transcripts.
 */
import { STEP_TYPES } from '../../src/lib/brain/conversation-db/fields.ts';
import type { Fields, WrittenCall, WrittenStep } from '../lib/conversation-db-writer.ts';
import type { StepRecord as TranscriptStep } from './synthetic-home.ts';
import { Rng, TextGen } from './text.ts';

/** What to write, and what it adds to the session. */
export interface SyntheticDb {
  steps: WrittenStep[];
  calls: WrittenCall[];
  /** Steps only the database holds (the reader shows them as steps of their own). */
  dbOnlySteps: number;
  /** Rows from this step index on stay in the `-wal`. */
  walFrom?: number;
}

const TYPE_CODE: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(STEP_TYPES).map(([code, name]) => [name, Number(code)]));
const SOURCE_CODE: Readonly<Record<string, number>> = { MODEL: 2, USER_EXPLICIT: 4, SYSTEM: 5 };
/** The step_payload field of each type (README §2.2, "payload field"). */
const PAYLOAD_FIELD: Readonly<Record<number, number>> = { 5: 10, 7: 13, 8: 14, 9: 15, 14: 19, 15: 20, 17: 24, 21: 28, 23: 30, 33: 42, 98: 111, 101: 114, 132: 140 };
const PLANNER = 15;

/** Display name and response model id (README §2.3: `Gemini 3.5 Flash (Medium)` / `gemini-3-flash-a` on the real rows). */
const MODELS = {
  flash: { name: 'Gemini 3.5 Flash (Medium)', id: 'gemini-3-flash-a' },
  pro: { name: 'Gemini 3.1 Pro (High)', id: 'gemini-3-pro-a' },
  // The transcripts' user inputs say "changed the setting `Model Selection` … to Gemini 3.8 Flash (Medium)" now and then.
  switched: { name: 'Gemini 3.8 Flash (Medium)', id: 'gemini-3-flash-c' },
};
const MODEL_SWITCH = 'from Gemini 3.1 Pro (High) to Gemini 3.8 Flash (Medium)';

const iso = (ms: number) => new Date(ms).toISOString();

/** The database rows of a session whose transcripts hold `records`; `taskLogs` by `task-<idx>` (a background command's output). */
export function syntheticConversationDb(records: readonly TranscriptStep[], seed: number, session: { id: string; workspace: string; taskLogs: ReadonlyMap<string, string> }): SyntheticDb {
  const rng = new Rng(seed);
  const text = new TextGen(rng);
  const latest = new Map<number, TranscriptStep>();
  for (const r of records) latest.set(r.step_index, r);
  const ordered = [...latest.values()].sort((a, b) => a.step_index - b.step_index);

  const steps: WrittenStep[] = [];
  const calls: WrittenCall[] = [];
  // A session whose requests say the model was switched "from Gemini 3.1 Pro (High)" starts on that one.
  const switches = records.some((r) => r.type === 'USER_INPUT' && r.content?.includes(MODEL_SWITCH));
  let model = rng.chance(0.7) && !switches ? MODELS.flash : MODELS.pro;
  let run = 0;
  let context = rng.int(14_000, 20_000); // system prompt and tools, before the first message (real call 0: 18,937)
  let lastInput = 0;
  const execution = () => `${session.id.slice(0, 8)}-run-${run}`;
  let firstRequest: string | undefined;
  const madeBy = new Map<number, { id: string; name: string; args: string }>();

  const call = (produced: number[], at: number, reply: TranscriptStep | undefined, failed?: string): { ttft: number; stream: number } => {
    // Time to first token: median 2.36 s, 0.83–37.7 s; streaming median 0.13 s, at most 15.9 s (README §2.3).
    const ttft = rng.chance(0.04) ? rng.int(6_000, 37_000) : rng.int(830, 4_200);
    const replyChars = (reply?.content?.length ?? 0) + JSON.stringify(reply?.tool_calls ?? []).length;
    const stream = Math.min(15_900, 40 + Math.round(replyChars / 12) + rng.int(0, 200));
    const row: WrittenCall = { idx: calls.length, steps: produced, model: model.name, execution: execution(), requestAt: iso(at), ttftMs: ttft, streamMs: stream };
    if (failed) row.failed = failed;
    else {
      row.modelId = model.id;
      // Input grows call by call; most calls read all but the newest messages from the cache (e853036a calls 0–4:
      // 18,937+0, 19,680+0, 3,778+16,276, 24,925+0, 578+24,514).
      const cacheRead = lastInput > 0 && rng.chance(0.8) ? Math.min(lastInput, context - 1) : 0;
      const visible = Math.max(3, Math.round((replyChars / 4) * (0.9 + rng.next() * 0.2)));
      // 256 of 297 real replies count thinking tokens although their transcript line has no thinking text.
      const thinking = reply?.thinking ? Math.round((reply.thinking.length / 4) * (0.8 + rng.next() * 0.4)) : rng.chance(0.85) ? rng.int(40, 700) : 0;
      row.usage = { input: context - cacheRead, cacheRead, thinking, visible };
      lastInput = context;
    }
    calls.push(row);
    return { ttft, stream };
  };

  ordered.forEach((rec, i) => {
    const code = TYPE_CODE[rec.type];
    const source = SOURCE_CODE[rec.source];
    const created = Date.parse(rec.created_at);
    const grow = Math.round(((rec.content?.length ?? 0) + (rec.thinking?.length ?? 0) + JSON.stringify(rec.tool_calls ?? []).length) / 4);
    if (code === undefined || source === undefined || Number.isNaN(created)) {
      context += grow;
      return;
    }
    const row: WrittenStep = { idx: rec.step_index, type: code, status: 3, source, created: iso(created), execution: execution() };
    const field = PAYLOAD_FIELD[code] as number;
    switch (code) {
      case 14: {
        run++;
        row.execution = execution();
        const typed = /<USER_REQUEST>\n([\s\S]*?)\n<\/USER_REQUEST>/.exec(rec.content ?? '')?.[1] ?? rec.content ?? '';
        firstRequest ??= typed;
        if (rec.content?.includes(MODEL_SWITCH)) model = MODELS.switched;
        row.body = [field, [[2, typed]]];
        row.history = [[3, row.created]];
        break;
      }
      case PLANNER: {
        const next = ordered[i + 1];
        const produced = next && next.source === 'MODEL' && next.type !== 'PLANNER_RESPONSE' && rec.tool_calls?.length ? [rec.step_index, next.step_index] : [rec.step_index];
        const failed = rng.chance(0.01) ? 'model unreachable: request failed: network issue' : undefined;
        const { ttft, stream } = call(produced, created, rec, failed);
        row.firstOutput = iso(created + ttft);
        row.finished = iso(created + ttft + stream);
        row.history = [[8, row.created], [3, row.finished]];
        const reply: Fields = [];
        if (rec.content) reply.push([1, rec.content]);
        if (rec.thinking) reply.push([3, rec.thinking]);
        (rec.tool_calls ?? []).forEach((c, k) => {
          const tool = { id: `call_${rec.step_index}_${k}`, name: c.name, args: JSON.stringify(c.args) };
          reply.push([7, [[1, tool.id], [2, tool.name], [3, tool.args]]]);
          if (produced[1] !== undefined && k === 0) madeBy.set(produced[1], tool);
        });
        if (rec.content) reply.push([8, rec.content]);
        row.body = [field, reply];
        break;
      }
      case 17:
        row.body = [field, [[3, [[2, rec.error ?? rec.content ?? '']]]]];
        row.history = [[3, row.created]];
        break;
      case 21: {
        // A command still RUNNING in the transcript is done (or canceled) in the database, its whole output there.
        const output = rec.status === 'RUNNING' ? session.taskLogs.get(`task-${rec.step_index}`) ?? '' : (rec.content ?? '').split('Output:\n\t\t\t\t\n')[1] ?? '';
        if (rec.status === 'RUNNING' && rng.chance(0.1)) row.status = 6;
        row.body = [field, [[2, session.workspace], [12, rng.pick([0, 500, 3000, 5000])], [21, [[1, output]]]]];
        break;
      }
      case 23:
        row.body = [field, [[4, `${text.sentence(2, 5)}\n${text.sentence(6, 12)}`], [12, rec.step_index], ...(firstRequest ? ([[19, firstRequest]] as Fields) : [])]];
        break;
      case 101:
        row.body = [field, [[1, rec.content ?? '']]];
        row.history = [[3, row.created]];
        break;
      default:
        row.body = [field, []];
    }
    if (rec.status === 'ERROR') row.status = 7;
    if (code !== PLANNER && code !== 14 && code !== 101 && code !== 17) {
      // Tool steps: created, then (commands) waiting for permission, running, done (README §2.2 histories).
      const done = created + rng.int(50, 4_000);
      row.firstOutput = iso(done);
      row.history = code === 21 && rng.chance(0.8) ? [[1, row.created], [9, iso(created + 20)], [2, iso(created + 40)], [row.status, iso(done)]] : [[1, row.created], [2, iso(created + 20)], [row.status, iso(done)]];
      const tool = madeBy.get(rec.step_index);
      if (tool) row.madeBy = tool;
    }
    steps.push(row);
    context += grow;
  });
  if (steps.length === 0) return { steps, calls, dbOnlySteps: 0 };

  // Steps only the database holds. A checkpoint at the first free index after the first request (real: step 4 in
  // seven conversations, 3 in the eighth; no transcript holds one).
  let dbOnlySteps = 0;
  const used = new Set(latest.keys());
  const first = ordered.find((r) => r.type === 'USER_INPUT')?.step_index ?? ordered[0]!.step_index;
  const last = ordered[ordered.length - 1]!;
  let free = first + 1;
  while (used.has(free)) free++;
  if (free < last.step_index) {
    const at = Date.parse(ordered.find((r) => r.step_index > free)?.created_at ?? last.created_at) - 500;
    steps.push({ idx: free, type: 23, status: 3, source: 5, created: iso(at), execution: `${session.id.slice(0, 8)}-run-1`, history: [[1, iso(at)], [2, iso(at + 10)], [3, iso(at + 40)]], body: [30, [[4, `${text.sentence(2, 5)}\n${text.sentence(6, 12)}`], [12, free], ...(firstRequest ? ([[19, firstRequest]] as Fields) : [])]] });
    dbOnlySteps++;
  }
  // After the transcripts stop (e853036a 104–110: a background-task notice, then empty replies and network errors).
  const trailFrom = last.step_index + 1;
  const trailing = rng.chance(0.35);
  if (trailing) {
    let idx = trailFrom;
    let at = Date.parse(last.created_at) + rng.int(5, 120) * 1000;
    steps.push({ idx, type: 101, status: 3, source: 5, created: iso(at), execution: execution(), body: [114, [[1, `[Message] timestamp=${iso(at)} sender=${session.id}/task-${last.step_index} content=The task finished.`]]] });
    for (let k = rng.int(0, 2); k >= 0; k--) {
      idx++;
      at += rng.int(1, 30) * 1000;
      const failed = 'model unreachable: request failed: network issue';
      call([idx], at, undefined, failed);
      steps.push({ idx, type: PLANNER, status: 3, source: 2, created: iso(at), execution: execution(), history: [[8, iso(at)], [3, iso(at + 900)]], body: [20, []] });
      idx++;
      steps.push({ idx, type: 17, status: 3, source: 5, created: iso(at + 1_000), execution: execution(), body: [24, [[3, [[1, 'Agent execution terminated due to error.'], [2, `${failed} (attempt ${k + 1})`]]]]] });
    }
    dbOnlySteps += idx - last.step_index;
  }
  // The newest rows still in the log: the trailing steps (e853036a), or the last tenth (d0bd9822: steps 4–6 of 7).
  const walFrom = rng.chance(0.25) ? (trailing ? trailFrom : ordered[Math.floor(ordered.length * 0.9)]?.step_index) : undefined;

  // The last call holds the whole prompt (README §2.3: exactly one row, the last, 119–670 KB): system prompt, tool
  // definitions, the conversation as sent; only its token breakdown is published.
  const lastCall = calls[calls.length - 1];
  if (lastCall) {
    const system = text.paragraph(rng.int(250, 450));
    const toolText = text.paragraph(rng.int(6, 12));
    const messages = ordered.slice(-40).map((r) => r.content ?? '').filter((m) => m !== '');
    const systemTokens = Math.round(system.length / 4);
    const toolTokens = Math.round((toolText.length * 20) / 4);
    lastCall.prompt = { system, tools: 20, toolText, messages, sections: [['System Prompt', systemTokens], ['Tools', toolTokens], ['Chat Messages', Math.max(1, context - systemTokens - toolTokens)]] };
  }
  steps.sort((a, b) => a.idx - b.idx);
  return { steps, calls, dbOnlySteps, ...(walFrom !== undefined ? { walFrom } : {}) };
}
