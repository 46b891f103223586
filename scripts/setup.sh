#!/usr/bin/env bash
# Installs what a fresh clone needs and this machine lacks: the WASM target,
# worker-build and wasm-bindgen-cli (into .tools/), the npm packages, and with
# --browser, Debian's Chromium for the browser tests. Safe to run again: it
# only installs what is missing or at the wrong version.
set -euo pipefail
cd "$(dirname "$0")/.."

WORKER_BUILD_VERSION=0.8.7
TOOLS="$PWD/.tools"

say() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# cargo install, preferring the crate's own lockfile; some pinned transitive
# versions may be missing from the registry mirror, so fall back to a fresh
# resolution within the crate's semver ranges.
cargo_install() {
  local crate=$1 version=$2
  say "installing $crate $version into .tools/"
  cargo install --quiet --root "$TOOLS" "$crate" --version "$version" --locked \
    || cargo install --quiet --root "$TOOLS" "$crate" --version "$version"
}

have_version() { # binary expected-version
  [ -x "$TOOLS/bin/$1" ] && "$TOOLS/bin/$1" --version 2>/dev/null | grep -q "$2"
}

have_version worker-build "$WORKER_BUILD_VERSION" || cargo_install worker-build "$WORKER_BUILD_VERSION"

# The CLI must match the wasm-bindgen library in Cargo.lock exactly.
if [ ! -f Cargo.lock ]; then
  cargo generate-lockfile --quiet
fi
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have_version wasm-bindgen "$WASM_BINDGEN_VERSION" || cargo_install wasm-bindgen-cli "$WASM_BINDGEN_VERSION"

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
fi

if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/chromium ]; then
  say "installing Debian's Chromium for the browser tests"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
