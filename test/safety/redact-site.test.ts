/**
 * The site-level property of redaction, for the site and for the shareable export of the store: one home holding generated secrets of every kind the redactor claims
 * (`REDACTED_KINDS`), each planted in a random place (every field of `FIELDS` is used: the request, right after a
 * newline, a JSON-encoded argument, a record later rewritten, an output, an artifact version, a message, a task
 * log, an output with a NUL and a byte that is not UTF-8, a tool's name…), some percent-encoded, in transcripts
 * written with `\/` and `\u00XX` escapes, and each secret that needs a context (`AWS_SECRET_ACCESS_KEY=`) also
 * written bare in another place; one build, and one snapshot into a store exported with `npm run archive --
 * --export`; then no byte of the out dir and no text of the export holds any of them, read as is and with JSON and
 * percent escapes decoded, Pagefind's gzip files opened.
 * The seed is random per run and printed on failure; `FC_SEED=<n>` replays one (test/helpers/properties.ts).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED_KINDS } from '../../src/lib/redact/patterns.ts';
import { buildSite, type BuildSiteResult, projectRoot } from '../helpers/build-site.ts';
import { PROPERTY_SEED, replayHint } from '../helpers/properties.ts';
import { readPage } from '../helpers/site-files.ts';
import { FIELDS, type Plant, seededRandom, writePlantedSession } from './planted-home.ts';
import {
  type PlantedSecret, SECRET_GENERATORS, type Where, decodedForms, percentEncodeSeparators, placementArb, plantInto,
} from './secret-kinds.ts';

const SEED = PROPERTY_SEED;
const replay = `seed ${SEED} (replay with ${replayHint})`;
const SESSION = '5ec7e700-0000-4000-8000-000000000001';
/** Secrets planted per kind. */
const PER_KIND = 2;

interface Planted extends Plant {
  secret: PlantedSecret;
}

/** Every kind PER_KIND times, the fields dealt round so each is used, the rest drawn from the seed. */
function plantsFor(seed: number): Planted[] {
  const kinds = REDACTED_KINDS.flatMap((k) => Array.from({ length: PER_KIND }, () => k.kind));
  const arb = fc.tuple(
    ...kinds.map((kind) => fc.record({ secret: SECRET_GENERATORS[kind]!, where: placementArb, percent: fc.boolean() })),
    fc.shuffledSubarray([...kinds.keys()], { minLength: kinds.length, maxLength: kinds.length }),
  );
  const [sample] = fc.sample(arb, { seed, numRuns: 1 });
  const order = sample!.pop() as number[];
  const drawn = sample as { secret: PlantedSecret; where: Where; percent: boolean }[];
  const plants: Planted[] = drawn.map(({ secret, where, percent }, i) => ({
    secret,
    field: FIELDS[order[i]! % FIELDS.length]!,
    text: plantInto(where.around, percent ? percentEncodeSeparators(secret.text) : secret.text, where.placement, where.edge),
  }));
  // Identified in one step by its context, written bare in another: the site and the export must both drop it.
  const bare = plants.flatMap(({ secret }, i) =>
    secret.bare === undefined ? [] : [{ secret, field: FIELDS[(order[i]! + 5) % FIELDS.length]!, text: `see ${secret.bare} ` }],
  );
  // The request comes first in the title: one secret there for certain (sessions.json and `npm run sessions` list it).
  const github = plants.find((p) => p.secret.kind === 'github-token')!;
  const title = { secret: github.secret, field: 'request' as const, text: `Deploy with ${github.secret.text}` };
  return [title, ...plants, ...bare];
}

const archiveScript = path.join(projectRoot, 'scripts', 'archive.ts');

/** `npm run archive -- …args` with the project's Node. */
function archive(args: string[], env: Record<string, string>): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [archiveScript, ...args], {
    cwd: projectRoot, env: { ...process.env, BRAIN_ROOTS: '', ...env }, encoding: 'utf8',
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Every text an export holds: each column of each row of each table, blobs read as UTF-8 and byte by byte. */
function exportTexts(file: string): string[] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
    const out: string[] = [];
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Array<Record<string, unknown>>) {
        for (const value of Object.values(row)) {
          if (typeof value === 'string') out.push(value);
          else if (value instanceof Uint8Array) out.push(Buffer.from(value).toString('utf8'), Buffer.from(value).toString('latin1'));
        }
      }
    }
    return out;
  } finally {
    db.close();
  }
}

/** A published file's bytes as text; Pagefind's `.pf_*` files are gzip. */
function publishedText(file: string): string {
  let bytes = readFileSync(file);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  return bytes.toString('utf8');
}

describe('a site built from secrets of every kind planted anywhere', () => {
  let tmp: string;
  let outDir: string;
  let build: BuildSiteResult;
  let plants: Planted[];
  let snapshot: { code: number | null; out: string };
  let exported: { code: number | null; out: string };
  let sessionsJson: { code: number | null; out: string };

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agy-redact-site-'));
    plants = plantsFor(SEED);
    writePlantedSession(path.join(tmp, 'home'), SESSION, plants, seededRandom(SEED));
    outDir = path.join(tmp, 'dist');
    build = await buildSite({ env: { GEMINI_HOME: path.join(tmp, 'home'), BRAIN_ROOTS: '' }, outDir });
    const env = { GEMINI_HOME: path.join(tmp, 'home'), ARCHIVE_STORE: path.join(tmp, 'store.sqlite') };
    snapshot = archive([], env);
    exported = archive(['--export', path.join(tmp, 'shared.sqlite')], env);
    const listed = spawnSync(process.execPath, [path.join(projectRoot, 'scripts', 'sessions.ts'), '--json'], {
      cwd: projectRoot, env: { ...process.env, GEMINI_HOME: path.join(tmp, 'home'), BRAIN_ROOTS: '', ARCHIVE_STORE: 'none' }, encoding: 'utf8',
    });
    sessionsJson = { code: listed.status, out: `${listed.stdout}${listed.stderr}` };
  }, 900_000);

  afterAll(async () => {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('builds, exit code 0', () => {
    expect(build.code, `${replay}\n${build.output.slice(-3000)}`).toBe(0);
  });

  it('publishes none of them, in any encoding, Pagefind index included', () => {
    const files = readdirSync(outDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
    expect(files.filter((f) => /\.pf_(fragment|index|meta|filter)$/.test(f)).length, replay).toBeGreaterThan(0);
    const leaks: string[] = [];
    for (const file of files) {
      const forms = decodedForms(publishedText(file));
      for (const { secret, field } of plants) {
        if (forms.some((form) => form.includes(secret.needle))) {
          leaks.push(`${secret.kind} planted in ${field} is in ${path.relative(outDir, file)}`);
        }
      }
    }
    expect(leaks, replay).toEqual([]);
  });

  it('leaves none of them in the export of a store holding the same home (npm run archive -- --export)', () => {
    expect(snapshot.code, snapshot.out).toBe(0);
    expect(exported.code, exported.out).toBe(0);
    const file = path.join(tmp, 'shared.sqlite');
    const texts = [...exportTexts(file), readFileSync(file).toString('latin1')];
    expect(texts.some((t) => t.includes('[REDACTED:')), replay).toBe(true);
    const leaks = new Set<string>();
    for (const text of texts) {
      const forms = decodedForms(text);
      for (const { secret, field } of plants) {
        if (forms.some((form) => form.includes(secret.needle))) leaks.add(`${secret.kind} planted in ${field}`);
      }
    }
    expect([...leaks], replay).toEqual([]);
  });

  it('leaves none of them in `npm run sessions -- --json` (titles, workspaces, models), as in /sessions.json', () => {
    expect(sessionsJson.code, sessionsJson.out).toBe(0);
    const [row] = JSON.parse(sessionsJson.out) as Array<{ title: string }>;
    expect(row?.title, replay).toContain('[REDACTED:');
    const forms = decodedForms(sessionsJson.out);
    const leaks = plants.filter(({ secret }) => forms.some((form) => form.includes(secret.needle))).map((p) => `${p.secret.kind} planted in ${p.field}`);
    expect(leaks, replay).toEqual([]);
  });

  it('still publishes the session, and lists every kind on /report/', () => {
    expect(readPage(outDir, `/sessions/${SESSION}/`), replay).toBeDefined();
    const report = readPage(outDir, '/report/') ?? '';
    const missing = REDACTED_KINDS.map((k) => k.kind).filter((kind) => !report.includes(kind));
    expect(missing, replay).toEqual([]);
  });
});
