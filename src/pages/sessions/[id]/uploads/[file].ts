/**
 * `/sessions/<id>/uploads/<n>.<ext>`: the bytes of an uploaded raster image, read through the pipeline (confined to
 * the session folder). Only raster images get a path here; SVG and other files are never published.
 */
import type { APIRoute } from 'astro';
import { uploadPaths } from '../../../../lib/routes.ts';
import { readUploadBytes } from '../../../../lib/archive/uploads.ts';
import type { SessionSummary, UploadRow } from '../../../../lib/archive/schemas.ts';

export const getStaticPaths = () => uploadPaths();

export const GET: APIRoute = async ({ props }) => {
  const { session, upload } = props as { session: SessionSummary; upload: UploadRow };
  const bytes = await readUploadBytes(session.ref, upload.file);
  // An upload that vanished or grew too large publishes an empty file rather than failing the build.
  return new Response(new Uint8Array(bytes ?? []), { headers: { 'Content-Type': upload.mediaType } });
};
