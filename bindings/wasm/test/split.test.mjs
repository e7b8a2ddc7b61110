// Ruling 39 as a wallet meets it in JavaScript: an amount above every max
// served by two or three orders. Every expected value is worked out by hand
// in the comments.
import { test } from "node:test";
import assert from "node:assert/strict";

import { Rates, SwaprouteError, splitRoute } from "../pkg/node.js";

const NOW = 1700000000000;

function rate(id, m, fee, min, max) {
  return {
    amount: { assetId: "ETH", value: m },
    expiry: NOW + 60000,
    id,
    max: { assetId: "BTC", value: max },
    min: { assetId: "BTC", value: min },
    minerFee: { assetId: "ETH", value: fee },
    pairId: "BTC_ETH",
  };
}

// a: x30, fee 0.01, max 6; b: x29, fee 0.02, max 5.
const RATES = [rate("a", 30, 0.01, 0.1, 6), rate("b", 29, 0.02, 0.1, 5)];

test("10 BTC, above every max: a takes its max, b the rest", () => {
  const answer = splitRoute(RATES, { fromAmount: "10", now: NOW });
  assert.equal(answer.route, null);
  // 6 x 30 - 0.01 = 179.99; 4 x 29 - 0.02 = 115.98; total 295.97.
  assert.deepEqual(answer.split, {
    legs: [
      { rateId: "a", fromAmount: "6.00000000", netOutput: "179.99", stop: "max" },
      { rateId: "b", fromAmount: "4.00000000", netOutput: "115.98", stop: "remainder" },
    ],
    netOutput: "295.97",
    gainBps: null,
    // Ruling 50: both legs' rates expire at NOW + 60000.
    validUntil: NOW + 60000,
  });
  assert.equal(answer.validUntil, NOW + 60000);
});

test("a single route when one serves and no gain is asked", () => {
  const rates = Rates.from(RATES);
  try {
    const answer = rates.split({ fromAmount: "5", now: NOW });
    assert.equal(answer.split, null);
    assert.equal(answer.route.rateId, "a");
    assert.equal(answer.route.netOutput, "149.99"); // 5 x 30 - 0.01
  } finally {
    rates.free();
  }
});

test("a gain asked for, and the policy checked", () => {
  // a: x30 max 6; b: x20 max 10; 8 BTC. Single: b 160. Split: 180 + 40 = 220,
  // (220 - 160) / 160 = 3750 bps.
  const rates = [rate("a", 30, 0, 0.1, 6), rate("b", 20, 0, 0.1, 10)];
  const split = splitRoute(rates, { fromAmount: "8", now: NOW }, { minGainBps: 3750 }).split;
  assert.equal(split.netOutput, "220");
  assert.equal(split.gainBps, "3750");
  assert.equal(splitRoute(rates, { fromAmount: "8", now: NOW }, { minGainBps: 3751 }).route.rateId, "b");
  const error = (() => {
    try {
      splitRoute(rates, { fromAmount: "8", now: NOW }, { legs: 4 });
    } catch (e) {
      return e;
    }
  })();
  assert.ok(error instanceof SwaprouteError);
  assert.equal(error.code, "INVALID_REQUEST");
});

test("no split and no route: the single pair's error with its limit", () => {
  const error = (() => {
    try {
      splitRoute(RATES, { fromAmount: "100", now: NOW });
    } catch (e) {
      return e;
    }
  })();
  assert.ok(error instanceof SwaprouteError);
  assert.equal(error.code, "AMOUNT_ABOVE_LIMIT");
  assert.equal(error.max, "6");
});

test("legs on the from asset's grid (ruling 48), and an amount off it refused", () => {
  // a: x30 max 5.87654322; b: x29 max 6; 10 BTC. On the 8-place grid a
  // takes 5.87654322 and b 4.12345678; with 0 decimals a's max on the grid
  // is 5: 5 x 30 + 5 x 29 = 295.
  const rates = [rate("a", 30, 0, 0.1, 5.87654322), rate("b", 29, 0, 0.1, 6)];
  const whole = splitRoute(rates, { fromAmount: "10", now: NOW }, { decimals: { from: 0, to: 8 } });
  assert.deepEqual(
    whole.split.legs.map((l) => [l.rateId, l.fromAmount]),
    [
      ["a", "5.00000000"],
      ["b", "5.00000000"],
    ],
  );
  assert.equal(whole.split.netOutput, "295");
  const error = (() => {
    try {
      splitRoute(rates, { fromAmount: "10.5", now: NOW }, { decimals: { from: 0, to: 8 } });
    } catch (e) {
      return e;
    }
  })();
  assert.ok(error instanceof SwaprouteError);
  assert.equal(error.code, "INVALID_AMOUNT");
});

test("the price guard applies to every leg, as in best", () => {
  // honest x33 max 1 (twice), liar x330 max 100; 5 BTC, guard 100 bps
  // around 33: the liar is refused, and the honest rates hold only 2: no
  // split, the single pair's error.
  const rates = [rate("h1", 33, 0, 0.1, 1), rate("h2", 33, 0, 0.1, 1), rate("liar", 330, 0, 0.1, 100)];
  const request = { fromAmount: "5", now: NOW, priceGuard: { maxDeviationBps: 100, reference: "33" } };
  const error = (() => {
    try {
      splitRoute(rates, request);
    } catch (e) {
      return e;
    }
  })();
  assert.ok(error instanceof SwaprouteError);
  assert.notEqual(error.code, "SEARCH_EXHAUSTED");
  // 1.5 BTC: h1 takes its max 1, h2 the rest 0.5: 33 + 16.5 = 49.5.
  const split = splitRoute(rates, { ...request, fromAmount: "1.5" }).split;
  assert.deepEqual(
    split.legs.map((l) => [l.rateId, l.fromAmount]),
    [
      ["h1", "1.00000000"],
      ["h2", "0.50000000"],
    ],
  );
  assert.equal(split.netOutput, "49.5");
});
