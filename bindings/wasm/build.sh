#!/bin/sh
# Builds the package: the release .wasm (size-optimised profile
# `wasm-release` of the workspace's Cargo.toml), then wasm-bindgen's ES
# module glue into pkg/. Needs the wasm32-unknown-unknown target and the
# wasm-bindgen CLI of the version Cargo.lock pins (.ci/run installs both).
set -eu
cd "$(dirname "$0")"
cargo build --quiet -p swaproute-wasm --target wasm32-unknown-unknown --profile wasm-release
target=$(cargo metadata --format-version 1 --no-deps |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
rm -rf pkg
wasm-bindgen --target web --no-typescript --out-dir pkg \
  "$target/wasm32-unknown-unknown/wasm-release/swaproute_wasm.wasm"
# Binaryen's optimiser (npm `binaryen`, a dev dependency) shrinks it further
# and drops the names section.
node_modules/.bin/wasm-opt -Oz --strip-debug --strip-producers \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  -o pkg/swaproute_wasm_bg.wasm pkg/swaproute_wasm_bg.wasm
wc -c pkg/swaproute_wasm_bg.wasm | awk '{printf "pkg/swaproute_wasm_bg.wasm: %d bytes (%.1f KB)\n", $1, $1/1024}'
