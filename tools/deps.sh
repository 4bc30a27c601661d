#!/bin/sh
# Checks that the Debian packages gpulearn builds with are present. Where they are
# missing it installs them (as root with apt-get) or prints the exact command to run.
# Honours PKG_CONFIG_LIBDIR/PKG_CONFIG_SYSROOT_DIR (set by `make DEPS_PREFIX=...`).
missing=""
pkg-config --exists ncursesw 2>/dev/null || missing="$missing libncurses-dev"
pkg-config --exists libcjson 2>/dev/null || missing="$missing libcjson-dev"
pkg-config --exists check 2>/dev/null    || missing="$missing check libsubunit-dev"
command -v pkg-config >/dev/null 2>&1    || missing="pkg-config$missing"
[ -z "$missing" ] && exit 0
if [ -n "$PKG_CONFIG_SYSROOT_DIR" ]; then
  echo "gpulearn: missing under DEPS_PREFIX=$PKG_CONFIG_SYSROOT_DIR:$missing" >&2
  echo "gpulearn: unpack them there: apt-get download$missing && for f in *.deb; do dpkg -x \$f DEPS_PREFIX; done" >&2
  exit 1
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "$GPULEARN_NO_INSTALL" ]; then
  echo "gpulearn: installing missing Debian packages:$missing" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$missing) >&2 || {
    echo "gpulearn: apt-get failed; install them by hand: apt-get install$missing" >&2; exit 1; }
  exit 0
fi
echo "gpulearn: missing build dependencies. Install them with:" >&2
echo "    sudo apt-get install$missing" >&2
exit 1
