#!/usr/bin/env python3
"""Measures the floating-point accumulation of mma.sync on a GPU and fits the simulator's
model to it (sim/mma.h mma_fp_model, after MMA-Sim: products per fused addition,
fractional bits kept when aligning to the largest exponent; f32 results truncated).

  python3 tools/mma_probe.py gen
      writes tests/corpus_new/mma_probe_{f16,bf16,tf32}.json (the kernel is
      tests/corpus_new/mma_probe.cu; the inputs are below, exact in f16, bf16 and tf32).
  python3 tools/mma_probe.py fit GOLDEN.json [GPULEARN]
      GOLDEN.json: `gpulearn run tests/corpus_new/mma_probe_T.json --backend gpu
      --dump-json GOLDEN.json` on the GPU (tools/gpu_check.sh records it as
      mma_probe_T.golden.json). Runs the same spec on the simulator under every model
      (GPULEARN_MMA_MODEL=T:block,frac_bits) and prints those that give the GPU's bits for
      every probe, else the closest ones. Put the winner in sim/mma.c hopper_models.

How to read a golden by hand (d[p] are f32 bits; ulp = 2^-23, the ulp of 1.0):
  probes 0-31: c = 1 plus one product s * 2^-(23+x), x = 1..8, s = +1, -1, +3, -3: a
    negative product that survives the alignment gives 1 - 2^-24 (0x3f7fffff), one cut
    off gives 1.0: the largest x that survives is frac_bits - 23. Positive ones below an
    ulp give 1.0 either way (the f32 result is truncated).
  probes 32-79: c = 0, a product 1 at k = j (j = p - 32 mod 16) and products 2^-(24+x)
    (x = 0, 2, 4) at every other k: the small products in j's block are cut off, those in
    blocks before it add up first; which j change the result gives the block size.
  probes 80-: c = 1 plus sixteen 2^-24, then random exact values (general behaviour).
"""
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')


def probes():
    rows = []  # (a[16], b[16], c)
    for s in (1, -1, 3, -3):
        for x in range(1, 9):
            a = [0.0] * 16
            b = [0.0] * 16
            a[0], b[0] = s * 2.0 ** -12, 2.0 ** -(11 + x)
            rows.append((a, b, 1.0))
    for x in (0, 2, 4):
        for j in range(16):
            a = [2.0 ** -12] * 16
            b = [2.0 ** -(12 + x)] * 16
            a[j], b[j] = 1.0, 1.0
            rows.append((a, b, 0.0))
    rows.append(([2.0 ** -12] * 16, [2.0 ** -12] * 16, 1.0))
    rng = random.Random(3500)
    for _ in range(15):
        a = [rng.randint(-1024, 1024) * 2.0 ** rng.randint(-16, -6) for _ in range(16)]
        b = [rng.randint(-1024, 1024) * 2.0 ** rng.randint(-16, -6) for _ in range(16)]
        rows.append((a, b, rng.randint(-2 ** 20, 2 ** 20) * 2.0 ** rng.randint(-30, -10)))
    return rows


def gen():
    rows = probes()
    for ty, code in (('f16', 0), ('bf16', 1), ('tf32', 2)):
        args = [
            {"name": "a", "type": "f32*", "len": 16 * len(rows),
             "init": {"values": [v for r in rows for v in r[0]]}},
            {"name": "b", "type": "f32*", "len": 16 * len(rows),
             "init": {"values": [v for r in rows for v in r[1]]}},
            {"name": "c", "type": "f32*", "len": len(rows),
             "init": {"values": [r[2] for r in rows]}},
            {"name": "d", "type": "u32*", "len": len(rows)},
            {"name": "type", "type": "i32", "value": code}]
        lines = ['{"source": "mma_probe.cu", "kernel": "mma_probe", "grid": [%d], "block": [32],'
                 % len(rows), ' "args": [']
        lines += ['  ' + json.dumps(a) + (',' if i < len(args) - 1 else ']}')
                  for i, a in enumerate(args)]
        path = os.path.join(HERE, 'tests', 'corpus_new', 'mma_probe_%s.json' % ty)
        with open(path, 'w') as f:
            f.write('\n'.join(lines) + '\n')
        print('wrote', path)


def fit(golden, g):
    want = json.load(open(golden))['buffers']['d']
    name = os.path.basename(golden).split('.')[0]
    ty = name.rsplit('_', 1)[-1]
    spec = os.path.join(HERE, 'tests', 'corpus_new', name + '.json')
    res = []
    with tempfile.TemporaryDirectory() as tmp:
        for block in (1, 2, 4, 8, 16):
            for frac in range(22, 29):
                out = os.path.join(tmp, 'o.json')
                env = dict(os.environ, GPULEARN_NO_GPU='1',
                           GPULEARN_MMA_MODEL='%s:%d,%d' % (ty, block, frac))
                subprocess.run([g, 'run', spec, '--backend', 'sim', '--dump-json', out],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               check=True)
                got = json.load(open(out))['buffers']['d']
                bad = [p for p in range(len(want)) if want[p] != got[p]]
                res.append((len(bad), block, frac, bad[:8]))
    res.sort()
    exact = [r for r in res if r[0] == 0]
    for r in (exact or res[:5]):
        print('%s: block %d, frac_bits %d: %d probes differ %s'
              % (ty, r[1], r[2], r[0], r[3] if r[0] else ''))


if __name__ == '__main__':
    if len(sys.argv) >= 2 and sys.argv[1] == 'gen':
        gen()
    elif len(sys.argv) >= 3 and sys.argv[1] == 'fit':
        fit(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else
            os.path.join(HERE, 'build', 'debug', 'gpulearn'))
    else:
        sys.exit(__doc__)
