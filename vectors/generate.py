#!/usr/bin/env python3
"""Writes the golden conformance vectors of vectors/*.json.

Nothing here runs the crate. Every expected value comes from docs/RULES.md:
the route engine's numbers from an independent model of rulings 2-10, 23, 24
and 30 below (exact arithmetic with `fractions.Fraction` and `decimal`), the JSON
number decodings from Python's correctly rounded `float()` and shortest
round-trip `repr()`, and everything else written out by hand in the case
tables. Each route case also states, by hand, what it is meant to show (which
rates or chains rank in which order, which reason rejects which rate, which
error), and the generator stops if the model disagrees with that statement.

    python3 vectors/generate.py        # rewrites vectors/*.json
"""

import json
import os
import re
from decimal import Decimal as D, getcontext
from fractions import Fraction
import math
from math import ceil

getcontext().prec = 120

HERE = os.path.dirname(os.path.abspath(__file__))

NOW = 1700000000000
LATER = NOW + 60000
MAX_DECIMAL = Fraction(2**96 - 1)  # the largest magnitude a result may have

# --------------------------------------------------------------------------
# JSON output with exact number texts

_NUM = "\u0000NUM:"


class Num:
    """A JSON number written with exactly this text."""

    def __init__(self, text):
        self.text = text


def _prepare(value):
    if isinstance(value, Num):
        return _NUM + value.text
    if isinstance(value, dict):
        return {k: _prepare(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_prepare(v) for v in value]
    return value


def plain(d):
    """A Decimal as plain text without exponent or insignificant zeros."""
    d = D(d)
    if d == 0:
        return "0"
    text = format(d.normalize(), "f")
    return text


def is_shortest_double(text):
    """True when `text` is the shortest round-trip text of its double, so a
    double-based JSON decoder and an exact one read the same decimal."""
    try:
        return D(repr(float(text))) == D(text) and abs(D(text)) < D("1e16")
    except (ValueError, OverflowError):
        return False


def wire_value(text):
    """A rate value on the wire: a JSON number when every decoder agrees on
    it, else a decimal string (rule 1 accepts both)."""
    return Num(text) if is_shortest_double(text) else text


# --------------------------------------------------------------------------
# Rates


class Rate:
    def __init__(self, id, mult, fee, mn, mx, expiry=LATER, exact_out=False,
                 sponsor=None, pair="BTC_ETH", assets=None, features=None):
        self.id = id
        self.mult, self.fee, self.min, self.max = mult, fee, mn, mx
        self.expiry = expiry
        self.sponsor = sponsor
        self.pair = pair
        frm, to = pair.split("_")
        # Asset of amount, minerFee, min, max (ruling 18).
        self.assets = dict(amount=to, minerFee=to, min=frm, max=frm)
        self.assets.update(assets or {})
        if features is None:
            features = ["exactOut"] if exact_out else None
        self.features = features

    def wire(self):
        out = {
            "amount": {"assetId": self.assets["amount"], "value": wire_value(self.mult)},
            "expiry": self.expiry,
            "id": self.id,
            "max": {"assetId": self.assets["max"], "value": wire_value(self.max)},
            "min": {"assetId": self.assets["min"], "value": wire_value(self.min)},
            "minerFee": {"assetId": self.assets["minerFee"], "value": wire_value(self.fee)},
            "pairId": self.pair,
        }
        if self.features is not None:
            out["features"] = self.features
        if self.sponsor is not None:
            out["sponsoredByCampaignId"] = self.sponsor
        return out

    # exact values
    def m(self):
        return Fraction(D(self.mult))

    def f(self):
        return Fraction(D(self.fee))

    def lo(self):
        return Fraction(D(self.min))

    def hi(self):
        return Fraction(D(self.max))

    def exact_out(self):
        return self.features is not None and "exactOut" in self.features


def frac_text(x):
    """A terminating Fraction as plain decimal text."""
    assert x.denominator & (x.denominator - 1) == 0 or all(
        p in (2, 5) for p in _factors(x.denominator)), x
    return plain(D(x.numerator) / D(x.denominator))


def _factors(n):
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    if n > 1:
        out.append(n)
    return out


def ceil8(x):
    """Rounded up to 8 decimal places (ruling 8)."""
    return Fraction(ceil(x * 10**8), 10**8)


def text8(x):
    """A value with 8 decimal places, written with all 8 (ruling 8)."""
    units = int(x * 10**8)
    assert Fraction(units, 10**8) == x
    sign = "-" if units < 0 else ""
    units = abs(units)
    return f"{sign}{units // 10**8}.{units % 10**8:08d}"


def defect(rate):
    """Rulings 2 and 18: the first broken rule, or None."""
    frm, to = rate.pair.split("_")
    for field, need in (("amount", to), ("minerFee", to), ("min", frm), ("max", frm)):
        if rate.assets[field] != need:
            return f"{field} names {rate.assets[field]}, pair needs {need}"
    if rate.m() <= 0:
        return "multiplier <= 0"
    if rate.f() < 0:
        return "fee < 0"
    if rate.lo() < 0:
        return "min < 0"
    if rate.lo() > rate.hi():
        return "min > max"
    return None


def places(x):
    """Decimal places of a terminating Fraction."""
    n = 0
    while (x * 10**n).denominator != 1:
        n += 1
        assert n <= 60, x
    return n


def fits(x):
    """A result fits the decimal type: at most 28 places (no case here needs
    more; a wider exact value would be rounded, which the vectors avoid) and a
    mantissa of at most 2^96 - 1 at those places."""
    n = places(x)
    assert n <= 28, ("a result needs more than 28 places", x)
    return abs(x) * 10**n <= MAX_DECIMAL


def floor28(x):
    """Ruling 43: a net output as the decimal type reports it: exact when it
    fits (at most 28 places, a mantissa of at most 2^96 - 1), else its floor
    (toward minus infinity) at the most places, at most 28, whose mantissa
    fits; None when not even the floor at 0 places fits (an overflow)."""
    for n in range(min(places(x), 28), -1, -1):
        units = math.floor(x * 10**n)
        if abs(units) <= MAX_DECIMAL:
            return Fraction(units, 10**n)
    return None


def fits8(x):
    """A required input written with all 8 places fits the decimal type:
    its value times 10^8 is at most 2^96 - 1 (so at most 20 integer digits)."""
    return abs(x) * 10**8 <= MAX_DECIMAL


def effective_max(rate, campaigns):
    """Ruling 3."""
    if rate.sponsor is not None and rate.sponsor in campaigns:
        return min(rate.hi(), Fraction(D(campaigns[rate.sponsor])))
    return rate.hi()


def required_input(rate, to):
    """Ruling 6/8: (toAmount + minerFee) / multiplier, rounded up to 8 places."""
    return ceil8((to + rate.f()) / rate.m())


def check(rate, req):
    """Ruling 5 (with 18, 23, 30): ('ok', net, effmax) or (code, limit)."""
    mode, amount, now = req["mode"], req["from"], req["now"]
    if defect(rate):
        return ("INVALID_RATE", None)
    if rate.expiry <= now:
        return ("EXPIRED", None)
    if mode == "ExactOut":
        if not rate.exact_out():
            return ("EXACT_OUT_UNSUPPORTED", None)
        if rate.sponsor is not None:
            return ("SPONSORED_IN_EXACT_OUT", None)
    emax = effective_max(rate, req["campaigns"])
    if emax < rate.lo():
        return ("CAMPAIGN_LIMIT_BELOW_MIN", rate.lo())
    if amount < rate.lo():
        return ("BELOW_MIN", rate.lo())
    if amount > emax:
        return ("ABOVE_MAX", emax)
    product = amount * rate.m()
    net = product - rate.f()
    # Ruling 35: the exact net output must fit (ruling 43: its floor where
    # it has more than 28 places); the product alone may not.
    if floor28(net) is None:
        return ("OVERFLOW", None)
    required = None
    if mode == "ExactOut":
        required = required_input(rate, req["to"])
        # Ruling 35: the exact required input must fit 8 places; the sum
        # toAmount + minerFee alone may not.
        if not fits8(required):
            return ("OVERFLOW", None)
    if net <= 0:
        return ("NO_OUTPUT", None)
    if mode == "ExactOut" and req["strict"]:
        if required < rate.lo():
            return ("REQUIRED_INPUT_BELOW_MIN", rate.lo())
        if required > emax:
            return ("REQUIRED_INPUT_ABOVE_MAX", emax)
    return ("ok", net, emax, required)


def rank_key(rate, net):
    """Rulings 6 and 7: higher net, lower fee, base before sponsored, id by bytes."""
    return (-net, rate.f(), 0 if rate.sponsor is None else 1, rate.id.encode("utf-8"))


STATUS = {
    "INSUFFICIENT_LIQUIDITY": 503,
    "RATE_EXPIRED": 410,
    "UNSUPPORTED_SWAP_MODE": 400,
    "AMOUNT_BELOW_LIMIT": 400,
    "AMOUNT_ABOVE_LIMIT": 400,
    "INVALID_REQUEST": 400,
    "INVALID_AMOUNT": 400,
    "INVALID_ADDRESS": 400,
    "UNAUTHORIZED": 401,
    "ROUTE_UNAVAILABLE": 422,
}


def api_error(code, mn=None, mx=None):
    out = {"status": STATUS[code], "code": code}
    if mn is not None:
        out["min"] = frac_text(mn)
    if mx is not None:
        out["max"] = frac_text(mx)
    return out


def classify(results, amount):
    """Ruling 10 (with 23 and 30): the error when nothing is ranked."""
    codes = [r[0] for r in results]
    total = len(codes)
    if total == 0:
        return api_error("INSUFFICIENT_LIQUIDITY")
    valid = [c for c in codes if c != "INVALID_RATE"]
    if not valid:
        return api_error("INSUFFICIENT_LIQUIDITY")
    live = [c for c in valid if c != "EXPIRED"]
    if not live:
        return api_error("RATE_EXPIRED")
    usable = [r for r in results if r[0] not in ("INVALID_RATE", "EXPIRED",
                                                 "EXACT_OUT_UNSUPPORTED",
                                                 "SPONSORED_IN_EXACT_OUT")]
    if not usable:
        return api_error("UNSUPPORTED_SWAP_MODE")
    # A rate that accepted the amount but whose arithmetic cannot be held:
    # the amount is too large, the client's error (rulings 35 and 36).
    if any(r[0] == "OVERFLOW" for r in usable):
        return api_error("INVALID_AMOUNT")
    # A rate that accepted the amount but yields nothing.
    if any(r[0] in ("NO_OUTPUT", "ok") for r in usable):
        return api_error("INSUFFICIENT_LIQUIDITY")
    mins = [r[1] for r in usable if r[0] in ("BELOW_MIN", "REQUIRED_INPUT_BELOW_MIN")]
    maxs = [r[1] for r in usable if r[0] in ("ABOVE_MAX", "REQUIRED_INPUT_ABOVE_MAX")]
    if mins and maxs:
        min_above, max_below = min(mins), max(maxs)
        nearer_max = (amount - max_below) <= (min_above - amount)
        code = "AMOUNT_ABOVE_LIMIT" if nearer_max else "AMOUNT_BELOW_LIMIT"
        return api_error(code, mn=min_above, mx=max_below)
    if mins:
        return api_error("AMOUNT_BELOW_LIMIT", mn=min(mins))
    if maxs:
        return api_error("AMOUNT_ABOVE_LIMIT", mx=max(maxs))
    # Only sponsored variants whose campaign limit is below their min (ruling 30).
    return api_error("INSUFFICIENT_LIQUIDITY")


def limit_check(required, rate, emax):
    if required < rate.lo():
        return {"status": "belowMin", "limit": frac_text(rate.lo())}
    if required > emax:
        return {"status": "aboveMax", "limit": frac_text(emax)}
    return {"status": "within"}


def model_select(rates, req):
    results = [check(r, req) for r in rates]
    ranked = sorted(
        [(r, res) for r, res in zip(rates, results) if res[0] == "ok"],
        key=lambda p: rank_key(p[0], p[1][1]))
    routes = []
    for rate, (_, net, emax, required) in ranked:
        # Ruling 43: ranked by the exact net, reported as its floor at 28 places.
        route = {"rateId": rate.id, "netOutput": frac_text(floor28(net))}
        if required is None:
            route["requiredInput"] = None
            route["requiredInputLimits"] = None
        else:
            route["requiredInput"] = text8(required)
            route["requiredInputLimits"] = limit_check(required, rate, emax)
        routes.append(route)
    rejected = []
    for rate, res in zip(rates, results):
        if res[0] != "ok":
            rejected.append({"rateId": rate.id, "reason": res[0],
                             "limit": None if res[1] is None else frac_text(res[1])})
    error = None if routes else classify(results, req["from"])
    return {"routes": routes, "rejected": rejected, "error": error}


def select_case(name, rules, rates, mode="ExactIn", from_amount=None, to_amount=None,
                now=NOW, campaigns=None, strict=False, ids=None, rej=None, err=None,
                note=None):
    """A `select` case; `ids`, `rej` and `err` state the intended outcome by
    hand (ranked ids, {rateId: reason}, error code) and are checked against
    the model."""
    campaigns = campaigns or {}
    req = {"mode": mode, "from": Fraction(D(from_amount)),
           "to": None if to_amount is None else Fraction(D(to_amount)),
           "now": now, "campaigns": campaigns, "strict": strict}
    expect = model_select(rates, req)
    got_ids = [r["rateId"] for r in expect["routes"]]
    got_rej = {r["rateId"]: r["reason"] for r in expect["rejected"]}
    if ids is not None:
        assert got_ids == ids, (name, got_ids, ids)
    assert got_rej == (rej or {}), (name, got_rej, rej)
    got_err = None if expect["error"] is None else expect["error"]["code"]
    assert got_err == err, (name, got_err, err)
    inp = {"mode": mode, "fromAmount": from_amount}
    if to_amount is not None:
        inp["toAmount"] = to_amount
    inp["now"] = now
    if campaigns:
        inp["campaigns"] = campaigns
    if strict:
        inp["limitPolicy"] = "strict"
    inp["rates"] = [r.wire() for r in rates]
    case = {"name": name, "rules": rules, "input": inp, "expect": expect}
    if note:
        case["note"] = note
    return case


def model_estimate(rates, to):
    """Ruling 8: the smallest required input within its own rate's limits;
    ties by the ranking order at that amount (net, fee, id)."""
    best = None
    results = []
    for rate in rates:
        if defect(rate):
            results.append(("INVALID_RATE", None))
            continue
        if rate.expiry <= NOW:
            results.append(("EXPIRED", None))
            continue
        if not rate.exact_out():
            results.append(("EXACT_OUT_UNSUPPORTED", None))
            continue
        if rate.sponsor is not None:
            results.append(("SPONSORED_IN_EXACT_OUT", None))
            continue
        x = required_input(rate, to)
        if not fits8(x):
            results.append(("OVERFLOW", None))
            continue
        if x < rate.lo():
            results.append(("BELOW_MIN", rate.lo()))
            continue
        if x > rate.hi():
            results.append(("ABOVE_MAX", rate.hi()))
            continue
        net = x * rate.m() - rate.f()
        assert net > 0
        results.append(("ok", None))
        key = (x, -net, rate.f(), rate.id.encode("utf-8"))
        if best is None or key < best[0]:
            best = (key, x, rate)
    if best is None:
        return None, results
    return (best[1], best[2]), results


def estimate_case(name, rules, rates, to_amount, want=None, err=None, note=None,
                  ranked_want=None):
    to = Fraction(D(to_amount))
    found, results = model_estimate(rates, to)
    if found is None:
        assert want is None, name
        # The amount is each rate's own required input; cases keep away from
        # gaps, where the amount the code is chosen by would matter.
        error = classify(results, None)
        assert error["code"] == err, (name, error, err)
        expect = {"error": error}
    else:
        x, rate = found
        assert rate.id == want and err is None, (name, rate.id, want)
        expect = {"estimate": {"fromAmount": text8(x), "rateId": rate.id}}
        sel = model_select(rates, {"mode": "ExactOut", "from": x, "to": to, "now": NOW,
                                   "campaigns": {}, "strict": False})
        top = sel["routes"][0]
        assert top["rateId"] == (ranked_want or want), (name, top, ranked_want)
        expect["rankedAtEstimate"] = {"rateId": top["rateId"],
                                      "requiredInput": top["requiredInput"]}
        # Ruling 8 as amended: under the strict policy of ruling 23, ranking
        # at the estimate always chooses the estimate's rate.
        strict = model_select(rates, {"mode": "ExactOut", "from": x, "to": to, "now": NOW,
                                      "campaigns": {}, "strict": True})
        top = strict["routes"][0]
        assert top["rateId"] == want, (name, top, want)
        expect["rankedAtEstimateStrict"] = {"rateId": top["rateId"],
                                            "requiredInput": top["requiredInput"]}
    case = {"name": name, "rules": rules,
            "input": {"toAmount": to_amount, "now": NOW, "rates": [r.wire() for r in rates]},
            "expect": expect}
    if note:
        case["note"] = note
    return case


def compact(value):
    text = json.dumps(_prepare(value), ensure_ascii=False, separators=(", ", ": "))
    return re.sub(r'"\\u0000NUM:([^"]*)"', r"\1", text)


def write(name, kind, cases):
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]
    lines = []
    for case in cases:
        parts = [f'"{key}": {compact(value)}' for key, value in case.items()]
        lines.append("    {" + ",\n     ".join(parts) + "}")
    text = '{"kind": ' + json.dumps(kind) + ',\n "cases": [\n' + ",\n".join(lines) + "\n ]}\n"
    json.loads(text)  # well-formed
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as out:
        out.write(text)
    return len(cases)


# --------------------------------------------------------------------------
# eligibility.json, no_route.json, sponsored.json, ranking.json, exact_out.json


def base(id="a", **kw):
    """33.1 ETH per BTC less 0.0002 ETH, limits [0.001, 8] BTC."""
    return Rate(id, kw.pop("mult", "33.1"), kw.pop("fee", "0.0002"),
                kw.pop("mn", "0.001"), kw.pop("mx", "8"), **kw)


BIG = "79228162514264337593543950335"  # 2^96 - 1


def eligibility_cases():
    S = select_case
    c = []
    # Limits, inclusive at both ends (ruling 5).
    c.append(S("amount at min is accepted", [5, 6], [base()], from_amount="0.001", ids=["a"],
               note="net = 0.001 x 33.1 - 0.0002 = 0.0329"))
    c.append(S("amount at max is accepted", [5, 6], [base()], from_amount="8", ids=["a"],
               note="net = 8 x 33.1 - 0.0002 = 264.7998"))
    c.append(S("one unit below min is BELOW_MIN", [5, 10], [base()], from_amount="0.00099999",
               ids=[], rej={"a": "BELOW_MIN"}, err="AMOUNT_BELOW_LIMIT"))
    c.append(S("one unit above max is ABOVE_MAX", [5, 10], [base()], from_amount="8.00000001",
               ids=[], rej={"a": "ABOVE_MAX"}, err="AMOUNT_ABOVE_LIMIT"))
    c.append(S("min equal to max accepts exactly that amount", [2, 5],
               [base(mn="0.5", mx="0.5", fee="0")], from_amount="0.5", ids=["a"]))
    c.append(S("limits are on fromAmount, not toAmount, in ExactIn", [5],
               [base()], from_amount="0.5", to_amount="1000000", ids=["a"],
               note="an ExactIn toAmount is the client's estimate and never affects the selection"))
    # Expiry.
    c.append(S("expiry equal to now is EXPIRED", [5, 10], [base(expiry=NOW)],
               from_amount="0.5", ids=[], rej={"a": "EXPIRED"}, err="RATE_EXPIRED"))
    c.append(S("expiry one millisecond after now is live", [5], [base(expiry=NOW + 1)],
               from_amount="0.5", ids=["a"]))
    c.append(S("expiry before now is EXPIRED", [5], [base(expiry=NOW - 1), base("b")],
               from_amount="0.5", ids=["b"], rej={"a": "EXPIRED"}))
    # Invalid rates (rulings 2 and 18); the others stay usable.
    for label, kw in [
        ("zero multiplier", dict(mult="0")),
        ("negative multiplier", dict(mult="-33.1")),
        ("negative miner fee", dict(fee="-0.0002")),
        ("negative min", dict(mn="-0.001")),
        ("min above max", dict(mn="8.00000001")),
        ("amount naming another asset", dict(assets={"amount": "DOGE"})),
        ("minerFee naming the from asset", dict(assets={"minerFee": "BTC"})),
        ("min naming the to asset", dict(assets={"min": "ETH"})),
        ("max naming another asset", dict(assets={"max": "XMR"})),
    ]:
        c.append(S(f"INVALID_RATE: {label}; the other rate is ranked", [2, 5, 18],
                   [base("bad", **kw), base("good")], from_amount="0.5", ids=["good"],
                   rej={"bad": "INVALID_RATE"}))
    c.append(S("zero miner fee and zero min are valid", [2], [base(fee="0", mn="0")],
               from_amount="0.5", ids=["a"]))
    # Swap-mode exclusions (rulings 3, 4).
    c.append(S("ExactOut without features is EXACT_OUT_UNSUPPORTED", [4, 5, 10], [base()],
               mode="ExactOut", from_amount="0.5", to_amount="16", ids=[],
               rej={"a": "EXACT_OUT_UNSUPPORTED"}, err="UNSUPPORTED_SWAP_MODE"))
    c.append(S("ExactOut with empty features is EXACT_OUT_UNSUPPORTED", [4, 5],
               [base(features=[]), base("b", exact_out=True)], mode="ExactOut",
               from_amount="0.5", to_amount="16", ids=["b"], rej={"a": "EXACT_OUT_UNSUPPORTED"}))
    c.append(S("ExactOut with only an unknown feature is EXACT_OUT_UNSUPPORTED", [4, 5],
               [base(features=["streaming"]), base("b", features=["streaming", "exactOut"])],
               mode="ExactOut", from_amount="0.5", to_amount="16", ids=["b"],
               rej={"a": "EXACT_OUT_UNSUPPORTED"}))
    c.append(S("ExactIn ignores the ExactOut capability", [4, 5], [base(), base("b", exact_out=True)],
               from_amount="0.5", ids=["a", "b"]))
    c.append(S("sponsored variant in ExactOut is SPONSORED_IN_EXACT_OUT", [3, 5],
               [base("v", fee="0", exact_out=True, sponsor="spring"), base("b", exact_out=True)],
               mode="ExactOut", from_amount="0.5", to_amount="16", ids=["b"],
               rej={"v": "SPONSORED_IN_EXACT_OUT"},
               note="the variant would pay more (no fee) but is never selected in ExactOut"))
    # Campaign limit below min (ruling 30).
    c.append(S("campaign limit below min is CAMPAIGN_LIMIT_BELOW_MIN", [3, 5, 30],
               [base("v", mn="0.01", sponsor="spring"), base("b")], from_amount="0.005",
               campaigns={"spring": "0.009"}, ids=["b"], rej={"v": "CAMPAIGN_LIMIT_BELOW_MIN"},
               note="the limit reported is the rate's min"))
    # Overflow and no output.
    c.append(S("product beyond the decimal range is OVERFLOW", [1, 5, 10, 35, 36],
               [Rate("big", "2", "0", "1", BIG)], from_amount="40000000000000000000000000000",
               ids=[], rej={"big": "OVERFLOW"}, err="INVALID_AMOUNT",
               note="4e28 x 2 = 8e28 > 2^96 - 1 = 79228162514264337593543950335"))
    c.append(S("largest amount that fits is not an overflow", [1, 5],
               [Rate("big", "1", "0", "1", BIG)], from_amount=BIG, ids=["big"]))
    c.append(S("negative net output is NO_OUTPUT", [5, 6, 10],
               [base(mult="0.1")], from_amount="0.001", ids=[], rej={"a": "NO_OUTPUT"},
               err="INSUFFICIENT_LIQUIDITY", note="0.001 x 0.1 - 0.0002 = -0.0001"))
    c.append(S("zero net output is NO_OUTPUT", [5, 6],
               [base(mult="0.1"), base("b")], from_amount="0.002", ids=["b"],
               rej={"a": "NO_OUTPUT"}, note="0.002 x 0.1 - 0.0002 = 0"))
    c.append(S("smallest positive net output is accepted", [5, 6],
               [base(mult="0.1", fee="0.00019999")], from_amount="0.002", ids=["a"],
               note="0.002 x 0.1 - 0.00019999 = 0.00000001"))
    # Precedence: the first failure in ruling 5's order is reported.
    c.append(S("precedence: INVALID_RATE before EXPIRED", [5],
               [base("x", mult="0", expiry=NOW), base("b")], from_amount="0.5",
               ids=["b"], rej={"x": "INVALID_RATE"}))
    c.append(S("precedence: INVALID_RATE before BELOW_MIN", [5],
               [base("x", mn="9"), base("b")], from_amount="0.0001",
               ids=[], rej={"x": "INVALID_RATE", "b": "BELOW_MIN"}, err="AMOUNT_BELOW_LIMIT"))
    c.append(S("precedence: EXPIRED before EXACT_OUT_UNSUPPORTED", [5],
               [base("x", expiry=NOW), base("b", exact_out=True)], mode="ExactOut",
               from_amount="0.5", to_amount="16", ids=["b"], rej={"x": "EXPIRED"}))
    c.append(S("precedence: EXPIRED before BELOW_MIN", [5],
               [base("x", expiry=NOW - 5), base("b", mn="0.0001")], from_amount="0.0005",
               ids=["b"], rej={"x": "EXPIRED"}))
    c.append(S("precedence: EXACT_OUT_UNSUPPORTED before SPONSORED_IN_EXACT_OUT", [5],
               [base("x", sponsor="spring"), base("b", exact_out=True)], mode="ExactOut",
               from_amount="0.5", to_amount="16", ids=["b"], rej={"x": "EXACT_OUT_UNSUPPORTED"}))
    c.append(S("precedence: EXACT_OUT_UNSUPPORTED before BELOW_MIN", [5],
               [base("x"), base("b", exact_out=True, mn="0.0001")], mode="ExactOut",
               from_amount="0.0005", to_amount="0.01", ids=["b"],
               rej={"x": "EXACT_OUT_UNSUPPORTED"}))
    c.append(S("precedence: SPONSORED_IN_EXACT_OUT before BELOW_MIN and the campaign limit", [5, 30],
               [base("x", exact_out=True, sponsor="spring"), base("b", exact_out=True, mn="0.0001")],
               mode="ExactOut", from_amount="0.0005", to_amount="0.01",
               campaigns={"spring": "0.0001"}, ids=["b"], rej={"x": "SPONSORED_IN_EXACT_OUT"}))
    c.append(S("precedence: CAMPAIGN_LIMIT_BELOW_MIN before BELOW_MIN", [5, 30],
               [base("x", mn="0.01", sponsor="spring"), base("b", mn="0.0001")],
               from_amount="0.0005", campaigns={"spring": "0.005"}, ids=["b"],
               rej={"x": "CAMPAIGN_LIMIT_BELOW_MIN"}))
    c.append(S("precedence: CAMPAIGN_LIMIT_BELOW_MIN before ABOVE_MAX", [5, 30],
               [base("x", mn="0.01", sponsor="spring"), base("b")],
               from_amount="0.5", campaigns={"spring": "0.005"}, ids=["b"],
               rej={"x": "CAMPAIGN_LIMIT_BELOW_MIN"}))
    c.append(S("precedence: BELOW_MIN before NO_OUTPUT", [5],
               [base("x", mult="0.0001"), base("b", mn="0.0001")], from_amount="0.0005",
               ids=["b"], rej={"x": "BELOW_MIN"},
               note="x would also yield 0.0005 x 0.0001 - 0.0002 < 0"))
    c.append(S("precedence: ABOVE_MAX before OVERFLOW", [5],
               [Rate("x", "2", "0", "1", "10"), Rate("b", "1", "0", "1", BIG)],
               from_amount="40000000000000000000000000000", ids=["b"], rej={"x": "ABOVE_MAX"}))
    c.append(S("precedence: OVERFLOW before NO_OUTPUT (ExactOut required input)", [5, 6],
               [Rate("x", "0.5", "1", "0", "10", exact_out=True),
                Rate("b", "10000000000000000000000", "0", "0", "10", exact_out=True)],
               mode="ExactOut", from_amount="1", to_amount="50000000000000000000000000000",
               ids=["b"], rej={"x": "OVERFLOW"},
               note="x: net 1 x 0.5 - 1 <= 0, and its required input (5e28 + 1) / 0.5 > 2^96 - 1"))
    c.append(S("ExactOut required input beyond the range is OVERFLOW", [5, 6, 10],
               [Rate("x", "0.5", "0", "0", "10", exact_out=True)],
               mode="ExactOut", from_amount="10", to_amount="50000000000000000000000000000",
               ids=[], rej={"x": "OVERFLOW"}, err="INVALID_AMOUNT",
               note="net 10 x 0.5 = 5 > 0, but the required input 1e29 does not fit: "
                    "toAmount is too large (rulings 35, 36)"))
    c.append(S("ExactOut required input that cannot be written with 8 places is OVERFLOW", [5, 8],
               [Rate("x", "1", "0", "0", "10", exact_out=True),
                Rate("b", "1000000", "0", "0", "10", exact_out=True)],
               mode="ExactOut", from_amount="1", to_amount="1000000000000000000000",
               ids=["b"], rej={"x": "OVERFLOW"},
               note="x needs 1e21, and 1000000000000000000000.00000000 x 10^8 = 1e29 > 2^96 - 1; "
                    "b needs 1e15, which fits"))
    c.append(S("precedence: NO_OUTPUT before REQUIRED_INPUT_BELOW_MIN (strict)", [5, 23],
               [Rate("x", "0.1", "0.5", "1", "10", exact_out=True),
                Rate("b", "1", "0", "0", "10", exact_out=True)],
               mode="ExactOut", from_amount="1", to_amount="0.01", strict=True,
               ids=["b"], rej={"x": "NO_OUTPUT"},
               note="x: net 1 x 0.1 - 0.5 < 0; required input (0.01 + 0.5) / 0.1 = 5.1 is within anyway"))
    c.append(S("rejections keep input order", [5],
               [base("c", mn="1"), base("a"), base("b", expiry=NOW), base("0", mult="0")],
               from_amount="0.5", ids=["a"],
               rej={"c": "BELOW_MIN", "b": "EXPIRED", "0": "INVALID_RATE"}))
    c.append(S("one rate of each ExactIn reason, in input order", [5],
               [base("invalid", mn="-1"), base("expired", expiry=NOW),
                base("unservable", mn="0.2", sponsor="tiny"), base("below", mn="0.6"),
                base("above", mx="0.4"), base("nothing", mult="0.0001"), base("ok")],
               from_amount="0.5", campaigns={"tiny": "0.1"}, ids=["ok"],
               rej={"invalid": "INVALID_RATE", "expired": "EXPIRED",
                    "unservable": "CAMPAIGN_LIMIT_BELOW_MIN", "below": "BELOW_MIN",
                    "above": "ABOVE_MAX", "nothing": "NO_OUTPUT"}))
    return c


def no_route_cases():
    S = select_case
    c = []
    c.append(S("no rates at all", [10], [], from_amount="0.5", ids=[],
               err="INSUFFICIENT_LIQUIDITY"))
    c.append(S("every rate invalid", [10], [base("x", mult="0"), base("y", fee="-1")],
               from_amount="0.5", ids=[], rej={"x": "INVALID_RATE", "y": "INVALID_RATE"},
               err="INSUFFICIENT_LIQUIDITY"))
    c.append(S("every rate expired", [10], [base("x", expiry=NOW), base("y", expiry=NOW - 1000)],
               from_amount="0.5", ids=[], rej={"x": "EXPIRED", "y": "EXPIRED"},
               err="RATE_EXPIRED"))
    c.append(S("every valid rate expired, one invalid", [10],
               [base("x", mult="0"), base("y", expiry=NOW)], from_amount="0.5", ids=[],
               rej={"x": "INVALID_RATE", "y": "EXPIRED"}, err="RATE_EXPIRED"))
    c.append(S("every live rate excluded by ExactOut", [10],
               [base("x"), base("y", exact_out=True, sponsor="spring")], mode="ExactOut",
               from_amount="0.5", to_amount="16", ids=[],
               rej={"x": "EXACT_OUT_UNSUPPORTED", "y": "SPONSORED_IN_EXACT_OUT"},
               err="UNSUPPORTED_SWAP_MODE"))
    c.append(S("expired and invalid rates do not hide the swap mode", [10],
               [base("x", mult="0", exact_out=True), base("y", expiry=NOW, exact_out=True),
                base("z")], mode="ExactOut", from_amount="0.5", to_amount="16", ids=[],
               rej={"x": "INVALID_RATE", "y": "EXPIRED", "z": "EXACT_OUT_UNSUPPORTED"},
               err="UNSUPPORTED_SWAP_MODE"))
    c.append(S("a mode-capable rate below its min makes it a limit error", [10],
               [base("x"), base("y", exact_out=True, mn="1")], mode="ExactOut",
               from_amount="0.5", to_amount="16", ids=[],
               rej={"x": "EXACT_OUT_UNSUPPORTED", "y": "BELOW_MIN"},
               err="AMOUNT_BELOW_LIMIT"))
    c.append(S("below every min: the smallest min", [10],
               [base("x", mn="0.01"), base("y", mn="0.005"), base("z", mn="0.02")],
               from_amount="0.001", ids=[],
               rej={"x": "BELOW_MIN", "y": "BELOW_MIN", "z": "BELOW_MIN"},
               err="AMOUNT_BELOW_LIMIT"))
    c.append(S("above every max: the largest max", [10],
               [base("x", mx="1"), base("y", mx="3"), base("z", mx="2")],
               from_amount="5", ids=[],
               rej={"x": "ABOVE_MAX", "y": "ABOVE_MAX", "z": "ABOVE_MAX"},
               err="AMOUNT_ABOVE_LIMIT"))
    c.append(S("in a gap, nearer the max below: AMOUNT_ABOVE_LIMIT with both", [10],
               [base("lo", mn="0.001", mx="1"), base("hi", mn="5", mx="10")],
               from_amount="2", ids=[], rej={"lo": "ABOVE_MAX", "hi": "BELOW_MIN"},
               err="AMOUNT_ABOVE_LIMIT", note="2 - 1 = 1 < 5 - 2 = 3"))
    c.append(S("in a gap, nearer the min above: AMOUNT_BELOW_LIMIT with both", [10],
               [base("lo", mn="0.001", mx="1"), base("hi", mn="5", mx="10")],
               from_amount="4.5", ids=[], rej={"lo": "ABOVE_MAX", "hi": "BELOW_MIN"},
               err="AMOUNT_BELOW_LIMIT", note="4.5 - 1 = 3.5 > 5 - 4.5 = 0.5"))
    c.append(S("in a gap, equally near: AMOUNT_ABOVE_LIMIT", [10],
               [base("lo", mn="0.001", mx="1"), base("hi", mn="5", mx="10")],
               from_amount="3", ids=[], rej={"lo": "ABOVE_MAX", "hi": "BELOW_MIN"},
               err="AMOUNT_ABOVE_LIMIT",
               note="3 - 1 = 5 - 3: a tie goes to the max side (documented on NoRoute)"))
    c.append(S("in a gap among several ranges: the nearest max below and min above", [10],
               [base("a", mn="0.001", mx="1"), base("b", mn="2", mx="3"),
                base("c", mn="5", mx="10"), base("d", mn="20", mx="30")],
               from_amount="4.2", ids=[],
               rej={"a": "ABOVE_MAX", "b": "ABOVE_MAX", "c": "BELOW_MIN", "d": "BELOW_MIN"},
               err="AMOUNT_BELOW_LIMIT", note="max below 3, min above 5; 1.2 > 0.8"))
    c.append(S("a rate within limits without output outranks the limits", [10],
               [base("x", mult="0.0001"), base("y", mn="1")], from_amount="0.5", ids=[],
               rej={"x": "NO_OUTPUT", "y": "BELOW_MIN"}, err="INSUFFICIENT_LIQUIDITY",
               note="x accepted the amount, so it is not below every min"))
    c.append(S("a rate within limits that overflows makes the amount too large", [10, 36],
               [Rate("x", "2", "0", "1", BIG), Rate("y", "1", "0", "1", "2")],
               from_amount="40000000000000000000000000000", ids=[],
               rej={"x": "OVERFLOW", "y": "ABOVE_MAX"}, err="INVALID_AMOUNT",
               note="the client's error (400), not the service's (503)"))
    c.append(S("only unservable sponsored variants left", [10, 30],
               [base("v", mn="0.01", sponsor="spring"), base("w", mn="0.01", sponsor="fall")],
               from_amount="0.5", campaigns={"spring": "0.001", "fall": "0.009"}, ids=[],
               rej={"v": "CAMPAIGN_LIMIT_BELOW_MIN", "w": "CAMPAIGN_LIMIT_BELOW_MIN"},
               err="INSUFFICIENT_LIQUIDITY"))
    c.append(S("an unservable variant takes no part in the smallest min", [10, 30],
               [base("v", mn="0.5", sponsor="spring"), base("b", mn="1", mx="2")],
               from_amount="0.7", campaigns={"spring": "0.1"}, ids=[],
               rej={"v": "CAMPAIGN_LIMIT_BELOW_MIN", "b": "BELOW_MIN"},
               err="AMOUNT_BELOW_LIMIT", note="min 1 (b), not the variant's 0.5"))
    c.append(S("an unservable variant takes no part in the largest max", [10, 30],
               [base("v", mn="0.5", mx="100", sponsor="spring"), base("b", mn="0.001", mx="2")],
               from_amount="3", campaigns={"spring": "0.1"}, ids=[],
               rej={"v": "CAMPAIGN_LIMIT_BELOW_MIN", "b": "ABOVE_MAX"},
               err="AMOUNT_ABOVE_LIMIT", note="max 2 (b), neither 100 nor the limit 0.1"))
    c.append(S("a capped variant reports its campaign limit as the max", [3, 10],
               [base("v", fee="0", sponsor="spring")], from_amount="1",
               campaigns={"spring": "0.25"}, ids=[], rej={"v": "ABOVE_MAX"},
               err="AMOUNT_ABOVE_LIMIT", note="effective max min(8, 0.25) = 0.25"))
    c.append(S("strict: every required input above its max counts as above", [10, 23],
               [Rate("q", "33.2", "0.00215", "0.01", "3.5", exact_out=True)],
               mode="ExactOut", from_amount="1", to_amount="1000", strict=True, ids=[],
               rej={"q": "REQUIRED_INPUT_ABOVE_MAX"}, err="AMOUNT_ABOVE_LIMIT",
               note="(1000 + 0.00215) / 33.2 = 30.12054668..., above max 3.5"))
    c.append(S("strict: every required input below its min counts as below", [10, 23],
               [Rate("q", "20", "0", "0.1", "10", exact_out=True),
                Rate("r", "25", "0", "0.2", "10", exact_out=True)],
               mode="ExactOut", from_amount="1", to_amount="1", strict=True, ids=[],
               rej={"q": "REQUIRED_INPUT_BELOW_MIN", "r": "REQUIRED_INPUT_BELOW_MIN"},
               err="AMOUNT_BELOW_LIMIT", note="required 0.05 and 0.04; smallest min 0.1"))
    return c


def sponsored_cases():
    S = select_case
    c = []
    pair = lambda: [base("base"), base("base:spring", fee="0", sponsor="spring")]
    c.append(S("at the campaign limit the sponsored variant wins on net", [3, 6],
               pair(), from_amount="0.5", campaigns={"spring": "0.5"},
               ids=["base:spring", "base"], note="16.55 (no fee) against 16.5498"))
    c.append(S("one unit above the campaign limit the variant is ABOVE_MAX", [3, 5],
               pair(), from_amount="0.50000001", campaigns={"spring": "0.5"},
               ids=["base"], rej={"base:spring": "ABOVE_MAX"},
               note="the limit reported is the campaign's 0.5, not the rate's max 8"))
    c.append(S("an unknown campaign leaves max as it is", [3],
               pair(), from_amount="5", campaigns={"other": "0.5"},
               ids=["base:spring", "base"]))
    c.append(S("no campaign limits at all leave max as it is", [3],
               pair(), from_amount="8", ids=["base:spring", "base"]))
    c.append(S("a campaign limit above max leaves max", [3],
               pair(), from_amount="8.00000001", campaigns={"spring": "100"}, ids=[],
               rej={"base": "ABOVE_MAX", "base:spring": "ABOVE_MAX"}, err="AMOUNT_ABOVE_LIMIT",
               note="min(8, 100) = 8"))
    c.append(S("a campaign limit equal to min serves exactly min", [3, 30],
               [base("v", fee="0", mn="0.01", sponsor="spring")], from_amount="0.01",
               campaigns={"spring": "0.01"}, ids=["v"]))
    c.append(S("a campaign limit one unit below min serves nothing", [3, 30],
               [base("v", fee="0", mn="0.01", sponsor="spring")], from_amount="0.01",
               campaigns={"spring": "0.00999999"}, ids=[],
               rej={"v": "CAMPAIGN_LIMIT_BELOW_MIN"}, err="INSUFFICIENT_LIQUIDITY"))
    c.append(S("variants of two campaigns are capped separately", [3],
               [base("s", fee="0", sponsor="spring"), base("f", fee="0.0001", sponsor="fall"),
                base("base")],
               from_amount="0.3", campaigns={"spring": "0.2", "fall": "0.4"},
               ids=["f", "base"], rej={"s": "ABOVE_MAX"}))
    c.append(S("a sponsored variant is never selected in ExactOut", [3, 5],
               [base("base", exact_out=True), base("base:spring", fee="0", exact_out=True,
                                                   sponsor="spring")],
               mode="ExactOut", from_amount="0.5", to_amount="16",
               campaigns={"spring": "1"}, ids=["base"],
               rej={"base:spring": "SPONSORED_IN_EXACT_OUT"}))
    c.append(S("a sponsored variant with null features keeps its sponsor", [3],
               [base("v", fee="0", sponsor="spring", features=None)],
               from_amount="0.1", campaigns={"spring": "0.2"}, ids=["v"]))
    return c


def ranking_cases():
    S = select_case
    c = []
    c.append(S("higher net output first", [6],
               [base("x", mult="33.0"), base("y", mult="33.2"), base("z", mult="33.1")],
               from_amount="0.5", ids=["y", "z", "x"]))
    c.append(S("a higher multiplier loses to a lower fee at a small amount", [6],
               [base("m", mult="33.2", fee="0.01"), base("f", mult="33.1", fee="0.0002")],
               from_amount="0.01", ids=["f", "m"],
               note="m: 0.332 - 0.01 = 0.322; f: 0.331 - 0.0002 = 0.3308"))
    c.append(S("the same rates at a large amount: the multiplier wins", [6],
               [base("m", mult="33.2", fee="0.01"), base("f", mult="33.1", fee="0.0002")],
               from_amount="1", ids=["m", "f"],
               note="m: 33.2 - 0.01 = 33.19; f: 33.1 - 0.0002 = 33.0998"))
    c.append(S("tie on net: lower miner fee first", [7],
               [base("hi-fee", mult="33.1001", fee="0.0003"), base("lo-fee")],
               from_amount="1", ids=["lo-fee", "hi-fee"],
               note="33.1001 - 0.0003 = 33.1 - 0.0002 = 33.0998"))
    c.append(S("tie on net and fee: base rate before sponsored variant", [7],
               [base("a-variant", sponsor="spring"), base("z-base")],
               from_amount="0.5", ids=["z-base", "a-variant"]))
    c.append(S("full tie: rate id ascending by bytes, upper case first", [7],
               [base("a"), base("B")], from_amount="0.5", ids=["B", "a"],
               note="'B' is 0x42, 'a' is 0x61"))
    c.append(S("full tie: ids compare by bytes, not as numbers", [7],
               [base("a9"), base("a10")], from_amount="0.5", ids=["a10", "a9"]))
    c.append(S("full tie: a prefix comes first", [7],
               [base("aa"), base("a")], from_amount="0.5", ids=["a", "aa"]))
    c.append(S("full tie: UTF-8 bytes, ASCII before accented", [7],
               [base("\u00e9"), base("z")], from_amount="0.5", ids=["z", "\u00e9"],
               note="'z' is 0x7A, 'e-acute' is 0xC3 0xA9"))
    c.append(S("input order never matters: ties", [7],
               [base("c"), base("b"), base("a")], from_amount="0.5", ids=["a", "b", "c"]))
    c.append(S("input order never matters: ties, reversed input", [7],
               [base("a"), base("b"), base("c")], from_amount="0.5", ids=["a", "b", "c"]))
    c.append(S("every tie-break at once", [6, 7],
               [base("s2", sponsor="k"), base("b2"), base("f", mult="33.1001", fee="0.0003"),
                base("b1"), base("s1", sponsor="k"), base("top", mult="33.2")],
               from_amount="1", ids=["top", "b1", "b2", "s1", "s2", "f"],
               note="top by net; b1 b2 s1 s2 share net 33.0998 and fee 0.0002, bases first; "
                    "f has net 33.0998 with fee 0.0003, after every fee-0.0002 rate"))
    c.append(S("17 significant digits stay exact", [1, 6],
               [base("p", mult="33.14218692377834", fee="0.00019192"),
                base("q", mult="33.098927169677374", fee="0")],
               from_amount="0.5", ids=["p", "q"],
               note="p: 16.57109346188917 - 0.00019192 = 16.57090154188917; q: 16.549463584838687"))
    c.append(S("0.1 x 0.3 ties 0.2 x 0.3 - 0.03 exactly; the lower fee wins", [1, 6, 7],
               [Rate("y", "0.2", "0.03", "0", "10"), Rate("x", "0.1", "0", "0", "10")],
               from_amount="0.3", ids=["x", "y"],
               note="both nets are exactly 0.03 (binary floating point makes them "
                    "0.030000000000000002 and 0.030000000000000006)"))
    c.append(S("ExactOut ranks by net at fromAmount, not by required input", [6, 8],
               [Rate("A", "20", "2", "0", "100", exact_out=True),
                Rate("B", "19", "0", "0", "100", exact_out=True)],
               mode="ExactOut", from_amount="1", to_amount="100", ids=["B", "A"],
               note="net A = 18, B = 19; required A = 5.1, B = 5.26315790"))
    c.append(S("a real response: ids with punctuation", [6, 7],
               [Rate("5KXSc7Tvo@hBKqFYY@kv5Z(Jr3(J1T", "611.8823407719563", "0.00352118",
                     "0.00086521", "6.91406725", pair="BTC_SOL", features=[]),
                Rate("WDtkwtDDb!xHKas1&VOq$g6)YYZYn9", "611.8823407719563", "0.00352118",
                     "0.00086521", "6.91406725", pair="BTC_SOL", features=[]),
                Rate("119a72d1-74c9-4f6a-8c01-1cdd9474031b", "611.0419355806741", "0",
                     "0.0004177", "1.12", pair="BTC_SOL", features=[]),
                Rate("451abd81-f1d6-4ed6-97f5-e837d70820fe", "610.9735021946818", "0.002",
                     "0.00085119", "0.52806613", pair="BTC_SOL")],
               from_amount="0.6",
               ids=["5KXSc7Tvo@hBKqFYY@kv5Z(Jr3(J1T", "WDtkwtDDb!xHKas1&VOq$g6)YYZYn9",
                    "119a72d1-74c9-4f6a-8c01-1cdd9474031b"],
               rej={"451abd81-f1d6-4ed6-97f5-e837d70820fe": "ABOVE_MAX"},
               note="the first two tie on every number: '5' (0x35) < 'W' (0x57)"))
    # Ruling 43: exact past 28 places.
    c.append(S("exact nets past 28 places: x1.000000000000000000000000001 beats x1 at 0.003",
               [6, 43],
               [Rate("a", "1", "0", "0", "10"),
                Rate("b", "1.000000000000000000000000001", "0", "0", "10")],
               from_amount="0.003", ids=["b", "a"],
               note="b: 0.003 + 0.003e-27 = 0.003000000000000000000000000003 (30 places) > a: "
                    "0.003; both report 0.003 (b's net floored at 28 places), and the "
                    "tie-breaks would put a first"))
    c.append(S("a positive exact net of 1e-29 is a route, reported as its floor 0", [5, 43],
               [Rate("t", "0.000000000000000000000000001", "0", "0", "10"),
                Rate("u", "0.000000000000000000000000001", "0.0000000000000000000000000001",
                     "0", "10")],
               from_amount="0.01", ids=["t"], rej={"u": "NO_OUTPUT"},
               note="t: 0.01 x 1e-27 = 1e-29 > 0; u: 1e-29 - 1e-28 = -9e-29"))
    c.append(S("a net past 28 places is reported as its floor, never above", [6, 43],
               [Rate("r", "33073464.331913818581565556041", "0", "0", "100")],
               from_amount="12.34567891", ids=["r"],
               note="12.34567891 x 33073464.331913818581565556041 = "
                    "408314371.08314566999999999999779679531; 20 places fit 96 bits: "
                    "408314371.08314566999999999999 (half to even would print "
                    "408314371.08314567)"))
    return c


def exact_out_cases():
    S = select_case
    c = []
    eo = lambda id, mult, fee, mn, mx, **kw: Rate(id, mult, fee, mn, mx, exact_out=True, **kw)
    c.append(S("required input that divides exactly is written with 8 places", [6, 8],
               [eo("r", "20", "0.5", "0.001", "20")], mode="ExactOut",
               from_amount="12.5", to_amount="249.5", ids=["r"],
               note="(249.5 + 0.5) / 20 = 12.5 -> 12.50000000"))
    c.append(S("required input with a 17-digit multiplier rounds up", [1, 6, 8],
               [eo("d", "33.14218692377834", "0.00019192", "0.00079787", "8.33028657")],
               mode="ExactOut", from_amount="0.30173604", to_amount="10", ids=["d"],
               note="(10 + 0.00019192) / 33.14218692377834 = 0.3017360394..., up to 0.30173604"))
    c.append(S("the README's order amount", [8, 9],
               [eo("r-1", "33.1", "0.0002", "0.001", "8")], mode="ExactOut",
               from_amount="0.5", to_amount="16.5", ids=["r-1"],
               note="(16.5 + 0.0002) / 33.1 = 0.498495468..., up to 0.49849547"))
    c.append(S("a third rounds up, not to nearest", [8],
               [eo("t", "3", "0", "0", "10")], mode="ExactOut", from_amount="1",
               to_amount="1", ids=["t"], note="1 / 3 = 0.3333333333... -> 0.33333334"))
    c.append(S("two thirds rounds up", [8],
               [eo("t", "3", "0", "0", "10")], mode="ExactOut", from_amount="1",
               to_amount="2", ids=["t"], note="2 / 3 = 0.6666666666... -> 0.66666667"))
    c.append(S("below one unit of the 8th place rounds up to one unit", [8],
               [eo("t", "3", "0", "0", "10")], mode="ExactOut", from_amount="1",
               to_amount="0.00000001", ids=["t"], note="0.00000001 / 3 -> 0.00000001"))
    c.append(S("a 9th decimal of 1 rounds up", [8],
               [eo("one", "1", "0", "0", "10")], mode="ExactOut", from_amount="1",
               to_amount="0.123456781", ids=["one"], note="-> 0.12345679, not 0.12345678"))
    c.append(S("exactly 8 places stay", [8],
               [eo("one", "1", "0", "0", "10")], mode="ExactOut", from_amount="1",
               to_amount="0.12345678", ids=["one"]))
    c.append(S("a whole required input is written with 8 zeros", [8],
               [eo("half", "0.5", "0", "0", "10")], mode="ExactOut", from_amount="1",
               to_amount="1", ids=["half"], note="1 / 0.5 = 2 -> 2.00000000"))
    c.append(S("(0.2 + 0.1) / 0.1 is exactly 3", [1, 8],
               [eo("x", "0.1", "0.1", "0", "10")], mode="ExactOut", from_amount="3",
               to_amount="0.2", ids=["x"],
               note="3.00000000; binary floating point gives 3.0000000000000004 and would round to 3.00000001"))
    c.append(S("(1.1 + 2.2) / 3.3 is exactly 1", [1, 8],
               [eo("x", "3.3", "2.2", "0", "10")], mode="ExactOut", from_amount="1",
               to_amount="1.1", ids=["x"], note="1.00000000, not 1.00000001"))
    c.append(S("required input within limits", [23],
               [eo("r", "20", "0.5", "0.001", "20")], mode="ExactOut",
               from_amount="12.5", to_amount="249.5", ids=["r"]))
    c.append(S("required input above max is reported, not refused, under the spec policy", [5, 23],
               [eo("q", "33.2", "0.00215", "0.01", "3.5")], mode="ExactOut",
               from_amount="1", to_amount="1000", ids=["q"],
               note="fromAmount 1 is within [0.01, 3.5]; the required input 30.12054669 is above 3.5"))
    c.append(S("required input below min is reported under the spec policy", [5, 23],
               [eo("q", "20", "0", "0.1", "10")], mode="ExactOut",
               from_amount="1", to_amount="1", ids=["q"], note="1 / 20 = 0.05 < 0.1"))
    c.append(S("required input equal to max is within", [23],
               [eo("q", "20", "0", "0.1", "12.5")], mode="ExactOut", strict=True,
               from_amount="1", to_amount="250", ids=["q"]))
    c.append(S("required input equal to min is within", [23],
               [eo("q", "20", "0", "0.05", "10")], mode="ExactOut", strict=True,
               from_amount="1", to_amount="1", ids=["q"]))
    c.append(S("strict: a required input above max moves to the next route", [23],
               [eo("q", "33.2", "0.00215", "0.01", "3.5"), eo("w", "33.1", "0.0002", "0.01", "50")],
               mode="ExactOut", from_amount="1", to_amount="1000", strict=True,
               ids=["w"], rej={"q": "REQUIRED_INPUT_ABOVE_MAX"},
               note="q would rank first (33.19785 > 33.0998) but needs 30.12054669 > 3.5"))
    c.append(S("strict: a required input below min moves to the next route", [23],
               [eo("q", "20", "0", "0.1", "10"), eo("w", "19", "0", "0.01", "10")],
               mode="ExactOut", from_amount="1", to_amount="1", strict=True,
               ids=["w"], rej={"q": "REQUIRED_INPUT_BELOW_MIN"}))
    c.append(S("strict has no effect in ExactIn", [23],
               [base("a")], from_amount="0.5", to_amount="1000", strict=True, ids=["a"]))
    c.append(S("limits are on fromAmount in ExactOut too", [5],
               [eo("r", "20", "0.5", "0.001", "10")], mode="ExactOut",
               from_amount="10.00000001", to_amount="1", ids=[], rej={"r": "ABOVE_MAX"},
               err="AMOUNT_ABOVE_LIMIT", note="the required input 0.075 would be within"))
    c.append(S("every ExactOut route reports its own required input", [6, 8],
               [eo("a", "33.1", "0.0002", "0.001", "8"), eo("b", "33.2", "0.00215", "0.01", "3.5"),
                base("c")],
               mode="ExactOut", from_amount="0.5", to_amount="16.5", ids=["b", "a"],
               rej={"c": "EXACT_OUT_UNSUPPORTED"},
               note="b: 16.6 - 0.00215 = 16.59785 > a: 16.5498; b needs 16.50215 / 33.2 -> 0.49705272"))
    return c


def estimate_cases():
    E = estimate_case
    eo = lambda id, mult, fee, mn, mx, **kw: Rate(id, mult, fee, mn, mx, exact_out=True, **kw)
    c = []
    c.append(E("one rate: (249.5 + 0.5) / 20", [8], [eo("r", "20", "0.5", "0.001", "20")],
               "249.5", want="r"))
    c.append(E("the README's estimate", [8, 4],
               [eo("d5b1a8f2", "33.14218692377834", "0.00019192", "0.00079787", "8.33028657"),
                Rate("q1w2e3", "33.2", "0.00215", "0.01", "3.5")],
               "10", want="d5b1a8f2",
               note="q1w2e3 has no exactOut; (10 + 0.00019192) / 33.14218692377834 -> 0.30173604"))
    c.append(E("the smallest required input wins", [8],
               [eo("a", "20", "0", "0", "100"), eo("b", "25", "0", "0", "100")],
               "100", want="b", note="a needs 5, b needs 4"))
    c.append(E("a smaller input above its own max is skipped", [8],
               [eo("a", "20", "0", "0", "100"), eo("b", "25", "0", "0", "3")],
               "100", want="a", note="b needs 4 > 3"))
    c.append(E("a smaller input below its own min is skipped", [8],
               [eo("a", "20", "0", "0", "100"), eo("b", "25", "0", "6", "100")],
               "100", want="a", note="b needs 4 < 6; at the estimate 5 it is still below its min"))
    c.append(E("an input at its own limits counts as within", [8],
               [eo("a", "20", "0", "0", "100"), eo("b", "25", "0", "4", "4")],
               "100", want="b"))
    c.append(E("equal rounded inputs: the higher net at that input", [8],
               [eo("a", "3", "0", "0", "10"), eo("b", "3.00000002", "0", "0", "10")],
               "1", want="b",
               note="both need 0.33333334 (1/3 = 0.3333333333..., 1/3.00000002 = 0.3333333311...); "
                    "b pays 1.0000000266666668, a 1.00000002"))
    c.append(E("equal inputs and nets: the lower fee", [7, 8],
               [eo("a", "2", "0.5", "0", "10"), eo("b", "1", "0", "0", "10")],
               "0.5", want="b",
               note="a needs (0.5 + 0.5) / 2 = 0.5 and pays 0.5; b needs 0.5 and pays 0.5"))
    c.append(E("equal inputs, nets and fees: the rate id", [7, 8],
               [eo("b", "2", "0", "0", "10"), eo("a", "2", "0", "0", "10")],
               "1", want="a"))
    c.append(E("sponsored, unsupported, expired and invalid rates are skipped", [3, 4, 8],
               [eo("sp", "40", "0", "0", "100", sponsor="spring"),
                Rate("un", "40", "0", "0", "100"),
                eo("ex", "40", "0", "0", "100", expiry=NOW),
                eo("in", "40", "0", "5", "1"),
                eo("ok", "20", "0", "0", "100")],
               "100", want="ok"))
    c.append(E("(0.2 + 0.1) / 0.1 is exactly 3", [1, 8], [eo("x", "0.1", "0.1", "0", "10")],
               "0.2", want="x"))
    c.append(E("no rates", [8, 10], [], "1", err="INSUFFICIENT_LIQUIDITY"))
    c.append(E("no rate supports ExactOut", [4, 10],
               [Rate("a", "20", "0", "0", "100"), eo("s", "20", "0", "0", "100", sponsor="k")],
               "1", err="UNSUPPORTED_SWAP_MODE"))
    c.append(E("every rate expired", [10],
               [eo("a", "20", "0", "0", "100", expiry=NOW)], "1", err="RATE_EXPIRED"))
    c.append(E("every rate invalid", [10],
               [eo("a", "0", "0", "0", "100")], "1", err="INSUFFICIENT_LIQUIDITY"))
    c.append(E("every required input below its min: the smallest min", [8, 10],
               [eo("a", "20", "0", "1", "100"), eo("b", "25", "0", "0.5", "100")],
               "1", err="AMOUNT_BELOW_LIMIT", note="a needs 0.05, b 0.04"))
    c.append(E("every required input above its max: the largest max", [8, 10],
               [eo("a", "20", "0", "0", "1"), eo("b", "25", "0", "0", "2")],
               "100", err="AMOUNT_ABOVE_LIMIT", note="a needs 5, b 4"))
    c.append(E("ruling 8's exception: at the estimate a richer rate whose own required input "
               "is below its min wins (spec); under strict the estimate's rate", [5, 6, 8, 23],
               [eo("A", "10", "0", "0.5", "100"), eo("B", "11", "0", "1.05", "100")],
               "11", want="A", ranked_want="B",
               note="A needs 11 / 10 = 1.1, within [0.5, 100]; B needs 11 / 11 = 1, below its "
                    "min 1.05: the estimate is A's 1.10000000. At fromAmount 1.1, B is eligible "
                    "(limits on fromAmount, rule 5) and pays 12.1 > 11: ranking chooses B with "
                    "required input 1.00000000. Under the strict policy (rule 23) B's required "
                    "input below its min makes it ineligible, and A is chosen."))
    return c


# --------------------------------------------------------------------------
# decimals.json: a JSON number decodes to the shortest decimal that
# round-trips its double (ruling 1). Python's float() is correctly rounded
# and repr() is the shortest round-trip text.


def json_number_expect(text):
    f = float(text)
    if f != f or f in (float("inf"), float("-inf")):
        return {"error": "NOT_A_DECIMAL"}
    d = D(repr(f))
    # Out of the decimal range or finer than 28 places: refused, never rounded.
    if abs(d) > D(2**96 - 1):
        return {"error": "NOT_A_DECIMAL"}
    if d != 0 and -d.normalize().as_tuple().exponent > 28:
        return {"error": "NOT_A_DECIMAL"}
    return {"decimal": plain(d)}


def decimal_cases():
    texts = [
        ("0.1 is 0.1", "0.1"),
        ("0.2 is 0.2", "0.2"),
        ("0.3 is 0.3", "0.3"),
        ("the double nearest 0.1 + 0.2 keeps its 17 digits", "0.30000000000000004"),
        ("1.005 stays 1.005", "1.005"),
        ("2.675 stays 2.675", "2.675"),
        ("0.07 stays 0.07", "0.07"),
        ("4.35 stays 4.35", "4.35"),
        ("a service multiplier of 17 digits", "33.098927169677374"),
        ("a service multiplier of 16 digits", "611.8823407719563"),
        ("a service limit", "8.33028657"),
        ("a service minimum", "0.00079787"),
        ("one satoshi", "0.00000001"),
        ("17 digits around 10^14", "123456789012345.67"),
        ("17 digits just below 10^14", "99999999999999.98"),
        ("an integer", "100"),
        ("zero", "0"),
        ("negative zero is zero", "-0"),
        ("a negative number decodes (its rate is then invalid)", "-1.5"),
        ("2^53 - 1", "9007199254740991"),
        ("an exponent: 1e-7", "1e-7"),
        ("an upper-case exponent with a sign: 1.5E+3", "1.5E+3"),
        ("a negative exponent: 2.5e-3", "2.5e-3"),
        ("1E-8 is one satoshi", "1E-8"),
        ("the smallest decimal place: 1e-28", "1e-28"),
        ("finer than 28 places is refused: 1e-29", "1e-29"),
        ("a subnormal double is refused", "5e-324"),
        ("above the decimal range is refused: 1e29", "1e29"),
        ("the double nearest 2^96 is refused", "7.922816251426434e28"),
    ]
    for i, t in enumerate(['181.26568206835802', '197.94040622291627', '489.51584953277643',
                           '479.77306037560305', '253.80168149155887', '234.55863375166032']):
        texts.append((f"random 17-digit double #{i + 1}", t))
    cases = []
    for name, text in texts:
        cases.append({"name": name, "rules": [1], "input": {"json": text},
                      "expect": json_number_expect(text)})
    return cases


# --------------------------------------------------------------------------
# amount_grammar.json: decimal strings (ruling 1), written by hand.


def amount_cases():
    ok = lambda name, text, dec: {"name": name, "rules": [1], "input": {"text": text},
                                  "expect": {"decimal": dec}}

    def bad(name, text, code, at=None, found=None):
        e = {"error": code}
        if at is not None:
            e["at"], e["found"] = at, found
        return {"name": name, "rules": [1], "input": {"text": text}, "expect": e}

    return [
        ok("zero", "0", "0"),
        ok("a plain fraction", "0.5", "0.5"),
        ok("leading zeros", "007", "7"),
        ok("a trailing zero", "1.50", "1.5"),
        ok("zero with a fraction", "0.0", "0"),
        ok("a service amount", "0.00171604", "0.00171604"),
        ok("nine and nine places", "123456789.123456789", "123456789.123456789"),
        ok("the largest integer: 2^96 - 1", "79228162514264337593543950335",
           "79228162514264337593543950335"),
        ok("the smallest unit: 28 places", "0.0000000000000000000000000001",
           "0.0000000000000000000000000001"),
        ok("29 digits with 28 places fit when below 2^96",
           "7.9228162514264337593543950335", "7.9228162514264337593543950335"),
        ok("trailing zeros past 28 places do not count", "1.000000000000000000000000000000000000", "1"),
        ok("a 29th place that is zero does not count", "0.00000000000000000000000000010",
           "0.0000000000000000000000000001"),
        ok("leading zeros do not count", "0000000000000000000000000000000000000001", "1"),
        bad("empty", "", "EMPTY"),
        bad("a trailing dot", "1.", "MISSING_DIGITS"),
        bad("a leading dot", ".5", "MISSING_DIGITS"),
        bad("a dot alone", ".", "MISSING_DIGITS"),
        bad("a minus sign", "-1", "INVALID_CHARACTER", 0, "-"),
        bad("minus zero", "-0", "INVALID_CHARACTER", 0, "-"),
        bad("a plus sign", "+1", "INVALID_CHARACTER", 0, "+"),
        bad("an exponent", "1e5", "INVALID_CHARACTER", 1, "e"),
        bad("an upper-case exponent", "1E5", "INVALID_CHARACTER", 1, "E"),
        bad("an exponent after a fraction", "1.5e-3", "INVALID_CHARACTER", 3, "e"),
        bad("an underscore", "1_000", "INVALID_CHARACTER", 1, "_"),
        bad("a comma", "1,5", "INVALID_CHARACTER", 1, ","),
        bad("a leading space", " 1", "INVALID_CHARACTER", 0, " "),
        bad("a trailing space", "1 ", "INVALID_CHARACTER", 1, " "),
        bad("a tab", "\t1", "INVALID_CHARACTER", 0, "\t"),
        bad("NaN", "NaN", "INVALID_CHARACTER", 0, "N"),
        bad("Infinity", "Infinity", "INVALID_CHARACTER", 0, "I"),
        bad("hexadecimal", "0x10", "INVALID_CHARACTER", 1, "x"),
        bad("an Arabic-Indic digit after a digit (byte offset 1)", "1\u0663",
            "INVALID_CHARACTER", 1, "\u0663"),
        bad("a multi-byte character counts in bytes", "\u00e91", "INVALID_CHARACTER", 0, "\u00e9"),
        bad("two dots", "1.2.3", "MULTIPLE_DOTS"),
        bad("two adjacent dots", "1..2", "MULTIPLE_DOTS"),
        bad("the scan finds a character before a missing digit", ".e", "INVALID_CHARACTER", 1, "e"),
        bad("the scan finds the second dot before a later character", "1.2.x", "MULTIPLE_DOTS"),
        bad("the scan finds a character before a later second dot", "1.x.2",
            "INVALID_CHARACTER", 2, "x"),
        bad("a missing digit before too many digits", "." + "1" * 30, "MISSING_DIGITS"),
        bad("2^96 is out of range", "79228162514264337593543950336", "OUT_OF_RANGE"),
        bad("10^29 is out of range", "100000000000000000000000000000", "OUT_OF_RANGE"),
        bad("29 places are too precise", "0.00000000000000000000000000001", "TOO_PRECISE"),
        bad("29 nines with 28 places are too precise", "9.9999999999999999999999999999",
            "TOO_PRECISE"),
        bad("more digits than fit, with a fraction", "79228162514264337593543950336.5",
            "TOO_PRECISE"),
    ]


# --------------------------------------------------------------------------
# order_body.json and float_order_body.json (rulings 1, 11, 12, 19, 28),
# written by hand. Field priority: by code (INVALID_REQUEST,
# UNSUPPORTED_SWAP_MODE, INVALID_AMOUNT, INVALID_ADDRESS), then by field
# (body, quoteId, fromAmount, fromAddress, fromAddressTag, toAmount,
# toAddress, toAddressTag, pairId, slippage, swapMode).

EVM = "0x52908400098527886E0F7030069857D2E4169EE7"


def fixed_body(**changes):
    body = {"fromAmount": "0.5", "fromAddress": None, "toAmount": "16.5",
            "toAddress": EVM, "pairId": "BTC_ETH"}
    for key, value in changes.items():
        if value is DROP:
            body.pop(key, None)
        else:
            body[key] = value
    return body


DROP = object()


def fixed_ok(**fields):
    out = {"fromAmount": "0.5", "toAmount": "16.5", "fromAddress": None,
           "fromAddressTag": None, "toAddress": EVM, "toAddressTag": None,
           "pairId": "BTC_ETH", "slippage": "2", "swapMode": "ExactIn"}
    out.update(fields)
    return {"ok": out}


FIELD_ORDER = ["body", "quoteId", "fromAmount", "fromAddress", "fromAddressTag", "toAmount",
               "toAddress", "toAddressTag", "pairId", "slippage", "swapMode"]
CLASS = {"INVALID_REQUEST": 0, "UNSUPPORTED_SWAP_MODE": 1, "INVALID_AMOUNT": 2,
         "INVALID_ADDRESS": 3}


def errs(*pairs):
    """The expected errors, given in any order by hand, sorted by the
    documented priority; `error` is the first one's API error."""
    items = [{"field": f, "code": c} for f, c in pairs]
    ordered = sorted(items, key=lambda e: (CLASS[e["code"]], FIELD_ORDER.index(e["field"])))
    first = ordered[0]
    return {"error": {"status": STATUS[first["code"]], "code": first["code"],
                      "field": first["field"]}, "errors": ordered}


def fixed_body_cases():
    R = [19]  # the body's field rules
    c = []

    def case(name, rules, body, expect, text=None):
        inp = {"bodyText": text} if text is not None else {"body": body}
        c.append({"name": name, "rules": rules, "input": inp, "expect": expect})

    case("the minimal body takes every default", [11, 12], fixed_body(), fixed_ok())
    case("amounts as JSON numbers", [1], fixed_body(fromAmount=Num("0.5"), toAmount=Num("16.5")),
         fixed_ok())
    case("a JSON number 0.1 is 0.1", [1], fixed_body(fromAmount=Num("0.1")),
         fixed_ok(fromAmount="0.1"))
    case("a 17-digit JSON number keeps its digits", [1],
         fixed_body(toAmount=Num("33.098927169677374")), fixed_ok(toAmount="33.098927169677374"))
    case("a JSON number with an exponent is a number, not a string", [1],
         fixed_body(fromAmount=Num("1e-7")), fixed_ok(fromAmount="0.0000001"))
    case("a string amount with trailing zeros", [1], fixed_body(fromAmount="0.50"), fixed_ok())
    case("fromAddress as a string", R, fixed_body(fromAddress="bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
         fixed_ok(fromAddress="bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"))
    case("slippage 0 is allowed", [11], fixed_body(slippage=Num("0")), fixed_ok(slippage="0"))
    case("slippage 100 is allowed", [11], fixed_body(slippage=Num("100")), fixed_ok(slippage="100"))
    case("slippage as a numeric string", [11], fixed_body(slippage="0.5"), fixed_ok(slippage="0.5"))
    case("slippage null is the default 2", [11], fixed_body(slippage=None), fixed_ok())
    case("slippage 2.5 as a number", [11], fixed_body(slippage=Num("2.5")), fixed_ok(slippage="2.5"))
    case("swapMode ExactOut", [12], fixed_body(swapMode="ExactOut"), fixed_ok(swapMode="ExactOut"))
    case("swapMode null is ExactIn", [12], fixed_body(swapMode=None), fixed_ok())
    case("an empty tag means none", [28], fixed_body(toAddressTag=""), fixed_ok())
    case("a null tag means none", [28], fixed_body(fromAddressTag=None), fixed_ok())
    case("a tag as a string", [28], fixed_body(toAddressTag="12345"), fixed_ok(toAddressTag="12345"))
    case("a tag as a whole JSON number keeps its digits", [28], fixed_body(toAddressTag=Num("12345")),
         fixed_ok(toAddressTag="12345"))
    case("a tag of u64::MAX as a JSON number", [28], None,
         fixed_ok(toAddressTag="18446744073709551615"),
         text='{"fromAmount":"0.5","fromAddress":null,"toAmount":"16.5","toAddress":"'
              + EVM + '","pairId":"BTC_ETH","toAddressTag":18446744073709551615}')
    case("a free-text memo with inner spaces", [28], fixed_body(toAddressTag="memo 42"),
         fixed_ok(toAddressTag="memo 42"))
    case("unknown keys are ignored", R, fixed_body(referrer="x", quoteId="q"), fixed_ok())
    case("the service's example body", R,
         {"pairId": "LTC_USDT", "fromAmount": "1.25",
          "fromAddress": "ltc1quauvt7txunf9zeu2qyrzv0pa5uvwjlq9a369s5", "toAmount": "98",
          "toAddress": "0x8Df95247F2866028DE71159b42B4ea410FB9102f"},
         {"ok": {"fromAmount": "1.25", "toAmount": "98",
                 "fromAddress": "ltc1quauvt7txunf9zeu2qyrzv0pa5uvwjlq9a369s5",
                 "fromAddressTag": None, "toAddress": "0x8Df95247F2866028DE71159b42B4ea410FB9102f",
                 "toAddressTag": None, "pairId": "LTC_USDT", "slippage": "2",
                 "swapMode": "ExactIn"}})
    # One error each.
    for label, value, code in [
        ("missing", DROP, "INVALID_REQUEST"), ("null", None, "INVALID_REQUEST"),
        ("a boolean", True, "INVALID_REQUEST"), ("an array", [], "INVALID_REQUEST"),
        ("an object", {}, "INVALID_REQUEST"),
        ("\"1.\"", "1.", "INVALID_AMOUNT"), ("\".5\"", ".5", "INVALID_AMOUNT"),
        ("\"1e5\"", "1e5", "INVALID_AMOUNT"), ("\"-1\"", "-1", "INVALID_AMOUNT"),
        ("\"+1\"", "+1", "INVALID_AMOUNT"), ("\" 1\"", " 1", "INVALID_AMOUNT"),
        ("an empty string", "", "INVALID_AMOUNT"), ("\"0\"", "0", "INVALID_AMOUNT"),
        ("the number 0", Num("0"), "INVALID_AMOUNT"), ("a negative number", Num("-0.5"), "INVALID_AMOUNT"),
        ("29 places", "0.00000000000000000000000000001", "INVALID_AMOUNT"),
        ("2^96", "79228162514264337593543950336", "INVALID_AMOUNT"),
    ]:
        case(f"fromAmount {label} is {code}", [1, 19], fixed_body(fromAmount=value),
             errs(("fromAmount", code)))
    for label, value, code in [
        ("missing", DROP, "INVALID_REQUEST"), ("\"1.\"", "1.", "INVALID_AMOUNT"),
        ("0", Num("0"), "INVALID_AMOUNT"), ("a string", "abc", "INVALID_AMOUNT"),
    ]:
        case(f"toAmount {label} is {code}", [1, 19], fixed_body(toAmount=value),
             errs(("toAmount", code)))
    case("fromAddress missing (the key is required)", R, fixed_body(fromAddress=DROP),
         errs(("fromAddress", "INVALID_REQUEST")))
    case("fromAddress empty", R, fixed_body(fromAddress=""), errs(("fromAddress", "INVALID_ADDRESS")))
    case("fromAddress a number", R, fixed_body(fromAddress=Num("5")),
         errs(("fromAddress", "INVALID_REQUEST")))
    case("fromAddress with a space", R, fixed_body(fromAddress="0x12 34"),
         errs(("fromAddress", "INVALID_ADDRESS")))
    case("toAddress null", R, fixed_body(toAddress=None), errs(("toAddress", "INVALID_REQUEST")))
    case("toAddress missing", R, fixed_body(toAddress=DROP), errs(("toAddress", "INVALID_REQUEST")))
    case("toAddress empty", R, fixed_body(toAddress=""), errs(("toAddress", "INVALID_ADDRESS")))
    case("toAddress not ASCII", R, fixed_body(toAddress="0x\u00e4"), errs(("toAddress", "INVALID_ADDRESS")))
    case("a tag of spaces", [28], fixed_body(toAddressTag="   "), errs(("toAddressTag", "INVALID_ADDRESS")))
    case("a tag of a zero-width space", [28], fixed_body(toAddressTag="\u200b"),
         errs(("toAddressTag", "INVALID_ADDRESS")))
    case("a tag hiding a bidi override", [28], fixed_body(fromAddressTag="\u202e123"),
         errs(("fromAddressTag", "INVALID_ADDRESS")))
    case("a tag with a newline", [28], fixed_body(toAddressTag="12\n3"),
         errs(("toAddressTag", "INVALID_ADDRESS")))
    case("a tag as a fractional number", [28], fixed_body(toAddressTag=Num("1.5")),
         errs(("toAddressTag", "INVALID_REQUEST")))
    case("a tag as a negative number", [28], fixed_body(toAddressTag=Num("-1")),
         errs(("toAddressTag", "INVALID_REQUEST")))
    case("a tag as a number with an exponent", [28], None, errs(("toAddressTag", "INVALID_REQUEST")),
         text='{"fromAmount":"0.5","fromAddress":null,"toAmount":"16.5","toAddress":"'
              + EVM + '","pairId":"BTC_ETH","toAddressTag":1e3}')
    case("a tag as a number past u64", [28], None, errs(("toAddressTag", "INVALID_REQUEST")),
         text='{"fromAmount":"0.5","fromAddress":null,"toAmount":"16.5","toAddress":"'
              + EVM + '","pairId":"BTC_ETH","toAddressTag":18446744073709551616}')
    case("a tag as a boolean", [28], fixed_body(fromAddressTag=True),
         errs(("fromAddressTag", "INVALID_REQUEST")))
    for label, value in [("missing", DROP), ("without '_'", "BTCETH"), ("without a to asset", "BTC_"),
                         ("without a from asset", "_ETH"), ("with two '_'", "BTC_ETH_SOL"),
                         ("a number", Num("7"))]:
        case(f"pairId {label}", [18, 19], fixed_body(pairId=value), errs(("pairId", "INVALID_REQUEST")))
    for label, value in [("101", Num("101")), ("-0.1", Num("-0.1")),
                         ("\"100.00000001\"", "100.00000001"), ("\"abc\"", "abc"),
                         ("\"1e1\"", "1e1"), ("true", True)]:
        case(f"slippage {label}", [11], fixed_body(slippage=value), errs(("slippage", "INVALID_REQUEST")))
    for label, value, code in [("\"exactOut\" (case)", "exactOut", "UNSUPPORTED_SWAP_MODE"),
                               ("with a trailing space", "ExactIn ", "UNSUPPORTED_SWAP_MODE"),
                               ("empty", "", "UNSUPPORTED_SWAP_MODE"),
                               ("a number", Num("1"), "INVALID_REQUEST")]:
        case(f"swapMode {label}", [12], fixed_body(swapMode=value), errs(("swapMode", code)))
    for label, text in [("not JSON", "fromAmount=0.5"), ("an array", "[]"), ("a string", "\"x\""),
                        ("empty", ""), ("a repeated key", '{"fromAmount":"0.5","fromAmount":"1"}'),
                        ("trailing text", '{"fromAmount":"0.5"} x')]:
        case(f"a body that is {label}", R, None, errs(("body", "INVALID_REQUEST")), text=text)
    # Priority.
    case("priority: the README's two errors", R,
         {"fromAmount": "1e5", "fromAddress": None, "toAmount": "1", "toAddress": "x",
          "pairId": "BTC_ETH", "slippage": Num("101")},
         errs(("slippage", "INVALID_REQUEST"), ("fromAmount", "INVALID_AMOUNT")))
    case("priority: five errors of four codes", R,
         {"fromAmount": "1e5", "toAmount": Num("0"), "toAddress": "", "pairId": "BTC_ETH",
          "slippage": Num("101")},
         errs(("fromAddress", "INVALID_REQUEST"), ("slippage", "INVALID_REQUEST"),
              ("fromAmount", "INVALID_AMOUNT"), ("toAmount", "INVALID_AMOUNT"),
              ("toAddress", "INVALID_ADDRESS")))
    case("priority: UNSUPPORTED_SWAP_MODE before INVALID_AMOUNT", [12],
         fixed_body(fromAmount="0", swapMode="exactout"),
         errs(("swapMode", "UNSUPPORTED_SWAP_MODE"), ("fromAmount", "INVALID_AMOUNT")))
    case("priority: INVALID_REQUEST before UNSUPPORTED_SWAP_MODE", [12],
         fixed_body(pairId=DROP, swapMode="exactout"),
         errs(("pairId", "INVALID_REQUEST"), ("swapMode", "UNSUPPORTED_SWAP_MODE")))
    case("priority: INVALID_AMOUNT before INVALID_ADDRESS", R,
         fixed_body(fromAmount="1.", toAddress=""),
         errs(("fromAmount", "INVALID_AMOUNT"), ("toAddress", "INVALID_ADDRESS")))
    case("priority: an empty object names every required field in order", R, {},
         errs(("fromAmount", "INVALID_REQUEST"), ("fromAddress", "INVALID_REQUEST"),
              ("toAmount", "INVALID_REQUEST"), ("toAddress", "INVALID_REQUEST"),
              ("pairId", "INVALID_REQUEST")))
    case("priority: address errors in field order", [28],
         fixed_body(fromAddress="", fromAddressTag=" ", toAddress="", toAddressTag="\u200b"),
         errs(("fromAddress", "INVALID_ADDRESS"), ("fromAddressTag", "INVALID_ADDRESS"),
              ("toAddress", "INVALID_ADDRESS"), ("toAddressTag", "INVALID_ADDRESS")))
    return c


def float_body(**changes):
    body = {"pairId": "USDCALGO_USDCbasemainnetB5A52617", "fromAmount": Num("25"),
            "fromAddress": "4MI2YHZ2NARTBNLZGCJN4QAVSYEEFNPAXX5I6IYLJTOPMKMY6F2DGGCQPZ",
            "toAddress": "0x29a422EB14AB2f2D0f0Cc022238daceEe2092F07", "toAmount": Num("24.61")}
    for key, value in changes.items():
        if value is DROP:
            body.pop(key, None)
        else:
            body[key] = value
    return body


def float_ok(**fields):
    out = {"fromAmount": "25", "toAmount": "24.61",
           "fromAddress": "4MI2YHZ2NARTBNLZGCJN4QAVSYEEFNPAXX5I6IYLJTOPMKMY6F2DGGCQPZ",
           "fromAddressTag": None, "toAddress": "0x29a422EB14AB2f2D0f0Cc022238daceEe2092F07",
           "toAddressTag": None, "pairId": "USDCALGO_USDCbasemainnetB5A52617",
           "slippage": "2", "quoteId": None}
    out.update(fields)
    return {"ok": out}


def float_body_cases():
    c = []

    def case(name, rules, body, expect, text=None):
        inp = {"bodyText": text} if text is not None else {"body": body}
        c.append({"name": name, "rules": rules, "input": inp, "expect": expect})

    case("the service's floating body, no quote id", [19], float_body(), float_ok())
    case("amounts as strings", [1, 19], float_body(fromAmount="25", toAmount="24.61"), float_ok())
    case("a quote id", [19], float_body(quoteId="q-1"), float_ok(quoteId="q-1"))
    case("a null quote id is none", [19], float_body(quoteId=None), float_ok())
    case("a null swapMode is not a swap mode", [12, 19], float_body(swapMode=None), float_ok())
    case("slippage", [11, 19], float_body(slippage="0.5"), float_ok(slippage="0.5"))
    case("swapMode ExactIn is refused", [12], float_body(swapMode="ExactIn"),
         errs(("swapMode", "UNSUPPORTED_SWAP_MODE")))
    case("swapMode ExactOut is refused", [12], float_body(swapMode="ExactOut"),
         errs(("swapMode", "UNSUPPORTED_SWAP_MODE")))
    case("swapMode of any JSON type is refused as a swap mode", [12], float_body(swapMode=Num("1")),
         errs(("swapMode", "UNSUPPORTED_SWAP_MODE")))
    case("an empty quote id", [19], float_body(quoteId=""), errs(("quoteId", "INVALID_REQUEST")))
    case("a quote id that is a number", [19], float_body(quoteId=Num("5")),
         errs(("quoteId", "INVALID_REQUEST")))
    case("fromAmount \"1.\"", [1, 19], float_body(fromAmount="1."), errs(("fromAmount", "INVALID_AMOUNT")))
    case("toAmount zero", [19], float_body(toAmount=Num("0")), errs(("toAmount", "INVALID_AMOUNT")))
    case("fromAddress missing", [19], float_body(fromAddress=DROP),
         errs(("fromAddress", "INVALID_REQUEST")))
    case("fromAddress null is accepted", [19], float_body(fromAddress=None), float_ok(fromAddress=None))
    case("slippage 101", [11, 19], float_body(slippage=Num("101")), errs(("slippage", "INVALID_REQUEST")))
    case("a tag of spaces", [19, 28], float_body(toAddressTag=" "), errs(("toAddressTag", "INVALID_ADDRESS")))
    case("priority: quoteId before pairId", [19], float_body(quoteId="", pairId=DROP),
         errs(("quoteId", "INVALID_REQUEST"), ("pairId", "INVALID_REQUEST")))
    case("priority: swapMode before amounts", [12, 19], float_body(swapMode="ExactIn", fromAmount="0"),
         errs(("swapMode", "UNSUPPORTED_SWAP_MODE"), ("fromAmount", "INVALID_AMOUNT")))
    case("a body that is an array", [19], None, errs(("body", "INVALID_REQUEST")), text="[1]")
    return c


# --------------------------------------------------------------------------
# status.json (rulings 13 and 21), by hand.


def status_cases():
    c = []

    def case(name, rules, current, observations, status, definitive, detected=False):
        obs = [{"status": s, "depositDetected": d, "confirmations": n} for s, d, n in observations]
        c.append({"name": name, "rules": rules,
                  "input": {"current": {"status": current, "depositDetected": detected},
                            "observations": obs},
                  "expect": {"status": status, "definitive": definitive}})

    case("complete is final: a later failure", [13, 21], "complete", [("failed", True, 3)], "complete", True)
    case("complete is final: a later awaiting", [13], "complete", [("awaiting", False, 0)], "complete", True)
    case("any status may become complete", [13, 21], "awaiting", [("complete", False, 0)], "complete", True)
    case("refunded is definitive", [21], "awaiting", [("refunded", False, 0)], "refunded", True)
    case("a failure after deposit detection is definitive", [21], "inProgress",
         [("failed", True, 0)], "failed", True)
    case("an expiry after deposit detection is definitive", [21], "awaiting",
         [("expired", True, 2)], "expired", True)
    case("premature expiry with a confirmation is inProgress", [13], "awaiting",
         [("expired", False, 1)], "inProgress", False)
    case("premature failure with confirmations is inProgress", [13], "awaiting",
         [("failed", False, 6)], "inProgress", False)
    case("premature expiry without confirmation is adopted, not definitive", [13], "awaiting",
         [("expired", False, 0)], "expired", False)
    case("a premature expiry gives way to a confirmed deposit later", [13], "awaiting",
         [("expired", False, 0), ("expired", False, 1)], "inProgress", False)
    case("a premature expiry gives way to inProgress", [13], "awaiting",
         [("expired", False, 0), ("inProgress", False, 0)], "inProgress", False)
    case("inProgress stays through a premature failure without confirmations", [13], "inProgress",
         [("failed", False, 0)], "inProgress", False)
    case("inProgress stays through an older status", [13], "inProgress",
         [("awaiting", False, 0)], "inProgress", False)
    case("inProgress stays through an unknown status", [13], "inProgress",
         [("waitingForPayout", False, 0)], "inProgress", False)
    case("inProgress moves to a definitive refund", [13, 21], "inProgress",
         [("refunded", False, 0)], "refunded", True)
    case("a definitive failure is not reopened by an open status", [21], "failed",
         [("awaiting", False, 0)], "failed", True, detected=True)
    case("a definitive failure is not reopened by a premature failure", [21], "failed",
         [("expired", False, 3)], "failed", True, detected=True)
    case("a definitive failure may become refunded", [21], "failed",
         [("refunded", False, 0)], "refunded", True, detected=True)
    case("a definitive failure may become complete", [21], "expired",
         [("complete", False, 0)], "complete", True, detected=True)
    case("refunded is not reopened by a confirmed premature failure", [21], "refunded",
         [("failed", False, 1)], "refunded", True)
    case("refunded may become complete", [21], "refunded", [("complete", False, 0)], "complete", True)
    case("an open failure (not detected) is reopened by a later status", [13, 21], "failed",
         [("delayed", False, 0)], "delayed", False)
    case("the reconcile example: stays inProgress until a refund, then stays refunded", [13, 21],
         "awaiting", [("expired", False, 1), ("failed", False, 0), ("refunded", False, 0),
                      ("failed", False, 1)], "refunded", True)
    case("open statuses are adopted as reported", [13], "awaiting",
         [("delayed", False, 0), ("swapped", False, 0)], "swapped", False)
    case("an unknown status is adopted verbatim", [13], "awaiting",
         [("waitingForPayout", False, 0)], "waitingForPayout", False)
    case("status names are case-sensitive: Complete is unknown", [13], "awaiting",
         [("Complete", False, 0)], "Complete", False)
    case("swapped with a premature failure and a confirmation is inProgress", [13], "swapped",
         [("failed", False, 2)], "inProgress", False)
    case("no observation leaves the status", [13], "delayed", [], "delayed", False)
    return c


# --------------------------------------------------------------------------
# forwarded.json (RFC 7239, rulings 14, 20, 29) and headers.json (14, 20, 28, 29), by hand.


def forwarded_cases():
    c = []

    def ok(name, rules, value, elements, client, screening):
        c.append({"name": name, "rules": rules, "input": {"value": value},
                  "expect": {"ok": {"elements": elements, "client": client, "screening": screening}}})

    def bad(name, rules, value, error, node=None):
        e = {"error": error}
        if node:
            e["node"] = node
        c.append({"name": name, "rules": rules, "input": {"value": value}, "expect": e})

    ip = lambda addr, port=None: {"kind": "ip", "addr": addr, **({"port": port} if port is not None else {})}
    addr = lambda a: {"addr": a}
    none = lambda reason, scope=None: {"none": reason, **({"scope": scope} if scope else {})}

    ok("one IPv4 client", [14], "for=192.0.2.43", 1, ip("192.0.2.43"), addr("192.0.2.43"))
    ok("the first for= is the end user", [14], "for=192.0.2.43, for=198.51.100.17", 2,
       ip("192.0.2.43"), addr("192.0.2.43"))
    ok("a quoted IPv6 address with a port", [14], 'for="[2001:db8:cafe::17]:4711"', 1,
       ip("2001:db8:cafe::17", 4711), addr("2001:db8:cafe::17"))
    ok("parameter names are case-insensitive", [14], "For=192.0.2.60;Proto=HTTP;BY=203.0.113.43", 1,
       ip("192.0.2.60"), addr("192.0.2.60"))
    ok("a quoted IPv4 address with a port", [14], 'for="192.0.2.43:8080"', 1,
       ip("192.0.2.43", 8080), addr("192.0.2.43"))
    ok("spaces around separators", [14], "  for=192.0.2.43 ;proto=https , for=10.0.0.1  ", 2,
       ip("192.0.2.43"), addr("192.0.2.43"))
    ok("empty elements and pairs are skipped", [14], ", ;for=192.0.2.43;;proto=http, ,for=10.0.0.1", 2,
       ip("192.0.2.43"), addr("192.0.2.43"))
    ok("for=unknown carries no address", [20], "for=unknown", 1, {"kind": "unknown"}, none("UNKNOWN"))
    ok("UNKNOWN in any case", [20], "for=UNKNOWN, for=192.0.2.43", 2, {"kind": "unknown"},
       none("UNKNOWN"))
    ok("an obfuscated identifier carries no address", [20], "for=_hidden", 1,
       {"kind": "obfuscated", "id": "_hidden"}, none("OBFUSCATED"))
    ok("an obfuscated port", [20], 'for="_SEVKISEK:_8080"', 1,
       {"kind": "obfuscated", "id": "_SEVKISEK", "port": "_8080"}, none("OBFUSCATED"))
    ok("no for= in the first element", [20], "by=203.0.113.43, for=192.0.2.43", 2, None, none("NO_FOR"))
    ok("a later public for= does not help", [20], "for=127.0.0.1, for=8.8.8.8", 2,
       ip("127.0.0.1"), none("NOT_GLOBAL", "LOOPBACK"))
    for text, scope in [("0.0.0.0", "UNSPECIFIED"), ("127.0.0.1", "LOOPBACK"), ("10.1.2.3", "PRIVATE"),
                        ("172.16.0.1", "PRIVATE"), ("172.31.255.255", "PRIVATE"),
                        ("192.168.1.1", "PRIVATE"), ("100.64.0.1", "SHARED"),
                        ("100.127.255.254", "SHARED"), ("169.254.10.20", "LINK_LOCAL"),
                        ("224.0.0.1", "MULTICAST"), ("239.255.255.255", "MULTICAST"),
                        ("255.255.255.255", "BROADCAST")]:
        ok(f"{text} locates nobody ({scope.lower()})", [29], f"for={text}", 1, ip(text),
           none("NOT_GLOBAL", scope))
    for text, scope in [("::", "UNSPECIFIED"), ("::1", "LOOPBACK"), ("fc00::1", "PRIVATE"),
                        ("fd12:3456::1", "PRIVATE"), ("fe80::1", "LINK_LOCAL"),
                        ("ff02::1", "MULTICAST"), ("::ffff:10.0.0.1", "PRIVATE")]:
        ok(f"[{text}] locates nobody ({scope.lower()})", [29], f'for="[{text}]"', 1, ip(text),
           none("NOT_GLOBAL", scope))
    for text in ["8.8.8.8", "172.32.0.1", "100.128.0.1", "100.63.255.255", "198.51.100.7",
                 "203.0.113.9"]:
        ok(f"{text} is globally routable", [29], f"for={text}", 1, ip(text), addr(text))
    ok("a documentation IPv6 address is left alone", [29], 'for="[2001:db8::1]"', 1,
       ip("2001:db8::1"), addr("2001:db8::1"))
    ok("an IPv4-mapped address screens as its IPv4 address", [29], 'for="[::ffff:198.51.100.7]:443"', 1,
       ip("::ffff:198.51.100.7", 443), addr("198.51.100.7"))
    bad("empty", [14], "", "EMPTY")
    bad("only separators", [14], " , ; ,", "EMPTY")
    bad("a parameter twice in one element", [14], "for=192.0.2.43;for=198.51.100.1", "DUPLICATE_PARAM")
    bad("a parameter twice, names in different case", [14], "for=192.0.2.43;FOR=198.51.100.1",
        "DUPLICATE_PARAM")
    bad("an unquoted IPv6 address", [14], "for=[2001:db8::1]", "NEEDS_QUOTING")
    bad("an unquoted port", [14], "for=192.0.2.43:8080", "NEEDS_QUOTING")
    bad("an IPv6 address without brackets", [14], 'for="2001:db8::1"', "INVALID_NODE",
        "IPV6_NEEDS_BRACKETS")
    bad("an unclosed bracket", [14], 'for="[2001:db8::1"', "INVALID_NODE", "UNCLOSED_BRACKET")
    bad("brackets around something else", [14], 'for="[192.0.2.43]"', "INVALID_NODE", "INVALID_IPV6")
    bad("a port past 65535", [14], 'for="192.0.2.43:65536"', "INVALID_NODE", "INVALID_PORT")
    bad("an empty port", [14], 'for="192.0.2.43:"', "INVALID_NODE", "INVALID_PORT")
    bad("a host name as a node", [14], "for=example.com", "INVALID_NODE", "INVALID_NAME")
    bad("a bare underscore", [14], "for=_", "INVALID_NODE", "INVALID_OBFUSCATED")
    bad("an empty quoted node", [14], 'for=""', "INVALID_NODE", "EMPTY")
    bad("a name without a value", [14], "for=", "EXPECTED_VALUE")
    bad("a name without =", [14], "for", "EXPECTED_EQUALS")
    bad("spaces around =", [14], "for = 192.0.2.43", "EXPECTED_EQUALS")
    bad("a value without a name", [14], "=192.0.2.43", "EXPECTED_NAME")
    bad("an unterminated quote", [14], 'for="192.0.2.43', "UNTERMINATED_QUOTE")
    bad("a control character in a quote", [14], 'for="_a\u0001"', "CONTROL_IN_QUOTE")
    bad("text after a value", [14], "for=192.0.2.43 x", "UNEXPECTED")
    bad("a proto that is not a scheme", [14], "for=192.0.2.43;proto=1http", "INVALID_PROTO")
    bad("an empty host", [14], 'for=192.0.2.43;host=""', "INVALID_HOST")
    bad("17 pairs in one element", [14], ";".join(f"x{i}=1" for i in range(17)), "TOO_MANY_PARAMS")
    bad("65 elements", [14, 17], ", ".join(["for=192.0.2.43"] * 65), "TOO_MANY_ELEMENTS")
    ok("16 pairs and 64 elements fit", [14, 17],
       ";".join(f"x{i}=1" for i in range(15)) + ";for=192.0.2.43, " + ", ".join(["for=10.0.0.1"] * 63),
       64, ip("192.0.2.43"), addr("192.0.2.43"))
    return c


def header_cases():
    c = []
    GOOD = ("App-Name", "my-wallet")

    def case(name, rules, headers, integration, expect):
        c.append({"name": name, "rules": rules,
                  "input": {"headers": [list(h) for h in headers], "integration": integration},
                  "expect": expect})

    ok = lambda name, addr=None: {"ok": {"appName": name, "screeningAddr": addr}}
    unauth = {"error": {"status": 401, "code": "UNAUTHORIZED", "details": "missing authentication"}}
    legacy = {"error": {"status": 401, "code": "UNAUTHORIZED"}}
    invalid = {"error": {"status": 400, "code": "INVALID_REQUEST"}}

    case("App-Name alone", [14], [GOOD], "direct", ok("my-wallet"))
    case("header names are case-insensitive", [14], [("app-name", "my-wallet"), ("APP-PLATFORM", "mobile")],
         "direct", ok("my-wallet"))
    case("App-Name is trimmed", [14], [("App-Name", "  my-wallet\t")], "direct", ok("my-wallet"))
    case("App-Name missing", [14], [("App-Platform", "mobile")], "direct", unauth)
    case("App-Name empty", [14], [("App-Name", "")], "direct", unauth)
    case("App-Name of spaces", [14, 28], [("App-Name", "   ")], "direct", unauth)
    case("App-Name of a zero-width space", [14, 28], [("App-Name", "\u200b")], "direct", unauth)
    case("App-Name of a no-break space", [14, 28], [("App-Name", "\u00a0")], "direct", unauth)
    case("a legacy Authorization header", [14], [GOOD, ("Authorization", "Bearer x")], "direct", legacy)
    case("Authorization is refused before a missing App-Name", [14], [("authorization", "x")],
         "direct", legacy)
    for p in ["desktop", "mobile", "browser"]:
        case(f"App-Platform {p}", [14], [GOOD, ("App-Platform", p)], "direct", ok("my-wallet"))
    # Ruling 52: the header is informational; an unknown value is kept as text.
    case("App-Platform tablet is kept, not refused", [14, 52], [GOOD, ("App-Platform", "tablet")], "direct",
         ok("my-wallet"))
    case("App-Platform in another case is that platform", [14, 52], [GOOD, ("App-Platform", "Mobile")],
         "direct", ok("my-wallet"))
    case("App-Name twice with different values", [14], [GOOD, ("App-Name", "other")], "direct", invalid)
    case("App-Name twice with the same value", [14], [GOOD, GOOD], "direct", ok("my-wallet"))
    case("a proxy must send Forwarded", [14, 20], [GOOD], "proxying", invalid)
    case("a proxy with a public end-user address", [14, 20], [GOOD, ("Forwarded", "for=8.8.8.8")],
         "proxying", ok("my-wallet", "8.8.8.8"))
    case("a proxy with a quoted IPv6 end user", [14, 20],
         [GOOD, ("forwarded", 'for="[2001:db8:cafe::17]:4711"')], "proxying",
         ok("my-wallet", "2001:db8:cafe::17"))
    case("a proxy whose first for= is unknown", [20], [GOOD, ("Forwarded", "for=unknown")], "proxying",
         invalid)
    case("a proxy whose first for= is obfuscated", [20], [GOOD, ("Forwarded", "for=_hidden")],
         "proxying", invalid)
    case("a proxy without for= in the first element", [20],
         [GOOD, ("Forwarded", "by=203.0.113.43, for=8.8.8.8")], "proxying", invalid)
    case("a proxy whose end user is loopback", [20, 29], [GOOD, ("Forwarded", "for=127.0.0.1")],
         "proxying", invalid)
    case("a proxy whose end user is private", [20, 29], [GOOD, ("Forwarded", "for=10.0.0.1")],
         "proxying", invalid)
    case("a proxy whose end user is in shared space", [20, 29], [GOOD, ("Forwarded", "for=100.64.1.1")],
         "proxying", invalid)
    case("Forwarded fields are one list, first field first", [14, 20],
         [GOOD, ("Forwarded", "for=unknown"), ("Forwarded", "for=8.8.8.8")], "proxying", invalid)
    case("Forwarded fields are one list: a public first field", [14, 20],
         [GOOD, ("Forwarded", "for=8.8.8.8"), ("Forwarded", "for=unknown")], "proxying",
         ok("my-wallet", "8.8.8.8"))
    case("a direct client's loopback Forwarded is kept but locates nobody", [14, 29],
         [GOOD, ("Forwarded", "for=127.0.0.1")], "direct", ok("my-wallet"))
    case("a direct client's public Forwarded", [14], [GOOD, ("Forwarded", "for=192.0.2.43")], "direct",
         ok("my-wallet", "192.0.2.43"))
    case("a malformed Forwarded is refused", [14], [GOOD, ("Forwarded", "for=[::1]")], "direct", invalid)
    case("a missing App-Name before a malformed Forwarded", [14], [("Forwarded", "for=[::1]")], "direct",
         unauth)
    return c


# --------------------------------------------------------------------------
# caip19.json: CAIP-2 and CAIP-19 grammars (src/caip), by hand.


def caip_cases():
    c = []

    def ok(name, type_, text, **parts):
        c.append({"name": name, "rules": [], "input": {"type": type_, "text": text},
                  "expect": {"ok": parts}})

    def bad(name, type_, text, reason, component=None, at=None):
        e = {"reason": reason}
        if component:
            e["component"] = component
        if at is not None:
            e["at"] = at
        c.append({"name": name, "rules": [], "input": {"type": type_, "text": text},
                  "expect": {"error": e}})

    ok("Ethereum mainnet", "chainId", "eip155:1", namespace="eip155", reference="1")
    ok("Bitcoin mainnet", "chainId", "bip122:000000000019d6689c085ae165831e93",
       namespace="bip122", reference="000000000019d6689c085ae165831e93")
    ok("a reference with upper case and dashes", "chainId", "cosmos:Binance-Chain-Tigris",
       namespace="cosmos", reference="Binance-Chain-Tigris")
    ok("a reference with an underscore", "chainId", "starknet:SN_GOERLI", namespace="starknet",
       reference="SN_GOERLI")
    ok("a 32-character reference", "chainId", "eip155:" + "A" * 32, namespace="eip155", reference="A" * 32)
    ok("a 3-character namespace", "chainId", "abc:1", namespace="abc", reference="1")
    ok("an 8-character namespace", "chainId", "chainstd:8c3444cf8970a9e41a706fab93e7a6c4",
       namespace="chainstd", reference="8c3444cf8970a9e41a706fab93e7a6c4")
    bad("an upper-case namespace", "chainId", "EIP155:1", "INVALID_CHARACTER", "namespace", 0)
    bad("a 2-character namespace", "chainId", "ab:1", "TOO_SHORT", "namespace")
    bad("a 9-character namespace", "chainId", "abcdefghi:1", "TOO_LONG", "namespace")
    bad("an empty namespace", "chainId", ":1", "EMPTY", "namespace")
    bad("an empty reference", "chainId", "eip155:", "EMPTY", "reference")
    bad("a 33-character reference", "chainId", "eip155:" + "A" * 33, "TOO_LONG", "reference")
    bad("no reference at all", "chainId", "eip155", "MISSING_SEPARATOR", "namespace")
    bad("a short namespace is reported before the missing separator", "chainId", "ab",
        "TOO_SHORT", "namespace")
    bad("a chain id followed by an asset", "chainId", "eip155:1/slip44:60", "INVALID_CHARACTER",
        "reference", 8)
    bad("a dot in a reference", "chainId", "eip155:1.0", "INVALID_CHARACTER", "reference", 8)
    ok("ether", "assetType", "eip155:1/slip44:60", namespace="eip155", reference="1",
       assetNamespace="slip44", assetReference="60")
    ok("DAI", "assetType", "eip155:1/erc20:0x6b175474e89094c44da98b954eedeac495271d0f",
       namespace="eip155", reference="1", assetNamespace="erc20",
       assetReference="0x6b175474e89094c44da98b954eedeac495271d0f")
    ok("an asset reference with dots", "assetType", "hedera:mainnet/nft:0.0.55492",
       namespace="hedera", reference="mainnet", assetNamespace="nft", assetReference="0.0.55492")
    ok("a 128-character asset reference", "assetType", "eip155:1/erc20:" + "x" * 128,
       namespace="eip155", reference="1", assetNamespace="erc20", assetReference="x" * 128)
    ok("a percent sign in an asset reference", "assetType", "eip155:1/erc20:a%20b",
       namespace="eip155", reference="1", assetNamespace="erc20", assetReference="a%20b")
    bad("an upper-case asset namespace", "assetType", "eip155:1/ERC20:0x6b17", "INVALID_CHARACTER",
        "assetNamespace", 9)
    bad("a 2-character asset namespace", "assetType", "eip155:1/ab:x", "TOO_SHORT", "assetNamespace")
    bad("a 9-character asset namespace", "assetType", "eip155:1/abcdefghi:x", "TOO_LONG",
        "assetNamespace")
    bad("an empty asset reference", "assetType", "eip155:1/erc20:", "EMPTY", "assetReference")
    bad("a 129-character asset reference", "assetType", "eip155:1/erc20:" + "x" * 129, "TOO_LONG",
        "assetReference")
    bad("an underscore in an asset reference", "assetType", "eip155:1/erc20:a_b",
        "INVALID_CHARACTER", "assetReference", 16)
    bad("a chain id is not an asset type", "assetType", "eip155:1", "MISSING_SEPARATOR", "reference")
    bad("no asset reference", "assetType", "eip155:1/slip44", "MISSING_SEPARATOR", "assetNamespace")
    bad("an asset type carries no token id", "assetType", "hedera:mainnet/nft:0.0.55492/12",
        "UNEXPECTED_TOKEN_ID", None, 29)
    ok("a CryptoKitty", "assetId",
       "eip155:1/erc721:0x06012c8cf97BEaD5deAe237070F9587f8E7A266d/771769",
       namespace="eip155", reference="1", assetNamespace="erc721",
       assetReference="0x06012c8cf97BEaD5deAe237070F9587f8E7A266d", tokenId="771769")
    ok("a Hedera NFT", "assetId", "hedera:mainnet/nft:0.0.55492/12", namespace="hedera",
       reference="mainnet", assetNamespace="nft", assetReference="0.0.55492", tokenId="12")
    ok("a 78-character token id", "assetId", "eip155:1/erc721:0xabc/" + "9" * 78, namespace="eip155",
       reference="1", assetNamespace="erc721", assetReference="0xabc", tokenId="9" * 78)
    bad("an asset id needs a token id", "assetId", "eip155:1/slip44:60", "MISSING_TOKEN_ID")
    bad("an empty token id", "assetId", "eip155:1/erc721:0xabc/", "EMPTY", "tokenId")
    bad("a 79-character token id", "assetId", "eip155:1/erc721:0xabc/" + "9" * 79, "TOO_LONG", "tokenId")
    bad("a slash in a token id", "assetId", "eip155:1/erc721:0xabc/1/2", "INVALID_CHARACTER",
        "tokenId", 23)
    return c


# --------------------------------------------------------------------------
# rates_response.json (rulings 17, 18, 31), by hand.


def rates_response_cases():
    c = []

    def case(name, rules, rates, expect):
        c.append({"name": name, "rules": rules, "input": {"rates": [r.wire() for r in rates]},
                  "expect": expect})

    case("one pair, unique ids", [18, 31], [base("a"), base("b")], {"ok": {"count": 2}})
    case("an empty response", [18], [], {"ok": {"count": 0}})
    case("a rate with a defect is still part of the response", [2, 18],
         [base("a", assets={"amount": "DOGE"}), base("b")], {"ok": {"count": 2}})
    case("two pairs are refused", [18], [base("a"), base("b", pair="BTC_SOL")],
         {"refused": "MIXED_PAIRS"})
    case("a repeated rate id is refused", [31], [base("a"), base("a", mult="34")],
         {"refused": "DUPLICATE_ID"})
    return c


# --------------------------------------------------------------------------
# chain.json: chained routes (ruling 24). A brute-force model written from
# the ruling: every path of 1 to maxLegs pairs through distinct assets, every
# combination of one rate per leg, each leg judged by the single-pair rules
# above (`check` in ExactIn, the ExactOut leg below), nothing pruned.

REASON_ERROR = {
    # The error code a leg's reason stands for when chains failed past their
    # first leg (the most common reason decides; src/route/chain/no_route.rs).
    "EXPIRED": "RATE_EXPIRED",
    "EXACT_OUT_UNSUPPORTED": "UNSUPPORTED_SWAP_MODE",
    "SPONSORED_IN_EXACT_OUT": "UNSUPPORTED_SWAP_MODE",
    "BELOW_MIN": "AMOUNT_BELOW_LIMIT",
    "REQUIRED_INPUT_BELOW_MIN": "AMOUNT_BELOW_LIMIT",
    "ABOVE_MAX": "AMOUNT_ABOVE_LIMIT",
    "REQUIRED_INPUT_ABOVE_MAX": "AMOUNT_ABOVE_LIMIT",
    "INVALID_RATE": "INSUFFICIENT_LIQUIDITY",
    "CAMPAIGN_LIMIT_BELOW_MIN": "INSUFFICIENT_LIQUIDITY",
    "OVERFLOW": "INSUFFICIENT_LIQUIDITY",
    "NO_OUTPUT": "INSUFFICIENT_LIQUIDITY",
}


def floor8(x):
    """Rounded down to 8 decimal places (the input of the next ExactIn leg)."""
    return Fraction(x.numerator * 10**8 // x.denominator, 10**8)


def chain_paths(pairs, frm, to, max_legs):
    """Every path of 1 to max_legs pairs from `frm` to `to` in which each pair
    starts where the last ended and no asset appears twice."""
    out = []

    def walk(here, seen, path):
        for pair in pairs:
            a, b = pair.split("_")
            if a != here or b in seen:
                continue
            longer = path + [pair]
            if b == to:
                out.append(longer)
            elif len(longer) < max_legs:
                walk(b, seen | {b}, longer)

    walk(frm, {frm}, [])
    return out


def chain_forward(rate, amount, now, campaigns):
    """An ExactIn leg at `amount`: ruling 5 as for a single pair."""
    return check(rate, {"mode": "ExactIn", "from": amount, "to": None, "now": now,
                        "campaigns": campaigns, "strict": False})


def chain_backward(rate, target, now):
    """An ExactOut leg that must deliver `target`: ('ok', required input,
    output) or (reason, limit). Admission as ruling 5 (invalid, expired,
    capability, sponsored), then the required input ceil8((target + fee) /
    multiplier), which must fit and lie within the rate's [min, max] (no
    sponsored leg, so no campaign cap)."""
    if defect(rate):
        return ("INVALID_RATE", None)
    if rate.expiry <= now:
        return ("EXPIRED", None)
    if not rate.exact_out():
        return ("EXACT_OUT_UNSUPPORTED", None)
    if rate.sponsor is not None:
        return ("SPONSORED_IN_EXACT_OUT", None)
    x = required_input(rate, target)
    if not fits(target + rate.f()) or not fits8(x):
        return ("OVERFLOW", None)
    if x < rate.lo():
        return ("REQUIRED_INPUT_BELOW_MIN", rate.lo())
    if x > rate.hi():
        return ("REQUIRED_INPUT_ABOVE_MAX", rate.hi())
    out = x * rate.m() - rate.f()
    if not fits(out):
        return ("OVERFLOW", None)
    return ("ok", x, out)


def model_chains(responses, req):
    """Every chain, best first, the reason counts, and the error."""
    pairs = {}
    for response in responses:
        if not response:
            continue  # an empty response names no pair
        ids = {r.pair for r in response}
        assert len(ids) == 1, ("a response is one pair's", ids)
        pair = ids.pop()
        assert pair not in pairs, ("two responses for", pair)
        assert len({r.id for r in response}) == len(response), "rate ids repeat"
        pairs[pair] = response
    mode, now, campaigns = req["mode"], req["now"], req["campaigns"]
    paths = chain_paths(sorted(pairs), req["from"], req["to"], req["maxLegs"])
    chains = []      # (rates, legs [(input, output)], score)
    counts = {}      # reason -> how many rates it refused (each rate once)
    first_leg = []   # (reason, limit) of the refused rates of a path's first leg
    later = [False]  # some rate refused on a later leg

    def forward(path, at, amount, rates, legs):
        for rate in pairs[path[at]]:
            res = chain_forward(rate, amount, now, campaigns)
            if res[0] != "ok":
                continue
            net = res[1]
            if at + 1 == len(path):
                chains.append((rates + [rate], legs + [(amount, net)], net))
                continue
            nxt = floor8(net)
            if not fits8(nxt):
                continue
            forward(path, at + 1, nxt, rates + [rate], legs + [(amount, net)])

    def backward(path, at, target, rates, legs):
        for rate in pairs[path[at]]:
            res = chain_backward(rate, target, now)
            if res[0] != "ok":
                continue
            _, x, out = res
            if at == 0:
                chains.append(([rate] + rates, [(x, out)] + legs, x))
            else:
                backward(path, at - 1, x, [rate] + rates, [(x, out)] + legs)

    def judge(rate, value, last):
        """A leg at one reachable value: ('ok', next value or None) or the
        refusal (reason, limit)."""
        if mode == "ExactIn":
            res = chain_forward(rate, value, now, campaigns)
            if res[0] != "ok":
                return res
            if last:
                return ("ok", None)
            nxt = floor8(res[1])
            return ("ok", nxt) if fits8(nxt) else ("OVERFLOW", None)
        res = chain_backward(rate, value, now)
        return ("ok", res[1]) if res[0] == "ok" else res

    # Ruling 36: a rate is refused on a path when no value that reaches its
    # leg passes it (the values: every next value the passing rates of the
    # legs judged before produce); its reason is the one at the largest
    # reachable value; each rate is counted once, where first refused (paths
    # in order, legs in the order judged). A path whose leg passes nothing
    # stops there: the legs after it are not reached.
    counted = set()
    for path in paths:
        legs = list(range(len(path)))
        order_judged = legs if mode == "ExactIn" else legs[::-1]
        values = {req["amount"]}
        for step, leg in enumerate(order_judged):
            last = step + 1 == len(path)
            nxt = set()
            passed_any = False
            for rate in pairs[path[leg]]:
                results = [judge(rate, v, last) for v in sorted(values)]
                passing = [r for r in results if r[0] == "ok"]
                if passing:
                    passed_any = True
                    nxt.update(r[1] for r in passing if r[1] is not None)
                    continue
                res = results[-1]
                if leg != 0:
                    later[0] = True
                key = (path[leg], rate.id)
                if key in counted:
                    continue
                counted.add(key)
                counts[res[0]] = counts.get(res[0], 0) + 1
                if leg == 0:
                    first_leg.append(res)
            if not passed_any:
                break
            values = nxt

    for path in paths:
        if mode == "ExactIn":
            forward(path, 0, req["amount"], [], [])
        else:
            backward(path, len(path) - 1, req["amount"], [], [])

    def order(chain):
        rates, _, score = chain
        ties = [(r.pair.encode("utf-8"), r.f(), 0 if r.sponsor is None else 1,
                 r.id.encode("utf-8")) for r in rates]
        return (-score if mode == "ExactIn" else score, len(rates), ties)

    chains.sort(key=order)
    ranked = sorted(counts.items(), key=lambda c: (-c[1], c[0].encode("utf-8")))
    if chains:
        error = None
    elif not paths:
        error = api_error("ROUTE_UNAVAILABLE")
    elif not later[0]:
        # Every chain failed on its first leg: ruling 10 on those failures, the
        # amount being fromAmount. ExactOut has no fromAmount: the cases keep
        # out of gaps, where the amount would choose the code.
        amount = req["amount"] if mode == "ExactIn" else None
        error = classify(first_leg, amount)
    else:
        error = api_error(REASON_ERROR[ranked[0][0]])
    return chains, ranked, error


def chain_json(mode, chain):
    rates, legs, score = chain
    out = {"pairs": [r.pair for r in rates], "rates": [r.id for r in rates],
           "legs": [{"input": frac_text(i), "output": frac_text(o)} for i, o in legs]}
    if mode == "ExactIn":
        out["finalOutput"] = frac_text(score)
    else:
        out["requiredInput"] = text8(score)
    out["expiry"] = min(r.expiry for r in rates)
    return out


def chain_case(name, rules, responses, frm, to, amount, mode="ExactIn", max_legs=None,
               campaigns=None, want=None, counts=None, err=None, mn=None, mx=None, note=None):
    """A `chained_route` case. `want` (the chains as lists of rate ids, best
    first), `counts` ({reason: count}), `err` (the error code) and `mn`/`mx`
    (its limits) state the intended outcome by hand and are checked against
    the model."""
    campaigns = campaigns or {}
    req = {"mode": mode, "from": frm, "to": to, "amount": Fraction(D(amount)), "now": NOW,
           "maxLegs": 2 if max_legs is None else max_legs, "campaigns": campaigns}
    chains, ranked, error = model_chains(responses, req)
    got = [[r.id for r in rates] for rates, _, _ in chains]
    assert got == (want or []), (name, got, want)
    assert dict(ranked) == (counts or {}), (name, dict(ranked), counts)
    got_err = None if error is None else error["code"]
    assert got_err == err, (name, got_err, err)
    if error is not None:
        assert error.get("min") == mn and error.get("max") == mx, (name, error, mn, mx)
    inp = {"mode": mode, "from": frm, "to": to, "amount": amount, "now": NOW}
    if max_legs is not None:
        inp["maxLegs"] = max_legs
    if campaigns:
        inp["campaigns"] = campaigns
    inp["responses"] = [[r.wire() for r in response] for response in responses]
    expect = {"chains": [chain_json(mode, c) for c in chains],
              "rejectedCounts": [{"reason": r, "count": n} for r, n in ranked],
              "error": error}
    case = {"name": name, "rules": rules, "input": inp, "expect": expect}
    if note:
        case["note"] = note
    return case


def chain_cases():
    C = chain_case
    c = []

    def L(pair, id, mult, fee="0.01", mn="0.001", mx="10", **kw):
        return Rate(id, mult, fee, mn, mx, pair=pair, **kw)

    def market(direct="400", d=None, e1=None, s1=None, eo=False):
        """BTC->SOL: directly (`d`), or through ETH at 30 (`e1`) then 14 (`s1`),
        fees 0.01; keyword dicts change one rate."""
        kw = lambda changes, **given: {**given, "exact_out": eo, **(changes or {})}
        return [[L("BTC_SOL", "d", direct, **kw(d))],
                [L("BTC_ETH", "e1", "30", **kw(e1))],
                [L("ETH_SOL", "s1", "14", **kw(s1, mn="0.01", mx="100"))]]

    # Ranking (ExactIn).
    c.append(C("a two-leg chain beats the direct pair", [24], market(), "BTC", "SOL", "1",
               want=[["e1", "s1"], ["d"]],
               note="through ETH: 1 x 30 - 0.01 = 29.99 ETH, 29.99 x 14 - 0.01 = 419.85 SOL; "
                    "directly 1 x 400 - 0.01 = 399.99"))
    c.append(C("the direct pair beats the chain", [24], market("430"), "BTC", "SOL", "1",
               want=[["d"], ["e1", "s1"]], note="429.99 > 419.85"))
    c.append(C("equal final outputs: fewer legs first", [24], market("419.86"), "BTC", "SOL",
               "1", want=[["d"], ["e1", "s1"]], note="419.86 - 0.01 = 419.85 both ways"))
    c.append(C("maxLegs 1: the direct pair only", [24], market(), "BTC", "SOL", "1",
               max_legs=1, want=[["d"]], note="the chain through ETH (419.85) is not tried"))
    floor_market = [[L("A_B", "xb", "0.123456789", "0", "0", "10")],
                    [L("B_D", "bd", "100", "0", "0", "10")],
                    [L("A_C", "yc", "0.12345678", "0", "0", "10")],
                    [L("C_D", "cd", "100.000005", "0", "0", "10")]]
    # Without the floor, A_B then B_D would pay 12.3456789 > 12.3456786172839.
    assert Fraction(D("0.123456789")) * 100 > Fraction(D("0.12345678")) * Fraction(D("100.000005"))
    c.append(C("the 8-place floor between legs changes the winner", [24], floor_market,
               "A", "D", "1", want=[["yc", "cd"], ["xb", "bd"]],
               note="through B: 0.123456789 B is floored to 0.12345678, x 100 = 12.345678 "
                    "(12.3456789 unfloored); through C: 0.12345678 x 100.000005 = "
                    "12.3456786172839, between the two"))
    c.append(C("equal chains: the first leg's pair id by bytes", [24],
               [[L("BTC_eth", "e1", "30")], [L("eth_SOL", "s1", "14", mn="0.01", mx="100")],
                [L("BTC_USDT", "u1", "30")], [L("USDT_SOL", "v1", "14", mn="0.01", mx="100")]],
               "BTC", "SOL", "1", want=[["u1", "v1"], ["e1", "s1"]],
               note="both 419.85; \"BTC_USDT\" < \"BTC_eth\" by bytes ('U' 0x55 < 'e' 0x65), "
                    "although e comes before u ignoring case"))
    c.append(C("equal first legs: the lower fee (rule 7)", [7, 24],
               [[L("BTC_ETH", "a2", "30.001", "0.011"), L("BTC_ETH", "e1", "30")],
                [L("ETH_SOL", "s1", "14", mn="0.01", mx="100")]],
               "BTC", "SOL", "1", want=[["e1", "s1"], ["a2", "s1"]],
               note="a2: 1 x 30.001 - 0.011 = 29.99, as e1 with a higher fee: the same 419.85"))
    c.append(C("equal first legs: a base rate before its sponsored variant (rule 7)", [3, 7, 24],
               [[L("BTC_ETH", "a:spring", "30", sponsor="spring"), L("BTC_ETH", "b", "30")],
                [L("ETH_SOL", "s1", "14", mn="0.01", mx="100")]],
               "BTC", "SOL", "1", want=[["b", "s1"], ["a:spring", "s1"]],
               note="the same numbers (no campaign limit given, so max stays 10): base first "
                    "although \"a:spring\" < \"b\""))
    c.append(C("equal second legs: rate id by bytes (rule 7, leg by leg)", [7, 24],
               [[L("BTC_ETH", "e1", "30")],
                [L("ETH_SOL", "s", "14", mn="0.01", mx="100"),
                 L("ETH_SOL", "S", "14", mn="0.01", mx="100")]],
               "BTC", "SOL", "1", want=[["e1", "S"], ["e1", "s"]],
               note="the same first leg; 'S' (0x53) before 's' (0x73)"))
    three = lambda: [[L("BTC_SOL", "d", "400")], [L("BTC_ETH", "e1", "30")],
                     [L("ETH_USDT", "t1", "2000", "1", "0.01", "1000")],
                     [L("USDT_SOL", "v1", "0.0075", "0.01", "1", "100000")]]
    c.append(C("maxLegs 3: a three-leg chain beats the direct pair", [24], three(),
               "BTC", "SOL", "1", max_legs=3, want=[["e1", "t1", "v1"], ["d"]],
               note="1 x 30 - 0.01 = 29.99 ETH; 29.99 x 2000 - 1 = 59979 USDT; "
                    "59979 x 0.0075 - 0.01 = 449.8325 SOL against 399.99"))
    c.append(C("maxLegs 2: the three-leg chain is not tried", [24], three(),
               "BTC", "SOL", "1", max_legs=2, want=[["d"]]))
    c.append(C("no asset twice: cycles and a pair of one asset are not taken", [24],
               [[L("A_B", "ab", "2", "0", "0", "100")], [L("B_A", "ba", "2", "0", "0", "100")],
                [L("A_A", "aa", "10", "0", "0", "100")], [L("A_C", "ac", "1", "0", "0", "100")],
                [L("B_C", "bc", "1", "0", "0", "100")]],
               "A", "C", "1", max_legs=3, want=[["ab", "bc"], ["ac"]],
               note="A_B, B_A, A_C would pay 4 and A_A, A_C 10, but both name A twice"))
    c.append(C("expiry: a chain expires with its earliest leg", [24],
               market(s1=dict(expiry=NOW + 30000)), "BTC", "SOL", "1",
               want=[["e1", "s1"], ["d"]],
               note="s1 expires at now + 30 s, before e1 (now + 60 s)"))
    c.append(C("an expired second-leg rate is skipped, the other taken", [5, 24],
               [[L("BTC_SOL", "d", "400")], [L("BTC_ETH", "e1", "30")],
                [L("ETH_SOL", "s1", "14", mn="0.01", mx="100", expiry=NOW),
                 L("ETH_SOL", "s2", "13", mn="0.01", mx="100")]],
               "BTC", "SOL", "1", want=[["d"], ["e1", "s2"]], counts={"EXPIRED": 1},
               note="s2: 29.99 x 13 - 0.01 = 389.86 < 399.99"))
    # Sponsored variants in ExactIn (ruling 3 on each leg).
    variant = lambda: [[L("BTC_SOL", "d", "400")],
                       [L("BTC_ETH", "e1", "30"), L("BTC_ETH", "e1:spring", "30", "0",
                                                    sponsor="spring")],
                       [L("ETH_SOL", "s1", "14", mn="0.01", mx="100")]]
    c.append(C("a sponsored first leg at its campaign limit wins", [3, 24], variant(),
               "BTC", "SOL", "1", campaigns={"spring": "1"},
               want=[["e1:spring", "s1"], ["e1", "s1"], ["d"]],
               note="the variant: 30 ETH (no fee), 30 x 14 - 0.01 = 419.99 SOL"))
    c.append(C("one unit above the campaign limit the sponsored first leg is ABOVE_MAX",
               [3, 5, 24], variant(), "BTC", "SOL", "1.00000001", campaigns={"spring": "1"},
               want=[["e1", "s1"], ["d"]], counts={"ABOVE_MAX": 1},
               note="e1: 30.0000003 - 0.01 = 29.9900003 ETH, x 14 - 0.01 = 419.8500042"))
    second = lambda: [[L("BTC_ETH", "e1", "30")],
                      [L("ETH_SOL", "s1", "14", mn="0.01", mx="100"),
                       L("ETH_SOL", "s1:fall", "14", "0", "0.01", "100", sponsor="fall")]]
    c.append(C("a campaign caps a second leg at that leg's input: at the limit", [3, 24],
               second(), "BTC", "SOL", "1", campaigns={"fall": "29.99"},
               want=[["e1", "s1:fall"], ["e1", "s1"]],
               note="the second leg's input is 29.99 ETH, the limit: 29.99 x 14 = 419.86"))
    c.append(C("a campaign caps a second leg at that leg's input: one unit below", [3, 5, 24],
               second(), "BTC", "SOL", "1", campaigns={"fall": "29.98999999"},
               want=[["e1", "s1"]], counts={"ABOVE_MAX": 1}))
    # ExactOut.
    c.append(C("ExactOut: backwards from toAmount, the lower required input wins", [8, 24],
               market(eo=True, s1=dict(expiry=NOW + 45000)), "BTC", "SOL", "419.85",
               mode="ExactOut", want=[["e1", "s1"], ["d"]],
               note="s1 needs (419.85 + 0.01) / 14 = 29.99 ETH, e1 (29.99 + 0.01) / 30 = 1 BTC: "
                    "1.00000000; directly 419.86 / 400 = 1.04965000. The chain expires "
                    "with s1"))
    c.append(C("ExactOut: each required input is rounded up before the leg before it",
               [8, 24],
               [[L("A_B", "ab", "0.5", "0", "0", "10", exact_out=True)],
                [L("B_C", "bc", "3", "0", "0", "10", exact_out=True)],
                [L("A_C", "ac", "1.5", "0", "0", "10", exact_out=True)]],
               "A", "C", "1", mode="ExactOut", want=[["ac"], ["ab", "bc"]],
               note="bc needs 1 / 3 -> 0.33333334 B, ab 0.33333334 / 0.5 = 0.66666668 A; "
                    "directly 1 / 1.5 -> 0.66666667 (without the inner rounding both would "
                    "be 0.66666667)"))
    c.append(C("ExactOut: equal required inputs, fewer legs first", [24],
               market("419.86", eo=True), "BTC", "SOL", "419.85", mode="ExactOut",
               want=[["d"], ["e1", "s1"]], note="both need 1.00000000"))
    c.append(C("ExactOut: maxLegs 3 works back through three legs", [8, 24],
               [[L(r.pair, r.id, r.mult, r.fee, r.min, r.max, exact_out=True)] for [r] in three()],
               "BTC", "SOL", "449.8325", mode="ExactOut", max_legs=3,
               want=[["e1", "t1", "v1"], ["d"]],
               note="v1 needs 449.8425 / 0.0075 = 59979 USDT, t1 59980 / 2000 = 29.99 ETH, "
                    "e1 30 / 30 = 1 BTC; directly 449.8425 / 400 = 1.12460625"))
    c.append(C("ExactOut needs the capability on every leg", [4, 24],
               market(eo=True, s1=dict(exact_out=False)), "BTC", "SOL", "419.85",
               mode="ExactOut", want=[["d"]], counts={"EXACT_OUT_UNSUPPORTED": 1}))
    c.append(C("ExactOut never takes a sponsored leg", [3, 24],
               [[L("BTC_SOL", "d", "400", exact_out=True)],
                [L("BTC_ETH", "e1", "30", exact_out=True),
                 L("BTC_ETH", "e0", "30", "0", sponsor="spring", exact_out=True)],
                [L("ETH_SOL", "s1", "14", mn="0.01", mx="100", exact_out=True)]],
               "BTC", "SOL", "419.85", mode="ExactOut", campaigns={"spring": "10"},
               want=[["e1", "s1"], ["d"]], counts={"SPONSORED_IN_EXACT_OUT": 1},
               note="e0 (no fee) would need 29.99 / 30 -> 0.99966667 BTC, less than e1's 1"))
    c.append(C("ExactOut: a required input at a leg's max is within", [23, 24],
               market(eo=True, e1=dict(mx="1")), "BTC", "SOL", "419.85", mode="ExactOut",
               want=[["e1", "s1"], ["d"]], note="e1 needs exactly 1.00000000, its max"))
    c.append(C("ExactOut: a required input one unit above a leg's max leaves the chain out",
               [23, 24], market(eo=True, e1=dict(mx="0.99999999")), "BTC", "SOL", "419.85",
               mode="ExactOut", want=[["d"]], counts={"REQUIRED_INPUT_ABOVE_MAX": 1}))
    c.append(C("ExactOut: a later leg's required input below its min leaves the chain out",
               [23, 24], market(eo=True, s1=dict(mn="30")), "BTC", "SOL", "419.85",
               mode="ExactOut", want=[["d"]], counts={"REQUIRED_INPUT_BELOW_MIN": 1},
               note="s1 needs 29.99 ETH < 30; e1 is never tried"))
    # No route: no path.
    c.append(C("no path joins the assets: ROUTE_UNAVAILABLE", [24], market(), "SOL", "BTC", "1",
               err="ROUTE_UNAVAILABLE"))
    c.append(C("an asset no pair names: ROUTE_UNAVAILABLE", [24], market(), "BTC", "DOGE", "1",
               err="ROUTE_UNAVAILABLE"))
    c.append(C("from and to the same asset: ROUTE_UNAVAILABLE", [24], market(), "BTC", "BTC",
               "1", err="ROUTE_UNAVAILABLE"))
    c.append(C("only a three-leg path, maxLegs absent (2): ROUTE_UNAVAILABLE", [24],
               three()[1:], "BTC", "SOL", "1", err="ROUTE_UNAVAILABLE"))
    c.append(C("an empty response names no pair: ROUTE_UNAVAILABLE", [18, 24],
               [[L("BTC_ETH", "e1", "30")], []], "BTC", "SOL", "1", err="ROUTE_UNAVAILABLE",
               note="the second response would be ETH_SOL's, but holds no rate"))
    # No route: every chain fails on its first leg (ruling 10 on those).
    c.append(C("every first leg below its min: AMOUNT_BELOW_LIMIT with the smallest min", [10, 24],
               market(d=dict(mn="0.002")), "BTC", "SOL", "0.0005", err="AMOUNT_BELOW_LIMIT",
               mn="0.001", counts={"BELOW_MIN": 2}))
    c.append(C("every first leg above its max: AMOUNT_ABOVE_LIMIT with the largest effective max",
               [3, 10, 24],
               [[L("BTC_SOL", "d", "400"), L("BTC_SOL", "d:spring", "400", "0", mx="50",
                                             sponsor="spring")],
                [L("BTC_ETH", "e1", "30", mx="8")],
                [L("ETH_SOL", "s1", "14", mn="0.01", mx="1000")]],
               "BTC", "SOL", "20", campaigns={"spring": "12"}, err="AMOUNT_ABOVE_LIMIT",
               mx="12", counts={"ABOVE_MAX": 3},
               note="maxes 10, min(50, 12) = 12 and 8"))
    c.append(C("first legs around a gap: both limits, the nearer side's code", [10, 24],
               market(d=dict(mx="1"), e1=dict(mn="5")), "BTC", "SOL", "2",
               err="AMOUNT_ABOVE_LIMIT", mn="5", mx="1", counts={"ABOVE_MAX": 1, "BELOW_MIN": 1},
               note="2 - 1 = 1 < 5 - 2 = 3"))
    c.append(C("every first leg expired: RATE_EXPIRED", [10, 24],
               market(d=dict(expiry=NOW), e1=dict(expiry=NOW - 1)), "BTC", "SOL", "1",
               err="RATE_EXPIRED", counts={"EXPIRED": 2}))
    c.append(C("every first leg invalid: INSUFFICIENT_LIQUIDITY", [2, 10, 18, 24],
               market("0", e1=dict(assets={"min": "ETH"})), "BTC", "SOL", "1",
               err="INSUFFICIENT_LIQUIDITY", counts={"INVALID_RATE": 2}))
    c.append(C("a first leg within its limits without output: INSUFFICIENT_LIQUIDITY", [10, 24],
               market("0.00001", e1=dict(mn="2")), "BTC", "SOL", "1",
               err="INSUFFICIENT_LIQUIDITY", counts={"BELOW_MIN": 1, "NO_OUTPUT": 1},
               note="d: 1 x 0.00001 - 0.01 < 0 although 1 is within its limits; ruling 10, "
                    "not the most common reason, classifies first-leg failures"))
    c.append(C("only sponsored first legs whose campaign limit is below min: "
               "INSUFFICIENT_LIQUIDITY", [10, 24, 30],
               market(d=dict(sponsor="spring", mn="0.01"), e1=dict(sponsor="spring", mn="0.01")),
               "BTC", "SOL", "1", campaigns={"spring": "0.001"},
               err="INSUFFICIENT_LIQUIDITY", counts={"CAMPAIGN_LIMIT_BELOW_MIN": 2}))
    c.append(C("ExactOut: every first leg without the capability: UNSUPPORTED_SWAP_MODE",
               [4, 10, 24], market(eo=True, d=dict(exact_out=False), e1=dict(exact_out=False)),
               "BTC", "SOL", "10", mode="ExactOut", err="UNSUPPORTED_SWAP_MODE",
               counts={"EXACT_OUT_UNSUPPORTED": 2},
               note="s1 (the second leg, tried first) passes: 10.01 / 14 -> 0.71500000 ETH"))
    c.append(C("ExactOut: every first leg's required input above its max: AMOUNT_ABOVE_LIMIT",
               [10, 23, 24], market(eo=True, d=dict(mx="2.4"), e1=dict(mx="2")),
               "BTC", "SOL", "1000", mode="ExactOut", err="AMOUNT_ABOVE_LIMIT", mx="2.4",
               counts={"REQUIRED_INPUT_ABOVE_MAX": 2},
               note="d needs 1000.01 / 400 = 2.500025; s1 needs 1000.01 / 14 -> 71.42928572 ETH "
                    "and e1 71.43928572 / 30 -> 2.38130953"))
    c.append(C("ExactOut: every first leg's required input below its min: AMOUNT_BELOW_LIMIT",
               [10, 23, 24], market(eo=True, d=dict(mn="0.01"), e1=dict(mn="0.005")),
               "BTC", "SOL", "1", mode="ExactOut", err="AMOUNT_BELOW_LIMIT", mn="0.005",
               counts={"REQUIRED_INPUT_BELOW_MIN": 2},
               note="d needs 1.01 / 400 = 0.002525; s1 1.01 / 14 -> 0.07214286 ETH, "
                    "e1 0.08214286 / 30 -> 0.00273810"))
    # No route: chains failed past their first leg (the most common reason).
    c.append(C("a later leg failed too: the most common reason, BELOW_MIN", [24],
               market(d=dict(mn="0.002"), s1=dict(mn="0.05")), "BTC", "SOL", "0.001",
               err="AMOUNT_BELOW_LIMIT", counts={"BELOW_MIN": 2},
               note="d: 0.001 < 0.002; e1 passes with 0.001 x 30 - 0.01 = 0.02 ETH < s1's "
                    "min 0.05. The error carries no min: the failing limits need not be in the from "
                    "asset (s1's is in ETH)"))
    c.append(C("most common reasons tied: the code first by bytes", [24],
               market(d=dict(mn="2"), s1=dict(mx="20")), "BTC", "SOL", "1",
               err="AMOUNT_ABOVE_LIMIT", counts={"ABOVE_MAX": 1, "BELOW_MIN": 1},
               note="d BELOW_MIN on leg 1, s1 ABOVE_MAX on leg 2 (29.99 > 20): one each; "
                    "\"ABOVE_MAX\" < \"BELOW_MIN\""))
    c.append(C("each rate a reason stops is counted once, however many chains it stops", [24, 36],
               [[L("BTC_SOL", "d", "400", expiry=NOW), L("BTC_SOL", "d2", "401", expiry=NOW)],
                [L("BTC_ETH", "e1", "30"), L("BTC_ETH", "e2", "31"), L("BTC_ETH", "e3", "32")],
                [L("ETH_SOL", "s1", "14", mn="0.05", mx="100")]],
               "BTC", "SOL", "0.001", err="RATE_EXPIRED",
               counts={"EXPIRED": 2, "BELOW_MIN": 1},
               note="s1 is below its min after each of e1, e2, e3 (0.02, 0.021, 0.022 ETH): "
                    "ruling 36 counts it once (BELOW_MIN 1); the 2 expired direct rates are more "
                    "(EXPIRED 2, RATE_EXPIRED)"))
    c.append(C("the most common reason EXPIRED: RATE_EXPIRED", [24],
               [[L("BTC_SOL", "d", "400", mn="2")], [L("BTC_ETH", "e1", "30")],
                [L("ETH_SOL", "s1", "14", mn="0.01", mx="100", expiry=NOW),
                 L("ETH_SOL", "s2", "14.5", mn="0.01", mx="100", expiry=NOW - 1)]],
               "BTC", "SOL", "1", err="RATE_EXPIRED", counts={"EXPIRED": 2, "BELOW_MIN": 1}))
    c.append(C("ExactOut: the last leg is tried first; without the capability there: "
               "UNSUPPORTED_SWAP_MODE", [4, 24],
               market(eo=True, s1=dict(exact_out=False))[1:], "BTC", "SOL", "10",
               mode="ExactOut", err="UNSUPPORTED_SWAP_MODE",
               counts={"EXACT_OUT_UNSUPPORTED": 1},
               note="s1 fails on leg 2 of 2, so not a first-leg classification"))
    c.append(C("the floor leaves the next leg nothing: NO_OUTPUT, INSUFFICIENT_LIQUIDITY",
               [5, 24],
               [[L("A_B", "ab", "0.000000005", "0", "0", "10")],
                [L("B_C", "bc", "100", "0", "0", "10")]],
               "A", "C", "1", err="INSUFFICIENT_LIQUIDITY", counts={"NO_OUTPUT": 1},
               note="ab pays 0.000000005 B > 0, floored to 0: bc at input 0 pays 0"))
    return c


# --------------------------------------------------------------------------

# --------------------------------------------------------------------------
# feasible.json: the amounts that work (ruling 38), from a per-rate model of
# its own: each rate's interval worked out in closed form with Fractions
# (the thresholds of the net output and the floors divided out and rounded
# to the grid), then sorted and merged. Nothing here searches or bisects as
# the crate does.


def floor_to(x, places):
    return Fraction(int(x * 10**places // 1), 10**places)


def ceil_to(x, places):
    return Fraction(ceil(x * 10**places), 10**places)


def fixed(x, places):
    """A grid value written with all its places."""
    units = x * 10**places
    assert units.denominator == 1, x
    units = int(units)
    if places == 0:
        return str(units)
    return f"{units // 10**places}.{units % 10**places:0{places}d}"


def floor_need(rate, floors, places):
    """The smallest x on the grid whose net output x*m - fee is positive and
    meets every floor (None when none does)."""
    m, fee = rate.m(), rate.f()
    unit = Fraction(1, 10**places)
    need = floor_to(fee / m, places) + unit  # net > 0
    if "dust" in floors:
        need = max(need, ceil_to((fee + Fraction(D(floors["dust"]))) / m, places))
    if "feeMultiple" in floors:
        need = max(need, ceil_to(fee * (1 + Fraction(D(floors["feeMultiple"]))) / m, places))
    if "maxFeeShareBps" in floors:
        bps = floors["maxFeeShareBps"]
        if bps == 0:
            if fee > 0:
                return None
        else:
            need = max(need, ceil_to(fee * 10000 / (bps * m), places))
    return need


def feasible_interval(rate, q):
    """(from, to) on the grid of the amounts the rate serves, or None."""
    mode = q["mode"]
    if defect(rate) or rate.expiry <= q["now"]:
        return None
    if mode == "ExactOut" and (not rate.exact_out() or rate.sponsor is not None):
        return None
    emax = effective_max(rate, q["campaigns"])
    if emax < rate.lo():
        return None
    pf, pt = q["from_places"], q["to_places"]
    lo_x, hi_x = ceil_to(rate.lo(), pf), floor_to(emax, pf)
    if lo_x > hi_x:
        return None
    need = floor_need(rate, q["floors"], pf)
    if need is None:
        return None
    if mode == "ExactIn":
        low = max(lo_x, need)
        return (low, hi_x) if low <= hi_x else None
    # ExactOut: r(y) = ceil_pf((y + fee) / m) must lie in [max(lo_x, need), hi_x]:
    # r(y) <= hi_x  <=>  y <= hi_x*m - fee;  r(y) >= X  <=>  y > (X - unit)*m - fee.
    m, fee = rate.m(), rate.f()
    unit_t = Fraction(1, 10**pt)
    top = floor_to(hi_x * m - fee, pt)
    floor_x = max(lo_x, need)
    bottom = max(unit_t, floor_to((floor_x - Fraction(1, 10**pf)) * m - fee, pt) + unit_t)
    return (bottom, top) if bottom <= top else None


def tie_key(rate):
    return (rate.f(), 0 if rate.sponsor is None else 1, rate.id.encode("utf-8"))


def model_feasible(rates, q):
    pf, pt = q["from_places"], q["to_places"]
    places = pf if q["mode"] == "ExactIn" else pt
    ivs = []
    for rate in rates:
        iv = feasible_interval(rate, q)
        if iv is not None:
            ivs.append((iv[0], iv[1], rate))
    ivs.sort(key=lambda i: (i[0], tie_key(i[2])))
    ranges = []
    for lo, hi, _ in ivs:
        if ranges and lo <= ranges[-1][1] + Fraction(1, 10**places):
            ranges[-1][1] = max(ranges[-1][1], hi)
        else:
            ranges.append([lo, hi])

    def required(rate, y):
        return ceil_to((y + rate.f()) / rate.m(), pf)

    def named(x):
        serving = [r for lo, hi, r in ivs if lo <= x <= hi]
        if q["mode"] == "ExactIn":
            best = min(serving, key=lambda r: (-(x * r.m() - r.f()),) + tie_key(r))
        else:
            best = min(serving, key=lambda r: (required(r, x),) + tie_key(r))
        return {"amount": fixed(x, places), "rateId": best.id}

    out = {"mode": q["mode"],
           "min": named(ranges[0][0]) if ranges else None,
           "max": named(ranges[-1][1]) if ranges else None,
           "ranges": [{"from": fixed(a, places), "to": fixed(b, places)} for a, b in ranges],
           "maxWithin": None, "bestWithin": None}
    if q.get("spendable") is None:
        return out
    b = floor_to(Fraction(D(q["spendable"])), places)
    below = [(lo, hi, r) for lo, hi, r in ivs if lo <= b]
    if not below:
        return out
    # maxWithin: the furthest amount reached below the balance; the rate the
    # ranking picks there names it (ruling 41), as for min and max.
    furthest = max(hi for _, hi, _ in below)
    reach = min(furthest, b)
    out["maxWithin"] = named(reach)
    if q["mode"] == "ExactOut":
        out["bestWithin"] = dict(out["maxWithin"], netOutput=frac_text(reach))
        return out
    cands = [(x * r.m() - r.f(), x, r) for x, r in ((min(hi, b), r) for _, hi, r in below)]
    net, x, r = min(cands, key=lambda c: (-c[0], c[1]) + tie_key(c[2]))
    out["bestWithin"] = {"amount": fixed(x, places), "rateId": r.id, "netOutput": frac_text(net)}
    return out


def feasible_case(name, rules, rates, mode="ExactIn", campaigns=None, floors=None,
                  decimals=None, spendable=None, want=None, note=None):
    q = {"mode": mode, "now": NOW, "campaigns": campaigns or {}, "floors": floors or {},
         "from_places": min(8, decimals[0]) if decimals else 8,
         "to_places": min(8, decimals[1]) if decimals else 8, "spendable": spendable}
    expect = model_feasible(rates, q)
    for key, value in (want or {}).items():
        assert expect[key] == value, (name, key, expect[key], value)
    inp = {"mode": mode, "now": NOW, "rates": [r.wire() for r in rates]}
    if campaigns:
        inp["campaigns"] = campaigns
    if floors:
        inp["floors"] = floors
    if decimals:
        inp["decimals"] = {"from": decimals[0], "to": decimals[1]}
    if spendable is not None:
        inp["spendable"] = spendable
    case = {"name": name, "rules": rules, "input": inp, "expect": expect}
    if note:
        case["note"] = note
    return case


def feasible_cases():
    F = feasible_case
    r10 = Rate("r", "10", "0.5", "0.01", "5")
    c = []
    c.append(F("the fee moves the smallest amount above the min", [38], [r10], spendable="1.5",
               want={"min": {"amount": "0.05000001", "rateId": "r"},
                     "bestWithin": {"amount": "1.50000000", "rateId": "r", "netOutput": "14.5"}},
               note="10x - 0.5 > 0 needs x > 0.05"))
    c.append(F("dust floor", [38], [r10], floors={"dust": "1"},
               want={"min": {"amount": "0.15000000", "rateId": "r"}},
               note="10x - 0.5 >= 1 <=> x >= 0.15"))
    c.append(F("fee multiple", [38], [r10], floors={"feeMultiple": "3"},
               want={"min": {"amount": "0.20000000", "rateId": "r"}},
               note="10x - 0.5 >= 3 x 0.5 <=> x >= 0.2"))
    c.append(F("fee share leaves one amount", [38], [r10], floors={"maxFeeShareBps": 100},
               want={"ranges": [{"from": "5.00000000", "to": "5.00000000"}]},
               note="0.5 x 10000 <= 100 x 10x <=> x >= 5 = max"))
    c.append(F("fee share leaves nothing", [38], [r10], floors={"maxFeeShareBps": 50},
               spendable="5", want={"min": None, "ranges": [], "maxWithin": None},
               note="x >= 10 > max"))
    c.append(F("zero fee share admits fee-free rates only", [38],
               [r10, Rate("z", "9", "0", "1", "2")], floors={"maxFeeShareBps": 0},
               want={"ranges": [{"from": "1.00000000", "to": "2.00000000"}]}))
    gap = [Rate("a", "10", "0", "1", "2"), Rate("b", "10", "0", "2.00000001", "3"),
           Rate("c", "10", "0", "3.00000002", "4")]
    c.append(F("ranges merge only when adjacent on the grid", [38], gap, spendable="3.5",
               want={"ranges": [{"from": "1.00000000", "to": "3.00000000"},
                                {"from": "3.00000002", "to": "4.00000000"}],
                     "maxWithin": {"amount": "3.50000000", "rateId": "c"}}))
    c.append(F("in a gap the balance falls back to the range below", [38], gap,
               spendable="3.00000001",
               want={"maxWithin": {"amount": "3.00000000", "rateId": "b"}}))
    c.append(F("the largest amount within a balance names the ranking's choice there", [38, 41],
               [Rate("a", "10", "0", "1", "5"), Rate("b", "9", "0", "1", "8")], spendable="3",
               want={"maxWithin": {"amount": "3.00000000", "rateId": "a"}},
               note="b reaches furthest (8), but at 3 a pays 30 and b 27"))
    c.append(F("the best value: each rate's top or the balance", [38],
               [Rate("a", "10", "0", "1", "2"), Rate("b", "9", "0", "1", "5")], spendable="2.1",
               want={"bestWithin": {"amount": "2.00000000", "rateId": "a", "netOutput": "20"}},
               note="a at 2 pays 20, b at 2.1 pays 18.9"))
    c.append(F("equal best values: the smaller amount", [38],
               [Rate("a", "10", "0", "1", "2"), Rate("c", "8", "0", "1", "2.5")], spendable="2.5",
               want={"bestWithin": {"amount": "2.00000000", "rateId": "a", "netOutput": "20"}},
               note="c at 2.5 pays 20 too"))
    c.append(F("the min is named by the ranking's choice", [7, 38],
               [Rate("a", "10", "0", "1", "2"), Rate("b", "11", "0.1", "1", "1.5")],
               want={"min": {"amount": "1.00000000", "rateId": "b"},
                     "max": {"amount": "2.00000000", "rateId": "a"}},
               note="at 1: b pays 10.9, a 10"))
    c.append(F("from decimals set the ExactIn grid", [38], [r10], decimals=(2, 18),
               spendable="1.239",
               want={"min": {"amount": "0.06", "rateId": "r"},
                     "maxWithin": {"amount": "1.23", "rateId": "r"}}))
    c.append(F("rates that serve nothing take no part", [3, 5, 30, 38],
               [Rate("old", "100", "0", "0.001", "100", expiry=NOW),
                Rate("capped", "20", "0", "1", "9", sponsor="spring"),
                Rate("bad", "20", "0", "9", "1"),
                Rate("s", "20", "0", "0.1", "9", sponsor="autumn"), r10],
               campaigns={"spring": "0.5", "autumn": "0.5"},
               want={"ranges": [{"from": "0.05000001", "to": "5.00000000"}],
                     "max": {"amount": "5.00000000", "rateId": "r"}},
               note="old expired, capped's campaign limit 0.5 < min 1, bad min > max; "
                    "s capped at 0.5"))
    eo = Rate("r", "10", "0.5", "0.1", "2", exact_out=True)
    c.append(F("ExactOut: outputs whose required input is within the limits", [34, 38], [eo],
               mode="ExactOut", spendable="7.77",
               want={"min": {"amount": "0.49999991", "rateId": "r"},
                     "max": {"amount": "19.50000000", "rateId": "r"},
                     "maxWithin": {"amount": "7.77000000", "rateId": "r"}},
               note="ceil8((y + 0.5) / 10) >= 0.1 first at 0.49999991; <= 2 up to 19.5"))
    c.append(F("ExactOut: the required input rounded up to the from decimals", [34, 38], [eo],
               mode="ExactOut", decimals=(2, 1),
               want={"ranges": [{"from": "0.5", "to": "19.5"}]},
               note="ceil2((y + 0.5) / 10) >= 0.1 <=> y > 0.4; on a 0.1 grid 0.5"))
    c.append(F("ExactOut: the floors at the order's amount", [34, 38], [eo], mode="ExactOut",
               floors={"dust": "1"},
               want={"min": {"amount": "0.99999991", "rateId": "r"}},
               note="r >= 0.15 (10r - 0.5 >= 1): y > 0.14999999 x 10 - 0.5 = 0.9999999"))
    c.append(F("ExactOut: the smallest required input names the rate", [8, 38],
               [Rate("a", "10", "0", "0.1", "2", exact_out=True),
                Rate("b", "10", "1", "0.2", "5", exact_out=True)], mode="ExactOut",
               want={"min": {"amount": "0.99999991", "rateId": "a"},
                     "max": {"amount": "49.00000000", "rateId": "b"}},
               note="at 0.99999991 a needs 0.1, b 0.2"))
    c.append(F("ExactOut: no capability, or a sponsored variant: nothing", [3, 4, 38],
               [Rate("plain", "10", "0.5", "0.1", "2"),
                Rate("sp", "10", "0", "0.1", "2", exact_out=True, sponsor="spring")],
               mode="ExactOut", spendable="1", want={"min": None, "ranges": []}))
    return c


# --------------------------------------------------------------------------
# order_plan.json: rulings 33 (slippage) and 34 (plans fail closed)


def floor_to(x, places):
    return Fraction(x.numerator * 10**places // x.denominator, 10**places)


def ceil_to(x, places):
    return Fraction(-((-x.numerator * 10**places) // x.denominator), 10**places)


def carried(rate, to, from_places):
    """Ruling 34: the amount an ExactOut order carries for `to`: the required
    input at 8 places, then up to the from asset's decimals."""
    return ceil_to(required_input(rate, to), min(from_places, 8))


def working_to_amounts(rate, emax, from_places, to_places):
    """The smallest and largest `toAmount` (on the to grid) whose carried amount
    lies within [min, emax], found by bisection on the definition itself
    (`carried` is monotone in `to`); None when no toAmount works."""
    unit = Fraction(1, 10**to_places)

    def amount(units):
        return carried(rate, units * unit, from_places)

    # Largest t with amount(t) <= emax: amount(t) >= (t + fee) / m, so
    # t <= emax * m bounds it.
    lo_u, hi_u = 0, int(emax * rate.m() / unit) + 1
    while hi_u - lo_u > 1:
        mid = (lo_u + hi_u) // 2
        if amount(mid) <= emax:
            lo_u = mid
        else:
            hi_u = mid
    largest = lo_u
    # Smallest t >= 1 unit with amount(t) >= min.
    lo_u, hi_u = 0, max(1, int(rate.lo() * rate.m() / unit) + 1)
    while amount(hi_u) < rate.lo():
        hi_u *= 2
    while hi_u - lo_u > 1:
        mid = (lo_u + hi_u) // 2
        if amount(mid) >= rate.lo():
            hi_u = mid
        else:
            lo_u = mid
    smallest = max(hi_u, 1)
    if largest < 1 or smallest > largest:
        return None
    assert rate.lo() <= amount(smallest) <= emax and rate.lo() <= amount(largest) <= emax
    return smallest * unit, largest * unit


def model_plan(rates, body, decimals=None, policy="strict"):
    """A fixed order plan (rulings 5-10, 23, 33, 34) over `rates`."""
    mode = body.get("swapMode") or "ExactIn"
    frm = Fraction(D(body["fromAmount"]))
    to = Fraction(D(body["toAmount"]))
    slip = Fraction(D(str(body["slippage"]))) if body.get("slippage") is not None else Fraction(2)
    from_places = decimals["from"] if decimals else 8
    to_places = decimals["to"] if decimals else 8
    if decimals:
        exact, places_ = (frm, decimals["from"]) if mode == "ExactIn" else (to, decimals["to"])
        assert places(exact) <= places_, "cases keep exact amounts within their decimals"
    req = {"mode": mode, "from": frm, "to": to if mode == "ExactOut" else None,
           "now": NOW, "campaigns": {}, "strict": False}
    results = [check(r, req) for r in rates]
    ranked = sorted([(r, res) for r, res in zip(rates, results) if res[0] == "ok"],
                    key=lambda p: rank_key(p[0], p[1][1]))
    if not ranked:
        return {"error": classify(results, frm)}
    chosen = None
    if mode == "ExactOut" and policy == "strict":
        above = below = None
        for rate, (_, net, emax, _) in ranked:
            amount = carried(rate, to, from_places)
            if rate.lo() <= amount <= emax:
                chosen = (rate, net, emax, amount)
                break
            works = working_to_amounts(rate, emax, from_places, to_places)
            if amount > emax:
                side = {"rateId": rate.id, "required": amount, "limit": emax,
                        "toAmount": None if works is None else works[1]}
                if above is None or better(side, above, larger=True):
                    above = side
            else:
                side = {"rateId": rate.id, "required": amount, "limit": rate.lo(),
                        "toAmount": None if works is None else works[0]}
                if below is None or better(side, below, larger=False):
                    below = side
        if chosen is None:
            code = "AMOUNT_ABOVE_LIMIT"
            if below is not None and above is None:
                code = "AMOUNT_BELOW_LIMIT"
            elif below is not None and above["toAmount"] is not None \
                    and below["toAmount"] is not None \
                    and to - above["toAmount"] > below["toAmount"] - to:
                code = "AMOUNT_BELOW_LIMIT"
            error = api_error(code, mn=None if below is None else below["limit"],
                              mx=None if above is None else above["limit"])
            error["requiredInput"] = {k: side_json(v) for k, v in
                                      (("above", above), ("below", below))}
            return {"error": error}
    else:
        rate, (_, net, emax, _) = ranked[0]
        amount = frm if mode == "ExactIn" else carried(rate, to, from_places)
        chosen = (rate, net, emax, amount)
    rate, net, emax, amount = chosen
    if mode == "ExactIn":
        promised = floor_to(floor_to(net, 8), to_places)
        bound = to * (100 - slip) / 100
        if promised < bound:
            return {"error": slippage_error(bound, promised)}
        limits = None
        to_amount = promised
    else:
        bound = frm * (100 + slip) / 100
        if amount > bound:
            return {"error": slippage_error(bound, amount)}
        limits = limit_check(amount, rate, emax)
        to_amount = to
    return {"order": {"rateId": rate.id, "amount": frac_text(amount),
                      "toAmount": frac_text(to_amount), "amountLimits": limits}}


def better(new, old, larger):
    """The side nearer to working: the larger (smaller) working toAmount; one
    that works beats none; without either, the larger max (smaller min). The
    first in ranking order stays on a tie."""
    if new["toAmount"] is not None and old["toAmount"] is not None:
        return new["toAmount"] > old["toAmount"] if larger else new["toAmount"] < old["toAmount"]
    if (new["toAmount"] is None) != (old["toAmount"] is None):
        return new["toAmount"] is not None
    return new["limit"] > old["limit"] if larger else new["limit"] < old["limit"]


def side_json(side):
    if side is None:
        return None
    return {"rateId": side["rateId"], "required": frac_text(side["required"]),
            "limit": frac_text(side["limit"]),
            "toAmount": None if side["toAmount"] is None else frac_text(side["toAmount"])}


STATUS["SLIPPAGE_EXCEEDED"] = 409


def slippage_error(bound, available):
    return {"status": 409, "code": "SLIPPAGE_EXCEEDED", "bound": frac_text(bound),
            "available": frac_text(available)}


def plan_case(name, rules, rates, body, decimals=None, policy=None, want=None, note=None):
    """An `order_plan` case; `want` states the outcome by hand (a rate id, or
    an error code) and is checked against the model."""
    full = {"pairId": rates[0].pair, "fromAddress": None,
            "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7"}
    full.update(body)
    expect = model_plan(rates, full, decimals, policy or "strict")
    got = expect["order"]["rateId"] if "order" in expect else expect["error"]["code"]
    assert got == want, (name, got, want, expect)
    inp = {"now": NOW, "body": full, "rates": [r.wire() for r in rates]}
    if decimals:
        inp["decimals"] = decimals
    if policy:
        inp["limitPolicy"] = policy
    case = {"name": name, "rules": rules, "input": inp, "expect": expect}
    if note:
        case["note"] = note
    return case


def plan_cases():
    P = plan_case
    eo = lambda id, mult, fee, mn, mx, **kw: Rate(id, mult, fee, mn, mx, exact_out=True, **kw)
    # Three of the bundled sample's rates (cli/data/rates.json).
    d5 = eo("d5b1", "33.14218692377834", "0.00019192", "0.00079787", "8.33028657")
    ey = eo("eyJ", "33.20110457", "0.00215", "0.01", "3.5")
    c9 = eo("7c9e", "32.98701122334455", "0", "0.0005", "1.2")
    sample = [d5, ey, c9]
    c = []
    c.append(P("issue 29.1: a promise below toAmount at slippage 0 is refused", [33], sample,
               {"fromAmount": "0.5", "toAmount": "20", "slippage": 0}, want="SLIPPAGE_EXCEEDED",
               note="eyJ promises floor8(0.5 x 33.20110457 - 0.00215) = 16.59840228 < 20"))
    c.append(P("a promise equal to the bound is allowed", [33], sample,
               {"fromAmount": "0.5", "toAmount": "16.59840228", "slippage": "0"}, want="eyJ"))
    c.append(P("one unit above the promise at slippage 0 is refused", [33], sample,
               {"fromAmount": "0.5", "toAmount": "16.59840229", "slippage": "0"},
               want="SLIPPAGE_EXCEEDED"))
    c.append(P("the default slippage 2 at its edge", [11, 33], sample,
               {"fromAmount": "0.5", "toAmount": "16.93714518"}, want="eyJ",
               note="16.93714518 x 98 / 100 = 16.5984022764 <= 16.59840228"))
    c.append(P("the default slippage 2 just past its edge", [11, 33], sample,
               {"fromAmount": "0.5", "toAmount": "16.93714519"}, want="SLIPPAGE_EXCEEDED",
               note="16.93714519 x 98 / 100 = 16.5984022862 > 16.59840228"))
    c.append(P("slippage 100 accepts any promise", [33], sample,
               {"fromAmount": "0.5", "toAmount": "1000000", "slippage": 100}, want="eyJ"))
    c.append(P("a fractional slippage is exact", [33], sample,
               {"fromAmount": "0.5", "toAmount": "16.6", "slippage": "0.0096"},
               want="SLIPPAGE_EXCEEDED",
               note="16.6 x (100 - 0.0096) / 100 = 16.5984064 > 16.59840228"))
    c.append(P("the promise is the to asset's decimals, rounded down", [33, 34], sample,
               {"fromAmount": "0.5", "toAmount": "16.6", "slippage": "0.05"},
               decimals={"from": 8, "to": 2}, want="SLIPPAGE_EXCEEDED",
               note="floor2(16.59840228) = 16.59 < 16.6 x 99.95 / 100 = 16.5917"))
    c.append(P("the same promise at 8 places meets the bound", [33], sample,
               {"fromAmount": "0.5", "toAmount": "16.6", "slippage": "0.05"}, want="eyJ"))
    c.append(P("exact-out: the order amount above fromAmount at slippage 0 is refused", [33],
               sample, {"fromAmount": "0.3", "toAmount": "10", "swapMode": "ExactOut",
                        "slippage": 0}, want="SLIPPAGE_EXCEEDED",
               note="eyJ needs ceil8(10.00215 / 33.20110457) = 0.30125956 > 0.3"))
    c.append(P("exact-out: within fromAmount plus slippage", [33], sample,
               {"fromAmount": "0.3", "toAmount": "10", "swapMode": "ExactOut",
                "slippage": "0.5"}, want="eyJ", note="0.3 x 100.5 / 100 = 0.3015"))
    c.append(P("issue 29.2: exact-out above every max is refused by default", [34], sample,
               {"fromAmount": "0.5", "toAmount": "100000", "swapMode": "ExactOut"},
               want="AMOUNT_ABOVE_LIMIT",
               note="names d5b1's 3017.30240138 and the largest toAmount it serves"))
    c.append(P("issue 29.2: 10^20 ETH", [34], sample,
               {"fromAmount": "0.5", "toAmount": "100000000000000000000",
                "swapMode": "ExactOut"}, want="AMOUNT_ABOVE_LIMIT"))
    c.append(P("issue 29.3: exact-out below every min names the smallest toAmount", [34],
               sample, {"fromAmount": "0.5", "toAmount": "0.0001", "swapMode": "ExactOut"},
               want="AMOUNT_BELOW_LIMIT"))
    q = eo("q", "33.2", "0.00215", "0.01", "3.5")
    wide = eo("wide", "33", "0.001", "0.0001", "100")
    c.append(P("strict by default: a required input above max moves to the next route", [34],
               [q, wide], {"fromAmount": "3.4", "toAmount": "117", "swapMode": "ExactOut",
                           "slippage": 10}, want="wide"))
    c.append(P("the spec-literal opt-out keeps the best route and reports its limits", [23, 34],
               [q, wide], {"fromAmount": "3.4", "toAmount": "117", "swapMode": "ExactOut",
                           "slippage": 10}, policy="spec", want="q"))
    a = eo("a", "1", "0", "0.1", "5")
    b = eo("b", "100", "0", "1", "100")
    c.append(P("between routes: both sides are named, the nearer decides the code", [34],
               [a, b], {"fromAmount": "2", "toAmount": "10", "swapMode": "ExactOut"},
               want="AMOUNT_ABOVE_LIMIT",
               note="a serves up to 5 (5 away), b from 99.99999901 (89.99999901 away)"))
    c.append(P("between routes, nearer the min", [34],
               [a, b], {"fromAmount": "2", "toAmount": "90", "swapMode": "ExactOut"},
               want="AMOUNT_BELOW_LIMIT", note="85 above a's 5, 9.99999901 below b's"))
    doge = lambda mn, mx: eo("r", "1", "0", mn, mx, pair="DOGE_USDT")
    c.append(P("issue 29.4: the amount is judged after rounding to the from asset's decimals",
               [34], [doge("0.1", "10.5")],
               {"fromAmount": "10.2", "toAmount": "10.2", "swapMode": "ExactOut",
                "slippage": 10}, decimals={"from": 0, "to": 6}, want="AMOUNT_ABOVE_LIMIT",
               note="10.2 needs 10.2 at 8 places, 11 as carried: above 10.5; 10 works"))
    c.append(P("issue 29.4 under the opt-out: the amount and where it lies", [23, 34],
               [doge("0.1", "10.5")],
               {"fromAmount": "10.2", "toAmount": "10.2", "swapMode": "ExactOut",
                "slippage": 10}, decimals={"from": 0, "to": 6}, policy="spec", want="r"))
    c.append(P("rounding up can bring an amount inside the min", [34], [doge("10.2", "12")],
               {"fromAmount": "10.3", "toAmount": "10.1", "swapMode": "ExactOut",
                "slippage": 10}, decimals={"from": 0, "to": 6}, want="r",
               note="10.1 at 8 places is below 10.2; the order carries 11"))
    c.append(P("below a min whatever the rounding: the smallest toAmount on the to grid", [34],
               [doge("10.2", "12")],
               {"fromAmount": "10.3", "toAmount": "10", "swapMode": "ExactOut",
                "slippage": 10}, decimals={"from": 0, "to": 6}, want="AMOUNT_BELOW_LIMIT",
               note="t > 10 carries 11: 10.000001"))
    c.append(P("a rate no amount fits once rounded gives no toAmount", [34],
               [doge("10.2", "10.5")],
               {"fromAmount": "10.3", "toAmount": "10.3", "swapMode": "ExactOut",
                "slippage": 10}, decimals={"from": 0, "to": 6}, want="AMOUNT_ABOVE_LIMIT",
               note="carried amounts are whole: 10 < 10.2 and 11 > 10.5"))
    c.append(P("limits on the estimate come first", [5, 34], sample,
               {"fromAmount": "0.0001", "toAmount": "1", "swapMode": "ExactOut"},
               want="AMOUNT_BELOW_LIMIT", note="0.0001 is below every min: ruling 10"))
    return c


# --------------------------------------------------------------------------
# floors_select.json, floors_estimate.json, floors_chain.json: the economic
# floors in every selection and "no route" naming the floor and the amount
# that works (rulings 10 as amended by 38, 38). Hand-written tables: every
# number is worked out in the case's note.

def floors_select_cases():
    ten = Rate("r", "10", "0.5", "0.01", "5", exact_out=True).wire()
    three = Rate("t", "10", "0.3", "0.01", "5", exact_out=True).wire()
    err = lambda floor, working, details=None: dict(
        {"status": 503, "code": "INSUFFICIENT_LIQUIDITY", "floor": floor,
         "working": {"field": "fromAmount", "amount": working, "asset": "BTC"}},
        **({"details": details} if details else {}))
    return [
        {"name": "below the dust floor: the floor and the smallest amount that works",
         "rules": [10, 38],
         "input": {"mode": "ExactIn", "fromAmount": "0.09", "now": NOW,
                   "floors": {"dust": "1"}, "rates": [ten, three]},
         "expect": {"routes": [], "rejected": [
             {"rateId": "r", "reason": "BELOW_DUST", "limit": None},
             {"rateId": "t", "reason": "BELOW_DUST", "limit": None}],
             "error": err("BELOW_DUST", "0.13", "no route clears the floors for fromAmount 0.09 BTC: "
                          "the nearest, BELOW_DUST (net output 0.60 is below the dust floor 1); "
                          "the smallest amount that works is 0.13000000 BTC")},
         "note": "nets 0.9 - 0.5 = 0.4 and 0.9 - 0.3 = 0.6 < 1; the nearest is t (0.6); "
                 "10x - 0.3 >= 1 from x = 0.13"},
        {"name": "a fee share refusal names the floor",
         "rules": [10, 38],
         "input": {"mode": "ExactIn", "fromAmount": "0.1", "now": NOW,
                   "floors": {"maxFeeShareBps": 4000}, "rates": [ten]},
         "expect": {"routes": [], "rejected": [
             {"rateId": "r", "reason": "FEE_SHARE_TOO_LARGE", "limit": None}],
             "error": err("FEE_SHARE_TOO_LARGE", "0.125")},
         "note": "the fee 0.5 is 5000 bps of the gross 1; 0.5 x 10000 <= 4000 x 10x from x = 0.125"},
        {"name": "floors every route passes change nothing",
         "rules": [38],
         "input": {"mode": "ExactIn", "fromAmount": "0.09", "now": NOW,
                   "floors": {"dust": "0", "feeMultiple": "0", "maxFeeShareBps": 10000},
                   "rates": [ten]},
         "expect": {"routes": [{"rateId": "r", "netOutput": "0.4", "requiredInput": None,
                                "requiredInputLimits": None}],
                    "rejected": [], "error": None},
         "note": "0.09 x 10 - 0.5 = 0.4 > 0 passes dust 0, 0 x fee and a 100 % share"},
        {"name": "the strict ExactOut ranking names the largest toAmount that works",
         "rules": [10, 23, 34, 38],
         "input": {"mode": "ExactOut", "fromAmount": "0.5", "toAmount": "100", "now": NOW,
                   "limitPolicy": "strict", "rates": [ten]},
         "expect": {"routes": [], "rejected": [
             {"rateId": "r", "reason": "REQUIRED_INPUT_ABOVE_MAX", "limit": "5"}],
             "error": {"status": 400, "code": "AMOUNT_ABOVE_LIMIT", "max": "5",
                       "working": {"field": "toAmount", "amount": "49.5", "asset": "ETH"}}},
         "note": "100 ETH needs 100.5 / 10 = 10.05 BTC > 5; the most: 5 x 10 - 0.5 = 49.5 ETH"},
    ]


def floors_estimate_cases():
    twenty = Rate("r", "20", "0.5", "0.1", "20", exact_out=True).wire()
    return [
        {"name": "above every max names the largest toAmount that works",
         "rules": [8, 10, 38],
         "input": {"toAmount": "1000", "now": NOW, "rates": [twenty]},
         "expect": {"error": {"status": 400, "code": "AMOUNT_ABOVE_LIMIT", "max": "20",
                              "working": {"field": "toAmount", "amount": "399.5", "asset": "ETH"}}},
         "note": "1000.5 / 20 = 50.025 BTC > 20; the most: 20 x 20 - 0.5 = 399.5 ETH"},
        {"name": "below every min names the smallest toAmount that works",
         "rules": [8, 10, 38],
         "input": {"toAmount": "1", "now": NOW, "rates": [twenty]},
         "expect": {"error": {"status": 400, "code": "AMOUNT_BELOW_LIMIT", "min": "0.1",
                              "working": {"field": "toAmount", "amount": "1.49999981",
                                          "asset": "ETH"}}},
         "note": "1.5 / 20 = 0.075 < 0.1; ceil8((y + 0.5) / 20) >= 0.1 once "
                 "y > 0.09999999 x 20 - 0.5 = 1.4999998: 1.49999981"},
        {"name": "the floors hold each rate at its required input",
         "rules": [8, 38],
         "input": {"toAmount": "9.5", "now": NOW, "floors": {"feeMultiple": "19.5"},
                   "rates": [Rate("a", "20", "0.5", "0.001", "20", exact_out=True).wire(),
                             Rate("b", "19", "0.1", "0.001", "20", exact_out=True).wire()]},
         "expect": {"estimate": {"fromAmount": "0.50526316", "rateId": "b"}},
         "note": "a needs 10 / 20 = 0.5 (net 9.5 < 19.5 x 0.5 = 9.75); b needs "
                 "ceil8(9.6 / 19) = 0.50526316 (net 9.50000004 >= 1.95)"},
        {"name": "below the floors names the floor and the smallest toAmount",
         "rules": [8, 10, 38],
         "input": {"toAmount": "9.5", "now": NOW, "floors": {"feeMultiple": "20"},
                   "rates": [Rate("r", "20", "0.5", "0.001", "20", exact_out=True).wire()]},
         "expect": {"error": {"status": 503, "code": "INSUFFICIENT_LIQUIDITY",
                              "floor": "FEE_TOO_LARGE",
                              "working": {"field": "toAmount", "amount": "9.99999981",
                                          "asset": "ETH"}}},
         "note": "net 9.5 < 20 x 0.5 = 10; the input must reach 0.525: "
                 "y > 0.52499999 x 20 - 0.5 = 9.9999998"},
    ]


def floors_chain_cases():
    be = Rate("be", "20", "0.5", "0.001", "1000", exact_out=True).wire()
    es = Rate("es", "10", "2", "0.001", "1000", exact_out=True, pair="ETH_SOL").wire()
    chain = {"pairs": ["BTC_ETH", "ETH_SOL"], "rates": ["be", "es"],
             "legs": [{"input": "0.1", "output": "1.5"}, {"input": "1.5", "output": "13"}],
             "finalOutput": "13", "expiry": LATER}
    base = {"mode": "ExactIn", "from": "BTC", "to": "SOL", "amount": "0.1", "now": NOW,
            "responses": [[be], [es]]}
    return [
        {"name": "a dust floor at the chain's output passes (inclusive)",
         "rules": [24, 38], "input": dict(base, floors={"dust": "13"}),
         "expect": {"chains": [chain], "rejectedCounts": [], "error": None},
         "note": "0.1 x 20 - 0.5 = 1.5 ETH, 1.5 x 10 - 2 = 13 SOL >= 13"},
        {"name": "the dust holds the last leg only",
         "rules": [24, 38], "input": dict(base, floors={"dust": "13.00000001"}),
         "expect": {"chains": [], "rejectedCounts": [{"reason": "BELOW_DUST", "count": 1}],
                    "error": {"status": 503, "code": "INSUFFICIENT_LIQUIDITY"}},
         "note": "13 SOL < 13.00000001; the first leg's 1.5 ETH is not held to it"},
        {"name": "a fee multiple refusing the first leg is its no route",
         "rules": [10, 24, 38], "input": dict(base, floors={"feeMultiple": "3.00000001"}),
         "expect": {"chains": [], "rejectedCounts": [{"reason": "FEE_TOO_LARGE", "count": 1}],
                    "error": {"status": 503, "code": "INSUFFICIENT_LIQUIDITY",
                              "floor": "FEE_TOO_LARGE"}},
         "note": "1.5 ETH < 3.00000001 x 0.5 = 1.500000005"},
        {"name": "ExactOut legs are held at their required inputs",
         "rules": [24, 38],
         "input": dict(base, mode="ExactOut", amount="13", floors={"dust": "13.1"}),
         "expect": {"chains": [], "rejectedCounts": [{"reason": "BELOW_DUST", "count": 1}],
                    "error": {"status": 503, "code": "INSUFFICIENT_LIQUIDITY"}},
         "note": "13 SOL needs 15 / 10 = 1.5 ETH, which yields 13 < 13.1"},
    ]


def main():
    counts = {}
    counts["eligibility.json"] = write("eligibility.json", "select", eligibility_cases())
    counts["no_route.json"] = write("no_route.json", "select", no_route_cases())
    counts["sponsored.json"] = write("sponsored.json", "select", sponsored_cases())
    counts["ranking.json"] = write("ranking.json", "select", ranking_cases())
    counts["exact_out.json"] = write("exact_out.json", "select", exact_out_cases())
    counts["estimate.json"] = write("estimate.json", "estimate", estimate_cases())
    counts["decimals.json"] = write("decimals.json", "json_number", decimal_cases())
    counts["amount_grammar.json"] = write("amount_grammar.json", "amount_text", amount_cases())
    counts["order_body.json"] = write("order_body.json", "fixed_order_body", fixed_body_cases())
    counts["float_order_body.json"] = write("float_order_body.json", "float_order_body",
                                            float_body_cases())
    counts["status.json"] = write("status.json", "reconcile", status_cases())
    counts["forwarded.json"] = write("forwarded.json", "forwarded", forwarded_cases())
    counts["headers.json"] = write("headers.json", "client_headers", header_cases())
    counts["caip19.json"] = write("caip19.json", "caip", caip_cases())
    counts["rates_response.json"] = write("rates_response.json", "rates_response",
                                          rates_response_cases())
    counts["chain.json"] = write("chain.json", "chained_route", chain_cases())
    counts["order_plan.json"] = write("order_plan.json", "order_plan", plan_cases())
    counts["feasible.json"] = write("feasible.json", "feasible", feasible_cases())
    counts["floors_select.json"] = write("floors_select.json", "select", floors_select_cases())
    counts["floors_estimate.json"] = write("floors_estimate.json", "estimate",
                                           floors_estimate_cases())
    counts["floors_chain.json"] = write("floors_chain.json", "chained_route", floors_chain_cases())
    for name, n in counts.items():
        print(f"{n:4d}  {name}")
    print(f"{sum(counts.values()):4d}  total")


if __name__ == "__main__":
    main()
