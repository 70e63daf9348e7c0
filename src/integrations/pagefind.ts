/**
 * The search step: after `astro build`, index the built pages with Pagefind's Node API and write the bundle to
 * `<outDir>/pagefind/`. Only elements marked `data-pagefind-body` are indexed (session and step pages); big code,
 * diff and raw-record blocks carry `data-pagefind-ignore` to keep the index (and its memory) bounded.
 * Every `errors` array is checked, and the service is always closed.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import * as pagefindApi from 'pagefind';

/** Fail with a message and a hint when Pagefind reports errors. */
function check(step: string, errors: string[]): void {
  if (errors.length > 0) {
    throw new Error(
      `Pagefind ${step} failed: ${errors.join('; ')}. Hint: check that the pagefind package and its platform ` +
        'binary (@pagefind/<platform>) are installed (`npm ci`).',
    );
  }
}

/** The Astro integration that runs Pagefind at `astro:build:done`. */
export function pagefind(): AstroIntegration {
  return {
    name: 'agy-archive-pagefind',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const outDir = fileURLToPath(dir);
        const started = Date.now();
        try {
          const created = await pagefindApi.createIndex({ forceLanguage: 'en' });
          check('createIndex', created.errors);
          const index = created.index;
          if (!index) throw new Error('Pagefind createIndex returned no index.');
          const added = await index.addDirectory({ path: outDir });
          check('addDirectory', added.errors);
          const written = await index.writeFiles({ outputPath: path.join(outDir, 'pagefind') });
          check('writeFiles', written.errors);
          logger.info(`search index: ${added.page_count} pages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        } finally {
          await pagefindApi.close();
        }
      },
    },
  };
}
