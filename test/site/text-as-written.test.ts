/**
 * Issue 21 on built pages: every character a user, a command or the harness wrote is on the session page, the
 * step page and the export (fixtures/cases/text-as-written: a Windows path with `\.gemini` and `\_`, CRLF
 * output, `====` rulers, Markdown-looking shell text); links lead somewhere; a step page reads like the session
 * page (no wrappers, the error once, a title that says what happened). Then the same on the real sessions
 * (skipped when ../shared/real-brains is absent): no `<a>` without an `href` on any page, no `\.gemini` lost.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeHTML } from 'entities';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/build-site.ts';
import { sharedBuild, type SharedBuild } from '../helpers/shared-build.ts';
import { htmlFiles, readPage } from '../helpers/site-files.ts';

// The same build as build.test.ts's "reader cases under ARCHIVE_BASE" (one build for both in a run).
const BASE = '/team/agy-archive/';
const casesDir = path.join(projectRoot, 'fixtures', 'cases');
const caseRoots = readdirSync(casesDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .flatMap((e) =>
    readdirSync(path.join(casesDir, e.name), { withFileTypes: true })
      .filter((p) => p.isDirectory() && existsSync(path.join(casesDir, e.name, p.name, 'brain')))
      .map((p) => path.join(casesDir, e.name, p.name, 'brain')),
  );

const ID = '00000000-0000-4000-8000-000000000121';
const transcript = readFileSync(path.join(casesDir, 'text-as-written/antigravity/brain', ID, '.system_generated/logs/transcript.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { step_index: number; content?: string; error?: string; thinking?: string });
const contentOf = (index: number): string => transcript.find((s) => s.step_index === index)?.content ?? '';

/** What a reader sees: tags removed, entities decoded, line breaks as `\n` (CRLF is one line break on a page). */
const visible = (html: string): string => decodeHTML(html.replace(/<[^>]+>/g, '')).replace(/\r\n?/g, '\n');
/** The page without its folded parts (the raw records, a folded whole text) and hidden search metadata: what is shown at a glance. */
const unfolded = (html: string): string => html.replace(/<details[\s\S]*?<\/details>/g, '').replace(/<span hidden[^>]*>[^<]*<\/span>/g, '');
/** Anchors with no href: links that look like links and lead nowhere. */
const deadAnchors = (html: string): string[] => html.match(/<a(?![^>]*\shref="[^"]+")(?:\s[^>]*)?>/g) ?? [];

/** The lines of `text` missing from `page` (each line whole, every character, CR dropped). */
function missingLines(text: string, page: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '' && !page.includes(l));
}

describe('text as written, on a built site (fixtures/cases/text-as-written)', () => {
  let build: SharedBuild;
  const page = (p: string): string => {
    // Files sit at the out dir's root; links carry the base.
    const html = readPage(build.outDir, p);
    if (html === undefined) throw new Error(`no page ${p}`);
    return html;
  };
  const step = (key: number): string => page(`/sessions/${ID}/steps/${key}/`);
  beforeAll(async () => {
    build = await sharedBuild('cases-base', { BRAIN_ROOTS: caseRoots.join(':'), ARCHIVE_BASE: BASE });
  });

  const request = contentOf(0)
    .replace(/^[\s\S]*?<USER_REQUEST>\s*/, '')
    .replace(/\s*<\/USER_REQUEST>[\s\S]*$/, '');

  it("keeps every character and line break of the user's request, on the session page, the step page and the export", () => {
    expect(build.code, build.output.slice(-2000)).toBe(0);
    const where = { session: visible(page(`/sessions/${ID}/`)), step: visible(unfolded(step(0))), export: visible(page(`/sessions/${ID}/export.html`)) };
    for (const [name, text] of Object.entries(where)) {
      expect(missingLines(request, text), name).toEqual([]);
      expect(text, name).toContain('C:\\Users\\Pawan Devi\\.gemini\\antigravity\\brain\\ to D:\\backup\\_old and keep *every* file.');
      expect(text, name).toContain('    indented line stays indented');
    }
    // Not Markdown: the user's `**Do not**` and `# not a heading` are what they typed.
    expect(step(0)).not.toMatch(/<strong>Do not<\/strong>|<h\d[^>]*>not a heading/);
  });

  it("shows the user's words without the harness's wrappers; the raw record keeps them", () => {
    const html = step(0);
    expect(unfolded(html)).not.toMatch(/&lt;USER_REQUEST&gt;|&lt;ADDITIONAL_METADATA&gt;|The current local time is/);
    expect(html).toMatch(/&lt;USER_REQUEST&gt;/);
    expect(visible(/<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? '')).toBe('Step 0 · User: Copy C:\\Users\\Pawan Devi\\.gemini\\antigravity\\brain\\ to D:\\backup\\_old and keep *every* file. · agy-archive');
    expect(html).toMatch(/<span class="badge badge-info" title="record type USER_INPUT">User input<\/span>/);
  });

  it("keeps command output and system text preformatted: CRLF lines, `====` rulers, Markdown-looking shell text", () => {
    const output = contentOf(2).slice(contentOf(2).indexOf('# header comment'));
    const report = contentOf(3).slice(contentOf(3).indexOf('===================='), contentOf(3).indexOf('</SYSTEM_MESSAGE>'));
    expect(missingLines(output, visible(unfolded(step(2))))).toEqual([]);
    expect(missingLines(report, visible(unfolded(step(3))))).toEqual([]);
    // The system message past its preamble and tags, as the session page reads it (the raw record keeps them).
    expect(unfolded(step(3))).not.toMatch(/not actually sent by the user|&lt;SYSTEM_MESSAGE&gt;/);
    for (const html of [step(2), step(3)]) {
      // A `====` ruler under text is a heading in Markdown, `*x*` emphasis: neither here.
      expect(html).not.toMatch(/<h\d[^>]*>[^<]*(test session starts|FAILURES|passed in)/);
      expect(html).not.toMatch(/<em>|<strong>|<hr>/);
    }
    const exported = visible(page(`/sessions/${ID}/export.html`));
    expect(missingLines(output, exported)).toEqual([]);
    // The session page shows the call's output head, the same lines.
    expect(missingLines(output, visible(page(`/sessions/${ID}/`)))).toEqual([]);
  });

  it("keeps the backslashes of the model's prose and sends its links to the archived artifact", () => {
    const html = unfolded(step(1));
    const text = visible(html);
    expect(text).toContain("I'll copy from C:\\Users\\Pawan Devi\\.gemini\\antigravity\\brain\\ first; escaped \\_x\\_ stays.");
    expect(html).toContain(`<a href="${BASE}sessions/${ID}/artifacts/implementation_plan.md/"`);
    expect(html.match(new RegExp(`href="${BASE}sessions/${ID}/artifacts/implementation_plan.md/"`, 'g')) ?? []).toHaveLength(2);
    expect(text).toContain(`the script (file:///C:/Users/Pawan%20Devi/.gemini/antigravity/brain/${ID}/scratch/copy.ps1)`);
    expect(text).toContain('home.css (file:///C:/Users/Pawan%20Devi/site/home.css#L3-L9)');
    expect(visible(step(1))).toContain('The path C:\\Users\\Pawan Devi\\.gemini\\antigravity has a space; \\* globs stay.');
    // The session page renders the same reply the same way.
    const session = page(`/sessions/${ID}/`);
    expect(visible(session)).toContain('escaped \\_x\\_ stays.');
    expect(session).toContain(`<a href="${BASE}sessions/${ID}/artifacts/implementation_plan.md/"`);
  });

  it('shows an error once, in the failure box, and titles the page with it', () => {
    const withGuidance = step(5);
    const message = 'does not exist';
    expect(visible(unfolded(withGuidance)).split(message).length - 1).toBe(1);
    expect(withGuidance).toContain('The whole error text as recorded');
    const bare = step(6);
    expect(visible(unfolded(bare)).split('these cannot both be empty').length - 1).toBe(1);
    expect(visible(/<title>([\s\S]*?)<\/title>/.exec(bare)?.[1] ?? '')).toMatch(/^Step 6 · Error: model output error: model output must contain/);
  });

  it('labels an agent error in the conversation as one, with its message, not as a failed result (fixtures/cases/step-errors)', () => {
    const html = page(`/sessions/00000000-0000-4000-8000-000000000050/`);
    // Step 10: "model output must contain either output text or tool calls", an ERROR_MESSAGE answering no call.
    const row = /<div class="[^"]*" id="step-10">[\s\S]*?<\/div>/.exec(html)?.[0] ?? '';
    expect(row).toContain('agent error');
    expect(visible(row)).toContain('model output must contain either output text or tool calls');
    expect(row).not.toMatch(/no call recorded|>failed<|class="call-kind">result</);
    // The export says the same.
    const exported = /<div class="[^"]*" id="step-10">[\s\S]*?<\/div>/.exec(page(`/sessions/00000000-0000-4000-8000-000000000050/export.html`))?.[0] ?? '';
    expect(exported).toContain('agent error');
    expect(visible(exported)).toContain('model output must contain either output text or tool calls');
    expect(exported).not.toMatch(/no call recorded|>failed<|class="kind">result</);
  });

  it('leaves no anchor without an href on any page of the build', () => {
    const dead: string[] = [];
    for (const file of htmlFiles(build.outDir)) {
      for (const a of deadAnchors(readFileSync(path.join(build.outDir, file), 'utf8'))) dead.push(`${file}: ${a}`);
    }
    expect(dead).toEqual([]);
    // An artifact's link to a sibling the archive does not hold shows its target.
    expect(visible(page(`/sessions/${ID}/artifacts/implementation_plan.md/`))).toContain('the task (./task.md)');
  });
});

// ../shared from the main checkout, ../../shared from a worktree beside it.
const realHome = [path.resolve(projectRoot, '../shared/real-brains/gemini'), path.resolve(projectRoot, '../../shared/real-brains/gemini')].find((p) => existsSync(p));

describe.skipIf(realHome === undefined)('text as written on the real sessions', () => {
  let build: SharedBuild;
  beforeAll(async () => {
    // The same build as real-data.test.ts (shared in a run).
    build = await sharedBuild('real', { GEMINI_HOME: realHome });
  });

  it('leaves no anchor without an href, and no Windows path without its backslash before .gemini', () => {
    const dead: string[] = [];
    const eaten: string[] = [];
    let userPages = 0;
    for (const file of htmlFiles(build.outDir)) {
      const html = readFileSync(path.join(build.outDir, file), 'utf8');
      for (const a of deadAnchors(html)) dead.push(`${file}: ${a}`);
      // `huyth.gemini\antigravity`: a backslash eaten by Markdown (the source always has `huyth\.gemini`).
      const lost = /[A-Za-z0-9)][.]gemini\\antigravity/.exec(visible(html));
      if (lost) eaten.push(`${file}: …${visible(html).slice(Math.max(0, lost.index - 40), lost.index + 30)}…`);
      if (/title="record type USER_INPUT"/.test(html)) {
        userPages++;
        expect(unfolded(html), file).not.toMatch(/&lt;USER_REQUEST&gt;|&lt;ADDITIONAL_METADATA&gt;/);
      }
      if (/title="record type SYSTEM_MESSAGE"/.test(html)) expect(unfolded(html), file).not.toMatch(/not actually sent by the user/);
    }
    expect(dead).toEqual([]);
    expect(eaten).toEqual([]);
    expect(userPages).toBeGreaterThan(50);
  });
});
