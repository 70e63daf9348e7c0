/**
 * The export's links (`audit/export-links.ts`): the site's conversation markup made self-contained. Links to a step
 * or call the file holds point inside it; every other link is its text (the site's URL as a tooltip, an outside URL
 * drawn after it); images are their alt text; search attributes go; text that looks like markup stays text.
 */
import { describe, expect, it } from 'vitest';
import { anchorIds, exportMarkup } from '../../src/lib/audit/export-links.ts';

const ID = '86033144-bf85-4d61-ac17-b7e233ed37cb';
const context = (html: string) => ({ stepUrl: (key: string) => `/base/sessions/${ID}/steps/${encodeURIComponent(key)}/`, siteBase: '/base/', anchors: anchorIds(html) });

describe('exportMarkup', () => {
  it('points a step, call or turn link inside the file when the file holds its anchor', () => {
    const html = `<div id="step-7348-1"><a href="/base/sessions/${ID}/steps/7348-1/" class="small">step 7348-1</a></div><details id="call-7348-1.0"></details><a href="/base/sessions/${ID}/conversation/2/#call-7348-1.0">in the conversation</a>`;
    expect(exportMarkup(html, context(html))).toBe(`<div id="step-7348-1"><a href="#step-7348-1" class="small">step 7348-1</a></div><details id="call-7348-1.0"></details><a href="#call-7348-1.0">in the conversation</a>`);
  });

  it("keeps a link to a page the file does not hold as its text, with the site's URL as a tooltip", () => {
    const html = `<a href="/base/sessions/${ID}/tasks/#task-12">the log</a> <a href="/base/sessions/${ID}/steps/9/">step 9</a>`;
    expect(exportMarkup(html, context(html))).toBe(
      `<span class="site-link" title="on the archive site: /base/sessions/${ID}/tasks/#task-12">the log</span> <span class="site-link" title="on the archive site: /base/sessions/${ID}/steps/9/">step 9</span>`,
    );
  });

  it('shows an outside link as its text followed by the URL, an image as its alt text, and drops the search attributes', () => {
    const html = `<p data-pagefind-ignore class="x">See <a href="https://example.com/a?b=1&amp;c=&quot;2&quot;" rel="nofollow">the docs</a> <img src="/base/sessions/${ID}/uploads/1.png" alt="a &quot;chart&quot;" loading="lazy"></p>`;
    expect(exportMarkup(html, context(html))).toBe(`<p class="x">See <span class="ext-link" data-url="https://example.com/a?b=1&amp;c=&quot;2&quot;">the docs</span> <span class="img-alt">[image: a &quot;chart&quot;]</span></p>`);
  });

  it('touches no transcript text, even text that reads like a tag, and no attribute value holding ">"', () => {
    const html = `<pre>&lt;a href="/base/x"&gt;data-pagefind-ignore &lt;img src=x&gt;</pre><span title="a > b" data-pagefind-meta="k:v">x</span>`;
    expect(exportMarkup(html, context(html))).toBe(`<pre>&lt;a href="/base/x"&gt;data-pagefind-ignore &lt;img src=x&gt;</pre><span title="a > b">x</span>`);
  });

  it('reads the anchors the markup gives, entities decoded', () => {
    expect([...anchorIds('<div id="step-1"></div><span id="call-a&amp;b" class="x"></span>')]).toEqual(['step-1', 'call-a&b']);
  });
});
