/**
 * Conformance over the real sessions in ../shared/real-brains/gemini (skipped when absent): every session has its
 * page, every timeline entry its step page, and /report/ lists exactly the torn lines really in the main
 * transcripts (d493099f, full transcript, line 306).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
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
      // The timeline page lists every step once (each real session fits on one page).
      const page = readPage(build.outDir, `/sessions/${s.id}/timeline/`) ?? '';
      expect(page.match(/<tr[^>]* id="step-/g) ?? []).toHaveLength(s.steps.length);
    }
    expect(missing).toEqual([]);
  });

  it('publishes no planted secret anywhere in dist, the Pagefind index included', () => {
    // The fake Telegram token planted in 86033144 (SOURCES.md), in full and by its secret half.
    const planted = ['3885083960:AAXmWi9S8D-G3k5RilRqnB6fZwjc8ZImZD8', 'AAXmWi9S8D-G3k5RilRqnB6fZwjc8ZImZD8'];
    const leaks: string[] = [];
    let fragments = 0;
    for (const entry of readdirSync(build.outDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      let bytes = readFileSync(file);
      // Pagefind's fragments and index chunks are gzip-compressed: look inside them too.
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
      if (entry.name.endsWith('.pf_fragment')) fragments++;
      const text = bytes.toString('latin1');
      if (planted.some((secret) => text.includes(secret))) leaks.push(path.relative(build.outDir, file));
    }
    expect(fragments).toBeGreaterThan(0);
    expect(leaks).toEqual([]);
    // The token's step is still published, with the redaction in its place.
    const report = readPage(build.outDir, '/report/') ?? '';
    expect(report).toMatch(/telegram/i);
  });

  it('lists on /report/ exactly the torn lines of the main transcripts', () => {
    const report = readPage(build.outDir, '/report/') ?? '';
    const rows = [...report.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => textOf(m[1] ?? '').trim());
    const torn = rows.filter((r) => /^bad-line\b/.test(r) && /\.system_generated\/logs\/transcript(_full)?\.jsonl/.test(r));
    expect(torn).toHaveLength(1);
    expect(torn[0]).toMatch(/^bad-line d493099f \.system_generated\/logs\/transcript_full\.jsonl 306 /);
  });
});
