#!/usr/bin/env python3
"""Runs every case of tests/corpus_new on the simulator with NVRTC, nvcc and clang and
writes tests/corpus_new/STATUS.md: does it compile, does it run, do the compilers agree,
and does the output match the host reference (reference.py) where there is one.

Usage: GPULEARN=build/corpus/gpulearn python3 tests/corpus_new/status.py [--print]
(--print: write the table to stdout instead of STATUS.md). Takes about a minute.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference  # noqa: E402

G = os.environ.get('GPULEARN', 'build/corpus/gpulearn')
CCS = ('nvrtc', 'nvcc', 'clang')


def classify(err):
    """'compile' for compiler errors, else the simulator's first message line."""
    if re.search(r': (fatal )?error:|nvcc fatal|clang: error', err):
        return 'compile', next((l for l in err.splitlines() if 'error' in l), err.strip())
    first = err.strip().splitlines()[0] if err.strip() else 'no message'
    return 'sim', first


def short(msg):
    msg = msg.replace('gpulearn: ', '')
    msg = re.sub(r'^.*?error: ', '', msg) if 'error:' in msg else msg
    msg = re.sub(r'\S*tests/corpus_new/(approx/)?\w+\.cu:(\d+):\d+: ', r'PTX line \2: ', msg)
    msg = re.sub(r'\S*tests/corpus_new/(approx/)?(\w+\.cu:\d+): ', r'\2: ', msg)
    return msg.replace('|', '/').strip()[:150]


def run_case(name, tmp):
    spec = os.path.join(HERE, name + '.json')
    out = {}
    for cc in CCS:
        dump = os.path.join(tmp, '%s.%s.json' % (name.replace('/', '_'), cc))
        p = subprocess.run([G, 'run', spec, '--backend', 'sim', '--compiler', cc, '--dump-json', dump],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=300)
        if p.returncode == 0:
            out[cc] = ('ok', json.load(open(dump)))
        else:
            out[cc] = classify(p.stderr)
    return out


def ref_check(name, result):
    if name not in reference.R:
        return None
    spec, B, S = reference.load_case(name)
    exp = reference.R[name](B, S, spec)
    types = {a['name']: a['type'] for a in spec['args']}
    nd = 0
    for buf, ev in exp.items():
        for e, g in zip(ev, result['buffers'][buf]):
            nd += not reference.same(e, g, types[buf] == 'f32*')
    return nd


def main():
    names = sorted(os.path.relpath(p, HERE)[:-5] for p in glob.glob(os.path.join(HERE, '*.json')) +
                   glob.glob(os.path.join(HERE, 'approx', '*.json')))
    rows, approx_rows = [], []
    t = {'cases': 0, 'compile': dict.fromkeys(CCS, 0), 'sim': dict.fromkeys(CCS, 0), 'all3': 0, 'any': 0,
         'ref_ok': 0, 'ref_bad': [], 'disagree': []}
    causes = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            res = run_case(name, tmp)
            first = open(os.path.join(HERE, name + '.cu')).readline().strip().lstrip('/ ').rstrip('.')
            comp, sims, refs = [], [], []
            oks = [cc for cc in CCS if res[cc][0] == 'ok']
            for cc in CCS:
                kind, v = res[cc][0], res[cc][1]
                comp.append('no' if kind == 'compile' else 'yes')
                if kind == 'ok':
                    sims.append('yes')
                    nd = ref_check(name, v)
                    if nd is not None:
                        refs.append('%s %s' % (cc, 'ok' if nd == 0 else '%d differ' % nd))
                elif kind == 'compile':
                    sims.append('— (%s)' % short(v))
                else:
                    sims.append(short(v))
                    if not name.startswith('approx/'):
                        cause = re.sub(r'PTX line \d+: |^\w+\.cu:\d+: ', '', short(v))
                        cause = re.sub(r" in '.*", '', cause)
                        causes.setdefault(cause, {}).setdefault(name, []).append(cc)
            agree = 'n/a'
            if len(oks) >= 2:
                outs = [json.dumps(res[cc][1], sort_keys=True) for cc in oks]
                agree = 'yes' if len(set(outs)) == 1 else 'NO'
            row = '| %s | %s | %s | %s | %s | %s | %s | %s |' % (
                name, first, '/'.join(comp), sims[0], sims[1], sims[2], agree, ', '.join(refs) or '—')
            if name.startswith('approx/'):
                approx_rows.append(row)
                continue
            rows.append(row)
            t['cases'] += 1
            for cc, c, s in zip(CCS, comp, sims):
                t['compile'][cc] += c == 'yes'
                t['sim'][cc] += s == 'yes'
            t['all3'] += len(oks) == 3
            t['any'] += len(oks) > 0
            if agree == 'NO':
                t['disagree'].append(name)
            if refs:
                if all(r.endswith(' ok') for r in refs):
                    t['ref_ok'] += 1
                else:
                    t['ref_bad'].append(name)
    text = render(rows, approx_rows, t, causes)
    if '--print' in sys.argv:
        print(text)
    else:
        open(os.path.join(HERE, 'STATUS.md'), 'w').write(text)
        print('wrote %s: %d cases; sim runs with nvrtc %d, nvcc %d, clang %d; all three %d' % (
            os.path.join(HERE, 'STATUS.md'), t['cases'], t['sim']['nvrtc'], t['sim']['nvcc'], t['sim']['clang'],
            t['all3']))


def render(rows, approx_rows, t, causes):
    n = t['cases']
    L = ['# tests/corpus_new: status on the simulator', '',
         'Generated by `GPULEARN=build/corpus/gpulearn python3 tests/corpus_new/status.py` (do not edit by hand;',
         'rerun it as the simulator gains instructions). Each case is NAME.cu + NAME.json (a launch spec);',
         'no goldens yet: they are recorded on a GPU (see "Recording the goldens" below).', '',
         '## Totals (%d cases, plus %d in approx/)' % (n, len(approx_rows)), '',
         '| | NVRTC | nvcc | clang |', '|---|---|---|---|',
         '| compiles | %d | %d | %d |' % tuple(t['compile'][c] for c in CCS),
         '| runs on the simulator | %d | %d | %d |' % tuple(t['sim'][c] for c in CCS), '',
         '- runs with all three compilers: %d; with at least one: %d; with none: %d' % (t['all3'], t['any'],
                                                                                     n - t['any']),
         '- compilers disagree on the simulator\'s output: %s' % (', '.join(t['disagree']) or 'none'),
         '- host reference (reference.py) matches every compiler that runs: %d cases; differs: %s' % (
             t['ref_ok'], ', '.join(t['ref_bad']) or 'none'), '',
         '## Why runs fail today (first error only; later errors may hide behind it)', '']
    for cause, names in sorted(causes.items(), key=lambda kv: -len(kv[1])):
        L.append('- %s — %s' % (cause, ', '.join('%s (%s)' % (k, '/'.join(v)) for k, v in sorted(names.items()))))
    L += ['', '## Cases', '',
          'Columns: compiles with NVRTC/nvcc/clang; runs on the simulator with each (yes, or the error with the',
          'PTX line); agree: the compilers that ran produced identical --dump-json output; reference: the host',
          'reference in reference.py against each compiler\'s output (— where there is none).', '',
          '| case | covers | compiles (nvrtc/nvcc/clang) | sim nvrtc | sim nvcc | sim clang | agree | reference |',
          '|---|---|---|---|---|---|---|---|'] + rows
    L += ['', '## approx/ (tolerance comparison, see approx/README.md)', '',
          '| case | covers | compiles (nvrtc/nvcc/clang) | sim nvrtc | sim nvcc | sim clang | agree | reference |',
          '|---|---|---|---|---|---|---|---|'] + approx_rows
    L += ['', open(os.path.join(HERE, 'NOTES.md')).read() if os.path.exists(os.path.join(HERE, 'NOTES.md')) else '']
    return '\n'.join(L).rstrip() + '\n'


if __name__ == '__main__':
    main()
