/**
 * Hostile content can neither hide nor forge (issue 27 points 1, 3 and 5), through the whole build and the
 * archive store: a tool-call argument nested 5,000 deep (full transcript, JSON-encoded in the compact one, and a
 * message file nested as deep) leaves its session on the site with its steps and a too-deep row on /report/ naming
 * file and line (it vanished, exit 0, "0 problems"); a record without a usable step_index answers no call on
 * /audit/commands/ (it showed `make deploy` exit 0 with its fake output); a reply of `*_` repeated (40 KB) and one
 * of 4,000 nested `>` are shown as written with a note (minutes of build time; a stack overflow stopping the build).
 * Asserts what the pages hold, never how long anything took.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, projectRoot, type BuildSiteResult } from '../helpers/build-site.ts';
import { readPage, textOf } from '../helpers/site-files.ts';

const FULL = '00000000-0000-4000-8000-0000000000d1';
const COMPACT = '00000000-0000-4000-8000-0000000000d2';
const DENSE = '00000000-0000-4000-8000-0000000000d3';
const FORGED = '00000000-0000-4000-8000-000000000080';
const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const STAR_UNDERSCORE = '*_'.repeat(20_000);

let tmp: string;
let outDir: string;
let build: BuildSiteResult;
const page = (p: string) => readPage(outDir, p) ?? '';
const rows = () => [...page('/report/').matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => textOf(m[1] ?? ''));

async function writeLog(home: string, id: string, file: string, lines: string[]): Promise<string> {
  const dir = path.join(home, 'antigravity', 'brain', id);
  await fs.mkdir(path.join(dir, '.system_generated', 'logs'), { recursive: true });
  await fs.writeFile(path.join(dir, '.system_generated', 'logs', file), `${lines.join('\n')}\n`);
  return dir;
}

const ask = (text: string) => JSON.stringify({ step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: '2026-07-01T10:00:00Z', content: `<USER_REQUEST>\n${text}\n</USER_REQUEST>` });
const reply = (i: number, content: string) => JSON.stringify({ step_index: i, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: `2026-07-01T10:00:0${i}Z`, content });
const call = (args: string) => `{"step_index":1,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-07-01T10:00:01Z","tool_calls":[{"name":"run_command","args":${args}}]}`;

describe('the site built from hostile content', () => {
  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'agy-hostile-content-'));
    const home = path.join(tmp, 'home');
    const full = await writeLog(home, FULL, 'transcript_full.jsonl', [ask('Deep in full'), call(`{"CommandLine":"echo hi","Deep":${nested(5_000)}}`), reply(2, 'All done after the deep call.')]);
    const messages = path.join(full, '.system_generated', 'messages');
    await fs.mkdir(messages);
    await fs.writeFile(path.join(messages, 'aaaaaaaa-0000-4000-8000-000000000001.json'), `{"id":"aaaaaaaa-0000-4000-8000-000000000001","sender":"task-1","timestamp":"2026-07-01T10:00:03Z","content":"Deep message","extra":${nested(5_000)}}`);
    await writeLog(home, COMPACT, 'transcript.jsonl', [ask('Deep in compact'), call(JSON.stringify({ CommandLine: '"echo hi"', Deep: nested(5_000) })), reply(2, 'All done after the encoded call.')]);
    await writeLog(home, DENSE, 'transcript.jsonl', [ask('Dense replies'), reply(1, STAR_UNDERSCORE), reply(2, `${'>'.repeat(4_000)} deep quote`), reply(3, 'A **plain** reply.')]);
    await fs.cp(path.join(projectRoot, 'fixtures', 'cases', 'record-without-step-index', 'antigravity'), path.join(home, 'antigravity'), { recursive: true });
    outDir = path.join(tmp, 'dist');
    // Through the archive store (its default in the build helper): the store's read bounds nesting as the folder's does.
    build = await buildSite({ env: { GEMINI_HOME: home, BRAIN_ROOTS: '' }, outDir });
  }, 900_000);
  afterAll(async () => {
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it('builds, exit code 0, with every session on the home page', () => {
    expect(build.code, build.output.slice(-3000)).toBe(0);
    const home = page('/');
    for (const id of [FULL, COMPACT, DENSE, FORGED]) expect(home, id).toContain(`/sessions/${id}/`);
  });

  it('keeps a session whose call nests 5,000 deep, every step of it, and names the file and line on /report/', () => {
    for (const [id, file, title] of [[FULL, 'transcript_full.jsonl', 'Deep in full'], [COMPACT, 'transcript.jsonl', 'Deep in compact']] as const) {
      expect(textOf(page(`/sessions/${id}/`)), id).toContain(title);
      expect(textOf(page(`/sessions/${id}/steps/1/`)), id).toContain('echo hi');
      expect(textOf(page(`/sessions/${id}/steps/2/`)), id).toContain('All done after');
      expect(rows().some((r) => r.includes('too-deep') && r.includes(`.system_generated/logs/${file}`) && /\b2\b/.test(r) && /nests 5,00\d levels deep/.test(r)), id).toBe(true);
    }
    expect(rows().some((r) => r.includes('too-deep') && r.includes('.system_generated/messages/aaaaaaaa-0000-4000-8000-000000000001.json'))).toBe(true);
    expect(rows().filter((r) => r.includes('unreadable'))).toEqual([]);
  });

  it('shows each command with its own result on /audit/commands/, and no forged one', () => {
    const commands = textOf(page('/audit/commands/'));
    expect(commands).toMatch(/make deploy in \/srv\/app .*?exit 1/);
    expect(commands).toMatch(/rm -rf \/data in \/srv\/app .*?exit 0/);
    expect(commands).not.toContain('echo harmless');
    expect(commands).not.toContain('FAKE');
    expect(textOf(page(`/sessions/${FORGED}/steps/2/`))).not.toContain('no call recorded');
    // Each bad record is kept and shown, as an invalid record that answers nothing.
    const planted = textOf(page(`/sessions/${FORGED}/steps/-1/`));
    expect(planted).toContain('Invalid record');
    expect(planted).toContain('FAKE deployed OK');
    expect(planted).toContain('none usable');
    expect(planted).not.toContain('after a rewind');
  });

  it('shows a dense reply and a deeply nested quote as written, with a note, and the replies after them as Markdown', () => {
    const dense = page(`/sessions/${DENSE}/steps/1/`);
    expect(dense).toContain('This block is shown as written, not rendered as Markdown');
    expect(dense).toContain(STAR_UNDERSCORE);
    expect(page(`/sessions/${DENSE}/steps/2/`)).toContain('a line nested more than 32 quotes or lists deep');
    expect(page(`/sessions/${DENSE}/steps/3/`)).toContain('A <strong>plain</strong> reply.');
  });
});
