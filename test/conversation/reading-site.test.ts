/**
 * Reading a session quickly (issue 22) on the demo build: edits shown as the model's reason and a diff where they
 * happened, no Antigravity diff marker shown as text, a failed call open with its reason in its row, one page with
 * every failure of a session, the commands and files of a session on pages of their own, a skip link, thinking
 * under its headline and one line per gap of system steps.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../src/lib/brain/types.ts';
import { sessionTurns } from '../../src/lib/turns/index.ts';
import { demoBuild, readDemoSessions } from '../helpers/homes.ts';
import type { SharedBuild } from '../helpers/shared-build.ts';
import { fileForUrl, htmlFiles, linksIn, readPage, textOf } from '../helpers/site-files.ts';
import { readFileSync } from 'node:fs';

const IDE = '04c6284a-930e-444f-982e-37e931b8daf3';

/** Every conversation page of a session, joined. */
function conversation(outDir: string, id: string): string {
  const pages = [readPage(outDir, `/sessions/${id}/`) ?? ''];
  for (let n = 2; ; n++) {
    const html = readPage(outDir, `/sessions/${id}/conversation/${n}/`);
    if (html === undefined) break;
    pages.push(html);
  }
  return pages.join('');
}

/** The `<details class="call …">` card of call `id`, up to the links that close it. */
function card(html: string, id: string): string {
  const at = html.indexOf(`id="call-${id}"`);
  if (at < 0) return '';
  const start = html.lastIndexOf('<details', at);
  return html.slice(start, html.indexOf('<p class="call-links', at));
}

describe('reading a session on the demo build', () => {
  let build: SharedBuild;
  let sessions: Session[];
  beforeAll(async () => {
    build = await demoBuild();
    sessions = await readDemoSessions();
  });

  it("shows every edit as the model's reason and a diff, open, with the raw arguments one click away", () => {
    expect(build.code, build.output.slice(-3000)).toBe(0);
    let edits = 0;
    for (const s of sessions) {
      const html = conversation(build.outDir, s.id);
      for (const call of sessionTurns(s).calls.filter((c) => c.outcome.kind === 'edit' && c.resultStepKey !== undefined)) {
        const step = s.steps.find((st) => st.key === call.callStepKey);
        const args = step?.toolCalls[call.callIndex]?.args;
        if (!args) continue;
        const c = card(html, call.id);
        expect(c, `${s.id} ${call.id}`).toMatch(/^<details class="call k-edit[^"]*has-diff[^"]*"[^>]*\sopen/);
        expect(c, `${s.id} ${call.id}`).toContain('<table class="diff">');
        expect(c).toMatch(/<tr class="diff-(add|del)">/);
        expect(c).toContain('<details class="call-raw"><summary class="small muted">Arguments as recorded</summary>');
        const why = String(args.Description ?? args.Instruction ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
        if (why) expect(textOf(c), `${s.id} ${call.id}`).toContain(why);
        edits++;
      }
    }
    expect(edits).toBeGreaterThan(20);
  });

  it("shows no page, the exports included, with Antigravity's [diff_block_start] text outside the raw records", () => {
    const shown: string[] = [];
    let raw = 0;
    for (const file of htmlFiles(build.outDir)) {
      const html = readFileSync(path.join(build.outDir, file), 'utf8');
      if (!html.includes('diff_block_start')) continue;
      raw++;
      if (html.replace(/<pre class="raw">[\s\S]*?<\/pre>/g, '').includes('diff_block_start')) shown.push(file);
    }
    expect(raw, 'the demo holds diff blocks').toBeGreaterThan(0);
    expect(shown).toEqual([]);
  });

  it('opens a failed call and says why in its row: the error line, not the closing lines of the run', () => {
    const html = readPage(build.outDir, `/sessions/${IDE}/`) ?? '';
    const failed = sessionTurns(sessions.find((s) => s.id === IDE) as Session).calls.find((c) => c.outcome.status === 'failed' && c.outcome.line.includes('rate-limit.test.ts'));
    const c = card(html, failed?.id ?? '');
    expect(c).toMatch(/^<details class="call k-command is-failed"[^>]*\sopen/);
    const summary = c.slice(0, c.indexOf('</summary>'));
    expect(textOf(summary)).toContain("AssertionError: expected '41' to be '60'");
    expect(textOf(summary)).not.toContain('Duration');
    // The row's line keeps its tail (how it ended) apart from the head a narrow screen cuts.
    expect(summary).toMatch(/<span class="line-tail"> · exit 1<\/span><\/span>\s*<span class="badge badge-err"/);
  });

  it('lists every failed call of a session on one page, each with its reason and links that resolve', () => {
    for (const s of sessions) {
      const html = readPage(build.outDir, `/sessions/${s.id}/failures/`);
      expect(html, s.id).toBeDefined();
      const built = sessionTurns(s);
      const failed = built.calls.filter((c) => c.outcome.status === 'failed').length + built.turns.flatMap((t) => t.items).filter((i) => i.kind === 'orphan-result' && i.outcome.status === 'failed').length;
      expect((html?.match(/<li class="call [^"]*is-failed failure-row">/g) ?? []).length, s.id).toBe(failed);
      for (const link of linksIn(html ?? '').filter((l) => l.startsWith(`/sessions/${s.id}/`))) {
        const [url, anchor] = link.split('#');
        const target = readPage(build.outDir, url ?? '');
        expect(target, link).toBeDefined();
        if (anchor) expect(target, link).toContain(`id="${decodeURIComponent(anchor)}"`);
      }
    }
    expect(textOf(readPage(build.outDir, `/sessions/${IDE}/failures/`) ?? '')).toContain("AssertionError: expected '41' to be '60'");
  });

  it('links the commands and files of a session to pages of their own instead of carrying the tables', () => {
    for (const s of sessions) {
      const html = readPage(build.outDir, `/sessions/${s.id}/`) ?? '';
      expect(html).not.toContain('<table class="audit-table commands">');
      if (html.includes('id="commands"')) {
        expect(html).toContain(`href="/sessions/${s.id}/commands/"`);
        const page = readPage(build.outDir, `/sessions/${s.id}/commands/`) ?? '';
        expect(page).toContain('<table class="audit-table commands">');
      }
      if (html.includes('id="files"')) {
        expect(html).toContain(`href="/sessions/${s.id}/files/"`);
        expect(fileForUrl(build.outDir, `/sessions/${s.id}/files/`)).toBeDefined();
      }
    }
    const commands = readPage(build.outDir, `/sessions/${IDE}/commands/`) ?? '';
    expect(textOf(commands)).toContain('npx vitest run test/rate-limit.test.ts');
  });

  it('opens the session page with a skip link to the conversation and to the list of turns', () => {
    const html = readPage(build.outDir, `/sessions/${IDE}/`) ?? '';
    const article = html.slice(html.indexOf('<article'));
    const firstLink = /<a [^>]*href="([^"]*)"[^>]*>([^<]*)</.exec(article);
    expect(firstLink?.[1]).toBe('#conversation');
    expect(firstLink?.[2]).toBe('Skip to the conversation');
    expect(html).toMatch(/<div class="conversation" id="conversation" tabindex="-1">/);
    expect(article).toContain('href="#turns-heading"');
    expect(html).toContain('id="turns-heading"');
  });

  it('folds thinking under its headline and the system steps between replies into one line per gap', () => {
    const html = readPage(build.outDir, `/sessions/${IDE}/`) ?? '';
    expect(html).toMatch(/<summary class="small">Thinking: <span class="thinking-headline">Scoping the Request<\/span><\/summary>/);
    const gaps = [...html.matchAll(/<details class="item folded">\s*<summary[^>]*>([\s\S]*?)<\/summary>/g)].map((m) => textOf(m[1] ?? '').trim());
    expect(gaps.map((g) => g.replace(/\s+:/, ':'))).toContain('2 notices: Conversation history · Knowledge items');
    // The builder's runs of one kind each, merged: never more gaps than runs, and fewer here.
    const s = sessions.find((x) => x.id === IDE) as Session;
    const runs = sessionTurns(s).turns.flatMap((t) => t.items).filter((i) => i.kind === 'folded').length;
    expect(gaps.length).toBeLessThan(runs);
  });
});
