import assert from "node:assert/strict";
import { test } from "node:test";

import { toHex, fromHex, utf8 } from "../src/bytes.js";
import {
  BoardPlan,
  boardGoedel,
  boardMessage,
  commitment,
  makeBoard,
  parseCommitment,
  parseKey,
  planCommitment,
} from "../src/croupier_boards.js";
import { formatDeal } from "../src/deals.js";
import { shake256 } from "../src/hashes.js";
import { jsonBlockAfter } from "./helpers.mjs";

// The test vectors of the specification, read from the page itself.
const V1 = jsonBlockAfter("verifiable-dealing.md", "croupier-boards/1 vectors");
const V2 = jsonBlockAfter("verifiable-dealing.md", "croupier-boards/2 vectors");

test("croupier-boards/1 commitments match the specification", async () => {
  assert.ok(V1.commitments.length >= 2);
  for (const v of V1.commitments) {
    assert.equal(await commitment(fromHex(v.key), v.event), v.commitment, v.event);
  }
});

test("croupier-boards/2 commitments and plans match the specification", async () => {
  assert.ok(V2.commitments.length >= 4);
  for (const v of V2.commitments) {
    const plan = BoardPlan.parse(v.plan);
    assert.equal(plan.format(), v.plan);
    assert.equal(toHex(plan.encode()), v.plan_hex);
    assert.equal(await planCommitment(fromHex(v.key), v.event, plan), v.commitment, v.plan);
  }
});

test("every board vector is regenerated: message, candidates, Gödel number, deal", () => {
  assert.ok(V1.boards.length >= 8);
  for (const v of V1.boards) {
    const key = fromHex(v.key);
    const dv = utf8(v.delayed_value);
    const message = boardMessage(key, v.event, dv, v.session, v.board);
    if (v.message_hex) assert.equal(toHex(message), v.message_hex);
    if (v.first_12_bytes_hex) assert.equal(toHex(shake256(message, 12)), v.first_12_bytes_hex);
    const g = boardGoedel(key, v.event, dv, v.session, v.board);
    assert.equal(String(g), v.goedel, `${v.session}/${v.board}`);
    const board = makeBoard(key, v.event, dv, v.session, v.board);
    assert.equal(formatDeal(board.hands), v.deal);
    assert.equal(board.dealer, v.dealer);
    assert.equal(board.vulnerable, v.vulnerable);
    // rejected_candidates: the accepted one is candidate number `rejected_candidates`
    const stream = shake256(message, 12 * (v.rejected_candidates + 1));
    const accepted = stream.subarray(12 * v.rejected_candidates);
    assert.equal(BigInt("0x" + toHex(accepted)), g);
  }
});

test("plans are read as croupier reads them", () => {
  assert.equal(BoardPlan.parse("2:17-32; 1:16").format(), "1:1-16;2:17-32");
  assert.deepEqual(BoardPlan.parse("1:1-16;2:17-32").boardsFor(2), { first: 17, last: 32 });
  for (const bad of ["", "1:1-16;1:17-32", "0:1-4", "1:17-16", "1:1000", "x:1", "1:2:3", "4294967296:1"]) {
    assert.throws(() => BoardPlan.parse(bad), { name: "InputError" }, bad);
  }
  assert.throws(() => BoardPlan.parse("1:16").boardsFor(2), /not in the board plan/);
});

test("keys and commitments are checked, and a key is never quoted", () => {
  assert.equal(toHex(parseKey(` ${"AB".repeat(32)}\n`)), "ab".repeat(32));
  for (const bad of ["abc", "zz".repeat(32)]) {
    assert.throws(() => parseKey(bad), (e) => e.name === "InputError" && !e.message.includes(bad));
  }
  assert.equal(parseCommitment(" " + "AB".repeat(32)), "ab".repeat(32));
  assert.throws(() => parseCommitment("ab"), { name: "InputError" });
});
