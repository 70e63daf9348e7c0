/** Temporary homes and stores for the store tests: never the user's real store. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempFolder } from '../helpers/temp.ts';

/**
 * A fresh temp folder, removed when the test that asked for it finishes (`afterEach` registered inside a running
 * test never ran: every store test left its folder behind).
 */
export function tempDir(prefix = 'agy-store-'): string {
  return tempFolder(prefix);
}

/** One step record as Antigravity writes it. `compact` cuts the content and says so. */
export function stepRecord(index: number, options: { compact?: boolean; text?: string } = {}): Record<string, unknown> {
  const text = options.text ?? `Full answer of step ${index}: ${'detail '.repeat(30)}end of step ${index}.`;
  const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString();
  if (index === 0) {
    return { step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: createdAt, content: '<USER_REQUEST>\nKeep everything\n</USER_REQUEST>' };
  }
  if (options.compact) {
    return {
      step_index: index, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: createdAt,
      content: `${text.slice(0, 20)}<truncated ${text.length - 20} bytes>`, truncated_fields: ['content'],
    };
  }
  return { step_index: index, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: createdAt, content: text };
}

/** JSONL of steps `from`..`to` (inclusive). */
export function transcript(from: number, to: number, compact: boolean): string {
  const lines: string[] = [];
  for (let i = from; i <= to; i++) lines.push(JSON.stringify(stepRecord(i, { compact })));
  return `${lines.join('\n')}\n`;
}

/** Write a session folder's transcripts (and optional extra files) under `<home>/antigravity/brain/<id>/`. */
export function writeSession(
  home: string,
  id: string,
  files: { compact?: string; full?: string; extra?: Record<string, string | Buffer> },
): string {
  const dir = path.join(home, 'antigravity', 'brain', id);
  const logs = path.join(dir, '.system_generated', 'logs');
  mkdirSync(logs, { recursive: true });
  if (files.compact !== undefined) writeFileSync(path.join(logs, 'transcript.jsonl'), files.compact);
  if (files.full !== undefined) writeFileSync(path.join(logs, 'transcript_full.jsonl'), files.full);
  for (const [rel, body] of Object.entries(files.extra ?? {})) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
  }
  return dir;
}

export const SESSION_A = 'aaaaaaaa-0000-4000-8000-000000000001';
export const SESSION_B = 'bbbbbbbb-0000-4000-8000-000000000002';

/** A fresh temp folder for a whole test file (removed after all its tests). */
export function tempDirOnce(prefix = 'agy-store-'): string {
  return tempFolder(prefix);
}
