// The JavaScript boundary (issue 28, items 6 and 2): every failure is a
// SwaprouteError naming the caller's field; a value present but invalid is
// refused, never taken as its default; `now` takes a Date; reconcileStatus
// takes its own answer; k is never wrapped to 32 bits. Imported by the
// package's own name (self-reference through `exports`).
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  Rates,
  SwaprouteError,
  bestChain,
  bestRoute,
  clientHeaders,
  estimateExactOut,
  reconcileStatus,
  screenAddress,
  selectChains,
  selectRoutes,
  topRoutes,
  validateFixedOrder,
} from "swaproute";

const NOW = 1700000000000;

function rate(id, pair, multiplier, fee, max) {
  const [from, to] = pair.split("_");
  return {
    amount: { assetId: to, value: multiplier },
    expiry: NOW + 60000,
    id,
    max: { assetId: from, value: max },
    min: { assetId: from, value: 0.001 },
    minerFee: { assetId: to, value: fee },
    pairId: pair,
    features: ["exactOut"],
  };
}

// At 0.5 BTC: "b" 0.5 × 30.5 − 0.2 = 15.05, "a" 0.5 × 30 − 0.01 = 14.99; "c"
// takes at most 0.25 BTC. Then ETH_SOL: 15.05 × 50 − 0.1 = 752.4.
const btcEth = [rate("a", "BTC_ETH", 30, 0.01, 10), rate("b", "BTC_ETH", 30.5, 0.2, 10), rate("c", "BTC_ETH", 40, 0, 0.25)];
const ethSol = [rate("s", "ETH_SOL", 50, 0.1, 1000)];
const chain = { from: "BTC", to: "SOL", fromAmount: "0.5", now: NOW };
const route = { fromAmount: "0.5", now: NOW };

/** The SwaprouteError `f` throws (any other throw, or none, fails). */
function thrown(f) {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof SwaprouteError, `threw ${error?.name}: ${error?.message}`);
    return error;
  }
  assert.fail("did not throw");
}

/** `[status, code, field]` and that `details` starts with `field` as the caller wrote it. */
function refused(f, path) {
  const error = thrown(f);
  assert.ok(error.details.startsWith(`${path}: `), `details ${JSON.stringify(error.details)} name ${path}`);
  assert.doesNotMatch(error.details, /line \d+ column \d+/);
  assert.equal(error.line, undefined);
  return [error.status, error.code, error.field];
}

test("a BigInt, Symbol or function anywhere is a SwaprouteError naming where", () => {
  const bad = [
    [(v) => bestRoute(btcEth, { ...route, now: v }), "request.now", "now"],
    [(v) => bestRoute(btcEth, { ...route, campaigns: { spring: v } }), "request.campaigns.spring", "campaigns.spring"],
    [(v) => selectRoutes([btcEth[0], { ...btcEth[1], expiry: v }], route), "rates[1].expiry", "rates[1].expiry"],
    [(v) => bestChain([btcEth, ethSol], { ...chain, maxLegs: v }), "request.maxLegs", "maxLegs"],
    [(v) => selectChains([btcEth, [{ ...ethSol[0], id: v }]], chain), "responses[1][0].id", "responses[1][0].id"],
    [(v) => validateFixedOrder({ fromAmount: v }), "body.fromAmount", "fromAmount"],
    [(v) => screenAddress("abc", { network: v }), "options.network", "network"],
    [(v) => reconcileStatus({ status: "awaiting" }, [{ status: v }]), "observations[0].status", "observations[0].status"],
    [(v) => clientHeaders({ "App-Name": v }), 'headers["App-Name"]', "headers"],
  ];
  for (const [call, path, field] of bad) {
    for (const value of [1n, Symbol("x"), () => 1]) {
      assert.deepEqual(refused(() => call(value), path), [400, "INVALID_REQUEST", field], `${path} = ${String(value)}`);
    }
  }
  // Cycles, Maps and undefined in an array: JSON.stringify throws a TypeError,
  // writes {} or writes null for them.
  const cyclic = { ...route };
  cyclic.campaigns = { again: cyclic };
  assert.deepEqual(refused(() => bestRoute(btcEth, cyclic), "request.campaigns.again"), [400, "INVALID_REQUEST", "campaigns.again"]);
  refused(() => bestRoute(btcEth, { ...route, campaigns: new Map([["spring", "1"]]) }), "request.campaigns");
  refused(() => selectRoutes([btcEth[0], undefined], route), "rates[1]");
  refused(() => topRoutes(btcEth, route, 1n), "k");
  refused(() => topRoutes(btcEth, route, Symbol("k")), "k");
});

test("present but invalid is refused, never the default: maxLegs NaN, Infinity, null", () => {
  // Absent, maxLegs is 2: BTC → ETH → SOL is found.
  assert.equal(bestChain([btcEth, ethSol], chain).finalOutput, "752.4");
  for (const maxLegs of [NaN, Infinity, -Infinity, null, 2.5, "2"]) {
    assert.deepEqual(
      refused(() => bestChain([btcEth, ethSol], { ...chain, maxLegs }), "request.maxLegs"),
      [400, "INVALID_REQUEST", "maxLegs"],
      String(maxLegs),
    );
  }
  for (const [key, value] of [
    ["mode", null],
    ["toAmount", null],
    ["limitPolicy", null],
    ["now", NaN],
  ]) {
    refused(() => bestRoute(btcEth, { ...route, [key]: value }), `request.${key}`);
  }
  refused(() => screenAddress("abc", { network: null }), "options.network");
});

test("errors name the caller's field, not a line and column of JSON the caller never wrote", () => {
  const error = thrown(() => bestRoute(btcEth, { ...route, now: "2023-11-14" }));
  assert.equal(error.details, 'request.now: invalid type: string "2023-11-14", expected u64');
  assert.equal(error.field, "now");
  assert.equal(refused(() => estimateExactOut(btcEth, { toAmount: "16", now: -1 }), "request.now")[2], "now");
  assert.equal(refused(() => bestRoute(btcEth, { ...route, fromAmount: 0.5 }), "request.fromAmount")[2], "fromAmount");
  assert.equal(refused(() => bestRoute(btcEth, { ...route, fromAmout: "1" }), "request.fromAmout")[2], "fromAmout");
  // A non-ASCII key before the field: positions are bytes on the Rust side.
  refused(() => bestRoute(btcEth, { campaigns: { "ünï😀": "1" }, fromAmount: "0.5", now: "x" }), "request.now");
  refused(() => reconcileStatus({ status: "awaiting" }, [{ status: "failed" }, { status: "failed", confirmations: "1" }]), "observations[1].confirmations");
  // Text the caller passed keeps its position: it is theirs.
  // The number 1 is byte 8 of line 1.
  const text = thrown(() => Rates.from('[{"id":1}]'));
  assert.deepEqual([text.line, text.column], [1, 8]);
  assert.match(text.details, /^rates: .* at line 1 column 8$/);
  // The same as an object: its path.
  assert.equal(refused(() => Rates.from([{ id: 1 }]), "rates[0].id")[2], "rates[0].id");
});

test("now takes a number or a Date", () => {
  const date = new Date(NOW);
  assert.deepEqual(bestRoute(btcEth, { ...route, now: date }), bestRoute(btcEth, route));
  assert.deepEqual(estimateExactOut(btcEth, { toAmount: "16", now: date }), { fromAmount: "0.53114755", rateId: "b" });
  assert.equal(bestChain([btcEth, ethSol], { ...chain, now: date }).finalOutput, "752.4");
  // A minute later every rate has expired (expiry is NOW + 60000, exclusive).
  assert.equal(thrown(() => bestRoute(btcEth, { ...route, now: new Date(NOW + 60000) })).code, "RATE_EXPIRED");
  assert.deepEqual(refused(() => bestRoute(btcEth, { ...route, now: new Date("not a date") }), "request.now"), [400, "INVALID_REQUEST", "now"]);
});

test("clientHeaders: undefined, null and [undefined] are no App-Name (ruling 14: 401), not the name \"undefined\"", () => {
  for (const value of [undefined, null, [undefined], [null], []]) {
    const error = thrown(() => clientHeaders({ "App-Name": value }));
    assert.deepEqual([error.status, error.code], [401, "UNAUTHORIZED"], String(value));
  }
  // Skipped items leave the others.
  assert.equal(clientHeaders({ "App-Name": [undefined, "wallet"], "App-Version": undefined }).appName, "wallet");
  assert.equal(clientHeaders({ "App-Name": "wallet", "App-Version": null }).appVersion, null);
  refused(() => clientHeaders({ "App-Name": 5 }), 'headers["App-Name"]');
  refused(() => clientHeaders([["App-Name", undefined]]), "headers[0]");
  refused(() => clientHeaders({ "App-Name": "w" }, 1n), "integration");
  refused(() => clientHeaders(42), "headers");
});

test("reconcileStatus takes its own answer back", () => {
  // Rule 3: failed after the deposit was detected is definitive.
  const failed = reconcileStatus({ status: "awaiting" }, [{ status: "failed", depositDetected: true }]);
  assert.deepEqual(failed, { status: "failed", definitive: true });
  // Rule 4: nothing open reopens it; rule 3: refunded (definitive) does.
  assert.deepEqual(reconcileStatus(failed, [{ status: "awaiting" }]), failed);
  assert.deepEqual(reconcileStatus(failed, [{ status: "refunded" }]), { status: "refunded", definitive: true });
  // Not definitive: failed before detection; a confirmed deposit then moves it (rule 6).
  const open = reconcileStatus({ status: "awaiting" }, [{ status: "failed" }]);
  assert.deepEqual(open, { status: "failed", definitive: false });
  assert.deepEqual(reconcileStatus(open, [{ status: "expired", confirmations: 1 }]), { status: "inProgress", definitive: false });
  // A flag the status cannot have is refused, naming it.
  assert.deepEqual(refused(() => reconcileStatus({ status: "awaiting", definitive: true }, []), "current.definitive"), [
    400,
    "INVALID_REQUEST",
    "current.definitive",
  ]);
  refused(() => reconcileStatus({ status: "refunded", definitive: false }, []), "current.definitive");
  refused(() => reconcileStatus({ status: "failed", depositDetected: false, definitive: true }, []), "current.definitive");
});

test("k: any whole number ≥ 0; above the candidates returns them all, never wrapped to 32 bits", () => {
  const all = ["b", "a"]; // "c" is over its max at 0.5 BTC.
  for (const k of [2, 3, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 53, Number.MAX_VALUE]) {
    assert.deepEqual(topRoutes(btcEth, route, k).routes.map((r) => r.rateId), all, `k = ${k}`);
    assert.equal(selectChains([btcEth, ethSol], chain, k).chains.length, 2, `chains, k = ${k}`);
  }
  assert.deepEqual(topRoutes(btcEth, route, 1).routes.map((r) => r.rateId), ["b"]);
  assert.equal(selectChains([btcEth, ethSol], chain, 2 ** 32 + 1).chains[0].finalOutput, "752.4");
  for (const k of [-1, 1.5, NaN, Infinity, -Infinity, null, "2", [2]]) {
    const error = thrown(() => topRoutes(btcEth, route, k));
    assert.deepEqual([error.status, error.code, error.field], [400, "INVALID_REQUEST", "k"], String(k));
    assert.match(error.details, /^k: expected a whole number of at least 0, got /);
    assert.equal(thrown(() => selectChains([btcEth, ethSol], chain, k)).field, "k");
  }
  // The message says what came: "2" is a string, not the number 2.
  assert.equal(thrown(() => Rates.from(btcEth).top(route, "2")).details, 'k: expected a whole number of at least 0, got the string "2"');
});

test("a flat request object (strings, numbers, booleans, null, undefined) reads as its JSON text", () => {
  // The wrapper writes such an object's text itself, without JSON.stringify's
  // replacer: the same answers and the same errors as the text.
  const rates = Rates.from(btcEth);
  const answer = (request) => {
    try {
      return rates.best(request);
    } catch (error) {
      assert.ok(error instanceof SwaprouteError, String(error));
      // An object's error names the field, the text's a line and column.
      const details = error.details.replace(/^request(\.\S+|\[".*?"\])?: /, "").replace(/ at line \d+ column \d+$/, "");
      return { ...error.body, details };
    }
  };
  const requests = [
    route,
    { now: NOW, fromAmount: "0.5" },
    { fromAmount: "0.5", now: NOW, campaigns: undefined },
    { fromAmount: "0.5", now: NOW, mode: "ExactIn" },
    { fromAmount: "0.5", now: NOW, mode: null },
    { fromAmount: "0.5", now: NOW, extra: true },
    { fromAmount: "0.5", now: -0 },
    { fromAmount: "0.5\u00e9\"\\\n", now: NOW },
    { "fr\u00f6mAmount": "0.5", now: NOW },
    { fromAmount: "0.5\ud800", now: NOW },
    { "\u0001": 1, fromAmount: "0.5", now: NOW },
    {},
  ];
  for (const request of requests) {
    assert.deepEqual(answer(request), answer(JSON.stringify(request)), JSON.stringify(request));
  }
  assert.equal(answer(route).netOutput, "15.05");
  // An inherited enumerable key is not the object's (JSON.stringify's rule).
  Object.defineProperty(Object.prototype, "polluted", { value: "x", enumerable: true, configurable: true });
  try {
    assert.equal(answer({ ...route }).rateId, "b");
  } finally {
    delete Object.prototype.polluted;
  }
  // A getter is read once, as JSON.stringify reads it.
  let reads = 0;
  const counted = { now: NOW };
  Object.defineProperty(counted, "fromAmount", { enumerable: true, get: () => (reads++, "0.5") });
  assert.equal(answer(counted).rateId, "b");
  assert.equal(reads, 1);
  // A field the wrapper would refuse still is, by name.
  assert.equal(refused(() => rates.best({ fromAmount: "0.5", now: NaN }), "request.now")[2], "now");
  rates.free();
});
