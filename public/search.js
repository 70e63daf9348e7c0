// The search page: Pagefind's default UI, started with ?q= from the URL. A file (not inline) so the CSP can
// forbid inline scripts. The bundle path and base come from data attributes set by the page (ARCHIVE_BASE aware).
// The index is sharded (src/integrations/pagefind.ts): `data-shards` lists the shards that hold sessions; the
// first is searched as the main index, the others are merged into it (results and filters come back as one).
//
// First results fast: Pagefind is started here, as soon as the page runs, not when the UI first needs it. Its
// module, wasm and every shard's entry and metadata load at once (the UI would merge the shards one after another,
// each waiting for the previous one's files), while the UI's own script loads. The UI imports the same module URL,
// so it gets this very instance, already merged; it is given no `mergeIndex` of its own (that would merge twice).
// With a `?q=`, the query's index chunks are preloaded in every shard too, and the UI searches without its
// typing debounce for that first query.
const host = document.getElementById('search');
if (host) {
  const bundlePath = host.dataset.bundle || '/pagefind/';
  const baseUrl = host.dataset.base || '/';
  const folder = (n) => (n === '0' ? '' : `shard-${n}/`);
  const shards = (host.dataset.shards || '0').split(' ').filter(Boolean);
  const [first = '0', ...rest] = shards;
  const primary = `${bundlePath}${folder(first)}`;
  const q = new URLSearchParams(window.location.search).get('q')?.trim() || '';
  // Shards are ranked apart and merged by score, so a shard without the exact word ranks its near matches as if
  // they were the best (a search for a word of one session listed other sessions first). A steep term-similarity
  // weight puts exact matches first whichever shard holds them.
  const ranking = { termSimilarity: 40 };
  const DEBOUNCE_MS = 300;

  const engine = import(`${primary}pagefind.js`).then(async (pagefind) => {
    await pagefind.options({ baseUrl, ranking });
    const ready = Promise.all([pagefind.init(), ...rest.map((n) => pagefind.mergeIndex(`${bundlePath}${folder(n)}`, { baseUrl, ranking }))]);
    if (q) pagefind.preload(q).catch(() => {});
    await ready;
    return pagefind;
  });
  // The UI is made once every shard is merged: it asks for the filters of all shards right away, and a merge still
  // in progress at that moment could leave its filters (the Product panel) out. Its script loads meanwhile.
  Promise.all([import(`${bundlePath}pagefind-ui.js`), engine])
    .then(() => {
      const ui = new window.PagefindUI({
        element: '#search',
        bundlePath: primary,
        baseUrl,
        ranking,
        showSubResults: true,
        showImages: false,
        resetStyles: false,
        pageSize: 10,
        autofocus: true,
        debounceTimeoutMs: q ? 0 : DEBOUNCE_MS,
      });
      if (q) {
        ui.triggerSearch(q);
        // Back to the usual debounce for typing once the first query ran (the UI's Svelte component prop).
        setTimeout(() => ui._pfs?.$$set?.({ debounce_timeout_ms: DEBOUNCE_MS }), 0);
      }
    })
    .catch(() => {
      host.textContent = 'The search index could not be loaded. Serve this folder over http (npm run preview), not from file://.';
    });
}
