/**
 * The session page as a reader sees it, on the demo build and on a generated 1,500-step session: each turn's
 * request text, a failed command marked failed and no exit-0 step shown as one, every page under a session under
 * the 1.5 MB cap, and the URLs that existed before (the session page's anchors, the timeline rows, task logs,
 * messages) still leading somewhere.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import type { Session } from '../../src/lib/brain/types.ts';
import { redactSession } from '../../src/lib/redact/index.ts';
import { sessionTurns } from '../../src/lib/turns/index.ts';
import { PAGE_HTML_MAX } from '../../src/lib/archive/session-pages.ts';
import { writeSyntheticSession } from '../../scripts/bench/synthetic-home.ts';
import { projectRoot } from '../helpers/build-site.ts';
import { demoBuild } from '../helpers/homes.ts';
import { sharedBuild, type SharedBuild } from '../helpers/shared-build.ts';
import { fileForUrl, linksIn, readPage, textOf } from '../helpers/site-files.ts';

async function readHome(geminiHome: string): Promise<Session[]> {
  const discovery = await discoverSessions({ geminiHome });
  return Promise.all(discovery.sessions.map(async (ref) => (await redactSession(await readSession(ref), { enabled: true })).session));
}

/** Every conversation page of a session (the session page, then `conversation/<n>/`), as text and HTML. */
function conversationPages(outDir: string, id: string): string[] {
  const pages = [readPage(outDir, `/sessions/${id}/`) ?? ''];
  for (let n = 2; ; n++) {
    const html = readPage(outDir, `/sessions/${id}/conversation/${n}/`);
    if (html === undefined) break;
    pages.push(html);
  }
  return pages;
}

/** Every HTML file under `dir`, with its size. */
function htmlSizes(dir: string): { file: string; bytes: number }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html') && e.name !== 'export.html')
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      return { file: path.relative(dir, file), bytes: statSync(file).size };
    });
}

/** The first words of a request as they read on the page (whitespace folded, as `textOf` folds it). */
const opening = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 60);

describe('the session page on the demo build', () => {
  let build: SharedBuild;
  let sessions: Session[];
  beforeAll(async () => {
    build = await demoBuild();
    sessions = await readHome(path.join(projectRoot, 'fixtures', 'demo'));
  });

  it('opens every turn with the user request text, in order', () => {
    expect(build.code, build.output.slice(-3000)).toBe(0);
    for (const s of sessions) {
      const text = conversationPages(build.outDir, s.id).map(textOf).join(' ');
      let from = 0;
      for (const turn of sessionTurns(s).turns) {
        if (!turn.request || turn.request.text.trim() === '') continue;
        const at = text.indexOf(opening(turn.request.text), from);
        expect(at, `${s.id} turn ${turn.number}: ${opening(turn.request.text)}`).toBeGreaterThanOrEqual(0);
        from = at;
      }
      expect(text).not.toContain('<USER_REQUEST>');
    }
  });

  it('marks a failed command failed, and never a call that ended well', () => {
    const html = readPage(build.outDir, '/sessions/04c6284a-930e-444f-982e-37e931b8daf3/') ?? '';
    const card = html.match(/<details class="call k-command is-failed"[^>]*>[\s\S]*?<\/details>/g)?.find((c) => c.includes('npx vitest run test/rate-limit.test.ts'));
    expect(card, 'the failed vitest run').toBeDefined();
    expect(textOf(card ?? '')).toMatch(/exit 1.*failed/);
    for (const s of sessions) {
      const built = sessionTurns(s);
      const pages = conversationPages(build.outDir, s.id).join('');
      const failedCards = pages.match(/<details class="call [^"]*is-failed/g) ?? [];
      expect(failedCards.length, s.id).toBe(built.calls.filter((c) => c.outcome.status === 'failed').length);
      for (const call of built.calls.filter((c) => c.outcome.exitCode === 0)) {
        expect(pages, `${s.id} call ${call.id} exited 0`).toMatch(new RegExp(`<details class="call k-[a-z]+" id="call-${call.id.replace('.', '\\.')}"`));
      }
    }
  });

  it('shows no exit-0 step as an error on the timeline page', () => {
    let exitZero = 0;
    for (const s of sessions) {
      const html = readPage(build.outDir, `/sessions/${s.id}/timeline/`) ?? '';
      for (const step of s.steps) {
        const row = html.match(new RegExp(`<tr[^>]*id="step-${step.key}"`))?.[0];
        expect(row, `${s.id} step ${step.key} has its row`).toBeDefined();
        if (step.exitCode === 0 || /exit code: 0\b|completed successfully/.test(step.content ?? '')) {
          exitZero++;
          expect(row, `${s.id} step ${step.key}`).not.toContain('is-error');
        }
      }
    }
    expect(exitZero).toBeGreaterThan(5);
  });

  it('places images where they happened: an upload in its turn, a generated image at its call', () => {
    const html = readPage(build.outDir, '/sessions/1ef4ccf5-dd2a-4e44-90c2-4e0fc2ed9baf/') ?? '';
    const turn1 = html.slice(html.indexOf('id="turn-1"'), html.indexOf('id="turn-2"'));
    expect(turn1).toMatch(/<img src="\/sessions\/1ef4ccf5-dd2a-4e44-90c2-4e0fc2ed9baf\/uploads\/\d+\.png" alt="Image current-landing\.png, attached to this request"/);
    expect(turn1).toMatch(/alt="Image hero_pourover_1779286412337\.png, made by this call"/);
    const turn3 = html.slice(html.indexOf('id="turn-3"'));
    expect(turn3).toContain('alt="Image uploaded_media_1780000000000.png, attached to this request"');
  });

  it("shows in the parent's turn, at the invoke_subagent call, the subagents it started and the background tasks at their calls", () => {
    const PARENT = '5b1e0c2a-7d4f-4c1e-9a63-2f8d4e6b1c07';
    const html = readPage(build.outDir, `/sessions/${PARENT}/`) ?? '';
    const turn = html.match(/<section class="turn[^"]*"[\s\S]*?<\/section>/g)?.find((t) => t.includes('<span class="mono muted">invoke_subagent</span>')) ?? '';
    expect(turn, 'the turn holding the invoke_subagent call').not.toBe('');
    expect(textOf(turn.slice(0, turn.indexOf('</header>')))).toMatch(/4 tool calls 2 subagents started 2 background tasks/);
    // Each call's list item: its card, then what it started.
    const items = turn.match(/<li><details class="call[\s\S]*?<\/details>[\s\S]*?(?=<li><details class="call|<\/ul>\s*<\/div>\s*(?:<div class="item|<ul class="thumbs|<\/div>))/g) ?? [];
    const invoke = items.find((li) => li.includes('<span class="mono muted">invoke_subagent</span>')) ?? '';
    const started = invoke.slice(invoke.indexOf('</details>'));
    expect(textOf(started)).toMatch(/Started 2 subagents, 1 failed: self Changelog writer reported back Release notes drafted/);
    expect(textOf(started)).toMatch(/browser Link checker failed RESOURCE_EXHAUSTED \(code 429\)/);
    expect(textOf(started)).toContain('the invoke_subagent result names its conversation id');
    expect(started).toContain('href="/sessions/a3c9e1f4-2b7d-4e58-8c16-9d0f3b2a7e51/"');
    expect(started).toContain('href="/sessions/c7d2f8b3-6e1a-4f94-b2c5-0a8e7d3f1b96/"');
    expect(started).toMatch(/<li class="is-failed">[\s\S]*Link checker/);
    // The background tasks, each at the call that started it (steps 3 and 5), linked to its group on the tasks page.
    const taskAt = (step: string) => items.find((li) => li.includes(`href="/sessions/${PARENT}/steps/${step}/">call, step ${step}</a>`)) ?? '';
    const schedule = taskAt('3');
    expect(textOf(schedule.slice(schedule.indexOf('</details>')))).toMatch(/background task-4 no end recorded 12 notices 12 messages/);
    expect(schedule).toContain(`href="/sessions/${PARENT}/tasks/#bg-task-4"`);
    const docs = taskAt('5');
    expect(textOf(docs.slice(docs.indexOf('</details>')))).toMatch(/background task-6 finished, exit 0 0 notices 1 message/);
    expect(docs).toContain(`href="/sessions/${PARENT}/tasks/#bg-task-6"`);
    // No other call claims a subagent or a task.
    expect(items.filter((li) => li.includes('call-started')).length).toBe(3);
    for (const link of linksIn(turn).filter((l) => l.startsWith('/'))) expect(fileForUrl(build.outDir, link), link).toBeDefined();
    expect(fileForUrl(build.outDir, `/sessions/${PARENT}/tasks/`) && readPage(build.outDir, `/sessions/${PARENT}/tasks/`)).toContain('id="bg-task-4"');
  });

  it('keeps the old URLs and anchors: sections, timeline rows, task logs and messages', () => {
    for (const s of sessions) {
      const html = readPage(build.outDir, `/sessions/${s.id}/`) ?? '';
      expect(html).toContain('id="timeline"');
      if (s.taskLogs.length > 0) {
        expect(html).toContain('id="tasks"');
        // Linked, not inlined: the section holds a link, no log text.
        const section = html.slice(html.indexOf('id="tasks"'), html.indexOf('</section>', html.indexOf('id="tasks"')));
        expect(section).toContain(`href="/sessions/${s.id}/tasks/"`);
        expect(section).not.toContain('<pre');
        expect(textOf(readPage(build.outDir, `/sessions/${s.id}/tasks/`) ?? '')).toContain(s.taskLogs[0]?.name ?? '');
      }
      if (s.messages.length > 0) expect(fileForUrl(build.outDir, `/sessions/${s.id}/messages/`)).toBeDefined();
      // Every step has its row (and anchor) on the timeline page, and its anchor on the conversation pages.
      const timeline = readPage(build.outDir, `/sessions/${s.id}/timeline/`) ?? '';
      const pages = conversationPages(build.outDir, s.id).join('');
      for (const step of s.steps) {
        expect(timeline, `${s.id} timeline step ${step.key}`).toContain(`id="step-${step.key}"`);
        expect(pages, `${s.id} conversation step ${step.key}`).toContain(`id="step-${step.key}"`);
      }
      for (const link of linksIn(html).filter((l) => l.startsWith('/') && !l.startsWith('//'))) {
        expect(fileForUrl(build.outDir, link), `${s.id}: ${link}`).toBeDefined();
      }
      expect(html).not.toMatch(/\sstyle=/);
    }
  });
});

describe('a generated 1,500-step session', () => {
  let home: string;
  let build: SharedBuild;
  let id: string;
  beforeAll(async () => {
    home = mkdtempSync(path.join(os.tmpdir(), 'agy-big-session-'));
    id = writeSyntheticSession(home, { steps: 1500, seed: 11, product: 'antigravity' }).id;
    build = await sharedBuild('big-session', { GEMINI_HOME: home, BRAIN_ROOTS: '' });
  }, 600_000);
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('keeps every page under the session at most 1.5 MB of HTML, the session page included', () => {
    expect(build.code, build.output.slice(-3000)).toBe(0);
    const sizes = htmlSizes(path.join(build.outDir, 'sessions', id));
    expect(sizes.length).toBeGreaterThan(1500);
    const over = sizes.filter((s) => s.bytes > PAGE_HTML_MAX);
    expect(over).toEqual([]);
    expect(sizes.find((s) => s.file === 'index.html')?.bytes).toBeLessThanOrEqual(PAGE_HTML_MAX);
  });

  it('lists every turn on the first page, each link leading to a page that holds it', () => {
    const first = readPage(build.outDir, `/sessions/${id}/`) ?? '';
    const list = first.slice(first.indexOf('class="turn-list"'), first.indexOf('</nav>', first.indexOf('class="turn-list"')));
    const links = linksIn(list);
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) {
      const [url, anchor] = link.split('#');
      expect(readPage(build.outDir, url ?? '') ?? '', link).toContain(`id="${anchor}"`);
    }
    const timeline = readPage(build.outDir, `/sessions/${id}/timeline/`) ?? '';
    expect(timeline.match(/<tr[^>]* id="step-/g)?.length).toBe(1000);
    expect(fileForUrl(build.outDir, `/sessions/${id}/timeline/2/`)).toBeDefined();
  });
});
