#!/usr/bin/env bash
# The whole suite: type check, layer rule, bundle, then every mocha test (unit, store,
# multi-process, CLI). Ends with mocha's summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -p . --noEmit
node scripts/check-layers.mjs
node esbuild.mjs
npx mocha 'test/**/*.test.ts'
