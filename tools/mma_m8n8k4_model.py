#!/usr/bin/env python3
"""Reproduces a GPU's mma.sync m8n8k4 .f16 results (the sm_70 quad-pair form) from the
golden alone, to find how an H100 accumulates it.

  python3 tools/mma_m8n8k4_model.py [GOLDEN.json ...]
      default: tests/corpus/mma_m8n8k4_f16_f32_rc_float.golden.json and
      tests/corpus/mma_m8n8k4_f16_f16_cr_float.golden.json, the inputs A, B, C (f32) and
      the GPU's D of tests/kernels/ops/mma_sm90.cu's mma_m8n8k4_f16_* (exact = 0: A, B
      and an f16 C are rounded to f16 by the kernel; per tile A is 8x4, B 4x8, C and D
      8x8, row-major; 16 tiles). For each candidate order it prints how many D elements
      it gets bit for bit.

The candidates, with exact rationals: `fused` is the simulator's f16 model (sim/mma.h
mma_fp_model: one fused addition of C and the 4 products, 25 fractional bits, f32
truncated); `fma c first/last (order)`: an f32 fma chain, rounded to nearest at every
step, over the products in that order, starting from C, or from 0 with C added last
(one f32 addition); f16 D: the f32 result rounded to f16, nearest even.

Measured on an H100 (driver 580, CUDA 13, NVRTC PTX for sm_90): the f32 form fits only
`fma c last` in k order (0, 1, 2, 3) (the first two orders are the same chain); the f16
form fits `fma c first (0, 1, 2, 3)` (and 11 other orders; one element of the 1024 tells
k-order `c last` apart). sim/mma.c quad_pair_compute implements these two.
"""
import itertools
import json
import math
import os
import struct
import sys
from fractions import Fraction

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')


def f32(v):
    """A golden's value as the f32 it stands for (goldens print f32 round-trip)."""
    return struct.unpack('<f', struct.pack('<f', float(v)))[0]


def f16(x):
    """x rounded to f16, nearest even (struct 'e' rounds an exact double so)."""
    return struct.unpack('<e', struct.pack('<e', x))[0]


def bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def rn32(x):
    """An exact rational to the nearest f32, ties to even (normal range)."""
    if x == 0:
        return 0.0
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    q = a / Fraction(2) ** (e - 23)
    n = q.numerator // q.denominator
    r = q - n
    n += r > Fraction(1, 2) or (r == Fraction(1, 2) and n % 2)
    v = float(n * Fraction(2) ** (e - 23))
    return -v if x < 0 else v


def chain(a, b, c, order, c_first):
    acc = Fraction(c) if c_first else Fraction(0)
    for k in order:
        acc = Fraction(rn32(Fraction(a[k]) * Fraction(b[k]) + acc))
    return rn32(acc) if c_first else rn32(acc + Fraction(c))


def fused(a, b, c, frac=25):
    """sim/mma.h's model, block 4: terms aligned to the largest exponent, truncated to
    frac fractional bits, the sum truncated to f32."""
    terms = [Fraction(c)] + [Fraction(x) * Fraction(y) for x, y in zip(a, b)]
    exps = []
    for x, y in [(c, 1.0)] + list(zip(a, b)):
        if x and y:
            exps.append(math.frexp(x)[1] - 1 + math.frexp(y)[1] - 1)
    if not exps:
        return 0.0
    grid = Fraction(2) ** (max(exps) - frac)
    s = sum(math.trunc(t / grid) for t in terms) * grid
    r = f32(float(s))
    if abs(Fraction(r)) > abs(s):
        r = struct.unpack('<f', struct.pack('<I', bits(r) - 1))[0]
    return r


def rows(path):
    g = json.load(open(path))['buffers']
    half = '_f16_f16_' in os.path.basename(path)
    for t in range(len(g['D']) // 64):
        for i in range(8):
            for j in range(8):
                a = [f16(f32(g['A'][t * 32 + i * 4 + k])) for k in range(4)]
                b = [f16(f32(g['B'][t * 32 + k * 8 + j])) for k in range(4)]
                c = f32(g['C'][t * 64 + i * 8 + j])
                yield a, b, f16(c) if half else c, f32(g['D'][t * 64 + i * 8 + j]), half


def main():
    paths = sys.argv[1:] or [
        os.path.join(HERE, 'tests/corpus', n + '.golden.json')
        for n in ('mma_m8n8k4_f16_f32_rc_float', 'mma_m8n8k4_f16_f16_cr_float')]
    for path in paths:
        data = list(rows(path))
        cands = {'fused': fused}
        for order in itertools.permutations(range(4)):
            for c_first in (True, False):
                cands['fma c %s %s' % ('first' if c_first else 'last', order)] = (
                    lambda a, b, c, o=order, cf=c_first: chain(a, b, c, o, cf))
        print(os.path.basename(path))
        for name, fn in cands.items():
            hits = 0
            for a, b, c, d, half in data:
                v = fn(a, b, c)
                hits += bits(f16(v) if half else v) == bits(d)
            if hits == len(data) or name in ('fused', 'fma c first (0, 1, 2, 3)',
                                             'fma c last (0, 1, 2, 3)'):
                print('  %-26s %4d of %d%s' % (name, hits, len(data),
                                               '  <- every element' if hits == len(data) else ''))


if __name__ == '__main__':
    main()
