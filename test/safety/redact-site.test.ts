/**
 * The site-level property of redaction: one home holding generated secrets of every kind the redactor claims
 * (`REDACTED_KINDS`), each planted in a random place (every field of `FIELDS` is used: the request, right after a
 * newline, a JSON-encoded argument, a record later rewritten, an output, an artifact version, a message, a task
 * log…), some percent-encoded, in transcripts written with `\/` and `\u00XX` escapes; one build; then no byte of the
 * out dir holds any of them, read as is and with JSON and percent escapes decoded, Pagefind's gzip files opened.
 * The seed is random per run and printed on failure; `REDACT_SEED=<n>` replays one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED_KINDS } from '../../src/lib/redact/patterns.ts';
import { buildSite, type BuildSiteResult } from '../helpers/build-site.ts';
import { readPage } from '../helpers/site-files.ts';
import { FIELDS, type Plant, seededRandom, writePlantedSession } from './planted-home.ts';
import {
  type PlantedSecret, SECRET_GENERATORS, type Where, decodedForms, percentEncodeSeparators, placementArb, plantInto,
} from './secret-kinds.ts';

const SEED = Number(process.env.REDACT_SEED ?? Math.floor(Math.random() * 2 ** 31));
const replay = `seed ${SEED} (replay with REDACT_SEED=${SEED})`;
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
  return drawn.map(({ secret, where, percent }, i) => ({
    secret,
    field: FIELDS[order[i]! % FIELDS.length]!,
    text: plantInto(where.around, percent ? percentEncodeSeparators(secret.text) : secret.text, where.placement, where.edge),
  }));
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

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agy-redact-site-'));
    plants = plantsFor(SEED);
    writePlantedSession(path.join(tmp, 'home'), SESSION, plants, seededRandom(SEED));
    outDir = path.join(tmp, 'dist');
    build = await buildSite({ env: { GEMINI_HOME: path.join(tmp, 'home'), BRAIN_ROOTS: '' }, outDir });
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

  it('still publishes the session, and lists every kind on /report/', () => {
    expect(readPage(outDir, `/sessions/${SESSION}/`), replay).toBeDefined();
    const report = readPage(outDir, '/report/') ?? '';
    const missing = REDACTED_KINDS.map((k) => k.kind).filter((kind) => !report.includes(kind));
    expect(missing, replay).toEqual([]);
  });
});
