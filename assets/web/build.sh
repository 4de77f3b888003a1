#!/usr/bin/env bash
# Builds Racksmith for the web into target/web/: index.html, start.js, racksmith.js (wasm-bindgen's loader) and
# racksmith_bg.wasm. Nothing else is needed: serve the folder from any static host (or `python3 -m http.server`
# inside it) and open index.html. It loads nothing from elsewhere and works offline.
#
# Needs the wasm32-unknown-unknown target (`rustup target add wasm32-unknown-unknown`) and wasm-bindgen-cli of the
# same version as the wasm-bindgen crate in Cargo.lock (`cargo install wasm-bindgen-cli --version X`); this script
# says which when one is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

want="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "error: the wasm32-unknown-unknown target is missing: rustup target add wasm32-unknown-unknown" >&2
  exit 2
fi
have="$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)"
if [ "$have" != "$want" ]; then
  echo "error: wasm-bindgen-cli $want is needed (found: ${have:-none}): cargo install wasm-bindgen-cli --version $want" >&2
  exit 2
fi

# No debug info in the web build: it would double the download. Optimised for size, in one codegen unit: 14.7 MB
# of wasm (4.8 MB gzipped) against 16.1 MB (5.6 MB) at opt-level 3; the analysis of the samples is as fast to the eye.
CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_OPT_LEVEL=s CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
  cargo build --release --target wasm32-unknown-unknown --bin racksmith

out=target/web
rm -rf "$out"
mkdir -p "$out"
# Function names and the producers note are for debuggers only: 1.6 MiB less to download.
wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section \
  --out-dir "$out" --out-name racksmith \
  target/wasm32-unknown-unknown/release/racksmith.wasm
cp assets/web/index.html assets/web/start.js "$out/"

raw="$(stat -c %s "$out/racksmith_bg.wasm")"
gz="$(gzip -9 -c "$out/racksmith_bg.wasm" | wc -c)"
echo "target/web: racksmith_bg.wasm $((raw / 1024)) KiB ($((gz / 1024)) KiB gzipped)"
echo "serve it: (cd target/web && python3 -m http.server 8080), then open http://127.0.0.1:8080/"
