#!/usr/bin/env bash
# Fuzzes the API from its own OpenAPI document with schemathesis (PyPI): no 5xx, every response
# conforming to its declared schema, status and content type, for every operation.
# Usage: scripts/schemathesis.sh [examples per operation, default 25]
set -euo pipefail
cd "$(dirname "$0")/.."
examples="${1:-25}"
venv="${HOME}/.cache/voice-campaigns/schemathesis-venv"
if [[ ! -x "$venv/bin/st" ]]; then
  echo "[schemathesis] installing schemathesis into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q schemathesis
fi
data="$(mktemp -d)"
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
tport=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
uport=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
log="$data/server.log"
# The product on its embedded defaults, with the demo agency seeded so paths resolve.
DATA_DIR="$data" PORT="$port" TEMPORAL_DEV_PORT="$tport" TEMPORAL_UI_PORT="$uport" LOG_LEVEL=warn RATE_LIMIT_POINTS=1000000 \
  node --import tsx server/main.ts >"$log" 2>&1 &
pid=$!
trap 'kill -INT $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break; sleep 0.5; done
key=$(grep -o 'vck_[A-Za-z0-9_-]*' "$log" | head -1)
[[ -n "$key" ]] || { echo "the server did not start:"; cat "$log"; exit 1; }
# Run from the temp dir: schemathesis keeps a cache in its working directory, never in the repo.
cd "$data"
"$venv/bin/st" run "http://127.0.0.1:$port/api/openapi.json" \
  -H "Authorization: Bearer $key" \
  --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance \
  --phases examples,fuzzing -n "$examples" --no-color
