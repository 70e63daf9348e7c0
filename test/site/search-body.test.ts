/**
 * What the search index gets of a step: its words in the search document of its turn
 * (`/sessions/<id>/search/<turn>.html`, the text inside `data-pagefind-body` that is not under
 * `data-pagefind-ignore`). Auditors search for a step's text, a command, a path and an error message: each must be
 * in it, while the bulky parts (code, diffs, raw records, long output tails) stay on the step page but out of the
 * index. The step pages themselves are not indexed.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Session, Step } from '../../src/lib/brain/types.ts';
import { demoBuild, readDemoSessions } from '../helpers/homes.ts';
import type { SharedBuild } from '../helpers/shared-build.ts';
import { readPage } from '../helpers/site-files.ts';
import { shownText } from '../../src/lib/search/cjk.ts';

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** The indexed text of a page: inside data-pagefind-body, minus data-pagefind-ignore subtrees, tags dropped. */
function indexedText(html: string): string {
  const body = html.slice(html.indexOf('data-pagefind-body'));
  let out = '';
  let ignoreDepth = 0;
  let depth = 0;
  for (const m of body.matchAll(/<(\/?)([a-zA-Z0-9-]+)([^>]*)>|([^<]+)/g)) {
    if (m[4] !== undefined) {
      if (ignoreDepth === 0) out += m[4];
      continue;
    }
    const tag = (m[2] ?? '').toLowerCase();
    if (VOID.has(tag) || (m[3] ?? '').endsWith('/')) continue;
    if (m[1]) {
      depth--;
      if (ignoreDepth > 0 && depth < ignoreDepth) ignoreDepth = 0;
    } else {
      depth++;
      if (ignoreDepth === 0 && /\sdata-pagefind-ignore/.test(m[3] ?? '')) ignoreDepth = depth;
    }
  }
  // What the index holds, read back as the page shows it: names are indexed split from the punctuation that joins
  // them, and CJK as pairs, with marks that put them back (src/lib/search/cjk.ts).
  return shownText(out.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' '));
}

describe('search index of steps (demo build)', () => {
  let build: SharedBuild;
  let steps: { s: Session; step: Step }[];
  beforeAll(async () => {
    build = await demoBuild();
    const sessions = await readDemoSessions();
    steps = sessions.flatMap((s) => s.steps.map((step) => ({ s, step })));
  });
  /**
   * The indexed text of a step: its section of the search document of its turn (from its heading to the next);
   * a result step's words are in the section of the call it answers, so for a step without a section of its own,
   * every document of its session.
   */
  const indexed = (x: { s: Session; step: Step }) => {
    const dir = path.join(build.outDir, 'sessions', x.s.id, 'search');
    const docs = readdirSync(dir).map((name) => readPage(build.outDir, `/sessions/${x.s.id}/search/${name}`) ?? '');
    for (const html of docs) {
      const at = html.indexOf(`<h2 id="step-${x.step.key}">`);
      if (at >= 0) return indexedText(`<main data-pagefind-body>${html.slice(at, html.indexOf('</section>', at))}</main>`);
    }
    return docs.map(indexedText).join(' ');
  };

  it('indexes no step page and no session page: their words are in the search documents', () => {
    const [x] = steps;
    expect(readPage(build.outDir, `/sessions/${x!.s.id}/steps/${x!.step.key}/`)).not.toContain('data-pagefind-body');
    expect(readPage(build.outDir, `/sessions/${x!.s.id}/`)).not.toContain('data-pagefind-body');
  });
  const words = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 40).trim();

  it('holds the model and user text', () => {
    const said = steps.filter(({ step }) => (step.type === 'PLANNER_RESPONSE' || step.type === 'USER_INPUT') && step.content && !/[`*_#<>[\]|]/.test(step.content.slice(0, 60)));
    expect(said.length).toBeGreaterThan(0);
    for (const x of said.slice(0, 20)) expect(indexed(x), `${x.s.id} ${x.step.key}`).toContain(words(x.step.content ?? ''));
  });

  it('holds command lines, file paths and tool names, not the code written', () => {
    const commands = steps.filter(({ step }) => step.toolCalls.some((c) => c.name === 'run_command' && typeof c.args.CommandLine === 'string'));
    expect(commands.length).toBeGreaterThan(0);
    for (const x of commands) {
      const cmd = String(x.step.toolCalls.find((c) => c.name === 'run_command')?.args.CommandLine);
      expect(indexed(x)).toContain(words(cmd.split('\n')[0] ?? ''));
      expect(indexed(x)).toContain('run_command');
    }
    const writes = steps.filter(({ step }) => step.toolCalls.some((c) => c.name === 'write_to_file' && typeof c.args.TargetFile === 'string' && typeof c.args.CodeContent === 'string' && c.args.CodeContent.length > 200));
    for (const x of writes) {
      const call = x.step.toolCalls.find((c) => c.name === 'write_to_file');
      const text = indexed(x);
      expect(text).toContain(String(call?.args.TargetFile));
      const lastLine = String(call?.args.CodeContent).trim().split('\n').at(-1)?.trim() ?? '';
      if (lastLine.length > 20) expect(text).not.toContain(lastLine);
    }
  });

  it('holds error messages', () => {
    const errors = steps.filter(({ step }) => typeof step.error === 'string' && step.error.trim().length > 0);
    for (const x of errors) expect(indexed(x)).toContain(words(String(x.step.error)));
  });
});
