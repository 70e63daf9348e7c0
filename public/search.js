// The search page: Pagefind's default UI, started with ?q= from the URL. A file (not inline) so the CSP can
// forbid inline scripts. The bundle path and base come from data attributes set by the page (ARCHIVE_BASE aware).
// The index is sharded (src/integrations/pagefind.ts): `data-shards` lists the shards that hold sessions; the
// first is searched as the main index, the others are merged into it (results and filters come back as one).
const host = document.getElementById('search');
if (host) {
  const bundlePath = host.dataset.bundle || '/pagefind/';
  const baseUrl = host.dataset.base || '/';
  const folder = (n) => (n === '0' ? '' : `shard-${n}/`);
  const shards = (host.dataset.shards || '0').split(' ').filter(Boolean);
  const [first = '0', ...rest] = shards;
  // Shards are ranked apart and merged by score, so a shard without the exact word ranks its near matches as if
  // they were the best (a search for a word of one session listed other sessions first). A steep term-similarity
  // weight puts exact matches first whichever shard holds them.
  const ranking = { termSimilarity: 40 };
  import(`${bundlePath}pagefind-ui.js`)
    .then(() => {
      const ui = new window.PagefindUI({
        element: '#search',
        bundlePath: `${bundlePath}${folder(first)}`,
        baseUrl,
        ranking,
        mergeIndex: rest.map((n) => ({ bundlePath: `${bundlePath}${folder(n)}`, baseUrl, ranking })),
        showSubResults: true,
        showImages: false,
        resetStyles: false,
        pageSize: 10,
        autofocus: true,
      });
      const q = new URLSearchParams(window.location.search).get('q');
      if (q) ui.triggerSearch(q);
    })
    .catch(() => {
      host.textContent = 'The search index could not be loaded. Serve this folder over http (npm run preview), not from file://.';
    });
}
