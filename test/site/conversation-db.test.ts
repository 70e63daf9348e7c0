/**
 * The conversation database through a whole build (issue 29): snapshot into the store, the loader, the pages.
 * The database's files keep every byte and mtime; its own steps have pages; the header, the step page, /stats/,
 * the export and /sessions.json say its tokens, exactly. A rebuild with nothing changed reads no database.
 */
import { existsSync, promises as fs, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildSiteResult } from '../helpers/build-site.ts';
import { watchDbCopies, type DbCopyWatch } from '../../scripts/bench/db-copies.ts';
import { SESSION, writeFixtureHome } from '../brain/conversation-db-fixture.ts';

let tmp: string;
let outDir: string;
let build: BuildSiteResult;
let before: Record<string, string>;
let dbPath: string;
let home: string;
/** The builds' TMPDIR, watched: each database read is a private copy in a folder of its own there (copy.ts). */
let buildTmp: string;
let copies: DbCopyWatch;
let coldCopies: number;

const states = (file: string) =>
  Object.fromEntries(
    [file, `${file}-wal`, `${file}-shm`].map((f) => [path.basename(f), existsSync(f) ? `${statSync(f).size} ${statSync(f).mtimeMs} ${readFileSync(f).toString('base64')}` : 'absent']),
  );
const page = (rel: string) => readFileSync(path.join(outDir, rel), 'utf8');
const text = (html: string) => html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<svg[\s\S]*?<\/svg>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('a build with a conversation database', () => {
  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'agy-db-site-'));
    home = path.join(tmp, 'home');
    dbPath = writeFixtureHome(home).dbPath;
    before = states(dbPath);
    outDir = path.join(tmp, 'dist');
    buildTmp = path.join(tmp, 'build-tmp');
    copies = await watchDbCopies(buildTmp);
    build = await buildSite({ env: { GEMINI_HOME: home, BRAIN_ROOTS: '', TMPDIR: buildTmp }, outDir });
    coldCopies = await copies.count();
  }, 900_000);
  afterAll(async () => {
    copies?.close();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it('builds, and leaves every byte and mtime of the database as it was', () => {
    expect(build.code, build.output.slice(-3000)).toBe(0);
    expect(states(dbPath)).toEqual(before);
  });

  it('gives the steps only the database holds a page, saying where they come from', () => {
    const step = text(page(`sessions/${SESSION}/steps/4/index.html`));
    expect(step).toContain('There are two files.');
    expect(step).toContain('No transcript holds step 4: it is shown from the conversation database');
    expect(existsSync(path.join(outDir, `sessions/${SESSION}/steps/3/index.html`))).toBe(true);
  });

  it('says the tokens on the session header, the step page, /stats/ and in the export, to the token', () => {
    const header = text(page(`sessions/${SESSION}/index.html`));
    expect(header).toContain('3 model calls: 19,515 input + 24,514 cache-read, 428 output (323 thinking)');
    expect(header).toContain('59,070 tokens: system prompt 12,064, tools 15,959, chat messages 31,047 (3 tool definitions, 1 message)');
    expect(header).not.toContain('SYSTEM PROMPT TEXT');
    const step = text(page(`sessions/${SESSION}/steps/1/index.html`));
    expect(step).toContain('Gemini 3.5 Flash (Medium) : 18,937 input + 0 cache-read, 288 output (223 thinking) · first token after 2.80 s, 3.09 s in all');
    expect(step).toContain('GENERATING');
    const stats = text(page('stats/index.html'));
    expect(stats).toContain('3 model calls in 1 session with a conversation database: 19,515 input + 24,514 cache-read, 428 output (323 thinking)');
    expect(text(page(`sessions/${SESSION}/export.html`))).toContain('3 model calls: 19,515 input + 24,514 cache-read, 428 output (323 thinking)');
  });

  it('publishes usage in /sessions.json in exact integers', () => {
    const raw = JSON.parse(page('sessions.json')) as unknown;
    const entries = (Array.isArray(raw) ? raw : (raw as { sessions: unknown[] }).sessions) as Array<{ id: string; usage?: unknown; usageByDay?: Record<string, { input: number }> }>;
    const entry = entries.find((e) => e.id === SESSION)!;
    expect(entry.usage).toEqual({
      calls: 3,
      input: 19515,
      cache_read: 24514,
      output: 428,
      thinking: 323,
      by_model: { 'Gemini 3.5 Flash (Medium)': { calls: 3, input: 19515, cache_read: 24514, output: 428, thinking: 323 } },
    });
    expect(Object.keys(entry.usageByDay!)).toEqual(['2026-06-18', '2026-06-19', 'undated']);
  });

  it('reads no database again in a rebuild with nothing changed (issue 29 point 7)', async () => {
    // The cold build read it (the snapshot into the store, then the pages): the watch sees those copies.
    expect(coldCopies).toBeGreaterThanOrEqual(1);
    await copies.reset();
    const again = await buildSite({ env: { GEMINI_HOME: home, BRAIN_ROOTS: '', TMPDIR: buildTmp }, outDir });
    expect(again.code, again.output.slice(-3000)).toBe(0);
    expect(again.output).toContain('incremental: nothing to do');
    // Size and mtime of the .db and its -wal are the store's and the plan's fingerprint: unchanged, nothing is copied.
    expect(await copies.count()).toBe(0);
    expect(states(dbPath)).toEqual(before);
  }, 300_000);
});
