#!/usr/bin/env python3
"""The Performance table and ratios of docs/PERFORMANCE.md (summed up in the README), and docs/select.svg, from the
medians of the last `cargo bench --bench select` and `--bench wire` run
(target/criterion/*/new/estimates.json). Run from anywhere:
`python3 docs/select_report.py`."""
import json, math, os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', 'target', 'criterion')
FUNCS = ['floor', 'top1', 'top5', 'top5_into', 'top5_vec', 'top5_best_first', 'all', 'naive_sort', 'f64_top1', 'exact_out_top1',
         'book_query', 'book_query_adversarial']
SIZES = [8, 64, 512, 4096, 65536]
COLORS = ['#1f77b4', '#d62728', '#ff7f0e', '#c49c94', '#bcbd22', '#ffbb78', '#2ca02c', '#9467bd', '#8c564b', '#e377c2',
          '#17becf', '#7f7f7f']

def med(group, fn, n):
    p = os.path.join(ROOT, group, fn, str(n), 'new', 'estimates.json')
    with open(p) as f:
        return json.load(f)['median']['point_estimate']

def fmt(ns):
    if ns < 1000: return f'{ns:.0f} ns' if ns >= 100 else f'{ns:.1f} ns'
    if ns < 1e6: return f'{ns/1e3:.2f} µs'
    return f'{ns/1e6:.2f} ms'

m = {f: {n: med('select', f, n) for n in SIZES} for f in FUNCS}
print('| function | ' + ' | '.join(f'N = {n}' for n in SIZES) + ' |')
print('|---|' + '---:|' * len(SIZES))
for f in FUNCS:
    print(f'| `{f}` | ' + ' | '.join(fmt(m[f][n]) for n in SIZES) + ' |')
w = {k: med('wire', 'decode256', k) for k in ['swaproute', 'f64_baseline']}
print('WIRE', {k: fmt(v) for k, v in w.items()}, 'ratio %.2f' % (w['swaproute'] / w['f64_baseline']))
r = lambda a, b, n: m[a][n] / m[b][n]
print('top1/floor@4096 %.2f' % r('top1', 'floor', 4096))
print('top5/top1', [round(r('top5', 'top1', n), 2) for n in SIZES])
print('top5_into/top1', [round(r('top5_into', 'top1', n), 2) for n in SIZES])
print('top5_vec/top1', [round(r('top5_vec', 'top1', n), 2) for n in SIZES])
print('top5_best_first/top1', [round(r('top5_best_first', 'top1', n), 2) for n in SIZES])
print('all/naive', [round(r('all', 'naive_sort', n), 2) for n in SIZES])
print('exact_out/top1', [round(r('exact_out_top1', 'top1', n), 2) for n in SIZES])
print('top1/f64@4096 %.2f' % r('top1', 'f64_top1', 4096))
print('book 65536/512 %.2f' % (m['book_query'][65536] / m['book_query'][512]))
print('book_adv 65536/512 %.2f' % (m['book_query_adversarial'][65536] / m['book_query_adversarial'][512]))
print('book/top1@512 %.3f' % r('book_query', 'top1', 512))
print('book_adv/top1@512 %.3f' % r('book_query_adversarial', 'top1', 512))

# SVG: time per rate (median / N) against N, log-log.
W, H, L, R, T, B = 820, 470, 80, 600, 30, 410
per = {f: {n: m[f][n] / n for n in SIZES} for f in FUNCS}
lo = min(v for f in FUNCS for v in per[f].values())
hi = max(v for f in FUNCS for v in per[f].values())
ylo, yhi = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
def y(v): return B - (math.log10(v) - ylo) / (yhi - ylo) * (B - T)
def x(n): return L + (math.log2(n) - 3) / (16 - 3) * (R - L)
def unit(v):
    if v >= 1000: return f'{v/1000:g} µs'
    if v >= 1: return f'{v:g} ns'
    return f'{v*1000:g} ps'
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<text x="{(L+R)/2}" y="18" font-size="14" text-anchor="middle">select: median time per rate against N (log-log, one run)</text>']
for e in range(ylo, yhi + 1):
    v = 10 ** e
    out.append(f'<line x1="{L}" x2="{R}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>'
               f'<text x="{L-8}" y="{y(v)+4:.1f}" text-anchor="end">{unit(v)}</text>')
for n in SIZES:
    out.append(f'<line x1="{x(n):.1f}" x2="{x(n):.1f}" y1="{T}" y2="{B}" stroke="#eee"/>'
               f'<text x="{x(n):.1f}" y="{B+16}" text-anchor="middle">{n}</text>')
out.append(f'<text x="{(L+R)/2}" y="{B+38}" text-anchor="middle">N (rates), log scale</text>')
out.append(f'<text x="18" y="{(T+B)/2}" transform="rotate(-90 18 {(T+B)/2})" text-anchor="middle">median time / N (log)</text>')
for i, f in enumerate(FUNCS):
    c = COLORS[i]
    pts = ' '.join(f'{x(n):.1f},{y(per[f][n]):.1f}' for n in SIZES)
    dash = ' stroke-dasharray="5,3"' if f in ('f64_top1', 'naive_sort', 'floor') else ''
    out.append(f'<polyline fill="none" stroke="{c}" stroke-width="2"{dash} points="{pts}"/>')
    for n in SIZES:
        out.append(f'<circle cx="{x(n):.1f}" cy="{y(per[f][n]):.1f}" r="3" fill="{c}"/>')
    ly = 40 + 20 * i
    out.append(f'<line x1="{R+12}" x2="{R+36}" y1="{ly}" y2="{ly}" stroke="{c}" stroke-width="2"{dash}/>'
               f'<text x="{R+42}" y="{ly+4}">{f}</text>')
out.append('</svg>')
with open(os.path.join(HERE, 'select.svg'), 'w') as fh:
    fh.write('\n'.join(out) + '\n')
print('svg written')
