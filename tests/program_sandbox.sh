#!/bin/sh
# A whole program as untrusted code (docs/architecture.md "Whole programs", README
# "Grading untrusted code"): `gpulearn run --sandbox` builds and runs it as grading does.
# Each hostile program in tests/programs/hostile/ must be refused or stopped with a
# message naming what it tried, and exit 1: reading a file of the learner's (an ~/.ssh
# key: Permission denied) or their environment (a token: unset), writing outside its
# folder, starting processes (stopped at the first fork, named), opening a socket
# (stopped, named), writing 10 GB to stdout (stopped at 64 MiB), asking for 64 GiB of
# memory (refused), an #include of a secret at compile time (Permission denied), never
# ending (--timeout). Without --sandbox the learner's own program runs with their rights.
# Time: about 3 s (seven builds with clang).
G=${GPULEARN:?set GPULEARN to the gpulearn binary}
cd "$(dirname "$0")/.." || exit 1
H=tests/programs/hostile
{ command -v clang >/dev/null 2>&1 || ls /usr/bin/clang-1[4-9] >/dev/null 2>&1 ||
  command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; } ||
  { echo "SKIP: neither clang nor nvcc: no whole program compiled"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
fails=0
fail() { echo "FAIL $1"; sed 's/^/  out: /' "$tmp/out" | head -5; sed 's/^/  err: /' "$tmp/err" | head -5; fails=$((fails+1)); }
# a sandbox this kernel can make?
printf 'int main() { return 0; }\n' > "$tmp/ok.cu"
if ! "$G" run --sandbox "$tmp/ok.cu" > "$tmp/out" 2> "$tmp/err"; then
  grep -q "Landlock" "$tmp/err" && { echo "SKIP: no Landlock in this kernel: $(cat "$tmp/err")"; exit 77; }
  fail "a program that does nothing"
fi
mkdir -p "$tmp/home/.ssh"; echo SECRETKEY > "$tmp/home/.ssh/id_rsa"; echo precious > "$tmp/outside.txt"
export GL_TEST_TOKEN=tok123
run() { "$G" run --sandbox "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null; }
has() { grep -qF -- "$2" "$tmp/$1"; }

run $H/steal.cu -- "$tmp/home/.ssh/id_rsa"; rc=$?
{ [ $rc = 1 ] && has out "cannot read $tmp/home/.ssh/id_rsa: Permission denied" && has out "token: (unset)" &&
  ! grep -q SECRETKEY "$tmp/out" "$tmp/err"; } || fail "steal: rc $rc"
run $H/scribble.cu -- "$tmp/outside.txt"; rc=$?
{ [ $rc = 1 ] && has out "own folder: written" && has out "cannot write $tmp/outside.txt: Permission denied" &&
  [ "$(cat "$tmp/outside.txt")" = precious ]; } || fail "scribble: rc $rc"
run $H/forks.cu; rc=$?
{ [ $rc = 1 ] && has out forking && ! has out forked &&
  has err "gpulearn: ./forks called clone (system call" && has err "to start a process (fork, posix_spawn, system): a sandboxed program may not: stopped" &&
  has err "gpulearn: ./forks was stopped by the sandbox"; } || fail "forks: rc $rc"
run $H/socket.cu; rc=$?
{ [ $rc = 1 ] && has out connecting && ! has out "socket " &&
  has err "gpulearn: ./socket called socket (system call" && has err "to open a socket: a sandboxed program has no network: stopped"; } ||
  fail "socket: rc $rc"
run $H/flood.cu; rc=$?
{ [ $rc = 1 ] && [ "$(wc -c < "$tmp/out")" = 67108864 ] &&
  has err "gpulearn: ./flood wrote more than 64 MiB to stdout and stderr (the limit of run --sandbox): stopped"; } ||
  { fail "flood: rc $rc, $(wc -c < "$tmp/out") bytes"; }
case $G in
  */asan/*) echo "SKIP hog: an AddressSanitizer build sets no address-space limit (its shadow memory is one huge mapping)" ;;
  *) run $H/hog.cu; rc=$?
     { [ $rc = 1 ] && has out "malloc of 64 GiB: refused"; } || fail "hog: rc $rc" ;;
esac
printf '#include "%s"\nint main() { return 0; }\n' "$tmp/home/.ssh/id_rsa" > "$tmp/inc.cu"
run "$tmp/inc.cu"; rc=$?
{ [ $rc = 1 ] && has err "Permission denied" && has err "gpulearn: inc.cu does not compile" &&
  ! grep -q SECRETKEY "$tmp/out" "$tmp/err"; } || fail "include of a secret: rc $rc"
printf 'volatile int x;\nint main() { for (;;) x++; }\n' > "$tmp/spin.cu"
run "$tmp/spin.cu" --timeout 1; rc=$?
{ [ $rc = 1 ] && has err "gpulearn: ./spin did not end within 1 s (--timeout): stopped"; } || fail "spin: rc $rc"
# the learner's own program, without --sandbox: their rights, their environment
"$G" run $H/steal.cu -- "$tmp/home/.ssh/id_rsa" > "$tmp/out" 2> "$tmp/err"; rc=$?
{ [ $rc = 0 ] && has out "token: tok123" && has out "read: SECRETKEY"; } || fail "unsandboxed steal: rc $rc"
echo "program_sandbox: $fails failed"
[ $fails = 0 ]
