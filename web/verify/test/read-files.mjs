// Read every board file of a folder as the page reads it; print JSON {name: boards | "error"}.
// Used by tests/test_web_verify.py to compare the page's readers with croupier's on many files.
//
//   node test/read-files.mjs FOLDER FIRST_BOARD

import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

import { formatDeal } from "../src/deals.js";
import { readBoardFile } from "../src/readers.js";

const [folder, first] = process.argv.slice(2);
const out = {};
for (const name of readdirSync(folder).sort()) {
  try {
    const boards = readBoardFile(name, new Uint8Array(readFileSync(join(folder, name))), Number(first));
    out[name] = boards.map((b) => [b.number, b.dealer, b.vulnerable, formatDeal(b.hands)]);
  } catch (exc) {
    if (exc.name !== "InputError") throw exc;
    out[name] = "error";
  }
}
process.stdout.write(JSON.stringify(out));
