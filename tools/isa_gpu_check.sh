#!/bin/sh
# isa_gpu_check.sh — runs every form of tests/isa/instructions.txt (the PTX ISA's
# instructions up to sm_90, see tests/test_ptx_isa.c) on the GPU back end and on the
# simulator and compares them with each other and with the table's expected value.
#
# Usage (from the repository root, on a machine with an sm_90 GPU and NVRTC):
#   sh tools/isa_gpu_check.sh [path/to/gpulearn]      (default build/debug/gpulearn)
# Needs only gpulearn and a POSIX shell with awk/sed. Each form becomes a CUDA C kernel
# whose body is one inline-asm block (tests/isa/wrap_head.ptx, the form, wrap_tail.ptx;
# registers renamed so that they cannot clash with the compiler's) and a launch spec;
# `gpulearn run --backend gpu` and `--backend sim` run it. Prints one line per mismatch
# or refusal and a total; exits 0 when every form agrees, 1 otherwise, 77 (skip) with no
# GPU. The table's known gaps ("~" lines: instructions the simulator does not run yet)
# run on the GPU only, printed as GAP lines with the GPU's result (a measurement to
# build them on), a mismatch only when the GPU disagrees with the table.
set -u
GL=${1:-build/debug/gpulearn}
DIR=tests/isa
[ -x "$GL" ] || { echo "isa_gpu_check: no gpulearn at $GL (build it: make)" >&2; exit 2; }
[ -f "$DIR/instructions.txt" ] || { echo "isa_gpu_check: run from the repository root" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache" XDG_DATA_HOME="$tmp/data"
unset GPULEARN_NO_GPU
# ISA_CHECK_GPU_BACKEND=sim tries the script itself on a machine without a GPU.
GB=${ISA_CHECK_GPU_BACKEND:-gpu}

# One directory per form ($tmp/f<N>: k.cu, k.json) and a manifest line per form:
# N|instruction|section|kind|threads|want|tolerance|gap|body
awk -v out="$tmp" -v headf="$DIR/wrap_head.ptx" -v tailf="$DIR/wrap_tail.ptx" '
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
# A PTX line as the text of a C string literal: escaped, % doubled, the registers renamed
# (%x -> %%ix, except special registers), the placeholders made asm operands.
function cstr(s,    r, id, m) {
    gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s)
    r = ""
    while (match(s, /%[A-Za-z_][A-Za-z0-9_]*/)) {
        id = substr(s, RSTART + 1, RLENGTH - 1)
        m = id ~ /^(tid|ntid|laneid|warpid|nwarpid|ctaid|nctaid|smid|nsmid|gridid|lanemask|clock|pm[0-9]|envreg|globaltimer|total_smem|aggr_smem|dynamic_smem|cluster|nclusterid|is_explicit|reserved_smem|current_graph)/
        r = r substr(s, 1, RSTART - 1) (m ? "%%" id : "%%i" id)
        s = substr(s, RSTART + RLENGTH)
    }
    s = r s
    gsub(/@IN@/, "%0", s); gsub(/@OUT@/, "%1", s); gsub(/@SCR@/, "%2", s); gsub(/@SH@/, "%3", s)
    return "        \"" s "\\n\"\n"
}
function slurp(f,    l, t) { t = ""; while ((getline l < f) > 0) if (l !~ /^\/\//) t = t cstr(l); close(f); return t }
BEGIN { head = slurp(headf); tail = slurp(tailf); n = 0 }
/^[@~]/ { split(substr($0, 2), a, "|"); insn = trim(a[1]); sec = trim(a[2]); gap = substr($0, 1, 1) == "~"; next }
/^=/ {
    line = substr($0, 2)
    for (i = 1; i <= 6; i++) { p = index(line, "|"); f[i] = trim(substr(line, 1, p - 1)); line = substr(line, p + 1) }
    body = trim(line); want = f[6]; tol = 0
    if (index(want, "~")) { tol = trim(substr(want, index(want, "~") + 1)); want = trim(substr(want, 1, index(want, "~") - 1)) }
    n++; d = out "/f" n
    system("mkdir -p \"" d "\"")
    cu = d "/k.cu"
    printf "extern \"C\" __device__ __noinline__ unsigned isa_inc(unsigned x) { return x + 1; }\n" > cu
    printf "extern \"C\" __global__ void k(unsigned long long *out, const unsigned long long *in,\n" > cu
    printf "                           unsigned long long *scr)\n{\n" > cu
    printf "    __shared__ __align__(16) unsigned long long isa_sh[256];\n" > cu
    printf "    if (in == 0) out[0] = isa_inc((unsigned)scr[0]);\n" > cu
    printf "    asm volatile(\"{\\n\"\n%s%s%s        \"}\\n\"\n", head, cstr(body), tail > cu
    printf "                 :: \"l\"(in), \"l\"(out), \"l\"(scr), \"l\"(isa_sh) : \"memory\");\n}\n" > cu
    close(cu)
    js = d "/k.json"
    # threads "1c": in a thread block cluster of one CTA
    printf "{\"source\": \"k.cu\", \"kernel\": \"k\", \"arch\": \"sm_90\", \"grid\": [1, 1, 1], \"block\": [%d, 1, 1],%s\n", f[2], (f[2] ~ /c$/ ? " \"cluster\": [1, 1, 1]," : "") > js
    printf " \"args\": [{\"name\": \"out\", \"type\": \"u64*\", \"len\": %d},\n", (f[2] + 0) * 5 > js
    printf "  {\"name\": \"in\", \"type\": \"u64*\", \"len\": 3, \"init\": {\"values\": [\"%s\", \"%s\", \"%s\"]}},\n", f[3], f[4], f[5] > js
    printf "  {\"name\": \"scr\", \"type\": \"u64*\", \"len\": 64, \"init\": {\"iota\": {\"start\": 0, \"step\": 1}}}]}\n" > js
    close(js)
    printf "%d|%s|%s|%s|%s|%s|%s|%d|%s\n", n, insn, sec, f[1], f[2], want, tol, gap, body > (out "/manifest")
}
' "$DIR/instructions.txt" || exit 2

# Thread 0's result for kind (r d f F p) from a --dump-json file, as a decimal.
result() {
  sed -n 's/.*"out": \[\([^]]*\)\].*/\1/p' "$1" | tr -d ' ' | tr ',' '\n' |
    awk -v k="$2" 'NR == index("rdfFp", k) { print; exit }'
}

# One probe: is there a GPU at all?
first=$(head -n 1 "$tmp/manifest" | cut -d'|' -f1)
if ! "$GL" run "$tmp/f$first/k.json" --backend "$GB" >"$tmp/probe" 2>&1; then
  if grep -qi "no gpu\|no cuda\|driver\|libcuda" "$tmp/probe"; then
    echo "SKIP: no GPU here ($(head -n 1 "$tmp/probe"))"
    exit 77
  fi
fi

total=0 bad=0
while IFS='|' read -r n insn sec kind threads want tol gap body; do
  total=$((total + 1))
  d="$tmp/f$n"
  what="$insn (PTX ISA $sec) \`$body\`"
  "$GL" run "$d/k.json" --backend "$GB" --dump-json "$d/gpu.json" >"$d/gpu.log" 2>&1; grc=$?
  if [ "$gap" = 1 ]; then # not simulated yet: the GPU's result, for the record
    if [ $grc != 0 ]; then
      echo "GAP-GPU-FAILED $what: $(grep -m1 -i 'error\|gpulearn:' "$d/gpu.log")"
      bad=$((bad + 1)); continue
    fi
    g=$(result "$d/gpu.json" "$kind"); w=$(printf '%u' "$want")
    echo "GAP $what: gpu $g, table $w (the simulator does not run it yet)"
    [ "$g" = "$w" ] || bad=$((bad + 1))
    continue
  fi
  "$GL" run "$d/k.json" --backend sim --dump-json "$d/sim.json" >"$d/sim.log" 2>&1; src=$?
  if [ "$kind" = t ]; then
    [ $grc = 1 ] && [ $src = 1 ] && continue
    echo "MISMATCH $what: want a trap on both; exit codes gpu $grc, sim $src"
    bad=$((bad + 1)); continue
  fi
  if [ $grc != 0 ]; then
    echo "GPU-FAILED $what: $(grep -m1 -i 'error\|gpulearn:' "$d/gpu.log")"
    bad=$((bad + 1)); continue
  fi
  if [ $src != 0 ]; then
    echo "SIM-FAILED $what: $(grep -m1 -i 'error\|gpulearn:' "$d/sim.log")"
    bad=$((bad + 1)); continue
  fi
  g=$(result "$d/gpu.json" "$kind"); s=$(result "$d/sim.json" "$kind")
  w=$(printf '%u' "$want")
  t=$(printf '%u' "$tol")
  if [ "$t" = 0 ]; then
    [ "$g" = "$s" ] && [ "$g" = "$w" ] && continue
  else # .approx: both within the table's tolerance of the expected bits
    ok=1
    for v in "$g" "$s"; do
      diff=$((v - w)); [ $diff -lt 0 ] && diff=$((-diff))
      [ $diff -le "$t" ] || ok=0
    done
    [ $ok = 1 ] && continue
  fi
  echo "MISMATCH $what: gpu $g, sim $s, table $w"
  bad=$((bad + 1))
done <"$tmp/manifest"
echo "isa_gpu_check: $total forms, $bad mismatched or failed"
[ $bad = 0 ]
