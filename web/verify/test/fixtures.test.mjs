// The page against croupier's Python implementation: the same boards from every board file,
// and the same verdict, line for line, for every verification case (genuine and tampered).

import assert from "node:assert/strict";
import { test } from "node:test";

import { parseBoardRange } from "../src/boards.js";
import { BoardPlan, parseKey } from "../src/croupier_boards.js";
import { formatDeal } from "../src/deals.js";
import { readBoardFile } from "../src/readers.js";
import { reportLines, verifyBoards, verifySquareDeal } from "../src/verify.js";
import { FIXTURE, blob } from "./helpers.mjs";

function run(c) {
  const files = c.files.map((f) => ({ name: f.name, data: blob(f.sha256) }));
  const ext = (f) => f.name.slice(f.name.lastIndexOf("."));
  if (c.scheme === "squaredeal") {
    const sqd = files.find((f) => ext(f) === ".sqd");
    const sqk = files.find((f) => ext(f) === ".sqk");
    const sessions = files.filter((f) => f !== sqd && f !== sqk);
    return verifySquareDeal(sqd, sqk, sessions, c.inputs.boards ? parseBoardRange(c.inputs.boards) : null);
  }
  const keyFile = files.find((f) => ext(f) === ".key");
  const i = c.inputs;
  return verifyBoards({
    key: parseKey(keyFile ? new TextDecoder().decode(keyFile.data) : i.key),
    keyFile: keyFile ? keyFile.name : null,
    event: i.event,
    commitmentHex: i.commitment,
    delayedValue: i.dv,
    session: Number(i.session),
    files: files.filter((f) => f !== keyFile),
    plan: i.plan ? BoardPlan.parse(i.plan) : null,
    boards: i.boards ? parseBoardRange(i.boards) : null,
  });
}

test("the fixture covers genuine and tampered sets of both schemes", () => {
  const names = FIXTURE.cases.map((c) => c.name);
  assert.ok(names.length >= 30);
  for (const scheme of ["squaredeal", "boards"]) {
    for (const exit of [0, 1, 2]) {
      assert.ok(FIXTURE.cases.some((c) => c.scheme === scheme && c.exit === exit), `${scheme} ${exit}`);
    }
  }
});

for (const c of FIXTURE.cases) {
  test(`verification case ${c.name} (croupier exits ${c.exit})`, async () => {
    if (c.exit === 2) {
      await assert.rejects(async () => run(c), { name: "InputError" });
      return;
    }
    const r = await run(c);
    assert.deepEqual(reportLines(r), c.lines);
    assert.equal(r.ok, c.exit === 0);
  });
}

for (const r of FIXTURE.readers) {
  test(`reader case ${r.name}`, () => {
    const data = blob(r.sha256);
    if (r.error) {
      assert.throws(() => readBoardFile(r.name, data, r.first_board), { name: "InputError" });
      return;
    }
    const boards = readBoardFile(r.name, data, r.first_board).map((b) => ({
      number: b.number,
      dealer: b.dealer,
      vulnerable: b.vulnerable,
      deal: formatDeal(b.hands),
    }));
    assert.deepEqual(boards, r.boards);
  });
}
