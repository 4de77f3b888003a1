#!/usr/bin/env bash
# The same figures in WebAssembly as on the desktop: builds assets/web/wasi (the core only, no GUI) for
# wasm32-wasip1, runs it under Node's WASI and writes the report JSON of every sample to target/wasi-reports.json.
# tests/web.rs compares that file with the reports it computes natively. Needs `rustup target add wasm32-wasip1`
# and Node 18 or newer.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
# The package's versions are the main package's: it starts from the same Cargo.lock (cargo drops what it does not use).
cp Cargo.lock assets/web/wasi/Cargo.lock
trap 'rm -f "$root/assets/web/wasi/Cargo.lock"' EXIT
CARGO_TARGET_DIR="$root/target/wasi" cargo build --release --target wasm32-wasip1 \
  --manifest-path assets/web/wasi/Cargo.toml
node --no-warnings assets/web/wasi-reports.mjs \
  target/wasi/wasm32-wasip1/release/racksmith-wasi-reports.wasm > target/wasi-reports.json.tmp
mv target/wasi-reports.json.tmp target/wasi-reports.json
echo "target/wasi-reports.json: $(stat -c %s target/wasi-reports.json) bytes"
