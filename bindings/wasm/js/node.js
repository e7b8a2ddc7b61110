// The package for Node: loads the WebAssembly module synchronously from its
// own directory, then is `index.js`. (build.sh copies it beside the build.)
import { readFileSync } from "node:fs";
import { initSync } from "./swaproute_wasm.js";

initSync({ module: readFileSync(new URL("./swaproute_wasm_bg.wasm", import.meta.url)) });

export * from "./index.js";
