/**
 * A conversation's title from what the product folder keeps beside the brain, for a session whose steps give none
 * (no request read: a database-only session, a transcript that starts mid-session). Real-db README §1 and §4:
 * `agyhub_summaries_proto.pb` (IDE) holds a summary per conversation whose field 1 is its title ("Installing
 * Google ADK", or the first request when none was generated); the CLI's `history.jsonl` holds every line typed at
 * the prompt with its `conversationId`. (`annotations/<uuid>.pbtxt` holds no title in any real file: only
 * `last_user_view_time` and `pinned`.) Both files are read bounded, and only when a title is needed.
 */
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { decodeSummaryTitles } from './fields.ts';

/** Largest side file read for a title (the real ones are 3.9 KB and 6.5 KB). */
const MAX_SIDE_FILE_BYTES = 16 * 1024 * 1024;

async function readBoundedFile(file: string): Promise<Buffer | undefined> {
  let handle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile() || st.size > MAX_SIDE_FILE_BYTES) return undefined;
    const bytes = Buffer.alloc(st.size);
    const { bytesRead } = await handle.read(bytes, 0, st.size, 0);
    return bytes.subarray(0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * The title the product folder keeps for conversation `id` (`root` is its brain folder), with where it came from;
 * `undefined` when neither file names one.
 */
export async function productTitle(root: string, id: string): Promise<{ title: string; from: string } | undefined> {
  const product = path.dirname(root);
  const summaries = await readBoundedFile(path.join(product, 'agyhub_summaries_proto.pb'));
  if (summaries) {
    try {
      const title = decodeSummaryTitles(summaries).get(id.toLowerCase())?.trim();
      if (title) return { title, from: 'agyhub_summaries_proto.pb' };
    } catch {
      // Not a protobuf message: no title from it.
    }
  }
  const history = await readBoundedFile(path.join(product, 'history.jsonl'));
  if (history) {
    for (const line of history.toString('utf8').split('\n')) {
      try {
        const entry = JSON.parse(line) as { display?: unknown; conversationId?: unknown };
        if (typeof entry.conversationId === 'string' && entry.conversationId.toLowerCase() === id.toLowerCase() && typeof entry.display === 'string' && entry.display.trim() !== '')
          return { title: entry.display.trim().split('\n')[0]!.trim(), from: 'history.jsonl' };
      } catch {
        // A torn or foreign line: skipped.
      }
    }
  }
  return undefined;
}
