#!/usr/bin/env python3
"""Writes vectors/price_guard.json and vectors/verify.json (rulings 40, 42).

An independent model in exact fractions: the median of the multipliers of
the rates that can serve some 8-place amount (ruling 42: valid, unexpired,
some amount within the limits with a positive net), the deviation in basis
points, the inclusive bound, the amount that works nearest a refused one,
the ExactIn ranking of what is left (net = x * m - fee, highest first; the
cases have no ties), and the order checks of ruling 40 written out by hand
(expected mismatches listed per case). Run: python3 vectors/generate_ruling40.py
"""
import json
import math
from fractions import Fraction as F
from pathlib import Path

HERE = Path(__file__).parent
NOW = 1785000000000
LATER = 4102444800000


def text(q):
    """Exact plain decimal text of a fraction with a finite expansion."""
    q = F(q)
    sign = "-" if q < 0 else ""
    q = abs(q)
    scale = 0
    while q.denominator != 1:
        q *= 10
        scale += 1
    digits = str(q.numerator).rjust(scale + 1, "0")
    if scale:
        digits = digits[:-scale] + "." + digits[-scale:]
    return sign + digits


def rate(rid, m, fee="0.0002", mn="0.001", mx="8", expiry=LATER):
    return {"amount": {"assetId": "ETH", "value": m}, "expiry": expiry, "id": rid,
            "max": {"assetId": "BTC", "value": mx}, "min": {"assetId": "BTC", "value": mn},
            "minerFee": {"assetId": "ETH", "value": fee}, "pairId": "BTC_ETH"}


def served(r):
    """The 8-place amounts (in units of 1e-8) rate `r` serves without a
    guard: from the least amount above its min with a positive net, to its
    max; None when empty, expired or invalid."""
    m, fee = F(r["amount"]["value"]), F(r["minerFee"]["value"])
    mn, mx = F(r["min"]["value"]), F(r["max"]["value"])
    if r["expiry"] <= NOW or mn > mx:
        return None
    lo = max(math.ceil(mn * 10**8), 1, math.floor(fee / m * 10**8) + 1)
    hi = math.floor(mx * 10**8)
    return (lo, hi) if lo <= hi else None


def median(rates):
    ms = sorted(F(r["amount"]["value"]) for r in rates if served(r) is not None)
    if not ms:
        return None
    n = len(ms)
    return ms[n // 2] if n % 2 else (ms[n // 2 - 1] + ms[n // 2]) / 2


def guard_case(name, rates, x, bps, reference=None, note=""):
    ref = F(reference) if reference is not None else median(rates)
    routes, rejected = [], []
    for r in rates:
        m, fee = F(r["amount"]["value"]), F(r["minerFee"]["value"])
        if r["expiry"] <= NOW:
            rejected.append({"rateId": r["id"], "reason": "EXPIRED"})
            continue
        if F(r["min"]["value"]) > F(r["max"]["value"]):
            rejected.append({"rateId": r["id"], "reason": "INVALID_RATE"})
            continue
        if F(x) < F(r["min"]["value"]):
            rejected.append({"rateId": r["id"], "reason": "BELOW_MIN"})
            continue
        if F(x) > F(r["max"]["value"]):
            rejected.append({"rateId": r["id"], "reason": "ABOVE_MAX"})
            continue
        net = F(x) * m - fee
        if net <= 0:
            rejected.append({"rateId": r["id"], "reason": "NO_OUTPUT"})
            continue
        if ref is not None and abs(m - ref) * 10000 > bps * ref:
            dev = math.ceil(abs(m - ref) * 10000 * 100 / ref)
            dev_text = text(F(dev, 100)) if dev <= (2**96 - 1) else None
            rejected.append({"rateId": r["id"], "reason": "PRICE_OUTLIER", "multiplier": text(m),
                             "reference": text(ref), "deviationBps": dev_text})
            continue
        routes.append((net, r["id"]))
    routes.sort(key=lambda t: -t[0])
    expect = {"reference": None if ref is None else text(ref),
              "routes": [rid for _, rid in routes], "rejected": rejected}
    if not routes:
        if not rates:
            expect["error"] = {"code": "INSUFFICIENT_LIQUIDITY", "status": 503}
        elif any(r["reason"] == "PRICE_OUTLIER" for r in rejected):
            # The amount that works under the guard nearest the one asked:
            # the largest when the amount is above them all, else the smallest.
            admitted = [served(r) for r in rates if served(r) is not None and not (
                ref is not None and abs(F(r["amount"]["value"]) - ref) * 10000 > bps * ref)]
            working = None
            if admitted:
                low, high = min(a for a, _ in admitted), max(b for _, b in admitted)
                near = high if high < F(x) * 10**8 else low
                working = {"field": "fromAmount", "amount": text(F(near, 10**8)), "asset": "BTC"}
            expect["error"] = {"code": "PRICE_OUTLIER", "status": 502, "working": working}
    guard = {"maxDeviationBps": bps}
    if reference is not None:
        guard["reference"] = reference
    return {"name": name, "rules": [40, 42], "input": {"rates": rates, "fromAmount": x, "now": NOW,
            "priceGuard": guard}, "expect": expect, "note": note}


def price_guard():
    liar = [rate("a", "33.1"), rate("b", "33.2"), rate("c", "34"), rate("d", "30"), rate("liar", "900000")]
    cases = [
        guard_case("odd count: the middle one, the liar out", liar, "0.5", 500,
                   note="sorted 30, 33.1, 33.2, 34, 900000: median 33.2; 30 is 963.86 bps below"),
        guard_case("even count: the mean of the two middle ones", liar[1:], "0.5", 300,
                   note="33.2, 34, 30, 900000 → (33.2 + 34) / 2 = 33.6"),
        guard_case("the bound is inclusive", [rate("in", "105"), rate("low", "95"), rate("out", "105.00000001")],
                   "1", 500, reference="100", note="5 % of 100 is exactly 5"),
        guard_case("0 bps admits the reference only", [rate("a", "33.1"), rate("b", "33.2")], "1", 0,
                   note="the mean 33.15 is neither multiplier"),
        guard_case("all equal", [rate("a", "7"), rate("b", "7.00", fee="0.0001"), rate("c", "7.0", fee="0.0003")],
                   "1", 0),
        guard_case("one rate is its own median", [rate("only", "33.1")], "1", 0),
        guard_case("zero rates", [], "1", 100),
        guard_case("expired and invalid rates are not in the median",
                   [rate("a", "10"), rate("b", "20"), rate("c", "30"),
                    rate("x", "1000", expiry=NOW), rate("y", "2000", mn="9", mx="8")], "1", 5000,
                   note="10, 20, 30: median 20 (50 % admits 10 and 30)"),
        guard_case("u32::MAX bps", [rate("in", "42949772.95"), rate("out", "42949772.96")], "1", 4294967295,
                   reference="100"),
        guard_case("a deviation past Decimal is null",
                   [rate("tiny", "0.0000000000000000000000000001", fee="0"),
                    rate("huge", "79228162514264337593543950335", fee="0"), rate("mid", "1", fee="0")],
                   "1", 10000, note="median 1; huge is 7.9e32 bps away"),
        guard_case("a median with 29 places", [rate("a", "0.0000000000000000000000000001", fee="0"),
                                              rate("b", "0.0000000000000000000000000002", fee="0")],
                   "1", 3333, note="1.5e-28: each is 3333.33… bps away"),
        guard_case("rates that can serve nothing have no vote",
                   [rate("h1", "33", fee="0", mn="0", mx="10"), rate("h2", "33", fee="0.001", mn="0", mx="10"),
                    rate("h3", "33", fee="0.002", mn="0", mx="10"), rate("outlier", "330", fee="0", mn="0", mx="10"),
                    rate("d1", "330", fee="1000", mn="0.1", mx="1"), rate("d2", "330", fee="1000", mn="0.1", mx="1"),
                    rate("d3", "330", fee="1000", mn="0.1", mx="1")], "1", 500,
                   note="the decoys' fee 1000 exceeds 330 × 1: voters 33, 33, 33, 330, median 33"),
        guard_case("a refused amount names the smallest amount that works",
                   [rate("a", "33", fee="0", mn="1", mx="8"), rate("b", "33.1", fee="0", mn="1", mx="8"),
                    rate("liar", "900000", fee="0", mn="0.1", mx="8")], "0.1", 500,
                   note="median 33.1; only the liar takes 0.1; the others serve 1 to 8"),
        guard_case("a refused amount above every honest max names the largest",
                   [rate("honest", "33", fee="0", mn="0", mx="1"), rate("liar", "330", fee="0", mn="0", mx="100")],
                   "5", 100, reference="33", note="honest serves up to 1"),
    ]
    return {"kind": "price_guard", "cases": cases}


LIVE_RATE = {"amount": {"assetId": "USDT", "value": 77.9}, "expiry": LATER,
             "id": "ZXhvZHVzOmludDJ8TFRDX0xUQy1VU0RUX0VUSHx3cWtmcjB4aHRifGdubXpwfDE2a3N8MHxjaXwxMXh8enxmZmt8dWpxMnZk.e3addf4dad784c0ba424671b41c8ff0a",
             "max": {"assetId": "LTC", "value": 100}, "min": {"assetId": "LTC", "value": 0.1},
             "minerFee": {"assetId": "USDT", "value": 0.01}, "pairId": "LTC_USDT"}


def verify():
    payloads = HERE.parent / "tests" / "payloads"
    body = json.loads((payloads / "order-create-request.json").read_text())
    live = json.loads((payloads / "order-create-response.json").read_text())
    live["status"] = "awaiting"

    def tampered(**changes):
        order = json.loads(json.dumps(live))
        for key, value in changes.items():
            key = key.replace("__", ".")
            if "." in key:
                outer, inner = key.split(".")
                order[outer][inner] = value
            elif value is Ellipsis:
                order.pop(key, None)
            else:
                order[key] = value
        return order

    def case(name, order, mismatches, read=None, note=""):
        options = {"now": NOW}
        if read:
            options["read"] = read
        return {"name": name, "rules": [27, 33, 40],
                "input": {"rates": [LIVE_RATE], "body": body, "order": order, "options": options},
                "expect": {"ok": not mismatches, "mismatches": mismatches}, "note": note}

    def m(field, check, planned, returned):
        return {"field": field, "check": check, "planned": planned, "returned": returned}

    to = body["toAddress"]
    cases = [
        case("the live order, as created, passes", live, []),
        case("a later read may be in progress", tampered(status="inProgress"), [], read="fetched"),
        # Ruling 45: on creation the status must not be definitive (live 201s say inProgress).
        case("on creation the status may be in progress", tampered(status="inProgress"), []),
        case("on creation the status must not be definitive", tampered(status="refunded"),
             [m("status", "open", OPEN, "refunded")]),
        case("the deposit address is the payout address", tampered(payInAddress=to),
             [m("payInAddress", "depositAddress", "a deposit address, not the request's toAddress", to)]),
        case("the deposit address is a burn address", tampered(payInAddress="1111111111111111111114oLvT2"),
             [m("payInAddress", "depositAddress", "a deposit address, not a burn address",
                "1111111111111111111114oLvT2")]),
        case("EVM hex in lower case is the same address", tampered(toAddress=to.lower()), []),
        case("one character off", tampered(toAddress=to[:-1] + "e"), [m("toAddress", "equal", to, to[:-1] + "e")]),
        case("a Cyrillic look-alike", tampered(toAddress=to.replace("ea41", "e\u0430" + "41")),
             [m("toAddress", "equal", to, to.replace("ea41", "e\u0430" + "41"))]),
        case("an empty address", tampered(toAddress=""), [m("toAddress", "equal", to, None)]),
        case("a larger amount", tampered(amount__value="1.26"), [m("amount", "equal", "1.25", "1.26")]),
        case("the same amount as a number", tampered(amount__value=1.25), []),
        case("another rate", tampered(rateId="r-2"), [m("rateId", "equal", LIVE_RATE["id"], "r-2")]),
        case("a sponsor appears", tampered(sponsoredByCampaignId="c-1"),
             [m("sponsoredByCampaignId", "equal", None, "c-1")]),
        case("toAmount just below the slippage bound", tampered(toAmount__value="96.03999999"),
             [m("toAmount", "atLeast", text(F(98) * 98 / 100), "96.03999999")],
             note="98 × (100 − 2) / 100 = 96.04"),
        case("toAmount at the bound", tampered(toAmount__value="96.04"), []),
        case("a tag nobody asked for", tampered(toAddressTag="12345"), [m("toAddressTag", "equal", None, "12345")]),
        case("no deposit address", tampered(payInAddress=""),
             [m("payInAddress", "depositAddress", "a deposit address", None)]),
        case("several fields at once", tampered(pairId="LTC_BTC", amount__value="2", status="complete",
                                                fromAddress="ltc1qwjpyxexjcypqddr7ce6yv349n4q68g0xqraltv"),
             [m("pairId", "equal", "LTC_USDT", "LTC_BTC"), m("amount", "equal", "1.25", "2"),
              m("fromAddress", "equal", body["fromAddress"], "ltc1qwjpyxexjcypqddr7ce6yv349n4q68g0xqraltv"),
              m("status", "open", OPEN, "complete")]),
    ]
    return {"kind": "verify_order", "cases": cases}


OPEN = "awaiting, inProgress, delayed or swapped"


for name, data in [("price_guard.json", price_guard()), ("verify.json", verify())]:
    (HERE / name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(name, len(data["cases"]))
