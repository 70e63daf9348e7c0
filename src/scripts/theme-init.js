// Applies the remembered theme before first paint. Loaded as a classic, blocking script in <head> (a file, since
// the CSP forbids inline scripts); the toggle lives in theme-toggle.ts. Without a remembered choice the system
// setting applies (prefers-color-scheme in global.css).
try {
  var theme = localStorage.getItem('agy-theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);
} catch (e) {
  // Storage unavailable (privacy mode, file://): follow the system.
}
