#!/usr/bin/env python3
"""nan_table.py -- writes the rows of tests/isa/nan.txt: every float arithmetic form up to
sm_90 whose result may be a NaN (PTX ISA 9.0 §9.7.3 floating-point, §9.7.4 half precision,
§9.7.3.22 copysign), run on NaN operands of each payload class (quiet and signalling, both
signs, with and without payload bits) beside numbers, so that which NaN each form returns
is measured rather than assumed. The PTX ISA leaves those bits open ("NaN", "unspecified
NaN"), so the table's expected bits are an NVIDIA GPU's: this script writes each row with
the placeholder `?`, and `sh tools/cvt_gpu_check.sh --record GPULEARN tests/isa/nan.txt.in`
on a GPU prints the table with the GPU's bits (status `gpu`), which is what
tests/isa/nan.txt holds; tests/test_ptx_isa.c runs every row on the simulator.

Usage: python3 tools/nan_table.py > tests/isa/nan.txt.in
"""

# NaN payload classes and a few numbers, per format (bits)
F32_NAN = [0x7fc00000, 0xffc00000, 0x7fc12345, 0xffe00001, 0x7f800001, 0xff812345, 0x7fffffff]
F32_NUM = [0x3f800000, 0x80000000, 0x7f800000]  # 1.0, -0.0, +inf
F64_NAN = [0x7ff8000000000000, 0xfff8000000000000, 0x7ff8000012345678, 0xfffc000000000001,
           0x7ff0000000000001, 0xfff0000012345678, 0x7fffffffffffffff]
F64_NUM = [0x3ff0000000000000, 0x8000000000000000, 0x7ff0000000000000]
F16_NAN = [0x7e00, 0xfe00, 0x7e15, 0xff01, 0x7c01, 0xfc15, 0x7fff]
F16_NUM = [0x3c00, 0x8000, 0x7c00]
BF16_NAN = [0x7fc0, 0xffc0, 0x7fc5, 0xffe1, 0x7f81, 0xff95, 0x7fff]
BF16_NUM = [0x3f80, 0x8000, 0x7f80]

SCALAR = {
    'f32': (32, F32_NAN, F32_NUM),
    'f64': (64, F64_NAN, F64_NUM),
    'f16': (16, F16_NAN, F16_NUM),
    'bf16': (16, BF16_NAN, BF16_NUM),
}

out = []


def comment(text):
    out.append('')
    out.append('# ' + text)


def isnan64(x):
    return (x >> 52) & 0x7ff == 0x7ff and x & ((1 << 52) - 1) != 0


def row(sec, body, a, b=0, c=0):
    """status `order` where an f64 form has two different NaN operands: the GPU returns
    one of them, made quiet, and which one follows the operand order ptxas chose (an
    H200 gave the first PTX operand of min.f64 for NVRTC's code, the second for this
    table's inline asm); the simulator may return any of them"""
    ops = [x for x in (a, b, c) if isnan64(x)]
    mn = body.split()[0]
    order = (mn.endswith('.f64') and not mn.startswith(('copysign', 'neg', 'abs'))
             and len(set(ops)) > 1)
    out.append('= %s | %s | 0x%x | 0x%x | 0x%x | ? | %s' % (sec, 'order' if order else 'unspec',
                                                          a, b, c, body))


def pairs(nans, nums):
    """(a, b) with at least one NaN: every NaN with every value, both orders"""
    vals = nans + nums
    ps = []
    for x in nans:
        for y in vals:
            ps.append((x, y))
            if y not in nans:
                ps.append((y, x))
    return ps


def triples(nans, nums):
    """(a, b, c) with at least one NaN: one NaN in each place, two, three"""
    one, n0, n1 = nums[0], nans[2], nans[5]
    ts = []
    for x in nans:
        ts += [(x, one, one), (one, x, one), (one, one, x)]
    ts += [(n0, n1, one), (n1, n0, one), (n0, one, n1), (one, n0, n1), (n1, one, n0),
           (one, n1, n0), (n0, n1, nans[3]), (nans[3], n0, n1), (n1, nans[3], n0)]
    inf = nums[2]
    ts += [(inf, 0, one), (0, inf, n0), (inf, 0, n1)]  # inf * 0: an invalid operation
    return ts


def x2(w16, lo, hi):
    return (hi << 16) | lo


# ---------------------------------------------------------------- scalar forms
for t, (w, nans, nums) in SCALAR.items():
    r = '%%d%d' % w
    a, b, c = '%%a%d' % w, '%%b%d' % w, '%%c%d' % w
    sec = {'f32': '9.7.3', 'f64': '9.7.3', 'f16': '9.7.4', 'bf16': '9.7.4'}[t]
    comment('%s: which NaN each form returns (PTX ISA §%s: "NaN"; measured)' % (t, sec))
    binops = ['add', 'sub', 'mul', 'min', 'max']
    if t in ('f32', 'f16'):
        binops += ['add.ftz', 'mul.ftz', 'add.sat', 'min.NaN', 'max.NaN']
    if t == 'bf16':
        binops += ['min.NaN', 'max.NaN']
    if t == 'f32':
        binops += ['add.rz', 'div.rn', 'div.approx', 'div.full', 'copysign', 'min.xorsign.abs',
                   'max.xorsign.abs']
    if t == 'f64':
        binops += ['add.rz', 'div.rn', 'copysign']
    for op in binops:
        for x, y in pairs(nans, nums):
            row(sec, '%s.%s %s, %s, %s;' % (op, t, r, a, b), x, y)
    fmas = ['fma.rn']
    if t in ('f32', 'f16'):
        fmas += ['fma.rn.sat']
    if t in ('f16', 'bf16'):
        fmas += ['fma.rn.relu']
    if t == 'f32':
        fmas += ['fma.rz']
    for op in fmas:
        for x, y, z in triples(nans, nums):
            row(sec, '%s.%s %s, %s, %s, %s;' % (op, t, r, a, b, c), x, y, z)
    unops = ['neg', 'abs']
    if t == 'f32':
        unops += ['sqrt.rn', 'sqrt.approx', 'rcp.rn', 'rcp.approx', 'rsqrt.approx',
                  'ex2.approx', 'lg2.approx', 'sin.approx', 'cos.approx', 'tanh.approx',
                  'ex2.approx.ftz', 'rcp.approx.ftz']
    if t == 'f64':
        unops += ['sqrt.rn', 'rcp.rn', 'rsqrt.approx', 'rcp.approx.ftz']
    if t == 'f16':
        unops += ['ex2.approx', 'tanh.approx']
    if t == 'bf16':
        unops += ['ex2.approx.ftz', 'tanh.approx']
    for op in unops:
        for x in nans:
            row(sec, '%s.%s %s, %s;' % (op, t, r, a), x)

# ---------------------------------------------------------------- packed forms: one NaN
# class per half, the other half a number or another NaN, so that the halves are seen
# to be independent
for t, (nans, nums) in {'f16x2': (F16_NAN, F16_NUM), 'bf16x2': (BF16_NAN, BF16_NUM)}.items():
    comment('%s: which NaN each half returns (PTX ISA §9.7.4; measured)' % t)
    binops = ['add', 'sub', 'mul', 'min', 'max', 'min.NaN', 'max.NaN']
    if t == 'f16x2':
        binops += ['add.ftz', 'add.sat']
    one = nums[0]
    for op in binops:
        for x, y in pairs(nans, nums)[::3]:
            row('9.7.4', '%s.%s %%d32, %%a32, %%b32;' % (op, t), x2(16, x, one), x2(16, one, y))
            row('9.7.4', '%s.%s %%d32, %%a32, %%b32;' % (op, t), x2(16, x, y), x2(16, y, x))
    for x, y, z in triples(nans, nums):
        row('9.7.4', 'fma.rn.%s %%d32, %%a32, %%b32, %%c32;' % t, x2(16, x, one),
            x2(16, y, one), x2(16, z, x))
    for op in ['neg', 'abs']:
        for x in nans:
            row('9.7.4', '%s.%s %%d32, %%a32;' % (op, t), x2(16, x, nans[(nans.index(x) + 1) % 7]))

HEADER = '''\
# tests/isa/nan.txt -- which NaN every float arithmetic form up to sm_90 returns (PTX ISA
# 9.0 §9.7.3, §9.7.4: "NaN", "unspecified NaN"), on NaN operands of each payload class
# (quiet and signalling, both signs, with and without payload bits) beside numbers.
# Rows written by tools/nan_table.py, bits measured on a GPU by
# `sh tools/cvt_gpu_check.sh --record GPULEARN tests/isa/nan.txt.in` (the line below
# names the GPU); tests/test_ptx_isa.c runs every row on the simulator, and
# tools/cvt_gpu_check.sh compares a GPU with the table again.
#
#   = section | status | a | b | c | want | instruction
#
# Operands as in tests/isa/cvt.txt: %dN the result, %aN %bN %cN the low N bits of a, b, c.
# Packed forms (.f16x2, .bf16x2): the low half is the first element.
# status: gpu   -- the bits an NVIDIA GPU returned (the line below names it)
#         order -- an .f64 form with two different NaN operands: the GPU returned one of
#                  them made quiet (want), and which one follows the operand order ptxas
#                  chose, which the PTX does not fix (for min.f64 an H200 gave NVRTC's
#                  code the first operand, this table's inline asm the second: corpus
#                  nan_minmax_f64_two_nans); any NaN operand, made quiet, is accepted'''
print(HEADER)
print('\n'.join(out))
