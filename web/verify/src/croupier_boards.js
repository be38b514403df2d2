// croupier's own scheme, croupier-boards/1 and /2 (docs/verifiable-dealing.md).
//
//   field(x)     = u32(len(x)) ‖ x
//   message      = field("croupier-boards/1") ‖ field(key) ‖ field(event) ‖ field(dv)
//                  ‖ u32(session) ‖ u32(board)
//   stream       = SHAKE-256(message), read 12 bytes at a time; the first candidate below D
//                  is the board's Gödel number (Big Deal's numbering)
//   commitment/1 = SHA-256(field("croupier-boards/1 commit") ‖ field(key) ‖ field(event))
//   commitment/2 = SHA-256(field("croupier-boards/2 commit") ‖ field(key) ‖ field(event)
//                  ‖ field(plan)),  plan = u32(n) ‖ (u32(s) ‖ u32(first) ‖ u32(last))...

import { InputError, MAX_BOARD, formatRange, parseBoardRange } from "./boards.js";
import { bigEndian, boundedDecimal, concat, excerpt, field, fromHex, pyStrip, toHex, u32be, utf8 } from "./bytes.js";
import { D, goedelUnrank, standardBoard } from "./deals.js";
import { sha256, shake256 } from "./hashes.js";

export const ALGORITHM = "croupier-boards/1";
export const ALGORITHM_PLAN = "croupier-boards/2";
export const KEY_BYTES = 32;
export const MAX_SESSION = 2 ** 32 - 1;
export const MAX_PLAN_SESSIONS = 1000;
const CANDIDATE_BYTES = 12;

/** A board plan: sessions ascending, each with its consecutive boards. */
export class BoardPlan {
  constructor(items) {
    this.items = items; // [[session, {first, last}], ...], sessions ascending
  }

  /** Read `SESSION:BOARDS` items separated by `;` (any order), like `1:1-16;2:17-32`. */
  static parse(text) {
    const parts = text.split(";");
    if (parts.length > MAX_PLAN_SESSIONS) {
      throw new InputError(`bad board plan ${excerpt(text)}: at most ${MAX_PLAN_SESSIONS} sessions`);
    }
    const items = new Map();
    for (const part of parts) {
      const item = pyStrip(part);
      if (item.length > 40 || item.split(":").length !== 2) {
        throw new InputError(
          `bad board plan ${excerpt(text)}: item ${excerpt(item)} is not SESSION:BOARDS, like '1:1-16;2:17-32'`,
        );
      }
      const [sessionText, boardsText] = item.split(":");
      const session = boundedDecimal(pyStrip(sessionText), 10);
      if (session === null || session < 1 || session > MAX_SESSION) {
        throw new InputError(
          `bad board plan ${excerpt(text)}: session ${excerpt(pyStrip(sessionText))} must be a number 1..${MAX_SESSION}`,
        );
      }
      let boards;
      try {
        boards = parseBoardRange(boardsText);
      } catch (exc) {
        throw new InputError(`bad board plan ${excerpt(text)}: session ${session}: ${exc.message}`);
      }
      if (items.has(session)) {
        throw new InputError(`bad board plan ${excerpt(text)}: session ${session} is listed twice`);
      }
      items.set(session, boards);
    }
    return new BoardPlan([...items.entries()].sort((a, b) => a[0] - b[0]));
  }

  /** The canonical text: sessions ascending, `s:A-B` joined by `;`. */
  format() {
    return this.items.map(([s, r]) => `${s}:${formatRange(r)}`).join(";");
  }

  get sessions() {
    return this.items.map(([s]) => s);
  }

  /** The boards of `session`; an InputError for a session the plan does not list. */
  boardsFor(session) {
    const found = this.items.find(([s]) => s === session);
    if (found === undefined) {
      const listed = this.sessions.slice(0, 10).join(", ") + (this.items.length > 10 ? " …" : "");
      throw new InputError(
        `session ${session} is not in the board plan ${excerpt(this.format())}; its sessions are ${listed}`,
      );
    }
    return found[1];
  }

  /** The bytes the croupier-boards/2 commitment hashes. */
  encode() {
    const parts = [u32be(this.items.length)];
    for (const [s, r] of this.items) parts.push(u32be(s), u32be(r.first), u32be(r.last));
    return concat(...parts);
  }
}

/** A key from its 64 hex digits (spaces around them allowed); the message never quotes it. */
export function parseKey(text) {
  const cleaned = pyStrip(text);
  if (cleaned.length !== 2 * KEY_BYTES) {
    throw new InputError(
      `bad ${ALGORITHM} key (not shown: it is secret): ${cleaned.length} characters; expected ${2 * KEY_BYTES} hex digits`,
    );
  }
  if (!/^[0-9a-fA-F]+$/.test(cleaned)) {
    throw new InputError(
      `bad ${ALGORITHM} key (not shown: it is secret): not all hex digits; expected ${2 * KEY_BYTES} hex digits`,
    );
  }
  return fromHex(cleaned);
}

/** A published commitment: 64 hex digits, any case. */
export function parseCommitment(text) {
  const value = pyStrip(text).toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(value)) {
    throw new InputError(`the commitment must be the 64 hex digits published before the event, got ${excerpt(text)}`);
  }
  return value;
}

/** The croupier-boards/1 commitment of key and event (64 hex digits). */
export async function commitment(key, event) {
  return toHex(await sha256(concat(field(utf8(`${ALGORITHM} commit`)), field(key), field(utf8(event)))));
}

/** The croupier-boards/2 commitment of key, event and board plan (64 hex digits). */
export async function planCommitment(key, event, plan) {
  const data = concat(field(utf8(`${ALGORITHM_PLAN} commit`)), field(key), field(utf8(event)), field(plan.encode()));
  return toHex(await sha256(data));
}

/** The SHAKE-256 input of one board. */
export function boardMessage(key, event, delayedValue, session, board) {
  if (key.length !== KEY_BYTES) throw new InputError(`a ${ALGORITHM} key is ${KEY_BYTES} bytes`);
  if (!(session >= 1 && session <= MAX_SESSION)) throw new InputError(`session ${session} out of range; expected 1..${MAX_SESSION}`);
  if (!(board >= 1 && board <= MAX_BOARD)) throw new InputError(`board ${board} out of range; expected 1..${MAX_BOARD}`);
  return concat(field(utf8(ALGORITHM)), field(key), field(utf8(event)), field(delayedValue), u32be(session), u32be(board));
}

/** The Gödel number of one board (BigInt): the first 96-bit SHAKE-256 candidate below D. */
export function boardGoedel(key, event, delayedValue, session, board) {
  const message = boardMessage(key, event, delayedValue, session, board);
  let length = 64 * CANDIDATE_BYTES;
  for (;;) {
    const stream = shake256(message, length);
    for (let i = 0; i < length; i += CANDIDATE_BYTES) {
      const candidate = bigEndian(stream.subarray(i, i + CANDIDATE_BYTES));
      if (candidate < D) return candidate;
    }
    length *= 2;
  }
}

/** One board with the standard dealer and vulnerability. */
export function makeBoard(key, event, delayedValue, session, board) {
  const g = boardGoedel(key, event, delayedValue, session, board);
  return standardBoard(board, goedelUnrank(g), g);
}

/** The boards `numbers` of one session. */
export function makeBoards(key, event, delayedValue, session, numbers) {
  return numbers.map((b) => makeBoard(key, event, delayedValue, session, b));
}
