/**
 * Issue 21, "text as written" and "links lead somewhere", on the pure modules: which kind of text is Markdown
 * (text-kind.ts), what Markdown keeps of a transcript's backslashes, where each link leads (links.ts), and what
 * a step page is called (step-title.ts). The real sessions in ../shared/real-brains (skipped when absent) supply
 * the paths and links the fixtures imitate.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeHTML } from 'entities';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/lib/render/markdown.ts';
import { linkOutcome, sessionLinks, sessionRelativePath } from '../../src/lib/render/links.ts';
import { presentationOf, stepTextKind } from '../../src/lib/render/text-kind.ts';
import { stepTitle, stepTypeLabel } from '../../src/lib/archive/step-title.ts';
import { useTempCacheDir } from '../helpers/cache-dir.ts';
import { projectRoot } from '../helpers/build-site.ts';

useTempCacheDir('text-as-written-');

/** What a reader sees of `html`: tags removed, every entity decoded (rehype writes `&#x3C;` and `&#x26;`). */
const visible = (html: string): string => decodeHTML(html.replace(/<[^>]+>/g, ''));

const ID = 'ca4322d4-9341-4bd7-ad62-33640faaced0';
const links = sessionLinks({
  sessionId: ID,
  artifacts: [
    { name: 'design.md', slug: 'design.md' },
    { name: 'index.html', slug: 'index.html' },
  ],
  uploads: [{ file: 'uploaded_media_1769881144542.png', served: '1.png' }, { file: 'notes.pdf' }],
});

describe('which text is Markdown (text-kind.ts)', () => {
  it("renders only the model's prose and artifacts as Markdown; a person's words and every program's text are not", () => {
    expect(presentationOf('model')).toEqual({ as: 'markdown', asWritten: true });
    expect(presentationOf('artifact')).toEqual({ as: 'markdown', asWritten: false });
    expect(presentationOf('user')).toEqual({ as: 'user-text' });
    for (const kind of ['tool-output', 'system', 'message', 'task-log'] as const) expect(presentationOf(kind)).toEqual({ as: 'preformatted' });
  });

  it("shows a checkpoint summary as written: it quotes the transcript's raw lines, which Markdown mangled", async () => {
    const summary = '# Previous Session Summary\n{"step_index":1,"content":"<USER_REQUEST>\\nls\\n</USER_REQUEST>"}\n**Note** `x';
    // What the old rule (Markdown) made of it on the real sessions: bold runs and code spans from the quoted records.
    const asMarkdown = await renderMarkdown('{"step_index":1491,"content":"**x** `a"} and {"step_index":1492,"content":"b` __y__"}', { asWritten: true });
    expect(asMarkdown).toMatch(/<strong>|<code>/);
    for (const field of ['content'] as const) expect(stepTextKind({ type: 'CHECKPOINT', source: 'SYSTEM' }, field, false)).toBe('checkpoint');
    expect(presentationOf(stepTextKind({ type: 'CHECKPOINT', source: 'SYSTEM' }, 'content', false))).toEqual({ as: 'preformatted' });
    // Preformatted text is drawn as `<pre>{text}</pre>` (PlainText.astro): every character, no element made from it.
    const html = `<pre>${summary.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</pre>`;
    expect(visible(html)).toBe(summary);
    expect(html).not.toMatch(/<strong>|<code>|<h\d/);
  });

  it('decides each step field by who wrote it', () => {
    const kind = (type: string, source: string, field: Parameters<typeof stepTextKind>[1] = 'content', isResult = false) => stepTextKind({ type, source }, field, isResult);
    expect(kind('USER_INPUT', 'USER_EXPLICIT')).toBe('user');
    expect(kind('CODE_ACTION', 'USER_EXPLICIT')).toBe('tool-output');
    expect(kind('PLANNER_RESPONSE', 'MODEL')).toBe('model');
    expect(kind('CHECKPOINT', 'SYSTEM')).toBe('checkpoint');
    expect(kind('SYSTEM_MESSAGE', 'SYSTEM')).toBe('system');
    expect(kind('EPHEMERAL_MESSAGE', 'SYSTEM')).toBe('system');
    expect(kind('ERROR_MESSAGE', 'SYSTEM')).toBe('system');
    expect(kind('RUN_COMMAND', 'MODEL', 'content', true)).toBe('tool-output');
    // jetski writes every result as GENERIC: the pairing says it is one.
    expect(kind('GENERIC', 'MODEL', 'content', true)).toBe('tool-output');
    // A type nobody told us about is shown as written, never as Markdown.
    expect(kind('SOMETHING_NEW', 'MODEL')).toBe('tool-output');
    expect(kind('PLANNER_RESPONSE', 'MODEL', 'thinking')).toBe('model');
    expect(kind('READ_URL_CONTENT', 'MODEL', 'content-md')).toBe('tool-output');
    expect(kind('RUN_COMMAND', 'MODEL', 'output', true)).toBe('tool-output');
  });
});

describe('Markdown keeps what the model typed (markdown.ts, asWritten)', () => {
  const text = 'Copy `x` to C:\\Users\\Pawan Devi\\.gemini\\antigravity\\brain\\ and escape \\_x\\_ and 2 \\* 3 \\* 4; &lt;div&gt; and \\\\server';

  it('keeps every backslash, underscore, asterisk and entity of transcript prose', async () => {
    const shown = visible(await renderMarkdown(text, { asWritten: true }));
    expect(shown).toContain('C:\\Users\\Pawan Devi\\.gemini\\antigravity\\brain\\');
    expect(shown).toContain('\\_x\\_');
    expect(shown).toContain('2 \\* 3 \\* 4');
    expect(shown).toContain('&lt;div&gt;');
    expect(shown).toContain('\\\\server');
  });

  it('still renders the Markdown the model meant (and an artifact as CommonMark reads it)', async () => {
    const html = await renderMarkdown('# Plan\n\n**bold** `C:\\x\\.y` and a line  \nbreak', { asWritten: true });
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<code>C:\\x\\.y</code>');
    expect(html).toContain('<br>');
    // The old behaviour, kept for artifacts (documents that escape on purpose, `\[Topic\]`): the backslash goes.
    expect(visible(await renderMarkdown(text))).toContain('C:\\Users\\Pawan Devi.gemini');
    expect(visible(await renderMarkdown('policy on \\[Topic\\]')).trim()).toBe('policy on [Topic]');
  });
});

describe('links lead somewhere (links.ts)', () => {
  it("finds a file of the session's own folder however the path is written", () => {
    expect(sessionRelativePath(`file:///usr/local/google/home/g/.gemini/jetski/brain/${ID}/design.md`, ID)).toBe('design.md');
    expect(sessionRelativePath(`file:///C:/Users/DATA%20ENG.%20OLA/.gemini/antigravity/brain/${ID}/design.md#L3`, ID)).toBe('design.md');
    expect(sessionRelativePath(`file:///c:/Users/x/.gemini/antigravity/brain/${ID.toUpperCase()}/scratch/a.py`, ID)).toBe('scratch/a.py');
    expect(sessionRelativePath(`C:\\Users\\x\\.gemini\\antigravity\\brain\\${ID}\\design.md`, ID)).toBe('design.md');
    expect(sessionRelativePath('./design.md', ID)).toBe('design.md');
    expect(sessionRelativePath('../README.md', ID)).toBeUndefined();
    expect(sessionRelativePath('file:///Users/f/Documents/app/src/home.css', ID)).toBeUndefined();
    expect(sessionRelativePath(`file:///x/.gemini/antigravity/brain/3adf6725-dc88-43e1-8317-e80db82082c0/walkthrough.md`, ID)).toBeUndefined();
    expect(sessionRelativePath('https://example.com/design.md', ID)).toBeUndefined();
  });

  it('sends artifacts (and their .resolved versions) and published uploads to their pages; the rest is text', () => {
    const brain = `file:///C:/Users/huyth/.gemini/antigravity/brain/${ID}`;
    expect(linkOutcome(`${brain}/design.md`, links)).toEqual({ href: `/sessions/${ID}/artifacts/design.md/` });
    expect(linkOutcome(`${brain}/design.md.resolved.3`, links)).toEqual({ href: `/sessions/${ID}/artifacts/design.md/` });
    expect(linkOutcome(`${brain}/uploaded_media_1769881144542.png`, links)).toEqual({ href: `/sessions/${ID}/uploads/1.png` });
    // An upload the archive does not serve, a scratch file, a file elsewhere: the target, as text.
    expect(linkOutcome(`${brain}/notes.pdf`, links)).toEqual({ text: `${brain}/notes.pdf` });
    expect(linkOutcome(`${brain}/scratch/check.py`, links)).toEqual({ text: `${brain}/scratch/check.py` });
    expect(linkOutcome('file:///c:/Users/USER/Desktop/주식프롬프트.jsx', links)).toEqual({ text: 'file:///c:/Users/USER/Desktop/주식프롬프트.jsx' });
    expect(linkOutcome('https://example.com', links)).toEqual({ href: 'https://example.com' });
    expect(linkOutcome('mailto:a@b.example', undefined)).toEqual({ href: 'mailto:a@b.example' });
    expect(linkOutcome('javascript:alert(1)', links)).toEqual({ removed: true });
  });

  it('never leaves an <a> without an href, and shows where a dead link pointed', async () => {
    const md = [
      `See [design](file:///C:/Users/u/.gemini/antigravity/brain/${ID}/design.md) and [\`home.css\`](file:///Users/f/app/src/home.css#L411-L423).`,
      '[rel](./chapter_02.md) [frag](#top) [vs](vscode://file/x) [js](javascript:alert(1)) [ref][1] [missing][nope] <https://auto.example> www.example.com',
      `![shot](file:///C:/x/.gemini/antigravity/brain/${ID}/uploaded_media_1769881144542.png) ![gone](file:///C:/img.png)`,
      'A note[^n].',
      '',
      '[1]: file:///C:/x/y.md',
      '[^n]: the note',
    ].join('\n');
    const html = await renderMarkdown(md, { asWritten: true, links });
    expect(html.match(/<a(?![^>]*\shref="[^"]+")[^>]*>/g) ?? []).toEqual([]);
    expect(html).toContain(`<a href="/sessions/${ID}/artifacts/design.md/"`);
    expect(html).toContain(`<img src="/sessions/${ID}/uploads/1.png"`);
    const shown = visible(html);
    expect(shown).toContain('home.css (file:///Users/f/app/src/home.css#L411-L423)');
    expect(shown).toContain('rel (./chapter_02.md)');
    expect(shown).toContain('frag (#top)');
    expect(shown).toContain('vs (vscode://file/x)');
    expect(shown).toContain('ref (file:///C:/x/y.md)');
    expect(shown).toContain('[image: gone] (file:///C:/img.png)');
    expect(html).not.toContain('javascript:');
    // Without a session, a link to the session's file is still not dead: it shows its target.
    expect(visible(await renderMarkdown(md))).toContain(`design (file:///C:/Users/u/.gemini/antigravity/brain/${ID}/design.md)`);
  });
});

describe('step titles (step-title.ts)', () => {
  it('says what happened, and names the record type in words', () => {
    const run = { name: 'run_command', outcome: { line: 'python -m http.server 8080 · exit 1' } };
    expect(stepTitle('37', { type: 'RUN_COMMAND', answers: run })).toBe('Step 37 · run_command python -m http.server 8080 · exit 1');
    expect(stepTitle('36', { type: 'PLANNER_RESPONSE', made: [run] })).toBe('Step 36 · run_command python -m http.server 8080 · exit 1');
    expect(stepTitle('12', { type: 'USER_INPUT', content: '<USER_REQUEST>\nmake the header sticky\nplease\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is 2026-01-01\n</ADDITIONAL_METADATA>' })).toBe('Step 12 · User: make the header sticky');
    expect(stepTitle('40', { type: 'PLANNER_RESPONSE', content: '## Done\n\nThe tests pass.' })).toBe('Step 40 · Reply: Done');
    expect(stepTitle('254', { type: 'PLANNER_RESPONSE', content: 'The **System Design Document** (`design.md`) is [here](file:///x/design.md).' })).toBe(
      'Step 254 · Reply: The System Design Document (design.md) is here.',
    );
    expect(stepTitle('7091', { type: 'ERROR_MESSAGE', error: 'Error: model output error: model output must contain either output text or tool calls' })).toBe(
      'Step 7091 · Error: model output error: model output must contain either output text or tool calls',
    );
    expect(stepTitle('5', { type: 'CHECKPOINT', summary: 'Checkpoint 2: Build the page' })).toBe('Step 5 · Checkpoint 2: Build the page');
    expect(stepTitle('6', { type: 'SYSTEM_MESSAGE', summary: 'Task task-5 finished' })).toBe('Step 6 · System message: Task task-5 finished');
    expect(stepTitle('7', { type: 'PLANNER_RESPONSE', content: 'x'.repeat(300) }).length).toBeLessThan(130);
    // A long command is cut in its middle: how it ended stays in the title.
    const long = { name: 'run_command', outcome: { line: `python "C:/Users/DATA ENG. OLA/.gemini/antigravity/brain/${'x'.repeat(120)}/scratch/test.py" · exit 1` } };
    expect(stepTitle('7118', { type: 'RUN_COMMAND', answers: long })).toMatch(/^Step 7118 · run_command python "C:\/Users\/DATA ENG\. OLA\/\.gemini\/.*… · exit 1$/);
    expect(stepTypeLabel('PLANNER_RESPONSE')).toBe('Model reply');
    expect(stepTypeLabel('RUN_COMMAND')).toBe('Command result');
    expect(stepTypeLabel('BROWSER_SUBAGENT_ACTION')).toBe('Browser subagent action');
  });
});

// ../shared from the main checkout, ../../shared from a worktree beside it.
const realHome = [path.resolve(projectRoot, '../shared/real-brains/gemini'), path.resolve(projectRoot, '../../shared/real-brains/gemini')].find((p) => existsSync(p)) ?? '';

/** Every record of every transcript under `home`, with its session id. */
function realRecords(home: string): Array<{ session: string; record: Record<string, unknown> }> {
  const out: Array<{ session: string; record: Record<string, unknown> }> = [];
  for (const entry of readdirSync(home, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/^transcript(_full)?\.jsonl$/.test(entry.name)) continue;
    const session = /brain[\\/]([0-9a-f-]{36})/.exec(entry.parentPath)?.[1] ?? '';
    for (const line of readFileSync(path.join(entry.parentPath, entry.name), 'utf8').split('\n')) {
      try {
        out.push({ session, record: JSON.parse(line) as Record<string, unknown> });
      } catch {
        // Torn lines are the reader's business.
      }
    }
  }
  return out;
}

describe.skipIf(realHome === '')('on the real sessions', () => {
  const records = realHome !== '' ? realRecords(realHome) : [];
  // Each text once (the compact and the full transcript hold the same steps).
  const prose = [
    ...new Map(
      records.flatMap(({ session, record }) =>
        record.type === 'PLANNER_RESPONSE' || record.type === 'CHECKPOINT'
          ? (['content', 'thinking'] as const).flatMap((f) => (typeof record[f] === 'string' ? [[`${session}\0${record[f] as string}`, { session, text: record[f] as string }] as const] : []))
          : [],
      ),
    ).values(),
  ];

  it("keeps every `\\.gemini` the model wrote (the real replies, thinking and checkpoints write Windows paths)", async () => {
    const withPaths = prose.filter((p) => p.text.includes('\\.gemini'));
    expect(withPaths.length).toBeGreaterThan(20);
    for (const p of withPaths) {
      const html = await renderMarkdown(p.text, { asWritten: true, headingsFrom: 3 });
      const want = p.text.split('\\.gemini').length - 1;
      // Code spans and fences kept theirs before; now prose does too: as many on the page as in the record.
      expect(visible(html).split('\\.gemini').length - 1, p.text.slice(0, 120)).toBe(want);
    }
  });

  it("sends links to the session's own artifacts to their pages and leaves no dead anchor", async () => {
    const withLinks = prose.filter((p) => /\]\((?:file:|\.\/|[^)\s]*\.md\))/.test(p.text));
    expect(withLinks.length).toBeGreaterThan(20);
    let toArtifacts = 0;
    const dirs = new Map(
      readdirSync(realHome, { recursive: true, withFileTypes: true })
        .filter((e) => e.isDirectory() && /^[0-9a-f-]{36}$/.test(e.name) && path.basename(e.parentPath) === 'brain')
        .map((e) => [e.name, path.join(e.parentPath, e.name)]),
    );
    for (const p of withLinks) {
      const dir = dirs.get(p.session);
      const names = dir ? readdirSync(dir).filter((n) => /\.(md|html|css|js|py)$/.test(n)) : [];
      const ctx = sessionLinks({ sessionId: p.session, artifacts: names.map((n) => ({ name: n, slug: n })), uploads: [] });
      const html = await renderMarkdown(p.text, { asWritten: true, links: ctx });
      expect(html.match(/<a(?![^>]*\shref="[^"]+")[^>]*>/g) ?? [], p.text.slice(0, 120)).toEqual([]);
      toArtifacts += (html.match(new RegExp(`href="/sessions/${p.session}/artifacts/`, 'g')) ?? []).length;
    }
    // The real replies link their own implementation plans, walkthroughs and designs (SURVEY: ~100 such links).
    expect(toArtifacts).toBeGreaterThan(30);
  });
});
