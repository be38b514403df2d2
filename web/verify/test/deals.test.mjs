import assert from "node:assert/strict";
import { test } from "node:test";

import { D, dealerOf, formatDeal, goedelUnrank, vulnerabilityOf } from "../src/deals.js";
import { jsonOf } from "./helpers.mjs";

const VECTORS = jsonOf("tests", "vectors", "bigdeal", "vectors.json");

test("D is the number of bridge deals", () => {
  assert.equal(D, BigInt(VECTORS.constants.D));
  assert.equal("0x" + D.toString(16), VECTORS.constants.D_hex);
});

test("Gödel numbers give Big Deal's deals", () => {
  assert.ok(VECTORS.goedel.length >= 20);
  for (const { goedel, deal } of VECTORS.goedel) {
    assert.equal(formatDeal(goedelUnrank(BigInt(goedel))), "N:" + deal, goedel);
  }
});

test("numbers out of range are refused", () => {
  assert.throws(() => goedelUnrank(D), RangeError);
  assert.throws(() => goedelUnrank(-1n), RangeError);
});

test("dealer and vulnerability follow the standard cycles", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 16, 33].map(dealerOf), ["N", "E", "S", "W", "N", "W", "N"]);
  const cycle = "None NS EW All NS EW All None EW All None NS All None NS EW".split(" ");
  for (let b = 1; b <= 32; b++) assert.equal(vulnerabilityOf(b), cycle[(b - 1) % 16], String(b));
});
