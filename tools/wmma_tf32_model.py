#!/usr/bin/env python3
"""Reproduces a GPU's wmma.mma m16n16k8 tf32 results from the golden alone, to find how
the tensor cores accumulate it (the model of sim/mma.h mma_fp_model, after MMA-Sim).

  python3 tools/wmma_tf32_model.py [GOLDEN.json]
      GOLDEN.json (default tests/corpus/wmma_m16n16k8_tf32_rc_float.golden.json) holds
      the inputs A, B, C and the GPU's D of tests/kernels/ops/wmma.cu's
      wmma_m16n16k8_tf32_rc (exact = 0, lc = 1: A row-major 16x8, B 8x16, C and D
      row-major 16x16, one tile per block). For each block size (products per fused
      addition) and number of fractional bits it prints how many D elements the model
      gets bit for bit.

The model, written independently of sim/mma.c with exact rationals: the inputs are the
kernel's tf32 values (f32 rounded to nearest, ties away, to 10 fraction bits); for each
D element, K is taken in blocks of `block` products from k = 0; each block is one fused
addition of the running sum and its products: every term (the sum: an f32; a product:
the product of the inputs' significands in [1, 4), with the sum of their exponents) is
aligned to the largest term exponent and truncated to `frac` fractional bits; the exact
sum of the truncated terms is rounded to f32 toward zero.

Measured on an H100 (driver 580, CUDA 13): mma.sync m16n8k8 tf32 is one fused addition
of all 8 products (block 8, 25 bits: tests/corpus/mma_probe_tf32 and
mma_m16n8k8_tf32_float), but wmma.mma m16n16k8 tf32 fits only block 4, 25 bits: two
chained additions of 4 products, as two m16n8k4 steps would give.
"""
import json
import math
import os
import struct
import sys
from fractions import Fraction

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
M, N, K = 16, 16, 8


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def bits_f32(b):
    return struct.unpack('<f', struct.pack('<I', b))[0]


def tf32(x):
    """The kernel's conv<float>: f32 bits + 0x1000, low 13 bits cleared."""
    return bits_f32((f32_bits(x) + 0x1000) & 0xffffe000)


def golden_f32(v):
    """A golden's value (a float or "nan"/"inf"/"-inf") as the f32 it stands for."""
    if isinstance(v, str):
        return float(v)
    return bits_f32(f32_bits(v))


def sig_exp(x):
    """x = sig 2^e, sig in [1, 2) (f32 and tf32 share f32's exponent range; no
    subnormals occur in these inputs). Zero: (0, None)."""
    if x == 0:
        return Fraction(0), None
    m, e = math.frexp(x)
    return Fraction(m) * 2, e - 1


def f32_rz(x):
    """An exact rational to the f32 toward zero (normal range)."""
    if x == 0:
        return 0.0
    a = abs(x)
    e = math.floor(math.log2(a))
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    e = max(e, -126)
    q = math.floor(a / Fraction(2) ** (e - 23))
    v = float(q * Fraction(2) ** (e - 23))
    return -v if x < 0 else v


def fused(c, a, b, frac):
    terms = [sig_exp(c)]
    for x, y in zip(a, b):
        (sa, ea), (sb, eb) = sig_exp(x), sig_exp(y)
        terms.append((sa * sb, None if ea is None or eb is None else ea + eb))
    exps = [e for _, e in terms if e is not None]
    if not exps:
        return 0.0
    emax = max(exps)
    total = 0
    for s, e in terms:
        if e is not None:
            v = s * Fraction(2) ** (frac + e - emax)
            total += math.trunc(v)
    return f32_rz(Fraction(total) * Fraction(2) ** (emax - frac))


def model(bufs, block, frac):
    A, B, C, D = (bufs[k] for k in 'ABCD')
    tiles = len(D) // (M * N)
    hits = 0
    for t in range(tiles):
        for i in range(M):
            for j in range(N):
                acc = golden_f32(C[t * M * N + i * N + j])
                for k0 in range(0, K, block):
                    ks = range(k0, min(K, k0 + block))
                    a = [tf32(golden_f32(A[t * M * K + i * K + k])) for k in ks]
                    b = [tf32(golden_f32(B[t * K * N + k * N + j])) for k in ks]
                    acc = fused(acc, a, b, frac)
                gpu = golden_f32(D[t * M * N + i * N + j])
                hits += f32_bits(acc) == f32_bits(gpu)
    return hits, tiles * M * N


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        HERE, 'tests/corpus/wmma_m16n16k8_tf32_rc_float.golden.json')
    bufs = json.load(open(path))['buffers']
    for block in (8, 4, 2, 1):
        for frac in (23, 24, 25, 26):
            hits, total = model(bufs, block, frac)
            mark = '  <- every element' if hits == total else ''
            print('block %d, %d fractional bits: %d of %d D elements equal%s' %
                  (block, frac, hits, total, mark))


if __name__ == '__main__':
    main()
