// The demo page in a real browser: Debian's Chromium driven by
// playwright-core. Types amounts and checks the ranking shown against a
// ranking worked out here with exact BigInt arithmetic (ExactIn, rulings 5-7:
// expiry, limits, net output, then lower fee, base before sponsored, id).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

import { serve } from "../demo/serve.mjs";
import { executable, skipBrowser } from "./chromium.mjs";

/** `text` as [integer, scale]. */
function decimal(text) {
  const [int, frac = ""] = String(text).split(".");
  return [BigInt(int + frac), frac.length];
}

function align([a, sa], [b, sb]) {
  const s = Math.max(sa, sb);
  return [a * 10n ** BigInt(s - sa), b * 10n ** BigInt(s - sb), s];
}

const cmp = (x, y) => {
  const [a, b] = align(x, y);
  return a < b ? -1 : a > b ? 1 : 0;
};

/** `amount × multiplier − fee`, exact. */
function netOutput(amount, multiplier, fee) {
  const [a, sa] = decimal(amount);
  const [m, sm] = decimal(multiplier);
  const [p, f, s] = align([a * m, sa + sm], decimal(fee));
  return [p - f, s];
}

const same = (x, y) => cmp(x, y) === 0;

/** The ranking the page must show for `amount` (ExactIn), independently. */
function expected(rates, amount, now) {
  const routes = [];
  const rejected = [];
  for (const rate of rates) {
    const [value, fee, min, max] = [rate.amount.value, rate.minerFee.value, rate.min.value, rate.max.value];
    let reason = null;
    if (rate.expiry <= now) reason = "EXPIRED";
    else if (cmp(decimal(amount), decimal(min)) < 0) reason = `BELOW_MIN (${min})`;
    else if (cmp(decimal(amount), decimal(max)) > 0) reason = `ABOVE_MAX (${max})`;
    const net = netOutput(amount, value, fee);
    if (!reason && net[0] <= 0n) reason = "NO_OUTPUT";
    if (reason) rejected.push({ id: rate.id, reason });
    else routes.push({ id: rate.id, net, fee: decimal(fee), sponsored: rate.sponsoredByCampaignId != null });
  }
  routes.sort(
    (a, b) =>
      cmp(b.net, a.net) ||
      cmp(a.fee, b.fee) ||
      Number(a.sponsored) - Number(b.sponsored) ||
      Buffer.compare(Buffer.from(a.id), Buffer.from(b.id)),
  );
  return { routes, rejected };
}

const rates = JSON.parse(readFileSync(new URL("../demo/rates.json", import.meta.url), "utf8"));
let server;
let browser;
let page;

describe("the demo page in Chromium", { skip: skipBrowser }, () => {
  before(async () => {
    server = await serve(0);
    browser = await chromium.launch({ executablePath: executable, args: ["--no-sandbox"] });
    page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error));
    await page.goto(`http://127.0.0.1:${server.address().port}/demo/`);
    await page.waitForSelector('#status[data-state="ready"]', { timeout: 20000 });
    assert.deepEqual(errors, []);
  });

  after(async () => {
    await browser?.close();
    server?.close();
  });

  async function shown() {
    return page.$$eval("#ranking tbody tr", (rows) =>
      rows.map((row) => ({
        kind: row.className,
        id: row.dataset.rateId,
        net: row.querySelector(".net")?.textContent ?? null,
        reason: row.querySelector(".reason")?.textContent ?? null,
      })),
    );
  }

  for (const amount of ["0.5", "4", "0.0009", "12.5"]) {
    test(`typing ${amount} shows the ranking worked out by hand`, async () => {
      await page.fill("#amount", amount);
      const rows = await shown();
      const want = expected(rates, amount, Date.now());
      const routes = rows.filter((r) => r.kind === "route");
      assert.deepEqual(routes.map((r) => r.id), want.routes.map((r) => r.id), "ranked ids");
      routes.forEach((row, i) => assert.ok(same(decimal(row.net), want.routes[i].net), `${row.id}: net ${row.net}`));
      assert.deepEqual(
        rows.filter((r) => r.kind === "rejected").map((r) => [r.id, r.reason]),
        want.rejected.map((r) => [r.id, r.reason]),
        "rejections, in input order",
      );
    });
  }

  test("an amount that is not a decimal shows the error, not a ranking", async () => {
    await page.fill("#amount", "1e5");
    assert.equal(await page.isHidden("#ranking"), true);
    assert.match(await page.textContent("#error"), /^INVALID_AMOUNT: /);
  });

  test("an amount no rate takes shows the no-route error beside the rejections", async () => {
    await page.fill("#amount", "100");
    assert.match(await page.textContent("#error"), /^AMOUNT_ABOVE_LIMIT: /);
    assert.equal((await shown()).filter((r) => r.kind === "route").length, 0);
  });
});
