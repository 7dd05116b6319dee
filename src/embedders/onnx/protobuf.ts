/**
 * The little of the protobuf wire format an ONNX file needs: varints, length-delimited fields, packed repeated
 * integers. Messages are built as lists of byte chunks and joined once, so a 90 MB tensor is copied a single time.
 */

export type Chunks = Uint8Array[];

function varint(value: number | bigint): Uint8Array {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

const key = (field: number, wire: 0 | 2 | 5) => varint((field << 3) | wire);

export function size(chunks: Chunks): number {
  let n = 0;
  for (const c of chunks) n += c.length;
  return n;
}

/** An integer field (wire type 0). */
export function int(field: number, value: number | bigint): Chunks {
  return [key(field, 0), varint(value)];
}

/** A 32-bit float field (wire type 5). */
export function float(field: number, value: number): Chunks {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, value, true);
  return [key(field, 5), b];
}

/** Bytes, a string or an embedded message (wire type 2). */
export function bytes(field: number, value: Uint8Array | string | Chunks): Chunks {
  if (typeof value === "string") value = new TextEncoder().encode(value);
  const body = value instanceof Uint8Array ? [value] : value;
  return [key(field, 2), varint(size(body)), ...body];
}

/** A repeated integer field, one entry per value (ONNX's schema is proto2: not packed). */
export function ints(field: number, values: readonly (number | bigint)[]): Chunks {
  return values.flatMap((v) => int(field, v));
}

export function join(chunks: Chunks): Uint8Array {
  const out = new Uint8Array(size(chunks));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
