/* cmd_program.c — `gpulearn run PROG.cu [MORE.cu|MORE.cpp ...] [-I DIR] [-D NAME[=V]]
 * [--backend auto|sim|gpu] [--arch TARGET] [--compiler auto|clang|nvcc]
 * [--schedule random:SEED] [--timeout SECONDS] [--trace-json FILE] [--metrics-json FILE]
 * [--sandbox] [--verbose] [-- ARGS...]`, and `gpulearn PROG.cu ...` (the TUI on it): a whole
 * CUDA program compiled against gpulearn's CUDA runtime and run with its kernels on the
 * simulator (runtime/program.h), or with --backend gpu built by nvcc as usual and run on
 * the GPU. Exits with the program's status; gpulearn's own messages go to stderr,
 * prefixed "gpulearn:". The learner's own program runs as `nvcc prog.cu && ./prog` would:
 * with their rights and their terminal, its output unlimited. --sandbox runs it as
 * grading does (program_sandbox.c): built and run confined, its output passed on up to
 * GL_PROGRAM_OUTPUT_RUN, stopped after --timeout or GL_PROGRAM_CPU_S. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "runtime/arch.h"
#include "runtime/program.h"
#include "tui/tui.h"

static int is_source(const char *s)
{
    static const char *const ext[] = {".cu", ".cpp", ".cc", ".cxx", ".c"};
    size_t n = strlen(s);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t k = strlen(ext[i]);
        if (n > k && strcmp(s + n - k, ext[i]) == 0)
            return 1;
    }
    return 0;
}

/* Whether `run`'s option o takes the next argument as its value. */
static int takes_value(const char *o)
{
    static const char *const opts[] = {"-I",           "-D",
                                       "--backend",    "--dump-json",
                                       "--compiler",   "--arch",
                                       "--sim-tier",   "--reps",
                                       "--warmup",     "--timeout",
                                       "--schedule",   "--metrics-json",
                                       "--trace-json", "--memory-limit"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (strcmp(o, opts[i]) == 0)
            return 1;
    return 0;
}

/* `run --sandbox`: the program in the sandbox, its output passed on up to the limit;
 * its exit status, or -1 when it could not start (err set). */
static int run_sandboxed(const char *exe, char *const *args, const char *arch, const char *schedule,
                         double timeout, const char *dir, gl_error *err)
{
    const gl_program_exec_opts eo = {.arch = arch,
                                     .schedule = schedule,
                                     .timeout_s = timeout > 0 ? timeout : GL_PROGRAM_CPU_S,
                                     .timeout_origin =
                                         timeout > 0 ? "--timeout" : "the sandbox's limit",
                                     .sandbox = 1,
                                     .dir = dir,
                                     .output_limit = GL_PROGRAM_OUTPUT_RUN,
                                     .output_origin = "the limit of run --sandbox"};
    gl_program_result res;
    if (gl_program_exec(exe, args, &eo, &res, err) != 0)
        return -1;
    if (res.why[0])
        fprintf(stderr, "gpulearn: %s\n", res.why);
    const int status = res.status;
    gl_program_result_free(&res);
    return status;
}

int cmd_run_is_program(int argc, char **argv)
{
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
        size_t n = strlen(argv[i]);
        if (argv[i][0] == '-') {
            i += takes_value(argv[i]); /* an option's value is no input */
            continue;
        }
        if (n > 3 && strcmp(argv[i] + n - 3, ".cu") == 0)
            return 1;
    }
    return 0;
}

/* --trace-json / --metrics-json: the run's records (recs) and its launches' files
 * (traces) assembled into the files asked for. 0, or an exit code with a message. */
static int write_outputs(const char *recs, const char *exe, const char *traces, const char *program,
                         const char *trace_json, const char *metrics_json)
{
    gl_prog_records r;
    gl_error err = {0};
    gl_status st = gl_program_records_read(recs, exe, &r, &err);
    if (st != GL_OK)
        return cli_die(st, err.msg);
    const char *outs[2] = {trace_json, metrics_json};
    for (int k = 0; k < 2 && st == GL_OK; k++) {
        if (!outs[k])
            continue;
        FILE *f = fopen(outs[k], "w");
        if (!f) {
            st = gl_fail(&err, GL_ERR_INPUT, "%s: %s", outs[k], strerror(errno));
            break;
        }
        st = k == 0 ? gl_program_write_trace(&r, traces, program, f, &err)
                    : gl_program_write_metrics(&r, traces, program, f, &err);
        if (fclose(f) != 0 && st == GL_OK)
            st = gl_fail(&err, GL_ERR_INPUT, "%s: %s", outs[k], strerror(errno));
    }
    gl_program_records_free(&r);
    return st == GL_OK ? 0 : cli_die(st, err.msg);
}

/* `run PROG.cu ...` (tui 0), or `gpulearn PROG.cu ...` (tui 1): the TUI on the program,
 * which takes its sources, -I, -D, --arch, --compiler and its arguments. */
static int program(int argc, char **argv, int tui)
{
    const char **srcs = calloc((size_t)argc + 1, sizeof *srcs);
    const char **flags = calloc((size_t)argc * 2 + 1, sizeof *flags);
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!srcs || !flags || !args) {
        free(srcs), free(flags), free(args);
        return cli_die(GL_ERR_NOMEM, "out of memory");
    }
    int nsrc = 0, nflag = 0, nargs = 1, verbose = 0, rc = 0;
    char argv0[PATH_MAX];
    const char *arch = NULL, *schedule = NULL, *trace_json = NULL, *metrics_json = NULL;
    double timeout = 0;
    gl_compiler compiler = GL_CC_AUTO;
    int native = 0, sandbox = 0;
    char archbuf[16];
    for (int i = 0; i < argc && !rc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--") == 0) {
            for (i++; i < argc; i++)
                args[nargs++] = argv[i];
        } else if ((strcmp(a, "-I") == 0 || strcmp(a, "-D") == 0) && val) {
            flags[nflag++] = a, flags[nflag++] = val, i++;
        } else if (strncmp(a, "-I", 2) == 0 || strncmp(a, "-D", 2) == 0) {
            flags[nflag++] = a;
        } else if (strcmp(a, "--backend") == 0 && val) {
            i++;
            if (strcmp(val, "gpu") == 0)
                native = 1;
            else if (strcmp(val, "sim") != 0 && strcmp(val, "auto") != 0)
                rc = cli_usage_error("--backend must be auto, sim or gpu, not '%s'", val);
        } else if (strcmp(a, "--arch") == 0 && val) {
            i++;
            char why[256];
            if (!gl_arch_known(val, archbuf, why, sizeof why))
                rc = cli_usage_error("--arch: %s", why);
            arch = archbuf;
        } else if (strcmp(a, "--schedule") == 0 && val) {
            i++;
            if (strncmp(val, "random:", 7) == 0)
                schedule = val;
            else if (strcmp(val, "deterministic") != 0)
                rc = cli_usage_error("--schedule must be deterministic or random:SEED, not '%s'",
                                     val);
        } else if (strcmp(a, "--timeout") == 0 && val) {
            i++;
            char *end;
            timeout = strtod(val, &end);
            if (*end || timeout <= 0)
                rc = cli_usage_error("--timeout needs a number of seconds, not '%s'", val);
        } else if (strcmp(a, "--compiler") == 0 && val) {
            i++;
            if (strcmp(val, "clang") == 0)
                compiler = GL_CC_CLANG;
            else if (strcmp(val, "nvcc") == 0)
                compiler = GL_CC_NVCC;
            else if (strcmp(val, "auto") != 0)
                rc = cli_usage_error("--compiler for a program must be auto, clang or nvcc, not "
                                     "'%s'",
                                     val);
        } else if ((strcmp(a, "--trace-json") == 0 || strcmp(a, "--metrics-json") == 0) && val) {
            i++;
            if (strcmp(val, "-") == 0) /* stdout is the program's */
                rc = cli_usage_error("%s for a program needs a file, not -", a);
            *(a[2] == 't' ? &trace_json : &metrics_json) = val;
        } else if (strcmp(a, "--verbose") == 0) {
            verbose = 1;
        } else if (strcmp(a, "--sandbox") == 0) {
            sandbox = 1;
        } else if (a[0] != '-' && is_source(a)) {
            srcs[nsrc++] = a;
        } else {
            rc = cli_usage_error("run PROG.cu: unknown argument '%s' (the program's own "
                                 "arguments go after --)",
                                 a);
        }
    }
    /* argv[0] as `nvcc -o NAME NAME.cu && ./NAME` gives it: ./ and the first source's
     * name without its suffix */
    if (!rc) {
        const char *base = strrchr(srcs[0], '/'), *dot;
        base = base ? base + 1 : srcs[0];
        dot = strrchr(base, '.');
        snprintf(argv0, sizeof argv0, "./%.*s", (int)(dot ? dot - base : (long)strlen(base)), base);
        args[0] = argv0;
        args[nargs] = NULL;
    }
    gl_program_opts o = {.sources = srcs,
                         .nsources = nsrc,
                         .cflags = flags,
                         .ncflags = nflag,
                         .arch = arch,
                         .compiler = compiler,
                         .native = native,
                         .verbose = verbose};
    if (!rc && native && (trace_json || metrics_json))
        rc = cli_usage_error("%s: a program's traces and metrics come from the simulator "
                             "(--backend sim)",
                             trace_json ? "--trace-json" : "--metrics-json");
    if (!rc && tui) {
        if (native || schedule || timeout > 0 || trace_json || metrics_json || verbose || sandbox)
            rc = cli_usage_error("%s (the TUI) takes sources, -I, -D, --arch, --compiler and "
                                 "the program's arguments; `gpulearn run PROG.cu` takes the "
                                 "rest",
                                 "gpulearn PROG.cu");
        else
            rc = tui_program(&(tui_program_opts){.build = o, .argv = args});
    }
    char dir[PATH_MAX], exe[PATH_MAX + 16];
    gl_error err = {0};
    if (!rc && !tui && sandbox && (trace_json || metrics_json))
        rc = cli_usage_error("%s: --trace-json and --metrics-json are not yet made in the sandbox",
                             "--sandbox");
    if (!rc && !tui && sandbox && native)
        rc = cli_usage_error("%s runs on the simulator, not with --backend gpu", "--sandbox");
    if (rc || tui)
        ; /* a usage error, or the TUI ran it */
    else if (gl_tmpdir_make(dir, sizeof dir, sandbox ? "run" : "prog") != 0)
        rc = cli_die(GL_ERR_TOOL, "cannot create a temporary folder");
    else {
        o.sandbox = sandbox;
        char *log = NULL;
        gl_status st = sandbox ? gl_program_build_untrusted(&o, dir, exe, sizeof exe, &log, &err)
                               : gl_program_build(&o, dir, exe, sizeof exe, &err);
        if (log)
            fputs(log, stderr);
        free(log);
        if (st != GL_OK) {
            rc = cli_die(st, err.msg);
        } else {
            char recs[PATH_MAX + 16], traces[PATH_MAX + 16];
            snprintf(recs, sizeof recs, "%s/records.jsonl", dir);
            snprintf(traces, sizeof traces, "%s/launches", dir);
            const int want = trace_json || metrics_json;
            if (want && (mkdir(traces, 0700) != 0 || setenv("GPULEARN_PROG_RECORD", recs, 1) ||
                         setenv("GPULEARN_PROG_TRACE_DIR", traces, 1)))
                rc = cli_die(GL_ERR_TOOL, "cannot create a temporary folder");
            else if (sandbox)
                rc = run_sandboxed(exe, args, arch, schedule, timeout, dir, &err);
            else
                rc = gl_program_run(exe, args, arch, schedule, timeout, &err);
            if (rc < 0)
                rc = cli_die(err.status, err.msg);
            else if (want) {
                int wrc = write_outputs(recs, exe, traces, argv0, trace_json, metrics_json);
                rc = rc ? rc : wrc;
            }
        }
        gl_tmpdir_remove(dir);
    }
    free(srcs), free(flags), free(args);
    return rc;
}

int cmd_run_program(int argc, char **argv)
{
    return program(argc, argv, 0);
}

int cmd_tui_program(int argc, char **argv)
{
    return program(argc, argv, 1);
}
