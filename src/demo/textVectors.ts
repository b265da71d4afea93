/**
 * textVectors — the little text arithmetic the demo's scorers are made of: tokens, character n-grams, cosines.
 *
 * The demo's scorers must compute their numbers from the text, like the real ones do, so that the near-ties
 * and the floorless scorer the analyzer then reports come out of the words and not out of planted numbers.
 * Tokens are lower-cased words with a small stop list and a crude plural/suffix fold (enough that "refunds"
 * meets "refund"); n-grams are taken over the lower-cased text padded with spaces, so word boundaries count.
 * Pure. No I/O.
 */

const STOP_WORDS = new Set(
  (
    'a an the and or but if then so to of in on at for from by with about into over after before is are was ' +
    'were be been being am do does did done have has had i me my mine we our you your it its this that these ' +
    'those there here what which who whom when why can could would should will shall may might must not no ' +
    'yes ok okay please just also too very still again now up out as than any some all one get got im dont ' +
    'cant is it s t'
  ).split(' '),
);

/**
 * Fold a lower-cased word to a crude stem so inflections meet ("refunded", "refunds" → "refund"; "cancelling",
 * "cancelled" → "cancel"; "charges", "charged" → "charg"): one suffix off, then a final `e` and one letter of
 * a doubled final consonant. Both sides of every comparison go through it, so only consistency matters.
 */
export function stemWord(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 3 && /([b-df-hj-np-rtv-z])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** The content tokens of a text: lower-cased words, stop words dropped, stemmed; in order, repeats kept. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw === '' || STOP_WORDS.has(raw)) continue;
    out.push(stemWord(raw));
  }
  return out;
}

/** Character n-gram counts of a text: lower-cased, runs of non-alphanumerics collapsed to one space, padded. */
export function charNgramCounts(text: string, n = 3): Map<string, number> {
  const normalized = ` ${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= normalized.length; i++) {
    const gram = normalized.slice(i, i + n);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

/** Add the counts of `more` into `into` (a sum of term-frequency vectors). */
export function addCounts(into: Map<string, number>, more: ReadonlyMap<string, number>): Map<string, number> {
  for (const [k, v] of more) into.set(k, (into.get(k) ?? 0) + v);
  return into;
}

/** Cosine of two sets seen as 0/1 vectors: |A ∩ B| / sqrt(|A|·|B|); 0 when either is empty. */
export function setCosine(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const x of small) if (large.has(x)) shared++;
  return Math.min(1, shared / Math.sqrt(a.size * b.size));
}

/** Cosine of two sparse count vectors; 0 when either is all zeros. Clamped to [0, 1] against rounding. */
export function countCosine(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [k, v] of small) {
    const w = large.get(k);
    if (w !== undefined) dot += v * w;
  }
  if (dot === 0) return 0;
  const cos = dot / (norm(a) * norm(b));
  return Math.min(1, Math.max(0, cos));
}

function norm(v: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (const x of v.values()) sum += x * x;
  return Math.sqrt(sum);
}
