/**
 * `node scripts/bench/precompress.ts <site> [encodings]`: the build's precompress phase alone over a built site
 * (default `gzip,br`), so the bench measures its wall time and memory as a process of its own. Prints the phase's
 * result as JSON on its last line.
 */
import { precompressEncodings, precompressSite } from '../../src/lib/build/precompress.ts';

const [site, setting = 'gzip,br'] = process.argv.slice(2);
if (!site) {
  console.error('usage: node scripts/bench/precompress.ts <site folder> [gzip,br]');
  process.exit(2);
}
console.log(JSON.stringify(await precompressSite(site, precompressEncodings(setting))));
