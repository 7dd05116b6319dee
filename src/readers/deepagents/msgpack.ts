/**
 * MessagePack as LangGraph's checkpointer writes it (`langgraph.checkpoint.serde.jsonplus`, packed by ormsgpack):
 * plain MessagePack, plus extension types that stand for Python objects. Each extension's payload is MessagePack
 * again: a pydantic model (LangChain's messages: code 5, `[module, class, fields, method]`) or a constructor call
 * with keyword arguments (code 2, `[module, class, kwargs]`) becomes its fields with the class named as `__class`;
 * positional arguments (1) become their list, a single argument (0) or method argument (3) the argument itself, a
 * delta snapshot (7) the value it wraps. A NumPy array (6) is nothing cairn reads.
 */

const EXT_CONSTRUCTOR_SINGLE_ARG = 0;
const EXT_CONSTRUCTOR_POS_ARGS = 1;
const EXT_CONSTRUCTOR_KW_ARGS = 2;
const EXT_METHOD_SINGLE_ARG = 3;
const EXT_PYDANTIC_V1 = 4;
const EXT_PYDANTIC_V2 = 5;
const EXT_DELTA_SNAPSHOT = 7;

const utf8 = new TextDecoder("utf-8");

/** Bytes that follow a type byte of fixed size: numbers, and extensions of 1 to 16 bytes (their code included). */
const FIXED: Record<number, number> = {
  202: 4,
  203: 8,
  204: 1,
  205: 2,
  206: 4,
  207: 8,
  208: 1,
  209: 2,
  210: 4,
  211: 8,
  212: 2,
  213: 3,
  214: 5,
  215: 9,
  216: 17,
};

/**
 * Decodes one value from the bytes a hex string spells (SQLite's `hex()` of the blob); the values of map keys in
 * `skip` are passed over unread (what the caller never looks at, spared the objects it would cost).
 */
export function unpackHex(hex: string, skip?: ReadonlySet<string>): unknown {
  return unpack(Buffer.from(hex, "hex"), skip);
}

export function unpack(buf: Uint8Array, skip?: ReadonlySet<string>): unknown {
  const r = new Cursor(buf, skip);
  const value = r.value();
  if (r.at !== buf.length) throw new Error(`msgpack: ${buf.length - r.at} bytes after the value`);
  return value;
}

class Cursor {
  at = 0;
  private readonly buf: Uint8Array;
  private readonly view: DataView;
  private readonly skip: ReadonlySet<string> | undefined;
  constructor(buf: Uint8Array, skip?: ReadonlySet<string>) {
    this.buf = buf;
    this.skip = skip;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  private need(n: number): number {
    const at = this.at;
    if (at + n > this.buf.length) throw new Error("msgpack: truncated value");
    this.at += n;
    return at;
  }
  private u8(): number {
    return this.view.getUint8(this.need(1));
  }
  private u16(): number {
    return this.view.getUint16(this.need(2));
  }
  private u32(): number {
    return this.view.getUint32(this.need(4));
  }
  private bytes(n: number): Uint8Array {
    const at = this.need(n);
    return this.buf.subarray(at, at + n);
  }
  private text(n: number): string {
    const at = this.need(n);
    // Most strings are short keys and ids: read as ASCII without the decoder's call, until a byte that is not.
    if (n <= 64) {
      let out = "";
      for (let i = at; i < at + n; i++) {
        const c = this.buf[i]!;
        if (c >= 0x80) return utf8.decode(this.buf.subarray(at, at + n));
        out += String.fromCharCode(c);
      }
      return out;
    }
    return utf8.decode(this.buf.subarray(at, at + n));
  }

  value(): unknown {
    const b = this.u8();
    if (b <= 0x7f) return b;
    if (b >= 0xe0) return b - 0x100;
    if ((b & 0xf0) === 0x80) return this.map(b & 0x0f);
    if ((b & 0xf0) === 0x90) return this.array(b & 0x0f);
    if ((b & 0xe0) === 0xa0) return this.text(b & 0x1f);
    return this.tagged(b);
  }

  private tagged(b: number): unknown {
    const v = this.view;
    switch (b) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
        return this.bytes(this.u8());
      case 0xc5:
        return this.bytes(this.u16());
      case 0xc6:
        return this.bytes(this.u32());
      case 0xc7:
        return this.ext(this.u8());
      case 0xc8:
        return this.ext(this.u16());
      case 0xc9:
        return this.ext(this.u32());
      case 0xca:
        return v.getFloat32(this.need(4));
      case 0xcb:
        return v.getFloat64(this.need(8));
      case 0xcc:
        return this.u8();
      case 0xcd:
        return this.u16();
      case 0xce:
        return this.u32();
      case 0xcf:
        return Number(v.getBigUint64(this.need(8)));
      case 0xd0:
        return v.getInt8(this.need(1));
      case 0xd1:
        return v.getInt16(this.need(2));
      case 0xd2:
        return v.getInt32(this.need(4));
      case 0xd3:
        return Number(v.getBigInt64(this.need(8)));
      case 0xd4:
        return this.ext(1);
      case 0xd5:
        return this.ext(2);
      case 0xd6:
        return this.ext(4);
      case 0xd7:
        return this.ext(8);
      case 0xd8:
        return this.ext(16);
      case 0xd9:
        return this.text(this.u8());
      case 0xda:
        return this.text(this.u16());
      case 0xdb:
        return this.text(this.u32());
      case 0xdc:
        return this.array(this.u16());
      case 0xdd:
        return this.array(this.u32());
      case 0xde:
        return this.map(this.u16());
      case 0xdf:
        return this.map(this.u32());
      default:
        throw new Error(`msgpack: unknown type byte 0x${b.toString(16)}`);
    }
  }

  private array(n: number): unknown[] {
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) out.push(this.value());
    return out;
  }

  private map(n: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const k = this.value();
      if (typeof k === "string" && this.skip?.has(k)) this.pass();
      else out[typeof k === "string" ? k : JSON.stringify(k)] = this.value();
    }
    return out;
  }

  private ext(n: number): unknown {
    const code = this.view.getInt8(this.need(1));
    const payload = unpack(this.bytes(n), this.skip);
    return pythonObject(code, payload);
  }

  /** Moves past one value without building it. */
  private pass(): void {
    const b = this.u8();
    if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) return;
    if ((b & 0xf0) === 0x80) return this.passMany((b & 0x0f) * 2);
    if ((b & 0xf0) === 0x90) return this.passMany(b & 0x0f);
    if ((b & 0xe0) === 0xa0) return void this.need(b & 0x1f);
    const fixed = FIXED[b];
    if (fixed !== undefined) return void this.need(fixed);
    switch (b) {
      case 0xc4:
      case 0xd9:
        return void this.need(this.u8());
      case 0xc5:
      case 0xda:
        return void this.need(this.u16());
      case 0xc6:
      case 0xdb:
        return void this.need(this.u32());
      case 0xc7:
        return void this.need(this.u8() + 1);
      case 0xc8:
        return void this.need(this.u16() + 1);
      case 0xc9:
        return void this.need(this.u32() + 1);
      case 0xdc:
        return this.passMany(this.u16());
      case 0xdd:
        return this.passMany(this.u32());
      case 0xde:
        return this.passMany(this.u16() * 2);
      case 0xdf:
        return this.passMany(this.u32() * 2);
      default:
        throw new Error(`msgpack: unknown type byte 0x${b.toString(16)}`);
    }
  }

  private passMany(n: number): void {
    for (let i = 0; i < n; i++) this.pass();
  }
}

/** What an extension's payload stands for (see the file's comment). */
function pythonObject(code: number, payload: unknown): unknown {
  const p = Array.isArray(payload) ? payload : [];
  switch (code) {
    case EXT_PYDANTIC_V2:
    case EXT_PYDANTIC_V1:
    case EXT_CONSTRUCTOR_KW_ARGS: {
      const fields = p[2];
      // The fields' map was made for this object alone: it takes the class name itself, without a copy.
      if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return { __class: p[1] };
      (fields as Record<string, unknown>)["__class"] = p[1];
      return fields;
    }
    case EXT_CONSTRUCTOR_POS_ARGS:
      return Array.isArray(p[2]) ? p[2] : [];
    case EXT_CONSTRUCTOR_SINGLE_ARG:
    case EXT_METHOD_SINGLE_ARG:
      return p[2] ?? null;
    case EXT_DELTA_SNAPSHOT:
      return payload;
    default:
      return null;
  }
}
