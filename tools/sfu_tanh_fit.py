#!/usr/bin/env python3
"""sfu_tanh_fit.py — tanh.approx.f32's segments (sim/sfu.c tanh_segments, tanh_binades)
fitted to a GPU's results, and checked against every one of them.

Usage: python3 tools/sfu_tanh_fit.py DIR/tanh.d8   (needs numpy)

DIR/tanh.d8 is what tools/sfu_dump.cu writes on a machine with an NVIDIA GPU:
tanh.approx.f32 of the f32 0x3b000000 + k, k < 12 2^23 (the binades 2^-9 .. 2^2), each
result as its difference from the one before in a signed byte, or 0x80 and the result's
4 bytes (little-endian). Per binade it finds the input bits the unit drops (results
constant over runs of 2^k inputs); the kept mantissa bits above the 17-bit offset t pick
the segment, and each segment is fitted to V = c0 + c1 t - c2 sq(t) (units of 2^-39, sq lg2's truncated
squarer, sim/sfu.h sfu_lg2_square; the result V truncated to 24 significant bits), c1
and c2 searched near a least-squares fit for the pair that leaves c0 an interval every
result allows, c0 its lowest integer. Prints the C initializers, checks the model on
every input, and says whether they equal sim/sfu.c's. Exit 0, or 1 when a binade does
not fit or the model differs from the GPU anywhere (docs/architecture.md "The
special-function unit").
"""
import os
import re
import sys

import numpy as np

BASE, N = 0x3b000000, 12 << 23


def read_d8(path, n):
    b = open(path, 'rb').read()
    out = np.empty(n, dtype=np.int64)
    pos = p = cur = 0
    while p < len(b):
        if b[p] == 0x80:
            cur = int.from_bytes(b[p + 1:p + 5], 'little')
            out[pos] = cur
            pos += 1
            p += 5
            continue
        q = b.find(b'\x80', p)
        q = len(b) if q < 0 else q
        d = np.cumsum(np.frombuffer(b[p:q], dtype=np.int8).astype(np.int64)) + cur
        out[pos:pos + len(d)] = d
        pos += len(d)
        cur = int(d[-1])
        p = q
    if pos != n:
        sys.exit('sfu_tanh_fit: %s holds %d results, not %d' % (path, pos, n))
    return (out & 0xffffffff).astype(np.uint32)


def square(t):
    """lg2's truncated squarer: the partial products of t^2 of weight 2^19 and up."""
    t = np.asarray(t, dtype=np.int64)
    s = np.zeros_like(t)
    for j in range(9, 17):
        bj = (t >> j) & 1
        s += bj * (((1 << (2 * j - 19)) if j >= 10 else 0) + ((t & ((1 << j) - 1)) >> (18 - j)))
    return s


def f32_value(u):
    return np.asarray(u, dtype=np.uint32).view(np.float32).astype(np.float64)


def fit(t, lo, hi):
    """(c0, c1, c2) with lo <= c0 + c1 t - c2 sq(t) < hi for every t, or None."""
    sq = square(t).astype(np.float64)
    tt = t.astype(np.float64)
    a = np.stack([np.ones(len(t)), tt, -sq], 1)
    c = np.linalg.lstsq(a, (lo + hi) / 2, rcond=None)[0]
    best = None
    for c1 in range(round(c[1]) - 4, round(c[1]) + 5):
        for c2 in range(round(c[2]) - 4, round(c[2]) + 5):
            f = c1 * tt - c2 * sq
            low, high = np.max(lo - f), np.min(hi - f)
            c0 = int(np.ceil(low))
            if c0 < high and (best is None or high - low > best[0]):
                best = (high - low, c0, c1, c2)
    return best[1:] if best else None


def truncated(v):
    """V 2^-39 truncated to f32 (V > 0, int64 array)."""
    top = np.floor(np.log2(v.astype(np.float64))).astype(np.int64)
    top = np.where((v >> top) == 0, top - 1, top)
    top = np.where((v >> (top + 1)) > 0, top + 1, top)
    return ((top - 39 + 127) << 23 | ((v >> (top - 23)) & 0x7fffff)).astype(np.uint32)


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: sfu_tanh_fit.py DIR/tanh.d8')
    gpu = read_d8(sys.argv[1], N)
    x = np.arange(BASE, BASE + N, dtype=np.int64)
    segs, binades, model = [], [], np.zeros(N, dtype=np.uint32)
    for e in range(-9, 3):
        sel = slice((e + 9) << 23, (e + 10) << 23)
        xb, rb = x[sel], gpu[sel].astype(np.int64)
        if np.all(rb == xb):
            model[sel] = xb
            print('binade 2^%d: x itself' % e)
            continue
        k = 0
        while k < 10 and np.all(rb.reshape(-1, 1 << (k + 1)) == rb.reshape(-1, 1 << (k + 1))[:, :1]):
            k += 1
        m = (xb & 0x7fffff) >> k
        lo = f32_value(rb) * 2.0**39
        hi = lo + np.spacing(f32_value(rb).astype(np.float32)).astype(np.float64) * 2.0**39
        sb, tb = 6 - k, 17
        found = []
        for s in range(1 << max(sb, 0)):
            ss = (m >> tb) == s
            c = fit(m[ss][::1 << k] & ((1 << tb) - 1), lo[ss][::1 << k], hi[ss][::1 << k])
            if sb < 0 or c is None:
                print('sfu_tanh_fit: binade 2^%d: segment %d does not fit' % (e, s), file=sys.stderr)
                return 1
            found.append(c)
        binades.append((k, len(segs)))
        for s, (c0, c1, c2) in enumerate(found):
            ss = (m >> tb) == s
            t = m[ss] & ((1 << tb) - 1)
            idx = np.flatnonzero(ss) + ((e + 9) << 23)
            model[idx] = truncated(c0 + c1 * t - c2 * square(t))
        segs += found
        print('binade 2^%d: drops %d bits, %d segment bits' % (e, k, sb))
    bad = np.flatnonzero(model != gpu)
    print('the model with these segments: %d of %d inputs differ from the GPU' % (len(bad), N))
    text = '    ' + '\n    '.join('{%dLL, %d, %d},' % c for c in segs)
    bin_text = ', '.join('{%d, %d}' % b for b in binades)
    print('tanh_segments[%d] = {\n%s\n};\ntanh_binades[%d] = {%s};' % (len(segs), text, len(binades), bin_text))
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'sim', 'sfu.c')).read()
    have = [tuple(int(v) for v in g) for g in re.findall(r'\{(\d+)LL, (\d+), (\d+)\}', src)]
    print('%s sim/sfu.c\'s segments' % ('the same as' if have == [tuple(c) for c in segs] else 'NOT the same as'))
    return 1 if len(bad) else 0


if __name__ == '__main__':
    sys.exit(main())
