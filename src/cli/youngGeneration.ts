/**
 * youngGeneration — how large V8 may let its young generation grow in the `routescope` process.
 *
 * V8 doubles the young generation each time enough has survived its scavenges since the last doubling, up to
 * two 16 MiB halves on 64-bit machines. Reading traces keeps records alive (the analyses hold them), so a long
 * read always reaches the top: a third of `analyze`'s peak memory on a 1 GiB file, for no speed that the bench
 * could measure (docs/performance.md). The sizes themselves are read once, when the heap is set up, so a
 * running program cannot lower them; the growth factor is read each time the young generation would grow, so
 * setting it to 1 keeps it at its first size. A user who sizes the young generation themselves (a node flag
 * or NODE_OPTIONS naming a semi-space setting) is left alone.
 */

/** The V8 flag that keeps the young generation at its first size. */
export const YOUNG_GENERATION_FLAG = '--semi-space-growth-factor=1';

/** The flag to set, or undefined when the user already chose a young generation's size or growth. */
export function youngGenerationFlag(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): string | undefined {
  const chosen = (text: string): boolean => /semi[-_]space/.test(text);
  if (execArgv.some(chosen) || (nodeOptions !== undefined && chosen(nodeOptions))) return undefined;
  return YOUNG_GENERATION_FLAG;
}
