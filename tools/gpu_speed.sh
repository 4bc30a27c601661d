#!/bin/sh
# gpu_speed.sh — on a machine with an NVIDIA GPU: times every lesson step that teaches
# speed at its GPU size (the step's "gpu_launch", README "Writing a lesson"), with the
# other kernels of its file at the same launch (those the TUI's f runs; one that faults at
# the step's own launch on the simulator is named and skipped), and checks the steps'
# GPU "expect" entries (measured ranges per GPU, "device": "H200" ...). Each timed
# kernel is one row:
#
#   speed 12.4 matmul_regtile  M=4096 N=4096 K=4096  5.1234 ms  39 GB/s  0.8 % of peak
#         26825 GFLOP/s cuBLAS 51000 GFLOP/s (yours 53 %)        (one line; figures made up)
#
# (lesson.step, kernel, the launch's scalar arguments, median of 20 timed runs after a
# warm-up, bandwidth from the launch's bytes_moved, its share of the device's peak,
# GFLOP/s from its flops, cuBLAS's or CUB's rate at the same size and the kernel's as a
# share of it), then a line per GPU entry that does not hold and each lesson's verdict.
# A speed claim in a step's text is what these rows measured on the GPUs it names
# (within 10 %), or the text gives the measured range per GPU.
#
# Usage: sh tools/gpu_speed.sh [LESSON_DIR...]   (default: every lesson)
# Env: GPULEARN (default build/debug/gpulearn; built with make when missing), MAKEFLAGS
# for that build (e.g. DEPS_PREFIX=... as tools/gpu_check.sh builds).
# Exit: 0 every GPU entry holds, 1 one does not (or no GPU), 2 bad usage.
G=${GPULEARN:-build/debug/gpulearn}
if [ ! -x "$G" ]; then
  make -j"$(nproc)" all >/tmp/gpu_speed.build.log 2>&1 || { tail -30 /tmp/gpu_speed.build.log; exit 1; }
fi
command -v nvidia-smi >/dev/null 2>&1 &&
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
"$G" info | sed "/^$/q"
[ $# -gt 0 ] || set -- lessons/[0-9]*
"$G" lint --speed "$@"
