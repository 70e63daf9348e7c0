import { existsSync, readFileSync, readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSession } from '../../src/lib/brain/index.ts';
import type { SessionRef } from '../../src/lib/brain/types.ts';
import { propertyRuns } from '../helpers/properties.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const realHome = path.resolve(projectRoot, '../shared/real-brains/gemini');
const MAX_BASE_BYTES = 64 * 1024;

/** Small transcripts to corrupt: the team's fixtures, plus small real ones when the real data is present. */
function baseTranscripts(): { name: string; bytes: Buffer }[] {
  const found: { name: string; bytes: Buffer }[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 8 || !existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, depth + 1);
      else if (entry.isFile() && /^transcript(_full)?\.jsonl$/.test(entry.name)) {
        const bytes = readFileSync(full);
        if (bytes.length > 0 && bytes.length <= MAX_BASE_BYTES) found.push({ name: path.relative(projectRoot, full), bytes });
      }
    }
  };
  walk(path.join(projectRoot, 'fixtures', 'cases'), 0);
  walk(realHome, 0); // absent in some clones: then fixtures only
  return found;
}

/** One corruption of a transcript's bytes. */
type Corruption =
  | { op: 'cut'; at: number; length: number }
  | { op: 'flip'; at: number; mask: number }
  | { op: 'shuffle'; seed: number }
  | { op: 'duplicate'; line: number; to: number };

const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  fc.record({ op: fc.constant('cut' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 400 }) }),
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ op: fc.constant('shuffle' as const), seed: fc.nat() }),
  fc.record({ op: fc.constant('duplicate' as const), line: fc.nat(), to: fc.nat() }),
);

function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, start)) {
    lines.push(bytes.subarray(start, i));
    start = i + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}
const joinLines = (lines: Buffer[]) => Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));

function corrupt(bytes: Buffer, c: Corruption): Buffer {
  if (bytes.length === 0) return bytes;
  switch (c.op) {
    case 'cut': {
      const at = c.at % bytes.length;
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(Math.min(bytes.length, at + c.length))]);
    }
    case 'flip': {
      const copy = Buffer.from(bytes);
      const at = c.at % copy.length;
      copy[at] = copy[at]! ^ c.mask;
      return copy;
    }
    case 'shuffle': {
      const lines = splitLines(bytes);
      let seed = c.seed || 1;
      for (let i = lines.length - 1; i > 0; i--) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const k = seed % (i + 1);
        [lines[i], lines[k]] = [lines[k]!, lines[i]!];
      }
      return joinLines(lines);
    }
    case 'duplicate': {
      const lines = splitLines(bytes);
      if (lines.length === 0) return bytes;
      const line = lines[c.line % lines.length]!;
      lines.splice(c.to % (lines.length + 1), 0, line);
      return joinLines(lines);
    }
  }
}

/** The lines a reader must keep: they parse as a JSON object with an integer step_index. */
function intactLines(bytes: Buffer): string[] {
  // A BOM is only a BOM at the start of the file; in the middle (after a shuffle) the line does not parse.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return splitLines(bytes)
    .map((line, i) => decoder.decode(line).replace(i === 0 ? /^\uFEFF/ : /^$/, '').replace(/\r$/, ''))
    .filter((text) => {
      try {
        const record = JSON.parse(text);
        return record !== null && typeof record === 'object' && !Array.isArray(record) && Number.isInteger(record.step_index) && record.step_index >= 0;
      } catch {
        return false;
      }
    });
}

const bases = baseTranscripts();
let tmp: string;
let counter = 0;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'agy-props-'));
});
afterAll(async () => {
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

async function readCorrupted(bytes: Buffer) {
  const id = `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
  const root = path.join(tmp, 'home', 'antigravity', 'brain');
  const dir = path.join(root, id);
  await fs.mkdir(path.join(dir, '.system_generated', 'logs'), { recursive: true });
  await fs.writeFile(path.join(dir, '.system_generated', 'logs', 'transcript_full.jsonl'), bytes);
  const ref: SessionRef = { id, product: 'antigravity', root, dir, mtimeMs: 0, ctimeMs: 0 };
  try {
    return await readSession(ref);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

describe('the reader under random corruption', () => {
  it('has transcripts to corrupt', () => {
    expect(bases.length).toBeGreaterThan(0);
  });

  it('never throws, and every line left intact reaches the timeline', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: Math.max(0, bases.length - 1) }),
        fc.array(corruption, { minLength: 1, maxLength: 4 }),
        async (which, corruptions) => {
          const bytes = corruptions.reduce(corrupt, bases[which]!.bytes);
          const session = await readCorrupted(bytes);
          const raws = new Set(session.steps.flatMap((s) => s.sources.map((src) => src.raw)));
          for (const line of intactLines(bytes)) {
            if (!raws.has(line)) throw new Error(`intact line missing from the timeline (${bases[which]!.name}): ${line.slice(0, 200)}`);
          }
        },
      ),
      propertyRuns(40),
    );
  }, 30_000);
});
