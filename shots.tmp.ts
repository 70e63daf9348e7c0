import { launchChromium } from './scripts/lib/chromium.ts';
const base = 'http://127.0.0.1:8731';
const pages = process.argv.slice(2);
const { context, close } = await launchChromium({ colorScheme: 'light' });
const errors: string[] = [];
for (const [w, tag] of [[1280, 'wide'], [390, 'narrow']] as const) {
  const page = await context.newPage();
  await page.setViewportSize({ width: w, height: 900 });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  for (const p of pages) {
    await page.goto(base + p, { waitUntil: 'networkidle' });
    const name = `/tmp/h20files-shot-${tag}-${p.replace(/[^a-z0-9]+/gi, '_').slice(-50)}.png`;
    const hash = p.includes('#') ? p.slice(p.indexOf('#')) : '';
    if (hash) { await page.locator(hash).scrollIntoViewIfNeeded(); await page.screenshot({ path: name }); }
    else await page.screenshot({ path: name, fullPage: true });
    console.log(name);
  }
  await page.close();
}
if (errors.length) console.log('console errors', errors);
await close();
