#!/usr/bin/env python3
"""Checks approx/ results against the exact values (Python's double-precision math) within
the bounds of README.md.

Usage: python3 tests/corpus_new/approx/check_approx.py RESULT_DIR [--vs GOLDEN_DIR]
RESULT_DIR holds approx_intrinsics.json / approx_libm.json (or NAME.golden.json) from
`gpulearn run --dump-json`. With --vs, each value is also compared with the golden within
twice the bound (both sides approximate the same exact value). Exit 1 on any violation.
"""
import json
import math
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import reference  # noqa: E402


def ulp32(x):
    """Size of one f32 ulp at |x| (subnormal spacing below 2^-126)."""
    x = abs(x)
    if x < 2.0 ** -126:
        return 2.0 ** -149
    return 2.0 ** (math.floor(math.log2(x)) - 23)


def ulp64(x):
    x = abs(x)
    if x < 2.0 ** -1022:
        return 2.0 ** -1074
    return 2.0 ** (math.floor(math.log2(x)) - 52)


def num(v):
    return reference.num(v) if isinstance(v, str) else float(v)


# Each check: (exact function of the inputs, kind, bound) with kind 'ulp' (ulp32 of the
# exact value), 'abs', 'rel', 'ulp64', or 'exact' (bit-exact with the f32-rounded value).
def intrinsics_checks(x, y):
    pa = reference.f32(abs(x) + 0.5)
    in_range = 0.5 <= pa <= 2.0
    return [
        (math.exp(x), 'ulp', 2 + math.floor(abs(1.173 * x))),
        (10 ** reference.f32(x * 0.25), 'ulp', 2 + math.floor(abs(2.97 * x * 0.25))),
        (math.log(pa), 'abs' if in_range else 'ulp', 2 ** -21.41 if in_range else 3),
        (math.log2(pa), 'abs' if in_range else 'ulp', 2 ** -22 if in_range else 2),
        (math.log10(pa), 'abs' if in_range else 'ulp', 2 ** -24 if in_range else 3),
        (math.sin(x), 'abs', 2 ** -21.41),
        (math.cos(x), 'abs', 2 ** -21.19),
        (math.tan(reference.f32(x * reference.f32(0.4))), 'rel', 2 ** -19),
        (pa ** y, 'rel', 2 ** -18),
        (x / y, 'ulp', 2),
        (1 / math.sqrt(pa), 'ulp', 2),
        (math.tanh(x), 'rel', 2 ** -10.987),
        (2 ** x, 'ulp', 2),
        (min(max(x, 0.0), 1.0) + reference.f32(1 / math.sqrt(pa)), 'ulp', 1),
    ]


def libm_checks(x, v):
    p = reference.f32(abs(x) + reference.f32(1e-3))
    pv = abs(v) + 1e-3
    fs = [
        (math.exp(x), 'ulp', 2), (math.log(p), 'ulp', 1), (math.sin(reference.f32(x * 10)), 'ulp', 2),
        (math.cos(x), 'ulp', 2), (math.tan(reference.f32(x * reference.f32(0.3))), 'ulp', 4), (p ** reference.f32(1.7), 'ulp', 4),
        (math.tanh(x), 'ulp', 2), (math.erf(x), 'ulp', 2), (1 / math.sqrt(p), 'ulp', 1),
    ]
    ds = [(math.exp(v), 'ulp64', 1), (math.log(pv), 'ulp64', 1), (math.sin(v * 100.0), 'ulp64', 2),
          (math.cos(v), 'ulp64', 2)]
    return fs, ds


def err_ok(got, exact, kind, bound, scale=1):
    if math.isinf(exact) or math.isnan(exact):
        return got == exact or (math.isnan(got) and math.isnan(exact))
    d = abs(got - exact)
    if kind == 'abs':
        return d <= bound * scale
    if kind == 'rel':
        return d <= bound * scale * abs(exact) + 2.0 ** -149
    u = ulp64(exact) if kind == 'ulp64' else ulp32(exact)
    return d <= (bound * scale + 0.5) * u   # bound is vs the exact value; +0.5 for the rounding of the golden


def load(d, name):
    for f in (name + '.golden.json', name + '.json'):
        p = os.path.join(d, f)
        if os.path.exists(p):
            return json.load(open(p))['buffers']
    return None


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    d = sys.argv[1]
    vs = sys.argv[sys.argv.index('--vs') + 1] if '--vs' in sys.argv else None
    bad = 0
    spec = json.load(open(os.path.join(HERE, '..', '..', 'corpus', 'approx', 'approx_intrinsics.json')))
    n = spec['args'][-1]['value']
    r = load(d, 'approx_intrinsics')
    g = load(vs, 'approx_intrinsics') if vs else None
    if r:
        X, Y, O = [num(v) for v in r['x']], [num(v) for v in r['y']], [num(v) for v in r['o']]
        nb = 0
        for i in range(n):
            for k, (ex, kind, b) in enumerate(intrinsics_checks(X[i], Y[i])):
                got = O[i * 14 + k]
                if not err_ok(got, ex, kind, b):
                    nb += 1
                    if nb <= 5:
                        print('approx_intrinsics o[%d] (x=%r y=%r, output %d): got %r, exact %r, bound %s %s' %
                              (i * 14 + k, X[i], Y[i], k, got, ex, b, kind))
                if g is not None and not err_ok(got, num(g['o'][i * 14 + k]), kind, b, 2):
                    nb += 1
                    print('approx_intrinsics o[%d]: %r vs golden %r beyond 2x bound' % (i * 14 + k, got, g['o'][i * 14 + k]))
        print('approx_intrinsics: %s' % ('ok' if nb == 0 else '%d outside the bounds' % nb))
        bad += nb
    r = load(d, 'approx_libm')
    if r:
        X, V = [num(v) for v in r['x']], [num(v) for v in r['d']]
        O, OD = [num(v) for v in r['o']], [num(v) for v in r['od']]
        nb = 0
        for i in range(len(X)):
            fs, ds = libm_checks(X[i], V[i])
            for k, (ex, kind, b) in enumerate(fs):
                if not err_ok(O[i * 9 + k], ex, kind, b):
                    nb += 1
                    if nb <= 5:
                        print('approx_libm o[%d]: got %r, exact %r' % (i * 9 + k, O[i * 9 + k], ex))
            for k, (ex, kind, b) in enumerate(ds):
                if not err_ok(OD[i * 4 + k], ex, kind, b):
                    nb += 1
                    if nb <= 5:
                        print('approx_libm od[%d]: got %r, exact %r' % (i * 4 + k, OD[i * 4 + k], ex))
        print('approx_libm: %s' % ('ok' if nb == 0 else '%d outside the bounds' % nb))
        bad += nb
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
