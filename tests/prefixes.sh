#!/bin/sh
# prefixes.sh — names say where things live (docs/architecture.md "Names"), checked on the
# build's objects: every function a runtime/ file exports (nm: a defined text symbol)
# begins with its family's prefix, gl_FAM or FAM, FAM being the file's name before its
# first '_' (compile_cli.c, compile_diag.c: compile; spec_json.c: spec; grade_program.c:
# grade), as Lua's luaV_ names lvm.c; gl.c's (the library's own helpers) begin with gl_.
# A function declared only in a header private to the family (its first line says
# "private to", e.g. compile_internal.h's cc_*) is the family's business and exempt.
# Each violation is named file: symbol. Exit 0 kept, 1 broken, 77 no objects (SKIP).
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build/debug}
set -- "$B"/runtime/*.o
if [ ! -f "$1" ] || ! command -v nm >/dev/null 2>&1; then
  echo "SKIP prefixes: no objects in $B/runtime (build first) or no nm"
  exit 77
fi
private_hdrs=$(for h in runtime/*.h; do sed -n 1p "$h" | grep -q 'private to ' && echo "$h"; done)
fails=0 n=0
for o in "$@"; do
  stem=$(basename "$o" .o)
  fam=${stem%%_*}
  for s in $(nm -g --defined-only "$o" | awk '$2 == "T" { print $3 }'); do
    n=$((n + 1))
    case $stem:$s in
      gl:gl_*) continue ;;
      gl:*) ;;
      *:gl_"$fam"* | *:"$fam"*) continue ;;
    esac
    # declared in a public header? (else private to the family: exempt)
    pub=$(grep -lw "$s" runtime/*.h 2>/dev/null | grep -vxF "$private_hdrs" || true)
    [ -z "$pub" ] && [ "$stem" != gl ] && continue
    echo "FAIL runtime/$stem.c: $s does not begin with gl_$fam or $fam (docs/architecture.md \"Names\")"
    fails=$((fails + 1))
  done
done
if [ "$fails" = 0 ]; then
  echo "ok   prefixes: $n functions of runtime/ named for their files"
  exit 0
fi
echo "$fails function(s) named for no file of theirs; tools/rename_prefixes.sh renames the known ones"
exit 1
