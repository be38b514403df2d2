// Big Deal 2.0 (bigdealx): the stream of deals made from a 20-byte seed and an owner.
//
// oh = RIPEMD160(owner); a 32-bit counter k starts at 0 and runs on across boards; for each
// board, repeat k += 1, h = RIPEMD160(LE32(k) ‖ seed ‖ oh), cand = the first 12 bytes of h
// read big-endian, until cand < D: that cand is the board's Gödel number.  The board number is
// not hashed, so boards 17-32 of a run are the deals of boards 1-16, relabelled.

import { bigEndian, concat, u32le } from "./bytes.js";
import { D, goedelUnrank, standardBoard } from "./deals.js";
import { ripemd160 } from "./hashes.js";

/** The seed of `bigdealx -e P1 -e P2 ...`: RIPEMD-160 of the entropy bytes joined. */
export function seedFromEntropy(bytes) {
  return ripemd160(bytes);
}

/** The Gödel numbers bigdealx draws for `seed` (20 bytes) and `owner` (bytes). */
export class BigDealStream {
  constructor(seed, owner) {
    if (seed.length !== 20) throw new Error("a Big Deal seed is 20 bytes");
    this.seed = seed;
    this.ownerHash = ripemd160(owner);
    this.counter = 0;
  }

  nextGoedel() {
    for (;;) {
      this.counter += 1;
      if (this.counter >= 2 ** 32) throw new Error("Big Deal's 32-bit counter is exhausted");
      const digest = ripemd160(concat(u32le(this.counter), this.seed, this.ownerHash));
      const candidate = bigEndian(digest.subarray(0, 12));
      if (candidate < D) return candidate;
    }
  }
}

/** The boards bigdealx makes for `seed`, `owner` and the board numbers `numbers`, in order. */
export function bigdealBoards(seed, owner, numbers) {
  const stream = new BigDealStream(seed, owner);
  return numbers.map((number) => {
    const g = stream.nextGoedel();
    return standardBoard(number, goedelUnrank(g), g);
  });
}
