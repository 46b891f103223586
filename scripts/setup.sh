#!/usr/bin/env bash
# Installs what a fresh clone needs and this machine lacks: Node 22 when the
# machine's Node is older (into .tools/), the WASM target, worker-build and
# wasm-bindgen-cli (into .tools/), the npm packages, and with --browser,
# Debian's Chromium (its headless shell for the browser tests, the full
# browser for the benchmark's Lighthouse). Safe to run again: it only installs
# what is missing or at the wrong version.
set -euo pipefail
cd "$(dirname "$0")/.."

WORKER_BUILD_VERSION=0.8.7
# Node 22 LTS, from the npm registry (the `node` package ships the binary).
NODE_VERSION=22.23.3
NODE_MINIMUM=22.12.0
TOOLS="$PWD/.tools"
# The Makefile puts .tools/bin first on PATH; so does this script.
export PATH="$TOOLS/bin:$PATH"

say() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }

# Whether `node` on PATH is at least $NODE_MINIMUM.
node_is_current() {
  command -v node >/dev/null 2>&1 || return 1
  node -e '
    const [a, b, c] = process.versions.node.split(".").map(Number);
    const [x, y, z] = process.argv[1].split(".").map(Number);
    process.exit(a > x || (a === x && (b > y || (b === y && c >= z))) ? 0 : 1);
  ' "$NODE_MINIMUM"
}

if ! node_is_current; then
  say "Node $(node --version 2>/dev/null || echo '(none)') is older than $NODE_MINIMUM: installing Node $NODE_VERSION into .tools/"
  mkdir -p "$TOOLS/node" "$TOOLS/bin"
  npm install --prefix "$TOOLS/node" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "node@$NODE_VERSION"
  ln -sf ../node/node_modules/node/bin/node "$TOOLS/bin/node"
  hash -r
  node_is_current || { echo "setup: the Node installed into .tools/ does not run" >&2; exit 1; }
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# cargo install, preferring the crate's own lockfile; some pinned transitive
# versions may be missing from the registry mirror, so fall back to a fresh
# resolution within the crate's semver ranges.
cargo_install() {
  local crate=$1 version=$2
  shift 2
  say "installing $crate $version into .tools/"
  cargo install --quiet --root "$TOOLS" "$crate" --version "$version" --locked "$@" \
    || cargo install --quiet --root "$TOOLS" "$crate" --version "$version" "$@"
}

have_version() { # binary expected-version
  [ -x "$TOOLS/bin/$1" ] && "$TOOLS/bin/$1" --version 2>/dev/null | grep -q "$2"
}

# Only the binaries the build runs: a CI machine compiles these from source.
have_version worker-build "$WORKER_BUILD_VERSION" || cargo_install worker-build "$WORKER_BUILD_VERSION" --bin worker-build

# The CLI must match the wasm-bindgen library in Cargo.lock exactly.
if [ ! -f Cargo.lock ]; then
  cargo generate-lockfile --quiet
fi
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
# Without its default TLS stack (for downloads we never make), it builds in half the time.
have_version wasm-bindgen "$WASM_BINDGEN_VERSION" \
  || cargo_install wasm-bindgen-cli "$WASM_BINDGEN_VERSION" --no-default-features --bin wasm-bindgen

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages"
  # `npm install --no-save` installs what package-lock.json names and never
  # rewrites it. Not `npm ci`: the registry mirror lacks the macOS and Windows
  # builds of workerd (optional dependencies, unused here), so the lock file
  # cannot list them and `npm ci` refuses it as out of sync.
  npm install --no-save --no-audit --no-fund --loglevel=error
  npm ls --depth=0 >/dev/null
fi

if [ "${1:-}" = "--browser" ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromium-headless-shell ]; }; then
  say "installing Debian's Chromium for the browser tests (its headless shell) and the benchmark"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-headless-shell fonts-dejavu-core >/dev/null
fi
