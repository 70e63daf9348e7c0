/**
 * The tests' fixture home with one conversation database, written with the shared writer
 * (`scripts/lib/conversation-db-writer.ts`, the real schema). Laid out as on disk:
 * `<home>/<product>/brain/<uuid>/…` and `<home>/<product>/conversations/<uuid>.db`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeConversationDb } from '../../scripts/lib/conversation-db-writer.ts';

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
