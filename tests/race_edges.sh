#!/bin/sh
# Racecheck and initcheck on the shared-memory patterns the simulator's warp-wide fast
# paths handle (row broadcasts, half-warp rows and columns, unaligned unit-stride words,
# partial masks with gaps, bytes and halves inside words, __syncwarp, random schedules,
# out-of-bounds and misaligned shared accesses, a cp.async overwriting what another warp
# read earlier in the interval, warps ordered by st.release / ld.acquire or by
# atom.add.acq_rel arrivals in shared memory, and not by .relaxed ones). Each tests/kernels/check/race_edges/
# NAME.json (kernels in tests/kernels/check/race_edges.cu) runs on the simulator with
# each compiler present, and must print exactly the recorded findings and exit code:
#
#   NAME.CC.golden       stderr of `gpulearn run NAME.json --backend sim --compiler CC`
#                        (the checkers' findings), then a line "exit N"
#   NAME.golden.json     its --dump-json output (NAME.CC.golden.json where the two
#                        compilers' outputs differ: under a random schedule)
#   NAME.args            (optional) more `gpulearn run` options, e.g. --schedule random:7
#   NAME.skip            (optional) "CC: reason" lines: compilers not run on NAME
#
# Findings name PTX lines, and clang and NVRTC emit different PTX (NVRTC unrolls the
# 16-step loops, so its findings come one per unrolled load), hence one stderr golden per
# compiler. A compiler that is not installed is skipped; so is clang of another major
# version than the goldens were recorded with (its PTX, and so its findings, may differ).
# Every golden was checked by hand against the kernel (which threads touch which bytes,
# with or without a barrier between them, in one warp or not): after changing the kernels
# or the checkers, re-record with `sh tests/race_edges.sh --record` (GPULEARN set) and
# check each changed finding again before keeping it. Run from the repository root.
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
D=tests/kernels/check/race_edges
CLANG_MAJOR=14     # the clang the clang goldens were recorded with (Debian 14.0.6)
record=0; [ "${1:-}" = --record ] && record=1

# the major version of the clang gpulearn would run (compile.c: clang, then clang-19..14)
clang_major() {
  for c in clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
    if command -v "$c" >/dev/null 2>&1; then
      "$c" --version 2>/dev/null | head -1 | sed -n 's/.*clang version \([0-9]*\).*/\1/p'
      return
    fi
  done
}
cm=$(clang_major)

T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0; skip=0
for spec in "$D"/*.json; do
  case $spec in *.golden.json) continue;; esac
  name=$(basename "$spec" .json)
  args=; [ -f "$D/$name.args" ] && args=$(cat "$D/$name.args")
  for cc in clang nvrtc; do
    if [ -f "$D/$name.skip" ] && grep -q "^$cc:" "$D/$name.skip"; then
      echo "SKIP $name with $cc: $(grep "^$cc:" "$D/$name.skip" | head -1 | cut -d: -f2- | sed 's/^ *//')"
      skip=$((skip+1)); continue
    fi
    if [ $cc = clang ] && [ -n "$cm" ] && [ "$cm" != $CLANG_MAJOR ] && [ $record = 0 ]; then
      echo "SKIP $name with clang: goldens recorded with clang $CLANG_MAJOR, this is clang $cm"
      skip=$((skip+1)); continue
    fi
    out="$T/$name.$cc.json"; err="$T/$name.$cc.err"
    # shellcheck disable=SC2086 # args is a list of options
    "$G" run "$spec" --backend sim --compiler $cc $args --dump-json "$out" >/dev/null 2>"$err"
    rc=$?
    if [ $rc != 0 ] && grep -q "not available\|no compiler\|not found" "$err"; then
      echo "SKIP $name with $cc: $(head -1 "$err")"; skip=$((skip+1)); continue
    fi
    echo "exit $rc" >> "$err"
    if [ $record = 1 ]; then
      cp "$err" "$D/$name.$cc.golden"; cp "$out" "$T/$name.$cc.dump"
      echo "RECORDED $name with $cc"; continue
    fi
    dump="$D/$name.golden.json"; [ -f "$D/$name.$cc.golden.json" ] && dump="$D/$name.$cc.golden.json"
    if [ ! -f "$D/$name.$cc.golden" ] || [ ! -f "$dump" ]; then
      echo "FAIL $name with $cc: no golden ($D/$name.$cc.golden, $dump)"; fail=$((fail+1)); continue
    fi
    if cmp -s "$err" "$D/$name.$cc.golden" && cmp -s "$out" "$dump"; then
      echo "PASS $name ($cc)"; pass=$((pass+1))
    else
      echo "FAIL $name ($cc): findings or output differ from the goldens"; fail=$((fail+1))
      diff "$D/$name.$cc.golden" "$err" | head -8
      cmp -s "$out" "$dump" || echo "  --dump-json output differs from $dump"
    fi
  done
  if [ $record = 1 ]; then
    # one output golden when the compilers agree, else one per compiler
    rm -f "$D/$name.golden.json" "$D/$name.clang.golden.json" "$D/$name.nvrtc.golden.json"
    if [ -f "$T/$name.clang.dump" ] && [ -f "$T/$name.nvrtc.dump" ] &&
       ! cmp -s "$T/$name.clang.dump" "$T/$name.nvrtc.dump"; then
      cp "$T/$name.clang.dump" "$D/$name.clang.golden.json"
      cp "$T/$name.nvrtc.dump" "$D/$name.nvrtc.golden.json"
    else
      for cc in clang nvrtc; do
        [ -f "$T/$name.$cc.dump" ] && { cp "$T/$name.$cc.dump" "$D/$name.golden.json"; break; }
      done
    fi
  fi
done
[ $record = 1 ] && exit 0
echo "race_edges: $pass passed, $fail failed, $skip skipped"
[ $fail = 0 ] || exit 1
[ $pass = 0 ] && { echo "SKIP: no compiler available"; exit 77; }
exit 0
