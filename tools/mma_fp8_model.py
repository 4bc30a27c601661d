#!/usr/bin/env python3
"""Reproduces a GPU's fp8 mma.sync m16n8k32 results from the golden alone, to find how
the GPU accumulates them (the model of sim/mma.h mma_fp_model, after MMA-Sim).

  python3 tools/mma_fp8_model.py [GOLDEN.json ...]
      default: the goldens of tests/corpus/mma_m16n8k32_{e4m3,e5m2_e4m3}_{exact,float},
      the inputs A (16x32 bytes), B (32x8 bytes), C (f32) and the GPU's D (f32) of
      tests/kernels/ops/mma_sm90.cu's mma_m16n8k32_* per tile, row-major. For each
      candidate it prints how many D elements it gets bit for bit.

The inputs are decoded as the PTX ISA's .e4m3 (bias 7, no infinities, S.1111.111 NaN)
and .e5m2 (bias 15, IEEE-like) (§5.2.5.2); every product is exact. A fused addition
(exact rationals): every term (the running sum: an f32; a product: the product of the
inputs' significands in [1, 4), with the sum of their exponents) is aligned to the
largest term exponent and truncated to 25 fractional bits; the exact sum of the
truncated terms is truncated to f32. Candidates:
  `one fused, C inside`: C and all 32 products in one fused addition (13 bits: the
      simulator's earlier guess; 25 bits);
  `k halves, C inside`: k 0-15, then k 16-31 (two fused additions), starting from C;
  `bytes 01/23, C last`: from 0, the products of k % 4 < 2 (bytes 0 and 1 of each
      A/B register), then those of k % 4 >= 2, then C added by one f32 addition rounded
      to nearest.

Measured on an H100 (driver 580, CUDA 13, NVRTC and nvcc PTX for sm_90): only `bytes
01/23, C last` gives every element of the four goldens: Hopper runs the fp8 mma.sync
as two m16n8k16 .f16 steps on f16 copies (the f16 model of sim/mma.c) and adds C
afterwards; sim/mma.c mma_fp8_order implements it.
"""
import json
import math
import os
import struct
import sys
from fractions import Fraction

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
NAMES = ('mma_m16n8k32_e4m3_exact', 'mma_m16n8k32_e4m3_float',
         'mma_m16n8k32_e5m2_e4m3_exact', 'mma_m16n8k32_e5m2_e4m3_float')


def f32(v):
    return struct.unpack('<f', struct.pack('<f', float(v)))[0]


def bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def fp8(e4m3, v):
    """A byte as the exact value (None: NaN or inf)."""
    fb, bias = (3, 7) if e4m3 else (2, 15)
    e, f = (v & 0x7f) >> fb, v & ((1 << fb) - 1)
    if (e4m3 and e == 15 and f == 7) or (not e4m3 and e == 31):
        return None
    x = Fraction(f if e == 0 else f | 1 << fb) * Fraction(2) ** (max(e, 1) - bias - fb)
    return -x if v & 0x80 else x


def sig_exp(x):
    """x = sig 2^e, sig in [1, 2)."""
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    return x / Fraction(2) ** e, e


def to_f32(x, nearest):
    """An exact rational to f32 (normal range): nearest even, or toward zero."""
    if x == 0:
        return Fraction(0)
    q = abs(x) / Fraction(2) ** (sig_exp(x)[1] - 23)
    n = q.numerator // q.denominator
    r = q - n
    if nearest:
        n += r > Fraction(1, 2) or (r == Fraction(1, 2) and n % 2)
    v = n * Fraction(2) ** (sig_exp(x)[1] - 23)
    return -v if x < 0 else v


def fused(acc, pairs, frac):
    terms = [(acc, sig_exp(acc)[1])] if acc else []
    terms += [(a * b, sig_exp(a)[1] + sig_exp(b)[1]) for a, b in pairs if a and b]
    if not terms:
        return Fraction(0)
    grid = Fraction(2) ** (max(e for _, e in terms) - frac)
    return to_f32(sum(math.trunc(t / grid) for t, _ in terms) * grid, False)


def one_fused(frac):
    return lambda a, b, c: fused(c, zip(a, b), frac)


def k_halves(a, b, c):
    return fused(fused(c, zip(a[:16], b[:16]), 25), zip(a[16:], b[16:]), 25)


def bytes_c_last(a, b, c):
    lo = [k for k in range(32) if k % 4 < 2]
    hi = [k for k in range(32) if k % 4 >= 2]
    acc = fused(Fraction(0), [(a[k], b[k]) for k in lo], 25)
    acc = fused(acc, [(a[k], b[k]) for k in hi], 25)
    return to_f32(acc + c, True)


def rows(path):
    g = json.load(open(path))['buffers']
    e4a = 'e5m2' not in os.path.basename(path)
    for t in range(len(g['D']) // 128):
        for i in range(16):
            for j in range(8):
                a = [fp8(e4a, g['A'][t * 512 + i * 32 + k]) for k in range(32)]
                b = [fp8(True, g['B'][t * 256 + k * 8 + j]) for k in range(32)]
                if None in a or None in b:
                    continue
                yield a, b, Fraction(f32(g['C'][t * 128 + i * 8 + j])), f32(
                    g['D'][t * 128 + i * 8 + j])


def main():
    paths = sys.argv[1:] or [os.path.join(HERE, 'tests/corpus', n + '.golden.json')
                             for n in NAMES]
    cands = [('one fused, C inside, 13 bits', one_fused(13)),
             ('one fused, C inside, 25 bits', one_fused(25)),
             ('k halves, C inside', k_halves), ('bytes 01/23, C last', bytes_c_last)]
    for path in paths:
        data = list(rows(path))
        print(os.path.basename(path))
        for name, fn in cands:
            hits = sum(bits(float(fn(a, b, c))) == bits(d) for a, b, c, d in data)
            print('  %-30s %4d of %d%s' % (name, hits, len(data),
                                            '  <- every element' if hits == len(data) else ''))


if __name__ == '__main__':
    main()
