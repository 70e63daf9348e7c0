/** Reading a built site in tests: list pages, read them, resolve internal links to files. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every `.html` file under `dir`, relative, `/`-separated. */
export function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (r !== 'pagefind' && r !== '_astro') walk(r);
      } else if (e.name.endsWith('.html')) out.push(r);
    }
  };
  walk('');
  return out.sort();
}

/** The HTML of the page at URL path `p` (e.g. `/sessions/x/`), or undefined. */
export function readPage(dir: string, p: string): string | undefined {
  const file = fileForUrl(dir, p);
  return file ? readFileSync(file, 'utf8') : undefined;
}

/** The file a static server would answer for URL path `p`, or undefined. */
export function fileForUrl(dir: string, p: string): string | undefined {
  const clean = decodeURIComponent(p.split(/[?#]/, 1)[0] ?? '/');
  const abs = path.join(dir, clean);
  if (existsSync(abs) && statSync(abs).isFile()) return abs;
  const index = path.join(abs, 'index.html');
  return existsSync(index) ? index : undefined;
}

/** Every `href`/`src` value in `html` (entities for `&` decoded). */
export function linksIn(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));
}

/** Text of `html` with tags removed and basic entities decoded (for "the user sees X" checks). */
export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&#x27;', "'")
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ');
}
