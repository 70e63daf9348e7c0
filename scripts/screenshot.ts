/**
 * `node scripts/screenshot.ts <dist> <url-path> <out-prefix> [--full] [--height N] [--click SELECTOR] [--wait SELECTOR]`:
 * screenshots of one page of a built site in light, dark and at 390 px wide (headless Chromium, the same one the
 * browser tests use), for looking at a page as its readers will. `--click` clicks an element first (a filter group's
 * summary, say) and `--wait` waits for one to show (the search page's first result). Writes `<out-prefix>-light.png`,
 * `-dark.png`, `-390.png`.
 */
import { launchChromium } from './lib/chromium.ts';
import { serveStatic } from './lib/static-server.ts';

const [dist, urlPath, out, ...rest] = process.argv.slice(2);
if (!dist || !urlPath || !out) {
  console.error('usage: node scripts/screenshot.ts <dist> <url-path> <out-prefix> [--full] [--height N] [--click SELECTOR] [--wait SELECTOR]');
  process.exit(2);
}
const full = rest.includes('--full');
const heightAt = rest.indexOf('--height');
const height = heightAt >= 0 ? Number(rest[heightAt + 1]) : 2400;
const flag = (name: string): string | undefined => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : undefined);
const [click, wait] = [flag('--click'), flag('--wait')];
const server = await serveStatic(dist);
try {
  for (const [name, scheme, width] of [['light', 'light', 1280], ['dark', 'dark', 1280], ['390', 'light', 390]] as const) {
    const { context, close } = await launchChromium({ colorScheme: scheme });
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: Math.min(height, 4000) });
      const errors: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      await page.goto(`${server.origin}${urlPath}`, { waitUntil: 'load' });
      if (click) await page.locator(click).first().click();
      if (wait) await page.locator(wait).first().waitFor({ timeout: 30_000 });
      await page.screenshot({ path: `${out}-${name}.png`, fullPage: full });
      const size = await page.evaluate(() => ({ h: document.documentElement.scrollHeight, w: document.documentElement.scrollWidth }));
      console.log(`${out}-${name}.png  page ${size.w}×${size.h}px${errors.length ? `  console errors: ${errors.join(' | ')}` : ''}`);
    } finally {
      await close();
    }
  }
} finally {
  await server.close();
}
