/**
 * Conformance over the real sessions in ../shared/real-brains/gemini (skipped when absent): every session has its
 * page, every timeline entry its step page, and /report/ lists exactly the torn lines really in the main
 * transcripts (d493099f, full transcript, line 306).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import type { Session } from '../../src/lib/brain/types.ts';
import { projectRoot } from '../helpers/build-site.ts';
import { sharedBuild, type SharedBuild } from '../helpers/shared-build.ts';
import { fileForUrl, readPage, textOf } from '../helpers/site-files.ts';

const realHome = path.resolve(projectRoot, '../shared/real-brains/gemini');

describe.skipIf(!existsSync(realHome))('real sessions', () => {
  let build: SharedBuild;
  let sessions: Session[];
  beforeAll(async () => {
    build = await sharedBuild('real', { GEMINI_HOME: realHome });
    const discovery = await discoverSessions({ geminiHome: realHome });
    sessions = await Promise.all(discovery.sessions.map((ref) => readSession(ref)));
  });

  it('builds with exit code 0', () => {
    expect(build.code, build.output.slice(-3000)).toBe(0);
    expect(build.output).toMatch(/archive: 8 sessions/);
  });

  it('gives every session its page and every timeline entry its step page', () => {
    expect(sessions).toHaveLength(8);
    const missing: string[] = [];
    for (const s of sessions) {
      if (!fileForUrl(build.outDir, `/sessions/${s.id}/`)) missing.push(s.id);
      for (const step of s.steps) {
        if (!fileForUrl(build.outDir, `/sessions/${s.id}/steps/${step.key}/`)) missing.push(`${s.id}/${step.key}`);
      }
      // The timeline lists every step once.
      const page = readPage(build.outDir, `/sessions/${s.id}/`) ?? '';
      expect(page.match(/<tr[^>]* id="step-/g) ?? []).toHaveLength(s.steps.length);
    }
    expect(missing).toEqual([]);
  });

  it('lists on /report/ exactly the torn lines of the main transcripts', () => {
    const report = readPage(build.outDir, '/report/') ?? '';
    const rows = [...report.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => textOf(m[1] ?? '').trim());
    const torn = rows.filter((r) => /^bad-line\b/.test(r) && /\.system_generated\/logs\/transcript(_full)?\.jsonl/.test(r));
    expect(torn).toHaveLength(1);
    expect(torn[0]).toMatch(/^bad-line d493099f \.system_generated\/logs\/transcript_full\.jsonl 306 /);
  });
});
