/**
 * Redacting a session as the archive store keeps it (transcript lines as read, file bytes, problem messages), for
 * the shareable `--export` copy: the same scan as `redactSession`, over all texts of one session at once, so a
 * secret the site removes is removed from the export too, wherever in the session it is written. Pure: no disk.
 */
import { isUtf8 } from 'node:buffer';
import { type Hit, applyHits, mergeHits, scanTexts } from './scan.ts';

/** One text of a session: `json` for a transcript line (scanned in its decoded readings, as the site does). */
export interface StoredText {
  text: string;
  json?: boolean;
}

/**
 * The hits of every text of one session, found in one scan (`result[i]` for `texts[i]`). Pass every text of the
 * session: a secret identified in one (by its name, by the full transcript) is then removed from all of them.
 */
export function scanSessionTexts(texts: readonly StoredText[]): Promise<Hit[][]> {
  return scanTexts(
    texts.map((t) => t.text),
    { json: texts.map((t) => t.json === true) },
  );
}

/** A stored file read as text for the scan, with how to write it back; `undefined` for a binary file. */
export interface FileText {
  text: string;
  /**
   * `utf8` for valid UTF-8; `latin1` for a text file with odd bytes (a stray non-UTF-8 byte, a NUL): one character
   * per byte, so every secret (ASCII) is found where it is, and the bytes around it are written back unchanged.
   */
  encoding: 'utf8' | 'latin1';
}

/** Signatures of binary formats an upload or a scratch file may be (images, archives, documents, executables). */
const BINARY_MAGIC: readonly number[][] = [
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0x52, 0x49, 0x46, 0x46], // RIFF (WebP, WAV, AVI)
  [0x25, 0x50, 0x44, 0x46], // %PDF
  [0x50, 0x4b, 0x03, 0x04], // zip (docx, xlsx, jar…)
  [0x1f, 0x8b], // gzip
  [0x28, 0xb5, 0x2f, 0xfd], // zstd
  [0x42, 0x5a, 0x68], // bzip2
  [0x37, 0x7a, 0xbc, 0xaf], // 7z
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0x00, 0x61, 0x73, 0x6d], // wasm
  [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], // SQLite
  [0x00, 0x00, 0x01, 0x00], // ICO
  [0x49, 0x49, 0x2a, 0x00], // TIFF
  [0x4d, 0x4d, 0x00, 0x2a], // TIFF
];
/** Bytes looked at to judge a file without a known signature. */
const SAMPLE_BYTES = 64 * 1024;
/** Share of control bytes (NUL and the like, not tab, newline, CR, form feed or escape) that makes a file binary. */
const BINARY_SHARE = 0.1;

/**
 * Is this file binary? By its content as a whole: a known signature, or many control bytes in its first 64 KiB.
 * One NUL or one byte that is not UTF-8 does not make a text file binary (issue 19: such a file was copied into
 * the export unredacted).
 */
export function looksBinary(bytes: Uint8Array): boolean {
  if (BINARY_MAGIC.some((magic) => magic.every((b, i) => bytes[i] === b))) return true;
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  if (sample.length === 0) return false;
  let control = 0;
  for (const b of sample) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) control++;
  return control / sample.length > BINARY_SHARE;
}

/** The file as text to scan, or `undefined` when it is binary (shared as the site publishes it: not read). */
export function fileText(bytes: Uint8Array): FileText | undefined {
  if (looksBinary(bytes)) return undefined;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return isUtf8(buffer) ? { text: buffer.toString('utf8'), encoding: 'utf8' } : { text: buffer.toString('latin1'), encoding: 'latin1' };
}

/** The bytes of a file's text with `hits` replaced, in the file's own encoding. */
export function redactedFileBytes(file: FileText, hits: readonly Hit[]): Buffer {
  return Buffer.from(applyHits(file.text, hits), file.encoding);
}

export { applyHits, mergeHits, type Hit };
