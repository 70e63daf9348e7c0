/**
 * What the search indexes of the real sessions in ../shared/real-brains (skipped when absent, issue 30): what a
 * person wrote, read or ran, never the harness. d493099f's transcript holds 69 reminders (`EPHEMERAL_MESSAGE`, each
 * with `CRITICAL INSTRUCTION 1: …`) and every result starts with `Created At:`; none of it is in a search document,
 * while the step pages still show the reminders as recorded.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/build-site.ts';
import { sharedBuild, type SharedBuild } from '../helpers/shared-build.ts';
import { readPage } from '../helpers/site-files.ts';

const realHome = [path.resolve(projectRoot, '../shared/real-brains/gemini'), path.resolve(projectRoot, '../../shared/real-brains/gemini')].find((p) => existsSync(p)) ?? path.resolve(projectRoot, '../shared/real-brains/gemini');

/** Every search document of the build: its path and its indexed text (the body, tags and all). */
function searchDocuments(outDir: string): { file: string; html: string }[] {
  const out: { file: string; html: string }[] = [];
  const sessions = path.join(outDir, 'sessions');
  for (const id of readdirSync(sessions)) {
    const folder = path.join(sessions, id, 'search');
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder)) out.push({ file: `${id}/search/${name}`, html: readFileSync(path.join(folder, name), 'utf8') });
  }
  return out;
}

describe.skipIf(!existsSync(realHome))('search documents of the real sessions hold no harness text', () => {
  let build: SharedBuild;
  let docs: { file: string; html: string }[];
  beforeAll(async () => {
    build = await sharedBuild('real', { GEMINI_HOME: realHome });
    expect(build.code, build.output.slice(-2000)).toBe(0);
    docs = searchDocuments(build.outDir);
  });

  it('indexes no reminder, no preamble, no transport header', () => {
    expect(docs.length).toBeGreaterThan(100);
    const holding = (pattern: RegExp) => docs.filter((d) => pattern.test(d.html)).map((d) => d.file);
    expect(holding(/CRITICAL INSTRUCTION/)).toEqual([]);
    expect(holding(/EPHEMERAL_MESSAGE|ephemeral message/)).toEqual([]);
    expect(holding(/not actually sent by the user/)).toEqual([]);
    // A result's text starts after its header (a model may still write the words in its own reply).
    expect(holding(/<pre>(?:Created|Completed) At: /)).toEqual([]);
  });

  it('still shows a reminder on its step page, as recorded', () => {
    const step = readPage(build.outDir, '/sessions/d493099f-783d-4b86-9462-011f05b21b68/steps/1421/') ?? '';
    expect(step).toContain('CRITICAL INSTRUCTION 1');
  });
});
