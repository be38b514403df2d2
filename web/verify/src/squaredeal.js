// SquareDeal 2.x events: the .sqd description, the .sqk keys, the key hash KH, and the boards
// of one session (Big Deal with owner = first half of the key, entropy = second half, the
// base64 of the delayed value, "original" or "reserve", and "ses<N>" in a variable phase).

import { InputError, MAX_BOARD, parseBoardList } from "./boards.js";
import {
  base64,
  boundedDecimal,
  concat,
  decodeSurrogateEscape,
  encodeSurrogateEscape,
  excerpt,
  latin1,
  pyRstrip,
  pySplitlines,
  pyStrip,
  splitByteLines,
  toHex,
  utf8,
} from "./bytes.js";
import { bigdealBoards, seedFromEntropy } from "./bigdeal.js";
import { sha256 } from "./hashes.js";

export const MAX_PHASES = 100;
export const MAX_SESSIONS = 9999;
export const MAX_EVENT_SESSIONS = 10000;
export const MAX_KEY_LENGTH = 1000;
export const MAX_EVENT_FILE_BYTES = 4 * 1024 * 1024;

function sqdError(source, lineno, message) {
  return new InputError(`${source} line ${lineno}: ${message}`);
}

// `text` as a number 0..limit (ASCII digits, leading zeros allowed), else null.
function number(text, limit) {
  const value = boundedDecimal(text.replace(/^0+/, "") || text.slice(-1), String(limit).length);
  return value !== null && value <= limit ? value : null;
}

// Python's \s (Unicode): the prefix of a phase has none, nor ':', '/', '\'.
const PREFIX_RE = /^[^:/\\\s\x1c-\x1f\x85]+$/u;
const ASCII_SPACE = "[ \\t\\n\\r\\f\\v]*";

function expandBoards(spec) {
  const m = new RegExp(`^${ASCII_SPACE}([0-9]+)${ASCII_SPACE}[xX]${ASCII_SPACE}([0-9]+)${ASCII_SPACE}$`).exec(spec);
  if (m === null) return pyStrip(spec);
  const count = number(m[1], MAX_BOARD);
  const size = number(m[2], MAX_BOARD);
  if (count === null || size === null || count < 1 || size < 1 || count * size > MAX_BOARD) {
    throw new InputError(`bad board spec ${excerpt(pyStrip(spec))}: 'NxM' needs N, M >= 1 and N*M <= ${MAX_BOARD}`);
  }
  return Array.from({ length: count }, (_, i) => `${i * size + 1}-${(i + 1) * size}`).join(",");
}

/** One `SN sessions:boards:prefix:description` line. */
export class Phase {
  constructor(sessions, ranges, prefix, description) {
    this.sessions = sessions; // 0: a variable phase
    this.ranges = ranges; // [] for '?' (boards chosen when dealing)
    this.prefix = prefix;
    this.description = description;
  }

  static parse(text) {
    const stripped = pyStrip(text);
    const first = stripped.split(":");
    if (first.length < 4) {
      throw new InputError(
        `bad phase ${excerpt(text)}; expected SESSIONS:BOARDS:PREFIX:DESCRIPTION, like '2:1-16,17-32:OPRR##:Open pairs round #'`,
      );
    }
    const parts = [...first.slice(0, 3), first.slice(3).join(":")].map(pyStrip);
    const [sessionsText, boards, prefix, description] = parts;
    const sessions = number(sessionsText, MAX_SESSIONS);
    if (sessions === null) {
      throw new InputError(
        `bad phase ${excerpt(text)}: the number of sessions ${excerpt(sessionsText)} must be a whole number 0..${MAX_SESSIONS}`,
      );
    }
    let ranges;
    try {
      const spec = expandBoards(boards);
      ranges = pyStrip(spec) === "?" ? [] : parseBoardList(spec);
    } catch (exc) {
      throw new InputError(`bad phase ${excerpt(text)}: ${exc.message}`);
    }
    if (!PREFIX_RE.test(prefix) || (prefix.match(/#+/g) ?? []).length > 1) {
      throw new InputError(`bad file prefix ${excerpt(prefix)} in phase ${excerpt(text)}`);
    }
    if (/[\n\r]/.test(description)) {
      throw new InputError(`phase description ${excerpt(description)} must be one line`);
    }
    return new Phase(sessions, ranges, prefix, description);
  }

  get variable() {
    return this.sessions === 0;
  }

  get chosenAtDealing() {
    return this.ranges.length === 0;
  }

  /** The boards of a session: element (session - 1) mod len of the list. */
  boardsForSession(session) {
    return this.ranges[(session - 1) % this.ranges.length];
  }
}

/** Parse a .sqd file (bytes).  The DV is kept as its exact bytes. */
export function parseSqd(bytes, source) {
  if (bytes.length > MAX_EVENT_FILE_BYTES) {
    throw new InputError(`${source} has ${bytes.length} bytes; SquareDeal event files hold at most ${MAX_EVENT_FILE_BYTES}`);
  }
  const text = decodeSurrogateEscape(bytes);
  let name = null;
  let info = "";
  let dv = null;
  let kh = null;
  const phases = [];
  const seen = new Map();
  pySplitlines(text).forEach((raw, index) => {
    const lineno = index + 1;
    const line = raw.replace(/\r+$/, "");
    if (!pyStrip(line) || line.startsWith("#")) return;
    const code = line.slice(0, 2);
    const rest = line.slice(2, 3) === " " ? line.slice(3) : line.length === 2 ? "" : null;
    if (rest === null || !["TN", "DI", "DV", "SN", "KH"].includes(code)) {
      throw sqdError(
        source,
        lineno,
        `unknown line ${excerpt(line)}; expected '# comment' or a line starting with TN, DI, DV, SN or KH and a space`,
      );
    }
    if (code !== "SN" && seen.has(code)) {
      throw sqdError(source, lineno, `a second ${code} line (the first is line ${seen.get(code)}); an event has one of each`);
    }
    seen.set(code, lineno);
    if (code === "TN") name = pyRstrip(rest);
    else if (code === "DI") info = pyRstrip(rest);
    else if (code === "DV") {
      dv = pyRstrip(rest);
      if (!dv) throw sqdError(source, lineno, "empty DV line; give the delayed value");
    } else if (code === "KH") {
      kh = pyStrip(rest).toLowerCase();
      if (!/^[0-9a-f]{64}$/.test(kh)) {
        throw sqdError(source, lineno, `bad key hash ${excerpt(pyStrip(rest))}; expected 64 hex digits`);
      }
    } else {
      if (phases.length === MAX_PHASES) {
        throw sqdError(source, lineno, `more than ${MAX_PHASES} SN lines; an event has at most ${MAX_PHASES} phases`);
      }
      try {
        phases.push(Phase.parse(rest));
      } catch (exc) {
        throw sqdError(source, lineno, exc.message);
      }
    }
  });
  if (name === null) throw new InputError(`${source}: no 'TN' line; the event needs a name`);
  if (phases.length === 0) throw new InputError(`${source}: no 'SN' line; the event needs at least one phase`);
  const keys = phases.reduce((n, p) => n + Math.max(p.sessions, 1), 0);
  if (keys > MAX_EVENT_SESSIONS) {
    throw new InputError(`${source}: the phases have ${keys} sessions in all; an event has at most ${MAX_EVENT_SESSIONS}`);
  }
  return {
    name,
    delayedInfo: info,
    delayedValue: dv,
    dvBytes: dv === null ? null : encodeSurrogateEscape(dv),
    phases,
    keyHash: kh,
  };
}

/** `PHASE,SESSION` as [phase, session], or null. */
function keyId(text) {
  const comma = text.indexOf(",");
  if (comma < 0) return null;
  const p = number(text.slice(0, comma), MAX_PHASES);
  const s = number(text.slice(comma + 1), MAX_SESSIONS);
  return p === null || s === null || p < 1 ? null : [p, s];
}

/** Parse a .sqk key file (bytes): a Map from "p,s" to the key.  Errors never quote a key. */
export function parseSqk(bytes, source) {
  if (bytes.length > MAX_EVENT_FILE_BYTES) {
    throw new InputError(`${source} has ${bytes.length} bytes; SquareDeal key files hold at most ${MAX_EVENT_FILE_BYTES}`);
  }
  const text = latin1(bytes).replace(/[\x80-\xff]/g, "\ufffd");
  const keys = new Map();
  pySplitlines(text).forEach((raw, index) => {
    const lineno = index + 1;
    const line = raw.replace(/\r+$/, "");
    if (!pyStrip(line)) return;
    const colon = line.indexOf(":");
    const id = colon < 0 ? null : keyId(line.slice(0, colon));
    if (id === null) {
      throw sqdError(
        source,
        lineno,
        `bad key line (not shown: it may hold a secret key); expected PHASE,SESSION:KEY with phase 1..${MAX_PHASES} and session 0..${MAX_SESSIONS}`,
      );
    }
    const name = `${id[0]},${id[1]}`;
    const key = line.slice(colon + 1);
    if (!(key.length >= 1 && key.length <= MAX_KEY_LENGTH && /^[A-Za-z0-9]+$/.test(key))) {
      throw sqdError(
        source,
        lineno,
        `bad key '${name}' (not shown: it is secret); expected 1 to ${MAX_KEY_LENGTH} letters A-Z, a-z and digits 0-9`,
      );
    }
    if (keys.has(name)) throw sqdError(source, lineno, `key '${name}' appears twice`);
    if (keys.size === MAX_EVENT_SESSIONS) {
      throw sqdError(source, lineno, `more than ${MAX_EVENT_SESSIONS} keys; an event has at most ${MAX_EVENT_SESSIONS} sessions`);
    }
    keys.set(name, key);
  });
  if (keys.size === 0) throw new InputError(`${source}: no keys found`);
  return keys;
}

/** KH: SHA-256 (hex) of the key file with every line ended by CR LF. */
export async function keyHash(bytes) {
  const crlf = new Uint8Array([13, 10]);
  const parts = [];
  for (const line of splitByteLines(bytes)) parts.push(line, crlf);
  return toHex(await sha256(concat(...parts)));
}

/** The boards SquareDeal + Big Deal make for one session (`numbers`: its board numbers). */
export function sessionBoards(event, keys, ref, numbers) {
  const phase = event.phases[ref.phase - 1];
  const name = `${ref.phase},${phase.variable ? 0 : ref.session}`;
  const key = keys.get(name);
  if (key === undefined) throw new InputError(`the key file has no key '${name}' (phase,session)`);
  const half = Math.floor(key.length / 2);
  let entropy = key.slice(half) + base64(event.dvBytes) + (ref.reserve ? "reserve" : "original");
  if (phase.variable) entropy += `ses${ref.session}`;
  return bigdealBoards(seedFromEntropy(utf8(entropy)), utf8(key.slice(0, half)), numbers);
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Which session a file belongs to, from its name: {phase, session, reserve}. */
export function matchSessionFile(event, fileName) {
  let stem = fileName.split("/").pop();
  if (stem.includes(".")) stem = stem.slice(0, stem.lastIndexOf("."));
  const matches = [];
  event.phases.forEach((phase, index) => {
    const p = index + 1;
    const run = /#+/.exec(phase.prefix);
    for (const reserve of [false, true]) {
      const suffix = reserve ? "reserve" : "";
      if (run === null) {
        if (stem === phase.prefix + suffix && phase.sessions === 1) matches.push({ phase: p, session: 1, reserve });
        continue;
      }
      const width = run[0].length;
      const before = phase.prefix.slice(0, run.index);
      const after = phase.prefix.slice(run.index + width);
      const m = new RegExp(`^${escapeRegExp(before)}([0-9]+)${escapeRegExp(after + suffix)}$`).exec(stem);
      if (m === null) continue;
      const session = number(m[1], MAX_SESSIONS);
      if (session === null || session < 1 || String(session).padStart(width, "0") !== m[1]) continue;
      if (!phase.variable && session > phase.sessions) continue;
      matches.push({ phase: p, session, reserve });
    }
  });
  if (matches.length === 0) {
    const prefixes = event.phases.map((ph) => `'${ph.prefix}'`).join(", ");
    throw new InputError(
      `file ${excerpt(fileName)} matches no session of this event; SquareDeal names files after the phase prefixes ${prefixes}`,
    );
  }
  if (matches.length > 1) {
    throw new InputError(`file ${excerpt(fileName)} matches several sessions; rename it to one SquareDeal file name`);
  }
  return matches[0];
}

/** Why the .sqd phases do not fit the committed keys, or null when they do. */
export function phasesAgainstKeys(event, keys) {
  const perPhase = new Map();
  for (const name of keys.keys()) {
    const [p, s] = name.split(",").map(Number);
    if (!(p >= 1 && p <= event.phases.length)) {
      return `the keys include '${name}' but the .sqd has ${event.phases.length} phase(s)`;
    }
    const phase = event.phases[p - 1];
    if (phase.variable !== (s === 0) || (!phase.variable && s > phase.sessions)) {
      const spelled = phase.variable ? "any number of sessions" : `${phase.sessions} session(s)`;
      return `the keys include '${name}' but phase ${p} of the .sqd has ${spelled}`;
    }
    if (!perPhase.has(p)) perPhase.set(p, new Set());
    perPhase.get(p).add(s);
  }
  for (let p = 1; p <= event.phases.length; p++) {
    const phase = event.phases[p - 1];
    const present = perPhase.get(p) ?? new Set();
    const wanted = phase.variable ? 1 : phase.sessions;
    if (present.size !== wanted) {
      let missing = 0;
      if (!phase.variable) {
        missing = 1;
        while (present.has(missing)) missing++;
      }
      return `phase ${p} session ${missing} of the .sqd has no key (${p},${missing})`;
    }
  }
  return null;
}
