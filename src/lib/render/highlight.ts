/**
 * Syntax highlighting for every code block of the archive: one shared Shiki highlighter, created lazily, with
 * languages loaded on first use, and a content-hash cache of the highlighted lines in memory and on disk so a
 * rebuild costs a file read per block instead of a tokenizer run (issue 3: ~5–7 ms per 60-line block cold).
 *
 * Output is built here from Shiki's tokens rather than taken from `codeToHtml`, for two reasons:
 * - safety: every piece of text goes through `escapeHtml`, so nothing in a transcript can become markup;
 * - CSP: colours are classes (`sl-<hex>` for the light theme, `sd-<hex>` for the dark one) that set CSS variables,
 *   not inline `style` attributes, so the site works under `style-src 'self'`. The site must include
 *   `highlightThemeCss` (below) in its global stylesheet; it picks the theme by `prefers-color-scheme`, overridden
 *   by `data-theme="light"|"dark"` on `<html>`.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import {
  bundledLanguagesInfo,
  type BundledLanguage,
  type BundledTheme,
  createHighlighter,
  createJavaScriptRegexEngine,
  createOnigurumaEngine,
  type Highlighter,
  type ThemedToken,
  type ThemedTokenWithVariants,
  type ThemeRegistrationRaw,
} from 'shiki';
import githubDark from 'shiki/themes/github-dark-default.mjs';
import githubLight from 'shiki/themes/github-light-default.mjs';
import shikiPackage from 'shiki/package.json' with { type: 'json' };
import { cacheFile, cacheRoot, readCacheFile, writeCacheFile } from './disk-cache.ts';
import { escapeHtml } from './escape.ts';

/**
 * Theme names, light then dark. Part of the cache key. GitHub's current Primer-based themes: every foreground colour
 * they give a token meets WCAG AA (4.5:1) on their own background, where the older `github-light`/`github-dark` put
 * orange `#e36209` on white (3.49:1) and comments `#6a737d` on `#24292e` (3.05:1) on thousands of tokens
 * (issue 22; test/render/highlight-contrast.test.ts checks every colour emitted).
 */
export const HIGHLIGHT_THEMES = { light: 'github-light-default', dark: 'github-dark-default' } as const;

/**
 * Bump when the HTML this module emits changes, so cached blocks from an older build are not reused.
 * The Shiki version is part of the tag too: a new grammar can tokenize differently.
 */
export const HIGHLIGHT_VERSION = `render-4;shiki-${(shikiPackage as { version: string }).version}`;

/** Options for `highlightCode`. */
export interface HighlightOptions {
  /** Lines highlighted at most; the rest is kept as escaped plain text below a divider. Default 60. */
  maxHighlightedLines?: number;
  /** Characters highlighted at most (counted over whole lines). Default 8,000. */
  maxHighlightedChars?: number;
}

/**
 * How much of a block is highlighted. Tokenizing costs about linearly in lines (measured here: 0.3–0.7 ms per
 * TypeScript line on a loaded 2-core machine, 25–40 ms per 60-line block), and a reader sees about one screen of a
 * block before scrolling past it; at 100k steps every highlighted line is paid for on the build's critical path.
 * 60 lines (one screen and a bit) keeps colour where a block is read; the rest stays on the page as plain text.
 */
export const DEFAULT_MAX_LINES = 60;
/** 60 lines of ~130 characters: a head of minified or very wide lines is cut at the same cost. */
export const DEFAULT_MAX_CHARS = 8_000;
/** Shiki leaves lines longer than this untokenized (minified JSON, base64): tokenizing them costs seconds. */
const MAX_TOKENIZED_LINE = 2_000;
/**
 * Shiki's default of 500 ms per line is hit on a busy machine while a grammar's regexes compile on first use: the
 * rest of the line then comes back as one plain token, and that result would be cached for good. Lines are capped
 * at MAX_TOKENIZED_LINE characters, so this limit only guards against a pathological grammar/input pair.
 */
const TOKENIZE_TIME_LIMIT_MS = 10_000;

// ---------------------------------------------------------------------------------------------------------------
// Languages

/** Canonical Shiki id for every bundled id and alias, lower-cased. */
const LANGUAGE_IDS: Map<string, string> = new Map();
for (const info of bundledLanguagesInfo) {
  LANGUAGE_IDS.set(info.id.toLowerCase(), info.id);
  for (const alias of info.aliases ?? []) LANGUAGE_IDS.set(alias.toLowerCase(), info.id);
}
/** Names people write in fences or tools that Shiki does not know by that name. */
const EXTRA_ALIASES: Record<string, string> = {
  shell: 'shellscript',
  console: 'shellscript',
  terminal: 'shellscript',
  'c++': 'cpp',
  h: 'c',
  hpp: 'cpp',
  golang: 'go',
  jsonl: 'json',
  ndjson: 'json',
  patch: 'diff',
  yml: 'yaml',
  htm: 'html',
  svg: 'xml',
  text: 'text',
  txt: 'text',
  plain: 'text',
  plaintext: 'text',
};

/** The Shiki language id for a fence name or alias (`sh` → `shellscript`); `'text'` when unknown. */
export function resolveLanguage(lang: string | undefined): string {
  const key = typeof lang === 'string' ? lang.trim().toLowerCase() : '';
  if (!key) return 'text';
  const extra = EXTRA_ALIASES[key];
  if (extra) return extra === 'text' ? 'text' : (LANGUAGE_IDS.get(extra) ?? 'text');
  return LANGUAGE_IDS.get(key) ?? 'text';
}

const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  sh: 'shellscript', bash: 'shellscript', zsh: 'shellscript', ksh: 'shellscript', fish: 'fish',
  ps1: 'powershell', psm1: 'powershell', psd1: 'powershell', bat: 'bat', cmd: 'bat',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'jsx',
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'tsx',
  json: 'json', jsonc: 'jsonc', json5: 'json5', jsonl: 'json', ndjson: 'json', map: 'json',
  py: 'python', pyi: 'python', pyw: 'python', ipynb: 'json',
  go: 'go', rs: 'rust', java: 'java', kt: 'kotlin', kts: 'kotlin', scala: 'scala', groovy: 'groovy', gradle: 'groovy',
  c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hh: 'cpp', hpp: 'cpp', hxx: 'cpp', m: 'objective-c', mm: 'objective-cpp',
  cs: 'csharp', fs: 'fsharp', swift: 'swift', dart: 'dart', rb: 'ruby', php: 'php', pl: 'perl', pm: 'perl', lua: 'lua',
  r: 'r', jl: 'julia', ex: 'elixir', exs: 'elixir', erl: 'erlang', hs: 'haskell', clj: 'clojure', zig: 'zig', nim: 'nim',
  css: 'css', scss: 'scss', sass: 'sass', less: 'less', styl: 'stylus',
  html: 'html', htm: 'html', xhtml: 'html', vue: 'vue', svelte: 'svelte', astro: 'astro',
  xml: 'xml', svg: 'xml', plist: 'xml', xsd: 'xml', xsl: 'xsl', csproj: 'xml',
  md: 'markdown', markdown: 'markdown', mdx: 'mdx', rst: 'rst', tex: 'latex', adoc: 'asciidoc',
  yaml: 'yaml', yml: 'yaml', toml: 'toml', ini: 'ini', cfg: 'ini', conf: 'ini', properties: 'properties', env: 'dotenv',
  sql: 'sql', graphql: 'graphql', gql: 'graphql', proto: 'proto', prisma: 'prisma',
  tf: 'hcl', hcl: 'hcl', nix: 'nix', cmake: 'cmake', mk: 'makefile', dockerfile: 'dockerfile',
  diff: 'diff', patch: 'diff', log: 'log', csv: 'csv', tsv: 'tsv',
};

const LANGUAGE_BY_FILE_NAME: Record<string, string> = {
  dockerfile: 'dockerfile', containerfile: 'dockerfile', makefile: 'makefile', gnumakefile: 'makefile',
  'cmakelists.txt': 'cmake', justfile: 'just', gemfile: 'ruby', rakefile: 'ruby', podfile: 'ruby', vagrantfile: 'ruby',
  '.bashrc': 'shellscript', '.bash_profile': 'shellscript', '.bash_aliases': 'shellscript', '.profile': 'shellscript',
  '.zshrc': 'shellscript', '.zprofile': 'shellscript', '.zshenv': 'shellscript', '.envrc': 'shellscript',
  '.gitconfig': 'ini', '.editorconfig': 'ini', '.npmrc': 'ini', '.gitignore': 'text', '.dockerignore': 'text',
  '.env': 'dotenv', 'go.mod': 'go', 'go.sum': 'text', 'cargo.lock': 'toml', 'pipfile': 'toml',
  'package-lock.json': 'json', 'tsconfig.json': 'jsonc', 'jsconfig.json': 'jsonc',
};

/**
 * The language for a file path, from well-known file names (`Dockerfile`, `Makefile`, `.bashrc`) and extensions;
 * `'text'` when unknown. Works for POSIX and Windows paths.
 */
export function languageForPath(filePath: string): string {
  const base = filePath.split(/[\\/]/).pop()?.toLowerCase() ?? '';
  const byName = LANGUAGE_BY_FILE_NAME[base];
  if (byName) return resolveLanguage(byName);
  if (base.startsWith('dockerfile.') || base.endsWith('.dockerfile')) return 'dockerfile';
  if (base.startsWith('.env.')) return resolveLanguage('dotenv');
  const dot = base.lastIndexOf('.');
  if (dot < 0 || dot === base.length - 1) return 'text';
  const byExtension = LANGUAGE_BY_EXTENSION[base.slice(dot + 1)];
  return byExtension ? resolveLanguage(byExtension) : 'text';
}

/** The language of a `run_command` command line. */
export function languageForCommand(): string {
  return 'shellscript';
}

// ---------------------------------------------------------------------------------------------------------------
// The shared highlighter

/**
 * Which regex engine Shiki uses. Measured here (scripts are in the render report): the JavaScript engine is
 * faster for our mix, and needs no WebAssembly. `ARCHIVE_SHIKI_ENGINE=oniguruma` switches back.
 */
function engineFromEnv(): 'javascript' | 'oniguruma' {
  return process.env.ARCHIVE_SHIKI_ENGINE === 'oniguruma' ? 'oniguruma' : 'javascript';
}

let highlighterPromise: Promise<Highlighter> | undefined;
const languageLoads = new Map<string, Promise<boolean>>();

function getHighlighter(): Promise<Highlighter> {
  highlighterPromise ??= createHighlighter({
    themes: [githubLight, githubDark, ...(DUAL ? [DUAL.theme] : [])] as ThemeRegistrationRaw[],
    langs: [],
    engine: engineFromEnv() === 'oniguruma' ? createOnigurumaEngine(import('shiki/wasm')) : createJavaScriptRegexEngine({ forgiving: true }),
  });
  return highlighterPromise;
}

/** Loads a language once; false when it cannot be loaded (the block is then shown as plain text). */
function ensureLanguage(highlighter: Highlighter, lang: string): Promise<boolean> {
  let load = languageLoads.get(lang);
  if (!load) {
    load = highlighter.loadLanguage(lang as Parameters<Highlighter['loadLanguage']>[0]).then(
      () => true,
      () => false,
    );
    languageLoads.set(lang, load);
  }
  return load;
}

// ---------------------------------------------------------------------------------------------------------------
// Colours as classes

/** `#ABC` → `abc` expanded to `aabbcc`; undefined for anything that is not a hex colour. */
function normalizeColor(color: string | undefined): string | undefined {
  if (!color) return undefined;
  const m = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(color.trim());
  if (!m?.[1]) return undefined;
  const hex = m[1].toLowerCase();
  return hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
}

interface ThemeColors {
  fg: string;
  bg: string;
  tokens: Set<string>;
}

function themeColors(theme: ThemeRegistrationRaw): ThemeColors {
  const colors = (theme.colors ?? {}) as Record<string, string>;
  const tokens = new Set<string>();
  for (const rule of theme.tokenColors ?? theme.settings ?? []) {
    // A rule that sets a background (`carriage-return`, `markup.ignored`) pairs a pale foreground with it; blocks here
    // never paint token backgrounds, so such a colour alone would be unreadable (`#eaeef2` on white): the token keeps
    // the block's foreground instead.
    if (rule.settings?.background) continue;
    const hex = normalizeColor(rule.settings?.foreground);
    if (hex) tokens.add(hex);
  }
  const fg = normalizeColor(colors['editor.foreground'] ?? colors.foreground) ?? (theme.type === 'dark' ? 'e1e4e8' : '24292e');
  const bg = normalizeColor(colors['editor.background']) ?? (theme.type === 'dark' ? '24292e' : 'ffffff');
  return { fg, bg, tokens };
}

const LIGHT = themeColors(githubLight as ThemeRegistrationRaw);
const DARK = themeColors(githubDark as ThemeRegistrationRaw);

/**
 * GitHub's light and dark themes are generated from one source: the same 49 rules with the same scopes and font
 * styles, only the colours differ. So one tokenizer pass with a merged theme, whose colour for each rule is a code
 * for the (light, dark) pair, gives both themes at once; `codeToTokensWithThemes` tokenizes once per theme and
 * cost 1.6× as much here. When the two themes ever stop lining up, `DUAL` is undefined and both passes are run.
 */
interface DualTheme {
  theme: ThemeRegistrationRaw;
  /** Code colour (normalized hex) → [light, dark] colours, normalized hex. */
  pairs: Map<string, [string, string]>;
}

function mergeThemes(light: ThemeRegistrationRaw, dark: ThemeRegistrationRaw): DualTheme | undefined {
  const lightRules = light.tokenColors ?? [];
  const darkRules = dark.tokenColors ?? [];
  if (lightRules.length !== darkRules.length) return undefined;
  const pairs = new Map<string, [string, string]>();
  const codes = new Map<string, string>();
  const codeFor = (l: string, d: string): string => {
    const pairKey = `${l}|${d}`;
    let code = codes.get(pairKey);
    if (!code) {
      code = (codes.size + 1).toString(16).padStart(6, '0');
      codes.set(pairKey, code);
      pairs.set(code, [l, d]);
    }
    return code;
  };
  const defaultCode = codeFor(LIGHT.fg, DARK.fg);
  const rules = [];
  for (const [i, l] of lightRules.entries()) {
    const d = darkRules[i];
    if (!d || JSON.stringify(l.scope) !== JSON.stringify(d.scope)) return undefined;
    if ((l.settings.fontStyle ?? '') !== (d.settings.fontStyle ?? '')) return undefined;
    const lf = normalizeColor(l.settings.foreground);
    const df = normalizeColor(d.settings.foreground);
    if (!lf !== !df) return undefined;
    const settings = { ...l.settings };
    if (lf && df) settings.foreground = `#${codeFor(lf, df)}`;
    rules.push({ ...l, settings });
  }
  return {
    pairs,
    theme: {
      name: 'agy-github-dual',
      type: 'light',
      colors: { 'editor.foreground': `#${defaultCode}`, 'editor.background': '#ffffff' },
      tokenColors: rules,
    } as unknown as ThemeRegistrationRaw,
  };
}

const DUAL = mergeThemes(githubLight as ThemeRegistrationRaw, githubDark as ThemeRegistrationRaw);

// Shiki's FontStyle bit flags.
const ITALIC = 1;
const BOLD = 2;
const UNDERLINE = 4;
const STRIKETHROUGH = 8;

function tokenClasses(token: ThemedTokenWithVariants): string {
  const classes: string[] = [];
  const light = token.variants.light;
  const dark = token.variants.dark;
  const lightColor = normalizeColor(light?.color);
  const darkColor = normalizeColor(dark?.color);
  if (lightColor && lightColor !== LIGHT.fg && LIGHT.tokens.has(lightColor)) classes.push(`sl-${lightColor}`);
  if (darkColor && darkColor !== DARK.fg && DARK.tokens.has(darkColor)) classes.push(`sd-${darkColor}`);
  const styles: [number | undefined, string][] = [
    [light?.fontStyle, 'sl'],
    [dark?.fontStyle, 'sd'],
  ];
  for (const [fontStyle, prefix] of styles) {
    if (!fontStyle || fontStyle < 0) continue;
    if (fontStyle & ITALIC) classes.push(`${prefix}-i`);
    if (fontStyle & BOLD) classes.push(`${prefix}-b`);
    if (fontStyle & UNDERLINE) classes.push(`${prefix}-u`);
    if (fontStyle & STRIKETHROUGH) classes.push(`${prefix}-s`);
  }
  return classes.join(' ');
}

function themeRules(theme: ThemeColors, prefix: 'sl' | 'sd'): string {
  const rules = [...theme.tokens].sort().map((hex) => `.code-block .${prefix}-${hex}{--${prefix}:#${hex}}`);
  rules.push(
    `.code-block .${prefix}-i{--${prefix}i:italic}`,
    `.code-block .${prefix}-b{--${prefix}b:bold}`,
    `.code-block .${prefix}-u{--${prefix}u:underline}`,
    `.code-block .${prefix}-s{--${prefix}s:line-through}`,
  );
  return rules.join('\n');
}

function themeSwitch(theme: ThemeColors, prefix: 'sl' | 'sd', scope = ''): string {
  return (
    `${scope}.code-block{--code-fg:#${theme.fg};--code-bg:#${theme.bg}}\n` +
    `${scope}.code-block .line>span{color:var(--${prefix},inherit);font-style:var(--${prefix}i,normal);` +
    `font-weight:var(--${prefix}b,inherit);text-decoration-line:var(--${prefix}u,) var(--${prefix}s,)}`
  );
}

/**
 * The CSS the site must put in its global stylesheet for highlighted blocks (and the diff tables, which use the
 * same token classes). Light by default; dark under `prefers-color-scheme: dark` unless `<html data-theme="light">`,
 * and always under `<html data-theme="dark">`. Fonts, padding and borders are left to the site.
 */
export const highlightThemeCss: string = [
  '/* agy-archive code highlighting: github-light / github-dark as classes (CSP-safe, no inline styles) */',
  '.code-block{color:var(--code-fg);background:var(--code-bg);overflow-x:auto}',
  '.code-block code{display:block;background:none;color:inherit}',
  '.code-block .line{display:inline}',
  '.code-block .line-number{opacity:.55;user-select:none}',
  '.code-block-divider{display:block;margin:.5em 0;padding:.15em .5em;font-style:italic;opacity:.75;border-block:1px dashed currentColor;user-select:none}',
  themeRules(LIGHT, 'sl'),
  themeRules(DARK, 'sd'),
  themeSwitch(LIGHT, 'sl'),
  `@media (prefers-color-scheme: dark){\n${themeSwitch(DARK, 'sd', ':root:not([data-theme="light"]) ')}\n}`,
  themeSwitch(DARK, 'sd', ':root[data-theme="dark"] '),
].join('\n');

// ---------------------------------------------------------------------------------------------------------------
// Caches

const memoryCache = new Map<string, string[]>();
let memoryChars = 0;
/** Rough bound on the memory cache: characters of highlighted HTML held. */
const MEMORY_CACHE_CHARS = 48 * 1024 * 1024;
const inFlight = new Map<string, Promise<string[]>>();

function rememberLines(key: string, lines: string[]): void {
  const size = lines.reduce((n, l) => n + l.length, 0);
  if (size > MEMORY_CACHE_CHARS / 4) return;
  const previous = memoryCache.get(key);
  if (previous) {
    memoryCache.delete(key);
    memoryChars -= previous.reduce((n, l) => n + l.length, 0);
  }
  memoryCache.set(key, lines);
  memoryChars += size;
  for (const [oldKey, oldLines] of memoryCache) {
    if (memoryChars <= MEMORY_CACHE_CHARS) break;
    memoryCache.delete(oldKey);
    memoryChars -= oldLines.reduce((n, l) => n + l.length, 0);
  }
}

/** Empties the in-memory cache (tests use it to prove the disk cache is read). */
export function clearHighlightMemoryCache(): void {
  memoryCache.clear();
  memoryChars = 0;
}

/** The on-disk cache folder of highlighted blocks: `$ARCHIVE_CACHE_DIR/highlight` (see `disk-cache.ts`). */
export function highlightCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cacheRoot(env), 'highlight');
}

/** The cache file of one highlighted block. */
export function highlightCacheFile(key: string, env: NodeJS.ProcessEnv = process.env): string {
  return cacheFile('highlight', key, 'json', env);
}

function cacheKey(lang: string, code: string): string {
  return createHash('sha256')
    .update(`${HIGHLIGHT_VERSION}\0${HIGHLIGHT_THEMES.light}\0${HIGHLIGHT_THEMES.dark}\0${engineFromEnv()}\0${MAX_TOKENIZED_LINE}\0${TOKENIZE_TIME_LIMIT_MS}\0${lang}\0`)
    .update(code)
    .digest('hex');
}

async function readDiskCache(file: string): Promise<string[] | undefined> {
  const text = await readCacheFile(file);
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed) && parsed.every((l) => typeof l === 'string')) return parsed as string[];
  } catch {
    // A torn cache file is a miss; the block is highlighted again and the file rewritten.
  }
  return undefined;
}

function writeDiskCache(file: string, lines: string[]): Promise<void> {
  return writeCacheFile(file, JSON.stringify(lines));
}

// ---------------------------------------------------------------------------------------------------------------
// Highlighting

/** Splits text into lines the way the pages show them: CRLF and CR are line breaks, one final newline is dropped. */
export function splitLines(code: string): string[] {
  const lines = code.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function splitDualToken(token: ThemedToken, dual: DualTheme): ThemedTokenWithVariants {
  const pair = dual.pairs.get(normalizeColor(token.color) ?? '');
  return {
    content: token.content,
    offset: token.offset,
    variants: {
      light: { color: pair?.[0] ? `#${pair[0]}` : undefined, fontStyle: token.fontStyle },
      dark: { color: pair?.[1] ? `#${pair[1]}` : undefined, fontStyle: token.fontStyle },
    },
  };
}

let forceTwoPasses = false;
/** Tests only: tokenize once per theme (Shiki's own dual-theme path) to check the merged theme against it. */
export function setTwoPassTokenizing(on: boolean): void {
  forceTwoPasses = on;
}

async function tokenizeLines(lines: string[], lang: string): Promise<string[]> {
  const highlighter = await getHighlighter();
  if (!(await ensureLanguage(highlighter, lang))) return lines.map(escapeHtml);
  const text = lines.join('\n');
  const tokens: ThemedTokenWithVariants[][] = DUAL && !forceTwoPasses
    ? highlighter
        .codeToTokensBase(text, { lang: lang as BundledLanguage, theme: DUAL.theme.name as BundledTheme, tokenizeMaxLineLength: MAX_TOKENIZED_LINE, tokenizeTimeLimit: TOKENIZE_TIME_LIMIT_MS })
        .map((line) => line.map((token) => splitDualToken(token, DUAL)))
    : highlighter.codeToTokensWithThemes(text, {
        lang: lang as BundledLanguage,
        themes: { light: HIGHLIGHT_THEMES.light, dark: HIGHLIGHT_THEMES.dark },
        tokenizeMaxLineLength: MAX_TOKENIZED_LINE,
        tokenizeTimeLimit: TOKENIZE_TIME_LIMIT_MS,
      });
  const out = lines.map(escapeHtml);
  // Shiki splits on the same '\n', so token line i is text line i; a line Shiki did not return stays plain.
  tokens.forEach((lineTokens, i) => {
    if (i >= lines.length) return;
    let html = '';
    for (const token of lineTokens) {
      const classes = tokenClasses(token);
      const text = escapeHtml(token.content);
      html += classes ? `<span class="${classes}">${text}</span>` : text;
    }
    // Never trust the token stream to have covered the line: if its text differs, show the line plain.
    if (lineTokens.map((t) => t.content).join('') === lines[i]) out[i] = html;
  });
  return out;
}

/** The cache key `highlightLines` uses for `code` in `lang`; undefined for plain text (never tokenized or cached). */
export function highlightCacheKey(code: string, lang: string): { key: string; language: string; text: string } | undefined {
  const language = resolveLanguage(lang);
  if (language === 'text') return undefined;
  const text = splitLines(code).join('\n');
  return { key: cacheKey(language, text), language, text };
}

/** True when `key` is in the memory cache or being highlighted now (a pre-highlighter then skips it). */
export function isHighlightKnown(key: string): boolean {
  return memoryCache.has(key) || inFlight.has(key);
}

/**
 * Lets another thread highlight the block `key` (from `highlightCacheKey`): until `lines` settles, a page asking
 * for it waits for that result instead of tokenizing it again. If `lines` rejects (a worker died) the block is
 * highlighted here, so a failing worker costs time, never output.
 */
export function adoptHighlight(key: string, language: string, text: string, lines: Promise<string[]>): void {
  if (isHighlightKnown(key)) return;
  const pending = lines
    .then((result) => (result.length === splitLines(text).length ? result : Promise.reject(new Error('line count'))))
    .catch(() => tokenizeLines(splitLines(text), language))
    .then((result) => {
      rememberLines(key, result);
      return result;
    })
    .finally(() => inFlight.delete(key));
  inFlight.set(key, pending);
}

/**
 * The highlighted inner HTML of each line of `code` (no wrapper), from the cache when possible. Every line is
 * highlighted: callers bound the input (see `highlightCode`). Text is always escaped; unknown languages are plain.
 */
export async function highlightLines(code: string, lang: string): Promise<string[]> {
  const lines = splitLines(code);
  const language = resolveLanguage(lang);
  if (language === 'text') return lines.map(escapeHtml);
  const text = lines.join('\n');
  const key = cacheKey(language, text);
  const cached = memoryCache.get(key);
  if (cached) {
    memoryCache.delete(key);
    memoryCache.set(key, cached);
    return cached;
  }
  let pending = inFlight.get(key);
  if (!pending) {
    pending = (async () => {
      const file = highlightCacheFile(key);
      const fromDisk = await readDiskCache(file);
      if (fromDisk && fromDisk.length === lines.length) return fromDisk;
      const highlighted = await tokenizeLines(lines, language);
      await writeDiskCache(file, highlighted);
      return highlighted;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  const result = await pending;
  rememberLines(key, result);
  return result;
}

function wrapLines(lines: string[]): string {
  return lines.map((l) => `<span class="line">${l}</span>`).join('\n');
}

/** The part of a block `highlightCode` tokenizes: its language, its lines, and how many of them lead as the head. */
export interface HighlightHead {
  language: string;
  lines: string[];
  headCount: number;
  /** The head's text, exactly what `highlightLines` gets (and what its cache is keyed by). */
  headText: string;
}

/** Splits `code` into the highlighted head and the plain rest, by the limits `highlightCode` applies. */
export function highlightHead(code: string, lang: string, options: HighlightOptions = {}): HighlightHead {
  const maxLines = Math.max(0, options.maxHighlightedLines ?? DEFAULT_MAX_LINES);
  const maxChars = Math.max(0, options.maxHighlightedChars ?? DEFAULT_MAX_CHARS);
  const language = resolveLanguage(lang);
  const lines = splitLines(code);
  let headCount = 0;
  let chars = 0;
  while (headCount < lines.length && headCount < maxLines) {
    chars += (lines[headCount]?.length ?? 0) + 1;
    if (chars > maxChars) break;
    headCount++;
  }
  if (language === 'text') headCount = lines.length;
  return { language, lines, headCount, headText: lines.slice(0, headCount).join('\n') };
}

/** The opening tag of a code block; `partial` marks one whose tail is not highlighted. */
export function codeBlockOpen(language: string, partial: boolean): string {
  return `<pre class="code-block${partial ? ' code-block--partial' : ''}" data-lang="${escapeHtml(language)}">`;
}

/** The divider between a block's highlighted head and the `rest` lines that follow as plain text. */
export function notHighlightedDivider(rest: number): string {
  return (
    `<span class="code-block-divider" role="separator" data-pagefind-ignore>` +
    `— ${rest.toLocaleString('en-US')} more line${rest === 1 ? '' : 's'}, not highlighted —</span>`
  );
}

/**
 * A `<pre class="code-block">` of `code` highlighted as `lang` (any fence name or alias; unknown → plain text).
 * Long input: the first `maxHighlightedLines` lines (and at most `maxHighlightedChars` characters) are highlighted,
 * the rest follows as escaped plain text after a divider "— N more lines, not highlighted —". No text is dropped.
 */
export async function highlightCode(code: string, lang: string, options: HighlightOptions = {}): Promise<string> {
  const { language, lines, headCount, headText } = highlightHead(code, lang, options);
  const head = await highlightLines(headText, language);
  const open = codeBlockOpen(language, headCount < lines.length);
  if (headCount >= lines.length) return `${open}<code>${wrapLines(head)}</code></pre>`;
  const rest = lines.slice(headCount);
  const headHtml = headCount > 0 ? `<code>${wrapLines(head)}</code>` : '';
  return `${open}${headHtml}${notHighlightedDivider(rest.length)}<code class="code-block-plain">${wrapLines(rest.map(escapeHtml))}</code></pre>`;
}

/**
 * `value` pretty-printed as JSON (2 spaces) and highlighted. Never throws: cycles become `"[Circular]"`, BigInt a
 * string like `"12n"`, `undefined` and functions are dropped inside objects as `JSON.stringify` does.
 */
export function highlightJson(value: unknown, options?: HighlightOptions): Promise<string> {
  return highlightCode(stringifyJson(value), 'json', options);
}

/** `JSON.stringify(value, null, 2)` that cannot throw (cycles, BigInt, throwing getters/toJSON). */
export function stringifyJson(value: unknown): string {
  const ancestors: object[] = [];
  try {
    const text = JSON.stringify(
      value,
      function (this: unknown, _key: string, v: unknown) {
        if (typeof v === 'bigint') return `${v}n`;
        if (typeof v !== 'object' || v === null) return v;
        // `this` is the object holding v: unwind the ancestor stack to it before checking for a cycle.
        while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
        if (ancestors.includes(v)) return '[Circular]';
        ancestors.push(v);
        return v;
      },
      2,
    );
    return text ?? String(value);
  } catch (error) {
    return `[unprintable value: ${error instanceof Error ? error.message : String(error)}]`;
  }
}
