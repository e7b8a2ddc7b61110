#!/bin/sh
# Builds the package twice, each into a self-contained directory (the .wasm,
# wasm-bindgen's ES module glue, and js/'s wrapper and types beside them):
#   pkg/          the whole API: `swaproute` in Node (node.js, loaded
#                 synchronously), `swaproute/full` elsewhere (index.js);
#   pkg-browser/  without default features: ranking one pair's rates,
#                 estimates, amounts; under 300 KB for wallets that download
#                 it (`swaproute` in a browser bundle, `swaproute/browser`).
# package.json's `exports` and `files` name these directories: `npm pack`
# refuses to run before they are built (tools/check-built.mjs).
# Release profile `wasm-release` of the workspace's Cargo.toml (opt-level z,
# LTO), then binaryen's wasm-opt -Oz (npm `binaryen`, a dev dependency; the
# browser build first goes through tools/trim-float-fmt.mjs, binaryen's JS API).
# Needs the wasm32-unknown-unknown target and the wasm-bindgen CLI of the
# version Cargo.lock pins (.ci/run installs both).
set -eu
cd "$(dirname "$0")"
target=$(cargo metadata --format-version 1 --no-deps |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')

build() {
  out="$1"
  wrapper="$2"
  shift 2
  cargo build --quiet -p swaproute-wasm --target wasm32-unknown-unknown --profile wasm-release "$@"
  rm -rf "$out"
  wasm-bindgen --target web --no-typescript --out-dir "$out" \
    "$target/wasm32-unknown-unknown/wasm-release/swaproute_wasm.wasm"
  # The browser build without core's f64 formatting, which nothing in the
  # package runs (tools/trim-float-fmt.mjs says why): about 18 KB.
  if [ "$out" = pkg-browser ]; then node tools/trim-float-fmt.mjs "$out/swaproute_wasm_bg.wasm"; fi
  # --low-memory-unused: the module never reads or writes its low 1 KB
  # (rustc lays the 1 MB stack out first, growing down towards 0, so only a
  # stack overflow would reach it), which lets binaryen fold address
  # offsets: about 2 KB less (the browser build 308,389 -> 306,173 B).
  # The browser build first through --flatten --rereloop and -Oz twice:
  # binaryen rebuilds its control flow, 3.6 KB smaller (308,104 -> 304,506 B
  # with ruling 50's validUntil, which -Oz alone left over the 300 KB
  # budget), with the same times for best and top (test/browser-build.test.mjs
  # checks it answers as the whole build); 35 s more to build.
  passes="-Oz"
  if [ "$out" = pkg-browser ]; then passes="--flatten --rereloop -Oz -Oz"; fi
  # shellcheck disable=SC2086
  node_modules/.bin/wasm-opt $passes --low-memory-unused --strip-debug --strip-producers \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    -o "$out/swaproute_wasm_bg.wasm" "$out/swaproute_wasm_bg.wasm"
  for file in $wrapper; do cp "js/$file" "$out/"; done
  wc -c "$out/swaproute_wasm_bg.wasm" | awk '{printf "%s: %d bytes (%.1f KB)\n", $2, $1, $1/1024}'
}

build pkg "index.js index.d.ts node.js node.d.ts"
build pkg-browser "index.js index.d.ts browser.d.ts" --no-default-features
