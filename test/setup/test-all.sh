#!/usr/bin/env bash
# test-all.sh — `npm run test:all`: every check and every test, on a machine set up by nothing but this.
# The real engines the ops-kit tests run (test/setup/build-engines.mjs: a Collector and Jaeger from the Go module
# proxy, cached in .cache/engines/) build in the background while the type check, the linters and the build run,
# so a fresh machine pays for them once and in parallel; the tests start when all of it is done.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash test/setup/install-tools.sh
mkdir -p .cache
engines_log=.cache/build-engines.log
node test/setup/build-engines.mjs otelcol jaeger >"$engines_log" 2>&1 &
engines=$!
status=0
npm run typecheck && npm run lint && npm run build || status=$?
if [ "$status" -ne 0 ]; then
  kill "$engines" 2>/dev/null || true
  exit "$status"
fi
if ! wait "$engines"; then
  echo "building the engines failed:" >&2
  cat "$engines_log" >&2
  exit 1
fi
grep '^build-engines:' "$engines_log" >&2 || true
npx --no-install vitest run
