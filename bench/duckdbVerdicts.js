// bench/duckdbVerdicts.js — the verdict counts of a JSON-lines trace file, as a data user would get them with
// DuckDB: read_json over the Collector's lines, unnest resourceSpans → scopeSpans → spans → attributes, count
// the verdict attribute. Prints {"verdicts": {...}}. Run as its own process by analyzer.bench.js, so its time
// and peak RSS are its own. DuckDB comes from bench/package.json (npm run bench installs it).
import { DuckDBInstance } from '@duckdb/node-api';

const file = process.argv[2];
const threads = process.env.DUCKDB_THREADS ?? '2';
const instance = await DuckDBInstance.create(':memory:', { threads });
const connection = await instance.connect();
const statement = await connection.prepare(`
  WITH rs AS (
    SELECT unnest(resourceSpans) AS r
    FROM read_json(?, format = 'newline_delimited', maximum_object_size = 268435456)
  ),
  ss AS (SELECT unnest(r.scopeSpans) AS s FROM rs),
  sp AS (SELECT unnest(s.spans) AS span FROM ss),
  attrs AS (SELECT unnest(span.attributes) AS a FROM sp)
  SELECT a.value.stringValue AS verdict, count(*)::INTEGER AS n
  FROM attrs
  WHERE a.key = 'agentfootprint.routing.verdict'
  GROUP BY 1`);
statement.bindVarchar(1, file);
const result = await statement.runAndReadAll();
const verdicts = {};
for (const [verdict, n] of result.getRows()) verdicts[verdict] = n;
console.log(JSON.stringify({ verdicts }));
