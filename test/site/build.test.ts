/**
 * The site as a user sees it, built from the fixtures: the demo home (through the "no roots found" fallback, so the
 * demo banner shows) and every reader case at once under a sub-path (ARCHIVE_BASE), where the report must list the
 * problems. Each home is built once per test run (shared with the browser test).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import type { Session } from '../../src/lib/brain/types.ts';
import { projectRoot } from '../helpers/build-site.ts';
import { demoBuild, readDemoSessions } from '../helpers/homes.ts';
import { sharedBuild, type SharedBuild } from '../helpers/shared-build.ts';
import { fileForUrl, htmlFiles, linksIn, readPage, textOf } from '../helpers/site-files.ts';

const BASE = '/team/agy-archive/';
const casesDir = path.join(projectRoot, 'fixtures', 'cases');
const caseRoots = readdirSync(casesDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .flatMap((e) =>
    readdirSync(path.join(casesDir, e.name), { withFileTypes: true })
      .filter((p) => p.isDirectory() && existsSync(path.join(casesDir, e.name, p.name, 'brain')))
      .map((p) => path.join(casesDir, e.name, p.name, 'brain')),
  );

/** Every internal link of every page resolves to a file of the build (links are checked under `base`). */
function brokenLinks(outDir: string, base: string): string[] {
  const broken: string[] = [];
  for (const rel of htmlFiles(outDir)) {
    const html = readFileSync(path.join(outDir, rel), 'utf8');
    for (const link of linksIn(html)) {
      // Only the site's own links: relative links inside rendered transcript Markdown are the agent's text, kept
      // as written by the Markdown helper (e.g. `walkthrough.md`); external URLs are not ours either.
      if (!link.startsWith('/') || link.startsWith('//')) continue;
      if (!link.startsWith(base)) {
        broken.push(`${rel}: ${link} (outside base ${base})`);
        continue;
      }
      const target = `/${link.slice(base.length)}`;
      if (!fileForUrl(outDir, target)) broken.push(`${rel}: ${link}`);
    }
  }
  return broken;
}

/** The Pagefind bundles a search page lists to merge (`data-bundles`). */
function searchBundlesOf(html: string | undefined): { bundle: string; baseUrl: string }[] {
  return JSON.parse((html?.match(/data-bundles="([^"]*)"/)?.[1] ?? '[]').replaceAll('&quot;', '"')) as { bundle: string; baseUrl: string }[];
}

describe('demo build (no roots found → fixtures/demo)', () => {
  let build: SharedBuild;
  let sessions: Session[];
  beforeAll(async () => {
    build = await demoBuild();
    sessions = await readDemoSessions();
  });

  it('exits 0 and says it used the demo', () => {
    expect(build.code, build.output.slice(-3000)).toBe(0);
    expect(build.output).toMatch(/DEMO archive/);
    expect(build.output).toMatch(/read \d+\/\d+ sessions/);
  });

  it('has a page for every session and every step, with their text', () => {
    expect(sessions.length).toBeGreaterThanOrEqual(4);
    const home = textOf(readPage(build.outDir, '/') ?? '');
    // Each session under its title (Antigravity's own where it has one, conversation/summary.ts), as sessions.json gives it.
    const titles = new Map((JSON.parse(readFileSync(path.join(build.outDir, 'sessions.json'), 'utf8')) as { id: string; title: string }[]).map((e) => [e.id, e.title]));
    for (const s of sessions) {
      const page = readPage(build.outDir, `/sessions/${s.id}/`);
      expect(page, s.id).toBeDefined();
      expect(textOf(page ?? '')).toContain(s.id);
      expect(titles.get(s.id), s.id).toBeTruthy();
      expect(home).toContain((titles.get(s.id) ?? '').replace(/\s+/g, ' ').trim());
      for (const step of s.steps) {
        expect(fileForUrl(build.outDir, `/sessions/${s.id}/steps/${step.key}/`), `${s.id} step ${step.key}`).toBeDefined();
      }
    }
    // A command from a run_command call shows on its step page.
    const withCommand = sessions
      .flatMap((s) => s.steps.map((step) => ({ s, step })))
      .find(({ step }) => step.toolCalls.some((c) => c.name === 'run_command' && typeof c.args.CommandLine === 'string'));
    expect(withCommand).toBeDefined();
    if (withCommand) {
      const cmd = String(withCommand.step.toolCalls.find((c) => c.name === 'run_command')?.args.CommandLine);
      const page = textOf(readPage(build.outDir, `/sessions/${withCommand.s.id}/steps/${withCommand.step.key}/`) ?? '');
      expect(page).toContain(cmd.split('\n')[0]?.trim().slice(0, 30));
    }
  });

  it('shows the demo banner on every page, a CSP on every page and no inline script or style', () => {
    for (const rel of htmlFiles(build.outDir)) {
      const html = readFileSync(path.join(build.outDir, rel), 'utf8');
      if (rel.startsWith('s/')) continue; // redirect stubs: checked below
      if (rel.endsWith('/export.html')) continue; // single-file exports: their own CSP and <style>, checked in test/audit
      if (/^sessions\/[^/]+\/search\/[^/]+\.html$/.test(rel)) {
        // Search documents (what Pagefind indexes, src/lib/search/document.ts): text and links, a CSP allowing nothing.
        expect(html, rel).toContain(`http-equiv="Content-Security-Policy" content="default-src 'none';`);
        expect(html, rel).not.toMatch(/<script|<style|<img/);
        continue;
      }
      expect(html, rel).toContain('Demo archive');
      expect(html, rel).toContain('http-equiv="Content-Security-Policy"');
      expect(html, rel).not.toMatch(/<script(?:\s[^>]*)?>\s*[^<\s]/);
      expect(html, rel).not.toMatch(/<style[\s>]/);
      expect(html, rel).not.toMatch(/\sstyle="/);
    }
  });

  it('every internal link resolves to a file', () => {
    expect(brokenLinks(build.outDir, '/')).toEqual([]);
  });

  it('writes the Pagefind index', () => {
    for (const f of ['pagefind.js', 'pagefind-entry.json']) {
      expect(existsSync(path.join(build.outDir, 'pagefind', f)), f).toBe(true);
    }
    // One bundle per search shard (src/integrations/pagefind.ts); shards.json lists those holding sessions.
    const shards = JSON.parse(readFileSync(path.join(build.outDir, 'pagefind', 'shards.json'), 'utf8')) as string[];
    let pages = 0;
    for (const shard of shards) {
      const entry = JSON.parse(readFileSync(path.join(build.outDir, 'pagefind', shard, 'pagefind-entry.json'), 'utf8'));
      pages += Object.values(entry.languages as Record<string, { page_count: number }>).reduce((n, l) => n + l.page_count, 0);
    }
    // One document per turn (issue 23) and per artifact, not one per step: every search document, no other page.
    const documents = readdirSync(path.join(build.outDir, 'sessions')).reduce((n, id) => {
      const dir = path.join(build.outDir, 'sessions', id, 'search');
      return n + (existsSync(dir) ? readdirSync(dir).length : 0);
    }, 0);
    expect(pages).toBeLessThanOrEqual(documents);
    expect(pages).toBeGreaterThan(documents * 0.9);
    expect(pages).toBeLessThan(sessions.reduce((n, s) => n + s.steps.length, 0) / 4);
  });

  describe('sessions that belong together (issue 14)', () => {
    const PARENT = '5b1e0c2a-7d4f-4c1e-9a63-2f8d4e6b1c07';
    const WRITER = 'a3c9e1f4-2b7d-4e58-8c16-9d0f3b2a7e51';
    const CHECKER = 'c7d2f8b3-6e1a-4f94-b2c5-0a8e7d3f1b96';

    it('nests the subagent sessions under their parent on the home page, folded with a count', () => {
      const html = readPage(build.outDir, '/') ?? '';
      const folded = /<details class="family-children"[^>]*>\s*<summary[^>]*>([^<]*)<\/summary>([\s\S]*?)<\/details>/.exec(html);
      expect(folded?.[1]).toBe('2 subagent sessions');
      expect(folded?.[2]).toContain(`href="/sessions/${WRITER}/"`);
      expect(folded?.[2]).toContain(`href="/sessions/${CHECKER}/"`);
      // The children are listed once, inside their parent's card, not as day entries of their own.
      expect(html.split(`href="/sessions/${WRITER}/"`).length - 1).toBe(1);
      expect(textOf(html)).toContain('2 of them subagent sessions');
    });

    it("says on a child's page who started it, at which step, and from what that was derived", () => {
      const html = readPage(build.outDir, `/sessions/${CHECKER}/`) ?? '';
      const line = textOf(/<p class="family-parent">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '').trim();
      expect(line).toMatch(/^subagent: Link checker \(browser\) Started by Write the v2\.4 release notes/);
      expect(line).toContain(', step 1 .');
      expect(line).toContain('the invoke_subagent result names its conversation id');
      expect(html).toContain(`href="/sessions/${PARENT}/steps/1/"`);
    });

    it("lists on the parent's page the subagents it started, their role and how each ended", () => {
      const text = textOf(readPage(build.outDir, `/sessions/${PARENT}/`) ?? '');
      expect(text).toContain('Subagents it started 2 subagents, 2 archived here, 1 failed.');
      expect(text).toMatch(/self Changelog writer reported back Release notes drafted/);
      expect(text).toMatch(/browser Link checker failed RESOURCE_EXHAUSTED \(code 429\)/);
      expect(text).toMatch(/task-4 Watch the nightly build step 3 12 no end recorded task-4\.log/);
      expect(text).toMatch(/task-6 Build the docs site step 5 0 finished, exit 0 task-6\.log/);
    });

    it('shows each background task as one thing on the tasks page and under the call that started it', () => {
      const tasks = textOf(readPage(build.outDir, `/sessions/${PARENT}/tasks/`) ?? '');
      expect(tasks).toMatch(/task-4 · Watch the nightly build no end recorded schedule Started by the call in step 3 , announced in step 4/);
      expect(tasks).toMatch(/Watch the nightly build: Cron trigger #… #1–#12 Check the nightly build on CI and report if it is red\. \(iteration 1\) ×12/);
      expect(tasks).toMatch(/task-6 · Build the docs site finished, exit 0 run_command Started by the call in step 5 , announced in step 6/);
      const step3 = readPage(build.outDir, `/sessions/${PARENT}/steps/3/`) ?? '';
      expect(step3).toContain('id="bg-task-4"');
      expect(step3).toContain(`href="/sessions/${PARENT}/tasks/#task-4"`);
    });

    it('keeps the whole thread on the messages page, grouped by sender with counts', () => {
      const text = textOf(readPage(build.outDir, `/sessions/${PARENT}/messages/`) ?? '');
      expect(text).toMatch(/task-4 task 12 Watch the nightly build: Cron trigger #… ×12/);
      expect(text).toContain('15 messages');
    });

    it('links each subagent of the invoke_subagent view to its session', () => {
      const html = readPage(build.outDir, `/sessions/${PARENT}/steps/1/`) ?? '';
      expect(html).toContain(`href="/sessions/${WRITER}/"`);
      expect(html).toContain(`href="/sessions/${CHECKER}/"`);
      expect(textOf(html)).toMatch(/browser Link checker failed Its session: Open the docs preview/);
    });

    it('marks subagent sessions for the search filter and counts them apart on /stats/', () => {
      expect(readPage(build.outDir, `/sessions/${WRITER}/`)).toContain('data-pagefind-filter="session kind:subagent"');
      expect(readPage(build.outDir, `/sessions/${PARENT}/steps/1/`)).toContain('data-pagefind-filter="session kind:top-level"');
      expect(textOf(readPage(build.outDir, '/stats/') ?? '')).toMatch(/8 sessions 6 top-level sessions 2 subagent sessions/);
      const errors = readPage(build.outDir, '/audit/errors/') ?? '';
      expect(errors).toContain('id="hide-subagents"');
      expect(errors).toMatch(/<tr class="from-subagent">[\s\S]*?c7d2f8b3/);
    });
  });

  it('redirects /s/<prefix>/ to the session without JavaScript', () => {
    for (const s of sessions) {
      const html = readPage(build.outDir, `/s/${s.id.slice(0, 8)}/`) ?? '';
      expect(html).toMatch(new RegExp(`<meta http-equiv="refresh" content="0; url=/sessions/${s.id}/"`));
      expect(html).toContain(`href="/sessions/${s.id}/"`);
    }
  });

  it('has the about, search, report and 404 pages', () => {
    expect(textOf(readPage(build.outDir, '/about/') ?? '')).toContain('Truncated and redacted');
    const bundles = searchBundlesOf(readPage(build.outDir, '/search/'));
    expect(bundles.length).toBeGreaterThan(0);
    for (const b of bundles) expect(b.bundle.startsWith('/pagefind/') && b.baseUrl === '/', b.bundle).toBe(true);
    expect(textOf(readPage(build.outDir, '/report/') ?? '')).toContain('Roots scanned');
    expect(existsSync(path.join(build.outDir, '404.html'))).toBe(true);
  });
});

describe('reader cases under ARCHIVE_BASE', () => {
  let build: SharedBuild;
  beforeAll(async () => {
    build = await sharedBuild('cases-base', { BRAIN_ROOTS: caseRoots.join(':'), ARCHIVE_BASE: BASE });
  });

  it('exits 0 even though the cases are full of problems', () => {
    expect(build.code, build.output.slice(-3000)).toBe(0);
    expect(build.output).not.toMatch(/DEMO archive/);
  });

  it('puts every link under the base, and every one resolves', () => {
    expect(brokenLinks(build.outDir, BASE)).toEqual([]);
    const bundles = searchBundlesOf(readPage(build.outDir, '/search/'));
    expect(bundles.length).toBeGreaterThan(0);
    for (const b of bundles) expect(b.bundle.startsWith(`${BASE}pagefind/`) && b.baseUrl === BASE, b.bundle).toBe(true);
  });

  it('lists the problems on /report/ with session, file and line', async () => {
    const report = readPage(build.outDir, '/report/') ?? '';
    const discovery = await discoverSessions({ brainRoots: caseRoots });
    const torn = discovery.sessions.filter((r) => r.dir.includes(`${path.sep}torn-line${path.sep}`));
    expect(torn).toHaveLength(1);
    const session = await readSession(torn[0]!);
    const badLines = session.problems.filter((p) => p.kind === 'bad-line');
    expect(badLines.length).toBeGreaterThan(0);
    const rows = [...report.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => textOf(m[1] ?? ''));
    for (const p of badLines) {
      expect(rows.some((r) => r.includes(session.id.slice(0, 8)) && r.includes(p.file) && r.includes(` ${p.line} `)), `${p.file}:${p.line}`).toBe(true);
    }
    expect(textOf(report)).toMatch(/Shadowed copies/);
    expect(discovery.shadowed.length).toBeGreaterThan(0);
    for (const c of discovery.shadowed) expect(report).toContain(c.id);
  });

  it('lists on /report/ every file no page shows, with what it is and its size (fixtures/cases/unknown-files)', () => {
    const report = readPage(build.outDir, '/report/') ?? '';
    const rows = [...report.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => textOf(m[1] ?? ''));
    for (const [file, kind, size] of [
      ['.system_generated/futurekind/state.pb', 'unknown file (.pb) in .system_generated/futurekind/', '3 B'],
      ['notes/todo.txt', 'unknown file (.txt) in notes/', '9 B'],
      ['scratch/check.py', 'scratch file', '9 B'],
    ] as const) {
      expect(rows.some((r) => r.includes(file) && r.includes(kind) && r.includes(size)), file).toBe(true);
    }
  });

  it("shows the browser subagent's trail at its step and the recording at its call (fixtures/cases/browser-trail)", () => {
    const id = '00000000-0000-4000-8000-000000000070';
    const screenshot = `media_${id}_1782900030200.png`;
    const call = readPage(build.outDir, `/sessions/${id}/steps/1/`) ?? '';
    expect(call).toContain(`src="${BASE}sessions/${id}/browser/${screenshot}"`);
    expect(textOf(call)).toContain('dom_1782900030000.txt');
    // The page text is redacted like every other text.
    expect(call).toContain('[REDACTED:url-password]');
    expect(call).not.toContain('S3cretPassw0rd42');
    expect(call).toMatch(new RegExp(`<img src="${BASE}sessions/${id}/uploads/\\d+\\.webp" alt="Browser recording login_check_1782900058000\\.webp"`));
    expect(readPage(build.outDir, `/sessions/${id}/steps/2/`)).toContain(`browser/click_feedback_1782900065000.png`);
    // The session page's uploads list names the recording for what it is and links the call that made it.
    const uploads = textOf(readPage(build.outDir, `/sessions/${id}/`)?.match(/<section id="uploads"[\s\S]*?<\/section>/)?.[0] ?? '');
    expect(uploads).toMatch(/login_check_1782900058000\.webp\s*Browser recording, 384 B\s*made at step 1/);
    const published = fileForUrl(build.outDir, `/sessions/${id}/browser/${screenshot}`);
    expect(published && readFileSync(published)).toEqual(readFileSync(path.join(casesDir, 'browser-trail/antigravity/brain', id, '.tempmediaStorage', screenshot)));
    expect(textOf(readPage(build.outDir, `/sessions/${id}/artifacts/browser~scratchpad_ab12cd34.md/`) ?? '')).toContain('open the login page');
  });

  it("shows the browser subagent's task and screenshot at its call in the conversation (issue 28: the row was blank)", () => {
    const id = '00000000-0000-4000-8000-000000000070';
    const page = readPage(build.outDir, `/sessions/${id}/`) ?? '';
    // The call's item: its row, then what it made and the trail at its steps, up to the next item of the turn.
    const row = page.match(/<details class="call k-other" id="call-1\.0"[\s\S]*?(?=<div class="item |<\/section>)/)?.[0] ?? '';
    expect(textOf(row.match(/<summary>[\s\S]*?<\/summary>/)?.[0] ?? '')).toContain('Checking the login page');
    expect(row).toContain(`src="${BASE}sessions/${id}/browser/media_${id}_1782900030200.png"`);
  });

  it('says how each ending case ended, in the header and on the home card (issue 28 point 1)', () => {
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const noReply = 'The last request (turn 2) got no final reply; the agent last said "Now I\'ll commit and push it.", and the log ends at step 9, run_command `git push origin main`, with no result recorded.';
    const header = readPage(build.outDir, `/sessions/${id(150)}/`) ?? '';
    // The call it names is code on the page (between backticks in the line and in sessions.json).
    // (textOf puts a space after an element: "main , with".)
    expect(textOf(header).replace(/ ,/g, ',')).toContain(`How it ended: ${noReply.replace(/`/g, '')}`);
    expect(header).toContain('<code class="ending-code">git push origin main</code>');
    expect(textOf(readPage(build.outDir, '/') ?? '').replace(/ ,/g, ',')).toContain(noReply.replace(/`/g, ''));
    const index = JSON.parse(readFileSync(path.join(build.outDir, 'sessions.json'), 'utf8')) as { id: string; ending: string; endingKind: string }[];
    expect(index.find((e) => e.id === id(150))).toMatchObject({ ending: noReply, endingKind: 'no-reply' });
    // Each turn links its neighbours and the top; the keys are said where the script shows them.
    expect(header).toMatch(/<nav class="turn-nav small" aria-label="Around turn 2"><a href="[^"]*#turn-1" rel="prev">← turn 1<\/a>/);
    expect(header).toMatch(/<p class="keys-hint small muted" data-keys-hint hidden[^>]*>Keys: <kbd>j<\/kbd> next turn/);
    // Its commands page groups the two runs of `git push origin main`.
    const commands = textOf(readPage(build.outDir, `/sessions/${id(150)}/commands/`) ?? '');
    expect(commands).toMatch(/By command\s*2 distinct commands in 3 runs; 1 ran more than once/);
    expect(commands).toMatch(/git push origin main\s*in \/w\/site\s*×2/);
    expect(textOf(readPage(build.outDir, `/sessions/${id(151)}/`) ?? '')).toMatch(/How it ended: The last request \(turn 1\) got no final reply; .* failed: exit 1 · Move-Item : Cannot create a file when that file already exists\./);
  });

  it('says why each call of failure-rows failed, once, with identical retries one row (issue 28 point 3)', () => {
    const page = readPage(build.outDir, '/sessions/00000000-0000-4000-8000-000000000152/') ?? '';
    const whys = [...page.matchAll(/<span class="call-why"[^>]*>([\s\S]*?)<\/span>/g)].map((m) => textOf(m[1] ?? ''));
    expect(whys[0]).toBe("The token '&&' is not a valid statement separator in this version.");
    expect(whys[1]).toMatch(/^FullyQualifiedErrorId: CommandNotFoundException/);
    expect(whys.join('\n')).not.toMatch(/~~~/);
    expect(page).toContain('unreadable characters as in the source record');
    // Three identical failed reads: one row, three steps linked, each step still an anchor.
    expect(page.match(/failed ×3/g)).toHaveLength(1);
    expect(whys.filter((w) => w.includes('run_autonomous_scanner.py: The system cannot find the file specified.'))).toHaveLength(1);
    for (const key of ['7', '9', '11']) expect(page).toContain(`id="step-${key}"`);
  });

  it('says a call of overview.txt has no result in that log, and its cut values in words (issue 28)', () => {
    const page = readPage(build.outDir, '/sessions/00000000-0000-4000-8000-000000000060/') ?? '';
    const conversation = (page.match(/<div class="turn-body"[\s\S]*?<\/section>/g) ?? []).join('\n');
    expect(conversation).not.toBe('');
    expect(conversation).toContain('result not logged');
    expect(conversation).not.toMatch(/>no result</);
    expect(conversation).not.toContain('&lt;truncated');
    expect(textOf(conversation)).toContain('the log kept no more: 2,779 more bytes were cut');
    expect(textOf(page)).toContain('Model: Gemini 3 Flash');
    expect(textOf(page)).not.toContain('Model switched');
  });

  it('gives an artifact in a sub-folder its own page beside a root one of a like name (fixtures/cases/subfolder-artifact)', () => {
    const id = '00000000-0000-4000-8000-000000000071';
    expect(textOf(readPage(build.outDir, `/sessions/${id}/artifacts/docs~README.md/`) ?? '')).toContain('How to run it.');
    expect(textOf(readPage(build.outDir, `/sessions/${id}/artifacts/docs-README.md/`) ?? '')).toContain('Not the docs README');
  });

  it('reads every era whole: overview.txt steps, the user\'s own edit as a diff, step files on a page of their own, a folder with no log (issue 20)', () => {
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    // fixtures/cases/overview-only: overview.txt the only log.
    const page = readPage(build.outDir, `/sessions/${id(60)}/`) ?? '';
    expect(textOf(page)).toMatch(/Read from\s*\.system_generated\/logs\/overview\.txt/);
    expect(textOf(page)).toContain('Make the board editable.');
    expect(textOf(page)).toContain('The board is editable now.');
    expect(page).toMatch(/class="item user-action"[\s\S]*?<table class="diff">[\s\S]*?edit works everywhere/);
    for (const key of ['0', '4', '8', '11', '12', '14', '15']) expect(readPage(build.outDir, `/sessions/${id(60)}/steps/${key}/`), key).toBeDefined();
    // fixtures/cases/overview-then-compact: the beginning is only in overview.txt.
    expect(textOf(readPage(build.outDir, `/sessions/${id(61)}/`) ?? '')).toContain('Set up the project.');
    expect(readPage(build.outDir, `/sessions/${id(61)}/steps/0/`)).toBeDefined();
    // fixtures/cases/artifacts-only: says what is there.
    const artifactsOnly = textOf(readPage(build.outDir, `/sessions/${id(62)}/`) ?? '');
    expect(artifactsOnly).toContain("This session's folder holds 1 artifact and no log");
    expect(artifactsOnly).toContain('no step record is dated: the earliest artifact update');
    // fixtures/cases/step-files-without-record: steps/4/ has a page of its own, marked.
    const files = textOf(readPage(build.outDir, `/sessions/${id(63)}/steps/4-files/`) ?? '');
    expect(files).toContain('No log holds a record of step 4');
    expect(files).toContain('context canceled');
  });

  it('reports dates it cannot place, shows them as given and leaves them out of days, charts and sort keys', () => {
    // fixtures/cases/bad-dates: the first and last day JavaScript knows, years 0 and 9999, no date at all. Issue 10:
    // /stats/ threw `RangeError: Invalid time value`, and years 0 and 9999 drew 120,000 months (28 MB).
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const stats = readPage(build.outDir, '/stats/') ?? '';
    expect(stats).toContain('<svg');
    expect(stats.length).toBeLessThan(200 * 1024);
    for (const year of ['275760', '271821', '0000-01', '9999-12']) expect(stats, year).not.toContain(year);
    const rows = [...(readPage(build.outDir, '/report/') ?? '').matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1] ?? '');
    const badDate = (n: number) => rows.filter((r) => r.includes(`/sessions/${id(n)}/`) && r.includes('>bad-date<')).map(textOf);
    expect(badDate(30)).toHaveLength(1);
    expect(badDate(30)[0]).toContain('.system_generated/logs/transcript_full.jsonl 1 Line 1: created_at "-271821-04-20T00:00:00Z"');
    expect(badDate(31)).toHaveLength(2);
    expect(badDate(32).join(' ')).toContain('plan.md.metadata.json');
    const home = readPage(build.outDir, '/') ?? '';
    const days = [...home.matchAll(/<h2 id="day-([^"]+)"/g)].map((m) => m[1]);
    expect(days.every((d) => /^20\d\d-\d\d-\d\d$/.test(d ?? '')), days.join(' ')).toBe(true);
    const step = readPage(build.outDir, `/sessions/${id(31)}/steps/0/`) ?? '';
    expect(textOf(step)).toContain('Time +275760-09-13T00:00:00.000Z');
    expect(step).not.toContain('data-pagefind-sort="date:+275760');
    const index = JSON.parse(readPage(build.outDir, '/sessions.json') ?? '[]') as { id: string; created: string }[];
    expect(index.find((e) => e.id === id(30))?.created).toBe('2026-07-02T10:00:01.000Z');
    expect(textOf(readPage(build.outDir, `/sessions/${id(30)}/`) ?? '')).toContain('Duration 30 s');
    expect(readPage(build.outDir, `/sessions/${id(32)}/export.html`)).toContain('updated 9999-12-31T23:59:59Z');
  });
});
