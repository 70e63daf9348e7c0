/**
 * The copy buttons of the raw records (RawRecords.astro): shown only where this script runs (without it the text
 * is there to select), each copies the text of the `<pre>` in the element it names and says so for a moment.
 */
function setUp(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button.copy-raw[data-copy]')) {
    if (!navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', () => {
      const text = document.getElementById(button.dataset.copy ?? '')?.querySelector('pre')?.textContent ?? '';
      navigator.clipboard.writeText(text).then(
        () => {
          button.textContent = 'Copied';
          window.setTimeout(() => (button.textContent = 'Copy'), 1500);
        },
        () => {
          button.textContent = 'Copy failed: select the text';
        },
      );
    });
  }
}

setUp();
