/**
 * Two processes writing the same `.astro/` file the way Astro's content store does (`<file>.tmp`, then a rename):
 * without `src/lib/build/astro-temp-files.ts` one renames the other's temp file away and a rename fails with ENOENT
 * (how a join and a split build stopped with UnknownFilesystemError); with it loaded, as render processes load it,
 * every write lands and the file always holds one writer's whole text.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTree } from '../helpers/temp.ts';
import { ownTempFile } from '../../src/lib/build/astro-temp-files.ts';

const preload = pathToFileURL(path.resolve(import.meta.dirname, '../../src/lib/build/astro-temp-files.ts')).href;
const work = mkdtempSync(path.join(os.tmpdir(), 'agy-astro-tmp-'));
afterAll(() => removeTree(work));

/** Astro's write, 400 times over: the named import, as ESM code binds it, and the whole text of one writer. */
const WRITER = `
import { rename, writeFile } from 'node:fs/promises';
const [file, text] = process.argv.slice(-2);
for (let i = 0; i < 400; i++) {
  await writeFile(file + '.tmp', text);
  await rename(file + '.tmp', file);
}
`;

/** Run two writers of `file` at once; their exit codes and stderr. */
async function race(file: string, withPreload: boolean): Promise<{ code: number | null; stderr: string }[]> {
  const one = (text: string) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const args = [...(withPreload ? [`--import=${preload}`] : []), '--input-type=module', '-e', WRITER, file, text];
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
    });
  return Promise.all([one('export default new Map();'), one('\nexport default new Map([]);\n')]);
}

describe('temp files under .astro/ in parallel render processes', () => {
  it('names a temp file under .astro/ for its process, and leaves every other path alone', () => {
    const file = path.join(work, '.astro', 'content-assets.mjs.tmp');
    expect(ownTempFile(file)).toBe(`${file}.${process.pid}`);
    expect(ownTempFile(pathToFileURL(file))).toBe(`${file}.${process.pid}`);
    expect(ownTempFile(path.join(work, '.astro', 'content-assets.mjs'))).toBe(path.join(work, '.astro', 'content-assets.mjs'));
    expect(ownTempFile(path.join(work, 'cache', 'data-store.json.tmp'))).toBe(path.join(work, 'cache', 'data-store.json.tmp'));
  });

  it('loses a rename to the other writer without it, and never with it', async () => {
    const dir = path.join(work, 'project', '.astro');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'content-assets.mjs');
    // The race as it happens without the preload: one writer's rename finds its temp file gone.
    const bare = await race(file, false);
    expect(bare.some((w) => w.code !== 0 && /ENOENT/.test(w.stderr)), JSON.stringify(bare)).toBe(true);
    const guarded = await race(file, true);
    expect(guarded, JSON.stringify(guarded)).toEqual([
      { code: 0, stderr: '' },
      { code: 0, stderr: '' },
    ]);
    expect(['export default new Map();', '\nexport default new Map([]);\n']).toContain(readFileSync(file, 'utf8'));
  });
});
