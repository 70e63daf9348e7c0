/**
 * What of a text is rendered as Markdown, block by block. The Markdown parser (micromark) resolves emphasis by
 * walking back from every closing `*`/`_` run over the runs before it, so one paragraph of `*_` repeated costs the
 * square of its length: one model reply of 40 KB took 28–41 s to build, 80 KB 69–145 s (issue 27). Nesting costs
 * too: 2,000 `>` took 4 s and 4,000 overflowed the stack of the page's render, which stopped the whole build.
 *
 * So the text is cut into blocks at blank lines (a fenced code block with its blank lines is one block, as the
 * scanner below sees fences), and a block is rendered as Markdown only within three bounds: its length, its marks
 * (runs of the characters whose constructs the parser resolves against each other: `*`, `~`, a `_` not inside a
 * word, a backtick run, `[`, `]`, `<`) and how deeply its lines nest (`>` and list markers at a line's start, and
 * its indentation). Any paragraph the parser sees lies inside one block (it cannot cross a blank line), so its work
 * is bounded by the block's marks times its length, and the work on a text of N characters by `MAX_BLOCK_MARKS`
 * times N: linear. A block past a bound is shown as written, preformatted, with a note saying why.
 *
 * The bounds leave every real text as Markdown: the densest block of a model reply, thinking or artifact in
 * real-brains and real-eras holds 145 marks in 4,909 characters, the longest is 6,520 characters, and none nests
 * past 4 levels. Pure.
 */

/** Characters of one block rendered as Markdown. */
export const MAX_BLOCK_CHARS = 64 * 1024;
/** Marks (see above) of one block rendered as Markdown. */
export const MAX_BLOCK_MARKS = 500;
/** `>` and list markers at the start of one line of a block rendered as Markdown. */
export const MAX_LINE_CONTAINERS = 32;
/** Columns of indentation of one line of a block rendered as Markdown (64 list levels of two spaces). */
export const MAX_LINE_INDENT = 128;

/** One part of a text: Markdown to render, or a block shown as written with the reason. */
export type MarkdownPart = { markdown: true; text: string } | { markdown: false; text: string; why: string };

/** A run of `*`, `~`, `_` or backticks, or one `[`, `]` or `<` (a `_` run between letters or digits is not counted). */
const MARK = /\*+|~+|`+|_+|[[\]<]/g;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** A fence opening or closing line as CommonMark reads one at the top level: up to 3 spaces, then 3+ ` or ~. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * The marks of `text`: runs of the characters whose constructs the parser resolves against each other. A `_` run
 * between letters or digits opens and closes nothing (CommonMark's intraword rule), so `snake_case` adds none.
 */
export function markCount(text: string): number {
  let n = 0;
  MARK.lastIndex = 0;
  for (let m = MARK.exec(text); m !== null; m = MARK.exec(text)) {
    if (m[0][0] === '_' && WORD_CHAR.test(text[m.index - 1] ?? '') && WORD_CHAR.test(text[m.index + m[0].length] ?? '')) continue;
    n++;
  }
  return n;
}

/** Containers a line opens at its start (`>`, `-`, `*`, `+`, `1.`, `1)`), and its indentation in columns. */
export function lineNesting(line: string): { containers: number; indent: number } {
  let indent = 0;
  let i = 0;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) indent += line[i++] === '\t' ? 4 - (indent % 4) : 1;
  let containers = 0;
  const marker = /\s*(?:>|[-*+](?=\s|$)|\d{1,9}[.)](?=\s|$))/y;
  marker.lastIndex = i;
  while (containers <= MAX_LINE_CONTAINERS && marker.exec(line) !== null) containers++;
  return { containers, indent };
}

/** The text cut at blank lines into blocks, each with the blank lines after it (joined, they are the text). */
export function markdownBlocks(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  const blocks: string[] = [];
  let block = '';
  let fence: { char: string; length: number } | undefined;
  let blankRun = false;
  for (const line of lines) {
    const body = line.replace(/\r?\n$/, '');
    const blank = body.trim() === '';
    if (fence) {
      const m = FENCE.exec(body);
      if (m && m[1]![0] === fence.char && m[1]!.length >= fence.length && m[2]!.trim() === '') fence = undefined;
      block += line;
      continue;
    }
    if (blank) {
      block += line;
      blankRun = true;
      continue;
    }
    if (blankRun && block !== '') {
      blocks.push(block);
      block = '';
    }
    blankRun = false;
    const m = FENCE.exec(body);
    // A backtick fence's info string holds no backtick (CommonMark); `~~~` takes any.
    if (m && !(m[1]![0] === '`' && m[2]!.includes('`'))) fence = { char: m[1]![0]!, length: m[1]!.length };
    block += line;
  }
  if (block !== '') blocks.push(block);
  return blocks;
}

/** Why a block is shown as written, or undefined when it is rendered as Markdown. */
export function blockPastBounds(block: string): string | undefined {
  if (block.length > MAX_BLOCK_CHARS) {
    return `${block.length.toLocaleString('en-US')} characters, past the ${MAX_BLOCK_CHARS.toLocaleString('en-US')} one block renders as Markdown`;
  }
  const marks = markCount(block);
  if (marks > MAX_BLOCK_MARKS) {
    return `${marks.toLocaleString('en-US')} Markdown marks (*, _, ~, \`, [, ], <), past the ${MAX_BLOCK_MARKS.toLocaleString('en-US')} one block renders as Markdown`;
  }
  for (const line of block.split('\n')) {
    const { containers, indent } = lineNesting(line);
    if (containers > MAX_LINE_CONTAINERS) return `a line nested more than ${MAX_LINE_CONTAINERS} quotes or lists deep`;
    if (indent > MAX_LINE_INDENT) return `a line indented ${indent.toLocaleString('en-US')} columns, past the ${MAX_LINE_INDENT} one block renders as Markdown`;
  }
  return undefined;
}

/**
 * `text` as parts: the blocks within bounds joined into Markdown parts (so lists, fences and references across
 * them render as one document), each block past a bound a part of its own, shown as written. A text within every
 * bound is one Markdown part, the text itself.
 */
export function markdownParts(text: string): MarkdownPart[] {
  const parts: MarkdownPart[] = [];
  let markdown = '';
  for (const block of markdownBlocks(text)) {
    const why = blockPastBounds(block);
    if (why === undefined) {
      markdown += block;
      continue;
    }
    if (markdown !== '') parts.push({ markdown: true, text: markdown });
    markdown = '';
    parts.push({ markdown: false, text: block, why });
  }
  if (markdown !== '' || parts.length === 0) parts.push({ markdown: true, text: markdown });
  return parts;
}
