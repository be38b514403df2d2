import assert from "node:assert/strict";
import { test } from "node:test";

import {
  base64,
  decodeSurrogateEscape,
  encodeSurrogateEscape,
  pyRstrip,
  pySplitlines,
  pyStrip,
  splitByteLines,
  toHex,
  utf8,
} from "../src/bytes.js";
import { ripemd160, sha256, shake256 } from "../src/hashes.js";

test("base64 is the standard alphabet with padding", () => {
  assert.equal(base64(utf8("")), "");
  assert.equal(base64(utf8("f")), "Zg==");
  assert.equal(base64(utf8("fo")), "Zm8=");
  assert.equal(base64(utf8("foo")), "Zm9v");
  assert.equal(base64(utf8("12,345.6 7")), Buffer.from("12,345.6 7").toString("base64"));
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  assert.equal(base64(all), Buffer.from(all).toString("base64"));
});

test("surrogateescape keeps bytes that are not UTF-8, byte for byte", () => {
  const samples = [
    [0x41, 0xff, 0x42],
    [0xc3, 0xa9], // é
    [0xc3], // truncated
    [0xe2, 0x82, 0x41], // truncated three-byte sequence
    [0xed, 0xa0, 0x80], // an encoded surrogate is not UTF-8
    [0xf0, 0x9f, 0x82, 0xa1], // a playing card, outside the BMP
    [0xc0, 0xaf], // overlong
  ];
  for (const sample of samples) {
    const bytes = new Uint8Array(sample);
    assert.deepEqual(encodeSurrogateEscape(decodeSurrogateEscape(bytes)), bytes, sample.join(","));
  }
  assert.equal(decodeSurrogateEscape(new Uint8Array([0x41, 0xff])), "A\udcff");
  assert.equal(decodeSurrogateEscape(new Uint8Array([0xc3, 0xa9])), "é");
});

test("lines and spaces are split and trimmed as Python does", () => {
  assert.deepEqual(pySplitlines("a\r\nb\rc\nd\x0be\u2028f\n"), ["a", "b", "c", "d", "e", "f"]);
  assert.deepEqual(pySplitlines("a\n\n"), ["a", ""]);
  assert.deepEqual(pySplitlines(""), []);
  assert.equal(pyStrip("\u00a0 x\u3000\x1f"), "x");
  assert.equal(pyRstrip(" x \t"), " x");
  assert.equal(pyStrip("\ufeffx"), "\ufeffx"); // not white space for Python
  assert.deepEqual(splitByteLines(utf8("a\r\nb\rc\nd\x0be")).map((l) => Buffer.from(l).toString()), ["a", "b", "c", "d\x0be"]);
});

test("hashes give the published test values", async () => {
  assert.equal(toHex(ripemd160(utf8(""))), "9c1185a5c5e9fc54612808977ee8f548b2258d31");
  assert.equal(toHex(ripemd160(utf8("abc"))), "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc");
  const empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  assert.equal(toHex(await sha256(utf8(""), "webcrypto")), empty);
  assert.equal(toHex(await sha256(utf8(""), "noble")), empty);
  const text = utf8("The quick brown fox jumps over the lazy dog");
  assert.deepEqual(await sha256(text, "webcrypto"), await sha256(text, "noble"));
  assert.equal(toHex(shake256(utf8(""), 8)), "46b9dd2b0ba88d13");
});
