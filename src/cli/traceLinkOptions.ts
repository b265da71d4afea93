/**
 * traceLinkOptions — `--jaeger-url`, `--grafana-url`, `--grafana-datasource`: where a report links a trace.
 *
 * `explain` prints the links; `serve` puts them on its explain pages. One definition so both take the same
 * flags with the same checks (an http(s) URL, said back when it is not).
 */
import type { Argv } from 'yargs';
import type { CliArgs } from './cliCommand.js';
import { UsageError } from './usageError.js';
import { escapeControlChars } from '../report/escapeControlChars.js';
import type { TraceLinkConfig } from '../report/traceLinks.js';

/** Add the three flags. */
export function withTraceLinkOptions<T>(y: Argv<T>): Argv<T> {
  return y
    .option('jaeger-url', {
      type: 'string',
      requiresArg: true,
      describe: 'Jaeger UI base URL: link each trace as URL/trace/<trace-id>',
    })
    .option('grafana-url', {
      type: 'string',
      requiresArg: true,
      describe: 'Grafana base URL: link each trace in Explore (Tempo)',
    })
    .option('grafana-datasource', {
      type: 'string',
      requiresArg: true,
      describe: 'uid of the Tempo data source in Grafana',
      default: 'tempo',
    }) as Argv<T>;
}

/** The link configuration the flags give; empty when neither URL is given. */
export function readTraceLinkConfig(args: CliArgs): TraceLinkConfig {
  const jaegerUrl = readHttpUrl(args, 'jaegerUrl', '--jaeger-url');
  const grafanaUrl = readHttpUrl(args, 'grafanaUrl', '--grafana-url');
  return {
    ...(jaegerUrl === undefined ? {} : { jaegerUrl }),
    ...(grafanaUrl === undefined ? {} : { grafanaUrl }),
    grafanaDatasource: String(args.grafanaDatasource ?? 'tempo'),
  };
}

function readHttpUrl(args: CliArgs, key: string, flag: string): string | undefined {
  const v = args[key];
  if (v === undefined) return undefined;
  const text = String(v);
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new UsageError(
      `${flag} must be an http(s) URL such as http://localhost:16686, got '${escapeControlChars(text)}'`,
    );
  }
  return text;
}
