#!/bin/sh
# The translating tier never changes results: every tests/corpus/NAME.json runs on the
# simulator with --sim-tier interp and with --sim-tier jit (forced, whatever the launch
# size), once untraced and once with --metrics-json and --trace-json, and the exit codes,
# stdout, stderr (findings), --dump-json, metrics and trace outputs must be the same bytes. NVRTC compiles the kernels (the PTX is
# cached by a first run, so both runs print the same "cached"); where NVRTC is missing,
# clang does. At the end the tier's folder must hold compiled blocks, so the comparison
# cannot pass with the tier silently off. Two cases at a time (JIT_JOBS, default 2).
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
export GPULEARN_NO_GPU=1

if [ "${1:-}" = --one ]; then
  spec=$2; T=$3; cc=$4
  name=$(basename "$spec" .json)
  "$G" run "$spec" --backend sim --compiler $cc --sim-tier interp >/dev/null 2>&1 # cache the PTX
  for tier in interp jit; do
    o="$T/$name.$tier"
    # untraced (the tier's fastest form), then traced with the metrics
    "$G" run "$spec" --backend sim --compiler $cc --sim-tier $tier --dump-json "$o.json" \
      >"$o.out" 2>"$o.err"
    echo $? >"$o.rc"
    "$G" run "$spec" --backend sim --compiler $cc --sim-tier $tier --dump-json "$o.t.json" \
      --metrics-json "$o.metrics.json" --trace-json "$o.trace.json" >"$o.t.out" 2>"$o.t.err"
    echo $? >"$o.t.rc"
  done
  bad=
  for f in rc out err json t.rc t.out t.err t.json metrics.json trace.json; do
    a="$T/$name.interp.$f"; b="$T/$name.jit.$f"
    [ -f "$a" ] || [ -f "$b" ] || continue
    cmp -s "$a" "$b" || bad="$bad $f"
  done
  if [ -n "$bad" ]; then echo "FAIL $name: differs in$bad"; else echo "PASS $name"; fi
  exit 0
fi

T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME="$T/cache"
cc=nvrtc
"$G" info --backend sim 2>/dev/null | grep -qi "nvrtc.*not" && cc=clang
for spec in tests/corpus/*.json; do
  case $spec in *.golden.json) continue;; esac
  echo "$spec"
done | xargs -P "${JIT_JOBS:-2}" -I{} sh -c 'sh "$0" --one "$1" "$2" "$3" >"$2/$(basename "$1" .json).log" 2>&1' "$0" {} "$T" "$cc"
cat "$T"/*.log | grep -v "^PASS"
pass=$(cat "$T"/*.log | grep -c "^PASS"); fail=$(cat "$T"/*.log | grep -c "^FAIL")
blocks=$(ls "$T/cache/gpulearn/jit" 2>/dev/null | grep -c '\.so$')
echo "jit: $pass cases the same on both tiers, $fail different; $blocks modules translated"
[ "$blocks" -gt 0 ] || { echo "FAIL: the tier translated nothing (no C compiler?)"; exit 1; }
[ "$fail" = 0 ]
