#!/bin/sh
# The build cache of whole programs (runtime/program_cache.h, docs/architecture.md "Whole
# programs"): a second `gpulearn run PROG.cu` runs no compiler (--verbose prints each
# compiler command, "gpulearn: /path/to/tool ..."); a header edited to bytes of the same
# size with its old modification time is a miss (dependencies are checked by content);
# the compilers' warnings are shown again on a hit; a damaged or truncated entry is
# removed with a warning and the program built again, never run. About 3 s with clang,
# 3 more with nvcc.
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
unset GPULEARN_NO_CACHE
fails=0
fail() { echo "FAIL $*"; sed 's/^/  stderr: /' "$tmp/err" | head -8; fails=$((fails+1)); }
# runs gpulearn run ARGS --verbose; $runs: its compiler commands
run() { "$G" run --verbose "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?
        runs=$(grep -c '^gpulearn: /' "$tmp/err"); }

have_clang=0; have_nvcc=0
{ command -v clang >/dev/null 2>&1 || ls /usr/bin/clang-1[4-9] >/dev/null 2>&1; } && have_clang=1
{ command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; } && have_nvcc=1
[ $have_clang = 1 ] || echo "SKIP clang: not installed (clang, clang-14 ... clang-19)"
[ $have_nvcc = 1 ] || echo "SKIP nvcc: not installed (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin)"

for cc in clang nvcc; do
  eval "[ \$have_$cc = 1 ]" || continue
  # 1. the second run of vector_add.cu runs no compiler, and prints the same
  run --compiler $cc tests/programs/vector_add.cu
  first=$runs
  run --compiler $cc tests/programs/vector_add.cu
  if [ "$first" -lt 2 ] || [ "$runs" != 0 ] || [ $rc != 0 ] ||
     ! cmp -s "$tmp/out" tests/programs/vector_add.stdout ||
     ! grep -q "build comes from the cache" "$tmp/err"; then
    fail "vector_add ($cc): second run: $runs compiler runs (first $first), rc $rc"
  else
    echo "PASS vector_add ($cc): first run $first compiler runs, second none"
  fi
done

[ $have_clang = 1 ] || { [ $fails = 0 ]; exit $?; }
# 2. an edited header: same size, old modification time, new bytes: built again
mkdir "$tmp/p"
cat > "$tmp/p/prog.cu" <<'EOF'
#include <cstdio>
#include "value.h"
#warning "a warning the cache shows again"
__global__ void put(int *out) { *out = VALUE; }
int main()
{
    int *d, h = 0;
    cudaMalloc(&d, sizeof(int));
    put<<<1, 1>>>(d);
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    printf("value %d\n", h);
    cudaFree(d);
    return 0;
}
EOF
echo '#define VALUE 1' > "$tmp/p/value.h"
touch -d '2020-01-01 00:00:00' "$tmp/p/value.h"
run "$tmp/p/prog.cu"
[ "$(cat "$tmp/out")" = "value 1" ] || fail "header: first run printed '$(cat "$tmp/out")'"
run "$tmp/p/prog.cu"
{ [ "$runs" = 0 ] && [ "$(cat "$tmp/out")" = "value 1" ] &&
  grep -q "a warning the cache shows again" "$tmp/err"; } ||
  fail "header: a hit ran $runs compilers, or lost the compiler's warning"
echo '#define VALUE 2' > "$tmp/p/value.h"
touch -d '2020-01-01 00:00:00' "$tmp/p/value.h"
run "$tmp/p/prog.cu"
if [ "$(cat "$tmp/out")" != "value 2" ] || [ "$runs" = 0 ] ||
   ! grep -q "out of date: $tmp/p/value.h changed" "$tmp/err"; then
  fail "header: after the edit printed '$(cat "$tmp/out")' with $runs compiler runs"
else
  echo "PASS an edited header (same size and time) is a miss: built again"
fi

# 3. a damaged entry (a byte of the executable changed; cut short): removed, built again
for damage in flip cut; do
  rm -f "$XDG_CACHE_HOME"/gpulearn/*.prog
  run "$tmp/p/prog.cu" # one entry, the one damaged below
  entry=$(ls "$XDG_CACHE_HOME"/gpulearn/*.prog)
  n=$(wc -c < "$entry")
  if [ $damage = flip ]; then
    printf 'X' | dd of="$entry" bs=1 seek=$((n - 4096)) conv=notrunc 2>/dev/null
  else
    truncate -s $((n / 2)) "$entry"
  fi
  run "$tmp/p/prog.cu"
  if [ "$(cat "$tmp/out")" != "value 2" ] || [ "$runs" = 0 ] ||
     ! grep -q "program cache entry .* was damaged: removed it and built again" "$tmp/err"; then
    fail "damaged entry ($damage): printed '$(cat "$tmp/out")' with $runs compiler runs"
  else
    run "$tmp/p/prog.cu"
    [ "$runs" = 0 ] && echo "PASS a damaged entry ($damage) is removed and rebuilt, never run" ||
      fail "damaged entry ($damage): the rebuilt entry is not used ($runs compiler runs)"
  fi
done
[ $fails = 0 ]
