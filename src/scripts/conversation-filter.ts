/**
 * The conversation filters (Filters.astro) work without script, but only on the page they are on: a big session's
 * conversation spans pages, and following the pager showed everything again (issue 22). With script, the choice
 * lives in the URL (`?show=edits`; none for "all"): it is read on load, written on change with replaceState (no
 * history entry per click), and carried by every link to a conversation page of the same session (the pager, the
 * list of turns, the breadcrumb), so the next page opens with the same filter.
 */
const PARAM = 'show';
const DEFAULT = 'all';

function radios(): HTMLInputElement[] {
  return [...document.querySelectorAll<HTMLInputElement>('input[type="radio"][name="conv-show"]')];
}

/** The session page's path: this page's without `conversation/<n>/` (page 1 is the session page itself). */
function sessionPath(): string {
  return window.location.pathname.replace(/conversation\/\d+\/?$/, '');
}

/** Whether `url` opens a conversation page of this session (page 1 or `conversation/<n>/`). */
function isConversationPage(url: URL): boolean {
  if (url.origin !== window.location.origin) return false;
  const base = sessionPath();
  return url.pathname === base || (url.pathname.startsWith(base) && /^conversation\/\d+\/?$/.test(url.pathname.slice(base.length)));
}

function withShow(url: URL, value: string): URL {
  const next = new URL(url.href);
  if (value === DEFAULT) next.searchParams.delete(PARAM);
  else next.searchParams.set(PARAM, value);
  return next;
}

function carry(value: string): void {
  for (const a of document.querySelectorAll<HTMLAnchorElement>('a[href]')) {
    // A jump within this page (`#conversation`, the skip links) stays as written: the page's own URL carries the
    // filter already, and a rewritten `/sessions/<id>/#…` would no longer be the link the page and its tests name.
    if (a.getAttribute('href')?.startsWith('#')) continue;
    const url = new URL(a.href, window.location.href);
    if (!isConversationPage(url)) continue;
    const next = withShow(url, value);
    if (next.search === url.search) continue;
    a.setAttribute('href', `${next.pathname}${next.search}${next.hash}`);
  }
}

function choose(value: string): void {
  const here = withShow(new URL(window.location.href), value);
  if (here.href !== window.location.href) window.history.replaceState(window.history.state, '', here.href);
  carry(value);
}

function start(): void {
  const inputs = radios();
  if (inputs.length === 0) return;
  const asked = new URL(window.location.href).searchParams.get(PARAM);
  const match = inputs.find((r) => r.value === asked);
  if (match) match.checked = true;
  // A value no filter has (an old or mistyped link) is dropped from the URL rather than kept and carried on.
  choose(inputs.find((r) => r.checked)?.value ?? DEFAULT);
  for (const r of inputs) r.addEventListener('change', () => r.checked && choose(r.value));
}

start();
