// SquareDeal 2.7's own files for a made-up event (tests/vectors/bigdeal): the page checks KH,
// regenerates every session and finds each of SquareDeal's files genuine.

import assert from "node:assert/strict";
import { test } from "node:test";

import { utf8 } from "../src/bytes.js";
import { formatDeal } from "../src/deals.js";
import { readBoardFile } from "../src/readers.js";
import { keyHash, matchSessionFile, parseSqd, parseSqk, sessionBoards } from "../src/squaredeal.js";
import { reportLines, verdict, verifySquareDeal } from "../src/verify.js";
import { bytesOf } from "./helpers.mjs";

const file = (name) => ({ name, data: bytesOf("tests", "vectors", "bigdeal", name) });
const SESSIONS = ["VAR2.pbn", "VAR3.pbn", "VAR4reserve.pbn", "TWO1.pbn", "TWO2.pbn", "ONE.pbn"];

test("the event file is read as SquareDeal wrote it, DV byte for byte", async () => {
  const event = parseSqd(file("SYN.sqd").data, "SYN.sqd");
  assert.equal(event.name, "Synthetic test");
  assert.equal(new TextDecoder().decode(event.dvBytes), "12,345.6 7");
  assert.deepEqual(event.phases.map((p) => [p.sessions, p.prefix]), [[0, "VAR#"], [2, "TWO#"], [1, "ONE"]]);
  assert.equal(await keyHash(file("SYN.sqk").data), event.keyHash);
  assert.equal(parseSqk(file("SYN.sqk").data, "SYN.sqk").size, 4);
});

test("every session file SquareDeal made is regenerated board for board", () => {
  const event = parseSqd(file("SYN.sqd").data, "SYN.sqd");
  const keys = parseSqk(file("SYN.sqk").data, "SYN.sqk");
  for (const name of SESSIONS) {
    const found = readBoardFile(name, file(name).data);
    const ref = matchSessionFile(event, name);
    const made = sessionBoards(event, keys, ref, found.map((b) => b.number));
    assert.deepEqual(made.map((b) => formatDeal(b.hands)), found.map((b) => formatDeal(b.hands)), name);
  }
});

test("verify says OK for the genuine set, with its NOTE", async () => {
  const r = await verifySquareDeal(file("SYN.sqd"), file("SYN.sqk"), SESSIONS.map(file));
  assert.equal(r.ok, true);
  assert.match(verdict(r), /^OK /);
  const lines = reportLines(r);
  assert.ok(lines.some((l) => l.startsWith("NOTE KH commits to the keys only")));
  assert.equal(lines.at(-1), "all 6 file(s) match");
});

test("a DV typed differently fails: it is used byte for byte", async () => {
  const sqd = file("SYN.sqd");
  const text = new TextDecoder().decode(sqd.data).replace("DV 12,345.6 7", "DV 123456 7");
  const r = await verifySquareDeal({ name: "SYN.sqd", data: utf8(text) }, file("SYN.sqk"), [file("ONE.pbn")]);
  assert.equal(r.ok, false);
  assert.match(verdict(r), /^FAIL ONE\.pbn board 5: deal differs in the hands of /);
});

test("file names that match no session, or a '?' phase without boards, cannot be verified", async () => {
  const renamed = { name: "OTHER.pbn", data: file("ONE.pbn").data };
  await assert.rejects(verifySquareDeal(file("SYN.sqd"), file("SYN.sqk"), [renamed]), /matches no session/);
});

test("a deal that differs names the cards that are in other hands", async () => {
  const { cardMoves, detail } = await import("../src/verify.js");
  const moves = cardMoves("N:A... K... Q... J...", "N:K... A... Q... J...");
  assert.deepEqual(moves, [
    { card: "♠A", dealt: "North", file: "East" },
    { card: "♠K", dealt: "East", file: "North" },
  ]);
  const sqd = file("SYN.sqd");
  const text = new TextDecoder().decode(sqd.data).replace("DV 12,345.6 7", "DV 123456 7");
  const r = await verifySquareDeal({ name: "SYN.sqd", data: utf8(text) }, file("SYN.sqk"), [file("ONE.pbn")]);
  assert.match(detail(r), /^In ONE\.pbn, board 5: [♠♥♦♣][AKQJT2-9] is with (North|East|South|West) \(dealt to /);
});
