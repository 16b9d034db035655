#!/usr/bin/env bash
# The whole suite: type check, lint (ESLint with the dependency rule, Prettier), bundle, then every mocha test in plain Node (unit,
# store, multi-process, CLI), then the suites of test/vscode/ inside a real VS Code extension
# host (scripts/vscode-test/: code-server + headless Chromium, installed once per machine), then
# the packaged extension as a person gets it (scripts/vscode-test/vsix.mjs: `npm run package`,
# code-server --install-extension, Playwright in the workbench).
# Ends with one line "N passed, N failed" over all three; exits non-zero if anything failed.
# Where the VS Code parts cannot be installed they say "VS Code tests NOT RUN: <reason>" and
# "Packaged-extension test NOT RUN: <reason>": a failure when CI=true (CI machines can run
# them), a notice elsewhere. The same holds for the PostgreSQL suites (a scratch database on
# 127.0.0.1:5432, started here if it is down).
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -p . --noEmit
npm run --silent lint
node esbuild.mjs
bash scripts/ensure-postgres.sh

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
strip() { sed -E 's/\x1b\[[0-9;]*m//g' "$1"; }
# count FILE WORD: from mocha's summary, "  12 passing (3s)" then "  1 pending", "  2 failing"
# (the failures' details follow; only the lines right after "passing" count).
count() {
  strip "$1" | awk -v w="$2" '
    /^ +[0-9]+ passing \(/ { s = 1 }
    s && $0 ~ "^ +[0-9]+ " w "( \\(|$)" { print $1; exit }
    s && !/^ +[0-9]+ (passing|pending|failing)/ { s = 0 }'
}

failed_steps=0
color=$([ -t 1 ] && echo --color || echo --no-color)
# test/vscode/*.test.ts need the 'vscode' module: they run in the extension host below (test/vscode/unit/ runs here).
npx mocha "$color" 'test/**/*.test.ts' --ignore 'test/vscode/*.test.ts' 2>&1 | tee "$out/mocha" || failed_steps=1
mocha_passed=$(count "$out/mocha" passing)
mocha_failed=$(count "$out/mocha" failing)
mocha_passed=${mocha_passed:-0}
mocha_failed=${mocha_failed:-0}
if [ "$failed_steps" = 1 ] && [ "$mocha_failed" = 0 ]; then mocha_failed=1; fi # mocha died before its summary

# run_part NAME SCRIPT LABEL: runs a driver script that ends with "N passed, N failed" and sets
# part_passed / part_failed / part_summary. Each part is judged by its own exit code.
run_part() {
  local name=$1 script=$2 label=$3 died=0 last
  node "$script" 2>&1 | tee "$out/$name" || died=1
  last=$(tail -n 1 "$out/$name")
  if [[ "$last" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    part_passed=${BASH_REMATCH[1]}
    part_failed=${BASH_REMATCH[2]}
  else
    part_passed=0
    part_failed=1 # the script died before its summary
  fi
  if [ "$died" = 1 ] && [ "$part_failed" = 0 ]; then part_failed=1; fi
  [ "$died" = 0 ] || failed_steps=1
  part_summary="$label: $part_passed passed, $part_failed failed"
}

# not_run LABEL WHAT: a part that cannot run here says so; under CI=true that is a failure.
not_run() {
  echo "$2 NOT RUN: $reason"
  part_passed=0
  part_failed=0
  part_summary="$1: NOT RUN"
  if [ "${CI:-}" = true ]; then
    part_failed=1
    echo "CI=true: a CI machine must be able to run it; counted as a failure"
  fi
}

installed=0
reason=""
echo
echo "VS Code extension-host tests (scripts/vscode-test/)"
if bash scripts/vscode-test/install.sh 2>&1 | tee "$out/install"; then
  installed=1
  run_part vscode scripts/vscode-test/run.mjs "VS Code"
else
  reason=$(sed -n 's/^vscode-test install: //p' "$out/install" | tail -n 1)
  reason=${reason:-the install failed (output above)}
  not_run "VS Code" "VS Code tests"
fi
vscode_passed=$part_passed vscode_failed=$part_failed vscode_summary=$part_summary

echo
echo "Packaged extension (scripts/vscode-test/vsix.mjs)"
if [ "$installed" = 1 ]; then
  run_part vsix scripts/vscode-test/vsix.mjs "packaged"
  # `npm run package` left a production build in dist/; put back the development build (source maps).
  node esbuild.mjs
else
  not_run "packaged" "Packaged-extension test"
fi
vsix_passed=$part_passed vsix_failed=$part_failed vsix_summary=$part_summary

pg_summary="PostgreSQL: run"
if grep -q "PostgreSQL tests NOT RUN" "$out/mocha"; then
  pg_summary="PostgreSQL: NOT RUN ($(grep -m1 -o 'PostgreSQL tests NOT RUN: .*' "$out/mocha" | sed 's/^PostgreSQL tests NOT RUN: //'))"
fi

echo
echo "mocha: $mocha_passed passing, $mocha_failed failing · $pg_summary · $vscode_summary · $vsix_summary"
passed=$((mocha_passed + vscode_passed + vsix_passed))
failed=$((mocha_failed + vscode_failed + vsix_failed))
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$failed_steps" = 0 ]
