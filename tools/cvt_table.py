#!/usr/bin/env python3
"""cvt_table.py -- writes tests/isa/cvt.txt, the row-by-row table of every cvt form the
PTX ISA lists up to sm_90 (PTX ISA 9.0 §9.7.9.21 cvt, §9.7.9.22 cvt.pack), with inputs
chosen to hit each form's edge cases and the expected result bits.

The expected bits come from an exact-rational model of the ISA's text written here
(fractions.Fraction: no host floating point, no simulator code): "round to nearest even",
"ties away from zero", "toward zero", "toward -inf/+inf" (§9.7.9.21 "Floating Point
Notes" and "Integer Notes"), float-to-integer clamping and its NaN rule, .sat ([0.0, 1.0],
NaN to +0.0), .relu (negative to 0, NaN to the canonical NaN), .satfinite (beyond
MAX_NORM: sign-preserved MAX_NORM; NaN stays NaN), the formats of §5.2.1 and §5.2.3.
Where the ISA leaves the bits open (which NaN a conversion returns without .relu, the
sign of .sat(-0.0), the tf32 layout's low bits, ...), the row is marked "unspec" and
states the simulator's model, with the measurement it rests on where there is one.
Every row is to be confirmed on a GPU: tools/cvt_gpu_check.sh runs the table there.

Usage: python3 tools/cvt_table.py > tests/isa/cvt.txt
"""
from fractions import Fraction as Fr
import sys

# ------------------------------------------------------------------ formats
# name: (exponent bits, mantissa bits, has infinity), PTX ISA §5.2.1 / §5.2.3
FLT = {'f16': (5, 10, True), 'bf16': (8, 7, True), 'f32': (8, 23, True),
       'f64': (11, 52, True), 'tf32': (8, 10, True), 'e5m2': (5, 2, True),
       'e4m3': (4, 3, False)}
INT = {'u8': (8, 0), 's8': (8, 1), 'u16': (16, 0), 's16': (16, 1), 'u32': (32, 0),
       's32': (32, 1), 'u64': (64, 0), 's64': (64, 1)}
WIDTH = {'f16': 16, 'bf16': 16, 'f32': 32, 'f64': 64}
WIDTH.update({k: v[0] for k, v in INT.items()})
CANON = {'f16': 0x7fff, 'bf16': 0x7fff, 'f32': 0x7fffffff, 'tf32': 0x7fffe000,  # tf32: H200
         
         'e4m3': 0x7f, 'e5m2': 0x7f}  # the simulator's NaN results (unspec)


def fbits(t):
    e, m, _ = FLT[t]
    return 1 + e + m


def bias(t):
    return (1 << (FLT[t][0] - 1)) - 1


def maxnorm(t):
    e, m, inf = FLT[t]
    if not inf:  # e4m3: exponent 15 is a number except mantissa 7 (NaN): 1.75 * 2^8
        return Fr(2 ** (m + 1) - 2, 2 ** m) * Fr(2) ** bias(t) * 2
    return Fr(2 ** (m + 1) - 1, 2 ** m) * Fr(2) ** bias(t)


def decode(t, bits):
    """('nan', sign) | ('inf', sign) | ('num', sign, |value|)"""
    if t == 'tf32':
        t = 'f32'
    e, m, inf = FLT[t]
    sign = (bits >> (e + m)) & 1
    ex = (bits >> m) & ((1 << e) - 1)
    man = bits & ((1 << m) - 1)
    if inf and ex == (1 << e) - 1:
        return ('nan', sign) if man else ('inf', sign)
    if not inf and ex == (1 << e) - 1 and man == (1 << m) - 1:
        return ('nan', sign)
    if ex == 0:
        v = Fr(man) * Fr(2) ** (1 - bias(t) - m)
    else:
        v = Fr(man + (1 << m)) * Fr(2) ** (ex - bias(t) - m)
    return ('num', sign, v)


def rnd_int(v, sign, rnd):
    """|v| (a Fraction) rounded to an integer in mode rnd, for a value of sign sign."""
    fl = v.numerator // v.denominator
    rem = v - fl
    if rem == 0:
        return fl
    if rnd in ('rn', 'rni'):
        return fl + 1 if rem > Fr(1, 2) or (rem == Fr(1, 2) and fl % 2) else fl
    if rnd == 'rna':
        return fl + 1 if rem >= Fr(1, 2) else fl
    if rnd in ('rz', 'rzi'):
        return fl
    if rnd in ('rm', 'rmi'):
        return fl + 1 if sign else fl
    if rnd in ('rp', 'rpi'):
        return fl if sign else fl + 1
    raise ValueError(rnd)


def ilog2(v):
    e = v.numerator.bit_length() - v.denominator.bit_length()
    while Fr(2) ** e > v:
        e -= 1
    while Fr(2) ** (e + 1) <= v:
        e += 1
    return e


def encode(t, sign, v, rnd, satfinite=False):
    """The bits of sign * v (v a Fraction >= 0, or 'inf') in format t, rounded by rnd."""
    e, m, inf = FLT[t]
    lay = 'f32' if t == 'tf32' else t
    le, lm, _ = FLT[lay]
    mx = maxnorm(t)

    def pack(ex, man):
        if t == 'tf32':
            man <<= 13
        return (sign << (le + lm)) | (ex << lm) | man

    def overflow():
        if satfinite or not inf:
            return finite(mx)
        to_inf = rnd in ('rn', 'rna') or (rnd == 'rp' and not sign) or (rnd == 'rm' and sign)
        return pack((1 << e) - 1, 0) if to_inf else finite(mx)

    def finite(r):
        if r == 0:
            return pack(0, 0)
        E = max(ilog2(r), 1 - bias(t))
        n = r / Fr(2) ** (E - m)
        assert n.denominator == 1
        n = n.numerator
        if n < (1 << m):
            return pack(0, n)
        return pack(E + bias(t), n - (1 << m))

    if v == 'inf':  # exact in every mode; .satfinite (and a format without inf): MAX_NORM
        return finite(mx) if satfinite or not inf else pack((1 << e) - 1, 0)
    if v == 0:
        return pack(0, 0)
    E = max(ilog2(v), 1 - bias(t))
    q = Fr(2) ** (E - m)
    r = rnd_int(v / q, sign, rnd) * q
    if r > mx:
        return overflow()
    return finite(r)


def hexw(x, w):
    return '0x%0*x' % ((w + 3) // 4, x)


# ------------------------------------------------------------------ rows
rows = []  # (section, status, a, b, c, want, body, note)


def row(body, a, want, b=0, c=0, sec='9.7.9.21', status='isa', note=''):
    rows.append((sec, status, a, b, c, want, body, note))


def comment(text):
    rows.append(('#', text))


def reg(t):
    return {8: 16, 16: 16, 32: 32, 64: 64}[WIDTH[t]] if t in WIDTH else None


def f2f(dt, st, bits, rnd=None, ftz=False, sat=False, relu=False, satfinite=False):
    """cvt to float dt from float st: (want, status)."""
    k = decode(st, bits)
    status = 'isa'
    if k[0] == 'nan':
        if sat:
            return 0, 'isa'  # "NaN results are flushed to positive zero"
        if relu:
            return CANON[dt], 'isa' if dt != 'f64' else 'unspec'
        if (dt == 'f64' or st == 'f64') and dt != st and dt != 'tf32':
            # H200 (tools/cvt_gpu_check.sh): to or from .f64, the sign and the payload
            # aligned to the top of the mantissa, made quiet
            ms, md = FLT[st][1], FLT[dt][1]
            m52 = (bits & ((1 << ms) - 1)) << (52 - ms)
            dm = ((m52 >> (52 - md)) | (1 << (md - 1))) & ((1 << md) - 1)
            wd = WIDTH[dt]
            return (k[1] << (wd - 1)) | (((1 << (wd - 1 - md)) - 1) << md) | dm, 'gpu'
        if dt == 'f64':  # .f64 from .f64: the payload kept, made quiet
            return bits | 0x0008000000000000, 'unspec'
        if dt == 'f32' and st == 'bf16':  # H100: payload kept (corpus half_roundtrip_bf16)
            return (bits << 16) | 0x00400000, 'unspec'
        if dt == 'tf32' and rnd == 'rna':  # H200: sign and the payload's high 10 bits;
            w = bits & 0xffffe000  # .satfinite one tf32 unit below (payloads 0x400000/1)
            return (w - 0x2000 if satfinite and (w & 0x7fe000) > 0x2000 else w), 'gpu'
        return CANON[dt], 'unspec'
    sign = k[1]
    if k[0] == 'inf':
        v = 'inf'
    else:
        v = k[2]
        if ftz and st == 'f32' and v != 0 and v < Fr(2) ** -126:
            if dt == 'f16':  # H200: .ftz keeps an .f32 subnormal on its way to .f16
                status = 'gpu'
            else:
                v = Fr(0)
    if rnd in ('rni', 'rzi', 'rmi', 'rpi') and v != 'inf':
        v = Fr(rnd_int(v, sign, rnd))
        rnd = 'rn'
    if relu and sign:
        v, sign = Fr(0), 0
    if sat:
        if v == 'inf':
            v = Fr(1) if not sign else Fr(0)
        elif sign:
            v = Fr(0)
        elif v > 1:
            v = Fr(1)
        if sign:
            sign = 0
            status = 'unspec'  # .sat of a negative value: +0.0 (H200: nan_minmax_saturate)
    w = encode(dt, sign, v, rnd or 'rn', satfinite)
    if ftz and dt == 'f32':
        d = decode('f32', w)
        if d[0] == 'num' and d[2] != 0 and d[2] < Fr(2) ** -126:
            w &= 0x80000000
    return w, status


def f2i(dt, st, bits, rnd, ftz=False):
    regw = 8 if WIDTH[dt] == 8 and st == 'bf16' else None
    dw, sg = INT[dt]
    k = decode(st, bits)
    lo, hi = (-(1 << (dw - 1)), (1 << (dw - 1)) - 1) if sg else (0, (1 << dw) - 1)
    if k[0] == 'nan':
        r = 0 if (st != 'f64' and dt not in ('s64', 'u64')) else 1 << (dw - 1)
        return sext(r, dt, regw)
    sign = k[1]
    if k[0] == 'inf':
        r = lo if sign else hi
    else:
        v = k[2]
        if ftz and st == 'f32' and v < Fr(2) ** -126:
            v = Fr(0)
        n = rnd_int(v, sign, rnd)
        n = -n if sign else n
        r = min(max(n, lo), hi)
    return sext(r & ((1 << dw) - 1), dt, regw)


def sext(r, t, regw=None):
    """r (t's width) sign-extended to its register (16 bits for 8-bit types)."""
    dw, sg = INT[t]
    regw = regw or reg(t)
    if sg and r >> (dw - 1) & 1:
        r |= ((1 << regw) - 1) ^ ((1 << dw) - 1)
    return r


def i2f(dt, st, x, rnd, sat=False):
    dw, sg = INT[st]
    x &= (1 << dw) - 1
    if sg and x >> (dw - 1):
        x -= 1 << dw
    sign = 1 if x < 0 else 0
    v = Fr(abs(x))
    if sat:
        v = Fr(0) if sign else min(v, Fr(1))
        sign = 0
    return encode(dt, sign, v, rnd)


def i2i(dt, st, x, sat=False):
    sw, ss = INT[st]
    dw, ds = INT[dt]
    x &= (1 << sw) - 1
    if ss and x >> (sw - 1):
        x -= 1 << sw
    if sat:
        lo, hi = (-(1 << (dw - 1)), (1 << (dw - 1)) - 1) if ds else (0, (1 << dw) - 1)
        x = min(max(x, lo), hi)
    return sext(x & ((1 << dw) - 1), dt)


ITYPES = ['u8', 's8', 'u16', 's16', 'u32', 's32', 'u64', 's64']
FTYPES = ['f16', 'bf16', 'f32', 'f64']


def body(mn, dt, st):
    """mn d, a; with registers of the types' widths (16 bits for 8-bit integers, but 8
    beside .bf16: ptxas 13.0 takes no wider register for the integer of cvt.bf16.u8 and
    cvt.u8.bf16, 'Arguments mismatch')"""
    def w(t, other):
        return 8 if WIDTH[t] == 8 and other == 'bf16' else reg(t)
    return '%s %%d%d, %%a%d;' % (mn, w(dt, st), w(st, dt))


# -------- integer <-> integer
comment('integer to integer: truncation or extension (sign-extension for a signed source), '
        'the result sign-extended in its register for a signed destination; .sat clamps to '
        'the destination range (§9.7.9.21 "Integer Notes", "Saturation modifier")')
for dt in ITYPES:
    for st in ITYPES:
        sw, ss = INT[st]
        dw, ds = INT[dt]
        vals = [(1 << (sw - 1)) - 1, 1 << (sw - 1), (1 << sw) - 1]
        if sw > 8:
            vals.append(0x1f0 if sw > 8 else 0x7f)
        for x in vals:
            row(body('cvt.%s.%s' % (dt, st), dt, st), hexw(x, sw), hexw(i2i(dt, st, x), reg(dt)))
        # .sat where the destination range is not a superset of the source's
        slo, shi = (-(1 << (sw - 1)), (1 << (sw - 1)) - 1) if ss else (0, (1 << sw) - 1)
        dlo, dhi = (-(1 << (dw - 1)), (1 << (dw - 1)) - 1) if ds else (0, (1 << dw) - 1)
        if slo < dlo or shi > dhi:
            for x in vals:
                row(body('cvt.sat.%s.%s' % (dt, st), dt, st), hexw(x, sw),
                    hexw(i2i(dt, st, x, sat=True), reg(dt)))
comment('a destination register wider than the type: the result sign-extended (signed) or '
        'zero-extended to the register (§9.7.9.21 Notes)')
row('cvt.s8.s32 %d32, %a32;', '0x00000080', '0xffffff80')
row('cvt.u8.s32 %d32, %a32;', '0xffffff80', '0x00000080')
row('cvt.s16.s32 %d32, %a32;', '0x00018000', '0xffff8000')
row('cvt.sat.s8.s32 %d32, %a32;', '0xfffff000', '0xffffff80')
row('cvt.s32.s64 %d64, %a64;', '0x0000000080000000', '0xffffffff80000000')
row('cvt.u32.s64 %d64, %a64;', '0xffffffff80000000', '0x0000000080000000')

# -------- float -> integer
IRND = ['rni', 'rzi', 'rmi', 'rpi']


def fb(t, x):
    """bits of the exactly representable number x (a Fraction or float) in float t"""
    x = Fr(x)
    return encode(t, 1 if x < 0 else 0, abs(x), 'rn')


def nan_of(t):
    return {'f16': 0x7e00, 'bf16': 0x7fc0, 'f32': 0x7fc00000, 'f64': 0x7ff8000000000000}[t]


def inf_of(t, s=0):
    w = WIDTH[t]
    e, m, _ = FLT[t]
    return (s << (w - 1)) | (((1 << e) - 1) << m)


comment('float to integer: .rni (ties to even) .rzi .rmi .rpi, clamped to the destination '
        'range (.sat redundant); NaN gives 0, or 1 << (width - 1) from .f64 or to .s64/.u64 '
        '(§9.7.9.21 "Integer Notes"); .ftz flushes an .f32 subnormal input first')
for st in FTYPES:
    for dt in ITYPES:
        dw, ds = INT[dt]
        bigv = {'f16': 60000, 'bf16': 2 ** 100, 'f32': 2 ** 70, 'f64': 2 ** 70}[st]
        ins = [fb(st, Fr(5, 2)), fb(st, Fr(-5, 2)), fb(st, Fr(7, 2)), fb(st, Fr(-1, 2)),
               fb(st, bigv), fb(st, -bigv), nan_of(st), inf_of(st, 1)]
        if dw < WIDTH[st] or st != 'f16':
            ins.append(fb(st, Fr(2 ** min(dw, 11 if st == 'f16' else dw), 1) - (1 if dw <= 8 else 0)))
        for x in ins:
            full = x in ins[:4] and dt in ('s8', 'u16', 's32', 'u32', 's64', 'u64')
            for r in IRND if full else ['rni', 'rzi']:
                row(body('cvt.%s.%s.%s' % (r, dt, st), dt, st), hexw(x, WIDTH[st]),
                    hexw(f2i(dt, st, x, r), 8 if WIDTH[dt] == 8 and st == 'bf16' else reg(dt)))
        if dt in ('s32', 'u32', 's64') and st != 'bf16':  # ptxas: no .sat from .bf16
            row(body('cvt.rzi.sat.%s.%s' % (dt, st), dt, st), hexw(fb(st, -bigv), WIDTH[st]),
                hexw(f2i(dt, st, fb(st, -bigv), 'rzi'), reg(dt)))
comment('.ftz: an .f32 subnormal input is +-0 before rounding (§9.7.9.21 "Integer Notes", '
        'Subnormal numbers)')
for dt in ('s32', 'u32', 's64'):
    for x in (0x00000001, 0x80000001):
        for r in ('rpi', 'rmi'):
            row(body('cvt.%s.%s.f32' % (r, dt), dt, 'f32'), hexw(x, 32),
                hexw(f2i(dt, 'f32', x, r), reg(dt)))
            row(body('cvt.%s.ftz.%s.f32' % (r, dt), dt, 'f32'), hexw(x, 32),
                hexw(f2i(dt, 'f32', x, r, ftz=True), reg(dt)))

# -------- integer -> float
comment('integer to float: .rn .rz .rm .rp, one rounding of the exact integer (§9.7.9.21 '
        '"Floating Point Notes"); .f16 overflows to inf (.rn) or its MAX_NORM (.rz)')
for dt in FTYPES:
    for st in ITYPES:
        sw, ss = INT[st]
        p = FLT[dt][1] + 1  # precision
        vals = [(1 << sw) - 1, 1 << (sw - 1), 5]
        if sw > p:  # ties and just-above-ties at the precision
            vals += [(1 << p) + 1, (1 << p) + 3, ((1 << (sw - 1)) | (1 << (sw - 1 - p)) | 1)]
        if ss:
            vals.append(((1 << sw) - ((1 << p) + 1)) & ((1 << sw) - 1))
        for i, x in enumerate(vals):
            x &= (1 << sw) - 1
            for r in ('rn', 'rz', 'rm', 'rp') if i >= 2 else ('rn', 'rz'):
                row(body('cvt.%s.%s.%s' % (r, dt, st), dt, st), hexw(x, sw),
                    hexw(i2f(dt, st, x, r), WIDTH[dt]))
for dt in ('f16', 'f32', 'f64'):
    for x in (2, 0xffffffff):
        row(body('cvt.rn.sat.%s.s32' % dt, dt, 's32'), hexw(x, 32),
            hexw(i2f(dt, 's32', x, 'rn', sat=True), WIDTH[dt]))

# -------- float -> float
FRND = ['rn', 'rz', 'rm', 'rp']


def edge_inputs(dt, st):
    """values of st that round in dt: ties, binade crossings, overflow, subnormals"""
    out = []
    pe, pm, _ = FLT[dt]
    se, sm, _ = FLT[st]
    one = Fr(1)
    if sm > pm:
        u = Fr(2) ** -pm  # ulp of 1.0 in dt
        out += [one + u / 2, one + 3 * u / 2, -(one + u / 2), one + u / 2 + u / 4,
                2 - u / 2, -(2 - u / 4)]
        out += [maxnorm(dt) * (1 + u / 4)]
    if FLT[dt][0] < FLT[st][0]:  # the range shrinks: overflow and underflow
        big = Fr(2) ** (bias(dt) + 1)
        out += [big, -big, Fr(2) ** (1 - bias(dt) - pm - 1), Fr(3) * Fr(2) ** (1 - bias(dt) - pm - 1),
                -Fr(2) ** (1 - bias(dt) - pm - 3), Fr(2) ** (1 - bias(dt)) * Fr(3, 4)]
    out += [Fr(0), Fr(-1, 2) + Fr(-1, 4), Fr(3, 2)]
    res = []
    for v in out:
        try:
            b = encode(st, 1 if v < 0 else 0, abs(v), 'rn')
        except Exception:
            continue
        if decode(st, b)[0] == 'num' and (decode(st, b)[2] * (-1 if b >> (WIDTH[st] - 1) else 1)) == v:
            res.append(b)
    res += [1 << (WIDTH[st] - 1), inf_of(st), inf_of(st, 1), nan_of(st)]
    return list(dict.fromkeys(res))


comment('float to float: one rounding of the exact value (.rn ties to even, .rz, .rm, .rp), '
        'overflow to inf or MAX_NORM by the mode, subnormal results kept, -0.0 kept; '
        'NaN in gives a NaN whose bits the ISA does not give (unspec rows: the simulator\'s '
        'canonical NaN; §9.7.9.21 "Floating Point Notes")')
PAIRS = [('f16', 'f32'), ('bf16', 'f32'), ('f16', 'f64'), ('bf16', 'f64'), ('f32', 'f64'),
         ('bf16', 'f16'), ('f16', 'bf16')]
for dt, st in PAIRS:
    rl = FRND if dt != 'bf16' or st != 'f32' else FRND
    for x in edge_inputs(dt, st):
        for r in rl:
            w, s = f2f(dt, st, x, r)
            row(body('cvt.%s.%s.%s' % (r, dt, st), dt, st), hexw(x, WIDTH[st]),
                hexw(w, WIDTH[dt]), status=s)
comment('widening float to float: exact, no rounding modifier')
for dt, st in [('f32', 'f16'), ('f32', 'bf16'), ('f64', 'f16'), ('f64', 'bf16'), ('f64', 'f32')]:
    ins = [fb(st, Fr(3, 2)), 1 << (WIDTH[st] - 1), 1, inf_of(st, 1), nan_of(st),
           nan_of(st) | 1 | (1 << (WIDTH[st] - 1))]
    for x in ins:
        w, s = f2f(dt, st, x)
        row(body('cvt.%s.%s' % (dt, st), dt, st), hexw(x, WIDTH[st]), hexw(w, WIDTH[dt]), status=s)
comment('.ftz: .f32 subnormal inputs and results flushed to sign-preserving zero '
        '(§9.7.9.21 "Floating Point Notes", Subnormal numbers); but an H200 keeps an .f32 '
        'subnormal input of cvt.ftz.f16.f32 (gpu rows: tools/cvt_gpu_check.sh)')
for x in (0x00000001, 0x807fffff, 0x00800000):
    for bd in ('cvt.ftz.f64.f32', 'cvt.f64.f32'):
        w, s = f2f('f64', 'f32', x, ftz='ftz' in bd)
        row(body(bd, 'f64', 'f32'), hexw(x, 32), hexw(w, 64), status=s)
    for r in ('rn', 'rp', 'rm'):
        for f in ('', '.ftz'):
            w, s = f2f('f16', 'f32', x, r, ftz=bool(f))
            row(body('cvt.%s%s.f16.f32' % (r, f), 'f16', 'f32'), hexw(x, 32), hexw(w, 16), status=s)
for x in (0x000fffffffffffff, 0x3800000000000000 - 1, 0x3690000000000000, 0xb690000000000000):
    for r in ('rn', 'rp', 'rm'):
        for f in ('', '.ftz'):
            w, s = f2f('f32', 'f64', x, r, ftz=bool(f))
            row(body('cvt.%s%s.f32.f64' % (r, f), 'f32', 'f64'), hexw(x, 64), hexw(w, 32), status=s)
for x in (0x0001, 0x8040):  # bf16 subnormals: cvt.ftz.f32.bf16 (sm_90)
    for f in ('', '.ftz'):
        w, s = f2f('f32', 'bf16', x, ftz=bool(f))
        if f:  # flushed: the ISA's .ftz applies to .f32 results
            w = x << 16 & 0x80000000
        row(body('cvt%s.f32.bf16' % f, 'f32', 'bf16'), hexw(x, 16), hexw(w, 32), status=s)
comment('same type with integer rounding: an integral value in the same format; .ftz for '
        '.f32 (§9.7.9.21: "A floating-point value may be rounded to an integral value")')
for t in FTYPES:
    for v in (Fr(5, 2), Fr(-5, 2), Fr(7, 2), Fr(-1, 4), Fr(1, 2)):
        for r in IRND:
            x = fb(t, v)
            w, s = f2f(t, t, x, r)
            row(body('cvt.%s.%s.%s' % (r, t, t), t, t), hexw(x, WIDTH[t]), hexw(w, WIDTH[t]), status=s)
    for x in (inf_of(t, 1), nan_of(t)):
        w, s = f2f(t, t, x, 'rni')
        row(body('cvt.rni.%s.%s' % (t, t), t, t), hexw(x, WIDTH[t]), hexw(w, WIDTH[t]), status=s)
for x in (0x00000001, 0x80000001):
    for r in ('rpi', 'rmi'):
        for f in ('', '.ftz'):
            w, s = f2f('f32', 'f32', x, r, ftz=bool(f))
            row(body('cvt.%s%s.f32.f32' % (r, f), 'f32', 'f32'), hexw(x, 32), hexw(w, 32), status=s)
for x in (0x00000001, 0x80000001, 0x3f800000):
    w, s = f2f('f32', 'f32', x, None, ftz=True)
    row(body('cvt.ftz.f32.f32', 'f32', 'f32'), hexw(x, 32), hexw(w, 32), status=s)
comment('.sat: the result clamped to [0.0, 1.0], NaN to +0.0 (§9.7.9.21 "Saturation modifier"); '
        'the sign of a clamped -0.0 is not stated (H200: +0.0, corpus nan_minmax_saturate)')
for dt, st, r in [('f32', 'f32', None), ('f16', 'f32', 'rn'), ('f32', 'f64', 'rn'),
                  ('f64', 'f64', None), ('f16', 'f16', None)]:
    for v in (Fr(3, 2), Fr(-3, 2), Fr(1, 2)):
        x = fb(st, v)
        w, s = f2f(dt, st, x, r, sat=True)
        row(body('cvt%s.sat.%s.%s' % ('.' + r if r else '', dt, st), dt, st), hexw(x, WIDTH[st]),
            hexw(w, WIDTH[dt]), status=s)
    for x in (nan_of(st), 1 << (WIDTH[st] - 1), inf_of(st)):
        w, s = f2f(dt, st, x, r, sat=True)
        row(body('cvt%s.sat.%s.%s' % ('.' + r if r else '', dt, st), dt, st), hexw(x, WIDTH[st]),
            hexw(w, WIDTH[dt]), status='unspec' if x == 1 << (WIDTH[st] - 1) else s)

# -------- .relu / .satfinite to f16, bf16 and the x2 forms
comment('.relu: negative results become 0 (-0.0 too: H100, corpus cvt_relu_satfinite), NaN the '
        'canonical NaN; .satfinite: beyond MAX_NORM (inf too) the sign-preserved MAX_NORM, NaN '
        'a NaN (§9.7.9.21 "Saturation modifier"; .satfinite from PTX ISA 8.1)')
F32IN = [fb('f32', Fr(3, 2)), fb('f32', Fr(-3, 2)), 0x80000000, fb('f32', 70000),
         fb('f32', -70000), fb('f32', 3 * 2 ** 126), inf_of('f32'), inf_of('f32', 1),
         nan_of('f32'), 0xffffffff, fb('f32', Fr(1) + Fr(1, 2 ** 11)),
         fb('f32', Fr(-1) - Fr(3, 2 ** 9))]
for dt in ('f16', 'bf16'):
    for r in ('rn', 'rz'):
        for mods in ('.relu', '.satfinite', '.relu.satfinite'):
            for x in F32IN:
                w, s = f2f(dt, 'f32', x, r, relu='relu' in mods, satfinite='satfinite' in mods)
                if decode('f32', x)[0] == 'nan' and 'relu' not in mods:
                    s = 'unspec'
                row(body('cvt.%s%s.%s.f32' % (r, mods, dt), dt, 'f32'), hexw(x, 32),
                    hexw(w, 16), status=s)
comment('.f16x2 / .bf16x2 from two .f32: a in the upper half, b in the lower (§9.7.9.21)')
PAIRS2 = [(fb('f32', Fr(1) + Fr(1, 2 ** 11)), fb('f32', Fr(-1) - Fr(3, 2 ** 11))),
          (fb('f32', 70000), fb('f32', -Fr(1, 2 ** 30))), (nan_of('f32'), fb('f32', -2)),
          (fb('f32', Fr(1) + Fr(1, 2 ** 8)), inf_of('f32', 1))]
for dt in ('f16x2', 'bf16x2'):
    h = dt[:-2]
    for r in ('rn', 'rz'):
        for mods in ('', '.relu', '.satfinite', '.relu.satfinite'):
            for a, b in PAIRS2:
                wa, sa = f2f(h, 'f32', a, r, relu='relu' in mods, satfinite='satfinite' in mods)
                wb, sb = f2f(h, 'f32', b, r, relu='relu' in mods, satfinite='satfinite' in mods)
                s = 'unspec' if 'unspec' in (sa, sb) or (a == nan_of('f32') and 'relu' not in mods) else 'isa'
                row('cvt.%s%s.%s.f32 %%d32, %%a32, %%b32;' % (r, mods, dt), hexw(a, 32),
                    hexw(wa << 16 | wb, 32), b=hexw(b, 32), status=s)

# -------- tf32
comment('.tf32 from .f32: 10 mantissa bits, in the .f32 layout with the low 13 bits zero (the '
        'ISA calls the layout implementation defined, §5.2.3: the zeros are the model); .rna '
        'ties away (sm_80), .rn/.rz with .relu (sm_90, PTX ISA 7.8), .rna.satfinite (8.1)')
T32IN = [0x3f801000, 0x3f803000, 0xbf801000, 0x3f800fff, 0x3f801001, 0x3fffffff, 0x7f7ff000,
         0xff7ff000, 0x7f7fefff, 0x00001000, 0x00003000, 0x80001000, 0x007ff000, 0x80000000,
         inf_of('f32'), inf_of('f32', 1), nan_of('f32'), 0xffc00001]
for mn, r, sf, relu in [('cvt.rna.tf32.f32', 'rna', 0, 0), ('cvt.rna.satfinite.tf32.f32', 'rna', 1, 0),
                        ('cvt.rn.tf32.f32', 'rn', 0, 0), ('cvt.rz.tf32.f32', 'rz', 0, 0),
                        ('cvt.rn.relu.tf32.f32', 'rn', 0, 1), ('cvt.rz.relu.tf32.f32', 'rz', 0, 1)]:
    for x in T32IN:
        w, s = f2f('tf32', 'f32', x, r, relu=bool(relu), satfinite=bool(sf))
        if decode('f32', x)[0] == 'nan' and not relu:
            s = 'unspec'
        row('%s %%d32, %%a32;' % mn, hexw(x, 32), hexw(w, 32), status=s)

# -------- fp8
comment('.e4m3x2 / .e5m2x2 (sm_89): .rn.satfinite mandatory, a (or the upper half) in the '
        'upper byte; e4m3 has no infinity, MAX_NORM 448, NaN 0x7f/0xff; e5m2 MAX_NORM 57344 '
        '(§5.2.3; §9.7.9.21)')
E4 = [Fr(1) + Fr(1, 16), Fr(1) + Fr(3, 16), Fr(-1) - Fr(1, 16), Fr(448), Fr(464), Fr(-500),
      Fr(2) ** -10, Fr(3) * Fr(2) ** -10, Fr(2) ** -6 * Fr(15, 16), Fr(0), Fr(-3, 2)]
E5 = [Fr(1) + Fr(1, 8), Fr(1) + Fr(3, 8), Fr(57344), Fr(61440), Fr(-65536), Fr(2) ** -17,
      Fr(3) * Fr(2) ** -17, Fr(0), Fr(-3, 2)]
SPECIAL32 = [inf_of('f32'), inf_of('f32', 1), nan_of('f32'), 0x80000000]
for fmt, vals in (('e4m3', E4), ('e5m2', E5)):
    xs = [fb('f32', v) for v in vals] + SPECIAL32
    for relu in ('', '.relu'):
        mn = 'cvt.rn.satfinite%s.%sx2.f32' % (relu, fmt)
        for i in range(0, len(xs), 2):
            a, b = xs[i], xs[(i + 1) % len(xs)]
            wa, sa = f2f(fmt, 'f32', a, 'rn', relu=bool(relu), satfinite=True)
            wb, sb = f2f(fmt, 'f32', b, 'rn', relu=bool(relu), satfinite=True)
            s = 'unspec' if nan_of('f32') in (a, b) or 0x80000000 in (a, b) else 'isa'
            row('%s %%d16, %%a32, %%b32;' % mn, hexw(a, 32), hexw(wa << 8 | wb, 16), b=hexw(b, 32),
                status=s)
        # from .f16x2
        hs = []
        for v in vals:
            try:
                hv = fb('f16', v)
                if decode('f16', hv)[2] == abs(v):
                    hs.append(hv)
            except Exception:
                pass
        hs += [inf_of('f16'), nan_of('f16'), 0x8000]
        mn = 'cvt.rn.satfinite%s.%sx2.f16x2' % (relu, fmt)
        for i in range(0, len(hs), 2):
            a, b = hs[i], hs[(i + 1) % len(hs)]
            wa, sa = f2f(fmt, 'f16', a, 'rn', relu=bool(relu), satfinite=True)
            wb, sb = f2f(fmt, 'f16', b, 'rn', relu=bool(relu), satfinite=True)
            s = 'unspec' if nan_of('f16') in (a, b) or 0x8000 in (a, b) else 'isa'
            row('%s %%d16, %%a32;' % mn, hexw(a << 16 | b, 32), hexw(wa << 8 | wb, 16), status=s)
comment('.f16x2 from .e4m3x2 / .e5m2x2: exact; the upper byte to the upper half (§9.7.9.21)')
for fmt in ('e4m3', 'e5m2'):
    for relu in ('', '.relu'):
        for x in (0x3840, 0xb801, 0x7e80, 0x7f00, 0xff7f, 0x0180, 0xfe01):
            hi, lo = x >> 8, x & 0xff
            wh, sh = f2f('f16', fmt, hi, relu=bool(relu))
            wl, sl = f2f('f16', fmt, lo, relu=bool(relu))
            s = 'unspec' if 'unspec' in (sh, sl) or (relu and 0x80 in (hi, lo)) else 'isa'
            row('cvt.rn%s.f16x2.%sx2 %%d32, %%a16;' % (relu, fmt), hexw(x, 16),
                hexw(wh << 16 | wl, 32), status=s)

# -------- cvt.pack
comment('cvt.pack.sat: a and b (.s32) saturated to the type, a above b; below 16 bits the '
        'rest of d from c\'s low bits (§9.7.9.22)')


def pack(bits, sg, a, b, c):
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if sg else (0, (1 << bits) - 1)

    def s(x):
        x = x - (1 << 32) if x >> 31 else x
        return min(max(x, lo), hi) & ((1 << bits) - 1)
    td = s(b) | s(a) << bits
    if bits == 16:
        return td
    return (td | c << (2 * bits)) & 0xffffffff


for t, bits, sg in (('u16', 16, 0), ('s16', 16, 1)):
    for a, b in ((0x12345, 0xfffffff0), (0x7fff, 0x80000000), (0xffff8000, 0x10000)):
        row('cvt.pack.sat.%s.s32 %%d32, %%a32, %%b32;' % t, hexw(a, 32),
            hexw(pack(bits, sg, a, b, 0), 32), b=hexw(b, 32), sec='9.7.9.22')
for t, bits, sg in (('u8', 8, 0), ('s8', 8, 1), ('u4', 4, 0), ('s4', 4, 1), ('u2', 2, 0), ('s2', 2, 1)):
    for a, b, c in ((300, 5, 0xabcd), (0xfffffff0, 3, 0x12345678), (1, 0x80000000, 0xffffffff)):
        row('cvt.pack.sat.%s.s32.b32 %%d32, %%a32, %%b32, %%c32;' % t, hexw(a, 32),
            hexw(pack(bits, sg, a, b, c), 32), b=hexw(b, 32), c=hexw(c, 32), sec='9.7.9.22')


# -------- forms that are not PTX: ptxas 13.0 -arch=sm_90 refuses each (its message), and
# so must the simulator (tests/test_ptx_isa.c); the ISA's rules they break are in
# sim/ptx/ptx_parse.c cvt_form_error
REFUSED = [
    ('cvt.rn.satfinite.tf32.f32 %d32, %a32;', "Modifier '.satfinite' on 'cvt.tf32.f32.rn' requires .target sm_100 or higher"),
    ('cvt.rz.satfinite.tf32.f32 %d32, %a32;', "Modifier '.satfinite' on 'cvt.tf32.f32.rz' requires .target sm_100 or higher"),
    ('cvt.rna.relu.tf32.f32 %d32, %a32;', "Modifier '.relu' cannot be combined with modifier '.rna'"),
    ('cvt.rn.relu.satfinite.tf32.f32 %d32, %a32;', "Modifier '.satfinite' on 'cvt.tf32.f32.rn' requires .target sm_100 or higher"),
    ('cvt.rm.tf32.f32 %d32, %a32;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rz.satfinite.e4m3x2.f32 %d16, %a32, %b32;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rn.e4m3x2.f32 %d16, %a32, %b32;', "'.satfinite' modifier required for instruction 'cvt' with destination type '.e4m3x2'"),
    ('cvt.rzi.sat.s32.bf16 %d32, %a16;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.f16.f32 %d16, %a32;', "Rounding modifier required for instruction 'cvt'"),
    ('cvt.rn.f32.f16 %d32, %a16;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rni.f32.f16 %d32, %a16;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.sat.s32.s16 %d32, %a16;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.rn.relu.f32.f16 %d32, %a16;', "Unexpected instruction types specified for 'cvt'"),
    ('cvt.rn.satfinite.f32.f64 %d32, %a64;', "Unexpected instruction types specified for 'cvt'"),
    ('cvt.rn.relu.f16.f16 %d16, %a16;', "Unexpected instruction types specified for 'cvt'"),
    ('cvt.rna.f16.f32 %d16, %a32;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rn.ftz.f64.f32 %d64, %a32;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.ftz.s32.f64 %d32, %a64;', "Modifier '.ftz' does not apply to this type of convert operation"),
    ('cvt.rn.sat.bf16.f32 %d16, %a32;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.rn.satfinite.relu.f16x2.e4m3x2 %d32, %a16;', "Unexpected instruction types specified for 'cvt'"),
    ('cvt.rn.f32.f32 %d32, %a32;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rz.f64.f64 %d64, %a64;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rni.f32.s32 %d32, %a32;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rn.s32.f32 %d32, %a32;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.s32.f32 %d32, %a32;', "Rounding modifier required for instruction 'cvt'"),
    ('cvt.rn.s32.s16 %d32, %a16;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.ftz.s32.s16 %d32, %a16;', "Illegal modifier '.ftz' for instruction 'cvt'"),
    ('cvt.rm.relu.f16.f32 %d16, %a32;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rp.satfinite.bf16.f32 %d16, %a32;', "Modifier '.satfinite' cannot be combined with modifier '.rp'"),
    ('cvt.rn.ftz.relu.f16.f32 %d16, %a32;', "Illegal modifier '.ftz' for instruction 'cvt'"),
    ('cvt.rn.sat.relu.f16.f32 %d16, %a32;', "Modifier '.relu' cannot be combined with modifier '.sat'"),
    ('cvt.rn.ftz.f16x2.f32 %d32, %a32, %b32;', "Illegal modifier '.ftz' for instruction 'cvt'"),
    ('cvt.rn.sat.f16x2.f32 %d32, %a32, %b32;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.rm.f16x2.f32 %d32, %a32, %b32;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rn.sat.bf16.s32 %d16, %a32;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.ftz.f64.f16 %d64, %a16;', "Modifier '.ftz' does not apply to this type of convert operation"),
    ('cvt.rn.ftz.f16.f64 %d16, %a64;', "Modifier '.ftz' does not apply to this type of convert operation"),
    ('cvt.rn.relu.bf16.f16 %d16, %a16;', "Unexpected instruction types specified for 'cvt'"),
    ('cvt.rn.satfinite.bf16.f16 %d16, %a16;', "Unexpected instruction types specified for 'cvt'"),
    ('cvt.rni.f16.bf16 %d16, %a16;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rn.f16.f16 %d16, %a16;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.ftz.f16.f16 %d16, %a16;', "Modifier '.ftz' does not apply to this type of convert operation"),
    ('cvt.rni.ftz.s32.f16 %d32, %a16;', "Modifier '.ftz' does not apply to this type of convert operation"),
    ('cvt.sat.s64.s32 %d64, %a32;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.sat.s32.u16 %d32, %a16;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.rn.ftz.satfinite.e4m3x2.f32 %d16, %a32, %b32;', "Illegal modifier '.ftz' for instruction 'cvt'"),
    ('cvt.rz.f16x2.e5m2x2 %d32, %a16;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rna.ftz.tf32.f32 %d32, %a32;', "Illegal modifier '.ftz' for instruction 'cvt'"),
    ('cvt.sat.u32.u32 %d32, %a32;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.sat.bf16.bf16 %d16, %a16;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.f16.s32 %d16, %a32;', "Rounding modifier required for instruction 'cvt'"),
    ('cvt.rn.bf16.bf16 %d16, %a16;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.f64.s32 %d64, %a32;', "Rounding modifier required for instruction 'cvt'"),
    ('cvt.f32.s16 %d32, %a16;', "Rounding modifier required for instruction 'cvt'"),
    ('cvt.rzi.f32.f64 %d32, %a64;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rzi.f64.f32 %d64, %a32;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.f32.f64 %d32, %a64;', "Rounding modifier required for instruction 'cvt'"),
    ('cvt.rzi.s32.s32 %d32, %a32;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.tf32.f32 %d32, %a32;', "Rounding modifier required for instruction 'cvt'"),
    ('cvt.bf16.u16 %d16, %a16;', "Rounding modifier required for instruction 'cvt'"),
    ('cvt.rn.f64.f16 %d64, %a16;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rn.ftz.satfinite.f16.f32 %d16, %a32;', "Modifier '.satfinite' cannot be combined with modifier '.ftz'"),
    ('cvt.rn.sat.satfinite.f16.f32 %d16, %a32;', "Modifier '.satfinite' cannot be combined with modifier '.sat'"),
    ('cvt.sat.s16.u8 %d16, %a16;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.sat.u16.u8 %d16, %a16;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.sat.s16.s8 %d16, %a16;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.sat.u64.u32 %d64, %a32;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.sat.s64.u32 %d64, %a32;', "Illegal modifier '.sat' for instruction 'cvt'"),
    ('cvt.rn.ftz.f32.f16 %d32, %a16;', "Illegal rounding modifier for instruction 'cvt'"),
    ('cvt.rn.relu.e4m3x2.f32 %d16, %a32, %b32;', "'.satfinite' modifier required for instruction 'cvt' with destination type '.e4m3x2'"),
    ('cvt.b32.b16 %d32, %a16;', "Unexpected instruction types specified for 'cvt'"),
    ('cvt.rn.ftz.tf32.f32 %d32, %a32;', "Illegal modifier '.ftz' for instruction 'cvt'"),
]

# ------------------------------------------------------------------ output
HEAD = '''# tests/isa/cvt.txt -- every cvt form of the PTX ISA up to sm_90 (PTX ISA 9.0 §9.7.9.21
# cvt, §9.7.9.22 cvt.pack), row by row, with inputs at each form's edges. Written by
# tools/cvt_table.py (python3 tools/cvt_table.py > tests/isa/cvt.txt), whose exact-rational
# model of the ISA's text gives the expected bits; tests/test_ptx_isa.c runs every row on
# the simulator (one kernel, one thread) and tools/cvt_gpu_check.sh on a GPU.
#
#   = section | status | a | b | c | want | instruction
#
# The instruction names its operands %dN (the result), %aN, %bN, %cN (N = 8, 16, 32 or
# 64: a .bN register; 8 only beside .bf16, where ptxas takes no wider one). The harness
# puts the low N bits of a, b and c (u64) in %aN, %bN, %cN, runs the instruction and
# compares %dN, zero-extended to 64 bits, with want.
# status: isa    -- the bits follow from the ISA's text (the section cited); to be
#                   confirmed on a GPU (tools/cvt_gpu_check.sh)
#         unspec -- the ISA leaves these bits open (which NaN, the sign of a clamped -0.0):
#                   the simulator's model, from the measurement its code cites; to be
#                   measured on a GPU
#         gpu    -- confirmed on a GPU (the comment above it says which)
#
#   ! why | instruction
#
# A form that is not PTX for sm_90 (why: ptxas 13.0's message for -arch=sm_90): the
# simulator must refuse it.
'''


def main():
    out = [HEAD]
    n = 0
    for r in rows:
        if r[0] == '#':
            out.append('\n# ' + r[1] + '\n')
            continue
        sec, status, a, b, c, want, bd, note = r
        b = b if isinstance(b, str) else hexw(b, 32)
        c = c if isinstance(c, str) else hexw(c, 32)
        out.append('= %s | %s | %s | %s | %s | %s | %s\n' % (sec, status, a, b, c, want, bd))
        n += 1
    out.append('\n# not PTX: ptxas 13.0 -arch=sm_90 refuses these, and so must the simulator\n')
    for bd, why in REFUSED:
        out.append('! %s | %s\n' % (why, bd))
    sys.stdout.write(''.join(out))
    sys.stderr.write('cvt_table: %d rows\n' % n)


main()
