#!/bin/sh
# roofline_gpu_check.sh — on a machine with an NVIDIA GPU: the DRAM model (trace/dram.h)
# over the GPU's own trace (the instrumented launch's lane addresses, the GPU's L2 size)
# against the simulator's, for the launches of lesson steps the roofline places (lesson 18
# steps 6 and 7, lesson 13 step 5, lesson 15 step 3). Each fits in any of the profiles'
# L2, so the first-touch bytes must be equal: the buffers' sizes read, the written ones
# written back once. Prints one line a step and exits 1 on a difference.
# Usage: sh tools/roofline_gpu_check.sh [GPULEARN] (default build/debug/gpulearn)
G=${1:-build/debug/gpulearn}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
bad=0
for ls in "18 6" "18 7" "13 5" "15 3"; do
  set -- $ls
  python3 - "$1" "$2" "$T/spec.json" <<'EOF' || exit 1
import glob, json, os, sys
d = glob.glob('lessons/%s-*' % sys.argv[1])[0]
les = json.load(open(d + '/lesson.json'))
step = les['steps'][int(sys.argv[2]) - 1]
spec = dict(step['launch'], source=os.path.abspath(os.path.join(d, step['kernel'])))
if 'arch' in les and 'arch' not in spec:
    spec['arch'] = les['arch']
json.dump(spec, open(sys.argv[3], 'w'))
EOF
  for b in sim gpu; do
    $G run "$T/spec.json" --backend $b --metrics-json "$T/$b.json" >/dev/null 2>"$T/$b.err" ||
      { echo "lesson $1 step $2 on the $b failed:"; cat "$T/$b.err"; bad=1; continue 2; }
  done
  line=$(python3 - "$T/sim.json" "$T/gpu.json" <<'EOF'
import json, sys
def get(p):
    m = json.load(open(p))
    return (m['metrics']['dram__bytes_read.sum'], m['metrics']['dram__bytes_write.sum'],
            m['incomplete'])
s, g = get(sys.argv[1]), get(sys.argv[2])
print('%s sim read %d written %d, gpu read %d written %d%s' %
      ('same' if s[:2] == g[:2] else 'DIFFERENT', s[0], s[1], g[0], g[1],
       ' (the GPU trace was cut)' if g[2] else ''))
EOF
)
  echo "lesson $1 step $2: $line"
  case $line in same*) ;; *) bad=1 ;; esac
done
exit $bad
