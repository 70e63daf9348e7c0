/**
 * The framework floor: a throwaway Astro project with N trivial pages and the project's own Pagefind integration
 * (so the search step runs with exactly our settings), built with the same Node and heap flags as `npm run build`.
 * Whatever our build costs above this is ours to explain.
 */
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Write the floor project into `dir` (which must be empty or absent) for `pages` pages. */
export function writeFloorProject(dir: string, projectRoot: string, pages: number): void {
  mkdirSync(path.join(dir, 'src', 'pages'), { recursive: true });
  linkNodeModules(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'bench-floor', private: true, type: 'module' }, null, 2)}\n`);
  const integration = path.join(projectRoot, 'src', 'integrations', 'pagefind.ts');
  writeFileSync(
    path.join(dir, 'astro.config.mjs'),
    [
      "import { defineConfig } from 'astro/config';",
      `import { pagefind } from ${JSON.stringify(integration)};`,
      'export default defineConfig({',
      "  outDir: './dist',",
      "  cacheDir: './.cache/astro',",
      "  build: { format: 'directory', inlineStylesheets: 'never' },",
      '  devToolbar: { enabled: false },',
      '  integrations: [pagefind()],',
      '});',
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(dir, 'src', 'pages', '[n].astro'),
    [
      '---',
      'export function getStaticPaths() {',
      `  return Array.from({ length: ${pages} }, (_, i) => ({ params: { n: String(i) } }));`,
      '}',
      'const { n } = Astro.params;',
      '---',
      '<html lang="en"><head><meta charset="utf-8" /><title>Page {n}</title></head>',
      '<body><main data-pagefind-body><h1>Page {n}</h1><p>A trivial floor page, number {n}, with a few words to index.</p></main></body></html>',
      '',
    ].join('\n'),
  );
}

/**
 * A real node_modules folder whose entries link to the project's, so the floor resolves the same packages while
 * its caches (`.astro`, `.vite`, `.cache`) stay inside the work folder instead of the shared checkout.
 */
function linkNodeModules(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (name === '.cache' || name === '.astro' || name === '.vite' || name === '.vitest') continue;
    symlinkSync(path.join(from, name), path.join(to, name));
  }
}
