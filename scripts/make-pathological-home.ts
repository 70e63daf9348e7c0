/**
 * Writes a GEMINI_HOME of files that are huge in lines, not in bytes (issue 10): a transcript of `lines` non-JSON
 * lines, one of `lines` `{}` lines, and one where a single step is written RUNNING `lines` times before it is DONE,
 * beside an ordinary session. With 2 million lines each, the build used to run out of string length (and 8 GB of
 * memory) on `/report/`, in content sync and on the step's page. Written at test time (not committed: at 2 million
 * lines the files are 4–300 MB).
 *
 * Usage: node scripts/make-pathological-home.ts <dir> [lines]   (prints the GEMINI_HOME to use; lines: 2000000)
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Session UUIDs, each named for what it covers. */
export const PATHOLOGICAL_SESSIONS = {
  /** An ordinary session of three steps. */
  ordinary: '0dd00000-0000-4000-8000-000000000001',
  /** `transcript_full.jsonl`: one request, then `lines` lines that are not JSON (`x`). */
  notJson: '0dd00000-0000-4000-8000-000000000002',
  /** `transcript_full.jsonl`: one request, then `lines` lines `{}` (JSON, but no step). */
  emptyObjects: '0dd00000-0000-4000-8000-000000000003',
  /** `transcript_full.jsonl`: one request, then step 1 written RUNNING `lines` times, then DONE. */
  rewrites: '0dd00000-0000-4000-8000-000000000004',
} as const;

/** Where the home is and what it holds. */
export interface PathologicalHome {
  home: string;
  /** How many pathological lines each transcript holds. */
  lines: number;
  sessions: typeof PATHOLOGICAL_SESSIONS;
}

/** The transcript every session here writes, relative to its folder. */
export const TRANSCRIPT = '.system_generated/logs/transcript_full.jsonl';

const request = (text: string) =>
  JSON.stringify({
    step_index: 0,
    source: 'USER_EXPLICIT',
    type: 'USER_INPUT',
    status: 'DONE',
    created_at: '2026-08-01T09:00:00Z',
    content: `<USER_REQUEST>\n${text}\n</USER_REQUEST>`,
  });

/** Write `count` copies of `line` (plus a newline each) after `head`, in big blocks (2 million lines in ~1 s). */
async function writeRepeated(file: string, head: string[], line: string, count: number, tail: string[] = []): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  for (const h of head) await write(`${h}\n`);
  const perBlock = 10_000;
  const block = `${line}\n`.repeat(perBlock);
  let left = count;
  for (; left >= perBlock; left -= perBlock) await write(block);
  if (left > 0) await write(`${line}\n`.repeat(left));
  for (const t of tail) await write(`${t}\n`);
  out.end();
  await once(out, 'close');
}

/** Write the home under `dir` (created) with `lines` pathological lines per transcript. */
export async function makePathologicalHome(dir: string, lines = 2_000_000): Promise<PathologicalHome> {
  const home = path.join(dir, 'gemini');
  const brain = path.join(home, 'antigravity', 'brain');
  const file = (id: string) => path.join(brain, id, TRANSCRIPT);
  const s = PATHOLOGICAL_SESSIONS;
  await writeRepeated(file(s.ordinary), [
    request('An ordinary session'),
    JSON.stringify({ step_index: 1, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: '2026-08-01T09:00:05Z', content: 'Looking.' }),
    JSON.stringify({ step_index: 2, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: '2026-08-01T09:00:09Z', content: 'Done.' }),
  ], '', 0);
  await writeRepeated(file(s.notJson), [request('Then lines that are not JSON')], 'x', lines);
  await writeRepeated(file(s.emptyObjects), [request('Then lines that are no step')], '{}', lines);
  const running = { step_index: 1, source: 'MODEL', type: 'RUN_COMMAND', status: 'RUNNING', created_at: '2026-08-01T09:00:02Z', content: 'still running' };
  await writeRepeated(file(s.rewrites), [request('Then one step written over and over')], JSON.stringify(running), lines, [
    JSON.stringify({ ...running, status: 'DONE', content: 'finished at last', exit_code: 0 }),
  ]);
  return { home, lines, sessions: s };
}

if (import.meta.main) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/make-pathological-home.ts <dir> [lines]');
    process.exit(2);
  }
  const made = await makePathologicalHome(path.resolve(dir), process.argv[3] ? Number(process.argv[3]) : undefined);
  console.log(made.home);
}
