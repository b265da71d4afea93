/**
 * judgedScores — the score each candidate is judged by when ids repeat: its id's last sanitized score.
 *
 * The framework hands over unique ids, so the common case allocates nothing; garbage input with repeats is
 * judged by the last score of each id, found pairwise for a few candidates and through a reused hash table
 * past that. Pure (the tables are reused buffers, never read across calls).
 */
import type { IntentScore } from './types.js';

/** Up to this many candidates, duplicate ids are looked for pairwise; past it, through a hash table. */
const PAIRWISE_DUPLICATE_MAX = 6;

/**
 * The score each entry is judged by: its id's last sanitized score. With unique ids (what the framework
 * hands over) this is `sanitized` itself, and no array is allocated.
 */
export function judgedScores(scores: readonly IntentScore[], sanitized: number[]): number[] {
  const n = scores.length;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: equivalent — both duplicate searches give the same scores.
  if (n <= PAIRWISE_DUPLICATE_MAX) {
    let judged: number[] | undefined;
    // Stryker disable next-line EqualityOperator: equivalent — the last entry has nothing after it to look for.
    for (let i = 0; i < n - 1; i++) {
      const id = scores[i]!.id;
      // Stryker disable next-line EqualityOperator: equivalent — j = i finds the entry itself and copies its own score.
      for (let j = n - 1; j > i; j--) {
        if (scores[j]!.id === id) {
          // Stryker disable next-line MethodExpression: equivalent — `sanitized` is not read again once ranked.
          (judged ??= sanitized.slice())[i] = sanitized[j]!;
          break;
        }
      }
    }
    return judged ?? sanitized;
  }
  const lastAt = lastOccurrences(scores);
  if (lastAt === undefined) return sanitized;
  // Stryker disable next-line ArrayDeclaration: equivalent — a growing array ends with the same values.
  const judged = new Array<number>(n);
  // Stryker disable next-line EqualityOperator: equivalent — the slot past n is never read.
  for (let i = 0; i < n; i++) judged[i] = sanitized[lastAt[i]!]!;
  return judged;
}

/**
 * Reused open-addressing table of candidate indexes (-1 = empty), with each slot's full hash beside it so that
 * a probe compares two numbers before it compares two ids: no allocation per call once grown.
 */
let idTable = new Int32Array(256);
let hashTable = new Int32Array(256);
/** Reused: the table slot each entry's id ended in. */
let slotOf = new Int32Array(64);

/**
 * For each entry, the index of its id's last occurrence; undefined when every id is unique. A linear-probing
 * table over a hash of the whole id, with `===` deciding: several times cheaper than a Map at the candidate
 * counts routing sees, and it allocates only when a duplicate exists. Two passes, each expected O(1) per entry
 * whatever the ids: the first leaves each id's slot holding its last index (and notes each entry's slot), the
 * second reads every entry's slot back (rewriting earlier entries at each repeat was O(n) per repeat: minutes at a million candidates).
 */
function lastOccurrences(scores: readonly IntentScore[]): Int32Array | undefined {
  const n = scores.length;
  let size = 16;
  // At most a quarter full: most probes end at their first slot.
  // Stryker disable next-line EqualityOperator,ArithmeticOperator: equivalent — another size only probes more or less.
  while (size < 4 * n) size *= 2;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: equivalent — new tables only cost an allocation.
  if (idTable.length < size) {
    idTable = new Int32Array(size);
    hashTable = new Int32Array(size);
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent — a new buffer only costs an allocation.
  if (slotOf.length < n) slotOf = new Int32Array(n);
  const table = idTable;
  const hashes = hashTable;
  const slots = slotOf;
  const mask = size - 1;
  table.fill(-1, 0, size);
  let repeats = false;
  for (let i = 0; i < n; i++) {
    const id = scores[i]!.id;
    const hash = hashId(id);
    let h = hash & mask;
    for (;;) {
      const j = table[h]!;
      if (j === -1) {
        table[h] = i;
        hashes[h] = hash;
        slots[i] = h;
        break;
      }
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent — the hash test only spares comparing ids that differ.
      if (hashes[h] === hash && scores[j]!.id === id) {
        // A repeat: the slot now holds this, the id's latest occurrence.
        repeats = true;
        table[h] = i;
        slots[i] = h;
        break;
      }
      // Stryker disable next-line ArithmeticOperator: equivalent — probing backwards visits the same slots.
      h = (h + 1) & mask;
    }
  }
  if (!repeats) return undefined;
  const lastAt = new Int32Array(n);
  for (let i = 0; i < n; i++) lastAt[i] = table[slots[i]!]!;
  return lastAt;
}

/**
 * FNV-1a over the id's UTF-16 code units, folded: every character counts, so ids that differ anywhere (skill-17,
 * skill-71) spread over the table; a collision only costs a probe, `===` decides. A non-string id (garbage
 * input) hashes by its string form.
 */
// Stryker disable all: any hash is correct — it only picks where probing starts, `===` decides identity.
function hashId(id: unknown): number {
  const text = typeof id === 'string' ? id : String(id);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h ^ (h >>> 15);
}
// Stryker restore all
