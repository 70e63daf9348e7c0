/** The order sessions are listed and handed on in: newest start first, equal starts by id (pure, no Astro). */

/** Sort comparator over session summaries: newest `createdAt` first (ISO strings compare as times), then by id. */
export function newestSessionFirst(a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number {
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id.localeCompare(b.id);
}
