/**
 * Micro-benchmark of `highlightCode`, not a test: cold (tokenizer) vs warm memory vs warm disk, per 60-line block.
 * Run: `PATH=$PWD/node_modules/.bin:$PATH node test/render/highlight-bench.ts` (ARCHIVE_SHIKI_ENGINE=oniguruma to compare).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

process.env.ARCHIVE_CACHE_DIR = await mkdtemp(path.join(os.tmpdir(), 'hl-bench-'));
const { highlightCode, clearHighlightMemoryCache } = await import('../../src/lib/render/highlight.ts');

const BLOCKS = Number(process.env.BLOCKS ?? 200);
const samples: [string, (i: number) => string][] = [
  ['typescript', (i) => `export async function handler${i}(req: Request): Promise<Response> {\n  const url = new URL(req.url);\n  if (url.pathname === '/x${i}') return new Response('ok ' + ${i}, { status: 200 });\n  // comment ${i}\n  return fetch(url, { headers: { 'x-n': String(${i}) } });\n}\n`],
  ['shellscript', (i) => `cd /tmp/work${i} && npm run build -- --filter=pkg${i} | tee log${i}.txt\nif [ -f out${i} ]; then echo "done $HOME"; fi\n`],
  ['python', (i) => `def f${i}(x: int) -> list[str]:\n    """Doc ${i}."""\n    return [str(v) for v in range(x) if v % ${i + 2} == 0]\n`],
  ['json', (i) => `{\n  "id": ${i},\n  "name": "item-${i}",\n  "tags": ["a", "b"],\n  "nested": { "ok": true, "n": null }\n}\n`],
];
function block(i: number): [string, string] {
  const [lang, make] = samples[i % samples.length]!;
  const lines: string[] = [];
  let k = 0;
  while (lines.length < 60) lines.push(...make(i * 100 + k++).split('\n').filter(Boolean));
  return [lines.slice(0, 60).join('\n'), lang];
}
const blocks = Array.from({ length: BLOCKS }, (_, i) => block(i));

async function run(label: string): Promise<void> {
  const t = performance.now();
  for (const [code, lang] of blocks) await highlightCode(code, lang);
  const ms = (performance.now() - t) / blocks.length;
  console.log(`${label.padEnd(28)} ${ms.toFixed(3)} ms/block`);
}

const t0 = performance.now();
await highlightCode('x', 'typescript');
console.log(`engine ${process.env.ARCHIVE_SHIKI_ENGINE ?? 'javascript'}: first call (create + load ts) ${(performance.now() - t0).toFixed(0)} ms`);
for (const [lang] of samples) await highlightCode('x', lang);
await run('cold (tokenize + disk write)');
await run('warm memory');
clearHighlightMemoryCache();
await run('warm disk (memory cleared)');
await rm(process.env.ARCHIVE_CACHE_DIR, { recursive: true, force: true });
