/**
 * The render helpers the pages share. Each returns an HTML string that is safe by construction (every input
 * string escaped or sanitised), for `set:html`. The site's global stylesheet must include `highlightThemeCss`
 * and `diffCss`.
 */
export { escapeHtml } from './escape.ts';
export {
  highlightCode,
  highlightJson,
  highlightLines,
  highlightThemeCss,
  languageForCommand,
  languageForPath,
  resolveLanguage,
  stringifyJson,
  type HighlightOptions,
} from './highlight.ts';
export { renderMarkdown } from './markdown.ts';
export { diffCss, diffRows, renderDiff, renderTextDiff, type DiffRow, type DiffRowsOptions, type RenderDiffOptions } from './diff.ts';
export {
  argBoolean,
  argNumber,
  argString,
  describeToolCall,
  replacementChunks,
  type ReplacementChunk,
  type ToolCallDescription,
  type ToolView,
} from './tool-args.ts';
