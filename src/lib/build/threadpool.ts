/**
 * Imported first by `scripts/build.ts`, before anything reads a file: libuv sizes its threadpool, which runs every
 * asynchronous file read, when it first gets work, from UV_THREADPOOL_SIZE, and the default is 4 threads. The search
 * step's read-ahead (`src/lib/search/prefetch.ts`) wants 32 reads in flight; with 4 threads the disk saw 6 at a time
 * (4 of ours, 2 of Pagefind's) at ~11 ms each, 4.7 MB/s, while both Pagefind processes waited. Set by the user, it
 * stays as given.
 */
process.env.UV_THREADPOOL_SIZE ??= '32';
