/**
 * Micro-benchmark, not a test: Shiki's JavaScript regex engine vs oniguruma, one tokenizer pass per 60-line block,
 * interleaved rounds so machine noise hits both. Run: `PATH=$PWD/node_modules/.bin:$PATH node test/render/engine-bench.ts`.
 */
import { createHighlighter, createJavaScriptRegexEngine, createOnigurumaEngine } from 'shiki';
import gl from 'shiki/themes/github-light.mjs';
const langs = ['typescript', 'python', 'shellscript', 'json'];
const js = await createHighlighter({ themes: [gl], langs, engine: createJavaScriptRegexEngine({ forgiving: true }) });
const onig = await createHighlighter({ themes: [gl], langs, engine: createOnigurumaEngine(import('shiki/wasm')) });
const src: Record<string, string> = {
  typescript: 'export async function handler(req: Request): Promise<Response> {\n  const url = new URL(req.url);\n  if (url.pathname === "/x") return new Response("ok", { status: 200 });\n  // comment\n  return fetch(url, { headers: { "x-n": String(1) } });\n}',
  python: 'def f(x: int) -> list[str]:\n    """Doc."""\n    return [str(v) for v in range(x) if v % 3 == 0]',
  shellscript: 'cd /tmp/work && npm run build -- --filter=pkg | tee log.txt\nif [ -f out ]; then echo "done $HOME"; fi',
  json: '{\n  "id": 1,\n  "name": "item",\n  "tags": ["a", "b"],\n  "nested": { "ok": true, "n": null }\n}',
};
const block = (lang: string, i: number) => { const l = src[lang]!.split('\n'); return Array.from({ length: 60 }, (_, k) => l[k % l.length] + (k === 0 ? ` // ${i}` : '')).join('\n'); };
const res: Record<string, number[]> = { js: [], onig: [] };
let n = 0;
for (let round = 0; round < 6; round++) {
  for (const [name, h] of [['js', js], ['onig', onig]] as const) {
    const t = performance.now();
    let count = 0;
    for (const lang of langs) for (let i = 0; i < 15; i++) { h.codeToTokensBase(block(lang, n++), { lang: lang as 'json', theme: 'github-light' }); count++; }
    res[name]!.push((performance.now() - t) / count);
  }
}
for (const [k, v] of Object.entries(res)) console.log(k, 'min', Math.min(...v).toFixed(2), 'median', v.sort((a, b) => a - b)[3]!.toFixed(2), 'ms per 60-line block (one pass)');
