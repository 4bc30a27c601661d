#!/bin/sh
# Records the goldens of tests/cuda_samples.sh on a machine with an NVIDIA GPU and the
# CUDA Toolkit: each program of tests/programs/cuda-samples/samples.txt built natively
# with nvcc (-arch=native) and run with its arguments; NAME/NAME.stdout and NAME.status
# written beside its sources. Run from the repository root.
NVCC=${NVCC:-nvcc}
D=tests/programs/cuda-samples
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$D/samples.txt" | while IFS=';' read -r name args re skip; do
  name=$(echo $name); [ -n "$name" ] || continue
  srcs=$(ls "$D/$name"/*.cu "$D/$name"/*.cpp 2>/dev/null)
  # shellcheck disable=SC2086
  if ! $NVCC -arch=native -I "$D/Common" -I "$D/$name" -o "$tmp/$name" $srcs 2>"$tmp/$name.err"; then
    echo "$name: nvcc failed"; head -5 "$tmp/$name.err"; continue
  fi
  # shellcheck disable=SC2086
  (cd "$tmp" && "./$name" $args) >"$D/$name/$name.stdout" 2>"$tmp/$name.stderr" </dev/null
  echo $? >"$D/$name/$name.status"
  echo "$name: exit $(cat "$D/$name/$name.status"), $(wc -l <"$D/$name/$name.stdout") lines"
done
