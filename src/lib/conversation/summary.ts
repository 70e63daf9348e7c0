/**
 * What a session's header and home card say about it, from its turns: the title Antigravity itself gave the work
 * where the data has one, how the session ended, and where its conversation pages start (the counts of files
 * changed and the failures are the turn builder's and `turns/failures.ts`, summed in `summarise.ts`). Pure, no `astro:*` import; the loader stores the result in the lean summary.
 */
import type { Artifact, Session } from '../brain/types.ts';
import type { SessionTurns, Turn } from '../turns/types.ts';
import { conversationPageStarts, firstPageFixedWeight, type PageStart } from './pages.ts';

/** Longest title kept (the home card and `<title>`). */
export const TITLE_MAX = 90;
/** Longest "how it ended" line kept. */
export const ENDING_MAX = 200;

/** What the summary of a session takes from its conversation. */
export interface ConversationSummary {
  title: string;
  /** How it ended: the last model message's first line, else the walkthrough's summary. */
  ending?: string;
  /** Where each conversation page starts (one entry per page; `[{turn: 0, item: 0}]` for one page). */
  pages: PageStart[];
}

/** Requests that only resume work ("Continue", "go on") say nothing about what the session is for. */
const RESUME = /^(continue|go on|go ahead|proceed|yes|ok(ay)?|retry|try again|keep going|continue please|please continue|next|lanjut|继续|계속)[.!]*$/i;

/** A first line that is pasted code, not words (real session 0043a8fc opens with `import React, { … } from "react";`). */
const CODE_LINE = /^(import|export|const|let|var|function|def|class|package|#include|using)\b.*[;{(]|^[{[<]/;

/** Headings that name the kind of document, not the work (`# Task Checklist`, `# 작업 체크리스트 (Task List)`). */
const GENERIC_HEADING = /^(tasks?|task list|task checklist|checklist|to-?do( list)?|walkthrough|implementation plan|plan|summary)$|\((task list|walkthrough|checklist)\)$/i;

/** `text` cut to `max` characters at a word end, with an ellipsis. */
export function shorten(text: string, max = TITLE_MAX): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const at = clean.lastIndexOf(' ', max - 1);
  return `${clean.slice(0, at > max * 0.6 ? at : max - 1).replace(/[\s,.;:–-]+$/, '')}…`;
}

/** Markdown marks off one line (`# `, `**`, backticks, list bullets, links kept as their text). */
export function plainLine(line: string): string {
  return line
    .replace(/^\s{0,3}(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)/, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(EMPHASIS, '$1$3')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A pair of emphasis marks around words: the opener after a line start, space or opening bracket, the closer before
 * a line end, space, closing bracket or a sentence mark that ends a word (asterisks also before CJK text, which has
 * no spaces: `**보기**를` is bold to its writer). A mark inside a word is kept: a request naming `__init__.py` was
 * titled "init.py" when every `__` was dropped (issue 27).
 */
const EMPHASIS =
  /(^|[\s([{"'“‘「『（])(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\2(?=$|[\s)\]}"'”’」』）,;:!?、。，]|\.(?!\w)|(?<=\*)[\p{sc=Hangul}\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])/gu;

/** The first non-empty line of `text` without Markdown marks; with `skipHeadings`, the first that is not a heading (when there is one). */
function firstLine(text: string, skipHeadings = false): string {
  let heading = '';
  for (const line of text.split(/\r?\n/)) {
    const plain = plainLine(line);
    if (plain === '' || /^[-=*_|:\s]{3,}$/.test(plain) || line.trim().startsWith('```')) continue;
    if (skipHeadings && /^\s{0,3}#{1,6}\s/.test(line)) {
      heading ||= plain;
      continue;
    }
    return plain;
  }
  return heading;
}

/** A line holding only images (`![충성](https://…png)`): its alt text is a caption, not what the message says. */
const IMAGE_ONLY = /^\s*(?:!\[[^\]]*\]\([^)]*\)\s*)+$/;
/** A Markdown table row or separator (`| File | Description |`): flattened, it reads as bars and cells. */
const TABLE_ROW = /^\s*\|.*\|\s*$/;
/** Where a skipped image or table stood (no line of text is a NUL). */
const STOP = '\u0000';

/** The first line of a message that says something: headings, code, images and tables skipped, a line ending in `:` joined to what follows. */
function leadSentence(text: string): string {
  // A table or a line of images stays as a stop (`STOP`): a line ending in `:` is not joined to what follows it.
  const prose = text
    .replace(/^\s*```[\s\S]*?(^\s*```|(?![\s\S]))/gm, '')
    .split(/\r?\n/)
    .map((l) => (IMAGE_ONLY.test(l) || TABLE_ROW.test(l) ? STOP : l));
  const lines = prose
    // Headings, and lines that are all bold (`**Implementation Plan**`), name a part; they do not say what happened.
    .filter((l) => !/^\s{0,3}#{1,6}\s/.test(l) && !/^\s*(\*\*|__)[^*_]+(\*\*|__):?\s*$/.test(l))
    .map((l) => (l === STOP ? l : plainLine(l)))
    .filter((l) => l !== '' && !/^[-=*_|:\s]{3,}$/.test(l));
  const at = lines.findIndex((l) => l !== STOP);
  // No plain sentence: an all-bold line or a heading of the prose says more than an image's alt text or a table.
  const first = lines[at] ?? (firstLine(prose.filter((l) => l !== STOP).join('\n')) || firstLine(text));
  if (!first.endsWith(':') || at < 0) return first;
  const after: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line === STOP) break;
    after.push(line);
    if (first.length + after.join('; ').length >= ENDING_MAX) break;
  }
  return after.reduce((text, line) => `${text}${/[.!?:;]$/.test(text) ? ' ' : '; '}${line}`, first);
}

/** The `# USER Objective:` line of a CHECKPOINT summary (Antigravity's own name for the work). */
export function checkpointObjective(summary: string): string | undefined {
  const match = /#\s*USER Objective:\s*\r?\n+\s*([^\r\n]+)/i.exec(summary);
  const line = match?.[1] ? plainLine(match[1]) : '';
  return line !== '' ? line : undefined;
}

/** The title heading of a task or walkthrough artifact, unless it only names the kind of document. */
export function artifactTitle(artifact: Artifact | undefined): string | undefined {
  const heading = artifact?.text?.split(/\r?\n/).find((l) => /^#\s+\S/.test(l));
  if (!heading) return undefined;
  const title = plainLine(heading)
    .replace(/^(task|tasks|walkthrough|implementation plan|plan)\s*[:：-]\s*/i, '')
    .replace(/\s*[-–—:]\s*(walkthrough|task list|tasks?|implementation plan)$/i, '')
    .trim();
  return title === '' || GENERIC_HEADING.test(title) ? undefined : title;
}

function artifactNamed(session: Pick<Session, 'artifacts'>, name: string): Artifact | undefined {
  return session.artifacts.find((a) => a.name.toLowerCase() === name);
}

/** The first request that says what the user wants (not a bare "Continue"). */
export function firstRealRequest(turns: readonly Turn[]): string | undefined {
  for (const turn of turns) {
    const line = turn.request ? firstLine(turn.request.text) : '';
    if (line !== '' && !RESUME.test(line) && !CODE_LINE.test(line)) return line;
  }
  return undefined;
}

/**
 * The session's title: Antigravity's own where the data has one (the objective of a CHECKPOINT summary, the title
 * of `task.md`, of `walkthrough.md`), else its first real request, shortened; else `fallback`.
 */
export function sessionTitle(session: Pick<Session, 'artifacts'>, turns: readonly Turn[], fallback: string): string {
  for (const turn of turns) {
    for (const item of turn.items) {
      if (item.kind !== 'checkpoint') continue;
      const objective = checkpointObjective(item.summary);
      if (objective) return shorten(objective);
    }
  }
  const own =
    artifactTitle(artifactNamed(session, 'task.md')) ??
    artifactTitle(artifactNamed(session, 'walkthrough.md')) ??
    artifactTitle(artifactNamed(session, 'implementation_plan.md'));
  if (own) return shorten(own);
  const request = firstRealRequest(turns);
  return shorten(request ?? fallback) || fallback;
}

/** How the session ended: the first line of the last model message, else the walkthrough's summary. */
export function sessionEnding(session: Pick<Session, 'artifacts'>, turns: readonly Turn[]): string | undefined {
  for (let t = turns.length - 1; t >= 0; t--) {
    const items = (turns[t] as Turn).items;
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      if (item?.kind === 'reply' && item.text && item.text.trim() !== '') {
        // "## Implementation Plan" says less than the sentence under it; "Done:" less than the list after it.
        const line = leadSentence(item.text);
        if (line !== '') return shorten(line, ENDING_MAX);
      }
    }
  }
  const summary = artifactNamed(session, 'walkthrough.md')?.metadata?.summary;
  return summary ? shorten(summary, ENDING_MAX) : undefined;
}

/** Everything the lean summary keeps of a session's conversation. */
export function conversationSummary(session: Pick<Session, 'artifacts' | 'steps'>, built: SessionTurns, fallbackTitle: string): ConversationSummary {
  return {
    title: sessionTitle(session, built.turns, fallbackTitle),
    ending: sessionEnding(session, built.turns),
    pages: conversationPageStarts(built.turns, session, firstPageFixedWeight(built.turns.length)),
  };
}
