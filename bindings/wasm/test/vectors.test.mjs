// Every golden vector of vectors/*.json (format: vectors/README.md) run
// through the package as a JavaScript wallet or server would call it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

import * as swaproute from "../pkg/node.js";
import { canonIp, sameDecimal } from "./compare.mjs";

const dir = new URL("../../../vectors/", import.meta.url);
const files = readdirSync(dir)
  .filter((name) => name.endsWith(".json"))
  .sort()
  .map((name) => ({ name, ...JSON.parse(readFileSync(new URL(name, dir), "utf8")) }));

/** Calls `f`; its value as `{ok}`, or the thrown SwaprouteError as `{error}`. */
function attempt(f) {
  try {
    return { ok: f() };
  } catch (error) {
    if (!(error instanceof swaproute.SwaprouteError)) throw error;
    return { error };
  }
}

/** The error keys an expectation gives, compared as its conventions say. */
function checkError(want, got) {
  assert.ok(got, `expected the error ${JSON.stringify(want)}, got a value`);
  assert.equal(got.status, want.status, "status");
  assert.equal(got.code, want.code, "code");
  for (const key of ["min", "max"]) {
    assert.ok(sameDecimal(want[key] ?? null, got[key] ?? null), `${key}: expected ${want[key]}, got ${got[key]}`);
  }
  if ("details" in want) assert.equal(got.details, want.details, "details");
  // Ruling 38 amending 10: the amount that works nearest, and the floor.
  if ("working" in want) {
    const w = want.working;
    const g = got.working ?? null;
    if (w === null) assert.equal(g, null, "working");
    else {
      assert.ok(g, `working: expected ${JSON.stringify(w)}, got none`);
      assert.equal(g.field, w.field, "working.field");
      assert.equal(g.asset, w.asset, "working.asset");
      assert.ok(sameDecimal(w.amount, g.amount), `working.amount: expected ${w.amount}, got ${g.amount}`);
    }
  }
  if ("floor" in want) assert.equal(got.floor ?? null, want.floor, "floor");
}

function routeRequest(input) {
  const request = { mode: input.mode, fromAmount: input.fromAmount, now: input.now };
  if (input.toAmount !== undefined) request.toAmount = input.toAmount;
  if (input.campaigns) request.campaigns = input.campaigns;
  if (input.limitPolicy) request.limitPolicy = input.limitPolicy;
  if (input.floors) request.floors = input.floors;
  return request;
}

const runners = {
  verify_order(input, expect) {
    const got = swaproute.verifyOrder(input.rates, input.body, input.order, input.options);
    assert.deepEqual({ ok: got.ok, mismatches: got.mismatches }, { ok: expect.ok, mismatches: expect.mismatches });
    // No networks in the vectors' options: the addresses were not checked against any (ruling 46).
    assert.equal(got.addressesChecked, false);
  },
  price_guard(input, expect) {
    const request = { fromAmount: input.fromAmount, now: input.now, priceGuard: input.priceGuard };
    const got = swaproute.selectRoutes(input.rates, request);
    assert.deepEqual(got.routes.map((r) => r.rateId), expect.routes, "ranked");
    assert.equal(got.rejected.length, expect.rejected.length, "rejected");
    expect.rejected.forEach((want, i) => {
      const r = got.rejected[i];
      assert.equal(r.rateId, want.rateId, "rateId");
      assert.equal(r.reason, want.reason, "reason");
      for (const key of ["multiplier", "deviationBps"]) {
        if (key in want) assert.ok(sameDecimal(want[key], r[key]), `${key}: expected ${want[key]}, got ${r[key]}`);
      }
      if ("reference" in want) assert.equal(r.reference, want.reference, "reference");
    });
    if (expect.error) checkError(expect.error, got.noRoute);
    else assert.equal(got.noRoute, null, "noRoute");
  },
  select(input, expect) {
    const got = swaproute.selectRoutes(input.rates, routeRequest(input));
    assert.deepEqual(got.routes.map((r) => r.rateId), expect.routes.map((r) => r.rateId), "ranked");
    expect.routes.forEach((want, i) => {
      const route = got.routes[i];
      assert.equal(route.rank, i + 1, "rank");
      assert.ok(sameDecimal(want.netOutput, route.netOutput), `${want.rateId} netOutput: expected ${want.netOutput}, got ${route.netOutput}`);
      assert.equal(route.requiredInput, want.requiredInput, `${want.rateId} requiredInput`);
      const [wl, gl] = [want.requiredInputLimits, route.requiredInputLimits];
      assert.equal(gl?.status ?? null, wl?.status ?? null, `${want.rateId} requiredInputLimits`);
      if (wl) assert.ok(sameDecimal(wl.limit ?? null, gl.limit ?? null), `${want.rateId} requiredInputLimits.limit`);
    });
    assert.deepEqual(
      got.rejected.map((r) => [r.rateId, r.reason]),
      expect.rejected.map((r) => [r.rateId, r.reason]),
      "rejected",
    );
    expect.rejected.forEach((want, i) => {
      assert.ok(sameDecimal(want.limit, got.rejected[i].limit), `${want.rateId} limit`);
    });
    if (expect.error === null) {
      assert.equal(got.noRoute, null, "noRoute");
    } else {
      checkError(expect.error, got.noRoute);
      // The same error is what bestRoute throws.
      checkError(expect.error, attempt(() => swaproute.bestRoute(input.rates, routeRequest(input))).error);
    }
  },

  estimate(input, expect) {
    const request = { toAmount: input.toAmount, now: input.now };
    if (input.floors) request.floors = input.floors;
    const got = attempt(() => swaproute.estimateExactOut(input.rates, request));
    if (expect.error) return checkError(expect.error, got.error);
    assert.deepEqual(got.ok, expect.estimate);
    const at = (limitPolicy) =>
      swaproute.bestRoute(input.rates, {
        mode: "ExactOut",
        fromAmount: got.ok.fromAmount,
        toAmount: input.toAmount,
        now: input.now,
        limitPolicy,
      });
    for (const [key, policy] of [["rankedAtEstimate", "spec"], ["rankedAtEstimateStrict", "strict"]]) {
      if (!expect[key]) continue;
      const route = at(policy);
      assert.deepEqual({ rateId: route.rateId, requiredInput: route.requiredInput }, expect[key], key);
    }
  },

  json_number(input, expect) {
    const got = attempt(() => swaproute.decimalFromJsonNumber(input.json));
    if ("decimal" in expect) {
      assert.ok(sameDecimal(expect.decimal, got.ok), `expected ${expect.decimal}, got ${got.ok ?? got.error}`);
    } else {
      assert.equal(got.error?.reason, expect.error);
    }
  },

  amount_text(input, expect) {
    const got = attempt(() => swaproute.parseAmount(input.text));
    if ("decimal" in expect) {
      assert.ok(sameDecimal(expect.decimal, got.ok), `expected ${expect.decimal}, got ${got.ok ?? got.error}`);
      return;
    }
    assert.equal(got.error?.code, "INVALID_AMOUNT");
    assert.equal(got.error.reason, expect.error);
    if ("at" in expect) {
      assert.equal(got.error.at, expect.at, "at");
      assert.equal(got.error.found, expect.found, "found");
    }
  },

  fixed_order_body: (input, expect) => orderBody(swaproute.validateFixedOrder, input, expect),
  float_order_body: (input, expect) => orderBody(swaproute.validateFloatOrder, input, expect),

  reconcile(input, expect) {
    assert.deepEqual(swaproute.reconcileStatus(input.current, input.observations), expect);
  },

  forwarded(input, expect) {
    const got = attempt(() => swaproute.parseForwarded(input.value));
    if (!expect.ok) {
      assert.equal(got.error?.reason, expect.error, `expected ${expect.error}, got ${JSON.stringify(got.ok ?? got.error)}`);
      assert.equal(got.error.node, expect.node, "node");
      return;
    }
    const want = expect.ok;
    assert.ok(got.ok, `expected a value, got ${got.error}`);
    assert.equal(got.ok.elements, want.elements, "elements");
    const client = got.ok.client;
    if (want.client === null) {
      assert.equal(client, null, "client");
    } else {
      assert.equal(client.kind, want.client.kind, "client.kind");
      if ("addr" in want.client) assert.equal(canonIp(client.addr), canonIp(want.client.addr), "client.addr");
      if ("id" in want.client) assert.equal(client.id, want.client.id, "client.id");
      assert.equal(client.port, want.client.port, "client.port");
    }
    const screening = got.ok.screening;
    if ("addr" in want.screening) {
      assert.equal(canonIp(screening.addr ?? ""), canonIp(want.screening.addr), "screening");
    } else {
      assert.deepEqual(screening, want.screening, "screening");
    }
  },

  client_headers(input, expect) {
    const got = attempt(() => swaproute.clientHeaders(input.headers, input.integration));
    if (expect.error) return checkError(expect.error, got.error);
    assert.ok(got.ok, `expected headers, got ${got.error}`);
    assert.equal(got.ok.appName, expect.ok.appName, "appName");
    const [want, addr] = [expect.ok.screeningAddr, got.ok.screeningAddr];
    assert.equal(addr === null ? null : canonIp(addr), want === null ? null : canonIp(want), "screeningAddr");
  },

  caip(input, expect) {
    const parse = {
      chainId: swaproute.parseChainId,
      assetType: swaproute.parseAssetType,
      assetId: swaproute.parseAssetId,
    }[input.type];
    const got = attempt(() => parse(input.text));
    if (expect.ok) return assert.deepEqual(got.ok, expect.ok);
    assert.ok(got.error, `expected ${JSON.stringify(expect.error)}, got ${JSON.stringify(got.ok)}`);
    // Only the keys the expectation gives are compared; the vector's
    // `reason` is the error's `reason` (its `code` is INVALID_REQUEST).
    for (const [key, value] of Object.entries(expect.error)) {
      assert.equal(got.error[key] ?? null, value, key);
    }
    assert.equal(got.error.code, "INVALID_REQUEST");
  },

  rates_response(input, expect) {
    const got = attempt(() => swaproute.Rates.from(input.rates));
    if (expect.ok) {
      assert.ok(got.ok, `expected a response, got ${got.error}`);
      assert.equal(got.ok.length, expect.ok.count, "count");
      got.ok.free();
    } else {
      assert.equal(got.error?.reason, expect.refused);
    }
  },

  chained_route(input, expect) {
    chainedRoute(input, expect);
  },

  // The report is compared whole, as tests/vectors.rs does: the amounts'
  // texts carry the grid's places ("5.00000000", "0.06").
  feasible(input, expect) {
    const query = { mode: input.mode, now: input.now };
    for (const key of ["campaigns", "floors", "decimals", "spendable"]) {
      if (input[key] !== undefined) query[key] = input[key];
    }
    assert.deepEqual(swaproute.feasibleAmounts(input.rates, query), expect);
    // The handle answers the same.
    const rates = swaproute.Rates.from(input.rates);
    try {
      assert.deepEqual(rates.feasible(query), expect, "Rates#feasible");
    } finally {
      rates.free();
    }
  },

  // Ruling 39: `{route, split}` compared whole (the route by its rate id).
  split(input, expect) {
    const request = { fromAmount: input.fromAmount, now: input.now };
    for (const key of ["mode", "toAmount", "floors"]) {
      if (input[key] !== undefined) request[key] = input[key];
    }
    const got = attempt(() => swaproute.splitRoute(input.rates, request, input.policy ?? {}));
    if (expect.error) {
      checkError(expect.error, got.error);
      return;
    }
    assert.ok(got.ok, `expected an answer, got ${got.error?.message}`);
    assert.equal(got.ok.route?.rateId ?? null, expect.route, "route");
    // Ruling 50: a split holds until its first leg's rate expires, a single
    // route until its rate does (no median guard in these cases).
    const expiry = new Map(input.rates.map((r) => [r.id, r.expiry]));
    const used = got.ok.split ? got.ok.split.legs.map((l) => l.rateId) : [got.ok.route.rateId];
    const until = Math.min(...used.map((id) => expiry.get(id)));
    assert.equal(got.ok.validUntil, until, "validUntil");
    if (got.ok.split) {
      const { validUntil, ...split } = got.ok.split;
      assert.equal(validUntil, until, "split.validUntil");
      assert.deepEqual(split, expect.split, "split");
    } else {
      assert.deepEqual(got.ok.split, expect.split, "split");
    }
  },

  // Ruling 50: the best route's successors, compared whole.
  schedule(input, expect) {
    const rates = swaproute.Rates.from(input.rates);
    try {
      const request = { fromAmount: input.fromAmount, now: input.now };
      assert.deepEqual(rates.schedule(request), expect);
      assert.deepEqual(rates.validUntil(request), { validUntil: expect.validUntil }, "validUntil");
      // The same lifetime on the answers themselves: the best route's, or
      // its "no route"'s (thrown), and the top 1's.
      let best;
      try {
        best = rates.best(request).validUntil;
      } catch (e) {
        if (!(e instanceof swaproute.SwaprouteError)) throw e;
        best = e.validUntil;
      }
      assert.equal(best, expect.validUntil, "best(request).validUntil");
      const first = expect.schedule[0];
      if (first && first.rateId !== null) {
        assert.equal(rates.top(request, 1).validUntil, expect.validUntil, "top(request, 1).validUntil");
      }
      // select: the first expiry after now of any rate (every line can change then).
      const live = input.rates.map((r) => r.expiry).filter((e) => e > input.now);
      const select = rates.select(request).validUntil;
      assert.equal(select, live.length ? Math.min(...live) : null, "select(request).validUntil");
    } finally {
      rates.free();
    }
  },

  requote(input, expect) {
    const got = swaproute.classifyRequote(input);
    assert.equal(got.class, expect.class, "class");
    assert.equal(got.lossBps, expect.lossBps, "lossBps");
  },

  deposit(input, expect) {
    const body = {
      pairId: "BTC_ETH", fromAmount: input.fromAmount, toAmount: "1", slippage: 100,
      fromAddress: null, toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
    };
    const got = swaproute.depositOutcome([input.rate], body,
      { amount: input.deposit, observedAt: input.observedAt }, { now: input.now });
    assert.deepEqual({ class: got.class, expectedOutput: got.expectedOutput, limit: got.limit }, expect);
  },

  order_plan(input, expect) {
    const options = { now: input.now };
    if (input.decimals) options.decimals = input.decimals;
    if (input.limitPolicy) options.limitPolicy = input.limitPolicy;
    const got = attempt(() => swaproute.planFixedOrder(input.rates, input.body, options));
    if (expect.order) {
      assert.ok(got.ok, `expected a plan, got ${got.error?.message}`);
      const want = expect.order;
      assert.equal(got.ok.rateId, want.rateId, "rateId");
      assert.ok(sameDecimal(want.amount, got.ok.amount), `amount: expected ${want.amount}, got ${got.ok.amount}`);
      assert.ok(sameDecimal(want.toAmount, got.ok.toAmount), `toAmount: expected ${want.toAmount}, got ${got.ok.toAmount}`);
      const [wl, gl] = [want.amountLimits, got.ok.amountLimits];
      assert.equal(gl?.status ?? null, wl?.status ?? null, "amountLimits");
      if (wl) assert.ok(sameDecimal(wl.limit ?? null, gl.limit ?? null), "amountLimits.limit");
      return;
    }
    checkError(expect.error, got.error);
    // Ruling 33: the bound and the available amount, typed, as decimal texts.
    for (const key of ["bound", "available"]) {
      assert.ok(sameDecimal(expect.error[key] ?? null, got.error[key] ?? null), `${key}: expected ${expect.error[key]}, got ${got.error[key]}`);
      if (got.error[key] !== undefined) assert.equal(got.error.body[key], got.error[key], `body.${key}`);
    }
    const sides = expect.error.requiredInput;
    if (sides === undefined) {
      assert.equal(got.error.requiredInput, undefined, "requiredInput");
      return;
    }
    for (const side of ["above", "below"]) {
      const [w, g] = [sides[side], got.error.requiredInput?.[side]];
      if (w === null || g === null || g === undefined) {
        assert.equal(g ?? null, w, `${side}`);
        continue;
      }
      assert.equal(g.rateId, w.rateId, `${side}.rateId`);
      for (const key of ["required", "limit", "toAmount"]) {
        assert.ok(sameDecimal(w[key], g[key]), `${side}.${key}: expected ${w[key]}, got ${g[key]}`);
      }
    }
  },
};

function orderBody(validate, input, expect) {
  const got = attempt(() => validate("bodyText" in input ? input.bodyText : input.body));
  if (expect.ok) {
    assert.ok(got.ok, `expected a valid body, got ${got.error?.message} ${JSON.stringify(got.error?.errors)}`);
    for (const [key, value] of Object.entries(expect.ok)) {
      if (["fromAmount", "toAmount", "slippage"].includes(key)) {
        assert.ok(sameDecimal(value, got.ok[key]), `${key}: expected ${value}, got ${got.ok[key]}`);
      } else {
        assert.equal(got.ok[key], value, key);
      }
    }
    return;
  }
  assert.ok(got.error, `expected ${JSON.stringify(expect.errors)}, got a valid body`);
  assert.deepEqual(got.error.errors.map(({ field, code }) => ({ field, code })), expect.errors, "errors");
  assert.deepEqual(
    { status: got.error.status, code: got.error.code, field: got.error.field },
    expect.error,
    "error",
  );
}

function chainedRoute(input, expect) {
  const request = { mode: input.mode, from: input.from, to: input.to, now: input.now };
  request[input.mode === "ExactOut" ? "toAmount" : "fromAmount"] = input.amount;
  if (input.maxLegs !== undefined) request.maxLegs = input.maxLegs;
  if (input.campaigns) request.campaigns = input.campaigns;
  if (input.floors) request.floors = input.floors;
  const k = Math.max(expect.chains?.length ?? 0, 1) + 64;
  const got = swaproute.selectChains(input.responses, request, k);
  const want = expect.chains ?? [];
  assert.equal(got.chains.length, want.length, "chains");
  want.forEach((w, i) => {
    const chain = got.chains[i];
    assert.deepEqual(chain.legs.map((l) => l.pairId), w.pairs, `chain ${i + 1} pairs`);
    assert.deepEqual(chain.legs.map((l) => l.rateId), w.rates, `chain ${i + 1} rates`);
    if (w.legs) {
      w.legs.forEach((leg, j) => {
        assert.ok(sameDecimal(leg.input, chain.legs[j].input), `chain ${i + 1} leg ${j + 1} input`);
        assert.ok(sameDecimal(leg.output, chain.legs[j].output), `chain ${i + 1} leg ${j + 1} output`);
      });
    }
    if ("finalOutput" in w) assert.ok(sameDecimal(w.finalOutput, chain.finalOutput), `chain ${i + 1} finalOutput`);
    if ("requiredInput" in w) assert.equal(chain.requiredInput, w.requiredInput, `chain ${i + 1} requiredInput`);
    if ("expiry" in w) assert.equal(chain.expiry, w.expiry, `chain ${i + 1} expiry`);
  });
  if (expect.rejectedCounts) {
    assert.deepEqual(
      Object.entries(got.rejectedCounts).map(([reason, count]) => ({ reason, count })),
      expect.rejectedCounts,
      "rejectedCounts",
    );
  }
  if (expect.error) {
    checkError(expect.error, got.noRoute);
    checkError(expect.error, attempt(() => swaproute.bestChain(input.responses, request)).error);
  } else {
    assert.equal(got.noRoute, null, "noRoute");
    assert.deepEqual(swaproute.bestChain(input.responses, request).legs, got.chains[0].legs, "bestChain");
  }
}

test("there are vectors of every kind the package runs", () => {
  const total = files.reduce((n, f) => n + f.cases.length, 0);
  assert.ok(total >= 150, `only ${total} vectors`);
  for (const file of files) assert.ok(file.kind in runners, `${file.name}: unknown kind ${file.kind}`);
});

for (const file of files) {
  test(`${file.name} (${file.kind}, ${file.cases.length} cases)`, () => {
    const failures = [];
    for (const c of file.cases) {
      try {
        runners[file.kind](c.input, c.expect);
      } catch (error) {
        failures.push(`[${c.name}] ${error.message}`);
      }
    }
    assert.equal(failures.length, 0, `${failures.length} of ${file.cases.length} failed:\n${failures.join("\n")}`);
  });
}
