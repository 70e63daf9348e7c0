/**
 * The header's menu on narrow screens: the nav and the search box fold behind one button, so at 390 px the header is
 * one row instead of a quarter of the screen (issue 22: 222 px). The page marks the header `data-menu` once this
 * script runs; the CSS folds only such a header, so without a script nothing is hidden.
 */
const header = document.querySelector<HTMLElement>('.site-header');
const toggle = header?.querySelector<HTMLButtonElement>('[data-menu-toggle]');

/** Opens or closes the folded menu (a no-op on a wide screen, where the CSS shows it whatever the state). */
export function setMenuOpen(open: boolean): void {
  if (!header || !toggle) return;
  header.toggleAttribute('data-menu-open', open);
  toggle.setAttribute('aria-expanded', String(open));
}

if (header && toggle) {
  header.setAttribute('data-menu', '');
  toggle.hidden = false;
  toggle.addEventListener('click', () => setMenuOpen(!header.hasAttribute('data-menu-open')));
  header.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && header.hasAttribute('data-menu-open')) {
      setMenuOpen(false);
      toggle.focus();
    }
  });
}
