/**
 * What the site asks of a browser, in one place: the Content-Security-Policy every page carries in a `<meta>` tag,
 * the export's own (one self-contained file: inline styles, no fetches), the referrer policy, and the frame policy.
 * The pages read the policies from here, and the server configurations in `hosting/` send the same ones as headers
 * (`test/host/hosting-files.test.ts` holds the two to each other; the real-server tests read them off the wire).
 */

/** Every page of the site: only its own scripts (Pagefind's wasm among them), styles and images; nothing inline. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-src 'none'";

/** `/sessions/<uuid>/export.html`: one file readable from `file://`, so its styles are inline and it loads nothing. */
export const EXPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** No page tells another site where its reader came from (a session URL names the session). */
export const REFERRER_POLICY = 'no-referrer';

/**
 * No other site may frame a page (clickjacking). A `<meta>` CSP cannot say this (browsers ignore `frame-ancestors`
 * there), so only a server can: as `frame-ancestors` in the header's policy and as `X-Frame-Options` for older
 * browsers.
 */
export const FRAME_ANCESTORS = "frame-ancestors 'none'";
export const X_FRAME_OPTIONS = 'DENY';

/** The `Content-Security-Policy` header a server sends with a page whose `<meta>` carries `metaPolicy`. */
export function headerPolicy(metaPolicy: string): string {
  return `${metaPolicy}; ${FRAME_ANCESTORS}`;
}
