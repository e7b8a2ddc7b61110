// The swaproute engine for JavaScript: plain objects in, plain objects out,
// failures thrown as `SwaprouteError` (the service's error body).
//
// Load the WebAssembly module once before calling anything: `await init()`
// in a browser (or `initSync(bytes)`); in Node, import `swaproute/node`
// (node.js), which does it for you.
//
// build.sh copies this file beside wasm-bindgen's output: `pkg/` (the whole
// API) and `pkg-browser/` (ranking, estimates and amounts only, under 300 KB;
// the other functions throw a TypeError there).
import * as raw from "./swaproute_wasm.js";

export { default, default as init, initSync } from "./swaproute_wasm.js";

/**
 * A failure: the service's error body `{status, code, details, min?, max?}`,
 * plus keys that say more where a caller can act on them (`field`,
 * `errors`, `reason`, `at`, ...).
 */
export class SwaprouteError extends Error {
  constructor(body) {
    super(`${body.code}: ${body.details}`);
    this.name = "SwaprouteError";
    Object.assign(this, body);
  }

  /**
   * The service's error body alone (`status`, `code`, `details`, and `min`,
   * `max`, `orderId` when present): what a server answers with, e.g.
   * `res.status(e.status).json(e.body)`.
   */
  get body() {
    const body = { status: this.status, code: this.code, details: this.details };
    for (const key of ["orderId", "min", "max"]) if (this[key] !== undefined) body[key] = this[key];
    return body;
  }
}

/** Unwraps the raw layer's `{"ok": ...}` / `{"error": ...}` envelope. */
function unwrap(envelope) {
  const answer = JSON.parse(envelope);
  if (Object.hasOwn(answer, "error")) throw new SwaprouteError(answer.error);
  return answer.ok;
}

/** The raw export `name`, or a TypeError naming the feature this build lacks. */
function exported(name, api, feature) {
  const f = raw[name];
  if (typeof f !== "function") {
    throw new TypeError(
      `${api} is not in this build of swaproute (built without the "${feature}" feature): use the full package`,
    );
  }
  return f;
}

function invalid(details) {
  return new SwaprouteError({ status: 400, code: "INVALID_REQUEST", details });
}

/** JSON text of `value`; a string is taken as JSON text already. */
function jsonText(value, what) {
  if (typeof value === "string") return value;
  if (value === undefined) throw invalid(`${what}: missing`);
  return JSON.stringify(value);
}

function count(k, what) {
  if (!Number.isSafeInteger(k) || k < 0) {
    throw invalid(`${what}: expected a whole number of at least 0, got ${k}`);
  }
  return k;
}

// Only `Rates.from` may call the constructor.
const token = Symbol("Rates");

/**
 * One pair's rates (a `GET /v3/pairs/:pairId/rates` answer), decoded once
 * and held in WebAssembly memory: rank them again for every amount a user
 * types without decoding them again. Call `free()` when done (a finalizer
 * frees it otherwise, at a time the garbage collector chooses).
 */
export class Rates {
  #raw;
  #summary;

  constructor(key, rawRates) {
    if (key !== token) throw new TypeError("use Rates.from(rates)");
    this.#raw = rawRates;
    this.#summary = unwrap(rawRates.summary());
  }

  /** Decodes `rates`: an array of rate objects or the response's JSON text. */
  static from(rates) {
    if (rates instanceof Rates) return rates;
    try {
      return new Rates(token, raw.RawRates.parse(jsonText(rates, "rates")));
    } catch (e) {
      if (typeof e === "string") unwrap(e);
      throw e;
    }
  }

  /** The pair every rate names, or `null` for an empty response. */
  get pairId() {
    return this.#summary.pairId;
  }

  /** How many rates there are. */
  get length() {
    return this.#summary.count;
  }

  #handle() {
    if (this.#raw === undefined) throw invalid("these Rates were freed");
    return this.#raw;
  }

  /** Every rate, ranked or rejected with its reason; `noRoute` when none ranks. */
  select(request) {
    return unwrap(this.#handle().select(jsonText(request, "request")));
  }

  /** The best route; throws the "no route" error. */
  best(request) {
    return unwrap(this.#handle().best(jsonText(request, "request")));
  }

  /** The best `k` routes, best first; throws the "no route" error. */
  top(request, k) {
    return unwrap(this.#handle().top(jsonText(request, "request"), count(k, "k")));
  }

  /** The ExactOut estimate `{fromAmount, rateId}` for `{toAmount, now}`. */
  estimateExactOut(request) {
    return unwrap(this.#handle().estimate(jsonText(request, "request")));
  }

  /** Releases the WebAssembly memory now. */
  free() {
    this.#raw?.free();
    this.#raw = undefined;
  }
}

/** Runs `f` on `rates` as `Rates`, freeing them after when made here. */
function withRates(rates, f) {
  if (rates instanceof Rates) return f(rates);
  const held = Rates.from(rates);
  try {
    return f(held);
  } finally {
    held.free();
  }
}

/** `Rates.from(rates).select(request)`, freeing the decoded rates after. */
export function selectRoutes(rates, request) {
  return withRates(rates, (r) => r.select(request));
}

/** `Rates.from(rates).best(request)`, freeing the decoded rates after. */
export function bestRoute(rates, request) {
  return withRates(rates, (r) => r.best(request));
}

/** `Rates.from(rates).top(request, k)`, freeing the decoded rates after. */
export function topRoutes(rates, request, k) {
  return withRates(rates, (r) => r.top(request, k));
}

/** `Rates.from(rates).estimateExactOut(request)`, freeing the decoded rates after. */
export function estimateExactOut(rates, request) {
  return withRates(rates, (r) => r.estimateExactOut(request));
}

function responsesText(responses) {
  if (typeof responses === "string") return responses;
  if (!Array.isArray(responses)) throw invalid("responses: expected an array of rates responses");
  return `[${responses.map((r, i) => jsonText(r, `responses[${i}]`)).join(",")}]`;
}

/** Chained routes (1 to 3 legs): the best `k` chains and rejections, with counts. */
export function selectChains(responses, request, k = 10) {
  return unwrap(exported("select_chains", "selectChains", "chains")(responsesText(responses), jsonText(request, "request"), count(k, "k")));
}

/** The best chained route; throws the "no route" error. */
export function bestChain(responses, request) {
  return unwrap(exported("best_chain", "bestChain", "chains")(responsesText(responses), jsonText(request, "request")));
}

/** A `POST /v3/orders` body (an object, or the request's exact text). */
export function validateFixedOrder(body) {
  return unwrap(exported("validate_fixed_order", "validateFixedOrder", "orders")(jsonText(body, "body")));
}

/** A `POST /v3/orders/float` body (an object, or the request's exact text). */
export function validateFloatOrder(body) {
  return unwrap(exported("validate_float_order", "validateFloatOrder", "orders")(jsonText(body, "body")));
}

/** Screens an address: `{address, canonical, encoding}`. */
export function screenAddress(address, options = {}) {
  if (typeof address !== "string") throw invalid("address: expected a string");
  return unwrap(exported("screen_address", "screenAddress", "screening")(address, jsonText(options, "options")));
}

/** Folds provider observations into the tracked status: `{status, definitive}`. */
export function reconcileStatus(current, observations) {
  return unwrap(exported("reconcile_status", "reconcileStatus", "orders")(JSON.stringify({ current, observations })));
}

/** A `Forwarded` header value: `{elements, client, screening}`. */
export function parseForwarded(value) {
  if (typeof value !== "string") throw invalid("value: expected a string");
  return unwrap(exported("parse_forwarded", "parseForwarded", "client")(value));
}

/**
 * The client headers of a request: a `Headers` object, any iterable of
 * `[name, value]` pairs, or a plain object of names to values.
 */
export function clientHeaders(headers, integration = "direct") {
  let pairs;
  if (headers != null && typeof headers[Symbol.iterator] === "function") {
    pairs = Array.from(headers, ([name, value]) => [String(name), String(value)]);
  } else if (headers != null && typeof headers === "object") {
    pairs = Object.entries(headers).flatMap(([name, value]) =>
      Array.isArray(value) ? value.map((v) => [name, String(v)]) : [[name, String(value)]],
    );
  } else {
    throw invalid("headers: expected Headers, [name, value] pairs or an object");
  }
  return unwrap(exported("client_headers", "clientHeaders", "client")(JSON.stringify({ headers: pairs, integration })));
}

function text(value, what) {
  if (typeof value !== "string") throw invalid(`${what}: expected a string`);
  return value;
}

/** An amount in the strict grammar `digits ["." digits]`, as its decimal text. */
export function parseAmount(value) {
  return unwrap(raw.parse_amount(text(value, "amount")));
}

/** The decimal a JSON number's text stands for (the shortest of its double). */
export function decimalFromJsonNumber(json) {
  return unwrap(raw.json_number(text(json, "json")));
}

/** A CAIP-2 chain id: `{namespace, reference}`. */
export function parseChainId(value) {
  return unwrap(exported("parse_chain_id", "parseChainId", "caip")(text(value, "chainId")));
}

/** A CAIP-19 asset type: `{namespace, reference, assetNamespace, assetReference}`. */
export function parseAssetType(value) {
  return unwrap(exported("parse_asset_type", "parseAssetType", "caip")(text(value, "assetType")));
}

/** A CAIP-19 asset id: an asset type and its `tokenId`. */
export function parseAssetId(value) {
  return unwrap(exported("parse_asset_id", "parseAssetId", "caip")(text(value, "assetId")));
}
