#!/bin/sh
# Checks that the Debian packages gpulearn builds with are present; the Makefile runs it
# before it computes any compiler flag. Where packages are missing it installs them (as
# root with apt-get) or prints the exact command to run and exits 1.
#
#   sh tools/deps.sh         the build: ncursesw, cJSON, libseccomp, nettle, zlib, Check
#                            (pkg-config), and a compiler for kernels (clang) when no
#                            CUDA Toolkit is found
#   sh tools/deps.sh check   also what `make check` drives: tmux (the TUI tests)
#   sh tools/deps.sh slurm   only the one-node Slurm tests/slurm.sh starts (slurmctld,
#                            slurmd, slurm-client, munge); without it that test SKIPs
#
# With GPULEARN_DEPS_PREFIX (set by `make DEPS_PREFIX=...`) it checks that folder
# instead: the way to build without root (see the README, "Set up").
# GPULEARN_NO_INSTALL=1 only reports.
missing=""
if [ "$1" = slurm ]; then
  for t in slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client munged:munge; do
    PATH=$PATH:/usr/sbin command -v "${t%%:*}" >/dev/null 2>&1 || missing="$missing ${t#*:}"
  done
elif [ -n "$GPULEARN_DEPS_PREFIX" ]; then
  for h in ncurses.h cjson/cJSON.h check.h seccomp.h nettle/sha2.h zlib.h; do
    [ -f "$GPULEARN_DEPS_PREFIX/usr/include/$h" ] || missing="$missing $h"
  done
  [ -z "$missing" ] && exit 0
  echo "gpulearn: missing under DEPS_PREFIX=$GPULEARN_DEPS_PREFIX:$missing" >&2
  echo "gpulearn: unpack the packages there: apt-get download libncurses-dev libncursesw6 libtinfo6 libcjson-dev libcjson1 libseccomp-dev libseccomp2 nettle-dev libnettle8 zlib1g-dev check libsubunit-dev libsubunit0, then dpkg -x each into DEPS_PREFIX" >&2
  exit 1
fi
if [ "$1" = slurm ]; then
  : # the build's packages are not asked for
elif command -v pkg-config >/dev/null 2>&1; then
  pkg-config --exists ncursesw 2>/dev/null || missing="$missing libncurses-dev"
  pkg-config --exists libcjson 2>/dev/null || missing="$missing libcjson-dev"
  pkg-config --exists libseccomp 2>/dev/null || missing="$missing libseccomp-dev"
  pkg-config --exists nettle 2>/dev/null     || missing="$missing nettle-dev"
  pkg-config --exists zlib 2>/dev/null       || missing="$missing zlib1g-dev"
  pkg-config --exists check 2>/dev/null    || missing="$missing check libsubunit-dev"
else
  missing=" pkg-config libncurses-dev libcjson-dev libseccomp-dev nettle-dev zlib1g-dev check libsubunit-dev"
fi
# Kernels compile with NVRTC or nvcc (the CUDA Toolkit) and otherwise with clang.
cuda=${CUDA_HOME:-/usr/local/cuda}
if [ "$1" != slurm ] && ! command -v clang >/dev/null 2>&1 && ! command -v nvcc >/dev/null 2>&1 &&
   [ ! -x "$cuda/bin/nvcc" ] && ! ls "$cuda"/lib64/libnvrtc.so* >/dev/null 2>&1; then
  missing="$missing clang"
fi
if [ "$1" = check ] && ! command -v tmux >/dev/null 2>&1; then
  missing="$missing tmux"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "$GPULEARN_NO_INSTALL" ]; then
  echo "gpulearn: installing missing Debian packages:$missing" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$missing) >&2 || {
    echo "gpulearn: apt-get failed; install them by hand: apt-get install$missing" >&2; exit 1; }
  exit 0
fi
echo "gpulearn: missing build dependencies. Install them with:" >&2
echo "    sudo apt-get install$missing" >&2
echo "gpulearn: without root, unpack them with dpkg -x and build with make DEPS_PREFIX=DIR (README, \"Set up\")" >&2
exit 1
