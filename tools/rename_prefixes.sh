#!/bin/sh
# rename_prefixes.sh — names that say where things live (docs/architecture.md "Names"):
# every function a runtime/ file exports begins with its family's prefix, gl_FAM or FAM
# (FAM the file's name before its first '_': compile_cli.c is compile's), as Lua's luaV_
# names lvm.c. Renames the exported functions that did not (and their types where the
# type carried the old name), and sim/ptx/ptx_ir.h to sim/ptx/ptx.h, the IR's public face.
#
# Each `old new` pair below is applied with a word-boundary sed to every *.c *.h *.sh *.md
# file git tracks (code, tests, docs alike), then `make format` (clang-format) re-wraps
# the lines that grew. Idempotent: run it again on a tree that already has the new names
# and it changes nothing; run it after merging branches that still use old names and it
# renames theirs too. tests/prefixes.sh checks the rule afterwards.
#
# Usage: tools/rename_prefixes.sh   (from anywhere in the repository; needs git, perl)
set -eu
cd "$(dirname "$0")/.."

# sim/ptx/ptx_ir.h is the IR's declared public face: sim/ptx/ptx.h
if [ -f sim/ptx/ptx_ir.h ]; then
  git mv sim/ptx/ptx_ir.h sim/ptx/ptx.h
fi

PAIRS='
ptx_ir.h                ptx.h
GL_PTX_IR_H             GL_PTX_H

gl_ptx_check_features   gl_arch_check_ptx_features
gl_ptx_target_sm        gl_arch_ptx_target_sm
gl_roof_name            gl_arch_roof_name

gl_csv_field            gl_gradebook_csv_field
gl_utc_format           gl_gradebook_utc_format
gl_utc_parse            gl_gradebook_utc_parse

gl_sha256               gl_cache_sha256
gl_sha256_field         gl_cache_sha256_field
gl_sha256_file_id       gl_cache_sha256_file_id
gl_sha256_hex           gl_cache_sha256_hex
gl_sha256_init          gl_cache_sha256_init
gl_sha256_update        gl_cache_sha256_update

gl_msg_in               gl_child_msg
gl_msg_in_free          gl_child_msg_free
gl_msg_in_take          gl_child_msg_take
gl_msg_recv             gl_child_recv
gl_msg_recv_header      gl_child_recv_header
gl_msg_recv_payload     gl_child_recv_payload
gl_msg_send             gl_child_send
gl_msg_send_header      gl_child_send_header

gl_count_changed        gl_compare_count_changed
gl_work_of              gl_compare_work_of
gl_work_same            gl_compare_work_same

gl_find_clang           gl_compile_find_clang
gl_find_nvcc            gl_compile_find_nvcc
gl_find_prelude         gl_compile_find_prelude
gl_find_ptxas           gl_compile_find_ptxas
gl_prelude_include_dir  gl_compile_prelude_dir

gl_regs_of              gl_cubin_regs_of
gl_library_line         gl_cublas_library_line

gl_frag_format          gl_fragments_format
gl_frag_is_tensor       gl_fragments_is_tensor
gl_frag_values          gl_fragments_values
gl_frags_free           gl_fragments_free
gl_frags_of             gl_fragments_of

gl_itrace_bytes         gl_instrument_trace_bytes
gl_itrace_decode        gl_instrument_trace_decode
gl_itrace_init          gl_instrument_trace_init

gl_diag_severity_name   gl_result_severity_name

gl_backend_name         gl_run_backend_name
gl_device_query         gl_run_device_query
gl_memory_limit_default gl_run_memory_limit_default
gl_occupancy_describe   gl_run_occupancy_describe
gl_occupancy_of         gl_run_occupancy_of
gl_params_fit           gl_run_params_fit
gl_ptx_kernels          gl_run_ptx_kernels
gl_ptx_kernels_free     gl_run_ptx_kernels_free
gl_resolve_kernel       gl_run_resolve_kernel
gl_scalar_bytes         gl_run_scalar_bytes
gl_sim_threads_parse    gl_run_sim_threads_parse
gl_sim_tier_parse       gl_run_sim_tier_parse
gl_timing_rates         gl_run_timing_rates

gl_type_is_float        spec_type_is_float
gl_type_is_signed       spec_type_is_signed
gl_type_name            spec_type_name
gl_type_size            spec_type_size
gl_buffer_get           spec_buffer_get
gl_json_write_result    spec_json_write_result
gl_json_write_value     spec_json_write_value
gl_random_fill          spec_random_fill
gl_random_fill_init     spec_random_fill_init

gl_time_stats_of        gl_worker_time_stats_of

progress_last_lesson    workspace_last_lesson
progress_load           workspace_progress_load
progress_mark_passed    workspace_mark_passed
progress_mark_step      workspace_mark_step
'

# one perl program: every pair as s/\bOLD\b/NEW/g (OLD quoted: ptx_ir.h's dot)
prog=$(printf '%s\n' "$PAIRS" | awk 'NF == 2 { printf "s/\\b\\Q%s\\E\\b/%s/g;\n", $1, $2 }')
files=$(git ls-files '*.c' '*.h' '*.sh' '*.md' | grep -v '^tools/rename_prefixes\.sh$')
# shellcheck disable=SC2086
printf '%s\n' $files | xargs perl -pi -e "$prog"

make --no-print-directory format >/dev/null
echo "rename_prefixes: $(printf '%s\n' "$PAIRS" | awk 'NF == 2' | wc -l) names applied"
