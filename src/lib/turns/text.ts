/**
 * The words inside Antigravity's wrappers: the user's request inside `<USER_REQUEST>`, a system message inside
 * `<SYSTEM_MESSAGE>` after its fixed preamble, a checkpoint's summary after `{{ CHECKPOINT N }}` and its fixed
 * sentence. Timeline rows and turns show these, not the wrappers (the literal `<USER_REQUEST>` was the first line
 * of every real USER_INPUT row).
 */

/** A request block; one whose closing tag is missing runs to the end (overview.txt cuts long requests there). */
const REQUEST = /<USER_REQUEST>\s*([\s\S]*?)\s*(?:<\/USER_REQUEST>|$)/g;
const MENTION = /@\[([^\]]+)\]/g;
const METADATA = /<ADDITIONAL_METADATA>[\s\S]*?(?:<\/ADDITIONAL_METADATA>|$)/g;

/** The user's own words of a USER_INPUT (every `<USER_REQUEST>` block joined; the content without metadata when there is none). */
export function requestText(content: string | undefined): string {
  if (!content) return '';
  const blocks = [...content.matchAll(REQUEST)].map((m) => m[1] ?? '');
  const words = blocks.join('\n\n').trim();
  if (words !== '') return words;
  // An empty request still says something around it: "Comments on artifact URI: … The user has approved this
  // document." (0043a8fc) is how an approval arrives.
  return content.replace(REQUEST, '').replace(METADATA, '').trim();
}

/** `@[…]` mentions in `text`, unique, in order. */
export function mentions(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION)].map((m) => m[1] ?? '').filter((m) => m !== ''))];
}

/** The body of a `<SYSTEM_MESSAGE>` / `<EPHEMERAL_MESSAGE>` wrapper, without the preamble sentence before it. */
export function wrappedBody(content: string | undefined, tag: string): string {
  if (!content) return '';
  const open = content.lastIndexOf(`<${tag}>`);
  if (open < 0) return content.trim();
  const rest = content.slice(open + tag.length + 2);
  const close = rest.lastIndexOf(`</${tag}>`);
  return (close >= 0 ? rest.slice(0, close) : rest).trim();
}

const CHECKPOINT_HEAD = /^\s*\{\{\s*CHECKPOINT\s+(\d+)\s*\}\}[ \t]*\r?\n?/;
const CHECKPOINT_NOTE = /^\s*\*\*The earlier parts of this conversation have been truncated[^\n]*?\*\*[ \t]*\r?\n?/;

/** A CHECKPOINT's number and summary, without the marker and the fixed "truncated" sentence. */
export function checkpointText(content: string | undefined): { number?: number; summary: string } {
  if (!content) return { summary: '' };
  const head = CHECKPOINT_HEAD.exec(content);
  let rest = head ? content.slice(head[0].length) : content;
  rest = rest.replace(CHECKPOINT_NOTE, '');
  return head ? { number: Number(head[1]), summary: rest.trim() } : { summary: rest.trim() };
}

/** First line with words in it: headings' `#`, list markers and emphasis stars removed. */
export function meaningfulLine(text: string, max = 160): string {
  for (const raw of text.split(/\r?\n/)) {
    const line = raw
      .replace(/^\s*#{1,6}\s+/, '')
      .replace(/^\s*(?:[-*+]|\d+\.)\s+/, '')
      .replace(/\*\*/g, '')
      .replace(/^<\/?[a-z_]+>$/i, '')
      .trim();
    if (line === '' || /^[-=*_`~]{3,}$/.test(line)) continue;
    return line.length > max ? `${line.slice(0, max - 1)}…` : line;
  }
  return '';
}

/** `Task id "…/task-132" finished with result:` in a system message or message: the task and what follows. */
export function taskFinished(text: string | undefined): { taskId: string; result: string } | undefined {
  if (!text) return undefined;
  const m = /Task id "([^"]+)" finished(?: with result:)?/.exec(text);
  if (!m?.[1]) return undefined;
  return { taskId: m[1], result: text.slice((m.index ?? 0) + m[0].length) };
}
