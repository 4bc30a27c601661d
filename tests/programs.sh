#!/bin/sh
# Whole CUDA programs (`gpulearn run PROG.cu`, docs/architecture.md "Whole programs"):
# every tests/programs/NAME.cu is compiled with each compiler present and run on the
# simulator; its stdout must equal NAME.stdout byte for byte and its exit status
# NAME.status. The goldens are what an NVIDIA GPU prints (tools/programs_gpu_record.sh
# records them natively with nvcc on a GPU). gpulearn's own messages go to stderr only;
# the fault of oob_write.cu must name its line, block and thread there. The programs in
# tests/programs/sim/ print what the simulator models (the device's properties), so their
# goldens are the simulator's own, for its default profile (sm_90). The programs in
# tests/programs/multi_vars/ two files' __device__ variables; tests/programs/errors/ check gpulearn's messages for bad programs (a host pointer given
# to a kernel, an API gpulearn does not provide, a compile error, a kernel that floods
# printf, two cudaMalloc calls on one line, a kernel that never ends) and have no GPU golden. Also: --schedule random:SEED reaches the launches.
# Time: about 0.3 s a program with clang (three compiles and a link), 1 s with nvcc.
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
cd "$(dirname "$0")/.." || exit 1
fails=0; ran=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

have_clang=0; have_nvcc=0
{ command -v clang >/dev/null 2>&1 || ls /usr/bin/clang-1[4-9] >/dev/null 2>&1; } && have_clang=1
{ command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; } && have_nvcc=1
[ $have_clang = 1 ] || echo "SKIP clang: not installed (clang, clang-14 ... clang-19)"
[ $have_nvcc = 1 ] || echo "SKIP nvcc: not installed (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin)"
for cc in clang nvcc; do
  eval "[ \$have_$cc = 1 ]" || continue
  for src in tests/programs/*.cu tests/programs/sim/*.cu; do
    name=$(basename "$src" .cu); gold=${src%.cu}
    "$G" run --compiler $cc "$src" > "$tmp/out" 2> "$tmp/err"; rc=$?
    want=$(cat "$gold.status")
    if ! cmp -s "$tmp/out" "$gold.stdout"; then
      echo "FAIL $name ($cc): stdout differs from $gold.stdout"
      diff "$gold.stdout" "$tmp/out" | head -20; sed 's/^/  stderr: /' "$tmp/err" | head -10
      fails=$((fails+1))
    elif [ "$rc" != "$want" ]; then
      echo "FAIL $name ($cc): exit status $rc, expected $want"; sed 's/^/  stderr: /' "$tmp/err" | head -10
      fails=$((fails+1))
    else
      echo "PASS $name ($cc)"
    fi
    ran=$((ran+1))
    # the fault's explanation: stderr, with the line, block and thread of the first thread
    [ "$name" = oob_write ] || continue
    for want in "gpulearn: kernel write_past(int\*, int)<<<(4,1,1), (256,1,1)>>> stopped: out-of-bounds store" \
                "gpulearn:   at tests/programs/oob_write.cu:10, block (0,0,0), thread (1,0,0)" \
                "cudaErrorIllegalAddress" "1 device allocation (4000 bytes) never freed"; do
      grep -q "$want" "$tmp/err" || { echo "FAIL oob_write ($cc): stderr lacks '$want'"; cat "$tmp/err"; fails=$((fails+1)); }
    done
    # the allocation named by its host variable and its cudaMalloc's line (nvcc: through
    # cudart/include/gpulearn_nvcc_sites.h)
    for want in "past the end of 'd' (4000 bytes)" \
        "gpulearn:   'd' is allocation #1 (4000 bytes, oob_write.cu:17)" "gpulearn:   'd' (4000 bytes, oob_write.cu:17)"; do
      grep -q "$want" "$tmp/err" || { echo "FAIL oob_write ($cc): stderr lacks \"$want\""; cat "$tmp/err"; fails=$((fails+1)); }
    done
  done
  # cudaFree twice, into an allocation, of host memory; cudaMemcpy past an allocation's
  # end: cudaErrorInvalidValue, and gpulearn's explanation naming the allocation (the
  # calls' lines, the variable and its cudaMalloc's line, with either compiler)
  "$G" run --compiler $cc tests/programs/errors/double_free.cu > "$tmp/out" 2> "$tmp/err"; rc=$?
  [ $rc = 0 ] && [ "$(cat "$tmp/out")" = "cudaErrorInvalidValue cudaErrorInvalidValue cudaErrorInvalidValue" ] ||
    { echo "FAIL double_free ($cc): rc $rc"; cat "$tmp/out" "$tmp/err"; fails=$((fails+1)); }
  set -- \
    "gpulearn: cudaFree(0x[0-9a-f]*) at double_free.cu:11: 'd' (256 bytes, allocated at double_free.cu:8) was freed already, by the cudaFree at double_free.cu:10; cudaFree returns cudaErrorInvalidValue" \
    "gpulearn: cudaFree(0x[0-9a-f]*) at double_free.cu:12: 16 bytes into 'e' (64 bytes, allocated at double_free.cu:9), not its start: cudaFree takes the pointer cudaMalloc returned" \
    "gpulearn: cudaFree(0x[0-9a-f]*) at double_free.cu:13: host memory (malloc, new, a variable), not device memory from cudaMalloc"
  for want in "$@"; do
    grep -q "^$want" "$tmp/err" || { echo "FAIL double_free ($cc): stderr lacks \"$want\""; cat "$tmp/err"; fails=$((fails+1)); }
  done
  "$G" run --compiler $cc tests/programs/errors/copy_past_end.cu > "$tmp/out" 2> "$tmp/err"; rc=$?
  want="gpulearn: cudaMemcpy at copy_past_end.cu:9: 128 bytes from offset 32 of 'd' (128 bytes, allocated at copy_past_end.cu:8) pass its end by 32 bytes; it returns cudaErrorInvalidValue"
  { [ $rc = 0 ] && [ "$(cat "$tmp/out")" = cudaErrorInvalidValue ] && grep -qF "$want" "$tmp/err"; } ||
    { echo "FAIL copy_past_end ($cc): rc $rc, stderr lacks \"$want\""; cat "$tmp/out" "$tmp/err"; fails=$((fails+1)); }
  "$G" run --compiler $cc tests/programs/errors/memset_async.cu > "$tmp/out" 2> "$tmp/err"; rc=$?
  [ $rc = 0 ] && [ "$(cat "$tmp/out")" = "cudaErrorInvalidValue cudaErrorInvalidValue cudaErrorInvalidValue" ] ||
    { echo "FAIL memset_async ($cc): rc $rc"; cat "$tmp/out" "$tmp/err"; fails=$((fails+1)); }
  set -- \
    "gpulearn: cudaMemset at memset_async.cu:10: 132 bytes from offset 0 of 'd' (128 bytes, allocated at memset_async.cu:9) pass its end by 4 bytes; it returns cudaErrorInvalidValue" \
    "gpulearn: cudaMemsetAsync at memset_async.cu:11: 0x[0-9a-f]* is not device memory; it returns cudaErrorInvalidValue" \
    "gpulearn: cudaMemcpyAsync at memset_async.cu:12: 128 bytes from offset 32 of 'd' (128 bytes, allocated at memset_async.cu:9) pass its end by 32 bytes"
  for want in "$@"; do
    grep -q "^$want" "$tmp/err" || { echo "FAIL memset_async ($cc): stderr lacks \"$want\""; cat "$tmp/err"; fails=$((fails+1)); }
  done
  # an API gpulearn does not provide: named, exit 1, nothing run (clang: not declared;
  # nvcc: declared by the Toolkit's header, not defined at the link)
  "$G" run --compiler $cc tests/programs/errors/unprovided.cu > "$tmp/out" 2> "$tmp/err"; rc=$?
  { [ $rc = 1 ] && [ ! -s "$tmp/out" ] &&
    grep -q "gpulearn: .*cudaGraphCreate.*: not provided by gpulearn's CUDA runtime" "$tmp/err"; } ||
    { echo "FAIL unprovided ($cc): rc $rc"; cat "$tmp/out" "$tmp/err"; fails=$((fails+1)); }
done
if [ $ran -gt 0 ]; then
  # a host pointer given to a kernel: a fault that says so
  "$G" run tests/programs/errors/host_pointer.cu > "$tmp/out" 2> "$tmp/err"; rc=$?
  { [ $rc = 1 ] && grep -q "is host memory" "$tmp/err" && grep -q "host_pointer.cu:7" "$tmp/err" &&
    grep -q "^sync: cudaErrorIllegalAddress" "$tmp/out"; } ||
    { echo "FAIL host_pointer: rc $rc"; cat "$tmp/out" "$tmp/err"; fails=$((fails+1)); }
  # a compile error: the compiler's file:line, then gpulearn's line; exit 1
  "$G" run tests/programs/errors/syntax.cu > "$tmp/out" 2> "$tmp/err"; rc=$?
  { [ $rc = 1 ] && grep -q "syntax.cu.*5.*error" "$tmp/err" && grep -q "^gpulearn: .*syntax.cu does not compile" "$tmp/err"; } ||
    { echo "FAIL syntax: rc $rc"; cat "$tmp/err"; fails=$((fails+1)); }
  # a shared-memory race: reported on stderr with both lines; the program's status stays
  "$G" run tests/programs/errors/shared_race.cu > "$tmp/out" 2> "$tmp/err"; rc=$?
  { [ $rc = 0 ] && [ "$(cat "$tmp/out")" = cudaSuccess ] &&
    grep -q "^gpulearn: error in kernel r(int\*): shared-memory race (read after write hazard).*shared_race.cu:4" "$tmp/err"; } ||
    { echo "FAIL shared_race: rc $rc"; cat "$tmp/out" "$tmp/err"; fails=$((fails+1)); }
  # a kernel that never ends: stopped as a deadlock at its loop's line, the next
  # synchronising call cudaErrorLaunchTimeout; the cudaFree after it returns that sticky
  # error, and the allocation is not called "never freed"
  "$G" run tests/programs/errors/spin_kernel.cu > "$tmp/out" 2> "$tmp/err"; rc=$?
  { [ $rc = 0 ] && [ "$(cat "$tmp/out")" = cudaErrorLaunchTimeout ] &&
    grep -q "^gpulearn: kernel wait_for(int volatile\*)<<<(1,1,1), (32,1,1)>>> stopped: deadlock: .* loops at spin_kernel.cu:7" "$tmp/err" &&
    grep -q "^gpulearn: note: 1 device allocation (4 bytes) not freed because cudaFree returned the kernel fault's sticky error (cudaErrorLaunchTimeout)" "$tmp/err" &&
    ! grep -q "never freed" "$tmp/err"; } ||
    { echo "FAIL spin_kernel: rc $rc"; cat "$tmp/out" "$tmp/err"; fails=$((fails+1)); }
  # two cudaMalloc calls on one line: b's allocation is not named 'a' (the line cannot
  # say which call made it)
  "$G" run tests/programs/errors/two_mallocs.cu > "$tmp/out" 2> "$tmp/err"; rc=$?
  { [ $rc = 0 ] && grep -q "read of uninitialised memory: .* (byte offset 0 of 'allocation #2') at two_mallocs.cu:4" "$tmp/err"; } ||
    { echo "FAIL two_mallocs: rc $rc"; cat "$tmp/err"; fails=$((fails+1)); }
  # a kernel that prints more than the device's printf buffer: 1 MiB kept, the rest
  # dropped as on a GPU, and said on stderr
  "$G" run tests/programs/errors/printf_flood.cu > "$tmp/out" 2> "$tmp/err"; rc=$?
  { [ $rc = 0 ] && [ "$(wc -c < "$tmp/out")" = 1048588 ] && [ "$(tail -c 12 "$tmp/out")" = "cudaSuccess" ] &&
    grep -q "^gpulearn: kernel chatty() printed 565248 bytes more than the 1 MiB the device's printf buffer holds" "$tmp/err"; } ||
    { echo "FAIL printf_flood: rc $rc, $(wc -c < "$tmp/out") bytes"; cat "$tmp/err"; fails=$((fails+1)); }
  # --schedule random:SEED reaches the program's launches: which warp of 128 writes a
  # word last is the deterministic order's last (127), and with a seed the seed's, the
  # same each time
  cat > "$tmp/last.cu" <<'CU'
#include <cstdio>
__global__ void last(int *p) { if (threadIdx.x % 32 == 0) *p = blockIdx.x * 32 + threadIdx.x / 32; }
int main() { int *d, h; cudaMalloc(&d, 4); last<<<4, 1024>>>(d); cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); printf("%d\n", h); cudaFree(d); return 0; }
CU
  s0=$("$G" run "$tmp/last.cu" 2>/dev/null)
  s1=$("$G" run "$tmp/last.cu" --schedule random:1 2>/dev/null); s1b=$("$G" run "$tmp/last.cu" --schedule random:1 2>/dev/null)
  s2=$("$G" run "$tmp/last.cu" --schedule random:2 2>/dev/null); s3=$("$G" run "$tmp/last.cu" --schedule random:3 2>/dev/null)
  { [ "$s0" = 127 ] && [ "$s1" = "$s1b" ] && [ "$(printf '%s\n' $s0 $s1 $s2 $s3 | sort -u | wc -l)" -ge 3 ]; } ||
    { echo "FAIL --schedule: deterministic '$s0', random:1 '$s1' then '$s1b', random:2 '$s2', random:3 '$s3'"; fails=$((fails+1)); }
  # two .cu files and a .cpp, stdin passed through
  out=$(echo hello | "$G" run tests/programs/multi/main.cu tests/programs/multi/scale.cu tests/programs/multi/sum.cpp 2>&1); rc=$?
  [ "$out" = "0 10 20 30 (sum 60)
stdin: hello" ] && [ $rc = 0 ] || { echo "FAIL multi: '$out' rc $rc"; fails=$((fails+1)); }
  # two .cu files with a __device__ variable each, launched in turn: both keep their
  # values (each file is its own module; "a 0 b 0" when only one module's were kept)
  out=$("$G" run tests/programs/multi_vars/main.cu tests/programs/multi_vars/other.cu 2>&1); rc=$?
  [ "$out" = "a 3 b 30" ] && [ $rc = 0 ] || { echo "FAIL multi_vars: '$out' rc $rc"; fails=$((fails+1)); }
  # a program that never ends: --timeout stops it, exit 1
  printf 'volatile int x;\nint main() { for (;;) x++; }\n' > "$tmp/spin.cu"
  out=$("$G" run "$tmp/spin.cu" --timeout 1 2>&1 < /dev/null); rc=$?
  { [ $rc = 1 ] && echo "$out" | grep -q "^gpulearn: ./spin did not end within 1 s (--timeout): stopped"; } ||
    { echo "FAIL timeout: '$out' rc $rc"; fails=$((fails+1)); }
  # the program's arguments and exit status pass through; -D reaches the compiler
  printf '#include <cstdio>\nint main(int c, char **v) { printf("%%d %%s\\n", c, v[c - 1]); return CODE; }\n' > "$tmp/args.cu"
  out=$("$G" run "$tmp/args.cu" -D CODE=7 -- one two 2>&1); rc=$?
  [ "$out" = "3 two" ] && [ $rc = 7 ] || { echo "FAIL args: '$out' rc $rc"; fails=$((fails+1)); }
fi

[ $ran -gt 0 ] || { echo "SKIP: neither clang nor nvcc: no whole program compiled"; exit 77; }
echo "programs: $ran run, $fails failed"
[ $fails = 0 ]
