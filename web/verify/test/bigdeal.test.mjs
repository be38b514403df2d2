import assert from "node:assert/strict";
import { test } from "node:test";

import { BigDealStream, bigdealBoards, seedFromEntropy } from "../src/bigdeal.js";
import { numbersOf, parseBoardRange } from "../src/boards.js";
import { concat, fromHex, toHex, utf8 } from "../src/bytes.js";
import { formatDeal } from "../src/deals.js";
import { ripemd160 } from "../src/hashes.js";
import { jsonOf } from "./helpers.mjs";

const RUNS = jsonOf("tests", "vectors", "bigdeal", "vectors.json").bigdealx;

test("every recorded bigdealx run is regenerated exactly", () => {
  assert.ok(RUNS.length >= 9);
  for (const run of RUNS) {
    const seed = run.h !== null ? fromHex(run.h) : seedFromEntropy(concat(...run.e.map(utf8)));
    assert.equal(toHex(seed), run.seed_random_hex.toLowerCase(), run.name);
    const owner = utf8(run.W ?? run.bigdealrc_owner); // -W, else the owner of .bigdealrc
    if (run.owner !== null) assert.equal(run.W ?? run.bigdealrc_owner, run.owner);
    assert.equal(toHex(ripemd160(owner)), run.owner_hash_hex, run.name);
    const numbers = numbersOf(parseBoardRange(run.n));
    const boards = bigdealBoards(seed, owner, numbers);
    assert.deepEqual(
      boards.map((b) => ({ board: b.number, goedel: String(b.goedel), deal: formatDeal(b.hands).slice(2), dealer: b.dealer, vulnerable: b.vulnerable })),
      run.deals,
      run.name,
    );
    const stream = new BigDealStream(seed, owner);
    const counters = numbers.map(() => (stream.nextGoedel(), stream.counter));
    assert.deepEqual(counters, run.accepted_counters, run.name);
  }
});

test("a changed seed or owner gives other deals", () => {
  const run = RUNS.find((r) => r.name === "W_e_simple");
  const other = bigdealBoards(seedFromEntropy(utf8("hellp")), utf8(run.W), [1]);
  assert.notEqual(formatDeal(other[0].hands).slice(2), run.deals[0].deal);
  const owner = bigdealBoards(seedFromEntropy(utf8("hello")), utf8("tesT"), [1]);
  assert.notEqual(formatDeal(owner[0].hands).slice(2), run.deals[0].deal);
});
