import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DETAIL_CACHE_SIZE, forgetSessionDetails, getSessionDetail, spillSession, stepOf } from '../../src/lib/archive/detail.ts';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import { redactSession } from '../../src/lib/redact/index.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

type Ref = Parameters<typeof getSessionDetail>[0];

/** The demo sessions, with a cache folder (and so a spill folder) of the test's own, removed after it. */
async function demoWithFreshSpill(): Promise<{ discovery: Awaited<ReturnType<typeof discoverSessions>>; refs: Ref[] }> {
  process.env.ARCHIVE_HIGHLIGHT_WORKERS = '0';
  delete process.env.ARCHIVE_DETAIL_SPILL_DIR;
  forgetSessionDetails();
  const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'detail-spill-'));
  process.env.ARCHIVE_CACHE_DIR = cacheDir;
  onTestFinished(() => rm(cacheDir, { recursive: true, force: true }));
  const discovery = await discoverSessions({ geminiHome: path.join(projectRoot, 'fixtures', 'demo') });
  return { discovery, refs: discovery.sessions.map((s) => ({ ...s, mtimeMs: 0, ctimeMs: 0 })) as unknown as Ref[] };
}

describe('getSessionDetail', () => {
  it('gives the same redacted session after it left the memory cache (from the build spill), with steps by key', async () => {
    const { discovery, refs } = await demoWithFreshSpill();
    expect(refs.length).toBeGreaterThan(DETAIL_CACHE_SIZE);
    const first = await getSessionDetail(refs[0]!, true);
    for (const ref of refs.slice(1)) await getSessionDetail(ref, true);
    const again = await getSessionDetail(refs[0]!, true);
    expect(again).not.toBe(first); // evicted from memory, read back from the spill
    expect(again).toEqual(first);
    const fresh = (await redactSession(await readSession(discovery.sessions[0]!), { enabled: true })).session;
    expect(again).toEqual(fresh);
    const last = again.steps.at(-1);
    if (last) expect(stepOf(again, last.key)).toBe(last);
    expect(stepOf(again, 'no-such-key')).toBeUndefined();
  });

  it('keeps sessions read at the same time apart (pages render a few at a time), also when read back from the spill', async () => {
    const { refs } = await demoWithFreshSpill();
    // Unredacted: other cache keys than the test above, so every session is read (and spilled) here, all at once.
    const together = await Promise.all(refs.map((ref) => getSessionDetail(ref, false)));
    expect(together.map((s) => s.id)).toEqual(refs.map((r) => r.id));
    // In order again: each one has left the memory cache by its turn, so it comes back from its own spill file.
    for (const ref of refs) {
      const again = await getSessionDetail(ref, false);
      expect(again.id).toBe(ref.id);
      expect(again).toEqual(together[refs.indexOf(ref)]);
    }
  });

  it('takes a session the loader spilled instead of reading and redacting it again', async () => {
    const { discovery, refs } = await demoWithFreshSpill();
    const ref = refs[0]!;
    const read = (await redactSession(await readSession(discovery.sessions[0]!), { enabled: true })).session;
    // What the loader hands over is what the pages get: a marked copy proves the session was not read again.
    await spillSession(ref, true, { ...read, id: 'from-the-loader' });
    expect((await getSessionDetail(ref, true)).id).toBe('from-the-loader');
  });
});
