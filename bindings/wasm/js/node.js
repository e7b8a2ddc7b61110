// The package for Node: loads the WebAssembly module synchronously from the
// package's own directory, then is `index.js`.
import { readFileSync } from "node:fs";
import { initSync } from "../pkg/swaproute_wasm.js";

initSync({ module: readFileSync(new URL("../pkg/swaproute_wasm_bg.wasm", import.meta.url)) });

export * from "./index.js";
