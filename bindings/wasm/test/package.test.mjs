// The package as a user gets it: `npm pack`, install the tarball into a
// fresh project (fixtures/consumer), then import it by name from Node,
// type-check and run a TypeScript program against the installed .d.ts, and
// bundle the browser entry with esbuild and run the bundle in Chromium.
// Nothing here imports ../pkg by path: a wrong `exports` or `files` fails.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

import { serve } from "../demo/serve.mjs";
import { executable, skipBrowser } from "./chromium.mjs";

const here = fileURLToPath(new URL("..", import.meta.url));
const bin = (name) => join(here, "node_modules", ".bin", name);

/** Runs `command` in `cwd`; its stdout, or a failure with its output. */
function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, NODE_NO_WARNINGS: "1" } });
  assert.equal(
    result.status,
    0,
    `${command} ${args.join(" ")} (in ${cwd}) exited ${result.status}\n${result.stdout}\n${result.stderr}`,
  );
  return result.stdout;
}

let work;
let project;
let tarball;

before(() => {
  work = mkdtempSync(join(tmpdir(), "swaproute-package-"));
  const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], here));
  tarball = { ...packed, path: join(work, packed.filename) };
  project = join(work, "consumer");
  cpSync(join(here, "fixtures", "consumer"), project, { recursive: true });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  // The package has no dependencies: nothing to fetch.
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--no-package-lock", tarball.path], project);
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test("the tarball holds both builds and nothing else", () => {
  const files = tarball.files.map((f) => f.path).sort();
  const build = ["index.d.ts", "index.js", "swaproute_wasm.js", "swaproute_wasm_bg.wasm"];
  assert.deepEqual(files, [
    "README.md",
    "package.json",
    ...[...build, "node.d.ts", "node.js"].sort().map((f) => `pkg/${f}`),
    ...[...build, "browser.d.ts"].sort().map((f) => `pkg-browser/${f}`),
  ].sort());
});

test("Node imports it by name: swaproute, /node, /full, /browser", () => {
  const out = JSON.parse(run(process.execPath, ["node.mjs"], project));
  assert.equal(out.version, JSON.parse(readFileSync(join(here, "package.json"), "utf8")).version);
  assert.equal(out.sameModule, true, "swaproute and swaproute/node are one module in Node");
  // 0.5 × 30.5 − 0.2 = 15.05 ("b"); then 15.05 × 50 − 0.1 = 752.4.
  assert.deepEqual([out.main, out.chain, out.full, out.browser], ["15.05", "752.4", "15.05", "15.05"]);
  // k = 2^32 is "all of them": "b" (15.05), "a" (14.99); "c" is over its max.
  assert.deepEqual(out.node, ["b", "a"]);
  assert.match(out.browserChains, /^TypeError: selectChains is not in this build .*"chains".*swaproute\/full/);
  assert.deepEqual(out.error, {
    swaprouteError: true,
    details: 'request.now: invalid type: string "yesterday", expected u64',
    field: "now",
  });
});

test("a TypeScript program type-checks against the installed types, and runs", () => {
  run(process.execPath, [join(here, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], project);
  const out = JSON.parse(run(process.execPath, ["dist/main.js"], project));
  assert.deepEqual(out, {
    net: "15.05",
    top: ["b", "a"],
    chain: ["752.4"],
    // failed after the deposit was detected is definitive; awaiting does not reopen it.
    status: [
      { status: "failed", definitive: true },
      { status: "failed", definitive: true },
    ],
    code: "400 AMOUNT_ABOVE_LIMIT max=10",
    slippage: [409, "SLIPPAGE_EXCEEDED", 15.092, 15.05],
    feasible: ["0.00100000", "c", "10.00000000", "b"],
  });
});

describe("esbuild bundles the browser entry; Chromium runs it", { skip: skipBrowser }, () => {
  let dist;
  let server;
  let browser;

  before(async () => {
    dist = join(project, "web");
    run(
      bin("esbuild"),
      ["browser-entry.js", "--bundle", "--format=esm", "--platform=browser", `--outdir=${dist}`, "--loader:.wasm=file"],
      project,
    );
    cpSync(join(project, "index.html"), join(dist, "index.html"));
    server = await serve(0, dist);
    browser = await chromium.launch({ executablePath: executable, args: ["--no-sandbox"] });
  });

  after(async () => {
    await browser?.close();
    server?.close();
  });

  test("the bundle carries the browser build's .wasm (under 300 KB)", () => {
    const [wasm] = readdirSync(dist).filter((f) => f.endsWith(".wasm"));
    const size = statSync(join(dist, wasm)).size;
    const browserBuild = statSync(join(project, "node_modules", "swaproute", "pkg-browser", "swaproute_wasm_bg.wasm")).size;
    assert.equal(size, browserBuild);
    assert.ok(size < 300 * 1024, `${size} bytes`);
  });

  test("in Chromium it ranks, estimates, and refuses what the browser build lacks", async () => {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    const out = await page.evaluate(() => window.result);
    assert.deepEqual(errors, []);
    // ExactOut 16 ETH: "b" needs (16 + 0.2) / 30.5 = 0.53114754… → 0.53114755,
    // "a" (16 + 0.01) / 30 = 0.53366667; "c" needs 0.4 > its max 0.25.
    assert.deepEqual(out, {
      best: "15.05",
      estimate: { fromAmount: "0.53114755", rateId: "b" },
      chains: "TypeError",
      error: "request.limitPolicy: the BigInt 1n is not JSON data",
    });
  });
});
