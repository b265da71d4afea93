// bench/naiveVerdicts.js — the naive floor: split a JSON-lines file at '\n', JSON.parse every line, count the
// tier-2 verdicts. What a user would write in Node without any pre-filtering. Prints {"verdicts":{…}}.
// Usage: node bench/naiveVerdicts.js FILE
import { createReadStream } from 'node:fs';

const VERDICT = 'agentfootprint.routing.verdict';
const counts = {};

function countLine(text) {
  const request = JSON.parse(text);
  for (const rs of request.resourceSpans ?? []) {
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        for (const kv of span.attributes ?? []) {
          if (kv.key === VERDICT) counts[kv.value.stringValue] = (counts[kv.value.stringValue] ?? 0) + 1;
        }
      }
    }
  }
}

let rest = Buffer.alloc(0);
for await (const chunk of createReadStream(process.argv[2], { highWaterMark: 1024 * 1024 })) {
  const buf = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
  let start = 0;
  for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, start)) {
    if (nl > start) countLine(buf.toString('utf8', start, nl));
    start = nl + 1;
  }
  rest = buf.subarray(start);
}
if (rest.length > 0) countLine(rest.toString('utf8'));
console.log(JSON.stringify({ verdicts: counts }));
