/**
 * The header's theme toggle: switches between light and dark and remembers the choice (localStorage), which
 * theme-init.js applies before paint on the next page. The button stays hidden without JavaScript.
 */
const KEY = 'agy-theme';
type Theme = 'light' | 'dark';

function systemTheme(): Theme {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function currentTheme(): Theme {
  const set = document.documentElement.getAttribute('data-theme');
  return set === 'light' || set === 'dark' ? set : systemTheme();
}

function label(button: HTMLButtonElement): void {
  const theme = currentTheme();
  button.textContent = theme === 'dark' ? '☀ Light' : '☾ Dark';
  button.setAttribute('aria-label', `Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`);
  button.setAttribute('aria-pressed', String(theme === 'dark'));
}

for (const button of document.querySelectorAll<HTMLButtonElement>('[data-theme-toggle]')) {
  button.hidden = false;
  label(button);
  button.addEventListener('click', () => {
    const next: Theme = currentTheme() === 'dark' ? 'light' : 'dark';
    document.documentElement.setAttribute('data-theme', next);
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // Not remembered where storage is unavailable; the switch still applies to this page.
    }
    label(button);
  });
}
