/**
 * `npm run sessions` prints what a session holds (issue 27, the lows): its table and its one-session view showed
 * a title and a workspace unredacted, and sent their control codes to the terminal (`ESC [2J` clears it, `ESC ]0;`
 * retitles the window, U+202E reverses what follows). Both views are now redacted as `--json` and `/sessions.json`
 * are, and print every control character as a visible escape.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalText } from '../../src/lib/terminal-text.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const SESSION = '5e551045-0000-4000-8000-00000000c0de';
// A fake token, assembled at run time so that no scanner mistakes this file for a leak.
const TOKEN = ['ghp_', 'Zq8wK2mX9vB4nL7pR1tY6uE3oI5aS0dF2gH8'].join('');
const ESC = '\u001b';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'agy-sessions-cli-'));
  const logs = path.join(tmp, 'home', 'antigravity', 'brain', SESSION, '.system_generated', 'logs');
  mkdirSync(logs, { recursive: true });
  const at = (i: number) => `2026-01-02T09:00:0${i}Z`;
  const records = [
    { step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: at(0),
      content: `<USER_REQUEST>\nDeploy ${ESC}[2J${ESC}]0;owned\u0007 with ${TOKEN} \u202Etxt.exe\n</USER_REQUEST>` },
    { step_index: 1, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: at(1),
      tool_calls: [{ name: 'run_command', args: { CommandLine: 'ls', Cwd: `/srv/${ESC}[31mred/${TOKEN}` } }] },
    { step_index: 2, source: 'MODEL', type: 'RUN_COMMAND', status: 'DONE', created_at: at(2), content: 'ok' },
  ];
  writeFileSync(path.join(logs, 'transcript_full.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function sessions(...args: string[]): { code: number | null; out: string } {
  const run = spawnSync(process.execPath, [path.join(projectRoot, 'scripts', 'sessions.ts'), ...args], {
    cwd: projectRoot,
    env: { ...process.env, GEMINI_HOME: path.join(tmp, 'home'), BRAIN_ROOTS: '', ARCHIVE_STORE: 'none', ARCHIVE_STORES: '' },
    encoding: 'utf8',
  });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('npm run sessions', () => {
  it.each([
    ['the table', [] as string[]],
    ['the one-session view', [SESSION.slice(0, 8)]],
  ])('%s: redacts the title and the workspace, and escapes control codes', (_name, args) => {
    const { code, out } = sessions(...args);
    expect(code, out).toBe(0);
    expect(out).not.toContain(TOKEN.slice(4));
    expect(out).toContain('[REDACTED:github-token]');
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(out).toContain('Deploy \\x1B[2J\\x1B]0;owned\\x07 with');
  });

  it('the one-session view shows the whole title and the workspace, escaped', () => {
    const { out } = sessions(SESSION.slice(0, 8));
    expect(out).toContain('\\u202Etxt.exe');
    expect(out).toMatch(/workspace +\/srv\/\\x1B\[31mred\/\[REDACTED:github-token\]/);
  });
});

describe('terminalText', () => {
  it('escapes C0, DEL, C1 and bidi controls, and leaves other text alone', () => {
    expect(terminalText('a\u0000b\tc\nd\u007fe\u009bf\u202eg\u2066h')).toBe('a\\x00b\\x09c\\x0Ad\\x7Fe\\x9Bf\\u202Eg\\u2066h');
    expect(terminalText('비밀번호 パスワード 密码 é 😀 \\x1B')).toBe('비밀번호 パスワード 密码 é 😀 \\x1B');
  });
});
