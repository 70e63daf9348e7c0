// The search page: Pagefind's default UI, started with ?q= from the URL. A file (not inline) so the CSP can
// forbid inline scripts. The bundle path and base come from data attributes set by the page (ARCHIVE_BASE aware).
const host = document.getElementById('search');
if (host) {
  const bundlePath = host.dataset.bundle || '/pagefind/';
  const baseUrl = host.dataset.base || '/';
  import(`${bundlePath}pagefind-ui.js`)
    .then(() => {
      const ui = new window.PagefindUI({
        element: '#search',
        bundlePath,
        baseUrl,
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
