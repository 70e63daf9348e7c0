/**
 * Writes a session folder, laid out as on disk, with given texts planted in given places: the request, a reply's
 * content and thinking, an error, a command (native in the full transcript, a JSON-encoded string in the compact
 * one), an argument whose value is JSON text, an argument the compact transcript cut, a record later rewritten
 * (so the text is only in a raw line), a compact-only step, a step output (also one with a NUL and a byte that
 * is not UTF-8: a text file all the same), a tool's name, an artifact, its metadata and a
 * version, a message, a task log and a scratch file. Transcript lines are written by a JSON writer that escapes
 * `/` and random characters (`\/`, `\u0067`), as other writers may.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringifyEscaping } from './secret-kinds.ts';

/** The places a text can be planted. */
export const FIELDS = [
  'request', 'content', 'thinking', 'error', 'command', 'json-argument', 'cut-argument', 'rewritten',
  'compact-only', 'output', 'odd-output', 'tool-name', 'artifact', 'artifact-summary', 'artifact-version', 'message',
  'task-log', 'scratch',
] as const;
/** One of `FIELDS`. */
export type Field = (typeof FIELDS)[number];

/** A text and where it goes. */
export interface Plant {
  field: Field;
  text: string;
}

interface Line {
  compact?: Record<string, unknown>;
  full?: Record<string, unknown>;
}

/** Write the session `id` under `<home>/antigravity/brain/`, holding every plant; returns its folder. */
export function writePlantedSession(home: string, id: string, plants: readonly Plant[], rng: () => number): string {
  const dir = path.join(home, 'antigravity', 'brain', id);
  const logs = path.join(dir, '.system_generated', 'logs');
  mkdirSync(logs, { recursive: true });
  const at = (i: number) => new Date(Date.UTC(2026, 0, 2, 9, 0, i)).toISOString();
  const lines: Line[] = [];
  let index = 0;
  const record = (fields: Record<string, unknown>): Record<string, unknown> => ({
    step_index: index, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: at(index), ...fields,
  });
  /** The compact transcript writes every argument value JSON-encoded. */
  const compactArgs = (args: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(args).map(([k, v]) => [k, JSON.stringify(v)]));
  const both = (fields: Record<string, unknown>) => {
    const full = record(fields);
    const compact = record(fields);
    const calls = fields.tool_calls as { name: string; args: Record<string, unknown> }[] | undefined;
    if (calls) compact.tool_calls = calls.map((c) => ({ name: c.name, args: compactArgs(c.args) }));
    lines.push({ compact, full });
    index++;
  };

  const requests = plants.filter((p) => p.field === 'request').map((p) => p.text);
  both({ source: 'USER_EXPLICIT', type: 'USER_INPUT', content: `<USER_REQUEST>\n${requests.join('\n') || 'Deploy it'}\n</USER_REQUEST>` });

  const files: [string, string | Buffer][] = [];
  let artifactVersion = 0;
  for (const { field, text } of plants) {
    switch (field) {
      case 'request':
        break;
      case 'content':
      case 'thinking':
        both({ [field]: text });
        break;
      case 'error':
        both({ type: 'ERROR_MESSAGE', status: 'ERROR', error: text });
        break;
      case 'command':
        both({ tool_calls: [{ name: 'run_command', args: { CommandLine: text, Cwd: '/home/u/app' } }] });
        both({ type: 'RUN_COMMAND', content: 'Exit code 0' });
        break;
      case 'json-argument':
        both({ tool_calls: [{ name: 'call_mcp_tool', args: { Arguments: JSON.stringify({ query: text, n: 1 }) } }] });
        break;
      case 'cut-argument': {
        // Only the compact record, cut as Antigravity cuts long values: the encoded text stops, the marker follows.
        const encoded = JSON.stringify(`${text}\n${'x'.repeat(40)}`);
        const compact = record({ tool_calls: [{ name: 'write_to_file', args: { CodeContent: `${encoded.slice(0, -10)}\n<truncated 9000 bytes>` } }] });
        lines.push({ compact });
        index++;
        break;
      }
      case 'rewritten': {
        // RUNNING first, then DONE: the step shows the last write, the first stays in a raw line only.
        lines.push({ full: record({ status: 'RUNNING', content: text }) });
        lines.push({ full: record({ content: 'Done.' }) });
        index++;
        break;
      }
      case 'compact-only':
        lines.push({ compact: record({ tool_calls: [{ name: 'run_command', args: compactArgs({ CommandLine: text }) }] }) });
        index++;
        break;
      case 'output':
        both({ type: 'RUN_COMMAND', content: 'ran' });
        files.push([`.system_generated/steps/${index - 1}/output.txt`, text]);
        break;
      case 'odd-output':
        both({ type: 'RUN_COMMAND', content: 'ran' });
        files.push([
          `.system_generated/steps/${index - 1}/output.txt`,
          Buffer.concat([Buffer.from('progress\0\r'), Buffer.from([0xff, 0xfe]), Buffer.from(` ${text}\n\0done\n`)]),
        ]);
        break;
      case 'tool-name':
        both({ tool_calls: [{ name: text, args: { Cwd: '/home/u/app' } }] });
        break;
      case 'artifact':
        files.push([`notes_${files.length}.md`, `# Notes\n\n${text}\n`]);
        break;
      case 'artifact-summary':
        files.push([`plan_${files.length}.md`, '# Plan\n']);
        files.push([`plan_${files.length - 1}.md.metadata.json`, JSON.stringify({ artifactType: 'ARTIFACT_TYPE_OTHER', summary: text })]);
        break;
      case 'artifact-version':
        files.push([`task.md.resolved.${artifactVersion++}`, `- [ ] ${text}\n`]);
        break;
      case 'message':
        files.push([
          `.system_generated/messages/aaaaaaaa-0000-4000-8000-${String(files.length).padStart(12, '0')}.json`,
          stringifyEscaping({ id: 'm', sender: 'task-1', timestamp: at(0), content: text }, rng),
        ]);
        break;
      case 'task-log':
        files.push([`.system_generated/tasks/task-${files.length}.log`, `started\n${text}\ndone\n`]);
        break;
      case 'scratch':
        files.push([`scratch/note-${files.length}.txt`, text]);
        break;
    }
  }
  if (artifactVersion > 0) files.push(['task.md', '# Task\n']);

  const compact = lines.filter((l) => l.compact).map((l) => stringifyEscaping(l.compact, rng));
  const full = lines.filter((l) => l.full).map((l) => stringifyEscaping(l.full, rng));
  writeFileSync(path.join(logs, 'transcript.jsonl'), `${compact.join('\n')}\n`);
  writeFileSync(path.join(logs, 'transcript_full.jsonl'), `${full.join('\n')}\n`);
  for (const [rel, text] of files) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** A small deterministic PRNG (mulberry32), so a seed writes the same bytes. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
