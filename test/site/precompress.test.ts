/**
 * The precompress phase (ARCHIVE_PRECOMPRESS) over a copy of the demo build: every `.gz` and `.br` copy
 * decompresses to the bytes of its file, only text files get copies (never Pagefind's own gzip files), a second run
 * keeps what is current and rewrites what changed, and orphan copies go.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_BYTES, TEXT_EXTENSIONS, precompressEncodings, precompressSite, type PrecompressResult } from '../../src/lib/build/precompress.ts';
import { demoBuild } from '../helpers/homes.ts';

const site = mkdtempSync(path.join(os.tmpdir(), 'agy-precompress-'));
let first: PrecompressResult;

function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

beforeAll(async () => {
  const build = await demoBuild();
  expect(build.code, build.output.slice(-2000)).toBe(0);
  cpSync(build.outDir, site, { recursive: true });
  first = await precompressSite(site, ['gzip', 'br']);
});
afterAll(() => rmSync(site, { recursive: true, force: true }));

describe('precompressSite', () => {
  it('writes copies that decompress to the same bytes, for text files only', () => {
    const copies = allFiles(site).filter((f) => f.endsWith('.gz') || f.endsWith('.br'));
    expect(copies.length).toBe(first.written);
    expect(copies.some((f) => f.endsWith(`${path.sep}index.html.br`))).toBe(true);
    for (const copy of copies) {
      const original = copy.slice(0, -3);
      const unpacked = copy.endsWith('.gz') ? gunzipSync(readFileSync(copy)) : brotliDecompressSync(readFileSync(copy));
      expect(unpacked.equals(readFileSync(original)), copy).toBe(true);
      expect(TEXT_EXTENSIONS.has(path.extname(original))).toBe(true);
      expect(statSync(copy).size).toBeLessThan(statSync(original).size);
    }
    // Pagefind's index files are gzip streams already.
    const pagefindFiles = allFiles(path.join(site, 'pagefind'));
    expect(pagefindFiles.some((f) => f.endsWith('.pf_fragment'))).toBe(true);
    expect(pagefindFiles.filter((f) => /\.pf_\w+\.(gz|br)$|\.pagefind\.(gz|br)$/.test(f))).toEqual([]);
    // Every text file big enough got both copies (the demo's pages all compress).
    const big = allFiles(site).filter((f) => path.basename(f) === 'index.html' && statSync(f).size >= MIN_BYTES);
    for (const f of big) expect(existsSync(`${f}.gz`) && existsSync(`${f}.br`), f).toBe(true);
  });

  it('keeps current copies, rewrites the copy of a file that changed, removes orphans', async () => {
    const home = path.join(site, 'index.html');
    const gzCopies = allFiles(site).filter((f) => f.endsWith('.gz')).length;
    const changed = readFileSync(home, 'utf8').replace('</main>', `<p>${'changed '.repeat(200)}</p></main>`);
    writeFileSync(home, changed);
    // A file written after its copy, as a rebuild does.
    const later = new Date(Date.now() + 5_000);
    utimesSync(home, later, later);
    writeFileSync(path.join(site, 'gone.html.gz'), 'stale');
    writeFileSync(path.join(site, 'about', 'index.html.br.tmp'), 'torn');
    const again = await precompressSite(site, ['gzip']);
    expect(gunzipSync(readFileSync(`${home}.gz`)).toString('utf8')).toBe(changed);
    expect(again.written).toBe(1);
    expect(again.kept).toBe(gzCopies - 1);
    expect(existsSync(path.join(site, 'gone.html.gz'))).toBe(false);
    expect(existsSync(path.join(site, 'about', 'index.html.br.tmp'))).toBe(false);
    // Only gzip asked for: the brotli copies go.
    expect(allFiles(site).filter((f) => f.endsWith('.br'))).toEqual([]);
  });
});

describe('precompressEncodings', () => {
  it('reads the setting, and stops on a name it does not know', () => {
    expect(precompressEncodings(undefined)).toEqual([]);
    expect(precompressEncodings('off')).toEqual([]);
    expect(precompressEncodings('gzip, br')).toEqual(['gzip', 'br']);
    expect(precompressEncodings('brotli')).toEqual(['br']);
    expect(() => precompressEncodings('zstd')).toThrow(/unknown encoding "zstd".*Hint/);
  });
});
