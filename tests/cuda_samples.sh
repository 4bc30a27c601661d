#!/bin/sh
# NVIDIA cuda-samples' introductory programs, unmodified (tests/programs/cuda-samples/;
# samples.txt lists them with their arguments, the lines masked and the compilers that
# cannot build them), compiled with each compiler present and run as whole programs on
# the simulator (`gpulearn run`): stdout and exit status must equal what an NVIDIA H200
# gave (NAME/NAME.stdout and .status, recorded by tools/cuda_samples_gpu_record.sh),
# decimal numbers (timings) and the masked lines (device name, host OS) masked on both
# sides. A program without a golden yet is a visible SKIP.
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
cd "$(dirname "$0")/.." || exit 1
D=tests/programs/cuda-samples
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
have_clang=0; have_nvcc=0
{ command -v clang >/dev/null 2>&1 || ls /usr/bin/clang-1[4-9] >/dev/null 2>&1; } && have_clang=1
{ command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; } && have_nvcc=1
[ $have_clang = 1 ] || [ $have_nvcc = 1 ] || { echo "SKIP: neither clang nor nvcc is installed"; exit 77; }
# mask FILE RE: every decimal number N, each line matching RE (unless -) "(masked)"
mask() {
  if [ "$2" = - ]; then sed -E 's/[0-9]+\.[0-9]+/N/g' "$1"
  else sed -E "s/[0-9]+\.[0-9]+/N/g; /$2/s/.*/(masked)/" "$1"; fi
}
fails=0; ran=0
grep -v '^#' "$D/samples.txt" | while IFS=';' read -r name args re skip; do
  name=$(echo $name); re=$(echo "$re" | sed 's/^ *//; s/ *$//'); skip=$(echo "$skip" | sed 's/^ *//')
  [ -n "$name" ] || continue
  gold=$D/$name/$name
  if [ ! -f "$gold.stdout" ]; then echo "SKIP $name: no golden yet (tools/cuda_samples_gpu_record.sh)"; continue; fi
  srcs=$(ls "$D/$name"/*.cu "$D/$name"/*.cpp 2>/dev/null)
  for cc in clang nvcc; do
    eval "[ \$have_$cc = 1 ]" || continue
    case $skip in "$cc:"*) echo "SKIP $name ($cc): ${skip#*: }"; continue;; esac
    # shellcheck disable=SC2086
    "$G" run --compiler $cc $srcs -I "$D/Common" -I "$D/$name" -- $args >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    mask "$tmp/out" "$re" >"$tmp/got"; mask "$gold.stdout" "$re" >"$tmp/want"
    if ! cmp -s "$tmp/got" "$tmp/want"; then
      echo "FAIL $name ($cc): stdout differs from the GPU's"; diff "$tmp/want" "$tmp/got" | head -10
      sed 's/^/  stderr: /' "$tmp/err" | head -8; echo fail >>"$tmp/fails"
    elif [ "$rc" != "$(cat "$gold.status")" ]; then
      echo "FAIL $name ($cc): exit status $rc, the GPU's $(cat "$gold.status")"
      sed 's/^/  stderr: /' "$tmp/err" | head -8; echo fail >>"$tmp/fails"
    else
      echo "PASS $name ($cc)"
    fi
  done
done
[ ! -f "$tmp/fails" ]
