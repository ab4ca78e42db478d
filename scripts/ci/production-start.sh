#!/usr/bin/env bash
# Starts the app the two ways docs/operations.md describes, each from a fresh clone of HEAD, with
# NODE_ENV=production already in the environment (as deployment platforms set it):
#   1. `npm start` in the clone (installs with dev dependencies, builds, starts);
#   2. a runtime-only install of that build elsewhere (the files docs/operations.md lists,
#      `npm ci --omit=dev`, `npm run serve`), where every package the server bundle may import,
#      at start or on first use, must be a dependency and load (runtime-imports.mjs).
# Each must answer /api/health and the home page. Exits non-zero otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"
work="$(mktemp -d /tmp/aether-production-start.XXXXXX)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# Starts "$@" in its own process group with NODE_ENV=production, waits for a healthy server on $port.
start_and_check() {
  local name="$1" dir="$2" port="$3" log="$work/$1.log"
  shift 3
  (cd "$dir" && exec setsid env NODE_ENV=production PORT="$port" HOST=127.0.0.1 DATA_DIR="$work/$name-data" \
    SEED_ADMIN_PASSWORD=ci-admin-password SEED_MEMBER_PASSWORD=ci-member-password LOG_LEVEL=info "$@" >"$log" 2>&1) &
  pids+=("$!")
  local deadline=$((SECONDS + 900))
  until curl -sf "http://127.0.0.1:$port/api/health" >/dev/null; do
    if ((SECONDS > deadline)) || ! kill -0 "${pids[-1]}" 2>/dev/null; then
      echo "$name: the server did not become healthy"; tail -n 60 "$log"; return 1
    fi
    sleep 1
  done
  local home
  home="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/")"
  [[ "$home" == 200 ]] || { echo "$name: / answered $home"; tail -n 40 "$log"; return 1; }
  grep -q "http://localhost:$port" "$log" || grep -q "127.0.0.1:$port" "$log" || { echo "$name: the log does not print the URL"; tail -n 40 "$log"; return 1; }
  echo "$name: healthy on port $port after $SECONDS s"
  kill -- "-${pids[-1]}" 2>/dev/null || true
}

git clone --quiet --no-hardlinks "$repo" "$work/clone"
export NODE_ENV=production

start_and_check npm-start "$work/clone" "$(free_port)" npm start

mkdir -p "$work/runtime/server/db" "$work/runtime/scripts"
cp -r "$work/clone/build" "$work/clone/server.js" "$work/clone/package.json" "$work/clone/package-lock.json" "$work/runtime/"
cp -r "$work/clone/server/db/migrations" "$work/runtime/server/db/"
cp "$work/clone"/scripts/db-*.js "$work/runtime/scripts/"
(cd "$work/runtime" && npm ci --omit=dev --no-audit --no-fund >"$work/runtime-install.log" 2>&1) || { tail -n 40 "$work/runtime-install.log"; exit 1; }
# The build tools stay out (vite and vitest may come along: better-auth names vitest as an optional peer).
for tool in @react-router/dev eslint lighthouse @playwright/test; do
  if [[ -d "$work/runtime/node_modules/$tool" ]]; then echo "runtime install holds the dev dependency $tool"; exit 1; fi
done
# Run from the runtime folder, so that packages resolve from its node_modules only.
cp "$repo/scripts/ci/runtime-imports.mjs" "$work/runtime/"
(cd "$work/runtime" && node runtime-imports.mjs) || exit 1
rm "$work/runtime/runtime-imports.mjs"
# The database scripts run there too: migrate the data folder the server then starts on.
(cd "$work/runtime" && DATA_DIR="$work/runtime-only-data" npm run db:migrate >"$work/runtime-migrate.log" 2>&1) || { tail -n 40 "$work/runtime-migrate.log"; exit 1; }
start_and_check runtime-only "$work/runtime" "$(free_port)" npm run serve
echo "production start: both ways work"
