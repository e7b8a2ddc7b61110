// Removes Rust's f64 `Display` (core's Grisu and Dragon formatters, about
// 18 KB of the browser build) from a module wasm-bindgen wrote, before
// wasm-opt runs:
//
//   node tools/trim-float-fmt.mjs <module.wasm>
//
// Nothing in the package formats an f64 with `{}`. The one reference is
// serde's `Unexpected::Float` message (`WithDecimalPoint`), which serde_json
// never shows: its errors write a float themselves (`JsonUnexpected`, with
// zmij, which the package keeps for its own number decoding) and pass only
// the other kinds on to serde. serde's `Display` of `Unexpected` is linked
// for those other kinds, and with it, through its float arm, the whole of
// core's float formatting, which the linker cannot prove unused.
//
// The function's body becomes "return Ok(())", writing nothing, so wasm-opt
// drops what only it calls. Were an f64 ever formatted after all, its digits
// would be missing from that one message: never a trap (a trapping stub
// would abort the call on hostile input; the package must not).
// test/browser-build.test.mjs checks the float messages a caller can cause
// still read as in the full build, among them a decimal out of range (which
// the library writes with zmij, not `Display`). The build fails here if the
// function is not found exactly once, if anything calls it directly (only a
// formatter's table entry may name it), or if it does not return an i32
// `fmt::Result` (0 is `Ok`).
import { readFileSync, writeFileSync } from "node:fs";
import binaryen from "binaryen";

const path = process.argv[2];
if (!path) throw new Error("usage: node tools/trim-float-fmt.mjs <module.wasm>");
// The features build.sh passes to wasm-opt (`--enable-bulk-memory` is both
// bulk-memory flags, reference types bring the long call_indirect), no more:
// with others binaryen may write types Node refuses.
const F = binaryen.Features;
const features =
  F.BulkMemory | F.BulkMemoryOpt | F.NontrappingFPToInt | F.SignExt | F.MutableGlobals |
  F.ReferenceTypes | F.CallIndirectOverlong | F.Multivalue;
const module = binaryen.readBinary(readFileSync(path));
module.setFeatures(features);

const target = /^<f64 as core(\[[0-9a-f]+\])?::fmt::Display>::fmt$/;
const found = [];
for (let i = 0; i < module.getNumFunctions(); i++) {
  const info = binaryen.getFunctionInfo(module.getFunctionByIndex(i));
  if (target.test(info.name)) found.push(info);
}
if (found.length !== 1) {
  throw new Error(`trim-float-fmt: expected one f64 Display::fmt in ${path}, found ${found.length} (a name section is needed)`);
}
const [fmt] = found;
if (fmt.module) throw new Error(`trim-float-fmt: ${fmt.name} is an import`);
const quoted = fmt.name.replace(/[\\"]/g, (c) => `\\${c}`);
const text = module.emitText();
if (text.includes(`call $"${quoted}"`) || text.includes(`call $${quoted}\n`)) {
  throw new Error(`trim-float-fmt: ${fmt.name} is called directly: something formats an f64`);
}
const func = module.getFunction(fmt.name);
if (binaryen.Function.getResults(func) !== binaryen.i32) {
  throw new Error(`trim-float-fmt: ${fmt.name} does not return an i32 fmt::Result`);
}
// `fmt::Result` is `Result<(), fmt::Error>`: 0 is `Ok(())`.
binaryen.Function.setBody(func, module.i32.const(0));
if (!module.validate()) throw new Error("trim-float-fmt: the trimmed module does not validate");
binaryen.setDebugInfo(true); // keep the name section for wasm-opt's own checks; it strips it
writeFileSync(path, module.emitBinary());
module.dispose();
