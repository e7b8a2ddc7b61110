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

test("its topRoutes (from the full selection) answers as the full build's fixed-k scan", async () => {
  const full = await import("../pkg/node.js");
  // ×30 fee 0.01, ×30 fee 0 (best), ×29 fee 0, a tie of "a" twice by value
  // under other ids (ruling 7 orders ties), one expired, one below its min.
  const rates = [
    rate,
    { ...rate, id: "b", minerFee: { assetId: "ETH", value: 0 } },
    { ...rate, id: "c", amount: { assetId: "ETH", value: 29 }, minerFee: { assetId: "ETH", value: 0 } },
    { ...rate, id: "d" },
    { ...rate, id: "e", expiry: now },
    { ...rate, id: "f", min: { assetId: "BTC", value: 1 } },
  ];
  const request = { fromAmount: "0.5", now, floors: { dust: "14.5" } };
  // 0.5 × 30 = 15 (b), 14.99 (a, d), 0.5 × 29 = 14.5 (c).
  assert.deepEqual(browser.topRoutes(rates, request, 3).routes.map((r) => r.rateId), ["b", "a", "d"]);
  for (const k of [0, 1, 2, 3, 4, 5, 6, 7, 2 ** 32]) {
    // The same routes and the same validUntil (ruling 50).
    assert.deepEqual(browser.topRoutes(rates, request, k), full.topRoutes(rates, request, k), `k = ${k}`);
  }
  // Nothing left (dust above every output): the same "no route" for every k.
  const none = { ...request, floors: { dust: "16" } };
  for (const k of [0, 1, 5]) {
    const error = (f) => { try { f(); } catch (e) { return e.body; } };
    assert.deepEqual(error(() => browser.topRoutes(rates, none, k)), error(() => full.topRoutes(rates, none, k)), `k = ${k}`);
  }
});

test("it has no feasibleAmounts: a TypeError naming the feature", () => {
  assert.throws(() => browser.feasibleAmounts([rate], { now }), (e) => e instanceof TypeError && /"feasible"/.test(e.message));
  const rates = browser.Rates.from([rate]);
  assert.throws(() => rates.feasible({ now }), /Rates#feasible .*"feasible"/);
  rates.free();
  assert.throws(() => browser.planFixedOrder([rate], {}, { now }), /"orders"/);
});

test("its answers carry validUntil as the whole build's (ruling 50)", async () => {
  const full = await import("../pkg/node.js");
  // a until now + 60 s; b (x31) until now + 30 s; c (x32) below its min at 0.5.
  const rates = [
    rate,
    { ...rate, id: "b", amount: { assetId: "ETH", value: 31 }, expiry: now + 30000 },
    { ...rate, id: "c", amount: { assetId: "ETH", value: 32 }, min: { assetId: "BTC", value: 1 }, expiry: now + 10000 },
  ];
  const guard = { maxDeviationBps: 200 };
  for (const request of [
    { fromAmount: "0.5", now },
    { fromAmount: "0.5", now, priceGuard: guard },
    { fromAmount: "0.5", now: now + 30000 },
    { fromAmount: "11", now },
    { fromAmount: "0.5", now: now + 60000 },
  ]) {
    const answer = (f) => { try { return f(); } catch (e) { return { code: e.code, validUntil: e.validUntil }; } };
    for (const call of [
      (m) => m.bestRoute(rates, request),
      (m) => m.topRoutes(rates, request, 2),
      (m) => m.topRoutes(rates, request, 0),
      (m) => m.selectRoutes(rates, request),
    ]) {
      assert.deepEqual(answer(() => call(browser)), answer(() => call(full)), JSON.stringify(request));
    }
  }
  // By hand: b (0.5 × 31 − 0.01 = 15.49) leads until it expires at now + 30 s.
  assert.equal(browser.bestRoute(rates, { fromAmount: "0.5", now }).validUntil, now + 30000);
  // select: c (live, rejected) expires first.
  assert.equal(browser.selectRoutes(rates, { fromAmount: "0.5", now }).validUntil, now + 10000);
});

test("it has no splitRoute: a TypeError naming the feature", () => {
  const request = { fromAmount: "1", now };
  assert.throws(() => browser.splitRoute([rate], request), (e) => e instanceof TypeError && /"split"/.test(e.message));
  const rates = browser.Rates.from([rate]);
  assert.throws(() => rates.split(request), /Rates#split .*"split"/);
  rates.free();
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

test("a float where none belongs reads as in the full build (its f64 formatting is trimmed)", async () => {
  // build.sh trims core's f64 Display from this build (tools/trim-float-fmt.mjs):
  // the floats in these messages are serde_json's own (shortest digits, an
  // exponent outside 1e-5..1e16), which must still be written, not trap.
  const full = await import("../pkg/node.js");
  const cases = [
    [[rate], { fromAmount: "1", now: 1.5 }, "request.now: invalid type: floating point `1.5`, expected u64"],
    [[rate], { fromAmount: 0.25, now }, "request.fromAmount: invalid type: floating point `0.25`, expected a string"],
    [[rate], { fromAmount: "1", now: 1e300 }, "request.now: invalid type: floating point `1e+300`, expected u64"],
    [[rate], '{"fromAmount":"1","now":2.5e-7}', "request: invalid type: floating point `2.5e-7`, expected u64 at line 1 column 30"],
    [[{ ...rate, id: 1.25 }], { fromAmount: "1", now }, "rates[0].id: invalid type: floating point `1.25`, expected a rate id"],
  ];
  // Hostile rates: doubles no decimal holds. Each is its rate's defect
  // (ruling 44), named by its shortest digits (zmij); with core's formatting
  // these trapped.
  const hostile = [
    [{ ...rate, amount: { assetId: "ETH", value: 1e30 } }, "invalid rate: amount.value 1e+30 cannot be held exactly: value is out of range"],
    [{ ...rate, minerFee: { assetId: "ETH", value: -1.5e300 } }, "invalid rate: minerFee.value -1.5e+300 cannot be held exactly: value is out of range"],
  ];
  for (const [bad, detail] of hostile) {
    for (const build of [browser, full]) {
      const rejected = build.selectRoutes([bad], { fromAmount: "1", now }).rejected;
      assert.deepEqual(rejected.map((r) => [r.reason, r.detail]), [["INVALID_RATE", detail]]);
    }
  }
  const details = (build, rates, request) => {
    try {
      build.bestRoute(rates, request);
    } catch (e) {
      assert.ok(e instanceof build.SwaprouteError, String(e));
      return e.details;
    }
    return "no error";
  };
  for (const [rates, request, expected] of cases) {
    assert.equal(details(browser, rates, request), expected);
    assert.equal(details(full, rates, request), expected);
  }
  // And the package still ranks after them.
  assert.equal(browser.bestRoute([rate], { fromAmount: "0.5", now }).netOutput, "14.99");
});
