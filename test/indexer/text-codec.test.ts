/**
 * Event texts and metas stored compressed (store/shared/text-codec.ts): a large compressible value becomes a BLOB
 * of its deflated UTF-8 and reads back as exactly the string it was; anything else stays as written.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  compressedHead,
  decodeStored,
  encodeStored,
  headChars,
  MIN_COMPRESSED_BYTES,
  sameStored,
  tailChars,
} from "../../src/store/shared/text-codec.ts";

/** A compressible text of exactly `bytes` UTF-8 bytes (ASCII). */
const ascii = (bytes: number) => "the build log says ok; ".repeat(Math.ceil(bytes / 23)).slice(0, bytes);
/** Random printable ASCII: about 6.6 bits a byte, so deflate saves well under the fifth that keeping it needs. */
const noise = (chars: number) => Array.from(randomBytes(chars), (b) => String.fromCharCode(32 + (b % 95))).join("");

describe("the stored form of a text", () => {
  it("round-trips large values exactly, non-ASCII and astral characters included", () => {
    for (const value of [
      ascii(4096),
      "naïve café — 日本語のログ 🚀🚀 ".repeat(100),
      `${"x".repeat(600)}\u0000tail`,
      JSON.stringify({ input: { path: "src/a.ts", content: "const a = 1;\n".repeat(80) } }),
    ]) {
      const stored = encodeStored(value);
      expect(stored).toBeInstanceOf(Buffer);
      expect((stored as Buffer).length).toBeLessThan(Buffer.byteLength(value) * 0.8);
      expect(decodeStored(stored)).toBe(value);
    }
  });

  it("keeps short, empty and incompressible values as they are", () => {
    expect(encodeStored("")).toBe("");
    expect(encodeStored("short")).toBe("short");
    const incompressible = noise(4000);
    expect(encodeStored(incompressible)).toBe(incompressible);
    expect(decodeStored("plain")).toBe("plain");
    expect(decodeStored(null)).toBe(null);
  });

  it("compresses from exactly the threshold in UTF-8 bytes, not in characters", () => {
    expect(encodeStored(ascii(MIN_COMPRESSED_BYTES - 1))).toBeTypeOf("string");
    const at = encodeStored(ascii(MIN_COMPRESSED_BYTES));
    expect(at).toBeInstanceOf(Buffer);
    expect(decodeStored(at)).toBe(ascii(MIN_COMPRESSED_BYTES));
    // 200 characters of three bytes each: 600 bytes, over the threshold though short in characters.
    const wide = "日".repeat(200);
    expect(encodeStored(wide)).toBeInstanceOf(Buffer);
    expect(decodeStored(encodeStored(wide))).toBe(wide);
  });

  it("stores a lone surrogate as SQLite would store the string: U+FFFD", () => {
    const value = `${"a".repeat(1000)}\ud800${"b".repeat(10)}`;
    expect(decodeStored(encodeStored(value))).toBe(`${"a".repeat(1000)}\ufffd${"b".repeat(10)}`);
  });

  it("reads a head by code points, as SQLite's substr counts, without inflating the rest", () => {
    const value = `🚀é${ascii(200_000)}`;
    const stored = encodeStored(value) as Buffer;
    expect(compressedHead(stored, 1)).toBe("🚀");
    expect(compressedHead(stored, 3)).toBe("🚀ét");
    expect(compressedHead(stored, 5000)).toBe(headChars(value, 5000));
    expect(compressedHead(stored, 10_000_000)).toBe(value);
    expect(compressedHead(stored, 0)).toBe("");
    // Text that compresses only about in half: a head takes a prefix of the compressed bytes, not all of them.
    const words = ["zeta", "ölçü", "日本", "🚀", "build", "ok\n", "error:", "42"];
    const varied = Array.from(randomBytes(400_000), (b) => words[b % words.length]).join(" ");
    const part = encodeStored(varied) as Buffer;
    expect(part).toBeInstanceOf(Buffer);
    for (const n of [1, 7, 1000, 30_000]) expect(compressedHead(part, n)).toBe(headChars(varied, n));
    expect(tailChars("ab🚀", 1)).toBe("🚀");
    expect(tailChars("ab🚀", 2)).toBe("b🚀");
    expect(headChars("🚀🚀", 1)).toBe("🚀");
  });

  it("compares stored values by what they stand for, never by identity", () => {
    const value = ascii(2000);
    const a = encodeStored(value) as Buffer;
    const b = Buffer.from(a);
    expect(sameStored(a, b)).toBe(true);
    expect(sameStored(new Uint8Array(a), value)).toBe(true);
    expect(sameStored(value, a)).toBe(true);
    expect(sameStored(a, encodeStored(ascii(2001)))).toBe(false);
    expect(sameStored("x", "x")).toBe(true);
    expect(sameStored("x", "y")).toBe(false);
  });
});
