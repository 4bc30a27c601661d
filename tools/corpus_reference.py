#!/usr/bin/env python3
"""Independent host references for the corpus kernels (pure Python, no numpy).

Usage: python3 tools/corpus_reference.py DIR_WITH_RESULTS [NAME...]
DIR holds NAME.golden.json or NAME.json files written by `gpulearn run SPEC --dump-json`
(a GPU golden or simulator output). Each case with a reference below is recomputed on the host from the
spec's initial buffers (the generator of runtime/spec.c: splitmix64, iota, values) and
every output buffer it names is compared exactly. Prints one line per case and a total;
exit 1 when any case differs. Cases without a reference are listed as "no reference".
"""
import json
import math
import os
import struct
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'corpus')
M32, M64 = (1 << 32) - 1, (1 << 64) - 1


def f32(x):
    """Rounds a Python float to the nearest f32 (round to nearest even)."""
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return x
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def s64(v):
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def splitmix(seed):
    st = seed & M64
    while True:
        st = (st + 0x9E3779B97F4A7C15) & M64
        z = st
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        yield z ^ (z >> 31)


BITS = {'i8': 8, 'u8': 8, 'i16': 16, 'u16': 16, 'i32': 32, 'u32': 32, 'i64': 64, 'u64': 64}


def num(v):
    if isinstance(v, str):
        if v in ('nan', '-nan'):
            return math.nan
        if v in ('inf', '-inf'):
            return math.inf if v == 'inf' else -math.inf
        try:
            return int(v, 0)
        except ValueError:
            return float(v)
    return v


def wrap(t, v):
    b = BITS[t]
    v &= (1 << b) - 1
    if t[0] == 'i' and v >> (b - 1):
        v -= 1 << b
    return v


def init_buffer(arg):
    t, n = arg['type'][:-1], arg['len']
    isf = t in ('f32', 'f64')
    rnd = f32 if t == 'f32' else (lambda x: x)
    ini = arg.get('init')
    if not ini:
        return [0.0 if isf else 0] * n
    if 'values' in ini:
        vals = [num(v) for v in ini['values']]
        vals = [rnd(float(v)) if isf else wrap(t, v) for v in vals]
        return vals + [0.0 if isf else 0] * (n - len(vals))
    if 'fill' in ini:
        v = num(ini['fill'])
        return [rnd(float(v)) if isf else wrap(t, v)] * n
    if 'iota' in ini:
        a, b = num(ini['iota']['start']), num(ini['iota']['step'])
        if isf:
            return [rnd(float(a) + i * float(b)) for i in range(n)]
        return [wrap(t, a + i * b) for i in range(n)]
    r = ini['random']
    g = splitmix(r['seed'])
    lo, hi = num(r['min']), num(r['max'])
    if isf:
        span = float(hi) - float(lo)
        if t == 'f32':
            return [f32(float(lo) + span * ((next(g) >> 40) * 2.0 ** -24)) for _ in range(n)]
        return [float(lo) + span * ((next(g) >> 11) * 2.0 ** -53) for _ in range(n)]
    lo_u, rng = lo & M64, (hi - lo) & M64
    out = []
    for _ in range(n):
        x = next(g)
        off = x if rng == M64 else x % (rng + 1)
        out.append(wrap(t, lo_u + off))
    return out


def load_case(name):
    spec = json.load(open(os.path.join(HERE, name + '.json')))
    B, S = {}, {}
    for a in spec['args']:
        if a['type'].endswith('*'):
            B[a['name']] = init_buffer(a)
        else:
            S[a['name']] = num(a['value'])
    return spec, B, S


# ------------------------------------------------------------------ helpers
def tdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def tmod(a, b):
    return a - tdiv(a, b) * b


def fsum_tree_seq(vals):
    """Sequential-addressing tree over a power-of-two list, f32 adds."""
    v = list(vals)
    s = len(v) // 2
    while s > 0:
        for t in range(s):
            v[t] = f32(v[t] + v[t + s])
        s //= 2
    return v[0]


def warp_sum_f32(vals):
    """__shfl_down_sync tree over 32 lanes (lanes past 31 read their own value)."""
    v = list(vals)
    off = 16
    while off:
        v = [f32(v[l] + (v[l + off] if l + off < 32 else v[l])) for l in range(32)]
        off //= 2
    return v[0]


def popc(x):
    return bin(x & M64).count('1')


# ------------------------------------------------------------------ references
R = {}


def ref(fn):
    R[fn.__name__] = fn
    return fn


@ref
def idx1d(B, S, sp):
    n, bd, gd = S['n'], sp['block'][0], sp['grid'][0]
    return {'gid': [i * 7 - 3 for i in range(n)], 'bid': [i // bd + 100 * gd for i in range(n)],
            'tid': [i % bd + 1000 * bd for i in range(n)]}


@ref
def idx2d_flip(B, S, sp):
    r, c, out = S['rows'], S['cols'], [0] * len(B['out'])
    for y in range(r):
        for x in range(c):
            out[y * c + (c - 1 - x)] = s32(B['img'][y * c + x] * (y - 5) + x)
    return {'out': out}


@ref
def idx3d(B, S, sp):
    nx, ny, nz = S['nx'], S['ny'], S['nz']
    bx, by, bz = sp['block']
    gx, gy, _ = sp['grid']
    out = [0] * len(B['vol'])
    for z in range(nz):
        for y in range(ny):
            for x in range(nx):
                lin = x % bx + bx * (y % by + by * (z % bz))
                blk = x // bx + gx * (y // by + gy * (z // bz))
                out[(z * ny + y) * nx + x] = blk * 1000 + lin
    return {'vol': out}


@ref
def grid_stride(B, S, sp):
    stride = sp['grid'][0] * sp['block'][0]
    return {'y': [f32(2.5 * x - 1.0) for x in B['x']], 'who': [i % stride for i in range(S['n'])]}


@ref
def warp_lane_2d(B, S, sp):
    bx, by = sp['block'][0], sp['block'][1]
    w, l, li = [], [], []
    for b in range(sp['grid'][0]):
        for lin in range(bx * by):
            w.append(lin // 32 + 10 * b)
            l.append(lin % 32)
            li.append(lin)
    return {'warp': w, 'lane': l, 'lin_out': li}


@ref
def divergence_nested(B, S, sp):
    out = []
    for i, v in enumerate(B['in']):
        acc = 0
        for k in range(40):
            if tmod(v + k, 3) == 0:
                continue
            acc += k * v if v & 1 else -k
            if acc > 5000 or acc < -5000:
                break
        lane = i % sp['block'][0] & 31
        out.append((acc if lane < 10 else -acc) + lane)
    return {'out': out}


@ref
def strided_copy(B, S, sp):
    n, st = S['n'], S['stride']
    return {'out': [B['in'][(i * st) % n] for i in range(n)], 'out2': B['in'][:n]}


@ref
def stencil_halo(B, S, sp):
    a, n = B['in'], S['n']
    g = lambda j: a[j] if 0 <= j < n else 0
    return {'out': [s32(sum((k + 4) * g(i + k) for k in range(-3, 4))) for i in range(n)]}


@ref
def reverse_sync(B, S, sp):
    d, n, bd = list(B['data']), S['n'], sp['block'][0]
    out = []
    for base in range(0, n, bd):
        out += d[base:min(base + bd, n)][::-1]
    return {'data': out}


@ref
def histogram_priv(B, S, sp):
    h = [0] * 37
    for v in B['in'][:S['n']]:
        h[v % 37] += 1
    return {'hist': h}


@ref
def histogram256(B, S, sp):
    h = [0] * 256
    for w in B['words'][:S['nwords']]:
        for k in range(4):
            h[(w >> (8 * k)) & 255] += 1
    return {'hist': h}


def blocks_of(vals, n, bd, pad=0):
    return [[vals[b + t] if b + t < n else pad for t in range(bd)] for b in range(0, len(vals) and ((n + bd - 1) // bd) * bd, bd)]


@ref
def reduce_interleaved(B, S, sp):
    bd, n = sp['block'][0], S['n']
    return {'partial': [s32(sum(B['in'][b * bd + t] for t in range(bd) if b * bd + t < n)) for b in range(sp['grid'][0])]}


@ref
def reduce_strided_index(B, S, sp):
    bd, n, out = sp['block'][0], S['n'], []
    for b in range(sp['grid'][0]):
        v = [B['in'][b * bd + t] if b * bd + t < n else 0.0 for t in range(bd)]
        s = 1
        while s < bd:
            for t in range(bd):
                idx = 2 * s * t
                if idx < bd:
                    v[idx] = f32(v[idx] + v[idx + s])
            s *= 2
        out.append(v[0])
    return {'partial': out}


@ref
def reduce_sequential(B, S, sp):
    bd, n = sp['block'][0], S['n']
    return {'partial': [fsum_tree_seq([B['in'][b * bd + t] if b * bd + t < n else 0.0 for t in range(bd)])
                        for b in range(sp['grid'][0])]}


@ref
def reduce_add_on_load(B, S, sp):
    bd, n, out = sp['block'][0], S['n'], []
    for b in range(sp['grid'][0]):
        out.append(sum(B['in'][i] for i in range(b * bd * 2, b * bd * 2 + 2 * bd) if i < n))
    return {'partial': out}


@ref
def reduce_warp_shfl(B, S, sp):
    bd, n, out = sp['block'][0], S['n'], []
    for b in range(sp['grid'][0]):
        v = [B['in'][b * bd + t] if b * bd + t < n else 0.0 for t in range(bd)]
        ws = [warp_sum_f32(v[w * 32:w * 32 + 32]) for w in range(bd // 32)]
        out.append(warp_sum_f32(ws + [0.0] * (32 - len(ws))))
    return {'partial': out}


@ref
def reduce_grid_stride(B, S, sp):
    return {'out': [sum(B['in'][:S['n']]) & M64]}


@ref
def reduce_fence_last_block(B, S, sp):
    bd, n = sp['block'][0], S['n']
    parts = [fsum_tree_seq([B['in'][b * bd + t] if b * bd + t < n else 0.0 for t in range(bd)])
             for b in range(sp['grid'][0])]
    t = 0.0
    for p in parts:
        t = f32(t + p)
    return {'partial': parts, 'total': [t], 'ticket': [sp['grid'][0]]}


def inclusive(vals, fn=lambda x: x):
    out, s = [], 0
    for v in vals:
        s = fn(s + v)
        out.append(s)
    return out


@ref
def scan_hillis_steele(B, S, sp):
    return {'out': inclusive(B['in'][:S['n']], s32)}


@ref
def scan_warp_shfl_up(B, S, sp):
    bd, n, out = sp['block'][0], S['n'], []
    for b in range(0, n, bd):
        out += inclusive(B['in'][b:min(b + bd, n)], s32)
    return {'out': out}


@ref
def scan_shfl_width(B, S, sp):
    n, out = S['n'], []
    for b in range(0, n, 16):
        out += inclusive(B['in'][b:min(b + 16, n)], lambda x: x & M32)
    return {'out': out}


@ref
def scan_multiblock_chained(B, S, sp):
    bd, g, n = sp['block'][0], sp['grid'][0], S['n']
    inc = inclusive(B['in'][:n], s32)
    prefix = [inc[min((b + 1) * bd, n) - 1] if b * bd < n else inc[-1] for b in range(g)]
    return {'out': inc, 'prefix': prefix, 'flag': [1] * g, 'ticket': [g]}


@ref
def scan_multiblock_redundant(B, S, sp):
    inc = inclusive(B['in'][:S['n']], s32)
    return {'out': [s32(x - v) for x, v in zip(inc, B['in'])]}


@ref
def scan_blelloch(B, S, sp):
    n, out = S['n'], []
    for base in range(0, n, 256):
        t = [B['in'][base + k] if base + k < n else 0.0 for k in range(256)]
        off = 1
        d = 128
        while d > 0:
            for tid in range(d):
                t[off * (2 * tid + 2) - 1] = f32(t[off * (2 * tid + 2) - 1] + t[off * (2 * tid + 1) - 1])
            off *= 2
            d >>= 1
        t[255] = 0.0
        d = 1
        while d < 256:
            off >>= 1
            for tid in range(d):
                ai, bi = off * (2 * tid + 1) - 1, off * (2 * tid + 2) - 1
                x = t[ai]
                t[ai] = t[bi]
                t[bi] = f32(t[bi] + x)
            d *= 2
        out += t[:min(256, n - base)]
    return {'out': out}


def transpose(a, rows, cols):
    out = [0] * (rows * cols)
    for r in range(rows):
        for c in range(cols):
            out[c * rows + r] = a[r * cols + c]
    return out


@ref
def transpose_naive(B, S, sp):
    return {'out': transpose(B['in'], S['rows'], S['cols'])}


@ref
def transpose_tiled(B, S, sp):
    return {'out': transpose(B['in'], S['rows'], S['cols'])}


@ref
def transpose_padded(B, S, sp):
    return {'out': transpose(B['in'], S['rows'], S['cols'])}


def imatmul(a, b, m, k, n):
    return [s32(sum(a[r * k + j] * b[j * n + c] for j in range(k))) for r in range(m) for c in range(n)]


@ref
def matrix_mul_template(B, S, sp):
    wA, wB = S['wA'], S['wB']
    hA = len(B['A']) // wA
    return {'C': imatmul(B['A'], B['B'], hA, wA, wB)}


@ref
def pz_matmul(B, S, sp):
    s = S['size']
    return {'out': imatmul(B['a'], B['b'], s, s, s)}


@ref
def vector_add_f64(B, S, sp):
    return {'c': [x + y for x, y in zip(B['a'], B['b'])]}


@ref
def pz_map(B, S, sp):
    return {'out': [x + 10 for x in B['a']]}


@ref
def pz_zip(B, S, sp):
    return {'out': [f32(x + y) for x, y in zip(B['a'], B['b'])]}


@ref
def pz_guard(B, S, sp):
    return {'out': [wrap('i16', x * 3 + 1) for x in B['a']]}


@ref
def pz_map2d(B, S, sp):
    s = S['size']
    return {'out': [B['a'][r * s + c] + 10 * r - c for r in range(s) for c in range(s)]}


@ref
def pz_broadcast(B, S, sp):
    return {'out': [a + b for a in B['a'][:S['rows']] for b in B['b'][:S['cols']]]}


@ref
def pz_blocks(B, S, sp):
    return {'out': [(x + 10) & 255 for x in B['a']]}


@ref
def pz_shared(B, S, sp):
    a, n = B['a'], S['size']
    return {'out': [a[i] + (a[i + 1] if i % 8 + 1 < 8 and i + 1 < n else 0) for i in range(n)]}


@ref
def pz_pooling(B, S, sp):
    a, out = B['a'], []
    for i in range(S['size']):
        s = a[i]
        if i >= 1:
            s = f32(s + a[i - 1])
        if i >= 2:
            s = f32(s + a[i - 2])
        out.append(s)
    return {'out': out}


@ref
def pz_dot(B, S, sp):
    s = 0.0
    for i in range(sp['block'][0]):
        s = f32(s + (f32(B['a'][i] * B['b'][i]) if i < S['size'] else 0.0))
    return {'out': [s]}


@ref
def pz_conv1d(B, S, sp):
    a, k, n, ks = B['a'], B['k'], S['size'], S['ksize']
    return {'out': [sum((a[i + j] if i + j < n else 0) * k[j] for j in range(ks)) for i in range(n)]}


@ref
def pz_prefix_sum(B, S, sp):
    a, n = B['a'], S['size']
    return {'out': [sum(a[b:min(b + 8, n)]) for b in range(0, n, 8)]}


@ref
def pz_axis_sum(B, S, sp):
    c = S['cols']
    return {'out': [sum(B['a'][r * c:(r + 1) * c]) for r in range(sp['grid'][1])]}


@ref
def atomics_int(B, S, sp):
    n, v, g = S['n'], B['in'][:S['n']], list(B['g'])
    g[0] = s32(g[0] + sum(v))
    g[1] = s32(g[1] - sum(v))
    g[2] = max([g[2]] + v)
    g[3] = min([g[3]] + v)
    for i in range(n):
        g[4] &= ~(1 << (i % 31))
        g[5] |= 1 << (i % 29)
        g[6] ^= v[i]
    g[4], g[5], g[6] = s32(g[4]), s32(g[5]), s32(g[6])
    g[7] = max([g[7]] + [s32(x * 3) for x in v])
    if 0 <= g[9] < n:
        g[9] = -g[9]
    exch = [s32(B['exch'][i] + 1) if i < n else B['exch'][i] for i in range(len(B['exch']))]
    return {'g': g, 'exch': exch}


@ref
def atomics_unsigned(B, S, sp):
    v, g = B['in'][:S['n']], list(B['g'])
    n = len(v)
    g[0] = (g[0] + sum(v)) & M32
    g[1] = (g[1] - sum(v)) & M32
    g[2] = min([g[2]] + v)
    g[3] = max([g[3]] + v)
    g[4] = (g[4] + n) % 18
    g[5] = (g[5] - n) % 138
    for x in v:
        g[6] &= x | 0x00ff00ff
        g[7] |= x & 0x11111111
        g[8] ^= x
    g[9] = (g[9] + 3 * sum(v)) & M32
    return {'g': g}


@ref
def atomics_ull(B, S, sp):
    v, g, s = B['in'][:S['n']], list(B['g']), list(B['s'])
    g[0] = (g[0] + sum(v)) & M64
    g[1] = min([g[1]] + v)
    g[2] = max([g[2]] + v)
    for x in v:
        g[3] &= x | 0xffff0000ffff0000
        g[4] |= x & 0x0101010101010101
        g[5] ^= x
    g[6] = (g[6] + sum(x >> 40 for x in v)) & M64
    s[0] = min([s[0]] + [s64(x) for x in v])
    s[1] = max([s[1]] + [s64(x) for x in v])
    slot = [(x & M64) >> 3 for x in B['slot']]
    return {'g': g, 's': s, 'slot': slot}


@ref
def atomics_float(B, S, sp):
    n, v = S['n'], B['in'][:S['n']]
    fs, ds = list(B['fsum']), list(B['dsum'])
    for i in range(n):
        fs[i % 3] = fs[i % 3] + v[i]
        ds[i % 2] = ds[i % 2] + v[i] * 1024.0
    slot = [f32(B['slot'][i] - 1.0) for i in range(n)]
    return {'fsum': [f32(x) for x in fs], 'dsum': ds, 'slot': slot}


@ref
def atomics_shared_all(B, S, sp):
    bd, n, out = sp['block'][0], S['n'], []
    for b in range(sp['grid'][0]):
        v = [B['in'][b * bd + t] if b * bd + t < n else 0 for t in range(bd)]
        si = [t * 1000 - 3000 for t in range(8)]
        su = [7 * t for t in range(4)]
        si[0] = s32(si[0] + sum(v))
        si[1] = s32(si[1] - sum(v))
        si[2] = min([si[2]] + v)
        si[3] = max([si[3]] + v)
        for x in v:
            si[4] &= x | 0x0f0f0f0f
            si[5] |= x & 0x00ff00ff
            si[6] ^= x
        si = [s32(x) for x in si]
        si[7] = 4001
        su[0] = (su[0] + bd) % 10
        su[1] = (su[1] - bd) % 51
        su[2] = min([su[2]] + [x & M32 for x in v])
        su[3] = max([su[3]] + [x & M32 for x in v])
        slots = [0] * bd
        for t in range(bd):
            slots[(t + 5) % bd] = v[t]
        blk = si + [s32(x) for x in su] + [s32(slots[t] + (t + 5) % bd) for t in range(bd)]
        out += blk + [0] * (140 - len(blk))
    return {'out': out}


@ref
def vote_intrinsics(B, S, sp):
    a, all_, any_, bal, cnt = B['in'], [], [], [], []
    for w in range(0, len(a), 32):
        v = a[w:w + 32]
        A = int(all(x > -900 for x in v))
        Y = int(any(x > 990 for x in v))
        b = sum(1 << l for l in range(32) if v[l] & 1)
        for l in range(32):
            all_.append(A)
            any_.append(Y)
            bal.append(b)
            cnt.append(popc(b) * 100 + popc(b & ((1 << l) - 1)))
    return {'all': all_, 'any': any_, 'ballot': bal, 'count': cnt}


@ref
def shfl_modes(B, S, sp):
    a, out, fo = B['in'], [], []
    for w in range(0, len(a), 32):
        v = a[w:w + 32]
        for l in range(32):
            seg8 = l & ~7
            up = v[l - 3] if (l & 7) >= 3 else v[l]
            dn = v[l + 2] if (l & 7) + 2 < 8 else v[l]
            x = v[seg8 + ((l ^ 5) & 7)]
            i16 = v[(l & ~15) + ((l + 3) % 16)]
            out += [v[5], v[(37 - l) % 32], up, dn, x, i16]
            fo.append(f32(v[l + 7] * 0.25) if l + 7 < 32 else f32(v[l] * 0.25))
    return {'out': out, 'fout': fo}


@ref
def syncthreads_reduce_ops(B, S, sp):
    bd, n, out = sp['block'][0], S['n'], []
    for b in range(sp['grid'][0]):
        v = [B['in'][b * bd + t] if b * bd + t < n else 0 for t in range(bd)]
        out += [sum(x > 0 for x in v), int(all(x > -950 for x in v)), int(any(x > 990 for x in v))]
    return {'out': out}


def mulhi32(a, b, signed):
    return s32((a * b) >> 32) if signed else ((a & M32) * (b & M32)) >> 32


def mul24(a, b, signed):
    if signed:
        sa = (a & 0xffffff) - (1 << 24 if a & 0x800000 else 0)
        sb = (b & 0xffffff) - (1 << 24 if b & 0x800000 else 0)
        return s32(sa * sb)
    return s32((a & 0xffffff) * (b & 0xffffff))


@ref
def int_mulhi_wide(B, S, sp):
    o32, o64 = [], []
    for x, y in zip(B['a'][:S['n']], B['b'][:S['n']]):
        o32 += [s32(x * y), mulhi32(x, y, True), s32(mulhi32(x, y, False)), mul24(x, y, True),
                mul24(x & M32, y & M32, False), s32(x * y + (x ^ y))]
        X = s64(x * 0x10001 + y)
        Y = s64(y * -77777)
        o64 += [x * y, s64((x & M32) * (y & M32)), s64((X * Y) >> 64), s64(((X & M64) * (Y & M64)) >> 64),
                s64(X * Y + X)]
    return {'o32': o32, 'o64': o64}


@ref
def int_divrem(B, S, sp):
    o, o64 = [], []
    for x, y in zip(B['a'][:S['n']], B['b'][:S['n']]):
        if y == 0:
            y = -3
        if x == -2 ** 31 and y == -1:
            y = 7
        ux, uy = x & M32, y & M32
        o += [s32(tdiv(x, y)), tmod(x, y), s32(ux // uy), s32(ux % uy), tdiv(x, 7), tmod(x, -13), s32(ux // 10),
              tdiv(x, 16) + tmod(x, 8)]
        X, Y = x * 1000003, y * 37
        o64 += [tdiv(X, Y), tmod(X, Y), s64((X & M64) // (Y & M64)), tdiv(X, -1000)]
    return {'o': o, 'o64': o64}


def brev(x, bits):
    return int(format(x & ((1 << bits) - 1), '0%db' % bits)[::-1], 2)


def clz(x, bits):
    x &= (1 << bits) - 1
    return bits - x.bit_length()


def ffs(x, bits):
    x &= (1 << bits) - 1
    return (x & -x).bit_length() if x else 0


def byte_perm(x, y, s):
    by = [(x >> (8 * k)) & 255 for k in range(4)] + [(y >> (8 * k)) & 255 for k in range(4)]
    return sum(by[(s >> (4 * k)) & 7] << (8 * k) for k in range(4))


def funnel(lo, hi, s, left, clamp):
    s = min(s, 32) if clamp else s & 31
    v = (hi << 32) | lo
    return ((v << s) >> 32) & M32 if left else (v >> s) & M32


@ref
def bitops(B, S, sp):
    o = []
    for x, y in zip(B['a'][:S['n']], B['b'][:S['n']]):
        s = y & 63
        X = (x << 32) | y
        o += [popc(x), popc(X) + 100, clz(x >> (y & 31), 32), clz(X >> s, 64), brev(x, 32),
              (brev(X, 64) >> 7) & M32, ffs(x & (x << 3), 32), ffs(X & (X << 9), 64), byte_perm(x, y, 0x5140),
              byte_perm(x, y, y & 0x7777), funnel(x, y, s, True, False), funnel(x, y, s, False, False),
              funnel(x, y, s, True, True), funnel(x, y, s, False, True), (x >> (y & 15)) & 0x3ff,
              (x & ~(0xff << 8) & M32) | ((y & 0xff) << 8)]
    return {'o': o}


@ref
def minmax_abs(B, S, sp):
    o = []
    for x, y in zip(B['a'][:S['n']], B['b'][:S['n']]):
        X, Y = x * 3000000000, s64(y << 20)
        ux, uy = x & M32, y & M32
        o += [min(x, y), max(x, y), min(ux, uy), max(ux, uy), s32(abs(x)), abs(X), min(X, Y),
              s64(max(X & M64, Y & M64)), abs(x - y) + 5, abs(ux - uy), (x < y) * 2 + (ux < uy), s32(-x)]
    return {'o': o}


@ref
def int64_ops(B, S, sp):
    o = []
    for x, y in zip(B['a'][:S['n']], B['b'][:S['n']]):
        ux, uy = x & M64, y & M64
        s = uy & 63
        o += [s64(ux + uy), s64(ux - uy), x >> s, s64(ux >> s), s64(ux << s),
              (x < y) | (ux < uy) << 1 | (x >= y) << 2, s64(ux * uy), s64(-ux), s64((ux << 13) | (ux >> 51)),
              s64((ux & M32) * (uy >> 32) + (x ^ ~y))]
    return {'o': o}


@ref
def recursion(B, S, sp):
    fib = [0, 1]
    for k in range(2, 17):
        fib.append(fib[-1] + fib[-2])
    f, fb, rs = [], [], []
    for t in range(sp['block'][0]):
        f.append(math.factorial(max(t, 1)) & M64)
        fb.append(fib[t % 17])
        loc = [(t * 7 + k * 13) % 19 - 9 for k in range(12)]
        rs.append(sum(loc[j - 1] * j for j in range(1, t % 13 + 1)))
    return {'f': f, 'fb': fb, 'rs': rs}


@ref
def local_array(B, S, sp):
    n, a, srt, pick = S['n'], B['in'], [], []
    for i in range(n):
        v = sorted(a[(i * 13 + k * 5) % (n * 13)] for k in range(13))
        srt += v
        pick.append(v[(a[i] & M32) % 13])
    return {'sorted': srt, 'pick': pick}


@ref
def volatile_warp(B, S, sp):
    n = S['n']
    return {'out': [sum(B['in'][b * 32 + t] for t in range(32) if b * 32 + t < n) for b in range(sp['grid'][0])]}


@ref
def cas_lock_warp(B, S, sp):
    return {'lock': [0], 'counter': [B['counter'][0] + sum(B['in'])], 'maxseen': [max(B['maxseen'] + B['in'])]}


@ref
def bar_early_exit(B, S, sp):
    bd, n, out = sp['block'][0], S['n'], list(B['out'])
    for base in range(0, n, bd):
        seg = B['in'][base:min(base + bd, n)]
        for t in range(len(seg)):
            out[base + t] = seg[t] - seg[len(seg) - 1 - t]
    return {'out': out}


@ref
def match_any(B, S, sp):
    k, g, al = B['keys'], [], []
    for w in range(0, len(k), 32):
        v = k[w:w + 32]
        for l in range(32):
            g.append(sum(1 << j for j in range(32) if v[j] == v[l]))
            same = len(set(x // 1000 for x in v)) == 1
            al.append(3 if same else 0)
    return {'groups': g, 'all': al}


@ref
def shfl_partial_mask(B, S, sp):
    a, out = B['in'], []
    for w in range(0, len(a), 32):
        v = a[w:w + 32]
        b = sum(1 << l for l in range(16) if v[l] > 0)
        for l in range(32):
            if l < 16:
                out += [(v[l + 1] if l < 15 else v[l]) + v[15 - l], b, -1]
            else:
                out += [-1, 0, -1]
    return {'out': out}


@ref
def small_types(B, S, sp):
    oc, ous, oi = [], [], []
    for x, y, z in zip(B['c'][:S['n']], B['u'][:S['n']], B['s'][:S['n']]):
        oc.append(wrap('i8', x * 3 + y))
        ous.append((z * 5 - y) & 0xffff)
        oi += [x + y + z, (x >> 2) if x < 0 else (y >> 3), (x & 255) * wrap('i16', z >> 4), (z & 0xffff) // (y | 1)]
    return {'oc': oc, 'ous': ous, 'oi': oi}


@ref
def select_pred(B, S, sp):
    o = []
    for x, y, g in zip(B['a'][:S['n']], B['b'][:S['n']], B['f'][:S['n']]):
        p, q = x > y, (x & M32) <= (y & M32)
        r = math.isnan(g) or g >= 0.5
        s = not (g < -0.5)
        o += [x if (p and q) else y, (x - y) if (p or r) else (y - x), (p ^ s) + 2 * (q != r) + 4 * (not p),
              max(x, 0) if x > y else max(y, 0), (g > 0) - (g < 0) + 10 * (x == y)]
    return {'o': [int(v) for v in o]}


@ref
def dyn_shared(B, S, sp):
    bd, n, out = sp['block'][0], S['n'], []
    for b in range(sp['grid'][0]):
        ints = [B['in'][b * bd + t] if b * bd + t < n else 0 for t in range(bd)]
        sq = [t * t for t in range(bd)]
        dbl = [ints[bd - 1 - t] * 0.5 + sq[(t + 1) % bd] for t in range(bd)]
        out += [dbl[(t + 3) % bd] - dbl[t] for t in range(bd) if b * bd + t < n]
    return {'out': out}


@ref
def special_regs(B, S, sp):
    return {'ok': [0x3ff] * len(B['ok'])}


@ref
def vector_loads(B, S, sp):
    n, bd, a, bb = S['n'], sp['block'][0], B['a'], B['b']
    fo, io, qo = [], [], []
    for i in range(n):
        x, y, z, w = a[4 * i:4 * i + 4]
        fo += [f32(w * 2.0), f32(z + y), f32(x - 1.0), f32(x + w)]
        px, py = bb[2 * i], bb[2 * i + 1]
        io += [py, px ^ py]
        t = i % bd
        j = i - t + (t + 1) % bd
        if j < n:
            qx, qy = bb[2 * j], bb[2 * j + 1]
            qo += [qx, qy, s32(qx - qy), (t + 1) % bd]
        else:
            qo += [0, 0, 0, (t + 1) % bd]
    return {'fo': fo, 'io': io, 'qo': qo}


@ref
def named_barriers(B, S, sp):
    a, out = B['in'], []
    for b in range(sp['grid'][0]):
        x = a[b * 128:b * 128 + 128]
        b0 = [3 * x[l] for l in range(32)]
        b1 = x[64:96]
        for w in range(4):
            for l in range(32):
                if w == 1:
                    out.append(s32(b0[31 - l] + x[32 + l]))
                elif w == 3:
                    out.append(b1[l] - l)
                else:
                    out.append(s32(b0[l] + b1[(l + 1) & 31] * (w - 1)))
    return {'out': out}


@ref
def acquire_release(B, S, sp):
    g = sp['grid'][0]
    return {'data': [l * l + b for b in range(g) for l in range(32)], 'flag': [33] * g,
            'out': [(31 - l) * (31 - l) + b + 1000 for b in range(g) for l in range(32)]}


@ref
def atomics_shared_float(B, S, sp):
    bd, n, fo, do = sp['block'][0], S['n'], [], []
    for b in range(sp['grid'][0]):
        fs = [0.25 * t for t in range(4)]
        ds = [-1.5 * t for t in range(2)]
        for t in range(bd):
            i = b * bd + t
            if i < n:
                fs[t & 3] += B['in'][i] * 0.125
                ds[t & 1] += B['in'][i] * 0.0625
        fo += [f32(v) for v in fs]
        do += ds
    return {'fo': fo, 'dout': do}


# ------------------------------------------------- exact IEEE arithmetic (Fractions)
from fractions import Fraction as Q

F32 = (24, -126, 127)
F64 = (53, -1022, 1023)
NAN = math.nan


def rnd(q, fmt, mode='rn'):
    """Rounds the exact value q (a Fraction, != 0) to format fmt in mode rn/rz/ru/rd."""
    mant, emin, emax = fmt
    neg = q < 0
    a = -q if neg else q
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Q(2) ** e > a:
        e -= 1
    elif Q(2) ** (e + 1) <= a:
        e += 1
    e = max(e, emin)
    quantum = Q(2) ** (e - (mant - 1))
    m = a / quantum
    mi = m.numerator // m.denominator
    rem = m - mi
    up = False
    if rem:
        if mode == 'rn':
            up = rem > Q(1, 2) or (rem == Q(1, 2) and mi & 1)
        elif mode == 'ru':
            up = not neg
        elif mode == 'rd':
            up = neg
    mi += up
    v = mi * quantum
    biggest = (Q(2) ** mant - 1) * Q(2) ** (emax - mant + 1)
    if v > biggest:
        to_inf = mode == 'rn' or (mode == 'ru' and not neg) or (mode == 'rd' and neg)
        v = None if to_inf else biggest
    if v is None:
        return -math.inf if neg else math.inf
    r = float(v)
    if r == 0.0:
        r = 0.0
    return -r if neg else r


def is_special(*xs):
    return any(math.isnan(x) or math.isinf(x) or x == 0.0 for x in xs)


def sgn(x):
    return math.copysign(1.0, x)


def ieee_add(x, y, fmt, mode='rn'):
    if math.isnan(x) or math.isnan(y):
        return NAN
    if math.isinf(x) or math.isinf(y):
        if math.isinf(x) and math.isinf(y) and sgn(x) != sgn(y):
            return NAN
        return x if math.isinf(x) else y
    q = Q(x) + Q(y)
    if q == 0:
        if x == 0.0 and y == 0.0 and sgn(x) == sgn(y):
            return x
        return -0.0 if mode == 'rd' else 0.0
    return rnd(q, fmt, mode)


def ieee_mul(x, y, fmt, mode='rn'):
    if math.isnan(x) or math.isnan(y):
        return NAN
    s = sgn(x) * sgn(y)
    if math.isinf(x) or math.isinf(y):
        return NAN if (x == 0.0 or y == 0.0) else s * math.inf
    q = Q(x) * Q(y)
    return s * 0.0 if q == 0 else rnd(q, fmt, mode)


def ieee_fma(x, y, z, fmt, mode='rn'):
    if math.isnan(x) or math.isnan(y) or math.isnan(z):
        return NAN
    if math.isinf(x) or math.isinf(y) or math.isinf(z):
        p = x * y if not ((math.isinf(x) and y == 0) or (math.isinf(y) and x == 0)) else NAN
        return p + z if not math.isnan(p) else NAN
    q = Q(x) * Q(y) + Q(z)
    if q == 0:
        ps = sgn(x) * sgn(y)
        if (x == 0.0 or y == 0.0) and z == 0.0 and ps == sgn(z):
            return z
        return -0.0 if mode == 'rd' else 0.0
    return rnd(q, fmt, mode)


def ieee_div(x, y, fmt, mode='rn'):
    if math.isnan(x) or math.isnan(y):
        return NAN
    s = sgn(x) * sgn(y)
    if math.isinf(x):
        return NAN if math.isinf(y) else s * math.inf
    if math.isinf(y):
        return s * 0.0
    if y == 0.0:
        return NAN if x == 0.0 else s * math.inf
    if x == 0.0:
        return s * 0.0
    return rnd(Q(x) / Q(y), fmt, mode)


def ieee_sqrt(x, fmt, mode='rn'):
    if math.isnan(x) or x < 0:
        return NAN
    if x == 0.0 or math.isinf(x):
        return x
    q = Q(x)
    k = 400
    N = q * Q(4) ** k
    Ni = N.numerator // N.denominator
    r = math.isqrt(Ni)
    if r * r == Ni and N.denominator == 1:
        v = Q(r, 2 ** k)
    else:
        v = Q(2 * r + 1, 2 ** (k + 1))
    return rnd(v, fmt, mode)


def fmin(x, y):
    if math.isnan(x):
        return y
    if math.isnan(y):
        return x
    if x == y == 0.0:
        return -0.0 if (sgn(x) < 0 or sgn(y) < 0) else 0.0
    return min(x, y)


def fmax(x, y):
    if math.isnan(x):
        return y
    if math.isnan(y):
        return x
    if x == y == 0.0:
        return 0.0 if (sgn(x) > 0 or sgn(y) > 0) else -0.0
    return max(x, y)


@ref
def float_rounding(B, S, sp):
    o = []
    for x, y, z in zip(B['a'][:S['n']], B['b'][:S['n']], B['c'][:S['n']]):
        ax = abs(x)
        for op in (lambda m: ieee_add(x, y, F32, m), lambda m: ieee_add(x, -z, F32, m),
                   lambda m: ieee_mul(x, y, F32, m), lambda m: ieee_fma(x, y, z, F32, m),
                   lambda m: ieee_div(x, y, F32, m), lambda m: ieee_div(1.0, y, F32, m)):
            o += [op(m) for m in ('rn', 'rz', 'ru', 'rd')]
        o.append(ieee_sqrt(ax, F32))
        o.append(ieee_sqrt(ax, F32, 'rz'))
        o.append(ieee_add(ieee_sqrt(ax, F32), -ieee_sqrt(ax, F32, 'rd'), F32))
        o.append(ieee_add(ieee_fma(x, y, z, F32), -ieee_div(x, y, F32), F32))
    return {'o': o}


@ref
def float_subnormal(B, S, sp):
    o = []
    for x in B['a'][:S['n']]:
        tiny = ieee_mul(x, f32(1e-38), F32)
        o += [tiny, ieee_mul(tiny, 0.0625, F32), ieee_div(tiny, 3.0, F32), ieee_fma(tiny, 0.5, -tiny, F32),
              ieee_sqrt(ieee_mul(abs(tiny), f32(1e-5), F32), F32),
              ieee_mul(ieee_mul(x, f32(1e38), F32), 10.0, F32)]
    return {'o': o}


@ref
def double_math(B, S, sp):
    o = []
    for x, y in zip(B['a'][:S['n']], B['b'][:S['n']]):
        o += [ieee_add(x, y, F64), ieee_fma(-y, 3.0, x, F64), ieee_mul(x, y, F64), ieee_fma(x, y, -x, F64),
              ieee_div(x, y, F64), ieee_sqrt(abs(x), F64), ieee_div(1.0, y, F64), ieee_add(x, y, F64, 'rz'),
              ieee_mul(x, y, F64, 'ru'), ieee_div(x, y, F64, 'rd'), fmin(x, y), fmax(x, y)]
    return {'o': o}


def to_int(x, mode, lo, hi):
    """PTX cvt float -> integer: round per mode, saturate to [lo, hi], NaN -> 0."""
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return hi if x > 0 else lo
    q = Q(x)
    fl = q.numerator // q.denominator
    if mode == 'rz':
        v = fl if q >= 0 or fl == q else fl + 1
    elif mode == 'rd':
        v = fl
    elif mode == 'ru':
        v = fl if fl == q else fl + 1
    else:
        d = q - fl
        v = fl + (d > Q(1, 2) or (d == Q(1, 2) and fl & 1))
    return max(lo, min(hi, v))


def int_to_f(v, fmt, mode='rn'):
    return 0.0 if v == 0 else rnd(Q(v), fmt, mode)


def fround(x, how):
    if math.isnan(x) or math.isinf(x) or x == 0.0:
        return x
    q = Q(x)
    fl = q.numerator // q.denominator
    if how == 'floor':
        v = fl
    elif how == 'ceil':
        v = fl if fl == q else fl + 1
    elif how == 'trunc':
        v = fl if q >= 0 or fl == q else fl + 1
    elif how == 'rint':
        d = q - fl
        v = fl + (d > Q(1, 2) or (d == Q(1, 2) and fl & 1))
    else:  # round: half away from zero
        a = abs(q)
        v = int(a + Q(1, 2))
        v = v if q > 0 else -v
    return math.copysign(float(v), x)


I32 = (-2 ** 31, 2 ** 31 - 1)
U32 = (0, 2 ** 32 - 1)
I64 = (-2 ** 63, 2 ** 63 - 1)
U64 = (0, 2 ** 64 - 1)


@ref
def cvt_float_int(B, S, sp):
    oi, ol, of = [], [], []
    for x, v in zip(B['f'][:S['n']], B['k'][:S['n']]):
        oi += [to_int(x, m, *I32) for m in ('rn', 'rz', 'rd', 'ru')]
        oi += [s32(to_int(x, m, *U32)) for m in ('rn', 'rz', 'rd', 'ru')]
        oi += [to_int(x, 'rz', *I32), s32(to_int(x, 'rz', *U32))]
        ol += [to_int(x, 'rn', *I64), to_int(x, 'rz', *I64), s64(to_int(x, 'rz', *U64))]
        of += [int_to_f(v, F32, m) for m in ('rn', 'rz', 'ru', 'rd')]
        of += [int_to_f(v & M32, F32), int_to_f(v & M32, F32, 'rz'), int_to_f(v * 1234567, F32),
               int_to_f((v * 99) & M64, F32)]
        of += [fround(x, h) for h in ('rint', 'floor', 'ceil', 'trunc', 'round')]
    return {'oi': oi, 'ol': ol, 'of': of}


def dbits(x):
    return struct.unpack('<q', struct.pack('<d', x))[0]


@ref
def cvt_double(B, S, sp):
    od, of, ol = [], [], []
    for x, v in zip(B['d'][:S['n']], B['k'][:S['n']]):
        if math.isnan(x) or math.isinf(x) or x == 0.0:
            of += [x if not math.isnan(x) else NAN] * 4
        else:
            of += [rnd(Q(x), F32, m) for m in ('rn', 'rz', 'ru', 'rd')]
        of.append(int_to_f(v, F32))
        ol += [to_int(x, m, *I32) for m in ('rn', 'rz', 'rd', 'ru')]
        ol += [to_int(x, 'rn', *I64), to_int(x, 'rz', *I64), s64(to_int(x, 'rz', *U64))]
        b = dbits(x)
        hi, lo = b >> 32, b & M32
        ol.append(s64(b ^ (s32(hi) << 1) ^ lo))
        od.append(of[-5])
        od.append(int_to_f(v, F64))
        hb = ((v >> 32) & 0x3fffffff)
        od.append(struct.unpack('<d', struct.pack('<Q', (hb << 32) | (v & M32)))[0])
        od.append(ieee_add(int_to_f(v & M64, F64), float(s32(v)), F64))
    return {'od': od, 'of': of, 'ol': ol}


def fbits(x, nan_bits=0x7fffffff):
    """f32 bits as a signed int; NaN gives nan_bits (the GPU's canonical NaN by default)."""
    if math.isnan(x):
        return s32(nan_bits)
    return struct.unpack('<i', struct.pack('<f', x))[0]


@ref
def float_special(B, S, sp):
    o, bits, p = [], [], []
    for x, y in zip(B['a'][:S['n']], B['b'][:S['n']]):
        cs = math.copysign(abs(x), sgn(y)) if not math.isnan(x) else NAN
        row = [fmin(x, y), fmax(x, y), cs, ieee_add(abs(x), -y, F32), ieee_mul(x, y, F32), x if x < y else y]
        o += row
        nb = [0x7fffffff, 0x7fffffff, (0x7fc00000 | (0x80000000 if sgn(y) < 0 else 0)), 0x7fffffff, 0x7fffffff,
              0x7fc00000]
        bits += [fbits(v, b) for v, b in zip(row, nb)]
        nx, ny = math.isnan(x), math.isnan(y)
        p.append(int(nx) | int(math.isinf(x)) << 1 | int(not (ny or math.isinf(y))) << 2 | int(sgn(x) < 0 and not nx) << 3 |
                 int(x == y) << 4 | int(x != y) << 5 | int(x < y) << 6 | int(x <= y) << 7 | int(not x >= y) << 8 |
                 int(not x > y) << 9 | int(x == x) << 10 | int(y + 0.0 == 0.0) << 11)
    return {'o': o, 'bits': bits, 'p': p}


# ------------------------------------------------------------------ comparison
def same(a, b, is_f32=False):
    if is_f32 and not isinstance(a, str) and not isinstance(b, str):
        a, b = f32(float(a)), f32(float(b))
    if isinstance(a, str) or isinstance(b, str):
        a, b = num(a) if isinstance(a, str) else a, num(b) if isinstance(b, str) else b
    if isinstance(a, float) or isinstance(b, float):
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


# ------------------------------------------------------- tensor cores (PTX ISA §9.7.14)
def f16_bits(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]


def mma_ref(name, M, N, K, kind, tiles):
    """D = A B + C per tile, row-major, for the exact cases (integer-valued inputs):
    kind 'f' float (rounded to integers first), 'h' the same with an f16 D, 'i' integer,
    'x'/'a' b1 xor/and popc, 's' integer with .satfinite. wmma cases store D in C's
    layout (the lc scalar)."""
    def fn(B, S, sp):
        A, Bm, C = B['A'], B['B'], B['C']
        lc = S.get('lc', 1)
        rnd = kind in 'fh'
        out = [0] * (tiles * M * N)
        for t in range(tiles):
            for i in range(M):
                for j in range(N):
                    c = C[t * M * N + i * N + j]
                    acc = round(c) if rnd else c
                    for k in range(K):
                        a, b = A[t * M * K + i * K + k], Bm[t * K * N + k * N + j]
                        if rnd:
                            a, b = round(a), round(b)
                        acc += (a ^ b) if kind == 'x' else (a & b) if kind == 'a' else a * b
                    if kind == 's':
                        acc = max(-2 ** 31, min(2 ** 31 - 1, acc))
                    elif kind in 'ixa':
                        acc = s32(acc)
                    at = t * M * N + (i * N + j if lc else j * M + i)
                    out[at] = f16_bits(float(acc)) if kind == 'h' and 'wmma' in name else (
                        float(acc) if rnd else acc)
        return {'D': out}
    fn.__name__ = name
    return fn


for _n, _m, _k, _kind in (
        ('mma_m16n8k16_f16_f32_exact', 16, 16, 'f'), ('mma_m16n8k8_f16_f32_exact', 16, 8, 'f'),
        ('mma_m16n8k16_bf16_f32_exact', 16, 16, 'f'), ('mma_m16n8k8_bf16_f32_exact', 16, 8, 'f'),
        ('mma_m16n8k16_f16_f16_exact', 16, 16, 'f'), ('mma_m16n8k8_tf32_exact', 16, 8, 'f'),
        ('mma_m16n8k4_tf32_exact', 16, 4, 'f'), ('mma_m8n8k4_f64_exact', 8, 4, 'f'),
        ('mma_m16n8k16_s8', 16, 16, 'i'), ('mma_m16n8k16_u8s8_sat', 16, 16, 's'),
        ('mma_m16n8k32_s8_sat', 16, 32, 's'), ('mma_m16n8k32_u8', 16, 32, 'i'),
        ('mma_m16n8k32_s4', 16, 32, 'i'), ('mma_m16n8k64_u4s4_sat', 16, 64, 's'),
        ('mma_m16n8k128_b1_xor', 16, 128, 'x'), ('mma_m16n8k256_b1_and', 16, 256, 'a'),
        ('mma_m8n8k16_s8', 8, 16, 'i'), ('mma_m8n8k32_s4_sat', 8, 32, 's'),
        ('mma_m8n8k128_b1_xor', 8, 128, 'x')):
    ref(mma_ref(_n, _m, 8, _k, _kind, 4))
for _n, _m, _nn, _k, _kind in (
        ('wmma_m16n16k16_f16_rr_exact', 16, 16, 16, 'f'),
        ('wmma_m16n16k16_f16_cc_exact', 16, 16, 16, 'f'),
        ('wmma_m16n16k16_f16_rc_f16_exact', 16, 16, 16, 'h'),
        ('wmma_m32n8k16_f16_cr_exact', 32, 8, 16, 'f'), ('wmma_m8n32k16_f16_rc_exact', 8, 32, 16, 'f'),
        ('wmma_m16n16k16_bf16_rc_exact', 16, 16, 16, 'f'),
        ('wmma_m32n8k16_bf16_rr_exact', 32, 8, 16, 'f'),
        ('wmma_m8n32k16_bf16_cc_exact', 8, 32, 16, 'f'),
        ('wmma_m16n16k8_tf32_rc_exact', 16, 16, 8, 'f'), ('wmma_m8n8k4_f64_rc_exact', 8, 8, 4, 'f'),
        ('wmma_m16n16k16_s8_rc', 16, 16, 16, 'f'), ('wmma_m32n8k16_u8_cr', 32, 8, 16, 'f'),
        ('wmma_m8n32k16_s8_rr', 8, 32, 16, 'f')):
    ref(mma_ref(_n, _m, _nn, _k, _kind, 2))


@ref
def ldmatrix_all(B, S, sp):
    """ldmatrix (PTX ISA §9.7.14.5.15): lane 8i+k names stored row 7-k of matrix i."""
    s = B['in']
    out = []
    for num in (1, 2, 4):
        for tr in (0, 1):
            block = [0] * (32 * num)
            for l in range(32):
                for i in range(num):
                    r, c = l // 4, 2 * (l % 4)
                    e = lambda row, col: s[(i * 9 + 7 - row) * 8 + col]
                    lo, hi = (e(c, r), e(c + 1, r)) if tr else (e(r, c), e(r, c + 1))
                    block[l * num + i] = lo | hi << 16
            out += block
    return {'out': out}


@ref
def movmatrix_trans(B, S, sp):
    """movmatrix.trans (PTX ISA §9.7.14.5.17), then again (the input)."""
    out = []
    for b in range(sp['grid'][0]):
        a = B['in'][b * 32:b * 32 + 32]
        m = [[0] * 8 for _ in range(8)]
        for l in range(32):
            m[l // 4][2 * (l % 4)], m[l // 4][2 * (l % 4) + 1] = a[l] & 0xffff, a[l] >> 16
        out += [m[2 * (l % 4)][l // 4] | m[2 * (l % 4) + 1][l // 4] << 16 for l in range(32)]
        out += a
    return {'out': out}


# ------------------------------------------------------------------ CUB and libcu++
# The cub_* and cuda_* cases run one kernel per file for sm_75, sm_80 and sm_90 with the
# same inputs: one reference each, registered under the three names. None in an expected
# buffer: a value CUB leaves to its implementation (a warp reduction's lanes other than
# 0, a float sum's order), not compared.
def per_arch(fn):
    for a in (75, 80, 90):
        R['%s_sm%d' % (fn.__name__, a)] = fn
    return fn


@per_arch
def cub_sort(B, S, sp):
    """BlockRadixSort (all bits, bits [8, 20), descending), BlockMergeSort, WarpMergeSort:
    stable, the keys then the input positions (values)."""
    k, n = B['keys'], 512

    def out(order):
        return [k[i] for i in order] + list(order)

    warp = []
    for w in range(4):
        warp += sorted(range(w * 128, w * 128 + 128), key=lambda i: (k[i], i))
    return {'radix': out(sorted(range(n), key=lambda i: (k[i], i))),
            'radix_bits': out(sorted(range(n), key=lambda i: ((k[i] >> 8) & 0xfff, i))),
            'radix_desc': out(sorted(range(n), key=lambda i: (-k[i], i))),
            'merge': out(sorted(range(n), key=lambda i: (k[i], i))), 'warp': out(warp)}


@per_arch
def cub_reduce_scan(B, S, sp):
    """BlockReduce, BlockScan (each algorithm), WarpReduce, WarpScan (cub_reduce_scan.cu)."""
    x, nb, nv = B['in'], sp['grid'][0], S['n_valid']
    T = nb * 128
    red, scans, warp = [], [], [0] * (T * 8)
    for _ in range(3):
        for b in range(nb):
            v = x[b * 128:b * 128 + 128]
            red += [s32(sum(v)), s32(sum(v[:nv])), max(v)]
    for _ in range(3):
        part = [0] * (3 * T)
        for b in range(nb):
            v, acc = x[b * 128:b * 128 + 128], 0
            items = [x[(b * 512 + j) % T] for j in range(512)]
            m = [max(items[:j + 1]) for j in range(512)]
            for t in range(128):
                g = b * 128 + t
                part[3 * g] = s32(acc)
                acc += v[t]
                part[3 * g + 1] = s32(acc + (sum(v) if t == 127 else 0))
                part[3 * g + 2] = s32(m[4 * t] ^ m[4 * t + 3])
        scans += part
    for g in range(T):
        lane, base = g % 32, g - g % 32
        v = x[base:base + 32]
        head = lane % 7 == 0
        o = [None] * 8
        if lane == 0:
            o[0], o[1], o[2] = s32(sum(v)), max(v), s32(sum(v[:20]))
        if head:
            o[3] = s32(sum(v[lane:min(32, lane + 7)]))
        o[4] = s32(sum(v[:lane + 1]))
        o[5] = s32(sum(v[:lane]) ^ sum(v))
        o[6] = s32(sum(x[g - g % 16:g + 1]))
        o[7] = v[5]
        warp[g * 8:g * 8 + 8] = o
    return {'red': red, 'fred': [None] * (3 * nb), 'scans': scans, 'warp': warp}


@per_arch
def cub_rearrange(B, S, sp):
    """BlockHistogram (sort, atomic), BlockDiscontinuity, BlockExchange (cub_rearrange.cu)."""
    smp, runs, nb = B['samples'], B['runs'], sp['grid'][0]
    n = nb * 256
    hist, flags, xchg = [], [], []
    for _ in range(2):
        for b in range(nb):
            h = [0] * 64
            for j in range(256):
                h[smp[b * 512 + j] % 64] += 1
                h[smp[b * 512 + 256 + j] // 4] += 1
            hist += h
    for b in range(nb):
        v = runs[b * 256:b * 256 + 256]
        pred, succ = runs[(b * 256 + n - 1) % n], runs[(b * 256 + 256) % n]
        f = [0] * 768
        for i in range(256):
            hd = 1 if i == 0 else int(v[i] != v[i - 1])
            tl = 1 if i == 255 else int(v[i] != v[i + 1])
            hd2 = int(v[i] != (pred if i == 0 else v[i - 1]))
            tl2 = int(v[i] != (succ if i == 255 else v[i + 1]))
            f[i], f[256 + i], f[512 + i] = hd + 2 * tl, hd2 + 2 * tl2, hd2
        flags += f
    for _ in range(2):
        for b in range(nb):
            v = runs[b * 256:b * 256 + 256]
            ws = [v[(t // 32) * 128 + i * 32 + t % 32] for t in range(64) for i in range(4)]
            xchg += v + ws + v + v[::-1]
    return {'hist': hist, 'flags': flags, 'xchg': xchg}


@per_arch
def cub_load_store(B, S, sp):
    """BlockLoad/BlockStore, every algorithm: held is the arrangement each load gives
    (striped for STRIPED, blocked for the others), out the tile doubled, -1 past the
    valid items of block 1 and the untouched 7 past them in out."""
    x, held, out = B['in'], [], []
    valid = [256, S['valid']]
    for a in range(6):
        for b in range(2):
            for t in range(64):
                for i in range(4):
                    j = i * 64 + t if a == 1 else t * 4 + i
                    held.append(x[b * 256 + j] if j < valid[b] else -1)
        for b in range(2):
            out += [s32(2 * x[b * 256 + j]) if j < valid[b] else 7 for j in range(256)]
    return {'held': held, 'out': out}


@per_arch
def cuda_pipeline(B, S, sp):
    """cuda::pipeline at block scope (acc) and at thread scope (sum), cuda_async.cu."""
    x, tiles, out = B['in'], S['tiles'], []
    for _ in range(sp['grid'][0]):
        acc = [0] * 128
        for t in range(128):
            for u in range(tiles):
                acc[t] = s32(acc[t] * 3 + x[u * 128 + (t * 5 + u) % 128])
        sm = [0] * 128
        for t in range(128):
            for i in range(tiles):
                sm[t] = s32(sm[t] * 2 - x[i * 128 + t])
        out += acc + sm
    return {'out': out}


@per_arch
def cuda_barrier(B, S, sp):
    """cuda::barrier with cuda::memcpy_async (block, per thread), phases, arrive_and_drop."""
    x, out = B['in'], []
    for b in range(sp['grid'][0]):
        v = x[b * 256:b * 256 + 256]
        a = v[:128]
        for ph in range(3):
            a = [a[(t + 1) % 128] * (ph + 1) for t in range(128)]
        c = [v[(t * 3) % 256] for t in range(256)]
        out += [v[255 - t] - v[t] for t in range(256)]
        out += [v[(t * 7) % 256] + t for t in range(256)]
        out += [a[t] if t < 128 else -t for t in range(256)]
        out += [c[t] ^ c[255 - t] for t in range(256)]
    return {'out': out}


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    d = sys.argv[1]
    names = sys.argv[2:] or sorted(R)
    bad = ok = missing = 0
    for name in names:
        if name not in R:
            print('%s: no reference' % name)
            continue
        path = os.path.join(d, name + '.golden.json')
        if not os.path.exists(path):
            path = os.path.join(d, name + '.json')
        if not os.path.exists(path):
            print('%s: no result in %s' % (name, d))
            missing += 1
            continue
        spec, B, S = load_case(name)
        got = json.load(open(path))['buffers']
        exp = R[name](B, S, spec)
        diffs = []
        types = {a['name']: a['type'] for a in spec['args']}
        for buf, ev in exp.items():
            is_f32 = types[buf] == 'f32*'
            gv = got[buf]
            for i, (e, g) in enumerate(zip(ev, gv)):
                if e is not None and not same(e, g, is_f32):
                    diffs.append('%s[%d]: expected %r, got %r' % (buf, i, e, g))
        if diffs:
            bad += 1
            print('%s: %d differences, first: %s' % (name, len(diffs), '; '.join(diffs[:3])))
        else:
            ok += 1
            print('%s: ok' % name)
    print('reference: %d ok, %d differ, %d without a result' % (ok, bad, missing))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
