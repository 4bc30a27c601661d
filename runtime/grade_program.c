/* grade_program.c — grading a program exercise (lesson.h gl_program_exercise): the
 * learner's whole program and the hidden reference program are built and run on the same
 * arguments and stdin ("{seed}" the grading's seed), the submission in the sandbox
 * (program.h, runtime/program_sandbox.c), and judged by its stdout against the
 * reference's (byte for byte, or its numbers within the exercise's tolerance), its exit
 * status, every launch's checkers (cudart's launch records: a fault, a refused launch or
 * an error finding fails, as kernel grading fails on them) and the device memory it
 * leaves allocated. When the exercise also gives a launch spec for the kernel inside the
 * program, that kernel is graded with the kernel exercises' matrix as well (grade.c,
 * gl_compile_opts.program), so that a PASS still means the kernel is right even though
 * host code could print the expected answer. The same report (grade.h) as a kernel
 * exercise's; `gpulearn lint` runs each program step (grade_program_lint_step). */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/grade.h"
#include "runtime/program.h"
#include "runtime/sandbox.h"

/* One built program (reference or submission) and its runs. */
typedef struct prog_side {
    char dir[PATH_MAX];
    char exe[PATH_MAX + 16];
    gl_program_result *res; /* per run */
    gl_prog_records *recs;  /* per run */
} prog_side;

static void side_free(prog_side *s, int nruns)
{
    for (int i = 0; i < nruns; i++) {
        if (s->res)
            gl_program_result_free(&s->res[i]);
        if (s->recs)
            gl_program_records_free(&s->recs[i]);
    }
    free(s->res), free(s->recs);
    if (s->dir[0])
        gl_tmpdir_remove(s->dir);
}

/* The program's name in messages and its argv[0]: "./" and the starter's base name
 * without ".cu" (both programs get the same, so output that prints it compares). */
static void prog_name(const gl_exercise *e, char *buf, size_t n)
{
    const char *base = strrchr(e->starter, '/');
    base = base ? base + 1 : e->starter;
    const char *dot = strrchr(base, '.');
    snprintf(buf, n, "./%.*s", (int)(dot ? dot - base : (long)strlen(base)), base);
}

/* argv of run r: name, then its arguments with "{seed}" the seed. Caller frees the
 * strings from 1 on and the array. */
static char **run_argv(const gl_program_case *r, const char *name, uint64_t seed)
{
    char **argv = calloc((size_t)r->nargs + 2, sizeof *argv);
    if (!argv)
        return NULL;
    argv[0] = (char *)name;
    for (int i = 0; i < r->nargs; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)seed);
        argv[i + 1] = strdup(strcmp(r->args[i], "{seed}") == 0 ? buf : r->args[i]);
    }
    return argv;
}

static void argv_free(char **argv)
{
    for (int i = 1; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

/* "./vector_add 4099 12345" into buf. */
static void argv_text(char **argv, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; argv[i] && used + 1 < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? " " : "", argv[i]);
}

/* ------------------------------------------------------------ stdout compared */

/* The length of a number at s (strtod's syntax, no leading space; "nan", "inf" too), 0
 * when none starts there; its value in *v. */
static size_t number_at(const char *s, double *v)
{
    if (!(isdigit((unsigned char)s[0]) ||
          ((s[0] == '-' || s[0] == '+' || s[0] == '.') &&
           (isdigit((unsigned char)s[1]) || (s[1] == '.' && isdigit((unsigned char)s[2]))))))
        return 0;
    char *end;
    *v = strtod(s, &end);
    return (size_t)(end - s);
}

/* The 1-based line of text holding offset at, and that line (without its newline) into
 * buf. */
static int line_at(const char *text, size_t at, char *buf, size_t n)
{
    int line = 1;
    size_t start = 0;
    for (size_t i = 0; i < at && text[i]; i++)
        if (text[i] == '\n')
            line++, start = i + 1;
    size_t end = start;
    while (text[end] && text[end] != '\n')
        end++;
    snprintf(buf, n, "%.*s", (int)(end - start > 200 ? 200 : end - start), text + start);
    return line;
}

/* Whether got equals want: byte for byte (tol 0), else with each number of want matched
 * by a number of got within tol (absolute) and everything between them equal. On a
 * difference, why says where: the line and both versions of it. */
static int output_equal(const char *want, const char *got, double tol, char *why, size_t n)
{
    size_t i = 0, j = 0;
    while (want[i] || got[j]) {
        double a, b;
        size_t la = tol > 0 ? number_at(want + i, &a) : 0;
        size_t lb = la ? number_at(got + j, &b) : 0;
        if (la && lb) {
            if (!(fabs(a - b) <= tol || (isnan(a) && isnan(b)) || a == b))
                break;
            i += la, j += lb;
        } else if (want[i] && want[i] == got[j]) {
            i++, j++;
        } else {
            break;
        }
    }
    if (!want[i] && !got[j])
        return 1;
    char wl[256], gl[256];
    const int line = line_at(want, i, wl, sizeof wl);
    line_at(got, j, gl, sizeof gl);
    if (!got[j] && !gl[0] && want[i])
        snprintf(why, n, "line %d: expected '%s', the output ends before it", line, wl);
    else if (!want[i] && !wl[0])
        snprintf(why, n, "line %d: '%s' after the expected output ends",
                 line_at(got, j, gl, sizeof gl), gl);
    else
        snprintf(why, n, "line %d: expected '%s', got '%s'%s", line, wl, gl,
                 tol > 0 ? " (numbers may differ by the exercise's tolerance)" : "");
    return 0;
}

/* ------------------------------------------------------------ launches */

/* A source file of a program built in dir (its copies in dir/src) as the learner named
 * it: without the build folder. */
static const char *source_name(const char *path, const char *dir)
{
    const size_t n = strlen(dir);
    if (strncmp(path, dir, n) == 0 && strncmp(path + n, "/src/", 5) == 0)
        return path + n + 5;
    return gl_display_path(path);
}

/* snprintf that cuts a message longer than buf (a launch's fault or finding text and its
 * header may be long; the report keeps what fits). */
static void cut_printf(char *buf, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void cut_printf(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
}

/* Launch l's problem (the program built in dir) as one line into buf (0 when it ran
 * clean). */
static int launch_problem(const gl_prog_launch *l, const char *dir, char *buf, size_t n)
{
    char where[GL_FILE_MAX + 32] = "";
    if (l->where[0])
        snprintf(where, sizeof where, " at %s:%d", source_name(l->where, dir), l->where_line);
    char head[600];
    snprintf(head, sizeof head, "launch %u %s<<<(%u,%u,%u), (%u,%u,%u)>>>%s", l->number,
             l->kernel[0] ? l->kernel : l->mangled, l->grid[0], l->grid[1], l->grid[2], l->block[0],
             l->block[1], l->block[2], where);
    if (!l->launched) {
        cut_printf(buf, n, "%s was refused: %s", head, l->error);
        return 1;
    }
    if (l->fault.kind != GL_FAULT_NONE) {
        cut_printf(buf, n, "%s: %s (%s:%d, block (%u,%u,%u), thread (%u,%u,%u))", head,
                   l->fault.message, gl_display_path(l->fault.src_file), l->fault.src_line,
                   l->fault.block[0], l->fault.block[1], l->fault.block[2], l->fault.thread[0],
                   l->fault.thread[1], l->fault.thread[2]);
        return 1;
    }
    for (int k = 0; k < l->nfindings; k++)
        if (l->findings[k].is_error) {
            const gl_finding *f = &l->findings[k];
            cut_printf(buf, n, "%s: %s (%s:%d, block (%u,%u,%u), thread (%u,%u,%u))", head,
                       f->message, gl_display_path(f->access.src_file), f->access.src_line,
                       f->access.block[0], f->access.block[1], f->access.block[2],
                       f->access.thread[0], f->access.thread[1], f->access.thread[2]);
            return 1;
        }
    return 0;
}

/* cudart's note of device memory never freed in a run's stderr ("N device allocations
 * (B bytes) never freed with cudaFree"), with the allocations it lists, into buf; 0 when
 * there is none. */
static int leak_note(const char *err, char *buf, size_t n)
{
    const char *p = strstr(err, "never freed with cudaFree");
    if (!p)
        return 0;
    while (p > err && p[-1] != '\n')
        p--;
    if (strncmp(p, "gpulearn: note: ", 16) == 0)
        p += 16;
    size_t used = 0;
    buf[0] = '\0';
    for (int lines = 0; *p && lines < 6 && used + 1 < n; lines++) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (lines && strncmp(p, "gpulearn:   '", 13) != 0)
            break;
        if (lines)
            p += 12;
        used += (size_t)snprintf(buf + used, n - used, "%s%.*s", lines ? "\n" : "",
                                 (int)(lines ? len - 12 : len), p);
        if (!e)
            break;
        p = e + 1;
    }
    return 1;
}

/* The last lines of a run's stderr (at most 6, 600 bytes) into buf, for a report. */
static void stderr_tail(const char *err, char *buf, size_t n)
{
    size_t len = strlen(err);
    while (len && err[len - 1] == '\n')
        len--;
    size_t start = len;
    for (int lines = 0; start > 0 && lines < 6 && len - start < 600; start--)
        if (err[start - 1] == '\n' && ++lines == 6)
            break;
    snprintf(buf, n, "%.*s", (int)(len - start), err + start);
}

/* ------------------------------------------------------------ building and running */

/* Builds source (its bytes, read by the caller, or NULL: read there) into side->dir (a
 * fresh folder) as the exercise's target; the compilers' messages into *log. */
static gl_status build(const char *source, const char *bytes, size_t len, const char *arch,
                       gl_compiler cc, int sandbox, prog_side *side, char **log, gl_error *err)
{
    if (gl_tmpdir_make(side->dir, sizeof side->dir, "run") != 0) {
        side->dir[0] = '\0';
        return gl_fail(err, GL_ERR_TOOL, "cannot create a temporary folder");
    }
    const char *srcs[] = {source};
    const gl_program_opts o = {.sources = srcs,
                               .nsources = 1,
                               .arch = arch,
                               .compiler = cc == GL_CC_NVCC    ? GL_CC_NVCC
                                           : cc == GL_CC_CLANG ? GL_CC_CLANG
                                                               : GL_CC_AUTO,
                               .sandbox = sandbox,
                               .source = bytes,
                               .source_len = len};
    return gl_program_build_untrusted(&o, side->dir, side->exe, sizeof side->exe, log, err);
}

/* Runs the built program of side once per run of the exercise, records in its folder. */
static gl_status run_all(const gl_exercise *e, prog_side *side, const char *name, uint64_t seed,
                         const char *arch, int sandbox, gl_error *err)
{
    const gl_program_exercise *p = e->program;
    side->res = calloc((size_t)p->nruns, sizeof *side->res);
    side->recs = calloc((size_t)p->nruns, sizeof *side->recs);
    if (!side->res || !side->recs)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    for (int i = 0; i < p->nruns; i++) {
        char rec[PATH_MAX + 32];
        snprintf(rec, sizeof rec, "%s/records-%d.jsonl", side->dir, i);
        char **argv = run_argv(&p->runs[i], name, seed);
        if (!argv)
            return gl_fail(err, GL_ERR_NOMEM, "out of memory");
        const gl_program_exec_opts eo = {.arch = arch,
                                         .record = rec,
                                         .timeout_s = p->timeout_s,
                                         .timeout_origin = "the exercise's time limit",
                                         .sandbox = sandbox,
                                         .dir = side->dir,
                                         .stdin_text =
                                             p->runs[i].stdin_text ? p->runs[i].stdin_text : "",
                                         .capture = 1,
                                         .output_limit = GL_PROGRAM_OUTPUT_GRADE,
                                         .output_origin = "the grader's output limit"};
        const int rc = gl_program_exec(side->exe, argv, &eo, &side->res[i], err);
        argv_free(argv);
        if (rc != 0)
            return err ? err->status : GL_ERR_TOOL;
        gl_status st = gl_program_records_read(rec, side->exe, &side->recs[i], err);
        if (st != GL_OK)
            return st;
    }
    return GL_OK;
}

/* Whether the reference's run i is one the exercise can be graded against; why not
 * into buf. */
static int reference_ok(const prog_side *ref, int i, char *buf, size_t n)
{
    const gl_program_result *r = &ref->res[i];
    if (r->why[0]) {
        snprintf(buf, n, "%s", r->why);
        return 0;
    }
    for (int k = 0; k < ref->recs[i].nlaunches; k++)
        if (launch_problem(&ref->recs[i].launches[k], ref->dir, buf, n))
            return 0;
    return 1;
}

/* ------------------------------------------------------------ the grading */

enum { C_COMPILES, C_OUTPUT, C_STATUS, C_LAUNCHES, C_LEAKS, C_COUNT };
static const char *const program_checks[C_COUNT] = {"compiles", "output_matches_reference",
                                                    "exit_status", "launches_clean", "no_leaks"};

int grade_check_names(const gl_exercise *e, char (*names)[64], int max)
{
    int n = 0;
    const char *prefix = e->program ? "kernel." : "";
    for (int i = 0; e->program && i < C_COUNT && n < max; i++)
        snprintf(names[n++], 64, "%s", program_checks[i]);
    if (e->program && !e->launch)
        return n;
    if (n < max)
        snprintf(names[n++], 64, "%scompiles", prefix);
    for (int i = 0; i < e->nchecks && n < max; i++)
        snprintf(names[n++], 64, "%s%.55s", prefix, e->checks[i].name);
    return n;
}

gl_status grade_program_exercise(const gl_lesson *l, const char *submission,
                                 const gl_grade_opts *opts, gl_grade_report *rep, gl_error *err)
{
    const gl_exercise *e = l->exercise;
    const gl_program_exercise *p = e->program;
    snprintf(rep->lesson, sizeof rep->lesson, "%s", l->id);
    snprintf(rep->submission, sizeof rep->submission, "%s",
             gl_display_path(submission ? submission : e->starter));
    snprintf(rep->backend, sizeof rep->backend, "sim");
    rep->seed = opts->seed_given ? opts->seed : grade_new_seed();
    const int sandbox = rep->sandboxed = !opts->no_sandbox && gl_sandbox_available() > 0;
    const char *arch =
        opts->compile.arch && *opts->compile.arch ? opts->compile.arch : lesson_exercise_arch(l);
    char name[128];
    prog_name(e, name, sizeof name);
    prog_side ref = {0}, sub = {0};
    char *log = NULL, *sub_src = NULL;
    gl_status st =
        build(e->reference, NULL, 0, arch, opts->compile.compiler, sandbox, &ref, &log, err);
    if (st != GL_OK) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        /* the lesson's fault when its reference does not compile; the machine's when a
         * compiler cannot start (exit 1, not 2) */
        if (st == GL_ERR_COMPILE || st == GL_ERR_INPUT)
            st = gl_fail(err, GL_ERR_INPUT, "%s: the reference program does not build: %s\n%s",
                         l->dir, msg, log ? log : "");
        else
            st = gl_fail(err, st, "%s: cannot build the reference program: %s", l->dir, msg);
        goto done;
    }
    free(log), log = NULL;
    if ((st = run_all(e, &ref, name, rep->seed, arch, sandbox, err)) != GL_OK)
        goto done;
    for (int i = 0; i < p->nruns; i++) {
        char why[1200];
        if (!reference_ok(&ref, i, why, sizeof why)) {
            st = gl_fail(err, GL_ERR_INPUT, "%s: the reference program fails run %d: %s", l->dir,
                         i + 1, why);
            goto done;
        }
    }
    /* the submission is read once: its program and its kernel are built from these bytes */
    const char *sub_path = submission ? submission : e->starter;
    size_t sub_len = 0;
    if (!(sub_src = gl_read_submission(sub_path, &sub_len, err))) {
        st = err ? err->status : GL_ERR_INPUT;
        goto done;
    }
    /* the program first: when it does not build, no check of the kernel inside runs
     * either, so that the verdict is the same whichever compiler built it (clang stops at
     * host code that nvcc's headers would declare, nvcc at the link) */
    gl_error berr = {0};
    st =
        build(sub_path, sub_src, sub_len, arch, opts->compile.compiler, sandbox, &sub, &log, &berr);
    const int builds = st == GL_OK;
    if (!builds && st != GL_ERR_COMPILE && st != GL_ERR_INPUT) {
        if (err)
            *err = berr;
        goto done;
    }
    /* then the kernel matrix, when the exercise has one: its checks follow the program's */
    gl_grade_report kr = {0};
    const int have_kernel = e->launch != NULL;
    char knames[64][64];
    int nk = 0;
    if (have_kernel && builds) {
        gl_grade_opts ko = *opts;
        ko.compile.program = 1;
        ko.compile.source = sub_src, ko.compile.source_len = sub_len;
        ko.seed_given = 1, ko.seed = rep->seed;
        if ((st = grade_exercise(l, submission, &ko, &kr, err)) != GL_OK)
            goto done;
        nk = kr.nchecks;
    } else if (have_kernel) {
        /* the kernel checks' names, as grade_check_names lists them after the program's */
        nk = grade_check_names(e, knames, 64) - C_COUNT;
    }
    rep->nchecks = C_COUNT + nk;
    rep->checks = calloc((size_t)rep->nchecks, sizeof *rep->checks);
    if (!rep->checks) {
        grade_report_free(&kr);
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < C_COUNT; i++)
        snprintf(rep->checks[i].name, sizeof rep->checks[i].name, "%s", program_checks[i]);
    for (int i = 0; i < nk; i++) {
        gl_check_result *c = &rep->checks[C_COUNT + i];
        if (builds) {
            *c = kr.checks[i];
            snprintf(c->name, sizeof c->name, "kernel.%.56s", kr.checks[i].name);
        } else {
            snprintf(c->name, sizeof c->name, "%s", knames[C_COUNT + i]);
            c->not_run = 1;
            grade_add_detail(c, "not run: the program does not build");
        }
    }
    if (have_kernel && builds)
        snprintf(rep->backend, sizeof rep->backend, "%s", kr.backend);
    grade_report_free(&kr);

    if (!builds) {
        rep->compiled = 0;
        const size_t n = (log ? strlen(log) : 0) + strlen(berr.msg) + 2;
        if ((rep->compile_log = malloc(n)))
            snprintf(rep->compile_log, n, "%s%s", log ? log : "", berr.msg);
        grade_add_detail(&rep->checks[C_COMPILES], "%.2000s",
                         rep->compile_log ? rep->compile_log : berr.msg);
        for (int i = 1; i < C_COUNT; i++) {
            rep->checks[i].not_run = 1;
            grade_add_detail(&rep->checks[i], "not run: the program does not build");
        }
        st = GL_OK;
        goto verdict;
    }
    rep->compiled = 1;
    rep->checks[C_COMPILES].passed = 1;
    if ((st = run_all(e, &sub, name, rep->seed, arch, sandbox, err)) != GL_OK)
        goto done;

    int ref_launches = 0, sub_launches = 0;
    for (int c = C_OUTPUT; c < C_COUNT; c++)
        rep->checks[c].passed = 1;
    for (int i = 0; i < p->nruns; i++) {
        char **argv = run_argv(&p->runs[i], name, rep->seed);
        char cmd[600] = "";
        if (argv)
            argv_text(argv, cmd, sizeof cmd);
        argv_free(argv);
        const gl_program_result *r = &sub.res[i], *want = &ref.res[i];
        char why[1024], tail[700];
        stderr_tail(r->err, tail, sizeof tail);
        if (r->why[0]) {
            rep->checks[C_OUTPUT].passed = 0;
            grade_add_detail(&rep->checks[C_OUTPUT], "run %d (%s): %s", i + 1, cmd, r->why);
        } else if (!output_equal(want->out, r->out, p->tolerance, why, sizeof why)) {
            rep->checks[C_OUTPUT].passed = 0;
            grade_add_detail(&rep->checks[C_OUTPUT],
                             "run %d (%s): stdout differs from the reference's: %s", i + 1, cmd,
                             why);
        }
        if (r->status != want->status) {
            rep->checks[C_STATUS].passed = 0;
            grade_add_detail(&rep->checks[C_STATUS],
                             "run %d (%s): exit status %d, the reference's %d%s%s", i + 1, cmd,
                             r->status, want->status, tail[0] ? "; its stderr ends:\n" : "", tail);
        }
        const gl_prog_records *rs = &sub.recs[i];
        ref_launches += ref.recs[i].nlaunches;
        sub_launches += rs->nlaunches;
        for (int k = 0; k < rs->nlaunches; k++)
            if (launch_problem(&rs->launches[k], sub.dir, why, sizeof why)) {
                rep->checks[C_LAUNCHES].passed = 0;
                grade_add_detail(&rep->checks[C_LAUNCHES], "run %d (%s): %s", i + 1, cmd, why);
            }
        if (leak_note(r->err, why, sizeof why)) {
            rep->checks[C_LEAKS].passed = 0;
            grade_add_detail(&rep->checks[C_LEAKS], "run %d (%s): %s", i + 1, cmd, why);
        }
    }
    if (ref_launches > 0 && sub_launches == 0) {
        rep->checks[C_LAUNCHES].passed = 0;
        grade_add_detail(
            &rep->checks[C_LAUNCHES],
            "the program launched no kernel (the reference launches %d): the work is the "
            "GPU's",
            ref_launches);
    }
    if (rep->checks[C_LAUNCHES].passed)
        grade_add_detail(&rep->checks[C_LAUNCHES],
                         "%d launch%s, each checked: no fault, no error finding", sub_launches,
                         sub_launches == 1 ? "" : "es");
verdict:
    rep->passed = 1;
    for (int i = 0; i < rep->nchecks; i++)
        rep->passed &= rep->checks[i].passed;
    st = GL_OK;
done:
    free(log);
    free(sub_src);
    side_free(&ref, p->nruns);
    side_free(&sub, p->nruns);
    if (st != GL_OK) {
        free(rep->checks);
        rep->checks = NULL;
        rep->nchecks = 0;
    }
    return st;
}

int grade_program_lint_step(const gl_lesson *l, int s, FILE *out)
{
    const gl_step *step = &l->steps[s];
    prog_side side = {0};
    char *log = NULL;
    gl_error err = {0};
    int problems = 0;
    const char *arch = step->arch ? step->arch : l->arch;
    if (build(step->kernel, NULL, 0, arch, GL_CC_AUTO, 0, &side, &log, &err) != GL_OK) {
        fprintf(out, "%s/lesson.json: steps[%d]: %s does not build: %s\n%s", l->dir, s,
                gl_display_path(step->kernel), err.msg, log ? log : "");
        side_free(&side, 0);
        free(log);
        return 1;
    }
    free(log);
    char name[PATH_MAX];
    const char *base = strrchr(step->kernel, '/');
    base = base ? base + 1 : step->kernel;
    snprintf(name, sizeof name, "./%.*s", (int)(strlen(base) - 3), base);
    char **argv = calloc((size_t)step->nargs + 2, sizeof *argv);
    char rec[PATH_MAX + 32];
    snprintf(rec, sizeof rec, "%s/records.jsonl", side.dir);
    gl_program_result r = {0};
    gl_prog_records recs = {0};
    if (argv) {
        argv[0] = name;
        for (int i = 0; i < step->nargs; i++)
            argv[i + 1] = step->args[i];
        const gl_program_exec_opts eo = {.arch = arch,
                                         .record = rec,
                                         .timeout_s = 60,
                                         .dir = side.dir,
                                         .capture = 1,
                                         .output_limit = GL_PROGRAM_OUTPUT_GRADE};
        if (gl_program_exec(side.exe, argv, &eo, &r, &err) != 0 ||
            gl_program_records_read(rec, side.exe, &recs, &err) != GL_OK) {
            fprintf(out, "%s/lesson.json: steps[%d]: %s\n", l->dir, s, err.msg);
            problems++;
        } else if (r.status != step->status) {
            char tail[700];
            stderr_tail(r.err, tail, sizeof tail);
            fprintf(
                out,
                "%s/lesson.json: steps[%d]: %s exits with %d, the step's \"status\" is %d%s%s\n",
                l->dir, s, gl_display_path(step->kernel), r.status, step->status,
                r.why[0]  ? ": "
                : tail[0] ? "; its stderr ends:\n"
                          : "",
                r.why[0] ? r.why : tail);
            problems++;
        } else if (step->status == 0) {
            char why[1200];
            for (int k = 0; k < recs.nlaunches; k++)
                if (launch_problem(&recs.launches[k], side.dir, why, sizeof why)) {
                    fprintf(out, "%s/lesson.json: steps[%d]: %s\n", l->dir, s, why);
                    problems++;
                    break;
                }
        }
    }
    free(argv);
    gl_program_result_free(&r);
    gl_program_records_free(&recs);
    side_free(&side, 0);
    return problems;
}
