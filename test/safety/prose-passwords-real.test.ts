/**
 * Passwords in prose on the real sessions (issue 21, point 5), skipped when ../shared/real-brains is absent. Session
 * 86033144 holds a trading account's password, given to a tool as `--password <value>` (in its messages), written in JSON configs (`"password": …`) and repeated in a reply
 * (`password = <value>`). The value is read here from the transcript on disk by a plain regex, independent of the
 * redactor, and never written into this file. The build is the one real-data.test.ts shares.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/build-site.ts';
import { sharedBuild, type SharedBuild } from '../helpers/shared-build.ts';
import { readPage, textOf } from '../helpers/site-files.ts';

// AGY_REAL_BRAINS: for a run from a worktree, where ../shared is not beside the project.
const realHome = process.env.AGY_REAL_BRAINS ?? path.resolve(projectRoot, '../shared/real-brains/gemini');
const SESSION = '86033144-bf85-4d61-ac17-b7e233ed37cb';
const sessionDir = path.join(realHome, 'antigravity', 'brain', SESSION);

describe.skipIf(!existsSync(sessionDir))('passwords in prose, on the real sessions', () => {
  let build: SharedBuild;
  let password: string;
  beforeAll(async () => {
    build = await sharedBuild('real', { GEMINI_HOME: realHome });
    const files = readdirSync(sessionDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    const given = files.map((e) => /--password\s+([^\s"\\]+)/.exec(readFileSync(path.join(e.parentPath, e.name), 'utf8'))?.[1]);
    password = given.find((p) => p !== undefined)!;
  });

  it('publishes the password given as --password and repeated in prose in no file, Pagefind index included', () => {
    expect(build.code, build.output.slice(-3000)).toBe(0);
    expect(password.length).toBeGreaterThan(6);
    const holding: string[] = [];
    for (const entry of readdirSync(build.outDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      let bytes = readFileSync(file);
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
      if (bytes.includes(password)) holding.push(path.relative(build.outDir, file));
    }
    expect(holding).toEqual([]);
  });

  it('says so on the session page, and lists each place on /report/ without the value', () => {
    const page = readPage(build.outDir, `/sessions/${SESSION}/`)!;
    expect(textOf(page)).toMatch(/Passwords in prose: .* found in this session and redacted \(\d+ places?\)/);
    expect(page).toContain('href="/report/#prose-passwords"');
    const report = readPage(build.outDir, '/report/')!;
    const section = report.slice(report.indexOf('id="prose-passwords"'), report.indexOf('id="redactions"'));
    expect(section).toContain(`/sessions/${SESSION}/`);
    expect(section).toMatch(/password-assignment/);
    expect(section).toMatch(/password-in-prose/);
    // Only the sessions that hold one are listed: the other seven real sessions have none.
    expect(new Set([...section.matchAll(/\/sessions\/([0-9a-f-]{36})\//g)].map((m) => m[1]))).toEqual(new Set([SESSION]));
  });
});
