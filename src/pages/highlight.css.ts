/**
 * `/highlight.css`: the render helpers' CSS (syntax colours for light and dark, diff tables) as a file, so no inline
 * style is needed under the CSP.
 */
import type { APIRoute } from 'astro';
import { diffCss } from '../lib/render/diff.ts';
import { highlightThemeCss } from '../lib/render/highlight.ts';

export const GET: APIRoute = () =>
  new Response(`${highlightThemeCss}\n${diffCss}\n`, { headers: { 'Content-Type': 'text/css; charset=utf-8' } });
