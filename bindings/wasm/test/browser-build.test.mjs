// The browser build (pkg-browser/, built without default features): small
// enough to download, the same answers for what it has, and a clear error
// for what it has not.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";

import * as browser from "../pkg-browser/index.js";

const wasm = new URL("../pkg-browser/swaproute_wasm_bg.wasm", import.meta.url);
browser.initSync({ module: readFileSync(wasm) });

const rate = {
  amount: { assetId: "ETH", value: 30 },
  expiry: 1700000060000,
  id: "a",
  max: { assetId: "BTC", value: 10 },
  min: { assetId: "BTC", value: 0.001 },
  minerFee: { assetId: "ETH", value: 0.01 },
  pairId: "BTC_ETH",
  features: ["exactOut"],
};
const now = 1700000000000;

test("the browser build is under 300 KB", () => {
  const size = statSync(wasm).size;
  assert.ok(size < 300 * 1024, `pkg-browser/swaproute_wasm_bg.wasm is ${size} bytes`);
});

test("it ranks, estimates and parses amounts like the full build", () => {
  // 0.5 × 30 − 0.01 = 14.99; ExactOut: (15 + 0.01) / 30 = 0.50033333… → 0.50033334.
  assert.equal(browser.bestRoute([rate], { fromAmount: "0.5", now }).netOutput, "14.99");
  assert.deepEqual(browser.estimateExactOut([rate], { toAmount: "15", now }), {
    fromAmount: "0.50033334",
    rateId: "a",
  });
  assert.equal(browser.parseAmount("007.50"), "7.5");
  assert.throws(() => browser.bestRoute([rate], { fromAmount: "11", now }), browser.SwaprouteError);
});

test("what it leaves out throws a TypeError naming the feature", () => {
  assert.throws(
    () => browser.selectChains([[rate]], { from: "BTC", to: "ETH", fromAmount: "1", now }),
    (e) => e instanceof TypeError && /selectChains .*"chains"/.test(e.message),
  );
  assert.throws(() => browser.validateFixedOrder({}), /"orders"/);
  assert.throws(() => browser.parseForwarded("for=1.2.3.4"), /"client"/);
  assert.throws(() => browser.screenAddress("x"), /"screening"/);
  assert.throws(() => browser.parseChainId("eip155:1"), /"caip"/);
});
