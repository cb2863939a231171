#!/usr/bin/env bash
# Installs what the product needs on a fresh machine: npm packages, the Temporal CLI (built from
# source with Go into .tools/bin unless one is already available), and with --test, Chromium for
# the browser tests and Postgres (the store's tests run on it too). Safe to re-run: each step is
# skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[[ "${1:-}" == "--test" ]] && want_test=1
TEMPORAL_CLI_VERSION=v1.5.1
# The server the CLI pins: the tests' topology runs it on Postgres, as a real cluster would.
TEMPORAL_SERVER_VERSION=v1.29.1
step() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

# Node 20.19+ (Vite 8 and the Temporal SDK need it).
node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error("Node >= 20.19 is required, found "+process.versions.node); process.exit(1) }'

# npm packages: install when missing or when the lockfile changed since the last install.
if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  step "installing npm packages (better-sqlite3 compiles from source: about 1-2 minutes)"
  # better-sqlite3 compiles against Node's headers, which node-gyp otherwise downloads from
  # nodejs.org (unreachable here); a Node installed under /usr ships them in /usr/include/node.
  if [[ -z "${npm_config_nodedir:-}" && "$(command -v node)" == /usr/bin/node && -f /usr/include/node/node_version.h ]]; then
    export npm_config_nodedir=/usr
  fi
  # `npm install` rather than `npm ci`: this npm leaves other platforms' optional packages out of
  # the lockfile, which `npm ci` then refuses; install still honours the locked versions.
  npm install --no-audit --no-fund --loglevel=error
else
  step "npm packages up to date"
fi

# The Temporal CLI: TEMPORAL_ADDRESS means an external cluster and no local server at all.
if [[ -n "${TEMPORAL_ADDRESS:-}" ]]; then
  step "TEMPORAL_ADDRESS=$TEMPORAL_ADDRESS: using that cluster, no local Temporal needed"
elif [[ -n "${TEMPORAL_CLI:-}" ]]; then
  [[ -x "$TEMPORAL_CLI" ]] || { echo "TEMPORAL_CLI=$TEMPORAL_CLI is not an executable" >&2; exit 1; }
  step "Temporal CLI from TEMPORAL_CLI: $TEMPORAL_CLI"
elif command -v temporal >/dev/null 2>&1; then
  step "Temporal CLI on PATH: $(command -v temporal)"
elif [[ -x .tools/bin/temporal ]]; then
  step "Temporal CLI: .tools/bin/temporal"
else
  command -v go >/dev/null 2>&1 || { echo "Go is needed to build the Temporal CLI (or set TEMPORAL_CLI / TEMPORAL_ADDRESS)" >&2; exit 1; }
  step "building the Temporal CLI $TEMPORAL_CLI_VERSION with Go into .tools/bin (first time: about 5 minutes on 2 cores)"
  mkdir -p .tools/bin
  started=$(date +%s)
  # -v lists each package as it compiles: visible progress on a long build.
  GOBIN="$PWD/.tools/bin" GOFLAGS=-mod=mod go install -v "github.com/temporalio/cli/cmd/temporal@$TEMPORAL_CLI_VERSION" 2>&1 \
    | awk '{ n++; if (n % 25 == 0) { printf "[setup]   ... %d packages built (%s)\n", n, $0; fflush() } }' >&2
  [[ -x .tools/bin/temporal ]] || { echo "the Temporal CLI build failed" >&2; exit 1; }
  step "Temporal CLI built in $(( $(date +%s) - started ))s"
fi

if (( want_test )); then
  # The real Temporal server and its schema tool, for the many-machines topology test (SQL
  # persistence on Postgres); its Postgres schema files are copied next to them.
  if [[ -x .tools/bin/temporal-server && -x .tools/bin/temporal-sql-tool && -d .tools/temporal-schema/postgresql-v12 ]]; then
    step "Temporal server $TEMPORAL_SERVER_VERSION: .tools/bin/temporal-server"
  else
    command -v go >/dev/null 2>&1 || { echo "Go is needed to build the Temporal server for the topology test" >&2; exit 1; }
    step "building the Temporal server $TEMPORAL_SERVER_VERSION and its SQL tool with Go (first time: a few minutes)"
    started=$(date +%s)
    gobin=$(mktemp -d)
    for cmd in server tools/sql; do
      GOBIN="$gobin" GOFLAGS=-mod=mod go install -v "go.temporal.io/server/cmd/$cmd@$TEMPORAL_SERVER_VERSION" 2>&1 \
        | awk '{ n++; if (n % 25 == 0) { printf "[setup]   ... %d packages built (%s)\n", n, $0; fflush() } }' >&2
    done
    mkdir -p .tools/bin .tools/temporal-schema
    mv "$gobin/server" .tools/bin/temporal-server
    mv "$gobin/sql" .tools/bin/temporal-sql-tool
    rm -rf "$gobin" .tools/temporal-schema/postgresql-v12
    cp -r "$(go env GOMODCACHE)/go.temporal.io/server@$TEMPORAL_SERVER_VERSION/schema/postgresql/v12" .tools/temporal-schema/postgresql-v12
    chmod -R u+w .tools/temporal-schema
    step "Temporal server built in $(( $(date +%s) - started ))s"
  fi
  if [[ ! -x /usr/bin/chromium ]]; then
    step "installing Debian's Chromium for the browser tests"
    SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  else
    step "Chromium: /usr/bin/chromium"
  fi
  # The test run makes its own throwaway cluster (initdb + pg_ctl, test/helpers/postgres-cluster.ts):
  # only the server binaries are needed, no running service.
  pg_bin="${PG_BIN:-$( (ls -d /usr/lib/postgresql/*/bin 2>/dev/null || true) | sort -V | tail -n 1)}"
  if [[ -z "$pg_bin" || ! -x "$pg_bin/initdb" ]]; then
    step "installing Debian's postgresql for the store's tests"
    SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
  else
    step "Postgres: $pg_bin"
  fi
fi
