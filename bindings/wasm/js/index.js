// The swaproute engine for JavaScript: plain objects in, plain objects out,
// failures thrown as `SwaprouteError` (the service's error body).
//
// Load the WebAssembly module once before calling anything: `await init()`
// in a browser (or `initSync(bytes)`); in Node, `swaproute` (node.js) does
// it for you.
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
   * `max`, `orderId`, `bound`, `available` when present): what a server answers with, e.g.
   * `res.status(e.status).json(e.body)`.
   */
  get body() {
    const body = { status: this.status, code: this.code, details: this.details };
    for (const key of ["orderId", "min", "max", "bound", "available"]) if (this[key] !== undefined) body[key] = this[key];
    return body;
  }
}

function invalid(details, field) {
  const body = { status: 400, code: "INVALID_REQUEST", details };
  if (field !== undefined) body.field = field;
  return new SwaprouteError(body);
}

/** `value` as a message says it: `the string "2"`, `the BigInt 2n`, `NaN`. */
function describe(value) {
  switch (typeof value) {
    case "string": {
      const text = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
      return `the string ${text}`;
    }
    case "bigint":
      return `the BigInt ${value}n`;
    case "symbol":
      return "a Symbol";
    case "function":
      return "a function";
    case "object":
      if (value === null) return "null";
      if (Array.isArray(value)) return "an array";
      return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
    default:
      return String(value);
  }
}

/** `path` and `key` as the caller would write the access: `request.now`, `campaigns["a b"]`. */
function member(path, key) {
  const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
  if (path === "") return name;
  return name === key ? `${path}.${key}` : `${path}[${name}]`;
}

/** UTF-8 length of `text` (the Rust side counts bytes). */
function utf8Length(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Roots whose paths are request fields: `field` drops the root's name. */
const fieldRoots = new Set(["request", "body", "options"]);

/** The `field` of an error about the value at `path`: `request.now` → `now`, `rates[1].expiry` as is. */
function fieldOf(path) {
  const root = /^[\w$]+/.exec(path)?.[0];
  if (root === undefined || !fieldRoots.has(root) || path.length === root.length) return path;
  return path.slice(root.length).replace(/^\./, "");
}

// Deeper than any request, rate or body; serde_json refuses 128 levels.
const MAX_DEPTH = 100;

/**
 * JSON text of a caller's value, stricter than `JSON.stringify`: what it
 * would drop or mangle silently (a function, a Symbol, `NaN`, `undefined` in
 * an array, a `Map`) or throw a bare TypeError for (a BigInt, a cycle) is a
 * SwaprouteError naming the caller's path (`request.maxLegs`). A `Date` is
 * its milliseconds since the epoch (`now: new Date()`); `toJSON` is
 * honoured otherwise. With `track`, it records every value's byte span, so
 * that a position the Rust side reports can be named by path.
 */
class Writer {
  constructor(track) {
    this.parts = [];
    this.bytes = 0;
    this.spans = track ? [] : null;
    // The containers being written: one met again is a cycle.
    this.open = new Set();
  }

  emit(text) {
    this.parts.push(text);
    if (this.spans) this.bytes += utf8Length(text);
  }

  text() {
    return this.parts.join("");
  }

  /** `text`, the caller's own JSON text, spliced in as the value at `path`. */
  raw(text, path) {
    const start = this.bytes;
    this.emit(text);
    this.spans?.push({ start, end: this.bytes, path });
  }

  value(value, path, depth, key = "") {
    if (value !== null && typeof value === "object") {
      if (value instanceof Date) {
        value = value.getTime();
        if (!Number.isFinite(value)) throw invalid(`${path}: an invalid Date`, fieldOf(path));
      } else if (typeof value.toJSON === "function") {
        value = value.toJSON(key);
      }
    }
    const start = this.bytes;
    switch (typeof value) {
      case "string":
        this.emit(JSON.stringify(value));
        break;
      case "number":
        if (!Number.isFinite(value)) throw invalid(`${path}: expected a finite number, got ${value}`, fieldOf(path));
        this.emit(JSON.stringify(value));
        break;
      case "boolean":
        this.emit(value ? "true" : "false");
        break;
      case "object":
        if (value === null) this.emit("null");
        else this.container(value, path, depth);
        break;
      default:
        // undefined (where it cannot mean "absent"), bigint, symbol, function.
        throw invalid(`${path || "value"}: ${describe(value)} is not JSON data`, fieldOf(path));
    }
    this.spans?.push({ start, end: this.bytes, path });
  }

  container(value, path, depth) {
    const field = fieldOf(path);
    if (this.open.has(value)) throw invalid(`${path}: a circular reference (it contains itself)`, field);
    if (depth >= MAX_DEPTH) throw invalid(`${path}: nested more than ${MAX_DEPTH} levels deep`, field);
    if (value instanceof Map || value instanceof Set) {
      throw invalid(`${path}: expected ${value instanceof Map ? "a plain object" : "an array"}, got ${describe(value)}`, field);
    }
    this.open.add(value);
    if (Array.isArray(value)) this.array(value, path, depth);
    else this.object(value, path, depth);
    this.open.delete(value);
  }

  array(value, path, depth) {
    this.emit("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) this.emit(",");
      this.value(value[i], `${path}[${i}]`, depth + 1, String(i));
    }
    this.emit("]");
  }

  object(value, path, depth) {
    this.emit("{");
    let first = true;
    for (const key of Object.keys(value)) {
      const item = value[key];
      // An undefined property is absent, as in JSON.stringify and optional
      // TypeScript properties.
      if (item === undefined) continue;
      if (!first) this.emit(",");
      first = false;
      const at = member(path, key);
      const start = this.bytes;
      this.emit(JSON.stringify(key));
      this.spans?.push({ start, end: this.bytes, path: at });
      this.emit(":");
      this.value(item, at, depth + 1, key);
    }
    this.emit("}");
  }
}

// Set by `plain` when `JSON.stringify` met a value the Writer refuses.
let refused = false;

/**
 * `JSON.stringify`'s replacer: a Date as its milliseconds; flags (in
 * `refused`) what `JSON.stringify` would drop or mangle silently, so the
 * Writer runs again and names it.
 */
function plain(key, value) {
  switch (typeof value) {
    case "string": {
      // toJSON has run already: a Date is its ISO text (or null) here.
      const original = this[key];
      if (original instanceof Date) {
        const ms = original.getTime();
        if (Number.isFinite(ms)) return ms;
        refused = true;
      }
      return value;
    }
    case "number":
      if (!Number.isFinite(value)) refused = true;
      return value;
    case "boolean":
      return value;
    case "object":
      if (value === null) {
        if (this[key] instanceof Date) refused = true;
      } else if (value instanceof Map || value instanceof Set) refused = true;
      return value;
    case "undefined":
      if (Array.isArray(this)) refused = true;
      return value;
    default:
      refused = true;
      return undefined;
  }
}

/** What `JSON.stringify` escapes in a string (or writes as `\\u` escapes). */
const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** `text` as a JSON string, as `JSON.stringify` writes it. */
function quote(text) {
  return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * The text `JSON.stringify(value, plain)` writes for a plain object whose
 * values are all strings, finite numbers, booleans, null or undefined (a
 * request such as `{fromAmount, now}`), without the replacer's call per
 * key; `undefined` for any other value, which takes that path.
 */
function flat(value) {
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  if (typeof value.toJSON === "function") return undefined;
  let text = "";
  for (const key in value) {
    // An inherited enumerable key (a polluted prototype): the slow path.
    if (!Object.hasOwn(value, key)) return undefined;
    const item = value[key];
    let json;
    switch (typeof item) {
      case "string":
        json = quote(item);
        break;
      case "number":
        if (!Number.isFinite(item)) return undefined;
        json = String(item); // JSON.stringify's text of a finite number
        break;
      case "boolean":
        json = item ? "true" : "false";
        break;
      case "undefined":
        continue;
      default:
        if (item !== null) return undefined;
        json = "null";
    }
    text += (text === "" ? "{" : ",") + quote(key) + ":" + json;
  }
  return text === "" ? "{}" : `${text}}`;
}

/**
 * One JSON argument of a raw call: the caller's text as is, or the text
 * written here from the caller's value (then `where` names the path at a
 * byte position of it). `what` is the name the Rust side gives it.
 */
class Input {
  constructor(what, text, build) {
    this.what = what;
    this.text = text;
    this.build = build;
  }

  static of(value, what, root = what) {
    if (typeof value === "string") return new Input(what, value, null);
    if (value === undefined) throw invalid(`${what}: missing`, root === what ? undefined : root);
    return Input.value(what, value, root);
  }

  static built(what, build) {
    const writer = new Writer(false);
    build(writer);
    return new Input(what, writer.text(), build);
  }

  /** `value`'s text; `JSON.stringify` when it finds nothing to refuse (fast), else the `Writer`'s error. */
  static value(what, value, root) {
    const build = (w) => w.value(value, root, 0);
    let text = flat(value);
    if (text !== undefined) return new Input(what, text, build);
    try {
      text = JSON.stringify(value, plain);
    } catch {
      // A cycle, a BigInt behind a toJSON, a stack overflow: the Writer says which.
    }
    if (text === undefined || refused) {
      refused = false;
      return Input.built(what, build);
    }
    return new Input(what, text, build);
  }

  /** The path of the innermost value whose text holds, starts or ends at byte `(line, column)`. */
  where(line, column) {
    const writer = new Writer(true);
    this.build(writer);
    const text = writer.text();
    // Our own text has no line breaks; a caller's spliced text may.
    let offset = 0;
    for (let l = 1, i = 0; l < line; l++) {
      i = text.indexOf("\n", i) + 1;
      if (i === 0) break;
      offset = utf8Length(text.slice(0, i));
    }
    const at = offset + column;
    let best = null;
    for (const span of writer.spans) {
      // serde_json points after a value it consumed, or at a number's start.
      if (span.start <= at && at <= span.end && (!best || span.end - span.start < best.end - best.start)) best = span;
    }
    return best?.path;
  }
}


/**
 * Unwraps the raw layer's `{"ok": ...}` / `{"error": ...}` envelope. A
 * decoding error about text this wrapper wrote (the caller passed an
 * object) names the caller's path instead of a line and column of that
 * text, which the caller never saw.
 */
function unwrap(envelope, ...inputs) {
  const answer = JSON.parse(envelope);
  if (!Object.hasOwn(answer, "error")) return answer.ok;
  const error = answer.error;
  if (error.line !== undefined) {
    const prefix = /^(\w+): /.exec(error.details);
    const input = inputs.find((i) => i.what === prefix?.[1]);
    if (input?.build) {
      const message = error.details.slice(prefix[0].length).replace(/ at line \d+ column \d+$/, "");
      const path = input.where(error.line, error.column);
      error.details = `${path || input.what}: ${message}`;
      if (path && error.field === undefined) error.field = fieldOf(path);
      delete error.line;
      delete error.column;
    }
  }
  throw new SwaprouteError(error);
}

/** The raw export `name`, or a TypeError naming the feature this build lacks. */
function exported(name, api, feature) {
  const f = raw[name];
  if (typeof f !== "function") {
    throw new TypeError(
      `${api} is not in this build of swaproute (built without the "${feature}" feature): import "swaproute/full" for the whole API`,
    );
  }
  return f;
}

// usize is 32 bits in WebAssembly: a larger k would wrap. The core caps k at
// the number of candidates, and no list holds 2^32 − 1 of them.
const MAX_K = 0xffffffff;

/** `k`: a whole number ≥ 0 (above the candidates returns them all). */
function count(k, what) {
  if (typeof k !== "number" || !Number.isInteger(k) || k < 0) {
    throw invalid(`${what}: expected a whole number of at least 0, got ${describe(k)}`, what);
  }
  return Math.min(k, MAX_K);
}

// Only `Rates.from` may call the constructor.
const token = Symbol("Rates");
// The raw handle, for the functions of this module outside the class.
const handleOf = Symbol("handle");

/** The most rates one response may carry (ruling 17); more are refused before any is read. */
export const MAX_RATES = 65536;

/** A `TOO_MANY` refusal of an array of `length` rates, before it is serialized. */
function checkLength(rates, what) {
  if (Array.isArray(rates) && rates.length > MAX_RATES) {
    const error = invalid(`${what}: ${rates.length} rates is more than the ${MAX_RATES} one response may carry`);
    error.reason = "TOO_MANY";
    throw error;
  }
}

/**
 * One pair's rates (a `GET /v3/pairs/:pairId/rates` answer), decoded once
 * and held in WebAssembly memory: rank them again for every amount a user
 * types without decoding them again. Call `free()` when done (a finalizer
 * frees it otherwise, at a time the garbage collector chooses).
 */
export class Rates {
  #raw;
  #summary;
  #assumed = false;

  constructor(key, rawRates) {
    if (key !== token) throw new TypeError("use Rates.from(rates)");
    this.#raw = rawRates;
    this.#summary = unwrap(rawRates.summary());
  }

  /** Decodes `rates`: an array of rate objects or the response's JSON text. */
  static from(rates) {
    if (rates instanceof Rates) return rates;
    checkLength(rates, "rates");
    const input = Input.of(rates, "rates");
    try {
      return new Rates(token, raw.RawRates.parse(input.text));
    } catch (e) {
      if (typeof e === "string") unwrap(e, input);
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

  /**
   * The same rates with every non-sponsored one taken as ExactOut-capable
   * (ruling 4: the capability is the provider's, and no live rate lists
   * "exactOut" in its features). Every answer of the new `Rates` carries
   * `exactOutAssumed: true`. Free both when done.
   */
  assumeExactOut() {
    const rates = new Rates(token, this.#handle().assume_exact_out());
    rates.#assumed = true;
    return rates;
  }

  /** `true` for rates made by `assumeExactOut()`. */
  get exactOutAssumed() {
    return this.#assumed;
  }

  /** `result` saying the capability was assumed, when it was. */
  #mark(result) {
    if (this.#assumed && result !== null && typeof result === "object") result.exactOutAssumed = true;
    return result;
  }

  #handle() {
    if (this.#raw === undefined) throw invalid("these Rates were freed");
    return this.#raw;
  }

  /** Every rate, ranked or rejected with its reason; `noRoute` when none ranks. */
  select(request) {
    const input = Input.of(request, "request");
    return this.#mark(unwrap(this.#handle().select(input.text), input));
  }

  /** The best route; throws the "no route" error. */
  best(request) {
    const input = Input.of(request, "request");
    const text = this.#handle().best(input.text);
    // The common route (no required input, no campaign) comes as
    // "\u0001" rateId "\u001f" netOutput "\u001f" validUntil (digits, or
    // none for null): the object its JSON would parse to.
    if (text.charCodeAt(0) === 1) {
      const at = text.indexOf("\u001f");
      const end = text.indexOf("\u001f", at + 1);
      const until = text.slice(end + 1);
      return this.#mark({
        rateId: text.slice(1, at),
        netOutput: text.slice(at + 1, end),
        requiredInput: null,
        requiredInputLimits: null,
        sponsoredByCampaignId: null,
        validUntil: until === "" ? null : Number(until),
      });
    }
    return this.#mark(unwrap(text, input));
  }

  /**
   * The best `k` routes, best first (all of them when `k` is larger), and
   * until when they hold (ruling 50): `{routes, validUntil}`; throws the
   * "no route" error.
   */
  top(request, k) {
    const n = count(k, "k");
    const input = Input.of(request, "request");
    return this.#mark(unwrap(this.#handle().top(input.text, n), input));
  }

  /** The ExactOut estimate `{fromAmount, rateId}` for `{toAmount, now}`. */
  estimateExactOut(request) {
    const input = Input.of(request, "request");
    return this.#mark(unwrap(this.#handle().estimate(input.text), input));
  }

  /**
   * The amounts that work (ruling 38) for `{mode?, now, campaigns?, floors?,
   * decimals?, spendable?}`: `{mode, min, max, ranges, maxWithin, bestWithin}`.
   */
  feasible(query) {
    const handle = this.#handle();
    if (typeof handle.feasible !== "function") exported("feasible", "Rates#feasible", "feasible");
    const input = Input.of(query, "request");
    return this.#mark(unwrap(handle.feasible(input.text), input));
  }

  /**
   * The best single route or the exact best split (ruling 39) of an ExactIn
   * `request` under `policy` `{legs?: 2 | 3, perOrderCost?, minGainBps?}`:
   * `{route, split}`, one of them `null`; "no route" throws as `best` does.
   */
  split(request, policy = {}) {
    const handle = this.#handle();
    if (typeof handle.split !== "function") exported("split", "Rates#split", "split");
    const input = Input.of(request, "request");
    const options = Input.of(policy, "policy");
    return this.#mark(unwrap(handle.split(input.text, options.text), input));
  }

  /**
   * Until when `best(request)` holds (ruling 50), or `top(request, k)` when
   * `k` is given: `{validUntil}`, epoch ms or `null` when nothing left can
   * expire (the whole build only).
   */
  validUntil(request, k) {
    const handle = this.#handle();
    if (typeof handle.valid_until !== "function") exported("valid_until", "Rates#validUntil", "lifetime");
    // k = 0 answers as `best` does (`top_valid_until`, and `top(request, 0)`'s validUntil).
    const n = k === undefined ? 0 : count(k, "k");
    const input = Input.of(request, "request");
    return unwrap(handle.valid_until(input.text, n), input);
  }

  /**
   * The best route's successors (ruling 50): `{validUntil, schedule:
   * [{from, until, rateId}]}` from `request.now` until every rate has
   * expired, `rateId` `null` where no route is left (the whole build only).
   */
  schedule(request) {
    const handle = this.#handle();
    if (typeof handle.schedule !== "function") exported("schedule", "Rates#schedule", "lifetime");
    const input = Input.of(request, "request");
    return unwrap(handle.schedule(input.text), input);
  }

  [handleOf]() {
    return this.#handle();
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

/**
 * Runs `f` on `rates` and `request`; a request object with `assumeExactOut:
 * true` runs it on `rates.assumeExactOut()` (ruling 4) without that key.
 */
function withAssumption(rates, request, f) {
  if (request === null || typeof request !== "object" || !("assumeExactOut" in request)) {
    return withRates(rates, (r) => f(r, request));
  }
  const { assumeExactOut, ...rest } = request;
  if (typeof assumeExactOut !== "boolean") {
    throw invalid(`request.assumeExactOut: expected a boolean, got ${describe(assumeExactOut)}`, "assumeExactOut");
  }
  if (!assumeExactOut) return withRates(rates, (r) => f(r, rest));
  return withRates(rates, (r) => {
    const assumed = r.assumeExactOut();
    try {
      return f(assumed, rest);
    } finally {
      assumed.free();
    }
  });
}

/** `Rates.from(rates).select(request)`, freeing the decoded rates after; `request.assumeExactOut` as `Rates#assumeExactOut`. */
export function selectRoutes(rates, request) {
  return withAssumption(rates, request, (r, q) => r.select(q));
}

/** `Rates.from(rates).best(request)`, freeing the decoded rates after; `request.assumeExactOut` as `Rates#assumeExactOut`. */
export function bestRoute(rates, request) {
  return withAssumption(rates, request, (r, q) => r.best(q));
}

/** `Rates.from(rates).top(request, k)` (`{routes, validUntil}`), freeing the decoded rates after; `request.assumeExactOut` as `Rates#assumeExactOut`. */
export function topRoutes(rates, request, k) {
  count(k, "k");
  return withAssumption(rates, request, (r, q) => r.top(q, k));
}

/** `Rates.from(rates).estimateExactOut(request)`, freeing the decoded rates after; `request.assumeExactOut` as `Rates#assumeExactOut`. */
export function estimateExactOut(rates, request) {
  return withAssumption(rates, request, (r, q) => r.estimateExactOut(q));
}

/** `Rates.from(rates).split(request, policy)`, freeing the decoded rates after. */
export function splitRoute(rates, request, policy = {}) {
  if (typeof raw.RawRates.prototype.split !== "function") exported("split", "splitRoute", "split");
  return withRates(rates, (r) => r.split(request, policy));
}

/** `Rates.from(rates).feasible(query)`, freeing the decoded rates after. */
export function feasibleAmounts(rates, query) {
  if (typeof raw.RawRates.prototype.feasible !== "function") exported("feasible", "feasibleAmounts", "feasible");
  return withRates(rates, (r) => r.feasible(query));
}

/**
 * Plans a `POST /v3/orders` body over the pair's `rates` as the service
 * does: the route (strict limits by default, ruling 34), the order's amounts,
 * and the client's slippage (ruling 33). A plan that misses the slippage is
 * a SwaprouteError `SLIPPAGE_EXCEEDED` (409) with `bound` and `available`.
 */
export function planFixedOrder(rates, body, options) {
  const f = exported("plan_fixed_order", "planFixedOrder", "orders");
  const input = Input.of(body, "body");
  const opts = Input.of(options, "options");
  return withRates(rates, (r) => unwrap(f(r[handleOf](), input.text, opts.text), input, opts));
}

/**
 * Checks the order the service returned against the plan of `body` over
 * `rates` with `options` (ruling 40): `{ok, mismatches}`, every mismatch
 * `{field, check, planned, returned}`. `options` are `planFixedOrder`'s
 * and `read`: `"created"` (default) or `"fetched"`.
 */
export function verifyOrder(rates, body, order, options) {
  const f = exported("verify_fixed_order", "verifyOrder", "orders");
  const input = Input.of(body, "body");
  const returned = Input.of(order, "order");
  const opts = Input.of(options, "options");
  return withRates(rates, (r) => unwrap(f(r[handleOf](), input.text, returned.text, opts.text), input, returned, opts));
}

/**
 * Re-plans `body` over fresh `rates` at `options.now` and classifies the
 * fresh promise against the ORIGINAL `plan` (what `planFixedOrder`
 * returned: its `toAmount` in ExactIn, its `amount` in ExactOut) and the
 * body's slippage bound (ruling 50): `{class, promised, fresh, lossBps,
 * reason}`. Re-quote against the first plan every time, never the last
 * re-quote.
 */
export function requoteFixedOrder(rates, body, plan, options) {
  const f = exported("requote_fixed_order", "requoteFixedOrder", "lifetime");
  const input = Input.of(body, "body");
  const original = Input.of(plan, "plan");
  const opts = Input.of(options, "options");
  return withRates(rates, (r) => unwrap(f(r[handleOf](), input.text, original.text, opts.text), input, original, opts));
}

/**
 * Plans `body` at `options.now` and classifies a deposit `{amount,
 * observedAt}` before the provider reports (ruling 50): `{class,
 * expectedOutput, limit, expiry}`.
 */
export function depositOutcome(rates, body, deposit, options) {
  const f = exported("deposit_outcome", "depositOutcome", "lifetime");
  const input = Input.of(body, "body");
  const observed = Input.of(deposit, "deposit");
  const opts = Input.of(options, "options");
  return withRates(rates, (r) => unwrap(f(r[handleOf](), input.text, observed.text, opts.text), input, observed, opts));
}

/** A fresh promise against an original one, without rates: `{mode, promised, bound, fresh}` (ruling 50). */
export function classifyRequote(input) {
  const f = exported("classify_requote", "classifyRequote", "lifetime");
  const text = Input.of(input, "input");
  return unwrap(f(text.text), text);
}

/** `verifyOrder` for a floating order planned from `quote`; `options` are `{now, read?}`. */
export function verifyFloatOrder(quote, body, order, options) {
  const f = exported("verify_float_order", "verifyFloatOrder", "orders");
  const q = Input.of(quote, "quote");
  const input = Input.of(body, "body");
  const returned = Input.of(order, "order");
  const opts = Input.of(options, "options");
  return unwrap(f(q.text, input.text, returned.text, opts.text), q, input, returned, opts);
}

/** The responses as one JSON array: each an array of rates or its JSON text. */
function responsesInput(responses) {
  if (typeof responses === "string") return new Input("responses", responses, null);
  if (!Array.isArray(responses)) {
    throw invalid(`responses: expected an array of rates responses, got ${describe(responses)}`, "responses");
  }
  responses.forEach((r, i) => checkLength(r, `responses[${i}]`));
  const pieces = responses.map((r, i) => (typeof r === "string" ? r : Input.of(r, "responses", `responses[${i}]`).text));
  return new Input("responses", `[${pieces.join(",")}]`, (w) => {
    w.emit("[");
    responses.forEach((r, i) => {
      if (i > 0) w.emit(",");
      if (typeof r === "string") w.raw(r, `responses[${i}]`);
      else w.value(r, `responses[${i}]`, 1);
    });
    w.emit("]");
  });
}

/** Chained routes (1 to 3 legs): the best `k` chains (all when `k` is larger) and rejections, with counts. */
export function selectChains(responses, request, k = 10) {
  const f = exported("select_chains", "selectChains", "chains");
  const n = count(k, "k");
  const [list, input] = [responsesInput(responses), Input.of(request, "request")];
  return unwrap(f(list.text, input.text, n), list, input);
}

/** The best chained route; throws the "no route" error. */
export function bestChain(responses, request) {
  const f = exported("best_chain", "bestChain", "chains");
  const [list, input] = [responsesInput(responses), Input.of(request, "request")];
  return unwrap(f(list.text, input.text), list, input);
}

/** A `POST /v3/orders` body (an object, or the request's exact text). */
export function validateFixedOrder(body) {
  const f = exported("validate_fixed_order", "validateFixedOrder", "orders");
  const input = Input.of(body, "body");
  return unwrap(f(input.text), input);
}

/** A `POST /v3/orders/float` body (an object, or the request's exact text). */
export function validateFloatOrder(body) {
  const f = exported("validate_float_order", "validateFloatOrder", "orders");
  const input = Input.of(body, "body");
  return unwrap(f(input.text), input);
}

/** Screens an address: `{address, canonical, encoding}`. */
export function screenAddress(address, options = {}) {
  const f = exported("screen_address", "screenAddress", "screening");
  if (typeof address !== "string") throw invalid(`address: expected a string, got ${describe(address)}`, "address");
  const input = Input.of(options, "options");
  return unwrap(f(address, input.text), input);
}

/**
 * Folds provider observations into the tracked status: `{status,
 * definitive}`. `current` is `{status, depositDetected?}` or an earlier
 * answer of this function.
 */
export function reconcileStatus(current, observations) {
  const f = exported("reconcile_status", "reconcileStatus", "orders");
  if (current === undefined) throw invalid("current: missing", "current");
  if (observations === undefined) throw invalid("observations: missing", "observations");
  const input = Input.built("reconcile", (w) => w.value({ current, observations }, "", 0));
  return unwrap(f(input.text), input);
}

/** A `Forwarded` header value: `{elements, client, screening}`. */
export function parseForwarded(value) {
  const f = exported("parse_forwarded", "parseForwarded", "client");
  return unwrap(f(text(value, "value")));
}

/** A header's values from a record: `undefined`/`null` (and such items) are no value. */
function headerValues(name, value) {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => {
      if (item === undefined || item === null) return [];
      if (typeof item === "string") return [item];
      throw invalid(`${member("headers", name)}[${i}]: expected a string, got ${describe(item)}`, "headers");
    });
  }
  throw invalid(`${member("headers", name)}: expected a string or an array of strings, got ${describe(value)}`, "headers");
}

/**
 * The client headers of a request: a `Headers` object, any iterable of
 * `[name, value]` pairs, or a plain object of names to values (Node's
 * `req.headers`: a string, an array of strings, or `undefined` for none).
 */
export function clientHeaders(headers, integration = "direct") {
  const f = exported("client_headers", "clientHeaders", "client");
  let pairs;
  if (headers != null && typeof headers[Symbol.iterator] === "function" && typeof headers !== "string") {
    pairs = Array.from(headers, (pair, i) => {
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string" || typeof pair[1] !== "string") {
        throw invalid(`headers[${i}]: expected a [name, value] pair of strings, got ${describe(pair)}`, "headers");
      }
      return pair;
    });
  } else if (headers != null && typeof headers === "object") {
    pairs = Object.keys(headers).flatMap((name) => headerValues(name, headers[name]).map((v) => [name, v]));
  } else {
    throw invalid(`headers: expected Headers, [name, value] pairs or an object, got ${describe(headers)}`, "headers");
  }
  if (typeof integration !== "string") {
    throw invalid(`integration: expected "direct" or "proxying", got ${describe(integration)}`, "integration");
  }
  return unwrap(f(JSON.stringify({ headers: pairs, integration })));
}

function text(value, what) {
  if (typeof value !== "string") throw invalid(`${what}: expected a string, got ${describe(value)}`, what);
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
  const f = exported("parse_chain_id", "parseChainId", "caip");
  return unwrap(f(text(value, "chainId")));
}

/** A CAIP-19 asset type: `{namespace, reference, assetNamespace, assetReference}`. */
export function parseAssetType(value) {
  const f = exported("parse_asset_type", "parseAssetType", "caip");
  return unwrap(f(text(value, "assetType")));
}

/** A CAIP-19 asset id: an asset type and its `tokenId`. */
export function parseAssetId(value) {
  const f = exported("parse_asset_id", "parseAssetId", "caip");
  return unwrap(f(text(value, "assetId")));
}
