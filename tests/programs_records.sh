#!/bin/sh
# Launch records of whole programs (docs/architecture.md "Whole programs", "Launch
# records"): GPULEARN_PROG_RECORD's JSON lines (per launch and per host API call), and
# `gpulearn run PROG.cu --trace-json F --metrics-json F` assembled from them, with each
# compiler present. Exact values, recomputed by hand for vector_add.cu (1000 floats,
# <<<4, 256>>>): its loads are 2 x 32 warp requests over 2 x 4000 bytes = 250 sectors of
# 32 bytes, its stores 32 requests and 125 sectors. Also: a fault's and a race's records
# (kind, file:line, block, thread), a refused launch (1025 threads), and a program that
# crashes after a launch leaves its earlier lines whole. About 0.5 s a program with
# clang, 1 s with nvcc.
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
cd "$(dirname "$0")/.." || exit 1
command -v python3 >/dev/null 2>&1 || { echo "SKIP programs_records: no python3"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
have_clang=0; have_nvcc=0
{ command -v clang >/dev/null 2>&1 || ls /usr/bin/clang-1[4-9] >/dev/null 2>&1; } && have_clang=1
{ command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; } && have_nvcc=1
[ $have_clang = 1 ] || echo "SKIP clang: not installed"
[ $have_nvcc = 1 ] || echo "SKIP nvcc: not installed"
[ $have_clang = 1 ] || [ $have_nvcc = 1 ] || { echo "SKIP programs_records: no compiler"; exit 77; }
fails=0
# a launch, then a host crash (SIGSEGV): the launch's line and the calls before stay whole
cat > "$tmp/crash.cu" <<'CU'
#include <cstdio>
__global__ void k(int *p) { p[threadIdx.x] = 1; }
int main() { int *d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); cudaDeviceSynchronize(); fflush(stdout); *(volatile int *)d = 0; return 0; }
CU
for cc in clang nvcc; do
  eval "[ \$have_$cc = 1 ]" || continue
  for p in vector_add oob_write errors/shared_race launch_1025; do
    GPULEARN_PROG_RECORD="$tmp/$cc.$(basename $p).jsonl" "$G" run --compiler $cc tests/programs/$p.cu \
      > /dev/null 2>&1
  done
  "$G" run --compiler $cc tests/programs/vector_add.cu --trace-json "$tmp/$cc.trace.json" \
    --metrics-json "$tmp/$cc.metrics.json" > /dev/null 2> "$tmp/err" || { echo "FAIL run ($cc)"; cat "$tmp/err"; }
  GPULEARN_PROG_RECORD="$tmp/$cc.crash.jsonl" "$G" run --compiler $cc "$tmp/crash.cu" > /dev/null 2>&1
  python3 - "$tmp" $cc <<'PY' || fails=$((fails+1))
import json, sys
tmp, cc = sys.argv[1], sys.argv[2]
bad = []
def check(what, got, want):
    if got != want:
        bad.append(f"{what}: {got!r}, expected {want!r}")
def lines(name):
    return [json.loads(l) for l in open(f"{tmp}/{cc}.{name}.jsonl")]
# vector_add: one launch, where it is, and the host calls in order
r = lines("vector_add")
ls = [x for x in r if x["type"] == "launch"]
check("vector_add launches", len(ls), 1)
l = ls[0]
check("kernel", l["kernel"], "vectorAdd(float const*, float const*, float*, int)")
check("mangled", l["mangled"], "_Z9vectorAddPKfS0_Pfi")
check("grid/block/shared", (l["grid"], l["block"], l["shared"]), ([4, 1, 1], [256, 1, 1], 0))
check("launched", (l["launched"], l["error"], l["fault"], l["findings"]), (True, "cudaSuccess", None, []))
check("stats", l["stats"]["warp_instructions"] > 0 and l["end_ns"] > l["start_ns"], True)
check("api calls", [x["name"] for x in r if x["type"] == "api"],
      ["cudaMalloc"] * 3 + ["cudaMemcpy"] * 2 + ["cudaLaunchKernel", "cudaGetLastError", "cudaMemcpy"] + ["cudaFree"] * 3)
# the metrics, keyed by launch, the names `run SPEC.json --metrics-json` writes
m = json.load(open(f"{tmp}/{cc}.metrics.json"))
check("metrics launches", list(m["launches"]), ["1"])
m1 = m["launches"]["1"]
check("where", m1["where"], "tests/programs/vector_add.cu:39")
mm = m1["metrics"]
check("ld", (mm["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], mm["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]), (64, 250))
check("st", (mm["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"], mm["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]), (32, 125))
check("inst", mm["smsp__inst_executed.sum"], l["stats"]["warp_instructions"])
# the trace: the host's calls in process 0, launch 1's blocks in process 1
t = json.load(open(f"{tmp}/{cc}.trace.json"))
ev = t["traceEvents"]
names = {e["pid"]: e["args"]["name"] for e in ev if e.get("name") == "process_name"}
check("processes", names, {0: "host: CUDA API calls",
      1: "launch 1: vectorAdd(float const*, float const*, float*, int)<<<(4,1,1), (256,1,1)>>> at tests/programs/vector_add.cu:39"})
check("api slices", len([e for e in ev if e["pid"] == 0 and e["ph"] == "X"]), 11)
blocks = [e for e in ev if e["pid"] == 1 and e.get("cat") == "block"]
check("block slices", sorted(e["name"] for e in blocks), [f"block ({b},0,0)" for b in range(4)])
launch = [e for e in ev if e["pid"] == 0 and e["name"] == "cudaLaunchKernel"][0]
check("blocks within the launch", all(launch["ts"] - 1e-6 <= e["ts"] and e["ts"] + e["dur"] <= launch["ts"] + launch["dur"] + 1e-6 for e in blocks), True)
# a fault: its kind, place and what the next synchronising call returns
f = [x for x in lines("oob_write") if x["type"] == "launch"][0]["fault"]
check("fault", (f["kind"], f["file"], f["line"], f["block"], f["thread"], f["error"]),
      ("OUT_OF_BOUNDS", "tests/programs/oob_write.cu", 10, [0, 0, 0], [1, 0, 0], "cudaErrorIllegalAddress"))
# a race: a finding named as sim/kinds.h names it, an error, both lines
x = [x for x in lines("shared_race") if x["type"] == "launch"][0]
check("race", [(g["kind"], g["severity"], g["file"], g["line"], g["other"]["line"]) for g in x["findings"]][:1],
      [("RACE", "error", "tests/programs/errors/shared_race.cu", 4, 4)])
check("race errors", x["errors"] > 0 and x["fault"] is None, True)
# a refused launch (1025 threads), then the one that runs
ls = [x for x in lines("launch_1025") if x["type"] == "launch"]
check("refused", [(x["launch"], x["block"], x["launched"], x["error"]) for x in ls],
      [(1, [1025, 1, 1], False, "cudaErrorInvalidValue"), (2, [1024, 1, 1], True, "cudaSuccess")])
# a crash after the launch: every line whole, the launch among them
ls = lines("crash")
check("crash", [x.get("name", x["type"]) for x in ls], ["cudaMalloc", "launch", "cudaLaunchKernel", "cudaDeviceSynchronize"])
for b in bad:
    print(f"FAIL records ({cc}): {b}")
if not bad:
    print(f"PASS records ({cc})")
sys.exit(1 if bad else 0)
PY
done
[ $fails = 0 ]
