/**
 * Text from a transcript printed to a terminal (`npm run sessions`). A title or a workspace is whatever the session
 * holds, and a terminal obeys control codes in what it prints: `ESC [2J` clears the screen, `ESC ]0;…` retitles the
 * window, a bidi override reorders what follows (issue 27, the lows). So each such character is shown as an escape
 * (`\x1B`, `\u202E`), never sent as it is.
 */

/** C0 controls (newline and tab too: one field is one line), DEL, C1 controls, and bidi embeddings, overrides and isolates. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control character written as a visible escape. */
export function terminalText(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}
