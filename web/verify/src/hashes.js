// The hash functions verification needs.
//
// SHA-256 comes from the browser's own WebCrypto (crypto.subtle), with @noble/hashes where a
// browser does not offer it; RIPEMD-160 (Big Deal) and SHAKE-256 (croupier-boards), which
// WebCrypto lacks, come from @noble/hashes, an audited, dependency-free library that the
// build bundles into the page.

import { ripemd160 as nobleRipemd160 } from "@noble/hashes/legacy.js";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { shake256 as nobleShake256 } from "@noble/hashes/sha3.js";

/** Where SHA-256 comes from: "webcrypto" when the environment has crypto.subtle, else "noble". */
export function sha256Source() {
  return globalThis.crypto?.subtle ? "webcrypto" : "noble";
}

/**
 * SHA-256 of `bytes` (a Promise of 32 bytes).  `source` forces "webcrypto" or "noble"
 * (tests compare the two); by default WebCrypto is used where it exists.
 */
export async function sha256(bytes, source = sha256Source()) {
  if (source === "webcrypto") {
    return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
  }
  return nobleSha256(bytes);
}

/** RIPEMD-160 of `bytes` (20 bytes). */
export function ripemd160(bytes) {
  return nobleRipemd160(bytes);
}

/** The first `length` bytes of the SHAKE-256 output for `bytes`. */
export function shake256(bytes, length) {
  return nobleShake256(bytes, { dkLen: length });
}
