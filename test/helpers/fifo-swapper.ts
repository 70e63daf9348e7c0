/**
 * Run as its own process by the FIFO tests: `node fifo-swapper.ts <spares> <file>...` flips every given file, over
 * and over until killed, between the regular file it is and a FIFO waiting in `<spares>/fifo-<i>` (made by the test
 * with mkfifo), by renames: a reader that listed a regular file may find a pipe when it opens it. Prints `ready`
 * once it has started.
 */
import { renameSync } from 'node:fs';
import path from 'node:path';

const [spares = '', ...files] = process.argv.slice(2);
const pause = new Int32Array(new SharedArrayBuffer(4));
let pipesIn = false;
process.stdout.write('ready\n');
for (;;) {
  files.forEach((file, i) => {
    const fifo = path.join(spares, `fifo-${i}`);
    const regular = path.join(spares, `regular-${i}`);
    if (pipesIn) {
      renameSync(file, fifo);
      renameSync(regular, file);
    } else {
      renameSync(file, regular);
      renameSync(fifo, file);
    }
  });
  pipesIn = !pipesIn;
  // A millisecond between flips: every state lasts long enough to be listed, then opened.
  Atomics.wait(pause, 0, 0, 1);
}
