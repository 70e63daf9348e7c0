/**
 * The three session loaders share one pass: each changed session is read once and its rows reach `sessions`,
 * `steps` and `artifacts`; unchanged sessions keep their entries in all three; sessions gone from disk leave all
 * three. Run against an in-memory stand-in for Astro's loader context, both at once (as Astro does) and one after
 * another.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveLoader, artifactsLoader, sessionsLoader, stepsLoader } from '../../src/loaders/brain-loader.ts';
import { projectRoot } from '../helpers/build-site.ts';

interface Entry {
  id: string;
  data: Record<string, unknown>;
  digest?: string | number;
}

/** What the loaders touch of one collection: its entries, its meta store and the log. */
class FakeCollection {
  entries = new Map<string, Entry>();
  meta = new Map<string, string>();
  logs: string[] = [];

  context(root: string): LoaderContext {
    const entries = this.entries;
    const meta = this.meta;
    const log = (m: string) => this.logs.push(m);
    const store = {
      get: (id: string) => entries.get(id),
      entries: () => [...entries],
      keys: () => [...entries.keys()],
      values: () => [...entries.values()],
      has: (id: string) => entries.has(id),
      delete: (id: string) => void entries.delete(id),
      clear: () => entries.clear(),
      set: (e: Entry) => {
        if (entries.get(e.id)?.digest === e.digest && e.digest !== undefined) return false;
        entries.set(e.id, e);
        return true;
      },
      addModuleImport: () => undefined,
    };
    return {
      collection: 'x',
      store,
      meta: { get: (k: string) => meta.get(k), set: (k: string, v: string) => void meta.set(k, v), has: (k: string) => meta.has(k), delete: (k: string) => void meta.delete(k) },
      logger: { info: log, warn: log, error: log, debug: () => undefined, label: 'x', fork: () => undefined, options: {} },
      config: { root: pathToFileURL(`${root}/`) },
      parseData: async ({ data }: { data: Record<string, unknown> }) => data,
      generateDigest: (v: unknown) => createHash('sha1').update(JSON.stringify(v)).digest('hex'),
    } as unknown as LoaderContext;
  }
}

let home: string;
// ARCHIVE_STORE=none: these loaders read the folders; without it they would read (and list) the user's default store.
const env = () => ({ GEMINI_HOME: home, ARCHIVE_REDACT: 'off', ARCHIVE_STORE: 'none' }) as NodeJS.ProcessEnv;
const names = ['sessions', 'steps', 'artifacts', 'archive'] as const;
const stores = Object.fromEntries(names.map((n) => [n, new FakeCollection()])) as Record<(typeof names)[number], FakeCollection>;

function loaders(): Record<(typeof names)[number], Loader> {
  return { sessions: sessionsLoader({ env: env() }), steps: stepsLoader({ env: env() }), artifacts: artifactsLoader({ env: env() }), archive: archiveLoader({ env: env() }) };
}

async function runAtOnce(): Promise<void> {
  const l = loaders();
  await Promise.all(names.map((n) => l[n].load(stores[n].context(projectRoot))));
}

async function runInTurn(order: (typeof names)[number][]): Promise<void> {
  const l = loaders();
  for (const n of order) await l[n].load(stores[n].context(projectRoot));
}

const sessionDirs = () =>
  readdirSync(home).flatMap((product) =>
    readdirSync(path.join(home, product, 'brain')).map((id) => ({ id, dir: path.join(home, product, 'brain', id) })),
  );
const lastLog = (n: (typeof names)[number]) => stores[n].logs.filter((m) => / unchanged/.test(m)).at(-1) ?? '';
const sessionsOf = (c: FakeCollection) => new Set([...c.entries.values()].map((e) => String(e.data.sessionId)));

describe('the session loaders share one pass', () => {
  beforeAll(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'agy-loader-'));
    for (const product of ['antigravity', 'antigravity-cli', 'antigravity-ide']) {
      cpSync(path.join(projectRoot, 'fixtures/demo', product), path.join(home, product), { recursive: true });
    }
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('fills all three collections from one read of each session', async () => {
    await runAtOnce();
    const ids = sessionDirs().map((s) => s.id).sort();
    expect([...stores.sessions.entries.keys()].sort()).toEqual(ids);
    const stepCount = [...stores.sessions.entries.values()].reduce((n, e) => n + Number(e.data.stepCount), 0);
    expect(stores.steps.entries.size).toBe(stepCount);
    expect(stores.artifacts.entries.size).toBe([...stores.sessions.entries.values()].reduce((n, e) => n + Number(e.data.artifactCount), 0));
    for (const [id, e] of stores.steps.entries) expect(id).toBe(`${String(e.data.sessionId)}/${String(e.data.key)}`);
    for (const e of stores.sessions.entries.values()) expect(e.data).not.toHaveProperty('steps');
    expect(lastLog('sessions')).toContain(`(${ids.length} read, 0 unchanged)`);
    expect(lastLog('steps')).toContain(`(${ids.length} sessions written, 0 unchanged)`);
  });

  it('keeps every entry of unchanged sessions, run at once or one after another', async () => {
    const before = [...stores.steps.entries.keys()];
    await runInTurn(['steps', 'artifacts', 'archive', 'sessions']);
    const n = sessionDirs().length;
    for (const c of ['steps', 'artifacts'] as const) expect(lastLog(c)).toContain(`(0 sessions written, ${n} unchanged)`);
    expect(lastLog('sessions')).toContain(`(0 read, ${n} unchanged)`);
    expect([...stores.steps.entries.keys()]).toEqual(before);
    await runAtOnce();
    expect(lastLog('sessions')).toContain(`(0 read, ${n} unchanged)`);
  });

  it('rewrites a changed session in all three collections and drops a session gone from disk', async () => {
    const steps = (id: string) => Number(stores.sessions.entries.get(id)?.data.stepCount ?? 0);
    const [changed, gone] = sessionDirs().sort((a, b) => steps(b.id) - steps(a.id));
    if (!changed || !gone) throw new Error('the demo home has fewer than two sessions');
    const later = new Date(Date.now() + 60_000);
    const file = readdirSync(changed.dir, { recursive: true, withFileTypes: true }).find((d) => d.isFile());
    if (!file) throw new Error(`no file in ${changed.dir}`);
    utimesSync(path.join(file.parentPath, file.name), later, later);
    rmSync(gone.dir, { recursive: true });
    await runInTurn(['artifacts', 'sessions', 'steps', 'archive']);
    const n = sessionDirs().length;
    expect(lastLog('sessions')).toContain(`(1 read, ${n - 1} unchanged)`);
    expect(lastLog('steps')).toContain(`(1 sessions written, ${n - 1} unchanged)`);
    for (const c of [stores.steps, stores.artifacts]) expect(sessionsOf(c).has(gone.id)).toBe(false);
    expect(stores.sessions.entries.has(gone.id)).toBe(false);
    expect(sessionsOf(stores.steps).has(changed.id)).toBe(true);
    expect(Object.keys(JSON.parse(stores.steps.meta.get('session-digests') ?? '{}')).sort()).toEqual(sessionDirs().map((s) => s.id).sort());
  });
});

describe('a process holds the rows of the sessions it renders only', () => {
  let planHome: string;
  let reused: string[];
  const fresh = () => Object.fromEntries(names.map((n) => [n, new FakeCollection()])) as Record<(typeof names)[number], FakeCollection>;
  const planned = fresh();

  beforeAll(() => {
    planHome = mkdtempSync(path.join(os.tmpdir(), 'agy-loader-plan-'));
    for (const product of ['antigravity', 'antigravity-cli', 'antigravity-ide']) {
      cpSync(path.join(projectRoot, 'fixtures/demo', product), path.join(planHome, product), { recursive: true });
    }
    const ids = readdirSync(planHome).flatMap((product) => readdirSync(path.join(planHome, product, 'brain'))).sort();
    reused = ids.filter((_, i) => i % 2 === 0);
    // An incremental build's plan (`archive/incremental.ts`): the reused sessions' pages are not rendered.
    writeFileSync(path.join(planHome, 'plan.json'), JSON.stringify({ reused, keys: {}, folders: {}, shared: '', outDir: '', siteDir: '', reusedDir: '' }));
  });
  afterAll(() => rmSync(planHome, { recursive: true, force: true }));

  async function run(): Promise<void> {
    const planEnv = { GEMINI_HOME: planHome, ARCHIVE_REDACT: 'off', ARCHIVE_STORE: 'none', ARCHIVE_REUSE_PLAN: path.join(planHome, 'plan.json') } as NodeJS.ProcessEnv;
    const l = { sessions: sessionsLoader({ env: planEnv }), steps: stepsLoader({ env: planEnv }), artifacts: artifactsLoader({ env: planEnv }), archive: archiveLoader({ env: planEnv }) };
    await Promise.all(names.map((n) => l[n].load(planned[n].context(projectRoot))));
  }

  it('keeps every session summary with its steps by day, and timeline and artifact rows of the rendered sessions only', async () => {
    await run();
    const summaries = [...planned.sessions.entries.values()];
    expect(summaries.length).toBeGreaterThan(reused.length);
    const rendered = summaries.map((e) => String(e.data.id)).filter((id) => !reused.includes(id));
    expect(sessionsOf(planned.steps)).toEqual(new Set(rendered.filter((id) => summaries.some((e) => e.data.id === id && Number(e.data.stepCount) > 0))));
    for (const c of [planned.steps, planned.artifacts]) for (const id of reused) expect(sessionsOf(c).has(id)).toBe(false);
    const rowsOf = (id: string) => [...planned.steps.entries.values()].filter((e) => e.data.sessionId === id).length;
    for (const e of summaries) {
      // The stats and sessions.json count steps per day from the summary: every step of the session, rows held or not.
      const days = e.data.stepDays as Record<string, number>;
      expect(Object.values(days).reduce((n, v) => n + v, 0), String(e.data.id)).toBe(e.data.stepCount);
      if (!reused.includes(String(e.data.id))) expect(rowsOf(String(e.data.id))).toBe(e.data.stepCount);
    }
    expect(planned.steps.logs.at(-1)).toContain(`${reused.length} not rendered here`);
    const held = Object.keys(JSON.parse(planned.steps.meta.get('session-digests') ?? '{}'));
    expect(held.sort()).toEqual(rendered.sort());
  });
});

describe('a session read but lost', () => {
  let lostHome: string;
  beforeAll(() => {
    lostHome = mkdtempSync(path.join(os.tmpdir(), 'agy-loader-lost-'));
    cpSync(path.join(projectRoot, 'fixtures/demo', 'antigravity'), path.join(lostHome, 'antigravity'), { recursive: true });
  });
  afterAll(() => rmSync(lostHome, { recursive: true, force: true }));

  it('stops the build with an error naming it, never a site without it and exit 0 (issue 27)', async () => {
    const lostEnv = { GEMINI_HOME: lostHome, ARCHIVE_REDACT: 'off', ARCHIVE_STORE: 'none' } as NodeJS.ProcessEnv;
    const [victim] = readdirSync(path.join(lostHome, 'antigravity', 'brain')).sort();
    const collections = Object.fromEntries(names.map((n) => [n, new FakeCollection()])) as Record<(typeof names)[number], FakeCollection>;
    const contexts = Object.fromEntries(names.map((n) => [n, collections[n].context(projectRoot)])) as Record<(typeof names)[number], LoaderContext>;
    // Its rows rejected, as a schema error or a read that threw would: the loader cannot put it in the collection.
    const parse = contexts.sessions.parseData;
    contexts.sessions.parseData = (async (entry: { id: string; data: Record<string, unknown> }) => {
      if (entry.id === victim) throw new Error('rows rejected');
      return parse(entry as Parameters<typeof parse>[0]);
    }) as typeof parse;
    const l = { sessions: sessionsLoader({ env: lostEnv }), steps: stepsLoader({ env: lostEnv }), artifacts: artifactsLoader({ env: lostEnv }), archive: archiveLoader({ env: lostEnv }) };
    const results = await Promise.allSettled(names.map((n) => l[n].load(contexts[n])));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(String(failed?.reason)).toContain(`1 session read could not be put in the agy-archive-sessions collection and would be missing from the site: ${victim} (rows rejected)`);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
  });
});
