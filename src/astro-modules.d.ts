/**
 * Plain `tsc` (`npm run check`) reads no `.astro` file; the export route renders a component to a string with the
 * container API (`pages/sessions/[id]/export.html.ts`) and imports it as what Astro compiles it to.
 */
declare module '*.astro' {
  import type { AstroComponentFactory } from 'astro/runtime/server/index.js';
  const component: AstroComponentFactory;
  export default component;
}
