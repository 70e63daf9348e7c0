/**
 * `/theme-init.js`: the tiny pre-paint theme script, served as a file (Astro's processed scripts are modules, which
 * run after parsing: too late to avoid a flash of the wrong theme). The source lives in `src/scripts/`.
 */
import source from '../scripts/theme-init.js?raw';

export function GET(): Response {
  return new Response(source, { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
}
