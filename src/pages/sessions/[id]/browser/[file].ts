/**
 * `/sessions/<id>/browser/<name>`: the bytes of a screenshot or click mark of the browser subagent, read through the
 * pipeline (confined to the session folder, or from the archive store) and published as they are, like uploads.
 */
import type { APIRoute } from 'astro';
import { browserFilePaths } from '../../../../lib/routes.ts';
import { readUploadBytes } from '../../../../lib/archive/uploads.ts';
import type { BrowserFileRow, SessionSummary } from '../../../../lib/archive/schemas.ts';

export const getStaticPaths = () => browserFilePaths();

export const GET: APIRoute = async ({ props }) => {
  const { session, browserFile } = props as { session: SessionSummary; browserFile: BrowserFileRow };
  const bytes = await readUploadBytes(session.ref, browserFile.file);
  // A file that vanished or grew too large publishes an empty file rather than failing the build.
  return new Response(new Uint8Array(bytes ?? []), { headers: { 'Content-Type': browserFile.mediaType } });
};
