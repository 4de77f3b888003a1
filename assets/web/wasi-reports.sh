#!/usr/bin/env bash
# The same figures in WebAssembly as on the desktop: builds examples/wasi_reports.rs for wasm32-wasip1 (the core
# only, no GUI), runs it under Node's WASI and writes the report JSON of every sample to target/wasi-reports.json.
# tests/web.rs compares that file with the native reports. Needs `rustup target add wasm32-wasip1` and Node 20+.
set -euo pipefail
cd "$(dirname "$0")/../.."
CARGO_PROFILE_RELEASE_DEBUG=false cargo build --release --target wasm32-wasip1 --no-default-features \
  --example wasi_reports
mkdir -p target
node --no-warnings assets/web/wasi-reports.mjs target/wasm32-wasip1/release/examples/wasi_reports.wasm \
  > target/wasi-reports.json.tmp
mv target/wasi-reports.json.tmp target/wasi-reports.json
echo "target/wasi-reports.json: $(stat -c %s target/wasi-reports.json) bytes"
