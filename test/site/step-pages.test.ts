/**
 * Step pages of the demo build: a call's page shows what answered it, a result's page names and links its call,
 * red only for failures (issue 11: 18 demo pages carried "Error · exit code 0"), headings in order, tool output
 * headed Output, and the model in force as the search filter.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../src/lib/brain/index.ts';
import { sessionTurns } from '../../src/lib/turns/index.ts';
import { demoBuild, readDemoSessions } from '../helpers/homes.ts';
import type { SharedBuild } from '../helpers/shared-build.ts';
import { readPage, textOf } from '../helpers/site-files.ts';

const DEMO = '04c6284a-930e-444f-982e-37e931b8daf3';

describe('step pages of the demo', () => {
  let build: SharedBuild;
  let sessions: Session[];
  beforeAll(async () => {
    build = await demoBuild();
    sessions = await readDemoSessions();
  });

  const page = (id: string, key: string): string => {
    const html = readPage(build.outDir, `/sessions/${id}/steps/${key}/`);
    if (html === undefined) throw new Error(`no page for ${id} step ${key}`);
    return html;
  };

  it("shows a call's result, exit code, times and output on the call's page", () => {
    const html = page(DEMO, '11');
    const text = textOf(html);
    expect(html).toContain(`href="/sessions/${DEMO}/steps/12/"`);
    expect(text).toContain('Result step 12 (RUN_COMMAND)');
    expect(text).toMatch(/Exit code 0 Started 2026-03-12 07:15:04 UTC Completed 2026-03-12 07:15:16 UTC Duration 12 s/);
    expect(text).toContain('Test Files 9 passed (9)');
    expect(text).toContain('finished at step 15');
  });

  it("names and links the call on a result's page, with its times as facts and no transport header", () => {
    const html = page(DEMO, '12');
    const text = textOf(html);
    expect(html).toContain(`href="/sessions/${DEMO}/steps/11/"`);
    expect(text).toMatch(/Answers the run_command call of step 11\s*: Ran npm test -- --reporter=dot · exit 0/);
    const output = /<section class="block" aria-labelledby="content-heading">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(textOf(output)).toMatch(/^\s*Output > orders-api@2\.4\.1 test/);
    expect(output).not.toMatch(/Created At:|The command completed successfully/);
    expect(html).not.toMatch(/<h2[^>]*>Model<\/h2>/);
  });

  it('marks failures red and nothing else: no exit-0 step carries a failure block', () => {
    for (const s of sessions) {
      const t = sessionTurns(s);
      for (const step of s.steps) {
        const html = page(s.id, step.key);
        const block = /<section class="block error"[\s\S]*?<\/section>/.exec(html)?.[0];
        const view = t.steps[step.position];
        if (block) {
          expect(view?.failed, `${s.id} step ${step.key}`).toBe(true);
          expect(block).not.toMatch(/exit code <code>0<\/code>/);
        }
      }
    }
    const failed = textOf(page(DEMO, '53'));
    expect(failed).toContain('Failed · exit code 1');
    expect(page(DEMO, '53')).toContain('badge-err">failed · exit 1');
  });

  it('keeps headings in order on every step page (no h1 → h4 jumps)', () => {
    for (const s of sessions) {
      for (const step of s.steps) {
        const levels = [...page(s.id, step.key).matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));
        expect(levels[0], `${s.id} step ${step.key}`).toBe(1);
        for (let i = 1; i < levels.length; i++) expect((levels[i] ?? 0) - (levels[i - 1] ?? 0), `${s.id} step ${step.key}: ${levels.join(' ')}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it('filters each step by the model in force at it', () => {
    for (const s of sessions) {
      const t = sessionTurns(s);
      for (const step of s.steps) {
        const model = t.steps[step.position]?.model;
        const filters = [...page(s.id, step.key).matchAll(/data-pagefind-filter="model:([^"]*)"/g)].map((m) => m[1]);
        expect(filters, `${s.id} step ${step.key}`).toEqual(model ? [model.replaceAll('&', '&amp;')] : []);
      }
    }
  });
});
