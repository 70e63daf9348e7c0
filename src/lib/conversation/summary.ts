/**
 * What a session's header and home card say about it, from its turns: the title Antigravity itself gave the work
 * where the data has one, how the session ended, and where its conversation pages start (the counts of files
 * changed and the failures are the turn builder's and `turns/failures.ts`, summed in `summarise.ts`). Pure, no `astro:*` import; the loader stores the result in the lean summary.
 */
import type { Artifact, Session } from '../brain/types.ts';
import type { SessionTurns, Turn } from '../turns/types.ts';
import { conversationPageStarts, firstPageFixedWeight, type PageStart } from './pages.ts';
import { firstLine, LINE_MAX, plainLine, shorten } from '../turns/prose-line.ts';
import { sessionEnding as lastTurnEnding, type EndingKind } from '../turns/ending.ts';

export { plainLine, shorten };

/** Longest title kept (the home card and `<title>`). */
export const TITLE_MAX = LINE_MAX;

/** What the summary of a session takes from its conversation. */
export interface ConversationSummary {
  title: string;
  /** How it ended, from the last turn (`turns/ending.ts`). */
  ending?: string;
  /** What that ending is: a reply, no reply, a failure (`EndingKind`). */
  endingKind?: EndingKind;
  /** Where each conversation page starts (one entry per page; `[{turn: 0, item: 0}]` for one page). */
  pages: PageStart[];
}

/** Requests that only resume work ("Continue", "go on") say nothing about what the session is for. */
const RESUME = /^(continue|go on|go ahead|proceed|yes|ok(ay)?|retry|try again|keep going|continue please|please continue|next|lanjut|继续|계속)[.!]*$/i;

/** A first line that is pasted code, not words (real session 0043a8fc opens with `import React, { … } from "react";`). */
const CODE_LINE = /^(import|export|const|let|var|function|def|class|package|#include|using)\b.*[;{(]|^[{[<]/;

/** Headings that name the kind of document, not the work (`# Task Checklist`, `# 작업 체크리스트 (Task List)`). */
const GENERIC_HEADING = /^(tasks?|task list|task checklist|checklist|to-?do( list)?|walkthrough|implementation plan|plan|summary)$|\((task list|walkthrough|checklist)\)$/i;

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

/** How the session ended, from its last turn (`turns/ending.ts`); the walkthrough's summary for a session with no log. */
export function sessionEnding(session: Pick<Session, 'artifacts'>, turns: readonly Turn[]): ReturnType<typeof lastTurnEnding> {
  const summary = artifactNamed(session, 'walkthrough.md')?.metadata?.summary;
  return lastTurnEnding(turns, summary ? { walkthroughSummary: summary } : {});
}

/** Everything the lean summary keeps of a session's conversation. */
export function conversationSummary(session: Pick<Session, 'artifacts' | 'steps'>, built: SessionTurns, fallbackTitle: string): ConversationSummary {
  const ending = sessionEnding(session, built.turns);
  return {
    title: sessionTitle(session, built.turns, fallbackTitle),
    ...(ending ? { ending: ending.text, endingKind: ending.kind } : {}),
    pages: conversationPageStarts(built.turns, session, firstPageFixedWeight(built.turns.length)),
  };
}
