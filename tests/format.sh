#!/bin/sh
# format.sh — every C file has the layout of .clang-format (`make format` applies it).
# Checked with clang-format 14, the version Debian 12 ships and .clang-format was
# written for (other versions lay some constructs out differently): with another
# version, or none, it prints SKIP and exits 77.
# Exit: 0 pass, 1 fail (the files that differ are named), 77 skip.
command -v clang-format >/dev/null 2>&1 || { echo "format: SKIP (no clang-format)"; exit 77; }
v=$(clang-format --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
[ "$v" = 14 ] || { echo "format: SKIP (clang-format $v, not 14)"; exit 77; }
bad=0; n=0
for f in sim/*.[ch] sim/ptx/*.[ch] trace/*.[ch] cudart/*.[ch] runtime/*.[ch] tui/*.[ch] cli/*.[ch] tests/*.[ch] bench/*.c fuzz/*.c; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "FAIL $f: differs from .clang-format (make format fixes it)"
    bad=$((bad + 1))
  fi
done
[ $bad = 0 ] || { echo "format: $bad of $n files differ"; exit 1; }
echo "format: $n files as .clang-format lays them out"
