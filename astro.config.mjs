// Integrations and build settings only; no logic. Env: ARCHIVE_BASE (sub-path), ARCHIVE_OUT_DIR (default dist),
// ARCHIVE_CACHE_DIR (default node_modules/.cache/agy-archive; Astro's cache lives in its `astro/` folder),
// ARCHIVE_RENDER_PART (set by scripts/build.ts for each render process of a split build), ARCHIVE_CONTENT_CHUNKED
// (`1`: Astro's content store in chunks).
import path from 'node:path';
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { pagefind } from './src/integrations/pagefind.ts';

const cacheRoot = path.resolve(process.env.ARCHIVE_CACHE_DIR || 'node_modules/.cache/agy-archive');
// Each render process of a split build (scripts/build.ts) keeps its own content store and Vite cache.
const renderPart = Number(process.env.ARCHIVE_RENDER_PART) || 0;

export default defineConfig({
  base: process.env.ARCHIVE_BASE || '/',
  outDir: process.env.ARCHIVE_OUT_DIR || 'dist',
  cacheDir: path.join(cacheRoot, renderPart > 0 ? `astro-part-${renderPart}` : 'astro'),
  trailingSlash: 'ignore',
  build: {
    format: 'directory',
    // A strict CSP (style-src 'self') blocks inline <style>: every stylesheet is a file.
    inlineStylesheets: 'never',
    // Pages render a few at a time: while one waits for its file write or its highlighted code, another renders.
    concurrency: 4,
  },
  vite: {
    // Never inline small scripts (script-src 'self' blocks inline <script>).
    // Astro empties its out dir first unless told not to: the build's staging folder is new and carries the mark
    // that says the build made it (src/lib/build/folders.ts), which must stay until the site is sealed.
    build: { assetsInlineLimit: 0, emptyOutDir: false },
  },
  devToolbar: { enabled: false },
  // The content store in ~10 MB chunks rather than one JSON file, on request only. One file holds a few hundred MB
  // at most: Astro's virtual module takes it as one string, and V8 stops at ~512 MiB. It held every timeline row
  // until a process kept only the rows of the sessions it renders (524 MB at 1M steps then; the summaries alone are
  // ~2 % of the archive's bytes). Off by default: Astro 7.3 cuts chunks by encoding the store one character at a
  // time, 18 minutes for those 524 MB.
  experimental: process.env.ARCHIVE_CONTENT_CHUNKED === '1' ? { collectionStorage: 'chunked' } : {},
  integrations: [mdx(), pagefind()],
});
