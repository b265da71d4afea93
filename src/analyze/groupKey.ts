/**
 * groupKey — the key of a group of records named by a few parts (router and scorer, a skill pair, a
 * conversation), for the Maps the analyses count in.
 *
 * Each part is length-prefixed and an absent one is `~`, so two different groups never share a key whatever
 * their names hold (a name may contain any separator), and a key costs a few string concatenations. Keys are
 * never shown or sorted: the groups carry their parts. Pure.
 */

/** One part of a key: `<length>:<text>`, or `~` when the part is absent. */
export function keyPart(part: string | null | undefined): string {
  return part === undefined || part === null ? '~' : `${part.length}:${part}`;
}

/** The key of the group named by `parts`, in order. */
export function groupKey(...parts: ReadonlyArray<string | null | undefined>): string {
  let key = '';
  for (const part of parts) key += keyPart(part);
  return key;
}
