/* spec.h — launch specs (README "Launch specs") and their host buffers. */
#ifndef GL_SPEC_H
#define GL_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runtime/gl.h"

struct cJSON;

/* Element types of arguments: i8 u8 i16 u16 i32 u32 i64 u64 f32 f64. */
typedef enum gl_type {
    GL_I8,
    GL_U8,
    GL_I16,
    GL_U16,
    GL_I32,
    GL_U32,
    GL_I64,
    GL_U64,
    GL_F32,
    GL_F64,
} gl_type;

/* Size of one element in bytes; its spelling ("f32"). */
size_t spec_type_size(gl_type t);
const char *spec_type_name(gl_type t);
bool spec_type_is_float(gl_type t);
bool spec_type_is_signed(gl_type t);

/* A scalar value of any gl_type, exactly: integers as 64-bit, floats as double
 * (an f32 value is exactly representable as a double). Signed types use .i, unsigned
 * types .u, f32/f64 .f. */
typedef union gl_value {
    int64_t i;
    uint64_t u;
    double f;
} gl_value;

typedef enum gl_init_kind {
    GL_INIT_ZERO,
    GL_INIT_VALUES,
    GL_INIT_FILL,
    GL_INIT_IOTA,
    GL_INIT_RANDOM
} gl_init_kind;

/* How a "random" init draws its values (its "class"; spec_rng.c states each exactly):
 * uniform in [a, b] (the default, spec_random_fill); full_range: every magnitude of [a, b]
 * (integers uniform with the extremes mixed in; floats spread over every binade, with
 * zeros, the extremes and, if asked, infinities and NaN); bit_ranges: integer keys that
 * differ only within one byte, or only in the top bit, in each part of the buffer. */
typedef enum gl_random_class {
    GL_RANDOM_UNIFORM,
    GL_RANDOM_FULL_RANGE,
    GL_RANDOM_BIT_RANGES,
} gl_random_class;

/* How a pointer argument's buffer starts out. values: `count` values (the rest of the
 * buffer is zero; count > len is an error). fill: every element = a. iota: element i =
 * a + i*b (for integer types b is .i, possibly negative; for floats computed in double,
 * then rounded). random: seed, inclusive range [a, b], drawn by its class
 * (spec_random_fill_init). */
typedef struct gl_init {
    gl_init_kind kind;
    gl_value a, b;
    uint64_t seed;
    gl_random_class rclass; /* random: how values are drawn */
    double quantum;         /* random full_range of floats: every value a multiple of it (a
                               power of two), 0 = none (down to the smallest denormal) */
    bool nonfinite;         /* random full_range of floats: infinities and NaN mixed in */
    gl_value *values;
    size_t count;
} gl_init;

/* One kernel argument: a pointer (a buffer of len elements) or a scalar (value). */
typedef struct gl_arg {
    char *name;
    gl_type type;
    bool is_ptr;
    size_t len;        /* elements, pointers only (> 0) */
    size_t rows, cols; /* optional "shape": [rows, cols], a row-major matrix of
                          rows * cols = len elements, for the views; 0, 0 when none */
    gl_init init;      /* pointers only */
    gl_value value;    /* scalars only */
} gl_arg;

/* A launch spec. Paths are resolved: source is relative to the spec's folder. */
/* A CUB device-wide routine on 32-bit ints (runtime/cub.h). */
typedef enum gl_cub_op {
    GL_CUB_NONE,
    GL_CUB_REDUCE_SUM,    /* cub::DeviceReduce::Sum */
    GL_CUB_EXCLUSIVE_SUM, /* cub::DeviceScan::ExclusiveSum */
} gl_cub_op;

typedef struct gl_spec {
    char *file;   /* the spec's path as given (for messages), or "<lesson>.json" */
    char *source; /* path of the .cu file, resolved against the spec's folder */
    char *kernel; /* kernel name (extern "C" or mangled) */
    unsigned grid[3], block[3];
    unsigned dynamic_shared_bytes;
    char arch[16];       /* optional "arch": the target ("sm_80", one the simulator models;
                      runtime/arch.h), "" when absent */
    unsigned cluster[3]; /* optional "cluster": CTAs per thread block cluster in x, y, z
                            (cudaLaunchKernelEx's cluster dimension attribute, sm_90);
                            0s when absent */
    gl_arg *args;
    int nargs;
    /* Timing (`gpulearn run --time`): optional top-level "bytes_moved" and
     * "flops", numbers or expressions in the vars; 0 when not declared. */
    double bytes_moved; /* bytes one launch reads and writes in global memory */
    double flops;       /* floating-point operations of one launch */
    /* "reference_library": {"sgemm": [M, N, K]}: on a GPU, cuBLAS's SGEMM of those sizes
     * runs beside the kernel (runtime/cublas.h); all 0 when not declared.
     * {"gemm_f16": [M, N, K]}: the same FP32 matrices, multiplied on the tensor cores in
     * FP16 (ref_gemm_f16 = 1), beside a tensor-core kernel that stages FP32 inputs as half */
    int64_t ref_sgemm[3];
    int ref_gemm_f16;
    /* "reference_library": {"cub_reduce_sum": [n]} or {"cub_exclusive_sum": [n]}: on a
     * GPU, CUB's device-wide routine on n ints runs beside the kernel (runtime/cub.h) */
    gl_cub_op ref_cub; /* GL_CUB_NONE when not declared */
    int64_t ref_cub_n; /* ints */
} gl_spec;

/* Variables a spec's numbers may be written in terms of (lesson exercises use "n"):
 * a numeric field may then be a string expression such as "n", "n*n" or
 * "(n + 255) / 256" (integer + - * / % and parentheses). */
typedef struct gl_vars {
    const char *names[4];
    int64_t values[4];
    int count;
} gl_vars;

/* Loads and validates a spec file. On error returns GL_ERR_INPUT (or GL_ERR_LAUNCH for
 * an illegal launch configuration) with err->msg naming the file and field, e.g.
 * "k.json: args[2].len: must be > 0". */
gl_status spec_load_file(const char *path, gl_spec *out, gl_error *err);

/* Same, from parsed JSON. file: name for messages; base_dir: folder `source` is
 * relative to; vars may be NULL. */
gl_status spec_from_json(const struct cJSON *json, const char *file, const char *base_dir,
                         const gl_vars *vars, gl_spec *out, gl_error *err);
void spec_free(gl_spec *s);

/* Evaluates an integer expression over vars, in the syntax of a spec's numbers
 * ("16 * n * (n + 1)"): true with the value in *out, or false with why in msg (msglen
 * bytes): a syntax error, 64-bit overflow, division by zero or an unknown variable. */
bool spec_eval(const char *expr, const gl_vars *vars, int64_t *out, char *msg, size_t msglen);

/* Index of the argument called name, or -1. */
int spec_find_arg(const gl_spec *s, const char *name);

/* Host copy of every pointer argument's buffer, in argument order (scalars have
 * data == NULL, and so do spec_buffers_sized's buffers until a run fills them). */
typedef struct gl_buffer {
    void *data;
    size_t bytes;
} gl_buffer;

/* Allocates and initialises buffers[nargs] per each argument's init. Caller frees with
 * spec_buffers_free. GL_ERR_NOMEM on failure; GL_ERR_INPUT when they would take more
 * than GL_DEVICE_MEMORY_CAP (or a quarter of this machine's memory). */
gl_status spec_buffers_new(const gl_spec *s, gl_buffer **out, gl_error *err);
/* spec_buffers_new's checks and array, each pointer argument's buffer with its bytes
 * but no data yet (data == NULL): for a back end that writes the initial contents
 * straight into its own memory with spec_buffer_fill (gl_run_sim) and hands the
 * results over into data. */
gl_status spec_buffers_sized(const gl_spec *s, gl_buffer **out, gl_error *err);
/* Writes pointer argument a's initial contents (its init; zeros where none) into dst:
 * every one of its a->len elements, a->len * spec_type_size(a->type) bytes. */
void spec_buffer_fill(const gl_arg *a, void *dst);

/* The most bytes a launch's buffers may take in all: 16 GiB (a modest GPU's memory), or a
 * quarter of this machine's memory if that is less. spec_buffers_new and
 * spec_buffers_sized refuse more with GL_ERR_INPUT, before allocating anything (the
 * buffers live in the simulator's memory, or in host memory and the GPU's). */
#define GL_DEVICE_MEMORY_CAP ((uint64_t)16 << 30)
void spec_buffers_free(gl_buffer *b, int nargs);

/* The documented generator behind "random": splitmix64 from seed; integers uniform in
 * [min, max] inclusive, floats min + (max - min) * u with u in [0, 1). Identical on every
 * back end because buffers are filled on the host. */
void spec_random_fill(void *dst, gl_type t, size_t len, uint64_t seed, gl_value min, gl_value max);
/* The values of a "random" init of any class (in->rclass: uniform is spec_random_fill;
 * full_range and bit_ranges as spec_rng.c documents them), len elements of type t. */
void spec_random_fill_init(void *dst, gl_type t, size_t len, const gl_init *in);

/* Element i of a buffer of type t as a gl_value. */
gl_value spec_buffer_get(const void *data, gl_type t, size_t i);

/* Writes one value exactly as JSON: integers as integers (64-bit too), floats in the
 * shortest round-trip form with a '.' or exponent ("-0.0", "0.1", "1e+30"); NaN and
 * infinities as the strings "nan", "inf", "-inf". */
void spec_json_write_value(FILE *f, gl_type t, gl_value v);

/* Writes {"buffers": {"<ptr arg>": [...]}, "stdout": "..."} (README "Command line",
 * --dump-json). */
gl_status spec_json_write_result(FILE *f, const gl_spec *s, const gl_buffer *buffers,
                                 const char *stdout_text, gl_error *err);

#endif
