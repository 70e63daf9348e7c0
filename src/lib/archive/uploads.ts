/**
 * Bytes of an uploaded raster image, for the static endpoint that publishes it. Only files the reader listed as
 * uploads are served, through the reader's confined file access (symlinks out of the folder are refused), or from
 * the archive store for a stored session.
 */
import type { SessionRefData } from './schemas.ts';
import { readArchivedFile } from './source.ts';

/** Largest upload published; bigger files are listed but not copied. */
export const UPLOAD_MAX_BYTES = 25 * 1024 * 1024;

/** The bytes of `file` (relative to the session folder), or undefined when it cannot or should not be served. */
export async function readUploadBytes(ref: SessionRefData, file: string): Promise<Uint8Array | undefined> {
  if (file.split(/[\\/]/).includes('..')) return undefined;
  const got = await readArchivedFile(ref, file, UPLOAD_MAX_BYTES + 1);
  if (!got || got.size > UPLOAD_MAX_BYTES) return undefined;
  return new Uint8Array(got.bytes);
}
