/**
 * Step texts too long for a page. A model answer or output of many MB (the hostile corpus has a 50 MB one) made a
 * step page Chromium could not load in minutes, so past `PAGE_TEXT_MAX` characters a step page shows the head and
 * links to the whole text, published beside it as a `.txt` file (served as text/plain, so it is never markup).
 * Nothing is dropped: the file holds every character of the (redacted) field.
 */
import type { Step } from '../brain/types.ts';

/** Characters of one field a step page still holds in full. */
export const PAGE_TEXT_MAX = 1024 * 1024;

/** Characters of a long field shown on the page before the link to the whole text. */
export const PAGE_TEXT_HEAD = 256 * 1024;

/** The step fields that can be long, as named in their `.txt` file. */
export const LONG_FIELDS = ['content', 'thinking', 'output', 'content-md'] as const;
export type LongField = (typeof LONG_FIELDS)[number];

/** The text of `field` of a step. */
export function stepFieldText(step: Step, field: LongField): string | undefined {
  switch (field) {
    case 'content':
      return step.content;
    case 'thinking':
      return step.thinking;
    case 'output':
      return step.output?.text;
    case 'content-md':
      return step.contentMd?.text;
  }
}

/** The fields of `step` longer than a page holds (empty for nearly every step). */
export function longFields(step: Step): LongField[] {
  return LONG_FIELDS.filter((field) => (stepFieldText(step, field)?.length ?? 0) > PAGE_TEXT_MAX);
}
