// Bytes and text as croupier's Python code sees them.
//
// The Python side reads event files as UTF-8 with "surrogateescape" (bytes that are not
// UTF-8 survive unchanged), splits lines with str.splitlines() and trims with str.strip():
// the helpers here do exactly the same, so the page and `croupier ... verify` read a file
// the same way, byte for byte.

const encoder = new TextEncoder();

/** The UTF-8 bytes of a string (as Python's `text.encode("utf-8")`). */
export function utf8(text) {
  return encoder.encode(text);
}

/** Bytes as lower-case hex. */
export function toHex(bytes) {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** Bytes from hex digits (any case); throws on anything else. */
export function fromHex(hex) {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Error("not hex digits");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The concatenation of byte arrays. */
export function concat(...parts) {
  const size = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A number 0 <= n < 2^32 as 4 bytes, big-endian. */
export function u32be(n) {
  return new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
}

/** A number 0 <= n < 2^32 as 4 bytes, little-endian. */
export function u32le(n) {
  return new Uint8Array([n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255]);
}

/** `u32be(len(x)) ‖ x`: a length-prefixed field. */
export function field(bytes) {
  return concat(u32be(bytes.length), bytes);
}

/** Bytes as a big-endian unsigned integer (BigInt). */
export function bigEndian(bytes) {
  let value = 0n;
  for (const b of bytes) value = (value << 8n) | BigInt(b);
  return value;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard base64 with `=` padding and no line breaks. */
export function base64(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += BASE64[(n >> 18) & 63] + BASE64[(n >> 12) & 63];
    out += i + 1 < bytes.length ? BASE64[(n >> 6) & 63] : "=";
    out += i + 2 < bytes.length ? BASE64[n & 63] : "=";
  }
  return out;
}

/** Bytes whose every byte is a character U+0000..U+00FF (Latin-1), e.g. ASCII text. */
export function latin1(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return out;
}

// The length of the UTF-8 sequence that starts at bytes[i], or 0 when it is not valid UTF-8
// (overlong forms, surrogates and values past U+10FFFF are invalid, as in Python).
function sequenceLength(bytes, i) {
  const b0 = bytes[i];
  if (b0 < 0x80) return 1;
  const cont = (k) => i + k < bytes.length && (bytes[i + k] & 0xc0) === 0x80;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    if (!cont(1) || !cont(2)) return 0;
    const b1 = bytes[i + 1];
    if (b0 === 0xe0 && b1 < 0xa0) return 0; // overlong
    if (b0 === 0xed && b1 >= 0xa0) return 0; // surrogate
    return 3;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const b1 = bytes[i + 1];
    if (b0 === 0xf0 && b1 < 0x90) return 0; // overlong
    if (b0 === 0xf4 && b1 >= 0x90) return 0; // past U+10FFFF
    return 4;
  }
  return 0;
}

/**
 * Bytes decoded as UTF-8 with Python's "surrogateescape": a byte that is not part of a valid
 * UTF-8 sequence becomes the lone surrogate U+DC80 + byte, so encodeSurrogateEscape gives the
 * bytes back exactly.
 */
export function decodeSurrogateEscape(bytes) {
  const decoder = new TextDecoder("utf-8");
  let out = "";
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += decoder.decode(bytes.subarray(start, i)) + String.fromCharCode(0xdc00 + bytes[i]);
    i += 1;
    start = i;
  }
  return out + decoder.decode(bytes.subarray(start));
}

/** The bytes of a string made by decodeSurrogateEscape (lone U+DC80..U+DCFF become bytes). */
export function encodeSurrogateEscape(text) {
  const parts = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const paired = i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff;
    if (c >= 0xdc80 && c <= 0xdcff && !paired) {
      parts.push(encoder.encode(text.slice(start, i)), new Uint8Array([c - 0xdc00]));
      start = i + 1;
    }
  }
  parts.push(encoder.encode(text.slice(start)));
  return concat(...parts);
}

// Python's str.isspace(): these characters and no others.
const PY_SPACE = new Set(
  [
    0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000,
    0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028,
    0x2029, 0x202f, 0x205f, 0x3000,
  ].map((c) => String.fromCharCode(c)),
);

/** Python's `str.isspace()` for one character. */
export function isPySpace(ch) {
  return PY_SPACE.has(ch);
}

/** Python's `text.rstrip()`. */
export function pyRstrip(text) {
  let end = text.length;
  while (end > 0 && PY_SPACE.has(text[end - 1])) end--;
  return text.slice(0, end);
}

/** Python's `text.strip()`. */
export function pyStrip(text) {
  let start = 0;
  while (start < text.length && PY_SPACE.has(text[start])) start++;
  return pyRstrip(text.slice(start));
}

// The line boundaries of Python's str.splitlines() (\r\n counts as one).
const PY_LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** Python's `text.splitlines()`: no empty last line, line ends dropped. */
export function pySplitlines(text) {
  if (text === "") return [];
  const lines = text.split(new RegExp(PY_LINE_BREAK.source, "g"));
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Python's `bytes.splitlines()`: only \n, \r and \r\n end a line. */
export function splitByteLines(bytes) {
  const lines = [];
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b === 0x0a || b === 0x0d) {
      lines.push(bytes.subarray(start, i));
      i += b === 0x0d && bytes[i + 1] === 0x0a ? 2 : 1;
      start = i;
    } else {
      i++;
    }
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/** A short quotation of bad input for a one-line message (at most `limit` characters). */
export function excerpt(text, limit = 40) {
  const shown = text.length <= limit ? text : text.slice(0, limit);
  const quoted = JSON.stringify(shown).slice(1, -1).replace(/'/g, "\\'");
  return text.length <= limit ? `'${quoted}'` : `'${quoted}'... (${text.length} characters)`;
}

/** `text` as a number when it is 1 to `maxDigits` ASCII digits, else null. */
export function boundedDecimal(text, maxDigits) {
  if (text.length < 1 || text.length > maxDigits || !/^[0-9]+$/.test(text)) return null;
  return Number(text);
}
