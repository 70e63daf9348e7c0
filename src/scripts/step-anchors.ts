/**
 * Old links keep working when what they pointed at moved to another page. `/sessions/<id>/#step-<key>` once pointed
 * at a row of the session page's timeline table, `#turn-N` may name a turn on a later conversation page of a big
 * session, `/tasks/#log-<name>` a log on a later task-log page. When the hash names nothing on this page:
 * a link on the page that leads to the same anchor elsewhere (the list of turns, the list of every task log) is
 * followed; else, on a session page, a `#step-<key>` goes to that step's own page, which always exists.
 */
function redirect(): void {
  const hash = window.location.hash;
  if (hash.length < 2) return;
  const id = decodeURIComponent(hash.slice(1));
  if (document.getElementById(id)) return;
  const here = window.location.pathname;
  const elsewhere = [...document.querySelectorAll<HTMLAnchorElement>('a[href*="#"]')].find((a) => {
    const url = new URL(a.href, window.location.href);
    return decodeURIComponent(url.hash.slice(1)) === id && url.pathname !== here;
  });
  if (elsewhere) {
    window.location.replace(elsewhere.href);
    return;
  }
  const holder = document.querySelector<HTMLElement>('[data-step-base]');
  const step = /^step-(.+)$/.exec(id);
  if (holder && step?.[1]) window.location.replace(`${holder.dataset.stepBase}${encodeURIComponent(step[1])}/`);
}

redirect();
window.addEventListener('hashchange', redirect);
