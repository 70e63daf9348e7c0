/**
 * Properties of redaction over generated secrets of every kind the redactor claims (`REDACTED_KINDS`): each is
 * found alone as its kind; planted anywhere in a session written to disk, in any encoding a transcript or URL uses,
 * no reading of any string of the redacted session holds it; and the redacted raw lines still parse. The site-level
 * twin (`redact-site.test.ts`) builds a site from such a session and reads every published byte.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readSession } from '../../src/lib/brain/index.ts';
import { redactSession, redactText } from '../../src/lib/redact/index.ts';
import { REDACTED_KINDS } from '../../src/lib/redact/patterns.ts';
import { type Hit, applyHits, scanTexts } from '../../src/lib/redact/scan.ts';
import { FIELDS, type Field, seededRandom, writePlantedSession } from './planted-home.ts';
import {
  type PlantedSecret, SECRET_GENERATORS, decodedForms, percentEncodeSeparators, placementArb, plantInto,
} from './secret-kinds.ts';
import { allStrings } from './strings.ts';
import { propertyRuns, replayHint, sampleRuns } from '../helpers/properties.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const KINDS = REDACTED_KINDS.map((k) => k.kind);
const anySecret: fc.Arbitrary<PlantedSecret> = fc.constantFrom(...KINDS).chain((kind) => SECRET_GENERATORS[kind]!);

function parses(json: string): boolean {
  try {
    JSON.parse(json);
    return true;
  } catch {
    return false;
  }
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'agy-redact-props-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// First: after the thousands of scans below, the same 40 runs took minutes instead of half a second in one process.
describe('a session with secrets planted anywhere, read from disk', () => {
  const plantArb = fc.record({
    secret: anySecret,
    field: fc.constantFrom<Field>(...FIELDS),
    where: placementArb,
    percent: fc.boolean(),
  });

  it('holds no secret in any reading of any string once redacted; raw lines still parse', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(plantArb, { minLength: 1, maxLength: 5 }), fc.nat(), async (plants, seed) => {
        const id = `00000000-0000-4000-8000-${String(++run).padStart(12, '0')}`;
        const home = path.join(tmp, `home-${run}`);
        const dir = writePlantedSession(
          home,
          id,
          plants.map(({ secret, field, where, percent }) => ({
            field,
            text: plantInto(where.around, percent ? percentEncodeSeparators(secret.text) : secret.text, where.placement, where.edge),
          })),
          seededRandom(seed),
        );
        const original = await readSession({ id, product: 'antigravity', root: path.dirname(dir), dir, mtimeMs: 0, ctimeMs: 0 });
        const { session } = await redactSession(original);
        const leaks: string[] = [];
        for (const text of allStrings(session)) {
          for (const form of decodedForms(text)) {
            for (const { secret } of plants) if (form.includes(secret.needle)) leaks.push(`${secret.kind} in ${text.slice(0, 300)}`);
          }
        }
        expect(leaks).toEqual([]);
        const unparsable = session.steps.flatMap((step) => step.sources).filter((source) => !parses(source.raw));
        expect(unparsable).toEqual([]);
        rmSync(home, { recursive: true, force: true });
      }),
      propertyRuns(40),
    );
  }, 300_000);
});

describe('the kinds the redactor claims', () => {
  it('each has a generator, and README.md lists each', () => {
    expect(Object.keys(SECRET_GENERATORS).sort()).toEqual([...KINDS].sort());
    const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
    for (const kind of KINDS) expect(readme, kind).toContain(`\`${kind}\``);
  });

  it('finds every generated secret, alone and in prose, as its kind', async () => {
    await fc.assert(
      fc.asyncProperty(anySecret, placementArb, async (secret, { placement, around, edge }) => {
        const alone = await redactText(secret.text);
        expect(alone.text).not.toContain(secret.needle);
        expect(alone.kinds).toContain(secret.kind);
        const inProse = await redactText(plantInto(around, secret.text, placement, edge));
        expect(inProse.text).not.toContain(secret.needle);
      }),
      propertyRuns(400),
    );
  });
});

/** Real-shaped keys drawn per kind, as the probe drew 2,000 AWS keys. */
const DRAWN_PER_KIND = 2_000;
/**
 * Texts per scan, as many as a busy session holds: a scan seeks every secret it found in every text it was given,
 * so one scan of all 2,000 would spend its time on that (3.5 s a kind instead of 1 s).
 */
const TEXTS_PER_SCAN = 200;

describe(`${DRAWN_PER_KIND} random real-shaped secrets of each kind`, () => {
  it.each(KINDS)('%s: every one goes, wherever it is planted (glued to a word too)', async (kind) => {
    const drawn = fc.sample(fc.tuple(SECRET_GENERATORS[kind]!, placementArb), sampleRuns(DRAWN_PER_KIND));
    const texts = drawn.map(([secret, { placement, around, edge }]) => plantInto(around, secret.text, placement, edge));
    const hits: Hit[][] = [];
    for (let i = 0; i < texts.length; i += TEXTS_PER_SCAN) hits.push(...(await scanTexts(texts.slice(i, i + TEXTS_PER_SCAN))));
    const leaks = drawn
      .map(([secret], i) => ({ secret, out: applyHits(texts[i]!, hits[i]!), kinds: hits[i]!.map((h) => h.kind) }))
      .filter(({ secret, out, kinds }) => out.includes(secret.needle) || !kinds.includes(kind))
      .map(({ secret }) => secret.text);
    expect(leaks.slice(0, 5), `${replayHint}: ${leaks.length} of ${DRAWN_PER_KIND} missed`).toEqual([]);
  }, 60_000);
});

/** Ways a transcript line writes the text just before a secret, or the secret itself. */
const RAW_FORMS: [name: string, line: (text: string) => string][] = [
  ['after \\n', (t) => JSON.stringify({ content: `<USER_REQUEST>\nuse my token:\n${t}\n…` })],
  ['after \\t', (t) => JSON.stringify({ thinking: `key:\t${t}` })],
  // The escape goes inside the string: replacing the first match of the character in the whole line once escaped the
  // line's own `{` when a secret began with `{` (seed -82212253, a JSON password assignment), and the line never parsed.
  ['first character as \\u00XX', (t) => `{"error":"bad \\u${t.charCodeAt(0).toString(16).padStart(4, '0')}${JSON.stringify(t.slice(1)).slice(1, -1)}"}`],
  ['every character as \\u00XX', (t) => `{"content":"${[...t].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"}`],
  ['/ as \\/', (t) => JSON.stringify({ content: `x ${t}` }).replaceAll('/', '\\/')],
  ['in a compact (JSON-encoded) argument', (t) => JSON.stringify({ tool_calls: [{ name: 'run_command', args: { CommandLine: JSON.stringify(`echo\n${t}`) } }] })],
  ['in JSON text inside an argument', (t) => JSON.stringify({ args: { Arguments: JSON.stringify({ q: JSON.stringify({ deep: `\n${t}` }) }) } })],
  ['percent-encoded in a URL', (t) => JSON.stringify({ content: `GET https://x.example/?token=${percentEncodeSeparators(t)}` })],
];

describe('secrets in transcript lines as written', () => {
  it.each(RAW_FORMS)('are removed from the raw line when written %s, and the line still parses', async (_name, line) => {
    await fc.assert(
      fc.asyncProperty(anySecret, async (secret) => {
        const raw = line(secret.text);
        expect(parses(raw), `the form wrote a line that is not JSON: ${raw}`).toBe(true);
        const [hits = []] = await scanTexts([raw], { json: [true] });
        const redacted = applyHits(raw, hits);
        for (const form of decodedForms(redacted)) expect(form).not.toContain(secret.needle);
        expect(() => JSON.parse(redacted)).not.toThrow();
        expect(redacted).toContain('[REDACTED:');
      }),
      propertyRuns(120),
    );
  });
});
