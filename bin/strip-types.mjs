// Preloaded (`--import`) into every Node process `agy-archive` starts: Node strips TypeScript's types itself, but
// refuses to for files under node_modules (ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING), which is where an installed
// package's scripts are. This hook strips the package's own `.ts` files there with Node's own stripper, so they run
// exactly as in a clone. Other packages' files are left to Node.
import { readFileSync } from 'node:fs';
import { registerHooks, stripTypeScriptTypes } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const packageUrl = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..') + path.sep).href;
const ownPackagesUrl = `${packageUrl}node_modules/`;

registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith(packageUrl) && !url.startsWith(ownPackagesUrl) && /\.[cm]?ts$/.test(url)) {
      const source = readFileSync(fileURLToPath(url), 'utf8');
      return { format: 'module', source: stripTypeScriptTypes(source), shortCircuit: true };
    }
    return nextLoad(url, context);
  },
});
