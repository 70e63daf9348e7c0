/**
 * Micro-benchmark, not a test: renderMarkdown per typical step text (prose, a list, inline code, one small fence),
 * cold vs memory cache vs disk cache. Run: `PATH=$PWD/node_modules/.bin:$PATH node test/render/markdown-bench.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

process.env.ARCHIVE_CACHE_DIR = await mkdtemp(path.join(os.tmpdir(), 'md-bench-'));
const { renderMarkdown, clearMarkdownCache } = await import('../../src/lib/render/markdown.ts');
const { clearHighlightMemoryCache } = await import('../../src/lib/render/highlight.ts');

const N = Number(process.env.DOCS ?? 300);
const doc = (i: number, fence: boolean): string =>
  `I'll update \`src/app${i}.ts\` so the handler returns early.\n\n` +
  `1. Read the **config** from [the docs](https://example.com/${i}).\n2. Validate it.\n3. Run the tests.\n\n` +
  `The previous version failed because \`value${i}\` was undefined when the cache was cold; see the table:\n\n` +
  `| step | result |\n| --- | --- |\n| build | ok |\n| test ${i} | failed |\n` +
  (fence ? `\n\`\`\`ts\nexport function check${i}(v: unknown): v is string {\n  return typeof v === 'string';\n}\n\`\`\`\n` : '');

for (const fence of [false, true]) {
  await renderMarkdown(doc(-1, fence));
  const docs = Array.from({ length: N }, (_, i) => doc(i + (fence ? N : 0), fence));
  let t = performance.now();
  for (const d of docs) await renderMarkdown(d);
  const cold = (performance.now() - t) / N;
  t = performance.now();
  for (const d of docs) await renderMarkdown(d);
  const warm = (performance.now() - t) / N;
  clearMarkdownCache();
  clearHighlightMemoryCache();
  t = performance.now();
  for (const d of docs) await renderMarkdown(d);
  const disk = (performance.now() - t) / N;
  console.log(`${fence ? 'with a ts fence' : 'prose only     '}: cold ${cold.toFixed(2)} ms, memory ${warm.toFixed(3)} ms, after memory cleared ${disk.toFixed(2)} ms per doc`);
}
await rm(process.env.ARCHIVE_CACHE_DIR, { recursive: true, force: true });
