/**
 * A build split between render processes (scripts/build.ts, ARCHIVE_RENDER_PROCESSES) writes the same site as a
 * build in one process: the same files with the same bytes, and the same search index.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as pagefind from 'pagefind';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildSearch } from '../../src/integrations/pagefind.ts';
import { assignRenderParts, sessionReuseKeys } from '../../src/lib/archive/incremental.ts';
import { renderProcessCount } from '../../src/lib/build/render.ts';
import { resolveArchiveInputs } from '../../src/lib/archive/inputs.ts';
import { projectRoot } from '../helpers/build-site.ts';
import { demoBuild } from '../helpers/homes.ts';
import { sharedBuild, type SharedBuild } from '../helpers/shared-build.ts';

describe('assignRenderParts', () => {
  it('gives every session one part, balanced by size, largest first', () => {
    const bytes = { a: 900, b: 800, c: 500, d: 400, e: 300, f: 100 };
    const parts = assignRenderParts(Object.keys(bytes), bytes, 2);
    expect(Object.keys(parts).sort()).toEqual(Object.keys(bytes));
    const load = [0, 1].map((n) => Object.entries(parts).filter(([, p]) => p === n).reduce((sum, [id]) => sum + bytes[id as keyof typeof bytes], 0));
    // Largest first, each to the lighter part: the parts end within one session of each other.
    expect(Math.abs((load[0] ?? 0) - (load[1] ?? 0))).toBeLessThanOrEqual(Math.max(...Object.values(bytes)));
    // Part 0 also renders the pages over every session, so the biggest session goes to the other part.
    expect(parts.a).toBe(1);
    expect(assignRenderParts(Object.keys(bytes), bytes, 2)).toEqual(parts);
  });
});

/** Every file under `dir` (relative), outside the search bundle. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .filter((rel) => !rel.startsWith(`pagefind${path.sep}`))
    .sort();
}

/** Every fragment of the search index (all shards), by page URL. */
function fragments(dir: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const rel of readdirSync(path.join(dir, 'pagefind'), { recursive: true }) as string[]) {
    if (!rel.endsWith('.pf_fragment')) continue;
    const text = gunzipSync(readFileSync(path.join(dir, 'pagefind', rel))).toString('utf8');
    const fragment = JSON.parse(text.slice(text.indexOf('{'))) as { url: string };
    out.set(fragment.url, fragment);
  }
  return out;
}

describe('renderProcessCount', () => {
  const MiB = 2 ** 20;
  const env = { ARCHIVE_RENDER_PROCESSES: '' };
  it('renders a small build in one process, a big one in a part per core, and a huge one in parts a process can hold', () => {
    expect(renderProcessCount(20 * MiB, 30, env)).toBe(1);
    expect(renderProcessCount(285 * MiB, 263, env)).toBe(2);
    // 1M steps: 2.85 GB of sessions in parts of at most 160 MiB, not two parts of 1.4 GB (~20 GiB of heap each).
    expect(renderProcessCount(2_850 * MiB, 2_630, env)).toBe(18);
    expect(renderProcessCount(2_850 * MiB, 5, env)).toBe(5);
    expect(renderProcessCount(20 * MiB, 30, { ARCHIVE_RENDER_PROCESSES: '2' })).toBe(2);
  });
});

describe('a build in render parts', () => {
  let single: SharedBuild;
  let split: SharedBuild;
  beforeAll(async () => {
    single = await demoBuild();
    const emptyHome = mkdtempSync(path.join(os.tmpdir(), 'agy-empty-home-'));
    try {
      // One split build covers both ways a build is split: parts of at most 2/5 of the demo's bytes make 3 parts, two
      // rendered at once (part 1 waits for part 0's family inputs) and the third queued behind them; and the search
      // step reading pages ahead of Pagefind, as it does for a site bigger than half the memory. Each part is an
      // Astro start (seconds): 3 parts instead of a split in 2 plus another in 8.
      const { bytes } = await sessionReuseKeys(
        await resolveArchiveInputs(projectRoot, { GEMINI_HOME: emptyHome, BRAIN_ROOTS: '', ARCHIVE_STORE: 'none' }),
        'site',
        { base: '', redactionEnabled: true, isDemo: true, roots: [] },
      );
      const demoBytes = Object.values(bytes).reduce((sum, n) => sum + n, 0);
      split = await sharedBuild('demo-in-parts', {
        GEMINI_HOME: emptyHome,
        ARCHIVE_RENDER_PROCESSES: '2',
        ARCHIVE_RENDER_PART_MIB: String(demoBytes / 2.5 / 2 ** 20),
        ARCHIVE_SEARCH_PREFETCH: 'on',
      });
    } finally {
      rmSync(emptyHome, { recursive: true, force: true });
    }
    expect(single.code).toBe(0);
    expect(split.code, split.output.slice(-3000)).toBe(0);
  }, 900_000);

  it('renders more parts than processes, two at a time, and leaves no part folder behind', () => {
    expect(split.output).toContain('rendering in 3 parts, 2 processes at a time');
    // The first process reads every session (it renders the pages over all of them); the others only their own, and
    // take the session tree's inputs from the first (see test/family/family-inputs.test.ts for the hand-off).
    expect(split.output).toMatch(/\[render 1\/3\] .*archive: 8 sessions/);
    expect(split.output).toMatch(/\[render 2\/3\] .*archive: [1-7] sessions/);
    expect(split.output).toMatch(/\[render 3\/3\] .*archive: [1-7] sessions/);
    expect(split.output).toMatch(/reading pages ahead of Pagefind \(\d+ searchable pages/);
    expect(readdirSync(path.dirname(split.outDir)).filter((name) => name.includes('.part-'))).toEqual([]);
  });

  it('writes the same files with the same bytes as a build in one process', () => {
    const names = files(split.outDir);
    expect(names).toEqual(files(single.outDir));
    expect(names.filter((n) => n.startsWith(`sessions${path.sep}`)).length).toBeGreaterThan(200);
    // The report says when the build ran, and the build id differs: everything else is byte for byte the same.
    const differing = names.filter(
      (n) => !readFileSync(path.join(split.outDir, n)).equals(readFileSync(path.join(single.outDir, n))),
    );
    expect(differing.sort(), `differing files: ${differing.join(', ')}`).toEqual(['.agy-archive-build', path.join('report', 'index.html')].sort());
  });

  it('has the same search index', () => {
    const a = fragments(single.outDir);
    const b = fragments(split.outDir);
    // One search document per turn and each artifact page (issue 23): ~20 for the demo home.
    expect(a.size).toBeGreaterThan(15);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [url, fragment] of a) expect(b.get(url), url).toEqual(fragment);
  });

  it('moves every shard\'s sessions back after indexing, and drops shard folders a killed search step left', async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'agy-search-step-'));
    onTestFinished(() => rmSync(copy, { recursive: true, force: true }));
    cpSync(single.outDir, copy, { recursive: true });
    const sessions = readdirSync(path.join(copy, 'sessions')).sort();
    const stale = path.join(copy, '.search-shard-2', 'sessions', 'stale-session');
    mkdirSync(stale, { recursive: true });
    writeFileSync(path.join(stale, 'index.html'), '<html><body><article data-pagefind-body>stale words</article></body></html>');
    process.env.ARCHIVE_SEARCH_LANES = '1';
    try {
      await buildSearch(copy, path.join(copy, '.cache'), { info: () => {} });
    } finally {
      delete process.env.ARCHIVE_SEARCH_LANES;
      await pagefind.close();
    }
    expect(readdirSync(copy).filter((name) => name.startsWith('.search-shard-'))).toEqual([]);
    expect(readdirSync(path.join(copy, 'sessions')).sort()).toEqual(sessions);
    expect([...fragments(copy).keys()].sort()).toEqual([...fragments(single.outDir).keys()].sort());
  });
});
