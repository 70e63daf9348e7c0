/**
 * The precompress phase (ARCHIVE_PRECOMPRESS=gzip,br; off by default): a `.gz` and/or `.br` copy beside each text
 * file of the new site, which nginx (`gzip_static on;`, `brotli_static on;`) and Caddy (`file_server {
 * precompressed br gzip }`) send to browsers that accept them instead of compressing every response again.
 *
 * Text only, by extension: Pagefind's index files (`.pf_fragment`, `.pf_index`, `.pf_meta`, `.pf_filter`) and its
 * wasm (`.pagefind`) are gzip streams already, and uploads are images; compressing them again only costs time. A
 * copy is written only when it is smaller than the file. The work runs on libuv's thread pool (zlib's asynchronous
 * calls), a few files at a time, so the build's own thread stays free and every core helps.
 *
 * Incremental: a copy newer than its file is kept (the pages of reused sessions come back with theirs), a copy
 * whose file is gone is removed, so a rebuild compresses only what it wrote. It runs before publish, on the staging
 * folder: the manifest's folder digests then include the copies, and a reused session folder (hard-linked from the
 * live site) comes back with them. Pure Node: no Astro import.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import pLimit from 'p-limit';
import type { BuildContext } from './context.ts';
import { BuildStop } from './stop.ts';

/** The encodings a site can be precompressed to, and the suffix of their copies. */
export const ENCODINGS = { gzip: '.gz', br: '.br' } as const;

/** One encoding. */
export type Encoding = keyof typeof ENCODINGS;

/** Files whose copies are written: the text the site serves (pages, styles, scripts, JSON, plain-text fields, SVG). */
export const TEXT_EXTENSIONS = new Set(['.html', '.css', '.js', '.mjs', '.json', '.txt', '.svg', '.xml', '.map', '.webmanifest']);

/** Below this size a compressed copy saves less than a packet, and a server would gain nothing from it. */
export const MIN_BYTES = 512;

/**
 * Brotli quality. Over the demo site's 305 text files (4.4 MB), one thread: quality 5 took 0.17 s for 23.1 % of
 * the bytes, 9 took 4.5 s for 22.8 %, 11 took 12.6 s for 20.5 % (gzip -9: 0.15 s, 25.2 %). At 11, the 7 GB a
 * 300k-step build writes would take hours on two cores; 5 keeps the phase as cheap as gzip.
 */
export const BROTLI_QUALITY = 5;

/** Files compressed at once: libuv's default thread pool has 4 threads. */
const CONCURRENCY = 4;

/** What the phase did. */
export interface PrecompressResult {
  /** Text files looked at (at least `MIN_BYTES`). */
  files: number;
  /** Copies written now, and kept from the last build. */
  written: number;
  kept: number;
  /** Orphan copies removed (their file is gone). */
  removed: number;
  /** Bytes of the text files looked at, and of their copies by encoding (written and kept). */
  bytes: number;
  copyBytes: Record<Encoding, number>;
  ms: number;
}

/**
 * The encodings ARCHIVE_PRECOMPRESS asks for (`gzip`, `br`, both comma-separated; empty or `off` = none). Throws
 * for a name it does not know: a wrong setting stops the build before anything is written.
 */
export function precompressEncodings(setting: string | undefined): Encoding[] {
  const names = (setting ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (names.length === 0 || (names.length === 1 && (names[0] === 'off' || names[0] === '0' || names[0] === 'false'))) return [];
  const out: Encoding[] = [];
  for (const name of names) {
    const encoding = name === 'brotli' ? 'br' : name === 'gz' ? 'gzip' : name;
    if (!(encoding in ENCODINGS)) {
      throw new Error(`ARCHIVE_PRECOMPRESS: unknown encoding "${name}". Hint: use gzip, br or gzip,br (or leave it unset).`);
    }
    if (!out.includes(encoding as Encoding)) out.push(encoding as Encoding);
  }
  return out;
}

function compressor(encoding: Encoding, size: number): zlib.Gzip | zlib.BrotliCompress {
  if (encoding === 'gzip') return zlib.createGzip({ level: 9 });
  return zlib.createBrotliCompress({
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  });
}

/** A copy, or a copy a killed build left half-written (`.gz.tmp`). */
function isCopy(name: string): boolean {
  const bare = name.endsWith('.tmp') ? name.slice(0, -4) : name;
  return bare.endsWith(ENCODINGS.gzip) || bare.endsWith(ENCODINGS.br);
}

/** Every file under `dir`, as paths, with copies (`.gz`, `.br`, and their `.tmp`) apart. */
async function walk(dir: string, files: string[], copies: string[]): Promise<void> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await walk(p, files, copies);
    else if (e.isFile()) (isCopy(e.name) ? copies : files).push(p);
  }
}

async function mtimeOrUndefined(p: string): Promise<{ mtimeMs: number; size: number } | undefined> {
  try {
    return await stat(p);
  } catch {
    return undefined;
  }
}

/**
 * Write the `encodings` copies of every text file under `siteDir` (see the module comment). Streams each file
 * through zlib into `<copy>.tmp`, renamed once whole, so a killed build never leaves a torn copy a server would send.
 */
export async function precompressSite(siteDir: string, encodings: readonly Encoding[]): Promise<PrecompressResult> {
  const started = performance.now();
  const result: PrecompressResult = { files: 0, written: 0, kept: 0, removed: 0, bytes: 0, copyBytes: { gzip: 0, br: 0 }, ms: 0 };
  const files: string[] = [];
  const copies: string[] = [];
  await walk(siteDir, files, copies);
  const fileSet = new Set(files);
  for (const copy of copies) {
    const original = copy.slice(0, copy.lastIndexOf('.'));
    const encoding = copy.endsWith(ENCODINGS.gzip) ? 'gzip' : 'br';
    if (copy.endsWith('.tmp') || !fileSet.has(original) || !encodings.includes(encoding)) {
      await rm(copy, { force: true });
      result.removed++;
    }
  }
  const limit = pLimit(CONCURRENCY);
  await Promise.all(
    files
      .filter((f) => TEXT_EXTENSIONS.has(path.extname(f).toLowerCase()))
      .map((file) =>
        limit(async () => {
          const info = await stat(file);
          if (info.size < MIN_BYTES) return;
          result.files++;
          result.bytes += info.size;
          for (const encoding of encodings) {
            const copy = file + ENCODINGS[encoding];
            const existing = await mtimeOrUndefined(copy);
            if (existing && existing.mtimeMs >= info.mtimeMs) {
              result.kept++;
              result.copyBytes[encoding] += existing.size;
              continue;
            }
            const tmp = `${copy}.tmp`;
            await pipeline(createReadStream(file), compressor(encoding, info.size), createWriteStream(tmp));
            const size = (await stat(tmp)).size;
            if (size >= info.size) {
              await rm(tmp, { force: true });
              if (existing) await rm(copy, { force: true });
              continue;
            }
            await rename(tmp, copy);
            result.written++;
            result.copyBytes[encoding] += size;
          }
        }),
      ),
  );
  result.ms = Math.round(performance.now() - started);
  return result;
}

/** A line for the build log. */
export function describePrecompress(r: PrecompressResult, encodings: readonly Encoding[]): string {
  const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
  const sizes = encodings.map((e) => `${e} ${mib(r.copyBytes[e])}`).join(', ');
  return `precompress: ${r.files} text files (${mib(r.bytes)}) → ${sizes}; ${r.written} copies written, ${r.kept} kept, ${r.removed} removed in ${(r.ms / 1000).toFixed(1)} s`;
}

/** The encodings this build writes (ARCHIVE_PRECOMPRESS); a name it does not know stops the build at once. */
export function precompressSetting(env: NodeJS.ProcessEnv): Encoding[] {
  try {
    return precompressEncodings(env.ARCHIVE_PRECOMPRESS);
  } catch (error) {
    const [message, hint] = (error as Error).message.split(' Hint: ');
    throw new BuildStop(message ?? String(error), hint ?? 'use gzip, br or gzip,br.', { exitCode: 2 });
  }
}

/** The phase: the copies in the staging folder, once the site (search bundle included) is whole, before publish. */
export async function precompressPhase(ctx: BuildContext, encodings: readonly Encoding[]): Promise<void> {
  if (encodings.length === 0) return;
  try {
    console.log(describePrecompress(await precompressSite(ctx.folders.staging, encodings), encodings));
  } catch (error) {
    throw new BuildStop(`precompress failed: ${String(error instanceof Error ? error.message : error)}; the site served was not changed.`, 'run `npm run build` again.', { cause: error });
  }
}
