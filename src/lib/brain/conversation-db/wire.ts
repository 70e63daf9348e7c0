/**
 * A protobuf message read without its schema: every field by number, through `@bufbuild/protobuf`'s wire reader
 * (`BinaryReader`), which owns varints, lengths, groups and their bounds. Antigravity's conversation database keeps
 * its columns as schemaless protobuf (real-db README §2); `fields.ts` names which numbers mean what.
 */
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';

type WireValue = { wire: WireType.Varint; value: bigint } | { wire: WireType.LengthDelimited; value: Uint8Array } | { wire: WireType.Bit64 | WireType.Bit32 | WireType.StartGroup; value: Uint8Array };

/** Thrown for bytes that are not a protobuf message (the caller turns it into a problem with its column and row). */
export class MalformedBlob extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** Nested messages decoded at most this deep: a hostile blob cannot recurse without end. */
const MAX_DEPTH = 32;

/** One message: its fields in wire order, grouped by number. Decoding is eager for this level only. */
export class ProtoMessage {
  private readonly fields = new Map<number, WireValue[]>();

  private readonly depth: number;

  private constructor(depth: number) {
    this.depth = depth;
  }

  /** Decode `bytes`, or throw `MalformedBlob`. */
  static decode(bytes: Uint8Array, depth = 0): ProtoMessage {
    if (depth > MAX_DEPTH) throw new MalformedBlob(`nested deeper than ${MAX_DEPTH} messages`);
    const msg = new ProtoMessage(depth);
    const reader = new BinaryReader(bytes);
    try {
      while (reader.pos < reader.len) {
        const [no, wire] = reader.tag();
        if (no <= 0) throw new MalformedBlob(`field number ${no}`);
        let entry: WireValue;
        if (wire === WireType.Varint) entry = { wire, value: BigInt(reader.uint64()) };
        else if (wire === WireType.LengthDelimited) entry = { wire, value: reader.bytes() };
        else if (wire === WireType.Bit64 || wire === WireType.Bit32 || wire === WireType.StartGroup) entry = { wire, value: reader.skip(wire, no) };
        else throw new MalformedBlob(`wire type ${wire} at byte ${reader.pos}`);
        const list = msg.fields.get(no);
        if (list) list.push(entry);
        else msg.fields.set(no, [entry]);
      }
    } catch (error) {
      if (error instanceof MalformedBlob) throw error;
      throw new MalformedBlob(error instanceof Error ? error.message : String(error));
    }
    return msg;
  }

  /** Decode, or `undefined` for absent or malformed bytes. */
  static tryDecode(bytes: Uint8Array | null | undefined): ProtoMessage | undefined {
    if (!bytes) return undefined;
    try {
      return ProtoMessage.decode(bytes);
    } catch {
      return undefined;
    }
  }

  has(no: number): boolean {
    return this.fields.has(no);
  }

  /** The last varint of field `no` (protobuf: the last value of a scalar wins). */
  varint(no: number): bigint | undefined {
    const list = this.fields.get(no);
    for (let i = (list?.length ?? 0) - 1; i >= 0; i--) {
      const v = list![i]!;
      if (v.wire === WireType.Varint) return v.value;
    }
    return undefined;
  }

  /** The last varint of field `no` as a number, when it is a safe integer. */
  int(no: number): number | undefined {
    const v = this.varint(no);
    if (v === undefined || v > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
    return Number(v);
  }

  /** Every length-delimited value of field `no`. */
  bytesAll(no: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (const v of this.fields.get(no) ?? []) if (v.wire === WireType.LengthDelimited) out.push(v.value);
    return out;
  }

  bytes(no: number): Uint8Array | undefined {
    return this.bytesAll(no).at(-1);
  }

  /** Field `no` as UTF-8 text (bytes that are not UTF-8 become U+FFFD, as the transcripts' reader does). */
  string(no: number): string | undefined {
    const b = this.bytes(no);
    return b === undefined ? undefined : utf8.decode(b);
  }

  /** Field `no` as a nested message; throws `MalformedBlob` when its bytes are not one. */
  message(no: number): ProtoMessage | undefined {
    const b = this.bytes(no);
    return b === undefined ? undefined : ProtoMessage.decode(b, this.depth + 1);
  }

  /** Every value of a repeated message field. */
  messages(no: number): ProtoMessage[] {
    return this.bytesAll(no).map((b) => ProtoMessage.decode(b, this.depth + 1));
  }

  /** A packed repeated varint field (and unpacked entries, which a reader must accept too). */
  packedInts(no: number): number[] {
    const out: number[] = [];
    for (const v of this.fields.get(no) ?? []) {
      if (v.wire === WireType.Varint) out.push(Number(v.value));
      else if (v.wire === WireType.LengthDelimited) {
        const reader = new BinaryReader(v.value);
        try {
          while (reader.pos < reader.len) out.push(Number(BigInt(reader.uint64())));
        } catch (error) {
          throw new MalformedBlob(error instanceof Error ? error.message : String(error));
        }
      }
    }
    return out;
  }
}
