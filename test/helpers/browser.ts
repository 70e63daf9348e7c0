/** Browser-test access to the shared Chromium launcher (scripts/lib/chromium.ts), under the names the tests use. */
import { hasChromium, launchChromium } from '../../scripts/lib/chromium.ts';

export { hasChromium, launchChromium as launchBrowser };
