/**
 * Keyboard shortcuts: `j`/`k` move to the next/previous step (on a timeline page: the next/previous row; on a
 * session page: the next/previous turn; focused and scrolled into view; on a step page: the next/previous step
 * page), `/` focuses the search box (on the search page its own box, which searches as you type; elsewhere the
 * header's).
 * Never while typing in a field, and never with a modifier key.
 */
import { setMenuOpen } from './site-menu.ts';
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

let current = -1;

function rows(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('table.timeline tbody tr[id^="step-"], .turn[id^="turn-"]')];
}

function moveRow(delta: number): boolean {
  const list = rows();
  if (list.length === 0) return false;
  if (current < 0) {
    // Start from the row in the URL hash, if any.
    const hashed = list.findIndex((r) => `#${r.id}` === window.location.hash);
    current = hashed >= 0 ? hashed : delta > 0 ? -1 : list.length;
  }
  const next = Math.min(list.length - 1, Math.max(0, current + delta));
  list[current]?.classList.remove('is-current');
  current = next;
  const row = list[current];
  if (!row) return true;
  row.classList.add('is-current');
  row.querySelector<HTMLAnchorElement>('a')?.focus({ preventScroll: true });
  row.scrollIntoView({ block: 'nearest' });
  return true;
}

function followStepLink(rel: 'next' | 'prev'): boolean {
  const link = document.querySelector<HTMLAnchorElement>(`.step-nav a[rel="${rel}"]`);
  if (!link) return false;
  window.location.href = link.href;
  return true;
}

// The keys are there only with this script: a page says so only then (issue 28: j/k were undiscoverable).
for (const hint of document.querySelectorAll<HTMLElement>('[data-keys-hint]')) hint.hidden = false;

document.addEventListener('keydown', (event) => {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
  let handled = false;
  if (event.key === '/') {
    const box = document.querySelector<HTMLInputElement>('#search-input') ?? document.querySelector<HTMLInputElement>('#site-search');
    if (box) {
      // The header's box may be folded in the narrow-screen menu: open it first, or focus() would do nothing.
      if (box.closest('.site-menu')) setMenuOpen(true);
      box.focus();
      box.select();
      handled = true;
    }
  } else if (event.key === 'j') {
    handled = moveRow(1) || followStepLink('next');
  } else if (event.key === 'k') {
    handled = moveRow(-1) || followStepLink('prev');
  }
  if (handled) event.preventDefault();
});
