#!/bin/sh
# layers.sh — the include rules of docs/architecture.md ("Layers"), enforced: every
# #include "..." in sim/ trace/ runtime/ tui/ cli/ names a header of a layer that the
# file's own layer may include; tui/ and cli/ do not mention the simulator at all: no
# sim_* or ptx_* function, type or field, no SIM_* or PTX_* constant (they reach it only
# through runtime/, whose result types are runtime/result.h's); a header private to a
# folder or to some files is included only there. Each violation is named file:line.
# Exit 0 when the tree keeps the rules, 1 when it does not.
#
# The rules, written once (docs/architecture.md repeats these lines and this script
# checks that it does): LAYER: the layers its files may include, itself first.
RULES='
sim:     sim trace
trace:   trace
runtime: runtime sim trace
tui:     tui runtime trace
cli:     cli tui runtime trace
cudart:  cudart sim trace
'
# Folders whose files name nothing of sim/ (sim_*, ptx_*, SIM_*, PTX_*).
NO_SIM_NAMES='tui cli'

cd "$(dirname "$0")/.." || exit 1
fails=0
layers=$(printf '%s\n' "$RULES" | sed -n 's/^\([a-z]*\):.*/\1/p')

# The documentation states the same rules.
doc=docs/architecture.md
printf '%s\n' "$RULES" | while IFS= read -r rule; do
  [ -n "$rule" ] || continue
  grep -qxF "$rule" "$doc" 2>/dev/null || { echo "FAIL $doc does not state the rule '$rule'"; exit 1; }
done || fails=$((fails+1))

# Each #include "dir/file" names layer `dir` (a name without a folder is the file's own).
files=$(find $layers -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \) \
          -not -path 'runtime/prelude/*' | sort)
out=$(printf '%s\n' "$RULES" | awk -v files="$files" '
  NF >= 2 { l = $1; sub(/:$/, "", l); for (i = 2; i <= NF; i++) { ok[l, $i] = 1; may[l] = may[l] " " $i "/" } }
  END {
    n = split(files, f, "\n")
    for (k = 1; k <= n; k++) {
      file = f[k]; own = file; sub(/\/.*/, "", own); line = 0
      while ((getline s < file) > 0) {
        line++
        if (s !~ /^[ \t]*#[ \t]*include[ \t]*"/) continue
        h = s; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
        to = (h ~ /\//) ? h : own "/" h; sub(/\/.*/, "", to)
        if (!((own, to) in ok))
          printf "FAIL %s:%d: %s/ may not include \"%s\" (%s/ may include:%s)\n", file, line, own, h, own, may[own]
      }
      close(file)
    }
  }') || { echo "FAIL tests/layers.sh: awk could not read the sources"; exit 1; }
if [ -n "$out" ]; then
  printf '%s\n' "$out"
  fails=$((fails + $(printf '%s\n' "$out" | wc -l)))
fi

# Private headers: a header whose first line says "private to SCOPE" is included only by
# the files SCOPE names: the first word of that line after "private to" that holds a
# slash, a folder ("sim/": every file under it) or a pattern ("runtime/spec*.c",
# "sim/exec_*"), else the header's own folder. A module's public face says so instead.
priv=$(for h in $(printf '%s\n' "$files" | grep '\.h$'); do
  scope=$(sed -n '1{/private to /{s/.*private to //;p;};}' "$h" | tr ' ' '\n' |
          sed -n 's/^[(]*\([^(),:;]*\/[^(),:;]*\).*/\1/p' | head -1)
  if [ -z "$scope" ] && sed -n 1p "$h" | grep -q 'private to '; then scope="${h%/*}/"; fi
  [ -n "$scope" ] && printf '%s %s\n' "$h" "$scope"
done)
out=$(printf '%s\n' "$priv" | while read -r h scope; do
  [ -n "$h" ] || continue
  case $scope in */) pat="$scope*" ;; *) pat=$scope ;; esac
  grep -nF "#include \"$h\"" $files /dev/null | while IFS=: read -r f n _; do
    # shellcheck disable=SC2254
    case $f in $pat) ;; *) echo "FAIL $f:$n: includes $h, which is private to $scope" ;; esac
  done
done)
if [ -n "$out" ]; then
  printf '%s\n' "$out"
  fails=$((fails + $(printf '%s\n' "$out" | wc -l)))
fi

# tui/ and cli/ see a run's fault, findings and counters as runtime/result.h's types
# (gl_fault, gl_finding, gl_stats) and name nothing of sim/: no function, type, field or
# constant (a name beginning sim_, ptx_, SIM_ or PTX_), in code or in comments.
for d in $NO_SIM_NAMES; do
  names=$(grep -nE '(^|[^A-Za-z0-9_])(sim|ptx|SIM|PTX)_[A-Za-z0-9_]*' \
            $(find "$d" -type f \( -name '*.c' -o -name '*.h' \) | sort) /dev/null)
  if [ -n "$names" ]; then
    printf '%s\n' "$names" | sed "s#^\([^:]*:[0-9]*\):.*#FAIL \1: $d/ names the simulator's API (use runtime/ and its result types)#"
    fails=$((fails + $(printf '%s\n' "$names" | wc -l)))
  fi
done

if [ "$fails" = 0 ]; then
  echo "ok   layers: $(printf '%s\n' "$files" | wc -l) files keep the include rules ($(printf '%s\n' "$priv" | grep -c .) private headers)"
  exit 0
fi
echo "$fails layer violation(s); the rules are at the top of tests/layers.sh and in $doc"
exit 1
