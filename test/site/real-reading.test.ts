/**
 * Reading the real sessions (issue 22), on the build of ../shared/real-brains/gemini that real-data.test.ts shares
 * (skipped when absent): no page shows Antigravity's `[diff_block_start]` text outside the raw records (121 pages
 * did), every conversation page of a session weighs at most `SESSION_PAGE_TARGET` (the longest session's page was
 * 810 KB here, 1.16 MB on a longer one), and every edit of the longest session shows its diff where it happened.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import type { Session } from '../../src/lib/brain/types.ts';
import { sessionTurns } from '../../src/lib/turns/index.ts';
import { SESSION_PAGE_TARGET } from '../../src/lib/conversation/pages.ts';
import { projectRoot } from '../helpers/build-site.ts';
import { sharedBuild, type SharedBuild } from '../helpers/shared-build.ts';
import { fileForUrl, htmlFiles, readPage } from '../helpers/site-files.ts';

const realHome = [path.resolve(projectRoot, '../shared/real-brains/gemini'), path.resolve(projectRoot, '../../shared/real-brains/gemini')].find((p) => existsSync(p)) ?? path.resolve(projectRoot, '../shared/real-brains/gemini');
const LONGEST = '86033144-bf85-4d61-ac17-b7e233ed37cb';

describe.skipIf(!existsSync(realHome))('reading the real sessions', () => {
  let build: SharedBuild;
  let sessions: Session[];
  beforeAll(async () => {
    build = await sharedBuild('real', { GEMINI_HOME: realHome });
    const discovery = await discoverSessions({ geminiHome: realHome });
    sessions = await Promise.all(discovery.sessions.map((ref) => readSession(ref)));
  });

  it("shows Antigravity's diff markers on no page, only in the raw records", () => {
    expect(build.code, build.output.slice(-3000)).toBe(0);
    let raw = 0;
    const shown: string[] = [];
    for (const file of htmlFiles(build.outDir)) {
      const html = readFileSync(path.join(build.outDir, file), 'utf8');
      if (!html.includes('diff_block_start')) continue;
      raw++;
      if (html.replace(/<pre class="raw">[\s\S]*?<\/pre>/g, '').includes('diff_block_start')) shown.push(file);
    }
    expect(raw).toBeGreaterThan(20);
    expect(shown).toEqual([]);
  });

  it('keeps every conversation page of every session under the target weight', () => {
    let biggest = 0;
    for (const s of sessions) {
      for (let n = 1; ; n++) {
        const file = fileForUrl(build.outDir, n === 1 ? `/sessions/${s.id}/` : `/sessions/${s.id}/conversation/${n}/`);
        if (!file) break;
        const bytes = statSync(file).size;
        biggest = Math.max(biggest, bytes);
        expect(bytes, `${s.id} page ${n}`).toBeLessThanOrEqual(SESSION_PAGE_TARGET);
      }
    }
    expect(biggest).toBeGreaterThan(100_000);
  });

  it('shows every edit of the longest session as a diff where it happened', () => {
    const session = sessions.find((s) => s.id === LONGEST);
    expect(session).toBeDefined();
    let pages = readPage(build.outDir, `/sessions/${LONGEST}/`) ?? '';
    for (let n = 2; ; n++) {
      const html = readPage(build.outDir, `/sessions/${LONGEST}/conversation/${n}/`);
      if (html === undefined) break;
      pages += html;
    }
    const edits = sessionTurns(session as Session).calls.filter((c) => c.outcome.kind === 'edit' && c.resultStepKey !== undefined && session?.steps.find((s) => s.key === c.callStepKey)?.toolCalls[c.callIndex] !== undefined);
    expect(edits.length).toBeGreaterThan(20);
    for (const call of edits) {
      const at = pages.indexOf(`id="call-${call.id}"`);
      expect(at, call.id).toBeGreaterThan(0);
      const card = pages.slice(at, pages.indexOf('<p class="call-links', at));
      expect(card, call.id).toContain('<table class="diff">');
    }
  });
});
