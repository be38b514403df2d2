// Bridge deals as Big Deal numbers them (its "Gödel numbers"), and the duplicate board cycles.
//
// Cards are 0..51 in the order SA SK ... S2 HA ... H2 DA ... D2 CA ... C2; seats N=0, E=1,
// S=2, W=3.  A number g < D is split as g = rN*C(39,13)*C(26,13) + rE*C(26,13) + rS; North
// gets the 13-subset of the 52 cards with lexicographic rank rN (the rank of its ascending
// position list), East the subset of rank rE of the 39 left, South that of rank rS of the
// 26 left after that, West the rest.

export const SEATS = "NESW";
export const SEAT_NAMES = ["North", "East", "South", "West"];
export const SUITS = "SHDC";
export const RANKS = "AKQJT98765432";

const binomials = [];
for (let n = 0; n <= 52; n++) {
  binomials.push([]);
  for (let k = 0; k <= n; k++) {
    binomials[n].push(k === 0 || k === n ? 1 : binomials[n - 1][k - 1] + binomials[n - 1][k]);
  }
}

/** C(n, k) for 0 <= n <= 52 (exact: every value is below 2^53). */
export function choose(n, k) {
  return k < 0 || k > n ? 0 : binomials[n][k];
}

const C52 = BigInt(choose(52, 13));
const C39 = BigInt(choose(39, 13));
const C26 = BigInt(choose(26, 13));

/** D, the number of bridge deals: C(52,13)·C(39,13)·C(26,13). */
export const D = C52 * C39 * C26;

// The 13 positions (0-based, ascending) of the subset of rank `rank` among n positions.
function unrankSubset(rank, n) {
  const picks = [];
  let q = 0;
  for (let j = 0; j < 13; j++) {
    for (;;) {
      const count = choose(n - 1 - q, 12 - j);
      if (rank < count) break;
      rank -= count;
      q++;
    }
    picks.push(q);
    q++;
  }
  return picks;
}

/** The deal with Gödel number g (a BigInt, 0 <= g < D): hands [N, E, S, W] of card indices. */
export function goedelUnrank(g) {
  if (typeof g !== "bigint" || g < 0n || g >= D) throw new RangeError(`Gödel number ${g} out of range`);
  const ranks = [Number(g / (C39 * C26)), Number((g / C26) % C39), Number(g % C26)];
  let left = Array.from({ length: 52 }, (_, i) => i);
  const hands = [];
  for (const rank of ranks) {
    const picks = new Set(unrankSubset(rank, left.length));
    hands.push(left.filter((_, i) => picks.has(i)));
    left = left.filter((_, i) => !picks.has(i));
  }
  hands.push(left);
  return hands;
}

/** One hand as PBN writes it: `S.H.D.C`, ranks high to low (a void is empty). */
export function formatHand(cards) {
  const suits = ["", "", "", ""];
  for (const c of [...cards].sort((a, b) => a - b)) suits[Math.floor(c / 13)] += RANKS[c % 13];
  return suits.join(".");
}

/** A deal as a PBN Deal string from North: `N:<N> <E> <S> <W>`. */
export function formatDeal(hands) {
  return "N:" + hands.map(formatHand).join(" ");
}

/** The card index of suit letter and rank letter (`"S"`, `"A"` → 0), or -1. */
export function cardIndex(suit, rank) {
  const s = SUITS.indexOf(suit);
  const r = RANKS.indexOf(rank);
  return s < 0 || r < 0 ? -1 : 13 * s + r;
}

/** The standard dealer of a board: N, E, S, W for boards 1, 2, 3, 4, and so on. */
export function dealerOf(board) {
  return SEATS[(board - 1) % 4];
}

const VUL_CYCLE = ["EW", "None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS"];

/** The standard vulnerability of a board (16-board cycle). */
export function vulnerabilityOf(board) {
  return VUL_CYCLE[board % 16];
}

/** A complete board with the standard dealer and vulnerability. */
export function standardBoard(number, hands, goedel = null) {
  return { number, hands, dealer: dealerOf(number), vulnerable: vulnerabilityOf(number), goedel };
}
