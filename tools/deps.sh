#!/bin/sh
# Checks that the Debian packages gpulearn builds with are present. Where they are
# missing it installs them (as root with apt-get) or prints the exact command to run.
# With GPULEARN_DEPS_PREFIX (set by `make DEPS_PREFIX=...`) it checks that folder instead.
missing=""
if [ -n "$GPULEARN_DEPS_PREFIX" ]; then
  # make DEPS_PREFIX=...: the packages were unpacked there with dpkg -x.
  for h in ncurses.h cjson/cJSON.h check.h; do
    [ -f "$GPULEARN_DEPS_PREFIX/usr/include/$h" ] || missing="$missing $h"
  done
  [ -z "$missing" ] && exit 0
  echo "gpulearn: missing under DEPS_PREFIX=$GPULEARN_DEPS_PREFIX:$missing" >&2
  echo "gpulearn: unpack the packages there: apt-get download libncurses-dev libncursesw6 libtinfo6 libcjson-dev libcjson1 check libsubunit-dev libsubunit0, then dpkg -x each into DEPS_PREFIX" >&2
  exit 1
fi
pkg-config --exists ncursesw 2>/dev/null || missing="$missing libncurses-dev"
pkg-config --exists libcjson 2>/dev/null || missing="$missing libcjson-dev"
pkg-config --exists check 2>/dev/null    || missing="$missing check libsubunit-dev"
command -v pkg-config >/dev/null 2>&1    || missing="pkg-config$missing"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "$GPULEARN_NO_INSTALL" ]; then
  echo "gpulearn: installing missing Debian packages:$missing" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$missing) >&2 || {
    echo "gpulearn: apt-get failed; install them by hand: apt-get install$missing" >&2; exit 1; }
  exit 0
fi
echo "gpulearn: missing build dependencies. Install them with:" >&2
echo "    sudo apt-get install$missing" >&2
exit 1
