// Ranking speed through the WebAssembly package in Node, against the native
// crate on the same machine and the same data.
//
//   node bench/rank.mjs            # the package only
//   node bench/rank.mjs --native   # also runs `cargo bench --bench wasm_parity`
//                                  # and prints the ratios
//   node bench/rank.mjs --quick    # one short batch each (CI smoke)
//
// The rates are the JSON text benches/wasm_parity.rs writes (same generator,
// same seed); the native bench prints its best route per size and this
// script checks it got the same one.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

import { Rates, bestRoute } from "../pkg/node.js";

const SIZES = [256, 4096];
const NOW = 1785000000000;
const request = { fromAmount: "1", now: NOW };
const quick = process.argv.includes("--quick");

/** SplitMix64 over BigInt, as benches/common/mod.rs. */
function splitMix(seed) {
  let state = BigInt.asUintN(64, seed);
  return (n) => {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    z ^= z >> 31n;
    return Number(z % BigInt(n));
  };
}

/** benches/wasm_parity.rs `rates_json`, character for character. */
export function ratesJson(n) {
  const below = splitMix(0x5eedn + BigInt(n));
  const rates = [];
  for (let i = 0; i < n; i++) {
    const multiplier = String(below(1000000000)).padStart(9, "0");
    const fee = String(below(100000)).padStart(5, "0");
    const [min, max] = below(10) < 7 ? ["0.001", "10"] : ["2", "20"];
    rates.push(
      `{"amount":{"assetId":"ETH","value":30.${multiplier}},"expiry":4102444800000,"id":"rate-${String(i).padStart(6, "0")}",` +
        `"max":{"assetId":"BTC","value":${max}},"min":{"assetId":"BTC","value":${min}},` +
        `"minerFee":{"assetId":"ETH","value":0.000${fee}},"pairId":"BTC_ETH","features":["exactOut"]}`,
    );
  }
  return `[${rates.join(",")}]`;
}

/** Median nanoseconds per call of `f` over batches of about 50 ms. */
function measure(f) {
  for (let i = 0; i < 20; i++) f(); // warm-up
  let per = 1;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < per; i++) f();
    if (Number(process.hrtime.bigint() - start) > 5e7 || quick) break;
    per *= 2;
  }
  const samples = [];
  for (let b = 0; b < (quick ? 1 : 15); b++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < per; i++) f();
    samples.push(Number(process.hrtime.bigint() - start) / per);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const js = {};
const answers = {};
for (const n of SIZES) {
  const text = ratesJson(n);
  const rates = Rates.from(text);
  const best = rates.best(request);
  answers[n] = `best=${best.rateId} net=${best.netOutput}`;
  js[`best/${n}`] = measure(() => rates.best(request));
  js[`decode_best/${n}`] = measure(() => bestRoute(text, request));
  const objects = JSON.parse(text);
  js[`objects_best/${n}`] = measure(() => bestRoute(objects, request));
  rates.free();
}

const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`);

let native = {};
if (process.argv.includes("--native")) {
  const root = fileURLToPath(new URL("../../..", import.meta.url));
  const run = spawnSync(
    "cargo",
    ["bench", "--bench", "wasm_parity", "--", "--warm-up-time", "1", "--measurement-time", "3", "--noplot"],
    { cwd: root, encoding: "utf8", maxBuffer: 1 << 26 },
  );
  if (run.status !== 0) throw new Error(`cargo bench failed:\n${run.stderr}`);
  for (const n of SIZES) {
    const line = run.stderr.split("\n").find((l) => l.startsWith(`wasm_parity data n=${n} `));
    const theirs = line?.slice(`wasm_parity data n=${n} `.length);
    if (theirs !== answers[n]) throw new Error(`not the same data at ${n}: native ${theirs}, package ${answers[n]}`);
  }
  const unit = { ns: 1, "µs": 1e3, us: 1e3, ms: 1e6, s: 1e9 };
  const re = /^wasm_parity\/(\S+)\s*\n?\s*time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]/gm;
  for (const m of run.stdout.matchAll(re)) native[m[1]] = Number(m[2]) * unit[m[3]];
}

console.log(`| call | rates | package (Node ${process.versions.node}) | native | package / native |`);
console.log("|---|---:|---:|---:|---:|");
for (const [name, ns] of Object.entries(js)) {
  const [call, n] = name.split("/");
  const theirs = native[`${call}/${n}`];
  const ratio = theirs ? `${(ns / theirs).toFixed(2)}×` : "";
  console.log(`| ${call} | ${n} | ${fmt(ns)} | ${theirs ? fmt(theirs) : ""} | ${ratio} |`);
}
for (const n of SIZES) console.log(`n=${n}: ${answers[n]}`);
