/* cmd_run.c — `gpulearn run SPEC.json`: compile, run, print or dump the buffers.
 * Options of its own: --time [--reps N] [--warmup N] (kernel time on the GPU:
 * median and spread, bandwidth against the theoretical peak, FLOP/s), --timeout SECONDS
 * (the GPU worker's kernel time limit, default 10), --trace-json FILE (the simulator's
 * trace as Chrome Trace Event JSON for Perfetto), --memory-limit SIZE (the simulator's
 * memory budget, default half the memory available), --debug (the debug build grading
 * runs its memory checks on: -G with NVRTC and nvcc, -O0 with clang). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "runtime/cublas.h"
#include "trace/analysis.h"
#include "trace/perfetto.h"

/* One element for people: exact like the JSON dump, but 160.0 rather than 1.6e+02 for
 * floats whose exponent is small. */
static void print_value(gl_type t, gl_value v)
{
    char buf[64];
    FILE *m = fmemopen(buf, sizeof buf, "w");
    if (!m)
        return;
    spec_json_write_value(m, t, v);
    long n = ftell(m);
    fclose(m);
    buf[n < 0 ? 0 : n < (long)sizeof buf ? n : (long)sizeof buf - 1] = '\0';
    const char *e = strchr(buf, 'e');
    if (spec_type_is_float(t) && e && buf[0] != '"') {
        int exp = atoi(e + 1), digits = 0;
        for (const char *p = buf; p < e; p++)
            digits += *p >= '0' && *p <= '9';
        if (exp >= -4 && exp < 16) {
            int decimals = digits - 1 - exp;
            printf("%.*f%s", decimals > 0 ? decimals : 0, v.f, decimals > 0 ? "" : ".0");
            return;
        }
    }
    if (buf[0] == '"') /* "nan", "inf", "-inf": quoted in JSON only */
        printf("%.*s", (int)strlen(buf) - 2, buf + 1);
    else
        fputs(buf, stdout);
}

/* A short human-readable preview of a buffer: its first and last elements. */
static void print_buffer(const gl_arg *a, const gl_buffer *b)
{
    printf("%s (%s[%zu]):", a->name, spec_type_name(a->type), a->len);
    size_t show = a->len <= 16 ? a->len : 8;
    for (size_t i = 0; i < show; i++) {
        putchar(' ');
        print_value(a->type, spec_buffer_get(b->data, a->type, i));
    }
    if (show < a->len) {
        printf(" ...");
        for (size_t i = a->len - 4; i < a->len; i++) {
            putchar(' ');
            print_value(a->type, spec_buffer_get(b->data, a->type, i));
        }
    }
    putchar('\n');
}

static int write_dump(const char *path, const gl_spec *spec, const gl_run_result *res)
{
    gl_error err = {0};
    if (strcmp(path, "-") == 0) {
        spec_json_write_result(stdout, spec, res->buffers, res->stdout_text, &err);
        return 0;
    }
    char *data = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&data, &len);
    if (!mem)
        return cli_die(GL_ERR_NOMEM, "out of memory");
    spec_json_write_result(mem, spec, res->buffers, res->stdout_text, &err);
    fclose(mem);
    gl_status st = gl_write_file_atomic(path, data, len, &err);
    free(data);
    return st == GL_OK ? 0 : cli_die(st, err.msg);
}

/* Options of `run` only, taken out of argv before cli_parse_args sees it:
 * --time, --reps N, --warmup N, --timeout SECONDS, --debug. */
typedef struct run_extra {
    int time, reps, warmup;
    int debug; /* --debug: compile the debug build (gl_compile_opts.debug) */
    double timeout_s;
    const char *trace_json;   /* --trace-json FILE */
    const char *metrics_json; /* --metrics-json FILE */
    int schedule_random;      /* --schedule random:SEED */
    uint64_t schedule_seed;
    uint64_t memory_limit; /* --memory-limit SIZE, bytes; 0: the default */
} run_extra;

static int parse_count(const char *opt, const char *val, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(val, &end, 10);
    if (!*val || *end || v < lo || v > hi) {
        fprintf(stderr,
                "gpulearn: %s must be a whole number from %d to %d, not '%s'\n"
                "(gpulearn --help shows the usage)\n",
                opt, lo, hi, val);
        return 2;
    }
    *out = (int)v;
    return 0;
}

/* Removes run's own options from argv (compacting it); returns 0 or the exit code 2. */
static int take_run_options(int *argc, char **argv, run_extra *x)
{
    int n = 0, rc = 0;
    x->reps = 20;
    x->warmup = 1;
    for (int i = 0; i < *argc && !rc; i++) {
        const char *a = argv[i];
        int takes = strcmp(a, "--reps") == 0 || strcmp(a, "--warmup") == 0 ||
                    strcmp(a, "--timeout") == 0 || strcmp(a, "--trace-json") == 0 ||
                    strcmp(a, "--metrics-json") == 0 || strcmp(a, "--schedule") == 0 ||
                    strcmp(a, "--memory-limit") == 0;
        if (takes && i + 1 >= *argc)
            return cli_usage_error("%s needs a value", a);
        if (strcmp(a, "--time") == 0) {
            x->time = 1;
        } else if (strcmp(a, "--debug") == 0) {
            x->debug = 1;
        } else if (strcmp(a, "--reps") == 0) {
            rc = parse_count(a, argv[++i], 1, 100000, &x->reps);
        } else if (strcmp(a, "--warmup") == 0) {
            rc = parse_count(a, argv[++i], 0, 100000, &x->warmup);
        } else if (strcmp(a, "--trace-json") == 0) {
            x->trace_json = argv[++i];
        } else if (strcmp(a, "--metrics-json") == 0) {
            x->metrics_json = argv[++i];
        } else if (strcmp(a, "--schedule") == 0) {
            const char *v = argv[++i];
            char *end = NULL;
            if (strcmp(v, "deterministic") == 0) {
                x->schedule_random = 0;
            } else if (strncmp(v, "random:", 7) == 0 && v[7] &&
                       (x->schedule_seed = strtoull(v + 7, &end, 10), *end == '\0')) {
                x->schedule_random = 1;
            } else {
                return cli_usage_error("--schedule must be deterministic or random:SEED (a "
                                       "whole number), not '%s'",
                                       v);
            }
        } else if (strcmp(a, "--memory-limit") == 0) {
            if (gl_parse_bytes(argv[++i], &x->memory_limit) != 0 || x->memory_limit < (1u << 20))
                return cli_usage_error("--memory-limit must be a size of at least 1 MiB (e.g. "
                                       "512M, 2G), not '%s'",
                                       argv[i]);
        } else if (strcmp(a, "--timeout") == 0) {
            const char *v = argv[++i];
            char *end;
            double t = strtod(v, &end);
            if (!*v || *end || !(t > 0 && t <= 86400))
                return cli_usage_error("--timeout must be a number of seconds (> 0), not '%s'", v);
            x->timeout_s = t;
        } else {
            argv[n++] = argv[i];
        }
    }
    *argc = n;
    return rc;
}

/* gl_perfetto_write's status as the run's status (exit code 1 or 2), message in err. */
static gl_status perfetto_status(gl_perfetto_status ps, gl_error *err)
{
    if (ps == GL_PERFETTO_OK)
        return GL_OK;
    return gl_fail(err, ps == GL_PERFETTO_NOMEM ? GL_ERR_NOMEM : GL_ERR_INPUT, "%s",
                   gl_perfetto_message(ps));
}

/* Writes the run's trace as Chrome Trace Event JSON to path ("-": stdout). */
static int write_trace_json(const char *path, const gl_run_result *res)
{
    gl_error err = {0};
    if (!res->trace)
        return cli_die(GL_ERR_INPUT, "--trace-json: this run recorded no trace");
    if (strcmp(path, "-") == 0) {
        gl_status st = perfetto_status(gl_perfetto_write(stdout, res->trace, NULL), &err);
        return st == GL_OK ? 0 : cli_die(st, err.msg);
    }
    char *data = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&data, &len);
    if (!mem)
        return cli_die(GL_ERR_NOMEM, "out of memory");
    gl_perfetto_status ps = gl_perfetto_write(mem, res->trace, NULL);
    if (fclose(mem) != 0 && ps == GL_PERFETTO_OK)
        ps = GL_PERFETTO_NOMEM;
    gl_status st = perfetto_status(ps, &err);
    if (st == GL_OK)
        st = gl_write_file_atomic(path, data, len, &err);
    free(data);
    return st == GL_OK ? 0 : cli_die(st, err.msg);
}

/* Writes the run's metrics (Nsight Compute names, trace/analysis.h) to path. */
static int write_metrics_json(const char *path, const gl_run_result *res)
{
    if (!res->metrics)
        return cli_die(GL_ERR_INPUT, "--metrics-json: this run computed no metrics");
    if (strcmp(path, "-") == 0)
        return gl_metrics_write_json(res->metrics, stdout) == 0
                   ? 0
                   : cli_die(GL_ERR_NOMEM, "--metrics-json: cannot write the metrics");
    char *data = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&data, &len);
    if (!mem)
        return cli_die(GL_ERR_NOMEM, "out of memory");
    int wr = gl_metrics_write_json(res->metrics, mem);
    fclose(mem);
    gl_error err = {0};
    gl_status st = wr == 0 ? gl_write_file_atomic(path, data, len, &err)
                           : gl_fail(&err, GL_ERR_NOMEM, "--metrics-json: cannot write");
    free(data);
    return st == GL_OK ? 0 : cli_die(st, err.msg);
}

/* The checkers' findings (races, reads of unwritten memory, barrier misuse), like
 * compute-sanitizer: "gpulearn: error: ..." / "gpulearn: warning: ...". */
static void print_findings(const gl_run_result *res)
{
    for (int i = 0; i < res->nfindings; i++) {
        const gl_finding *f = &res->findings[i];
        if (f->kind == GL_FIND_OUT_OF_BOUNDS || f->kind == GL_FIND_MISALIGNED ||
            f->kind == GL_FIND_DEADLOCK || f->kind == GL_FIND_STEP_LIMIT ||
            f->kind == GL_FIND_OTHER)
            continue; /* the fault that ended the launch: reported as the run's error */
        fprintf(stderr, "gpulearn: %s: ", f->is_error ? "error" : "warning");
        gl_fputs_term(stderr, f->message, 0);
        if (f->count > 1)
            fprintf(stderr, " (%llu times)", (unsigned long long)f->count);
        fputc('\n', stderr);
    }
    if (res->findings_dropped)
        fprintf(stderr, "gpulearn: %d more findings not shown\n", res->findings_dropped);
}

/* The kernel's printf output on stdout: on a terminal escaped (gl_escape_term: lines and
 * tabs kept, no escape sequence gets through), elsewhere the bytes as printed. */
static void put_printf(const char *text)
{
    if (isatty(STDOUT_FILENO))
        gl_fputs_term(stdout, text, GL_ESC_LINES);
    else
        fputs(text, stdout);
}

/* The --time report: median and spread, bandwidth against the peak, FLOP/s. */
static void print_timing(FILE *f, const gl_timing *t)
{
    fprintf(f,
            "time: median %.4g ms (min %.4g, max %.4g; middle half %.4g to %.4g ms) over "
            "%d run%s after %d warm-up%s\n",
            t->median_ms, t->min_ms, t->max_ms, t->q1_ms, t->q3_ms, t->reps,
            t->reps == 1 ? "" : "s", t->warmup, t->warmup == 1 ? "" : "s");
    fprintf(f, "bandwidth: %.1f GB/s for %.0f bytes%s", t->gbs, t->bytes_moved,
            t->bytes_estimated ? " (estimated: the buffers' total size; declare "
                                 "\"bytes_moved\" in the spec)"
                               : " (declared in the spec)");
    if (t->peak_gbs > 0)
        fprintf(f, ", %.1f%% of the %s's theoretical %.0f GB/s\n", t->pct_of_peak,
                t->device[0] ? t->device : "GPU", t->peak_gbs);
    else
        fprintf(f, " (the GPU's theoretical bandwidth is unknown)\n");
    if (t->flops > 0)
        fprintf(f, "compute: %.2f GFLOP/s for %.0f floating-point operations\n", t->gflops,
                t->flops);
}

int cmd_run(int argc, char **argv)
{
    if (cmd_run_is_program(argc, argv))
        return cmd_run_program(argc, argv);
    cli c = {0};
    run_extra x = {0};
    int rc = take_run_options(&argc, argv, &x);
    if (rc)
        return rc;
    rc = cli_parse_args(
        argc, argv, &c,
        "--backend --dump-json --compiler --arch --sim-tier --sim-threads --verbose");
    if (rc)
        return rc;
    if (x.time && c.backend == GL_BACKEND_SIM)
        return cli_usage_error("--time needs a GPU: the simulator's speed says nothing "
                               "about a GPU's (drop --backend sim)%s",
                               "");
    if (c.npos != 1)
        return cli_usage_error("run needs exactly one launch spec (gpulearn run SPEC.json)%s", "");
    gl_spec spec;
    gl_error err = {0};
    gl_status st = spec_load_file(c.pos[0], &spec, &err);
    if (st != GL_OK)
        return cli_die(st, err.msg);
    /* an output must not overwrite an input of the same run */
    const char *outs[3] = {c.dump_json, x.trace_json, x.metrics_json};
    const char *const names[3] = {"--dump-json", "--trace-json", "--metrics-json"};
    for (int i = 0; i < 3; i++) {
        if (!outs[i] || strcmp(outs[i], "-") == 0)
            continue;
        const char *input = gl_same_file(outs[i], c.pos[0])      ? c.pos[0]
                            : gl_same_file(outs[i], spec.source) ? spec.source
                                                                 : NULL;
        if (input) {
            char what[PATH_MAX * 2 + 64];
            snprintf(what, sizeof what, "%s %s would overwrite the run's input %s", names[i],
                     outs[i], input);
            spec_free(&spec);
            return cli_usage_error("%s: write the output elsewhere", what);
        }
    }
    gl_run_opts opts = {.backend = c.backend,
                        .compile = {.compiler = c.compiler,
                                    .verbose = c.verbose,
                                    .debug = x.debug,
                                    .arch = c.arch,
                                    .arch_origin = c.arch ? "--arch" : NULL},
                        .timeout_s = x.timeout_s,
                        .memory_limit = x.memory_limit,
                        .memory_limit_origin = x.memory_limit ? "--memory-limit" : NULL,
                        .time_reps = x.time ? x.reps : 0,
                        .time_warmup = x.warmup};
    if (x.trace_json)
        opts.trace_level = TRACE_ISSUE;
    opts.metrics = x.metrics_json != NULL;
    /* On the GPU, traces and metrics come from an instrumented second launch
     * (runtime/instrument.h): memory requests and block start/end. */
    opts.gpu_trace = x.trace_json != NULL || x.metrics_json != NULL;
    opts.schedule_random = x.schedule_random;
    opts.schedule_seed = x.schedule_seed;
    gl_run_result res;
    st = gl_run_spec(&spec, &opts, &res, &err);
    if (res.compile_log) { /* the compiler's warnings, quoting the source: escaped */
        gl_fputs_term(stderr, res.compile_log, GL_ESC_LINES);
        if (res.compile_log[strlen(res.compile_log) - 1] != '\n')
            fputc('\n', stderr);
    }
    if (res.note[0]) {
        fputs("gpulearn: ", stderr);
        gl_fputs_term(stderr, res.note, 0);
        fputc('\n', stderr);
    }
    int dumped = c.dump_json && strcmp(c.dump_json, "-") == 0;
    if (res.fault.kind == GL_FAULT_GPU) {
        /* The GPU's buffers are lost with its context: show only the printf output. */
        if (!dumped && res.stdout_text && *res.stdout_text)
            put_printf(res.stdout_text);
    } else if (res.buffers && (st == GL_OK || st == GL_ERR_FAULT)) {
        if (c.dump_json)
            rc = write_dump(c.dump_json, &spec, &res);
        if (!dumped) {
            printf("%s<<<(%u,%u,%u), (%u,%u,%u)>>> ran on the %s (compiled with %s%s)\n",
                   spec.kernel, spec.grid[0], spec.grid[1], spec.grid[2], spec.block[0],
                   spec.block[1], spec.block[2],
                   res.backend == GL_BACKEND_GPU ? "GPU" : "simulator",
                   gl_compiler_name(res.compiler), res.cached ? ", cached" : "");
            if (res.stdout_text && *res.stdout_text)
                put_printf(res.stdout_text);
            for (int i = 0; i < spec.nargs; i++)
                if (spec.args[i].is_ptr)
                    print_buffer(&spec.args[i], &res.buffers[i]);
        }
    }
    if (x.trace_json && res.trace && (st == GL_OK || st == GL_ERR_FAULT)) {
        int trc = write_trace_json(x.trace_json, &res);
        if (trc && !rc)
            rc = trc;
    }
    if (x.metrics_json && res.metrics && (st == GL_OK || st == GL_ERR_FAULT)) {
        int mrc = write_metrics_json(x.metrics_json, &res);
        if (mrc && !rc)
            rc = mrc;
    }
    if (c.verbose && res.occupancy.valid) { /* the Result's occupancy line, registers too */
        char line[512];
        gl_run_occupancy_describe(&res.occupancy, res.backend == GL_BACKEND_SIM, line, sizeof line);
        fprintf(stderr, "gpulearn: %s\n", line);
    }
    if (c.verbose && res.block_threads) /* 1: on one thread, or again on one after a halt */
        fprintf(stderr, "gpulearn: the simulator ran the blocks on %u thread%s\n",
                res.block_threads, res.block_threads > 1 ? "s" : "");
    print_findings(&res);
    if (st == GL_OK && res.nerrors > 0 && !rc)
        rc = 1;                             /* completed, but wrong: a race is an error */
    if (st == GL_OK && res.timing.reps > 0) /* with --dump-json -, stdout is the JSON */
        print_timing(dumped ? stderr : stdout, &res.timing);
    if (st == GL_OK && res.timing.library.asked) { /* "reference_library" */
        char line[400];
        gl_cublas_library_line(&res.timing.library, res.timing.gflops, res.timing.gbs, line,
                               sizeof line);
        fprintf(dumped ? stderr : stdout, "%s\n", line);
    }
    if (st != GL_OK)
        rc = cli_die(st, err.msg);
    gl_run_result_free_trace(&res); /* idempotent: safe if gl_run_result_free does it too */
    gl_run_result_free(&res);
    spec_free(&spec);
    return rc;
}
