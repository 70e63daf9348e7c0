/**
 * The content of a tool-result step (RUN_COMMAND, VIEW_FILE, CODE_ACTION, …): what the tool returned, written by a
 * program, not Markdown written by a person. Rendering it as Markdown mangled it (a `# comment` line in a viewed
 * Python file became a heading, `*` runs became emphasis) and was the largest Markdown cost of a build (a 1,200-line
 * build log parsed as prose). So it is shown as preformatted text; a viewed file's lines are highlighted in the
 * file's language (a bounded head, as every code block). Every character of the text stays on the page.
 */
import { escapeHtml } from './escape.ts';
import { codeBlockOpen, highlightHead, highlightLines, languageForPath, notHighlightedDivider } from './highlight.ts';

/**
 * Step types whose `content` is a tool's result (SURVEY.md's (source, type) table): shown as text, never Markdown.
 * PLANNER_RESPONSE, USER_INPUT and the system messages stay Markdown: people and the model write those.
 */
export const TOOL_RESULT_TYPES: ReadonlySet<string> = new Set([
  'RUN_COMMAND',
  'VIEW_FILE',
  'CODE_ACTION',
  'LIST_DIRECTORY',
  'GREP_SEARCH',
  'FIND',
  'FIND_BY_NAME',
  'CODE_SEARCH',
  'MCP_TOOL',
  'COMMAND_STATUS',
]);

/** True when a step of `type` carries a tool's result as its content. */
export function isToolResultType(type: string): boolean {
  return TOOL_RESULT_TYPES.has(type);
}

/** A view_file result split into its parts: the lines before the numbered file lines, those lines, the rest. */
export interface ViewedFile {
  /** From the `File Path: \`file://…\`` line; empty when absent. */
  path: string;
  before: string[];
  /** `[number prefix as written ("12: "), code]` for each numbered line. */
  numbered: Array<[string, string]>;
  after: string[];
}

const NUMBERED = /^(\d+: ?)(.*)$/;

/**
 * Parses a VIEW_FILE result ("File Path: `file://…`", a few header lines, then `N: <line>` for each line of the
 * file, then a closing sentence). Undefined when the text has no numbered lines (an error, a directory).
 */
export function parseViewedFile(text: string): ViewedFile | undefined {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const first = lines.findIndex((l) => NUMBERED.test(l));
  if (first < 0) return undefined;
  let end = first;
  while (end < lines.length && NUMBERED.test(lines[end] ?? '')) end++;
  const path = /File Path: `(?:file:\/\/)?([^`]*)`/.exec(lines.slice(0, first).join('\n'))?.[1] ?? '';
  return {
    path,
    before: lines.slice(0, first),
    numbered: lines.slice(first, end).map((l) => {
      const m = NUMBERED.exec(l) as RegExpExecArray;
      return [m[1] ?? '', m[2] ?? ''];
    }),
    after: lines.slice(end),
  };
}

/** The code of a viewed file as `highlightLines` gets it (the pre-highlighter asks for exactly this). */
export function viewedFileCode(file: ViewedFile): { code: string; lang: string } {
  return { code: file.numbered.map(([, code]) => code).join('\n'), lang: languageForPath(file.path) };
}

/**
 * A VIEW_FILE result as HTML: the header lines as text (searchable), then the file's lines in a code block with
 * their numbers as written, the first lines highlighted in the file's language, the rest plain (a divider says
 * where), then the closing lines. The code block is left out of the search index (`data-pagefind-ignore`).
 * Undefined when the text is not a numbered file view; show it as plain text then.
 */
export async function renderViewedFile(text: string): Promise<string | undefined> {
  const file = parseViewedFile(text);
  if (!file) return undefined;
  const { code, lang } = viewedFileCode(file);
  const { language, headCount, headText } = highlightHead(code, lang);
  const head = headCount > 0 ? await highlightLines(headText, language) : [];
  const line = (i: number): string => {
    const [prefix, source] = file.numbered[i] ?? ['', ''];
    return `<span class="line"><span class="line-number">${escapeHtml(prefix)}</span>${i < headCount ? (head[i] ?? escapeHtml(source)) : escapeHtml(source)}</span>`;
  };
  const all = file.numbered.map((_, i) => line(i));
  const rest = all.length - headCount;
  const body =
    rest > 0
      ? `<code>${all.slice(0, headCount).join('\n')}</code>${notHighlightedDivider(rest)}` +
        `<code class="code-block-plain">${all.slice(headCount).join('\n')}</code>`
      : `<code>${all.join('\n')}</code>`;
  const plain = (lines: string[]): string => {
    const t = lines.join('\n').replace(/^\n+|\n+$/g, '');
    return t ? `<pre class="tool-result-text">${escapeHtml(t)}</pre>` : '';
  };
  return (
    plain(file.before) +
    `<div class="code" data-pagefind-ignore>${codeBlockOpen(language, rest > 0)}${body}</pre></div>` +
    plain(file.after)
  );
}
