/** Browser-test access to the shared Chromium launcher (scripts/lib/chromium.ts), under the names the tests use. */
import { hasChromium, launchChromium } from '../../scripts/lib/chromium.ts';
import { refuseUnderQuickRun } from './build-site.ts';

/** Start the browser (see `launchChromium`); never under `npm run test:quick`. */
export const launchBrowser: typeof launchChromium = (...args) => {
  refuseUnderQuickRun('starts a browser');
  return launchChromium(...args);
};

export { hasChromium };
