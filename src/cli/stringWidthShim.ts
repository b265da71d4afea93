/**
 * stringWidthShim — stands in for the string-width package in the bundled CLI (rolldown.config.js).
 *
 * yargs, cliui and wrap-ansi import string-width to lay help out; its module builds an Intl.Segmenter and
 * Unicode-property patterns as it loads (~45 ms, on every run, help or not). measureTerminalWidth counts the same
 * columns and builds those only for text that is not printable ASCII. The default export is the package's
 * call shape; its options (ambiguous-width, counting ANSI codes) are not used by those callers.
 */
import { measureTerminalWidth } from '../report/measureTerminalWidth.js';

export default function stringWidth(text: string): number {
  return measureTerminalWidth(text);
}
