// Loads the wasm module made by wasm-bindgen (racksmith.js + racksmith_bg.wasm, beside this file); its start
// function opens the app on the page's canvas.
import init from "./racksmith.js";

init().catch((e) => {
  const loading = document.getElementById("loading");
  if (loading) {
    loading.textContent = "Racksmith could not start: " + e;
  }
  console.error("Racksmith could not start:", e);
});
