#!/usr/bin/env python3
"""Writes vectors/schedule.json, vectors/requote.json and vectors/deposit.json
(ruling 50: decisions have a lifetime).

An independent model in exact fractions, sharing nothing with the crate:

- schedule: the ExactIn best at instant t is, among the valid rates with
  expiry > t, min <= x <= max and x*m - fee > 0, the highest net (ties: lower
  fee, then id bytes). The schedule evaluates it at `now` and at every expiry
  after `now` (the only instants anything can change), merges neighbours with
  the same rate id (or both no route), and ends at the last expiry of any
  rate. validUntil is the first interval's end (null when nothing is live).
- requote: the class of a fresh promise against the original promise and
  bound, and the loss (promised - fresh) * 10^4 / promised (ExactOut:
  fresh - promised), rounded up to 2 places.
- deposit: first match of expiry <= observedAt, deposit < min, deposit > max,
  deposit == the plan's amount, else another amount; the output
  floor8(deposit * m - fee), 0 when not positive.

Each case states by hand what it is meant to show; the generator stops when
the model disagrees. Run: python3 vectors/generate_ruling50.py
"""
import json
import math
from fractions import Fraction as F
from pathlib import Path

HERE = Path(__file__).parent


def text(q):
    """Exact plain decimal text of a fraction with a finite expansion,
    without trailing zeros."""
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


def rate(rid, m, fee, mn, mx, expiry):
    # JSON numbers, as the service writes rates (shortest round-trip text).
    m, fee, mn, mx = (float(v) if isinstance(v, str) else v for v in (m, fee, mn, mx))
    return {"amount": {"assetId": "ETH", "value": m}, "expiry": expiry, "id": rid,
            "max": {"assetId": "BTC", "value": mx}, "min": {"assetId": "BTC", "value": mn},
            "minerFee": {"assetId": "ETH", "value": fee}, "pairId": "BTC_ETH"}


def num(v):
    return F(str(v))


def best(rates, x, t):
    live = []
    for r in rates:
        m, fee = num(r["amount"]["value"]), num(r["minerFee"]["value"])
        mn, mx = num(r["min"]["value"]), num(r["max"]["value"])
        if r["expiry"] <= t or m <= 0 or fee < 0 or mn < 0 or mn > mx:
            continue
        if not (mn <= x <= mx):
            continue
        net = x * m - fee
        if net <= 0:
            continue
        live.append((-net, fee, r["id"].encode(), r["id"]))
    return min(live)[3] if live else None


def schedule(rates, x, now):
    expiries = sorted({r["expiry"] for r in rates if r["expiry"] > now})
    if not expiries:
        return None, []
    out = []
    points = [now] + expiries
    for start, end in zip(points, points[1:]):
        if start >= end:
            continue
        rid = best(rates, x, start)
        if out and out[-1]["rateId"] == rid and out[-1]["until"] == start:
            out[-1]["until"] = end
        else:
            out.append({"from": start, "until": end, "rateId": rid})
    return out[0]["until"], out


SCHEDULE = [
    ("successors in expiry order; a rate that expires first never leads",
     [rate("a", 31, 0.01, 0.1, 1, 2000), rate("b", 30, 0, 0.1, 1, 3000),
      rate("c", 29.5, 0, 0.1, 1, 5000), rate("d", 35, 0, 1, 2, 4000),
      rate("e", 29, 0, 0.1, 1, 2500)],
     "0.5", 1000, ["a", "b", "c"]),
    ("a trailing no route runs to the last expiry",
     [rate("a", 30, 0, 0.1, 1, 2000), rate("b", 40, 0, 1, 2, 7000)],
     "0.5", 0, ["a", None]),
    ("below every min: one no-route interval",
     [rate("a", 30, 0, 1, 2, 2000), rate("b", 31, 0, 1, 2, 3000)],
     "0.5", 1000, [None]),
    ("nothing live: no interval, validUntil null",
     [rate("a", 30, 0, 0.1, 1, 1000)], "0.5", 1000, []),
    ("a later, better rate waits for the earlier best to expire, then the tie goes to the lower fee",
     [rate("a", 32, 0, 0.1, 1, 1500), rate("b", 31, 0.01, 0.1, 1, 4000),
      rate("c", "31.02", "0.02", 0.1, 1, 3000)],
     "0.5", 1000, ["a", "b"]),
    ("equal nets and fees: id bytes decide, and the loser leads after",
     [rate("B", 30, 0, 0.1, 1, 3000), rate("A", 30, 0, 0.1, 1, 2000)],
     "0.5", 1000, ["A", "B"]),
]

REQUOTE = [
    # mode, promised, bound, fresh, class
    ("ExactIn", "15.49", "14.896", "15.49", "SAME"),
    ("ExactIn", "15.49", "14.896", "15.6", "BETTER"),
    ("ExactIn", "15.49", "14.896", "15", "WORSE_WITHIN"),
    ("ExactIn", "15.49", "14.896", "14.896", "WORSE_WITHIN"),
    ("ExactIn", "15.49", "14.896", "14.75", "WORSE_BEYOND"),
    ("ExactIn", "3", "0", "2.999999", "WORSE_WITHIN"),
    ("ExactIn", "3", "2", "3.001", "BETTER"),
    ("ExactIn", "15.49", "14.896", None, "GONE"),
    ("ExactOut", "1.01", "1.02", "1.01", "SAME"),
    ("ExactOut", "1.01", "1.02", "1", "BETTER"),
    ("ExactOut", "1.01", "1.02", "1.02", "WORSE_WITHIN"),
    ("ExactOut", "1.01", "1.02", "1.0201", "WORSE_BEYOND"),
    ("ExactOut", "0.3", "0.5", "0.30000001", "WORSE_WITHIN"),
]

DEPOSIT_RATE = rate("a", 31, 0.01, 0.1, 1, 2000)
DEPOSIT = [
    # deposit, observedAt, class
    ("0.5", 1500, "COMPLETES"),
    ("0.50", 1999, "COMPLETES"),
    ("0.5", 2000, "AFTER_EXPIRY"),
    ("0.05", 2500, "AFTER_EXPIRY"),
    ("0.05", 1500, "BELOW_MIN"),
    ("0.1", 1500, "OTHER_AMOUNT"),
    ("1", 1500, "OTHER_AMOUNT"),
    ("1.00000001", 1500, "ABOVE_MAX"),
    ("0.6", 1500, "OTHER_AMOUNT"),
    ("0.123456789", 1500, "OTHER_AMOUNT"),
]


def loss(mode, promised, fresh):
    diff = promised - fresh if mode == "ExactIn" else fresh - promised
    return F(math.ceil(diff * 10000 / promised * 100), 100)


def main():
    cases = []
    for name, rates, x, now, leaders in SCHEDULE:
        until, sched = schedule(rates, F(x), now)
        got = [i["rateId"] for i in sched]
        assert got == leaders, (name, got)
        cases.append({"name": name, "rules": [5, 7, 50],
                      "input": {"rates": rates, "fromAmount": x, "now": now},
                      "expect": {"validUntil": until, "schedule": sched}})
    write("schedule.json", "schedule", cases)

    cases = []
    for mode, promised, bound, fresh, cls in REQUOTE:
        p, b = F(promised), F(bound)
        if fresh is None:
            model, lbps = "GONE", None
        else:
            f = F(fresh)
            better = f > p if mode == "ExactIn" else f < p
            within = f >= b if mode == "ExactIn" else f <= b
            model = ("SAME" if f == p else "BETTER" if better
                     else "WORSE_WITHIN" if within else "WORSE_BEYOND")
            lbps = text(loss(mode, p, f))
        assert model == cls, (mode, promised, fresh, model)
        cases.append({"name": f"{mode} {promised} (bound {bound}) then {fresh}: {cls}",
                      "rules": [33, 50],
                      "input": {"mode": mode, "promised": promised, "bound": bound, "fresh": fresh},
                      "expect": {"class": cls, "lossBps": lbps}})
    write("requote.json", "requote", cases)

    cases = []
    r = DEPOSIT_RATE
    m, fee = num(r["amount"]["value"]), num(r["minerFee"]["value"])
    mn, mx = num(r["min"]["value"]), num(r["max"]["value"])
    plan_amount = F("0.5")
    for dep, at, cls in DEPOSIT:
        x = F(dep)
        if r["expiry"] <= at:
            model, out, limit = "AFTER_EXPIRY", None, None
        elif x < mn:
            model, out, limit = "BELOW_MIN", None, text(mn)
        elif x > mx:
            model, out, limit = "ABOVE_MAX", None, text(mx)
        else:
            model = "COMPLETES" if x == plan_amount else "OTHER_AMOUNT"
            net = x * m - fee
            out, limit = text(max(F(math.floor(net * 10**8), 10**8), F(0))), None
        assert model == cls, (dep, at, model)
        cases.append({"name": f"{dep} BTC at {at}: {cls}", "rules": [5, 35, 50],
                      "input": {"rate": r, "now": 1000, "fromAmount": "0.5",
                                "deposit": dep, "observedAt": at},
                      "expect": {"class": cls, "expectedOutput": out, "limit": limit}})
    write("deposit.json", "deposit", cases)


def write(name, kind, cases):
    (HERE / name).write_text(json.dumps({"kind": kind, "cases": cases}, indent=1) + "\n")
    print(f"{name}: {len(cases)} cases")


if __name__ == "__main__":
    main()
