/**
 * How heavy a built site's session pages are (issue 11: a session page of 1.5–4.8 MB is a wall): the largest
 * session page (`sessions/<id>/index.html`) and the largest HTML page anywhere under a session (its conversation,
 * timeline, task-log, message and step pages; the single-file export is apart, it is a download). Sizes in bytes.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { SESSION_PAGE_TARGET } from '../../src/lib/conversation/pages.ts';

/** One page and its size. */
export interface PageSize {
  /** Path relative to the site root, e.g. `sessions/<id>/timeline/index.html`. */
  page: string;
  bytes: number;
}

/** The weights the bench records. */
export interface PageWeights {
  /** The largest session page (the first page of a session's conversation). */
  largestSessionPage: PageSize | null;
  /** The largest HTML page under any session, the export left out. */
  largestPageUnderSession: PageSize | null;
  /** The largest export, for reference. */
  largestExport: PageSize | null;
  /** HTML pages under sessions over 1.5 MB. */
  pagesOverCap: number;
  /** The largest conversation page (a session page or its `conversation/<n>/`): what a reader opens. */
  largestConversationPage: PageSize | null;
  /** Conversation pages over `SESSION_PAGE_TARGET` (600 KB, issue 22). */
  conversationPagesOverTarget: number;
}

const CAP = 1.5 * 1024 * 1024;

/** Walk `<site>/sessions/` once and keep the heaviest pages. */
export function pageWeights(site: string): PageWeights {
  const root = path.join(site, 'sessions');
  const out: PageWeights = { largestSessionPage: null, largestPageUnderSession: null, largestExport: null, pagesOverCap: 0, largestConversationPage: null, conversationPagesOverTarget: 0 };
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(root, { withFileTypes: true, recursive: true });
  } catch {
    return out;
  }
  const bigger = (a: PageSize | null, b: PageSize) => (a === null || b.bytes > a.bytes ? b : a);
  for (const e of entries) {
    if (!e.isFile() || !e.name.endsWith('.html')) continue;
    const file = path.join(e.parentPath, e.name);
    const size: PageSize = { page: path.relative(site, file), bytes: statSync(file).size };
    if (e.name === 'export.html') {
      out.largestExport = bigger(out.largestExport, size);
      continue;
    }
    out.largestPageUnderSession = bigger(out.largestPageUnderSession, size);
    if (size.bytes > CAP) out.pagesOverCap++;
    // `sessions/<id>/index.html`: two segments below `sessions/`; `sessions/<id>/conversation/<n>/index.html`: four.
    const parts = path.relative(root, file).split(path.sep);
    if (parts.length === 2) out.largestSessionPage = bigger(out.largestSessionPage, size);
    if (parts.length === 2 || (parts.length === 4 && parts[1] === 'conversation')) {
      out.largestConversationPage = bigger(out.largestConversationPage, size);
      if (size.bytes > SESSION_PAGE_TARGET) out.conversationPagesOverTarget++;
    }
  }
  return out;
}
