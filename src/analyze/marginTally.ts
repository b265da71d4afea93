/**
 * marginTally — the near-tie margins the decisions were recorded with, and how many decisions each judged.
 *
 * tune and the charts both show which margins the traces ran under, next to what they sweep or draw; one
 * tally keeps the two lists in the same order. Memory: one count per distinct margin. Pure.
 */

/** How many recorded margins the list keeps. */
const MARGINS_LISTED = 5;

/** A recorded margin and the decisions judged with it. */
export interface MarginCount {
  readonly margin: number;
  readonly decisions: number;
}

/** Counts decisions per recorded near-tie margin. */
export class MarginTally {
  private readonly counts = new Map<number, number>();

  /** Count one decision judged with `margin`. */
  add(margin: number): void {
    this.counts.set(margin, (this.counts.get(margin) ?? 0) + 1);
  }

  /** Add `other`'s counts. */
  merge(other: MarginTally): void {
    for (const [margin, n] of other.counts) this.counts.set(margin, (this.counts.get(margin) ?? 0) + n);
  }

  /** The margins, most decisions first (then the narrower), at most five. */
  top(): MarginCount[] {
    return [...this.counts]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, MARGINS_LISTED)
      .map(([margin, n]) => ({ margin, decisions: n }));
  }
}
