// Board numbers and ranges, and the error for input that cannot be verified at all.

import { boundedDecimal, excerpt, pyStrip } from "./bytes.js";

export const MAX_BOARD = 999;

/**
 * Input that cannot be used (a malformed file, a missing value): `croupier ... verify` stops
 * with exit status 2 on it.  The page shows the message as a failure to verify.
 */
export class InputError extends Error {
  constructor(message) {
    super(message);
    this.name = "InputError";
  }
}

/** A range of boards, first..last (inclusive). */
export function boardRange(first, last) {
  return { first, last };
}

/** The board numbers of a range, ascending. */
export function numbersOf(range) {
  return Array.from({ length: range.last - range.first + 1 }, (_, i) => range.first + i);
}

/** `A-B` as written (`1-16`). */
export function formatRange(range) {
  return `${range.first}-${range.last}`;
}

/** A board number: ASCII digits (spaces around them allowed), 1..999. */
export function parseBoardNumber(text) {
  const cleaned = pyStrip(text);
  const number = boundedDecimal(cleaned.replace(/^0+/, "") || cleaned.slice(-1), 3);
  if (number === null || number < 1 || number > MAX_BOARD) {
    throw new InputError(`bad board number ${excerpt(text)}; expected a number 1..${MAX_BOARD}`);
  }
  return number;
}

/** `N` (boards 1..N) or `A-B` (boards A..B). */
export function parseBoardRange(text) {
  const m = /^[ \t\n\r\f\v]*([0-9]+)[ \t\n\r\f\v]*(?:-[ \t\n\r\f\v]*([0-9]+)[ \t\n\r\f\v]*)?$/.exec(text);
  if (m === null) {
    throw new InputError(
      `bad board range ${excerpt(text)}; expected N (boards 1..N) or A-B, like '16' or '17-32'`,
    );
  }
  let first;
  let last;
  try {
    first = parseBoardNumber(m[1]);
    last = m[2] === undefined ? null : parseBoardNumber(m[2]);
  } catch {
    throw new InputError(`bad board range ${excerpt(text)}: boards are numbered 1..${MAX_BOARD}`);
  }
  const range = last === null ? boardRange(1, first) : boardRange(first, last);
  if (range.first > range.last) {
    throw new InputError(
      `bad board range ${excerpt(text)}: the first board must not exceed the last, like '17-32'`,
    );
  }
  return range;
}

/** A comma list of ranges, like `1-16,17-32`. */
export function parseBoardList(text) {
  const parts = text.split(",");
  if (parts.length > 9999 || parts.some((p) => !pyStrip(p))) {
    throw new InputError(
      `bad board list ${excerpt(text)}; expected ranges separated by commas, like '1-16,17-32'`,
    );
  }
  return parts.map(parseBoardRange);
}
