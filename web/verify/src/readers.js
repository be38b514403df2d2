// Board files as `croupier ... verify` reads them: PBN, LIN, DLM, DUP and .txt (one deal a
// line).  Each reader returns records {number, dealer, vulnerable, hands} holding what the
// file says (null where it says nothing); toBoards() fills the gaps by the standard cycles,
// as croupier does.  Reading is strict, as in verification: a game that cannot be read makes
// the whole file unusable (an InputError naming file and line).  The rules are those of
// croupier.formats (docs/file-formats.md), ported for what verification needs.

import { InputError, MAX_BOARD, parseBoardNumber } from "./boards.js";
import { boundedDecimal, excerpt, isPySpace, latin1, pySplitlines, pyStrip } from "./bytes.js";
import { RANKS, SEATS, SUITS, dealerOf, formatHand, vulnerabilityOf } from "./deals.js";

export const MAX_BOARD_FILE_BYTES = 16 * 1024 * 1024;

/** The formats the page reads, by extension. */
export const FORMATS = { ".pbn": "pbn", ".lin": "lin", ".dlm": "dlm", ".dup": "dup", ".txt": "lines" };

/** The format of a file name from its extension (case-insensitive), or null. */
export function formatForName(name) {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? null : (FORMATS[name.slice(dot).toLowerCase()] ?? null);
}

const VUL_WORDS = { none: "None", love: "None", "-": "None", ns: "NS", ew: "EW", all: "All", both: "All" };

function pySplitWords(text) {
  const words = [];
  let word = "";
  for (const ch of text) {
    if (isPySpace(ch)) {
      if (word) words.push(word);
      word = "";
    } else {
      word += ch;
    }
  }
  if (word) words.push(word);
  return words;
}

/** Records as boards: a record without a number takes firstBoard + its position. */
export function toBoards(records, firstBoard, source) {
  return records.map((r, i) => {
    const number = r.number ?? firstBoard + i;
    if (number > MAX_BOARD) {
      throw new InputError(`${source}: board number ${number} out of range; expected 1..${MAX_BOARD}`);
    }
    return {
      number,
      hands: r.hands,
      dealer: r.dealer ?? dealerOf(number),
      vulnerable: r.vulnerable ?? vulnerabilityOf(number),
    };
  });
}

// ----------------------------------------------------------------------- PBN deal strings

class Unreadable extends Error {}

function parsePbnHand(text) {
  const suits = text.split(".");
  if (suits.length !== 4) {
    throw new Unreadable(`bad PBN hand ${excerpt(text)}: expected 4 suits separated by 3 dots, like 'AK.QJ.T9.8765'`);
  }
  const cards = [];
  suits.forEach((ranks, s) => {
    if (ranks.length > 13) throw new Unreadable(`bad PBN hand ${excerpt(text)}: ${ranks.length} ranks in one suit`);
    let last = -1;
    for (const letter of ranks.toUpperCase()) {
      const r = RANKS.indexOf(letter);
      if (r < 0 || letter.length !== 1) {
        throw new Unreadable(`bad rank ${excerpt(letter)} in PBN hand ${excerpt(text)}; expected letters of AKQJT98765432`);
      }
      if (r === last) throw new Unreadable(`card ${letter}${SUITS[s]} appears twice in PBN hand ${excerpt(text)}`);
      last = r;
      cards.push(13 * s + r);
    }
  });
  return cards;
}

/** The hands (N, E, S, W) of a PBN deal string; an unknown hand ("-") is null before completion. */
export function parsePbnDeal(text) {
  let body = pyStrip(text);
  let start = 0;
  if ([...body].length >= 2 && [...body][1] === ":") {
    const seat = pyStrip([...body][0]).toUpperCase();
    start = seat.length === 1 ? SEATS.indexOf(seat) : -1;
    if (start < 0) throw new Unreadable(`bad first seat ${excerpt([...body][0])} in PBN deal ${excerpt(text)}; expected one of N, E, S, W`);
    body = [...body].slice(2).join("");
  }
  const parts = pySplitWords(body);
  if (parts.length !== 4) {
    throw new Unreadable(`PBN deal ${excerpt(text)} has ${parts.length > 4 ? "more than 4" : parts.length} hands; expected 4 hands separated by spaces`);
  }
  const hands = [null, null, null, null];
  parts.forEach((part, i) => {
    hands[(start + i) % 4] = part === "-" ? null : parsePbnHand(part);
  });
  const seen = new Map();
  hands.forEach((hand, i) => {
    for (const card of hand ?? []) {
      if (seen.has(card)) {
        throw new Unreadable(`card '${RANKS[card % 13]}${SUITS[Math.floor(card / 13)]}' appears in both ${SEATS[seen.get(card)]} and ${SEATS[i]} in PBN deal ${excerpt(text)}`);
      }
      seen.set(card, i);
    }
    if (hand !== null && hand.length > 13) {
      throw new Unreadable(`hand ${SEATS[i]} in PBN deal ${excerpt(text)} has ${hand.length} cards; a hand holds at most 13`);
    }
  });
  const unknown = hands.filter((h) => h === null).length;
  if (unknown === 1 && hands.every((h) => h === null || h.length === 13)) {
    const missing = [];
    for (let c = 0; c < 52; c++) if (!seen.has(c)) missing.push(c);
    return hands.map((h) => h ?? missing);
  }
  return hands.map((h) => h ?? []);
}

function sorted(hands) {
  return hands.map((h) => [...h].sort((a, b) => a - b));
}

function wholeDeal(hands) {
  return hands.every((h) => h.length === 13) && new Set(hands.flat()).size === 52;
}

// ------------------------------------------------------------------------------------ PBN

const GAP = "[ \\t\\v\\f]*(?:\\n[ \\t\\v\\f]*)?";
const TAG_RE = new RegExp(`\\[${GAP}([A-Za-z0-9_]+)${GAP}"((?:[^"\\\\\\n]|\\\\.)*)"${GAP}\\]`, "y");
const BAD_TAG_RE = /\[[^\]\n]*\]?/y;
const STRING_RE = /"(?:[^"\\\n]|\\.)*"?/y;
const OTHER_RE = /[^[{;"\n]+/y;
const NOT_INHERITED = new Set(["Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note"]);
const REPEATABLE = new Set(["Note"]);

// Splits a stream of tags into games, as croupier.formats.pbn does: an empty line ends a game;
// a game that runs on to a second Deal is split at the first tag repeated after its first Deal.
class Games {
  constructor() {
    this.done = [];
    this.end();
  }

  add(tag) {
    const name = tag.name;
    if (name === null) {
      if (this.errors < 8) {
        this.errors += 1;
        this.current.push(tag);
      }
      return;
    }
    if (name === "Deal" && this.hasDeal) {
      const at = this.cut ?? this.current.length;
      this.done.push(this.current.slice(0, at));
      this.current = this.current.slice(at);
      this.names = this.cutNames;
      this.cutNames = new Set();
      this.cut = null;
      this.hasDeal = false;
      this.errors = this.current.filter((t) => t.name === null).length;
    }
    if (this.cut !== null) {
      if (this.cutNames.has(name)) return;
      this.cutNames.add(name);
    } else if (this.names.has(name)) {
      if (!this.hasDeal || REPEATABLE.has(name)) return;
      this.cut = this.current.length;
      this.cutNames = new Set([name]);
      this.errors = 0;
    } else {
      this.names.add(name);
      this.hasDeal = this.hasDeal || name === "Deal";
    }
    this.current.push(tag);
  }

  end() {
    if (this.current?.length) this.done.push(this.current);
    this.current = [];
    this.names = new Set();
    this.cutNames = new Set();
    this.cut = null;
    this.hasDeal = false;
    this.errors = 0;
  }
}

function unescapePbn(value) {
  return value.replace(/\\([\\"])/g, "$1");
}

// The length of a semi-empty line (spaces only) starting at pos, with its line end, or -1.
function blankLine(text, pos) {
  let i = pos;
  while (i < text.length && " \t\v\f".includes(text[i])) i++;
  if (i === text.length) return i - pos;
  return text[i] === "\n" ? i + 1 - pos : -1;
}

function lineEnd(text, pos) {
  const nl = text.indexOf("\n", pos);
  return nl < 0 ? text.length : nl;
}

function scanPbn(text, source) {
  const games = new Games();
  let pos = 0;
  let line = 1;
  let atLineStart = true;
  let seenTag = false;
  let other = false;
  const advance = (to) => {
    for (let i = pos; i < to; i++) if (text[i] === "\n") line++;
    pos = to;
  };
  while (pos < text.length) {
    if (atLineStart) {
      atLineStart = false;
      let blank = false;
      const start = pos;
      for (;;) {
        if (pos < text.length && text[pos] === "%") {
          const end = lineEnd(text, pos);
          advance(end < text.length ? end + 1 : end);
          continue;
        }
        const size = blankLine(text, pos);
        if (size <= 0 || pos >= text.length) break;
        blank = true;
        advance(pos + size);
      }
      if (blank) games.end();
      if (pos > start) continue;
    }
    const ch = text[pos];
    if (ch === "\n") {
      const inGame = games.current.length > 0;
      if (inGame && blankLine(text, pos + 1) >= 0) {
        advance(pos + 1);
        atLineStart = true;
        continue;
      }
      advance(pos + 1);
      if (text[pos] === "%") advance(lineEnd(text, pos));
      continue;
    }
    if (ch === "[") {
      TAG_RE.lastIndex = pos;
      const m = TAG_RE.exec(text);
      if (m !== null) {
        seenTag = true;
        games.add({ name: m[1], value: unescapePbn(m[2]), line });
        advance(TAG_RE.lastIndex);
        continue;
      }
      BAD_TAG_RE.lastIndex = pos;
      const bad = BAD_TAG_RE.exec(text)[0];
      games.add({ name: null, value: `malformed tag ${excerpt(bad)}; expected [Name "value"]`, line });
      other = true;
      advance(pos + bad.length);
      continue;
    }
    if (ch === "{") {
      const close = text.indexOf("}", pos);
      if (close < 0) {
        if (text.slice(pos).includes("[")) {
          games.add({ name: null, value: `a '{' comment opened on line ${line} is never closed`, line });
        }
        advance(text.length);
      } else {
        advance(close + 1);
      }
      continue;
    }
    if (ch === ";") {
      advance(lineEnd(text, pos));
      continue;
    }
    const re = ch === '"' ? STRING_RE : OTHER_RE;
    re.lastIndex = pos;
    const skipped = re.exec(text)[0];
    if (!seenTag && /[^ \t\v\f]/.test(skipped)) other = true;
    advance(pos + skipped.length);
  }
  games.end();
  if (!seenTag && other) {
    throw new InputError(`${source}: not a PBN file: it holds no [Name "value"] tag pair`);
  }
  return games.done;
}

function pbnGames(text, source) {
  const normalised = text.replace(/^\ufeff/, "").replace(/\r\n?/g, "\n");
  const last = new Map();
  const defaults = new Map();
  return scanPbn(normalised, source).map((tags) => {
    const values = new Map();
    const errors = tags.filter((t) => t.name === null).map((t) => t.value);
    for (const tag of tags) {
      if (tag.name === null || values.has(tag.name)) continue;
      let value = tag.value;
      if (!NOT_INHERITED.has(tag.name)) {
        if (value === "#") value = last.get(tag.name) ?? "";
        else if (value.startsWith("##")) {
          value = value.slice(2);
          defaults.set(tag.name, value);
        } else if (defaults.has(tag.name)) defaults.set(tag.name, value);
        last.set(tag.name, value);
      }
      values.set(tag.name, value);
    }
    for (const [name, value] of defaults) if (!values.has(name)) values.set(name, value);
    return { tags: values, line: tags.length ? tags[0].line : 0, errors };
  });
}

function inherited(name, raw) {
  if (raw.startsWith("#")) throw new Unreadable(`${name} ${excerpt(raw)}: PBN forbids inheriting ('#', '##') the ${name} tag`);
}

function pbnNumber(raw) {
  if (raw === undefined || ["", "?"].includes(pyStrip(raw))) return null;
  if (/^[0-9]+$/.test(pyStrip(raw)) && /^0+$/.test(pyStrip(raw))) return null;
  try {
    return parseBoardNumber(raw);
  } catch {
    throw new Unreadable(`Board tag ${excerpt(pyStrip(raw))} is not a board number 1..${MAX_BOARD}`);
  }
}

function pbnDealer(raw) {
  if (raw === undefined || ["", "?"].includes(pyStrip(raw))) return null;
  inherited("Dealer", raw);
  const word = pyStrip(raw).toUpperCase();
  if (word.length === 1 && SEATS.includes(word)) return word;
  const found = { NORTH: "N", EAST: "E", SOUTH: "S", WEST: "W" }[word];
  if (found === undefined) throw new Unreadable(`bad Dealer ${excerpt(raw)}; expected N, E, S or W`);
  return found;
}

function pbnVulnerable(raw) {
  if (raw === undefined || ["", "?"].includes(pyStrip(raw))) return null;
  inherited("Vulnerable", raw);
  const found = VUL_WORDS[pyStrip(raw).toLowerCase()];
  if (found === undefined) throw new Unreadable(`bad Vulnerable ${excerpt(raw)}; expected None, NS, EW or All (or Love, -, Both)`);
  return found;
}

function pbnHands(raw) {
  inherited("Deal", raw);
  let hands;
  if (["", "?"].includes(pyStrip(raw))) hands = [[], [], [], []];
  else {
    try {
      hands = parsePbnDeal(raw);
    } catch (exc) {
      throw new Unreadable(`bad Deal tag: ${exc.message}`);
    }
  }
  if (hands.some((h) => h.length !== 13)) {
    const known = hands.reduce((n, h) => n + h.length, 0);
    const counts = hands.map((h, i) => `${SEATS[i]} ${h.length || "-"}`).join(", ");
    throw new Unreadable(`partial deal: ${known} of 52 cards given (${counts})`);
  }
  return sorted(hands);
}

/** The records of a PBN file (strict: a game that cannot be read is an InputError). */
export function readPbn(text, source) {
  const records = [];
  pbnGames(text, source).forEach((game, index) => {
    if (!game.tags.has("Deal") && game.errors.length === 0) return;
    let number = null;
    try {
      if (game.errors.length) throw new Unreadable(game.errors[0]);
      number = pbnNumber(game.tags.get("Board"));
      const dealer = pbnDealer(game.tags.get("Dealer"));
      const vulnerable = pbnVulnerable(game.tags.get("Vulnerable"));
      const hands = pbnHands(game.tags.get("Deal"));
      records.push({ number, dealer, vulnerable, hands });
    } catch (exc) {
      if (!(exc instanceof Unreadable)) throw exc;
      const where = number === null ? "" : `board ${number}: `;
      throw new InputError(`${source} line ${game.line} (game ${index + 1}): ${where}${exc.message}`);
    }
  });
  return records;
}

// ------------------------------------------------------------------------------------ LIN

const LIN_SEATS = "SWNE"; // md order; dealer digit d is LIN_SEATS[d - 1]
const LIN_VUL = { o: "None", 0: "None", "-": "None", n: "NS", e: "EW", b: "All" };

function* linTokens(text) {
  let pos = 0;
  let line = 1;
  const size = text.length;
  for (;;) {
    const bar = text.indexOf("|", pos);
    if (bar < 0) return;
    const rawTag = text.slice(pos, bar);
    line += rawTag.split("\n").length - 1;
    const tag = pyStrip(rawTag.split("\n").pop()).toLowerCase();
    const end = text.indexOf("|", bar + 1);
    const value = text.slice(bar + 1, end < 0 ? size : end);
    pos = end < 0 ? size : end + 1;
    if (!value.includes("\n")) {
      yield [tag, value, line];
      continue;
    }
    const last = value.split("\n").pop();
    if (end < 0 || /^[A-Za-z]{2}$/.test(pyStrip(last))) {
      yield [tag, value.split("\n")[0].replace(/\r+$/, ""), line];
      if (end >= 0) pos = end - last.length;
    } else {
      yield [tag, value.replace(/[\r\n]/g, ""), line];
    }
    line += value.split("\n").length - 1;
  }
}

function linBoards(text) {
  const boards = [];
  let current = null;
  let seenPair = false;
  for (const [tag, value, line] of linTokens(text)) {
    if (!/^[A-Za-z]{2}$/.test(tag)) continue;
    seenPair = true;
    if (current === null) {
      current = { line, values: new Map() };
      boards.push(current);
    }
    const hasDeal = current.values.has("md");
    const repeated = hasDeal && (tag === "ah" || tag === "sv") && current.values.has(tag);
    if (tag === "qx" || (["md", "pn", "st"].includes(tag) && hasDeal) || repeated) {
      current = { line, values: new Map() };
      boards.push(current);
    }
    if (!current.values.has(tag)) current.values.set(tag, [value, line]);
  }
  return { boards: boards.filter((b) => b.values.has("md")), seenPair };
}

function linHand(text) {
  const cards = [];
  let suit = -1;
  const seenSuits = new Set();
  for (const ch of pyStrip(text).toUpperCase().replaceAll("10", "T")) {
    if (SUITS.includes(ch)) {
      suit = SUITS.indexOf(ch);
      if (seenSuits.has(suit)) throw new Unreadable(`hand ${excerpt(text)} names suit ${ch} twice`);
      seenSuits.add(suit);
    } else if (RANKS.includes(ch) && suit >= 0) {
      cards.push(13 * suit + RANKS.indexOf(ch));
    } else if (!isPySpace(ch)) {
      throw new Unreadable(`bad LIN hand ${excerpt(text)}; expected S…H…D…C… with ranks AKQJT98765432, like 'SAKQHJT9D87C6543'`);
    }
  }
  return cards;
}

function linDeal(md) {
  let value = pyStrip(md);
  let dealer = null;
  if (/^[0-9]/.test(value)) {
    if (!"1234".includes(value[0])) throw new Unreadable(`md ${excerpt(md)} has dealer digit '${value[0]}'; expected 1-4 (S W N E)`);
    dealer = LIN_SEATS[Number(value[0]) - 1];
    value = value.slice(1);
  }
  let parts = value.split(",");
  if (parts.length > 4 && !parts.slice(4).some((p) => pyStrip(p))) parts = parts.slice(0, 4);
  if (parts.length > 4) throw new Unreadable(`md ${excerpt(md)} holds ${parts.length} hands; expected at most 4`);
  const hands = [[], [], [], []];
  parts.forEach((part, i) => {
    hands[SEATS.indexOf(LIN_SEATS[i])] = linHand(part);
  });
  const seen = new Set();
  hands.forEach((hand, i) => {
    if (hand.length > 13) throw new Unreadable(`${SEATS[i]} holds ${hand.length} cards in md ${excerpt(md)}; a hand holds 13`);
    for (const card of hand) {
      if (seen.has(card)) throw new Unreadable(`card ${RANKS[card % 13]}${SUITS[Math.floor(card / 13)]} appears twice in md ${excerpt(md)}`);
      seen.add(card);
    }
  });
  const empty = hands.map((h, i) => (h.length ? -1 : i)).filter((i) => i >= 0);
  if (empty.length === 1 && seen.size === 39) {
    hands[empty[0]] = Array.from({ length: 52 }, (_, c) => c).filter((c) => !seen.has(c));
  }
  return { dealer, hands };
}

function linNumber(board) {
  for (const tag of ["ah", "qx"]) {
    if (!board.values.has(tag)) continue;
    const label = board.values.get(tag)[0];
    let digits = "";
    if (tag === "ah") digits = /[0-9]+/.exec(label)?.[0] ?? "";
    else digits = /^[ \t\n\r\f\v]*([A-Za-z]?)[ \t\n\r\f\v]*([0-9]*)/.exec(label)?.[2] ?? "";
    if (!digits) continue;
    try {
      return parseBoardNumber(digits);
    } catch {
      throw new Unreadable(`board label ${excerpt(label)} holds no board number 1..${MAX_BOARD}`);
    }
  }
  return null;
}

/** The records of a LIN file (strict). */
export function readLin(text, source) {
  const { boards, seenPair } = linBoards(text);
  if (!seenPair && pyStrip(text)) {
    throw new InputError(`not a LIN file: ${source} holds no 'tag|value|' pairs such as 'md|...|'`);
  }
  return boards.map((board) => {
    try {
      const { dealer, hands } = linDeal(board.values.get("md")[0]);
      const number = linNumber(board);
      let vulnerable = null;
      if (board.values.has("sv")) {
        const code = pyStrip(board.values.get("sv")[0]).toLowerCase();
        if (code) {
          vulnerable = LIN_VUL[code];
          if (vulnerable === undefined) throw new Unreadable(`bad sv ${excerpt(code)}; expected o (or 0), n, e or b`);
        }
      }
      if (!wholeDeal(hands)) {
        const known = hands.reduce((n, h) => n + h.length, 0);
        throw new Unreadable(`partial deal: md ${excerpt(board.values.get("md")[0])} gives ${known} of 52 cards`);
      }
      return { number, dealer, vulnerable, hands: sorted(hands) };
    } catch (exc) {
      if (!(exc instanceof Unreadable)) throw exc;
      throw new InputError(`${source} line ${board.line}: ${exc.message}`);
    }
  });
}

// ------------------------------------------------------------------------------------ DLM

const DLM_HEADER_KEYS = ["from board", "to board", "status", "checksum", "duplicates"];

/** The deal an unused DLM slot holds (North all spades, East hearts, South diamonds, West clubs). */
const DLM_FILLER = "aaaaaabffffffkkkkkklpppppp";

function dlmCheckNumber(letters, board) {
  let value = board;
  for (const ch of letters) value ^= ch.charCodeAt(0);
  return value;
}

/** The records of a DLM file (strict: From/To board honoured, every board of the range checked). */
export function readDlm(text, source) {
  if (!pyStrip(text)) return [];
  const keys = new Map();
  const boardLines = [];
  let section = "";
  let found = false;
  pySplitlines(text).forEach((raw, index) => {
    const lineno = index + 1;
    const line = pyStrip(raw);
    if (line.startsWith("[") && line.endsWith("]")) {
      section = pyStrip(line.slice(1, -1)).toLowerCase();
      found = found || section === "document";
      return;
    }
    if (section !== "document" || !line || line.startsWith(";")) return;
    const eq = line.indexOf("=");
    const key = eq < 0 ? line : line.slice(0, eq);
    const value = eq < 0 ? "" : line.slice(eq + 1);
    const name = pySplitWords(key).join(" ").toLowerCase();
    if (name.startsWith("board ")) boardLines.push([pyStrip(key), pyStrip(value), lineno]);
    else if (eq >= 0 && DLM_HEADER_KEYS.includes(name)) {
      if (keys.has(name) && (name === "from board" || name === "to board")) {
        throw new InputError(`${source} line ${lineno}: a second ${pyStrip(key)} line`);
      }
      if (!keys.has(name)) keys.set(name, [pyStrip(key), pyStrip(value), lineno]);
    } else if (eq >= 0 && name === "crypto key" && !["", "0"].includes(pyStrip(value))) {
      throw new InputError(`${source} line ${lineno}: Crypto key=${excerpt(pyStrip(value))}: the boards of an encrypted DLM file cannot be read (only Crypto key=0)`);
    }
  });
  if (!found) throw new InputError(`not a DLM file: ${source} has no [Document] section`);
  const header = (name) => {
    if (!keys.has(name)) return null;
    const [key, value, lineno] = keys.get(name);
    const n = boundedDecimal(value, 3);
    if (n === null || n < 1 || n > 999) {
      throw new InputError(`${source} line ${lineno}: bad ${key} value ${excerpt(value)}; expected a board number 1..999`);
    }
    return n;
  };
  const low = header("from board");
  const high = header("to board");
  if ((low === null) !== (high === null)) {
    throw new InputError(`${source}: has a ${low === null ? "To board" : "From board"} line but not the other`);
  }
  if (low !== null && low > high) throw new InputError(`${source}: From board=${low} is after To board=${high}`);
  const headerProblems = []; // reported before those of the board lines, as croupier does
  const problems = [];
  if (low !== null && keys.has("checksum")) {
    const [, value, lineno] = keys.get("checksum");
    const show = (keys.get("status")?.[1] ?? "").toLowerCase() === "show";
    const duplicates = boundedDecimal(keys.get("duplicates")?.[1] ?? "0", 6);
    const given = boundedDecimal(value, 6);
    const rules = new Set([(high - low + 1) ^ (show ? 1 : 0)]);
    if (duplicates !== null) rules.add(duplicates ^ low ^ high ^ (show ? 1 : 0));
    if (given === null || !rules.has(given)) {
      headerProblems.push([lineno, `file checksum ${excerpt(value)} does not match the [Document] header; the header was changed`]);
    }
  }
  const written = new Set();
  const records = [];
  const seen = new Map();
  const extra = []; // [line, board] of unused slots past To board holding a deal
  for (const [key, value, lineno] of boardLines) {
    const m = /^board +([0-9]{1,6})$/i.exec(pySplitWords(key).join(" "));
    const number = m === null || Number(m[1]) < 1 || Number(m[1]) > 999 ? 0 : Number(m[1]);
    written.add(number);
    if (low !== null && !(number >= low && number <= high)) {
      // an unused slot past To board holds the filler deal; anything else is a board added
      // past the set's end, which a strict read refuses (as croupier does)
      const filler = `${DLM_FILLER}${String(dlmCheckNumber(DLM_FILLER, number)).padStart(3, "0")}`;
      if (number > high && value.toLowerCase() !== filler) extra.push([lineno, number]);
      continue;
    }
    if (number === 0) {
      problems.push([lineno, `bad board line ${excerpt(`${key}=${value}`)}; expected 'Board NN=' (NN 1..999) followed by 26 letters a-p and 3 digits`]);
      continue;
    }
    const v = /^([a-pA-P]{26})([0-9]{3})$/.exec(value);
    if (v === null) {
      problems.push([lineno, `board ${number}: bad value ${excerpt(value)}; expected 26 letters a-p and 3 digits`]);
      continue;
    }
    const letters = v[1].toLowerCase();
    const hands = [[], [], [], []];
    [...letters].forEach((ch, i) => {
      const code = ch.charCodeAt(0) - 97;
      hands[Math.floor(code / 4)].push(2 * i);
      hands[code % 4].push(2 * i + 1);
    });
    if (hands.some((h) => h.length !== 13)) {
      problems.push([lineno, `board ${number} does not give 13 cards to each hand`]);
      continue;
    }
    const expected = dlmCheckNumber(letters, number);
    if (Number(v[2]) !== expected) {
      const shown = String(expected).padStart(3, "0");
      problems.push([lineno, `board ${number} has check number ${v[2]}, but its letters give ${shown}; the line is corrupted`]);
      continue;
    }
    if (seen.has(number)) {
      problems.push([lineno, `board ${number} appears again (first on line ${seen.get(number)})`]);
      continue;
    }
    seen.set(number, lineno);
    records.push({ number, dealer: null, vulnerable: null, hands });
  }
  if (low !== null) {
    for (let n = low; n <= high; n++) {
      if (!written.has(n)) headerProblems.push([keys.get("to board")[2], `board ${n} is missing (From board=${low}..To board=${high})`]);
    }
  }
  const first = headerProblems[0] ?? problems[0];
  if (first !== undefined) {
    const [lineno, reason] = first;
    throw new InputError(`${source} line ${lineno}: ${reason}`);
  }
  if (extra.length > 0) {
    const [lineno, number] = extra[0];
    throw new InputError(`${source} line ${lineno}: board ${number} is past From board=${low}..To board=${high} but holds a deal, not the filler deal of an unused slot; the file holds more boards than its set, so it cannot be verified`);
  }
  return records;
}

// ------------------------------------------------------------------------------------ DUP

const DUP_RECORD = 156;

function isDigits(bytes) {
  return bytes.length > 0 && bytes.every((b) => b >= 0x30 && b <= 0x39);
}

/** The records of a DUP file (bytes; strict). */
export function readDup(data, source) {
  if (data.length === 0) return [];
  const whole = Math.floor(data.length / DUP_RECORD);
  if (whole === 0 || !isDigits(data.subarray(0, 78))) {
    throw new InputError(`not a DUP file: ${source} (${data.length} bytes) does not start with a ${DUP_RECORD}-byte DUP record (78 digits, then the DGE hands)`);
  }
  const blank = (bytes) => bytes.every((b) => b === 0x20 || b === 0);
  let low = null;
  for (let i = 0; i < whole; i++) {
    const trailer = data.subarray(i * DUP_RECORD + 146, (i + 1) * DUP_RECORD);
    if (blank(trailer)) continue;
    const text = pyStrip(latin1(trailer.subarray(2, 5)));
    if (/^[0-9]+$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_BOARD) {
      low = Number(text);
      break;
    }
    throw new InputError(`${source} record ${i + 1}: bad lowest board in trailer ${excerpt(latin1(trailer))}; board numbers unknown`);
  }
  const records = [];
  for (let i = 0; i < whole; i++) {
    const record = data.subarray(i * DUP_RECORD, (i + 1) * DUP_RECORD);
    const fail = (reason) => {
      throw new InputError(`${source} record ${i + 1}: ${reason}`);
    };
    const bri = record.subarray(0, 78);
    if (!isDigits(bri)) fail(`the BRI part must be 78 digits, got ${excerpt(latin1(bri), 20)}`);
    const numbers = [];
    for (let j = 0; j < 78; j += 2) numbers.push(10 * (bri[j] - 48) + (bri[j + 1] - 48));
    if (new Set(numbers).size !== 39 || !numbers.every((n) => n >= 1 && n <= 52)) {
      fail("BRI card numbers must be 39 distinct values 01..52");
    }
    const hands = [0, 1, 2].map((k) => numbers.slice(13 * k, 13 * (k + 1)).map((n) => n - 1));
    const taken = new Set(numbers);
    hands.push(Array.from({ length: 52 }, (_, c) => c).filter((c) => !taken.has(c + 1)));
    const dge = record.subarray(78, 146);
    if (!blank(dge)) {
      hands.forEach((hand, k) => {
        let written = "";
        for (const b of dge.subarray(17 * k, 17 * (k + 1))) {
          const ch = String.fromCharCode(b);
          written += RANKS.includes(ch) ? ch : "|";
        }
        if ((written.match(/\|/g) ?? []).length !== 4 || !written.startsWith("|")) {
          fail("a DGE hand must hold 4 suit symbols and 13 ranks");
        }
        if (written.slice(1).split("|").join(".") !== formatHand(hand)) {
          fail(`the DGE part disagrees with the BRI part for ${SEATS[k]}`);
        }
      });
    }
    const number = low === null ? null : low + i;
    if (number !== null && number > MAX_BOARD) fail(`board ${number} is past ${MAX_BOARD}`);
    records.push({ number, dealer: null, vulnerable: null, hands: sorted(hands) });
  }
  const rest = data.length - whole * DUP_RECORD;
  if (rest) throw new InputError(`${source} record ${whole + 1}: the file ends with ${rest} bytes, not a whole ${DUP_RECORD}-byte record`);
  return records;
}

// ------------------------------------------------------------------------- one deal a line

/** The boards of a .txt file: one deal per line (PBN deal string), numbered from firstBoard. */
export function readLines(text, source, firstBoard) {
  const boards = [];
  pySplitlines(text).forEach((line, index) => {
    if (!pyStrip(line)) return;
    let hands;
    try {
      hands = parsePbnDeal(line);
    } catch (exc) {
      throw new InputError(`${source} line ${index + 1}: ${exc.message}`);
    }
    if (hands.some((h) => h.length !== 13)) {
      throw new InputError(`${source} line ${index + 1}: partial deal ${excerpt(line)}`);
    }
    boards.push({ number: null, dealer: null, vulnerable: null, hands: sorted(hands) });
  });
  return boards;
}

// ----------------------------------------------------------------------------- any file

function decodeText(data, fmt, source) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data); // drops a BOM, as utf-8-sig
  } catch {
    if (fmt !== "pbn") throw new InputError(`${source}: not UTF-8 text`);
    return latin1(data); // PBN 2.1's own character set
  }
}

/** The boards of one file (name and bytes), its format from the extension. */
export function readBoardFile(name, data, firstBoard = 1) {
  const fmt = formatForName(name);
  if (fmt === null) {
    throw new InputError(`cannot tell the format of ${excerpt(name)} from its extension; the page reads .pbn, .lin, .dlm, .dup and .txt`);
  }
  if (data.length > MAX_BOARD_FILE_BYTES) {
    throw new InputError(`${name}: ${data.length} bytes; a board file holds at most ${MAX_BOARD_FILE_BYTES}`);
  }
  if (fmt === "dup") return toBoards(readDup(data, name), 1, name);
  const text = decodeText(data, fmt, name);
  if (fmt === "pbn") return toBoards(readPbn(text, name), 1, name);
  if (fmt === "lin") return toBoards(readLin(text, name), 1, name);
  if (fmt === "dlm") return toBoards(readDlm(text, name), 1, name);
  return toBoards(readLines(text, name, firstBoard), firstBoard, name);
}
