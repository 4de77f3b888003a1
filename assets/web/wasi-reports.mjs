// Runs a WASI program (assets/web/wasi built for wasm32-wasip1) under Node's WASI and lets it print to
// standard output: `node assets/web/wasi-reports.mjs target/wasi/wasm32-wasip1/release/racksmith-wasi-reports.wasm`.
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";
import process from "node:process";

const path = process.argv[2];
const wasi = new WASI({ version: "preview1", args: [path], env: {} });
const module = await WebAssembly.compile(await readFile(path));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
