/**
 * The whole build over files huge in lines (issue 10, part 3): 200,000 non-JSON lines, 200,000 `{}` lines and a step
 * written RUNNING 200,000 times, beside an ordinary session. At 2 million lines each of these stopped the build
 * (`RangeError: Invalid string length` on /report/, in content sync, on the step's page). Now the build exits 0 and
 * every page is bounded: the test asserts what memory and pages hold (problems listed, steps kept, raw records
 * kept, page sizes), never how long anything took. 200,000 lines is far past every limit and builds in seconds;
 * the 2-million-line run is recorded in the commit that added this test.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEMS_KEPT_PER_KIND } from '../../src/lib/brain/index.ts';
import { SOURCES_KEPT_PER_STEP } from '../../src/lib/brain/merge.ts';
import { makePathologicalHome, PATHOLOGICAL_SESSIONS, TRANSCRIPT } from '../../scripts/make-pathological-home.ts';
import { buildSite, type BuildSiteResult } from '../helpers/build-site.ts';
import { readPage, textOf } from '../helpers/site-files.ts';

const LINES = 200_000;
const s = PATHOLOGICAL_SESSIONS;
let tmp: string;
let outDir: string;
let build: BuildSiteResult;

const rowHtml = (html: string) => [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1] ?? '');
const rowsOf = (html: string) => rowHtml(html).map(textOf);
/** The line column of a problem row: a line number, `+N` on a closing count, or empty. */
const lineCell = (row: string) => textOf(/<td class="count">([\s\S]*?)<\/td>/.exec(row)?.[1] ?? '').trim();
const page = (p: string) => readPage(outDir, p) ?? '';

describe(`the site built from files of ${LINES.toLocaleString('en-US')} bad lines`, () => {
  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'agy-pathological-'));
    const made = await makePathologicalHome(tmp, LINES);
    outDir = path.join(tmp, 'dist');
    // Read from the folders: this is the reader's and the site's bound on huge files. Through the store, a garbage
    // transcript is itself bounded before it is read (src/lib/store/garbage.ts: the first 1,000 other lines and 20
    // identical step records in a row are kept, the rest counted in a too-large problem; test/store/bounds.test.ts).
    build = await buildSite({ env: { GEMINI_HOME: made.home, BRAIN_ROOTS: '', ARCHIVE_STORE: 'none' }, outDir });
  });
  afterAll(async () => {
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it('builds, exit code 0, with every session page', () => {
    expect(build.code, build.output.slice(-3000)).toBe(0);
    for (const id of Object.values(s)) expect(page(`/sessions/${id}/`), id).toContain('</html>');
    for (const p of ['/', '/stats/', '/report/', '/audit/errors/', '/sessions.json']) expect(page(p), p).not.toBe('');
  });

  it('names each file on /report/ with its first problems and the count of the rest, in a bounded page', () => {
    const report = page('/report/');
    const rows = rowHtml(report);
    const more = (LINES - PROBLEMS_KEPT_PER_KIND).toLocaleString('en-US');
    for (const [id, kind] of [[s.notJson, 'bad-line'], [s.emptyObjects, 'bad-record']] as const) {
      // The sessions share their 8-character prefix; each kind is in one session only.
      const mine = rows.filter((r) => r.includes(`/sessions/${id}/`) && r.includes(`>${kind}<`) && r.includes(TRANSCRIPT));
      const lines = mine.map(lineCell).filter((c) => /^\d+$/.test(c));
      expect(lines, kind).toEqual(Array.from({ length: PROBLEMS_KEPT_PER_KIND }, (_, i) => String(i + 2)));
      const closing = mine.filter((r) => lineCell(r) === `+${more}`);
      expect(closing, kind).toHaveLength(1);
      expect(mine, kind).toHaveLength(PROBLEMS_KEPT_PER_KIND + 1);
      expect(textOf(closing[0] ?? '')).toContain(`${more} more ${kind} problems in this file (lines 102–${LINES + 1})`);
    }
    // Every problem is counted in the total: both files' lines and the note on the rewritten step.
    expect(/id="problem-count">(\d+)</.exec(report)?.[1]).toBe(String(2 * LINES + 1));
    expect(report.length).toBeLessThan(512 * 1024);
  });

  it('keeps only the first `{}` lines as steps', async () => {
    const steps = await fs.readdir(path.join(outDir, 'sessions', s.emptyObjects, 'steps'));
    expect(steps).toHaveLength(1 + PROBLEMS_KEPT_PER_KIND);
    expect(page(`/sessions/${s.emptyObjects}/`).length).toBeLessThan(1024 * 1024);
  });

  it('shows the rewritten step DONE with a bounded set of raw records, and says how many were left out', () => {
    const step = page(`/sessions/${s.rewrites}/steps/1/`);
    expect(textOf(step)).toContain('finished at last');
    expect(step.match(/<pre class="raw">/g)).toHaveLength(SOURCES_KEPT_PER_STEP);
    const writes = (LINES + 1).toLocaleString('en-US');
    expect(textOf(step)).toContain(`Raw records (${SOURCES_KEPT_PER_STEP} of ${writes})`);
    expect(textOf(step)).toContain(`This step was written ${writes} times`);
    expect(step.length).toBeLessThan(256 * 1024);
    expect(rowsOf(page('/report/')).some((r) => r.includes('notice') && r.includes(`Step 1 was written ${writes} times`))).toBe(true);
  });

  it('leaves the ordinary session beside them whole', () => {
    const html = page(`/sessions/${s.ordinary}/`);
    expect(textOf(html)).toContain('An ordinary session');
    expect(html).not.toContain('Problems while reading');
  });
});
