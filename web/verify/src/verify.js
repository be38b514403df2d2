// Verification, as `croupier squaredeal verify` and `croupier boards verify` do it: check the
// keys against what was published before the event, regenerate every board, compare each file
// board by board, and report OK, FAIL and NOTE lines with the same words as the command line.

import { InputError, formatRange, numbersOf } from "./boards.js";
import { pyStrip, utf8 } from "./bytes.js";
import {
  ALGORITHM,
  ALGORITHM_PLAN,
  commitment,
  makeBoards,
  parseCommitment,
  planCommitment,
} from "./croupier_boards.js";
import { SEAT_NAMES, formatDeal } from "./deals.js";
import { readBoardFile } from "./readers.js";
import {
  keyHash,
  matchSessionFile,
  parseSqd,
  parseSqk,
  phasesAgainstKeys,
  sessionBoards,
} from "./squaredeal.js";

// ------------------------------------------------------------------------------ mismatches

/** The seats whose hands differ between two PBN deal strings from North, as words. */
export function differingSeats(expected, found) {
  const a = expected.slice(2).split(" ");
  const b = found.slice(2).split(" ");
  const seats = SEAT_NAMES.filter((_, i) => a[i] !== b[i]);
  return seats.length <= 1 ? seats.join("") : `${seats.slice(0, -1).join(", ")} and ${seats.at(-1)}`;
}

const SYMBOLS = "♠♥♦♣";

// The seat (0..3) holding each card (0..51) in a PBN deal string from North.
function seatsOfCards(deal) {
  const seat = new Array(52).fill(-1);
  deal.slice(2).split(" ").forEach((hand, s) => {
    hand.split(".").forEach((ranks, suit) => {
      for (const r of ranks) seat[13 * suit + "AKQJT98765432".indexOf(r)] = s;
    });
  });
  return seat;
}

/** The cards a file gives to other hands than the deal: [{card, dealt, file}], in card order. */
export function cardMoves(expected, found) {
  const want = seatsOfCards(expected);
  const got = seatsOfCards(found);
  const moves = [];
  for (let c = 0; c < 52; c++) {
    if (want[c] !== got[c]) {
      const card = SYMBOLS[Math.floor(c / 13)] + "AKQJT98765432"[c % 13];
      moves.push({ card, dealt: SEAT_NAMES[want[c]], file: SEAT_NAMES[got[c]] ?? "nobody" });
    }
  }
  return moves;
}

/** For a verdict that a deal differs, which cards are where (else null). */
export function detail(r) {
  const first = r.keys.ok ? r.files.flatMap((f) => f.mismatches)[0] : undefined;
  if (first === undefined || first.what !== "deal") return null;
  const moves = cardMoves(first.expected, first.found);
  const shown = moves.slice(0, 8).map((m) => `${m.card} is with ${m.file} (dealt to ${m.dealt})`);
  const more = moves.length > 8 ? `, and ${moves.length - 8} more cards` : "";
  return `In ${first.file}, board ${first.board}: ${shown.join(", ")}${more}.`;
}

/** One FAIL line: file, board and what differs (the words of croupier's Mismatch.describe). */
export function describe(m) {
  const where = m.board === null ? m.file : `${m.file} board ${m.board}`;
  switch (m.what) {
    case "deal":
      return `${where}: deal differs in the hands of ${differingSeats(m.expected, m.found)} (expected ${m.expected}, found ${m.found})`;
    case "dealer":
      return `${where}: dealer ${m.found}, expected ${m.expected}`;
    case "vulnerability":
      return `${where}: vulnerability ${m.found}, expected ${m.expected}`;
    case "order":
      return `${where}: out of order (it comes after board ${m.found} in the file)`;
    case "missing":
      return `${where}: missing from the file`;
    case "duplicate":
      return `${where}: appears twice in the file`;
    case "extra":
      return `${where}: not part of this session`;
    default:
      return `${where}: no boards in the file`;
  }
}

function mismatch(file, board, what, expected = null, found = null) {
  return { file, board, what, expected, found };
}

/** The differences between regenerated and found boards, matched by board number. */
export function compareBoards(expected, found, file) {
  const problems = [];
  const foundByNumber = new Map();
  const position = new Map(expected.map((b, i) => [b.number, i]));
  let last = null;
  for (const b of found) {
    if (foundByNumber.has(b.number)) {
      problems.push(mismatch(file, b.number, "duplicate"));
      continue;
    }
    foundByNumber.set(b.number, b);
    if (position.has(b.number)) {
      if (last !== null && position.get(b.number) < position.get(last.number)) {
        problems.push(mismatch(file, b.number, "order", null, String(last.number)));
      } else {
        last = b;
      }
    }
  }
  for (const want of expected) {
    const got = foundByNumber.get(want.number);
    if (got === undefined) {
      problems.push(mismatch(file, want.number, "missing"));
      continue;
    }
    const wantDeal = formatDeal(want.hands);
    const gotDeal = formatDeal(got.hands);
    if (wantDeal !== gotDeal) problems.push(mismatch(file, want.number, "deal", wantDeal, gotDeal));
    if (got.dealer !== want.dealer) problems.push(mismatch(file, want.number, "dealer", want.dealer, got.dealer));
    if (got.vulnerable !== want.vulnerable) {
      problems.push(mismatch(file, want.number, "vulnerability", want.vulnerable, got.vulnerable));
    }
  }
  const extra = [...foundByNumber.keys()].filter((n) => !position.has(n)).sort((a, b) => a - b);
  for (const number of extra) problems.push(mismatch(file, number, "extra"));
  return problems;
}

function checkFile(file, expected, firstBoard, session = null) {
  const found = readBoardFile(file.name, file.data, firstBoard);
  const mismatches = found.length ? compareBoards(expected, found, file.name) : [mismatch(file.name, null, "no-boards")];
  return { file: file.name, boards: expected.length, mismatches, session, ok: mismatches.length === 0 };
}

function report(keys, files, notes) {
  const failures = files.filter((f) => !f.ok).length;
  return { ok: keys.ok && failures === 0, keys, files, notes, failures };
}

// ---------------------------------------------------------------------------------- lines

function fileOkLine(check) {
  if (check.session === null) return `${check.file}: ${check.boards} boards match`;
  const ref = check.session;
  const kind = ref.reserve ? "reserve " : "";
  return `${check.file}: phase ${ref.phase} ${kind}session ${ref.session}, ${check.boards} boards match`;
}

/** The lines `croupier ... verify` prints for a report (OK, FAIL, NOTE and the summary). */
export function reportLines(r) {
  if (!r.keys.ok) return [`FAIL ${r.keys.message}`];
  const lines = [`OK   ${r.keys.message}`];
  for (const check of r.files) {
    for (const m of check.mismatches) lines.push(`FAIL ${describe(m)}`);
    if (check.ok) lines.push(`OK   ${fileOkLine(check)}`);
  }
  for (const note of r.notes) lines.push(`NOTE ${note}`);
  lines.push(r.failures ? `${r.failures} of ${r.files.length} file(s) do not match` : `all ${r.files.length} file(s) match`);
  return lines;
}

/** The verdict in one line: `OK ...` or `FAIL` and the first problem. */
export function verdict(r) {
  if (!r.keys.ok) return `FAIL ${r.keys.message}`;
  const first = r.files.flatMap((f) => f.mismatches)[0];
  if (first !== undefined) return `FAIL ${describe(first)}`;
  const boards = r.files.reduce((n, f) => n + f.boards, 0);
  return `OK all ${r.files.length} file(s) match: ${boards} boards regenerated, each exactly as in the files`;
}

// ------------------------------------------------------------------------------ SquareDeal

function squareDealNotes(eventFile, chosen) {
  const notes = [
    `KH commits to the keys only (and so to the number of phases and sessions): the event name (TN) and the board numbers (SN) in ${eventFile} are not committed; compare ${eventFile} with the copy published before the event, or deal with croupier boards --plan (${ALGORITHM_PLAN}), whose commitment covers the event and its board plan`,
  ];
  if (chosen !== null) {
    notes.push(
      `boards ${formatRange(chosen)} of the phases whose boards are chosen at dealing time ('?') are the ones the verifier gave; SquareDeal cannot commit to them`,
    );
  }
  return notes;
}

/**
 * `croupier squaredeal verify`: `sqd` and `sqk` are {name, data}, `files` a list of them;
 * `boards` the range announced for phases whose boards are chosen at dealing time ('?'), or
 * null.  Unusable input throws an InputError; differences are reported.
 */
export async function verifySquareDeal(sqd, sqk, files, boards = null) {
  const event = parseSqd(sqd.data, sqd.name);
  if (event.dvBytes === null) {
    throw new InputError(`event '${event.name}' has no delayed value (DV) yet; the ${sqd.name} published after the event holds it`);
  }
  const refs = files.map((f) => matchSessionFile(event, f.name));
  const chosen = refs.filter((r) => event.phases[r.phase - 1].chosenAtDealing);
  if (chosen.length && boards === null) {
    const file = files[refs.indexOf(chosen[0])].name;
    throw new InputError(
      `${file} belongs to phase ${chosen[0].phase} ('${event.phases[chosen[0].phase - 1].prefix}'), whose boards are chosen at dealing time ('?'): give the boards announced for it`,
    );
  }
  if (boards !== null && chosen.length === 0) {
    throw new InputError(
      `boards ${formatRange(boards)} apply only to files of phases whose board spec is '?'; the files given have their boards in the .sqd`,
    );
  }
  const notes = squareDealNotes(sqd.name, boards);
  const computed = await keyHash(sqk.data);
  let keys;
  if (event.keyHash === null) {
    keys = { ok: false, keyFile: sqk.name, published: null, computed, message: `${sqd.name} has no key hash (KH); publish the keys first (the publish step)` };
  } else if (computed !== event.keyHash) {
    keys = {
      ok: false,
      keyFile: sqk.name,
      published: event.keyHash,
      computed,
      message: `key hash mismatch: ${sqk.name} hashes to ${computed}, but ${sqd.name} commits to KH ${event.keyHash}; the key file is not the published one`,
    };
  } else {
    keys = { ok: true, keyFile: sqk.name, published: event.keyHash, computed, message: `key hash ${event.keyHash} matches ${sqk.name}` };
  }
  if (!keys.ok) return report(keys, [], notes);
  const keySet = parseSqk(sqk.data, sqk.name);
  const problem = phasesAgainstKeys(event, keySet);
  if (problem !== null) {
    const message = `${sqd.name} does not fit the keys KH commits to: ${problem}; its phases (SN lines) were changed after the keys were made`;
    return report({ ...keys, ok: false, message }, [], notes);
  }
  const checks = files.map((file, i) => {
    const ref = refs[i];
    const phase = event.phases[ref.phase - 1];
    const range = phase.chosenAtDealing ? boards : phase.boardsForSession(ref.session);
    const numbers = numbersOf(range);
    const expected = sessionBoards(event, keySet, ref, numbers);
    return checkFile(file, expected, numbers[0], ref);
  });
  return report(keys, checks, notes);
}

// ------------------------------------------------------------------------- croupier-boards

/** The name a report gives a key typed as hex rather than read from a file. */
export const KEY_GIVEN = "(key given)";

/**
 * `croupier boards verify`: `key` is the 32 key bytes and `keyFile` the name of the key file
 * they came from (null for a key typed as hex); exactly one of `plan` (a BoardPlan, for a
 * croupier-boards/2 commitment) and `boards` (a range, for croupier-boards/1).
 */
export async function verifyBoards({ key, keyFile = null, event, commitmentHex, delayedValue, session, files, plan = null, boards = null }) {
  if ((plan === null) === (boards === null)) {
    throw new InputError(
      "give exactly one of the board plan (a croupier-boards/2 commitment covers it) or the boards each file must hold (for a croupier-boards/1 commitment)",
    );
  }
  const published = parseCommitment(commitmentHex);
  const range = plan !== null ? plan.boardsFor(session) : boards;
  let computed;
  let what;
  const notes = [];
  if (plan !== null) {
    computed = await planCommitment(key, event, plan);
    what = `the ${ALGORITHM_PLAN} commitment (event and board plan ${plan.format()})`;
  } else {
    computed = await commitment(key, event);
    what = `the ${ALGORITHM} commitment`;
    notes.push(
      `${ALGORITHM} commits to the key and event only: boards ${formatRange(range)} are the ones the verifier gave, not committed; a ${ALGORITHM_PLAN} commitment, checked with its board plan, covers the boards`,
    );
  }
  if (computed !== published) {
    let message = `the key ${keyFile === null ? "given" : `in ${keyFile}`} does not match ${what}`;
    message += plan !== null
      ? `: the event name and the board plan must match exactly the text published with the commitment (every letter, space and punctuation mark), and the key must be the one revealed`
      : `: the event name must match exactly the text published with the commitment (every letter, space and punctuation mark), and the key must be the one revealed; a ${ALGORITHM_PLAN} commitment is checked with its board plan`;
    return report({ ok: false, keyFile: keyFile ?? KEY_GIVEN, published, computed, message }, [], notes);
  }
  const keys = { ok: true, keyFile: keyFile ?? KEY_GIVEN, published, computed, message: `${what} matches` };
  if (!pyStrip(delayedValue)) {
    throw new InputError(
      "the delayed value is empty or blank: a value everybody knows in advance proves nothing; give the value announced before the event, known only after the commitment",
    );
  }
  const numbers = numbersOf(range);
  const expected = makeBoards(key, event, utf8(delayedValue), session, numbers);
  return report(keys, files.map((file) => checkFile(file, expected, numbers[0])), notes);
}
