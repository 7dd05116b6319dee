/**
 * Reading a `.safetensors` file: an 8-byte little-endian header length, a JSON header naming each tensor's dtype,
 * shape and byte range, then the raw data. Only float weights are read (F32 as is, F16 and BF16 widened).
 */

export interface Weights {
  names(): string[];
  has(name: string): boolean;
  shape(name: string): number[];
  /** The tensor's values as float32, row-major. Throws when the file has no such tensor. */
  floats(name: string): Float32Array;
}

interface Entry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

export class WeightsError extends Error {
  override name = "WeightsError";
}

export function readSafetensors(file: Uint8Array): Weights {
  if (file.length < 8) throw new WeightsError("not a safetensors file: shorter than its header");
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength > file.length - 8 || headerLength > 100_000_000)
    throw new WeightsError("not a safetensors file: its header length runs past the file");
  let header: Record<string, Entry>;
  try {
    header = JSON.parse(new TextDecoder().decode(file.subarray(8, 8 + headerLength)));
  } catch {
    throw new WeightsError("not a safetensors file: its header is not JSON");
  }
  const base = 8 + headerLength;
  const entry = (name: string): Entry => {
    const e = header[name];
    if (!e || name === "__metadata__") throw new WeightsError(`the weights have no tensor '${name}'`);
    return e;
  };
  return {
    names: () => Object.keys(header).filter((k) => k !== "__metadata__"),
    has: (name) => name !== "__metadata__" && name in header,
    shape: (name) => [...entry(name).shape],
    floats(name) {
      const e = entry(name);
      const [start, end] = e.data_offsets;
      if (start < 0 || end < start || base + end > file.length)
        throw new WeightsError(`the tensor '${name}' runs past the end of the file`);
      const raw = file.subarray(base + start, base + end);
      const count = e.shape.reduce((a, b) => a * b, 1);
      const out = new Float32Array(count);
      const data = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
      const width = { F32: 4, F16: 2, BF16: 2 }[e.dtype];
      if (!width) throw new WeightsError(`the tensor '${name}' is ${e.dtype}; only F32, F16 and BF16 are read`);
      if (raw.length !== count * width) throw new WeightsError(`the tensor '${name}' has the wrong byte length`);
      for (let i = 0; i < count; i++) {
        if (e.dtype === "F32") out[i] = data.getFloat32(i * 4, true);
        else if (e.dtype === "BF16") out[i] = bf16(data.getUint16(i * 2, true));
        else out[i] = f16(data.getUint16(i * 2, true));
      }
      return out;
    },
  };
}

const scratch = new DataView(new ArrayBuffer(4));

function bf16(bits: number): number {
  scratch.setUint32(0, bits << 16);
  return scratch.getFloat32(0);
}

function f16(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}
