/* expect.c — a step's "expect" entries: parsing them, and `gpulearn lint`'s runs of the
 * step that check them (see expect.h and README "Writing a lesson"). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/backend.h"
#include "runtime/expect.h"
#include "runtime/lesson.h"
#include "trace/analysis.h"

const char *const gl_expect_metric_names[] = {
    "warp_execution_efficiency",
    "branch_efficiency",
    "sectors_per_request",
    "load_sectors_per_request",
    "store_sectors_per_request",
    "sector_efficiency",
    "bank_conflicts",
    "shared_load_wavefronts_per_request",
    "shared_store_wavefronts_per_request",
    "global_loads",
    "global_atomics",
    "shared_atomics",
    "additions",
    "float_additions",
    "tensor_instructions",
    "global_load_bytes_per_flop",
    "flops_per_sector_byte",
    "theoretical_occupancy",
    "achieved_occupancy",
    "shared_bytes_per_block",
    "occupancy_limiter",
    NULL,
};

const char *const gl_expect_measure_names[] = {"time_ms",     "gbs",        "gflops", "pct_of_peak",
                                               "library_pct", "time_ratio", NULL};

static const char *const k_findings[] = {"none",       "race",     "shared_race",   "global_race",
                                         "barrier",    "deadlock", "out_of_bounds", "uninitialized",
                                         "step_limit", NULL};

/* ------------------------------------------------------------------- parsing */

typedef struct pctx {
    const char *file;
    char field[64]; /* "steps[2].expect[1]" */
    gl_error *err;
} pctx;

static gl_status bad(pctx *c, const char *what)
{
    return gl_fail(c->err, GL_ERR_INPUT, "%s: %s: %s", c->file, c->field, what);
}

static int in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (strcmp(*list, s) == 0)
            return 1;
    return 0;
}

/* The JSON keys of trace/analysis.h's metrics: counters and the derived ratios. */
static const char *const k_metric_keys[] = {
#define GL_KEY(f, key) key,
    GL_COUNTS_LIST(GL_KEY)
#undef GL_KEY
        "smsp__thread_inst_executed_per_inst_executed.ratio",
    "smsp__sass_average_branch_targets_threads_uniform.pct",
    "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
    "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio",
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
    NULL,
};

/* A number, or "nan", "inf", "-inf". */
static int number_of(const cJSON *v, double *out)
{
    if (cJSON_IsNumber(v)) {
        *out = v->valuedouble;
        return 1;
    }
    if (!cJSON_IsString(v))
        return 0;
    if (strcmp(v->valuestring, "nan") == 0)
        *out = NAN;
    else if (strcmp(v->valuestring, "inf") == 0)
        *out = INFINITY;
    else if (strcmp(v->valuestring, "-inf") == 0)
        *out = -INFINITY;
    else
        return 0;
    return 1;
}

static gl_status get_num(pctx *c, const cJSON *js, const char *key, int *has, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(js, key);
    if (!v)
        return GL_OK;
    if (!cJSON_IsNumber(v)) {
        char what[96];
        snprintf(what, sizeof what, "%s must be a number", key);
        return bad(c, what);
    }
    *out = v->valuedouble;
    if (has)
        *has = 1;
    return GL_OK;
}

/* A [x, y, z] thread index (missing y, z: 0). */
static gl_status get_thread(pctx *c, const cJSON *js, const char *key, int *has, unsigned out[3])
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(js, key);
    if (!v)
        return GL_OK;
    int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : 0;
    char what[96];
    snprintf(what, sizeof what, "%s must be a thread index [x, y, z]", key);
    if (n < 1 || n > 3)
        return bad(c, what);
    out[0] = out[1] = out[2] = 0;
    for (int i = 0; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(v, i);
        if (!cJSON_IsNumber(e) || e->valuedouble < 0 || e->valuedouble > 1024 ||
            e->valuedouble != floor(e->valuedouble))
            return bad(c, what);
        out[i] = (unsigned)e->valuedouble;
    }
    *has = 1;
    return GL_OK;
}

static gl_status dup_str(pctx *c, const char *s, char **out)
{
    *out = strdup(s);
    return *out ? GL_OK : gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
}

/* The launch's argument named `name`, or NULL. */
static const cJSON *launch_arg(const cJSON *launch, const char *name)
{
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(launch, "args"))
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(a, "name");
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return a;
    }
    return NULL;
}

/* The buffer entry's selection: "index" (i, or [row, col] of a shaped buffer) or
 * "from"/"to", and "mod". */
static gl_status parse_selection(pctx *c, const cJSON *js, const cJSON *arg, gl_expect *e)
{
    const cJSON *len = cJSON_GetObjectItemCaseSensitive(arg, "len");
    const int64_t n = cJSON_IsNumber(len) ? (int64_t)len->valuedouble : INT64_MAX;
    const cJSON *idx = cJSON_GetObjectItemCaseSensitive(js, "index");
    const cJSON *from = cJSON_GetObjectItemCaseSensitive(js, "from");
    const cJSON *to = cJSON_GetObjectItemCaseSensitive(js, "to");
    e->from = 0;
    e->to = -1;
    if (idx && (from || to))
        return bad(c, "give \"index\" or \"from\"/\"to\", not both");
    if (idx) {
        int64_t i = -1;
        if (cJSON_IsNumber(idx) && idx->valuedouble == floor(idx->valuedouble)) {
            i = (int64_t)idx->valuedouble;
        } else if (cJSON_IsArray(idx) && cJSON_GetArraySize(idx) == 2) {
            const cJSON *shape = cJSON_GetObjectItemCaseSensitive(arg, "shape");
            const cJSON *r = cJSON_GetArrayItem(idx, 0), *col = cJSON_GetArrayItem(idx, 1);
            if (!cJSON_IsArray(shape) || cJSON_GetArraySize(shape) != 2 ||
                !cJSON_IsNumber(cJSON_GetArrayItem(shape, 1)))
                return bad(c, "index [row, col] needs a buffer with a \"shape\"");
            const int64_t cols = (int64_t)cJSON_GetArrayItem(shape, 1)->valuedouble;
            if (!cJSON_IsNumber(r) || !cJSON_IsNumber(col) || r->valuedouble < 0 ||
                col->valuedouble < 0 || col->valuedouble >= (double)cols)
                return bad(c, "index [row, col] must lie inside the buffer's shape");
            i = (int64_t)r->valuedouble * cols + (int64_t)col->valuedouble;
        }
        if (i < 0 || i >= n)
            return bad(c, "index must be an element of the buffer (0 .. len - 1, or [row, col])");
        e->from = i;
        e->to = i + 1;
    }
    if (from) {
        if (!cJSON_IsNumber(from) || from->valuedouble < 0 || from->valuedouble >= (double)n ||
            from->valuedouble != floor(from->valuedouble))
            return bad(c, "from must be an element of the buffer");
        e->from = (int64_t)from->valuedouble;
    }
    if (to) {
        if (!cJSON_IsNumber(to) || to->valuedouble <= (double)e->from ||
            to->valuedouble > (double)n || to->valuedouble != floor(to->valuedouble))
            return bad(c, "to must be after from and at most the buffer's len");
        e->to = (int64_t)to->valuedouble;
    }
    double mod = 0;
    gl_status st = get_num(c, js, "mod", NULL, &mod);
    if (st != GL_OK)
        return st;
    if (cJSON_GetObjectItemCaseSensitive(js, "mod")) {
        if (mod < 1 || mod != floor(mod))
            return bad(c, "mod must be a positive integer");
        e->mod = (int64_t)mod;
    }
    return GL_OK;
}

/* The rows and columns of a launch argument's "shape" (0, 0 without one). */
static void shape_of(const cJSON *arg, int64_t *rows, int64_t *cols)
{
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(arg, "shape");
    const cJSON *r = cJSON_GetArrayItem(shape, 0), *k = cJSON_GetArrayItem(shape, 1);
    *rows = *cols = 0;
    if (cJSON_IsNumber(r) && cJSON_IsNumber(k)) {
        *rows = (int64_t)r->valuedouble;
        *cols = (int64_t)k->valuedouble;
    }
}

/* "gemm": ["A", "B"]: the buffer (rows x cols) against the product of two shaped
 * pointer arguments, computed on the host in double. */
static gl_status parse_gemm(pctx *c, const cJSON *gemm, const cJSON *launch, const cJSON *out,
                            gl_expect *e)
{
    const cJSON *a = cJSON_GetArrayItem(gemm, 0), *b = cJSON_GetArrayItem(gemm, 1);
    if (!cJSON_IsArray(gemm) || cJSON_GetArraySize(gemm) != 2 || !cJSON_IsString(a) ||
        !cJSON_IsString(b))
        return bad(c, "gemm must name two pointer arguments [\"A\", \"B\"]");
    const cJSON *aa = launch_arg(launch, a->valuestring), *ba = launch_arg(launch, b->valuestring);
    int64_t ar, ac, br, bc, cr, cc;
    shape_of(aa, &ar, &ac);
    shape_of(ba, &br, &bc);
    shape_of(out, &cr, &cc);
    if (!ar || !br || !cr || ac != br || ar != cr || bc != cc)
        return bad(c, "gemm needs A (M x K), B (K x N) and this buffer (M x N) with those "
                      "\"shape\"s");
    gl_status st = dup_str(c, a->valuestring, &e->gemm_a);
    return st == GL_OK ? dup_str(c, b->valuestring, &e->gemm_b) : st;
}

/* A buffer entry: the argument, its selection and its tests. */
static gl_status parse_buffer(pctx *c, const cJSON *js, const cJSON *subj, const cJSON *launch,
                              gl_expect *e)
{
    gl_status st = GL_OK;
    if (!cJSON_IsString(subj))
        return bad(c, "buffer must name a pointer argument of the launch");
    const cJSON *arg = launch_arg(launch, subj->valuestring);
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(arg, "type");
    if (!arg || !cJSON_IsString(type) || !strchr(type->valuestring, '*')) {
        char what[160];
        snprintf(what, sizeof what, "the launch has no pointer argument named '%.60s'",
                 subj->valuestring);
        return bad(c, what);
    }
    if ((st = dup_str(c, subj->valuestring, &e->name)) != GL_OK ||
        (st = parse_selection(c, js, arg, e)) != GL_OK ||
        (st = get_num(c, js, "sum", &e->has_sum, &e->sum)) != GL_OK)
        return st;
    const cJSON *iota = cJSON_GetObjectItemCaseSensitive(js, "iota");
    if (iota) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(iota, "start");
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(iota, "step");
        if (!cJSON_IsObject(iota) || !cJSON_IsNumber(a) || !cJSON_IsNumber(b) ||
            cJSON_GetArraySize(iota) != 2)
            return bad(c, "iota must be {\"start\": a, \"step\": b}");
        e->has_iota = 1;
        e->iota_start = a->valuedouble;
        e->iota_step = b->valuedouble;
    }
    const cJSON *sorted = cJSON_GetObjectItemCaseSensitive(js, "sorted");
    if (sorted) {
        if (!cJSON_IsString(sorted) || strcmp(sorted->valuestring, "ascending") != 0)
            return bad(c, "sorted must be \"ascending\"");
        e->sorted = 1;
    }
    const cJSON *diff = cJSON_GetObjectItemCaseSensitive(js, "diff");
    if (diff) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(diff, "min");
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(diff, "max");
        int nkeys = cJSON_IsObject(diff) ? cJSON_GetArraySize(diff) : -1;
        if (nkeys < 1 || nkeys != !!a + !!b || (a && !cJSON_IsNumber(a)) ||
            (b && !cJSON_IsNumber(b)))
            return bad(c, "diff must be {\"min\": a} and/or {\"max\": b}");
        if (!e->kernel && !cJSON_GetObjectItemCaseSensitive(js, "gemm"))
            return bad(c, "diff compares another \"kernel\"'s run with the step kernel's, "
                          "or the buffer with a host \"gemm\": name one");
        e->has_diff = 1;
        e->diff_min = a ? a->valuedouble : 0;
        e->diff_max = b ? b->valuedouble : INFINITY;
    }
    const cJSON *gemm = cJSON_GetObjectItemCaseSensitive(js, "gemm");
    if (gemm && (st = parse_gemm(c, gemm, launch, arg, e)) != GL_OK)
        return st;
    if (gemm && !e->has_diff)
        return bad(c, "gemm is what diff compares with: give diff too");
    if (gemm && e->kernel)
        return bad(c, "diff compares with the gemm or with the step kernel's run, not both");
    if (!e->has_equals && !e->has_min && !e->has_max && !e->has_sum && !e->has_iota && !e->sorted &&
        !e->has_diff)
        return bad(c, "a buffer entry needs a test: equals, min, max, sum, iota, sorted or "
                      "diff");
    return GL_OK;
}

/* "stdout_lines": N. */
static gl_status parse_stdout_lines(pctx *c, const cJSON *subj, gl_expect *e)
{
    if (!cJSON_IsNumber(subj) || subj->valuedouble < 0 ||
        subj->valuedouble != floor(subj->valuedouble))
        return bad(c, "stdout_lines must be the number of lines the kernel prints");
    if (e->has_equals || e->has_min || e->has_max)
        return bad(c, "stdout_lines is the number itself; it takes no equals, min or max");
    e->has_equals = 1;
    e->equals = subj->valuedouble;
    return GL_OK;
}

/* "stdout_contains": a text. */
static gl_status parse_stdout_contains(pctx *c, const cJSON *subj, gl_expect *e)
{
    gl_status st = GL_OK;
    if (!cJSON_IsString(subj) || !*subj->valuestring)
        return bad(c, "stdout_contains must be a text");
    if (e->has_equals || e->has_min || e->has_max)
        return bad(c, "stdout_contains takes no equals, min or max");
    if ((st = dup_str(c, subj->valuestring, &e->name)) != GL_OK)
        return st;
    return GL_OK;
}

/* A metric entry: the name, "line" and "per". */
static gl_status parse_metric(pctx *c, const cJSON *js, const cJSON *subj, const cJSON *launch,
                              gl_expect *e)
{
    gl_status st = GL_OK;
    if (!cJSON_IsString(subj) || (!in_list(gl_expect_metric_names, subj->valuestring) &&
                                  !in_list(k_metric_keys, subj->valuestring)))
        return bad(c, "metric must be a metric's name: one of trace/analysis.h's keys "
                      "(as --metrics-json writes them) or warp_execution_efficiency, "
                      "branch_efficiency, sectors_per_request, load_sectors_per_request, "
                      "store_sectors_per_request, sector_efficiency, bank_conflicts, "
                      "shared_load_wavefronts_per_request, "
                      "shared_store_wavefronts_per_request, global_loads, global_atomics, "
                      "shared_atomics, additions, float_additions, tensor_instructions, "
                      "global_load_bytes_per_flop, flops_per_sector_byte, "
                      "theoretical_occupancy, achieved_occupancy, shared_bytes_per_block, "
                      "occupancy_limiter");
    if ((st = dup_str(c, subj->valuestring, &e->name)) != GL_OK)
        return st;
    if (!e->has_equals && !e->has_min && !e->has_max)
        return bad(c, "a metric entry needs equals, min or max");
    double line = 0;
    int has_line = 0;
    if ((st = get_num(c, js, "line", &has_line, &line)) != GL_OK)
        return st;
    if (has_line && (line < 1 || line != floor(line) || line > 1e6))
        return bad(c, "line must be a line number of the step's kernel file");
    e->line = (int)line;
    if (e->line && (strstr(e->name, "occupancy") || strcmp(e->name, "global_loads") == 0 ||
                    strcmp(e->name, "shared_bytes_per_block") == 0))
        return bad(c, "occupancy, shared_bytes_per_block and global_loads are the launch's, "
                      "not a line's");
    const cJSON *per = cJSON_GetObjectItemCaseSensitive(js, "per");
    if (per) {
        const cJSON *arg = cJSON_IsString(per) ? launch_arg(launch, per->valuestring) : NULL;
        const cJSON *len = cJSON_GetObjectItemCaseSensitive(arg, "len");
        if (cJSON_IsString(per) && strcmp(per->valuestring, "block") == 0)
            e->per = -1;
        else if (cJSON_IsString(per) && strcmp(per->valuestring, "flops") == 0 &&
                 cJSON_GetObjectItemCaseSensitive(launch, "flops"))
            e->per = -2;
        else if (cJSON_IsNumber(len) && len->valuedouble >= 1)
            e->per = len->valuedouble;
        else
            return bad(c, "per must be \"block\" (the grid's blocks), \"flops\" (the "
                          "launch's declared flops) or name a pointer argument of the "
                          "launch (its len)");
    }
    return GL_OK;
}

/* A finding entry: the kind and what identifies it. */
static gl_status parse_finding(pctx *c, const cJSON *js, const cJSON *subj, gl_expect *e)
{
    gl_status st = GL_OK;
    if (!cJSON_IsString(subj) || !in_list(k_findings, subj->valuestring))
        return bad(c, "finding must be \"none\", \"race\", \"shared_race\", "
                      "\"global_race\", \"barrier\", \"deadlock\", \"out_of_bounds\", "
                      "\"uninitialized\" or \"step_limit\"");
    if ((st = dup_str(c, subj->valuestring, &e->name)) != GL_OK)
        return st;
    const cJSON *first = cJSON_GetObjectItemCaseSensitive(js, "first");
    if (first) {
        if (!cJSON_IsBool(first))
            return bad(c, "first must be true or false");
        e->first = cJSON_IsTrue(first);
    }
    const cJSON *hz = cJSON_GetObjectItemCaseSensitive(js, "hazard");
    if (hz) {
        static const char *const hz_names[] = {"raw", "war", "waw", NULL};
        if (!cJSON_IsString(hz) || !in_list(hz_names, hz->valuestring))
            return bad(c, "hazard must be \"raw\", \"war\" or \"waw\"");
        e->hazard = strcmp(hz->valuestring, "raw") == 0   ? GL_HAZ_RAW
                    : strcmp(hz->valuestring, "war") == 0 ? GL_HAZ_WAR
                                                          : GL_HAZ_WAW;
    }
    if ((st = get_thread(c, js, "reader", &e->has_reader, e->reader)) != GL_OK ||
        (st = get_thread(c, js, "writer", &e->has_writer, e->writer)) != GL_OK)
        return st;
    const cJSON *el = cJSON_GetObjectItemCaseSensitive(js, "element");
    if (el) {
        if (!cJSON_IsString(el) || !strchr(el->valuestring, '['))
            return bad(c, "element must be written as \"name[index]\"");
        if ((st = dup_str(c, el->valuestring, &e->element)) != GL_OK)
            return st;
    }
    if (e->has_equals)
        return bad(c, "a finding takes min or max (its occurrences), not equals");
    if (strcmp(e->name, "none") == 0 && (e->first || e->hazard || e->has_reader || e->has_writer ||
                                         e->element || e->has_min || e->has_max))
        return bad(c, "finding \"none\" takes no other test");
    return GL_OK;
}

/* A GPU measurement entry. */
static gl_status parse_measure(pctx *c, const cJSON *subj, const cJSON *launch, gl_expect *e)
{
    gl_status st = GL_OK;
    if (!cJSON_IsString(subj) || !in_list(gl_expect_measure_names, subj->valuestring))
        return bad(c, "measure must be \"time_ms\", \"gbs\", \"gflops\", \"pct_of_peak\", "
                      "\"library_pct\" or \"time_ratio\"");
    if ((st = dup_str(c, subj->valuestring, &e->name)) != GL_OK)
        return st;
    if (!e->has_min && !e->has_max)
        return bad(c, "a measure needs min and/or max (a GPU's speed is a range)");
    if (e->has_equals)
        return bad(c, "a measure takes min and max, not equals");
    if (strcmp(e->name, "time_ratio") == 0 && !e->kernel)
        return bad(c, "time_ratio compares another \"kernel\"'s time with the step "
                      "kernel's: name the kernel");
    if (strcmp(e->name, "library_pct") == 0 &&
        !cJSON_GetObjectItemCaseSensitive(launch, "reference_library"))
        return bad(c, "library_pct needs the launch's \"reference_library\"");
    return GL_OK;
}

static gl_status parse_entry(pctx *c, const cJSON *js, const cJSON *launch, gl_expect *e)
{
    if (!cJSON_IsObject(js))
        return bad(c, "must be an object");
    static const char *const keys[] = {"buffer", "stdout_lines", "stdout_contains",
                                       "metric", "finding",      "measure",
                                       "on",     "kernel",       "device",
                                       "index",  "from",         "to",
                                       "mod",    "equals",       "min",
                                       "max",    "tolerance",    "sum",
                                       "iota",   "sorted",       "diff",
                                       "gemm",   "line",         "per",
                                       "first",  "hazard",       "reader",
                                       "writer", "element",      NULL};
    const cJSON *it;
    cJSON_ArrayForEach(it, js)
    {
        if (!in_list(keys, it->string)) {
            char what[128];
            snprintf(what, sizeof what, "unknown key \"%.60s\"", it->string);
            return bad(c, what);
        }
    }
    static const struct {
        const char *key;
        gl_expect_kind kind;
        unsigned on;
    } subjects[] = {
        {"buffer", GL_EXPECT_BUFFER, GL_EXPECT_ON_SIM | GL_EXPECT_ON_GPU},
        {"stdout_lines", GL_EXPECT_STDOUT_LINES, GL_EXPECT_ON_SIM | GL_EXPECT_ON_GPU},
        {"stdout_contains", GL_EXPECT_STDOUT_CONTAINS, GL_EXPECT_ON_SIM | GL_EXPECT_ON_GPU},
        {"metric", GL_EXPECT_METRIC, GL_EXPECT_ON_SIM},
        {"finding", GL_EXPECT_FINDING, GL_EXPECT_ON_SIM},
        {"measure", GL_EXPECT_MEASURE, GL_EXPECT_ON_GPU}};
    int found = -1;
    for (size_t i = 0; i < sizeof subjects / sizeof *subjects; i++)
        if (cJSON_GetObjectItemCaseSensitive(js, subjects[i].key)) {
            if (found >= 0)
                return bad(c, "names two subjects; an entry checks one of \"buffer\", "
                              "\"stdout_lines\", \"stdout_contains\", \"metric\", \"finding\" "
                              "or \"measure\"");
            found = (int)i;
        }
    if (found < 0)
        return bad(c, "needs a subject: \"buffer\", \"stdout_lines\", \"stdout_contains\", "
                      "\"metric\", \"finding\" or \"measure\"");
    e->kind = subjects[found].kind;
    e->on = subjects[found].on;
    e->to = -1;
    const cJSON *subj = cJSON_GetObjectItemCaseSensitive(js, subjects[found].key);
    gl_status st = GL_OK;

    /* where: "on", "device", "kernel" */
    const cJSON *on = cJSON_GetObjectItemCaseSensitive(js, "on");
    if (on) {
        if (!cJSON_IsString(on) ||
            !in_list((const char *const[]){"sim", "gpu", "both", NULL}, on->valuestring))
            return bad(c, "on must be \"sim\", \"gpu\" or \"both\"");
        e->on = on->valuestring[0] == 's'   ? GL_EXPECT_ON_SIM
                : on->valuestring[0] == 'g' ? GL_EXPECT_ON_GPU
                                            : GL_EXPECT_ON_SIM | GL_EXPECT_ON_GPU;
    }
    if ((e->kind == GL_EXPECT_METRIC || e->kind == GL_EXPECT_FINDING) && e->on != GL_EXPECT_ON_SIM)
        return bad(c, "metrics and findings come from the simulator's run: on must be \"sim\"");
    if (e->kind == GL_EXPECT_MEASURE && e->on != GL_EXPECT_ON_GPU)
        return bad(c, "a measure is a GPU's: on must be \"gpu\"");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(js, "device");
    if (dev) {
        if (!cJSON_IsString(dev) || !*dev->valuestring)
            return bad(c, "device must be a part of a GPU's name (\"H100\")");
        if (!(e->on & GL_EXPECT_ON_GPU))
            return bad(c, "device names a GPU: the entry must be on \"gpu\"");
        if ((st = dup_str(c, dev->valuestring, &e->device)) != GL_OK)
            return st;
    }
    const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(js, "kernel");
    if (kernel) {
        if (!cJSON_IsString(kernel) || !*kernel->valuestring)
            return bad(c, "kernel must name a kernel of the step's file");
        if ((st = dup_str(c, kernel->valuestring, &e->kernel)) != GL_OK)
            return st;
    }

    /* which keys each subject takes */
    static const char *const buffer_keys[] = {"index", "from",   "to",   "mod",  "sum",
                                              "iota",  "sorted", "diff", "gemm", NULL};
    static const char *const finding_keys[] = {"first",  "hazard",  "reader",
                                               "writer", "element", NULL};
    for (const char *const *k = buffer_keys; *k; k++)
        if (e->kind != GL_EXPECT_BUFFER && cJSON_GetObjectItemCaseSensitive(js, *k)) {
            char what[96];
            snprintf(what, sizeof what, "%s applies to a buffer only", *k);
            return bad(c, what);
        }
    for (const char *const *k = finding_keys; *k; k++)
        if (e->kind != GL_EXPECT_FINDING && cJSON_GetObjectItemCaseSensitive(js, *k)) {
            char what[96];
            snprintf(what, sizeof what, "%s applies to a finding only", *k);
            return bad(c, what);
        }
    if (e->kind != GL_EXPECT_METRIC && cJSON_GetObjectItemCaseSensitive(js, "line"))
        return bad(c, "line applies to a metric only");
    if (e->kind != GL_EXPECT_METRIC && cJSON_GetObjectItemCaseSensitive(js, "per"))
        return bad(c, "per applies to a metric only");

    /* the tests every subject may use */
    const cJSON *eq = cJSON_GetObjectItemCaseSensitive(js, "equals");
    if (eq) {
        if (!number_of(eq, &e->equals)) {
            if (!(e->kind == GL_EXPECT_METRIC && cJSON_IsString(subj) &&
                  strcmp(subj->valuestring, "occupancy_limiter") == 0 && cJSON_IsString(eq)))
                return bad(c, "equals must be a number, \"nan\", \"inf\" or \"-inf\"");
            if ((st = dup_str(c, eq->valuestring, &e->equals_str)) != GL_OK)
                return st;
        }
        e->has_equals = 1;
    }
    if ((st = get_num(c, js, "min", &e->has_min, &e->min)) != GL_OK ||
        (st = get_num(c, js, "max", &e->has_max, &e->max)) != GL_OK ||
        (st = get_num(c, js, "tolerance", NULL, &e->tolerance)) != GL_OK)
        return st;
    if (e->tolerance < 0)
        return bad(c, "tolerance must be >= 0");
    if (e->has_min && e->has_max && e->min > e->max)
        return bad(c, "min is above max");

    switch (e->kind) {
    case GL_EXPECT_BUFFER: st = parse_buffer(c, js, subj, launch, e); break;
    case GL_EXPECT_STDOUT_LINES: st = parse_stdout_lines(c, subj, e); break;
    case GL_EXPECT_STDOUT_CONTAINS: st = parse_stdout_contains(c, subj, e); break;
    case GL_EXPECT_METRIC: st = parse_metric(c, js, subj, launch, e); break;
    case GL_EXPECT_FINDING: st = parse_finding(c, js, subj, e); break;
    case GL_EXPECT_MEASURE: st = parse_measure(c, subj, launch, e); break;
    }
    if (st != GL_OK)
        return st;
    if (e->kind != GL_EXPECT_BUFFER && e->kind != GL_EXPECT_METRIC &&
        cJSON_GetObjectItemCaseSensitive(js, "tolerance"))
        return bad(c, "tolerance applies to a buffer's or metric's equals and sum");
    return GL_OK;
}

gl_status gl_expect_parse(const cJSON *arr, const cJSON *launch, const char *file, int step,
                          gl_expect **out, int *n, gl_error *err)
{
    *out = NULL;
    *n = 0;
    pctx c = {.file = file, .err = err};
    snprintf(c.field, sizeof c.field, "steps[%d].expect", step);
    if (!cJSON_IsArray(arr))
        return bad(&c, "must be an array of checks");
    if (!launch)
        return bad(&c, "a step without a launch has no run to check");
    const int count = cJSON_GetArraySize(arr);
    gl_expect *e = calloc((size_t)count + 1, sizeof *e);
    if (!e)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    gl_status st = GL_OK;
    for (int j = 0; j < count && st == GL_OK; j++) {
        snprintf(c.field, sizeof c.field, "steps[%d].expect[%d]", step, j);
        st = parse_entry(&c, cJSON_GetArrayItem(arr, j), launch, &e[j]);
    }
    if (st != GL_OK) {
        gl_expect_free(e, count);
        return st;
    }
    *out = e;
    *n = count;
    return GL_OK;
}

void gl_expect_free(gl_expect *e, int n)
{
    for (int i = 0; e && i < n; i++) {
        free(e[i].name);
        free(e[i].kernel);
        free(e[i].device);
        free(e[i].equals_str);
        free(e[i].element);
        free(e[i].gemm_a);
        free(e[i].gemm_b);
    }
    free(e);
}

/* ------------------------------------------------------------------- checking */

/* One run of a kernel of the step (the step's own, or an entry's "kernel"). */
typedef struct krun {
    const char *kernel; /* NULL: the step's */
    gl_spec spec;       /* its launch (lesson_step_spec_for: the step's "kernels" entry) */
    int have_spec;
    gl_status status;
    char error[4096];
    gl_run_result res;
    uint64_t global_load_lanes; /* lane-level global loads (metric "global_loads") */
} krun;

/* Formats v for messages: integers exactly, others with 6 significant digits. */
static void fmt(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "nan");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.6g", v);
}

/* "2", "2 (within 0.001)", "from 1 to 3", "at least 1", "at most 3" */
static void fmt_claim(char *buf, size_t len, const gl_expect *e)
{
    char a[24], b[24]; /* fmt writes at most 17 bytes: %.0f below 1e15, or %.6g */
    if (e->has_equals) {
        fmt(a, sizeof a, e->equals);
        if (e->tolerance > 0) {
            fmt(b, sizeof b, e->tolerance);
            snprintf(buf, len, "%s (within %s)", a, b);
        } else {
            snprintf(buf, len, "%s", a);
        }
    } else if (e->has_min && e->has_max) {
        fmt(a, sizeof a, e->min);
        fmt(b, sizeof b, e->max);
        snprintf(buf, len, "from %s to %s", a, b);
    } else if (e->has_min) {
        fmt(a, sizeof a, e->min);
        snprintf(buf, len, "at least %s", a);
    } else {
        fmt(b, sizeof b, e->max);
        snprintf(buf, len, "at most %s", b);
    }
}

static int equal_within(double v, double want, double tol)
{
    if (isnan(want))
        return isnan(v);
    if (isinf(want))
        return v == want;
    return fabs(v - want) <= tol;
}

/* Whether v passes the entry's equals / min / max (those it has). */
static int value_ok(const gl_expect *e, double v)
{
    if (e->has_equals && !equal_within(v, e->equals, e->tolerance))
        return 0;
    if (e->has_min && !(v >= e->min))
        return 0;
    if (e->has_max && !(v <= e->max))
        return 0;
    return 1;
}

static double elem(const gl_buffer *b, gl_type t, size_t i)
{
    gl_value v = spec_buffer_get(b->data, t, i);
    if (spec_type_is_float(t))
        return v.f;
    return spec_type_is_signed(t) ? (double)v.i : (double)v.u;
}

/* Element i of the host's product gemm_a x gemm_b (double), from run res's buffers. */
static double gemm_elem(const gl_expect *e, const gl_spec *spec, const gl_run_result *res, size_t i)
{
    const int a = spec_find_arg(spec, e->gemm_a), b = spec_find_arg(spec, e->gemm_b);
    const size_t k_len = spec->args[a].cols, n = spec->args[b].cols;
    const size_t row = i / n, col = i % n;
    double sum = 0;
    for (size_t k = 0; k < k_len; k++)
        sum += elem(&res->buffers[a], spec->args[a].type, row * k_len + k) *
               elem(&res->buffers[b], spec->args[b].type, k * n + col);
    return sum;
}

/* Element i of the entry's buffer (arg), as a message names it: "c[5]", or with its row
 * and column for a matrix. */
static void elem_where(const gl_expect *e, const gl_arg *arg, size_t i, char *buf, size_t n)
{
    if (arg->rows && arg->cols)
        snprintf(buf, n, "%s[%zu] (row %zu, column %zu)", e->name, i, i / arg->cols, i % arg->cols);
    else
        snprintf(buf, n, "%s[%zu]", e->name, i);
}

/* Checks a buffer entry against run r (and the step's run for diff); *why gets the
 * first way it fails. */
static int check_buffer(const gl_expect *e, const gl_spec *spec, const krun *r, const krun *step,
                        char *why, size_t len)
{
    const int a = spec_find_arg(spec, e->name);
    const gl_arg *arg = &spec->args[a];
    const gl_buffer *b = &r->res.buffers[a];
    if (!b->data) {
        snprintf(why, len, "the run returned no '%s'", e->name);
        return 0;
    }
    const size_t from = (size_t)e->from;
    const size_t to = e->to < 0 ? arg->len : (size_t)e->to;
    if (from >= arg->len || to > arg->len) {
        snprintf(why, len, "'%s' has %zu elements here, fewer than the entry selects", e->name,
                 arg->len);
        return 0;
    }
    const int is_int = !spec_type_is_float(arg->type);
    if (e->mod && !is_int) {
        snprintf(why, len, "mod needs an integer buffer; '%s' is %s", e->name,
                 spec_type_name(arg->type));
        return 0;
    }
    char where[96], got[48], want[96];
    double sum = 0, prev = -INFINITY, maxdiff = 0;
    for (size_t i = from; i < to; i++) {
        double v = elem(b, arg->type, i);
        if (e->mod) {
            v = fmod(v, (double)e->mod);
            if (v < 0)
                v += (double)e->mod;
        }
        if ((e->has_equals || e->has_min || e->has_max) && !value_ok(e, v)) {
            const char *m = e->mod ? " mod " : "";
            char mods[24] = "";
            if (e->mod)
                snprintf(mods, sizeof mods, "%lld", (long long)e->mod);
            elem_where(e, arg, i, where, sizeof where);
            fmt(got, sizeof got, v);
            fmt_claim(want, sizeof want, e);
            snprintf(why, len, "%s%s%s is %s; expected %s", where, m, mods, got, want);
            return 0;
        }
        if (e->has_iota) {
            const double w = e->iota_start + (double)(i - from) * e->iota_step;
            if (!equal_within(v, w, e->tolerance)) {
                elem_where(e, arg, i, where, sizeof where);
                fmt(got, sizeof got, v);
                fmt(want, sizeof want, w);
                snprintf(why, len, "%s is %s; expected %s (iota)", where, got, want);
                return 0;
            }
        }
        if (e->sorted && v < prev) {
            elem_where(e, arg, i, where, sizeof where);
            fmt(got, sizeof got, v);
            fmt(want, sizeof want, prev);
            snprintf(why, len, "%s is %s, less than the element before it (%s): not ascending",
                     where, got, want);
            return 0;
        }
        prev = v;
        sum += v;
        if (e->has_diff) {
            const double s = e->gemm_a ? gemm_elem(e, spec, &r->res, i)
                                       : elem(&step->res.buffers[a], arg->type, i);
            const double d =
                isnan(v) || isnan(s) ? (isnan(v) && isnan(s) ? 0 : INFINITY) : fabs(v - s);
            maxdiff = d > maxdiff ? d : maxdiff;
        }
    }
    if (e->has_sum && !equal_within(sum, e->sum, e->tolerance)) {
        fmt(got, sizeof got, sum);
        fmt(want, sizeof want, e->sum);
        snprintf(why, len, "the sum of %s[%zu..%zu] is %s; expected %s", e->name, from, to - 1, got,
                 want);
        return 0;
    }
    if (e->has_diff && !(maxdiff >= e->diff_min && maxdiff <= e->diff_max)) {
        fmt(got, sizeof got, maxdiff);
        gl_expect range = {.has_min = e->diff_min > 0,
                           .min = e->diff_min,
                           .has_max = !isinf(e->diff_max),
                           .max = e->diff_max};
        fmt_claim(want, sizeof want, &range);
        if (e->gemm_a)
            snprintf(why, len,
                     "'%s' differs from the host's %s %s (in double) by up to %s; expected %s",
                     e->name, e->gemm_a, e->gemm_b, got, want);
        else
            snprintf(why, len, "%s's '%s' differs from the step kernel's by up to %s; expected %s",
                     e->kernel, e->name, got, want);
        return 0;
    }
    return 1;
}

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "";
}

/* The counters of the whole launch, or of one line of the step's kernel file. */
static int counts_of(const gl_expect *e, const gl_spec *spec, const gl_metrics *m, gl_counts *c)
{
    if (!e->line) {
        *c = m->total;
        return 1;
    }
    memset(c, 0, sizeof *c);
    int found = 0;
    for (int i = 0; i < m->nlines; i++) {
        const gl_line_counts *lc = &m->lines[i];
        const char *f =
            lc->src_file > 0 && lc->src_file < m->nfiles ? m->files[lc->src_file] : NULL;
        if (lc->src_line != e->line || !f || strcmp(base_name(f), base_name(spec->source)) != 0)
            continue;
        found = 1;
#define GL_ADD(field, key) c->field += lc->c.field;
        GL_COUNTS_LIST(GL_ADD)
#undef GL_ADD
    }
    return found;
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0;
}

/* The value of metric `name` (a short name or an analysis key) of run r; 0 when
 * unknown. */
static double metric_value(const char *name, const gl_counts *c, const gl_spec *spec, const krun *r)
{
    const gl_run_result *res = &r->res;
#define GL_KEYVAL(field, key)                                                                      \
    if (strcmp(name, key) == 0)                                                                    \
        return (double)c->field;
    GL_COUNTS_LIST(GL_KEYVAL)
#undef GL_KEYVAL
    const uint64_t sectors = c->gld_sectors + c->gst_sectors;
    if (strcmp(name, "warp_execution_efficiency") == 0)
        return gl_warp_execution_efficiency(c);
    if (strcmp(name, "smsp__thread_inst_executed_per_inst_executed.ratio") == 0)
        return 32 * gl_warp_execution_efficiency(c);
    if (strcmp(name, "branch_efficiency") == 0)
        return gl_branch_efficiency(c);
    if (strcmp(name, "smsp__sass_average_branch_targets_threads_uniform.pct") == 0)
        return 100 * gl_branch_efficiency(c);
    if (strcmp(name, "sectors_per_request") == 0)
        return ratio(sectors, c->gld_requests + c->gst_requests);
    if (strcmp(name, "load_sectors_per_request") == 0 ||
        strcmp(name, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio") == 0)
        return gl_gld_sectors_per_request(c);
    if (strcmp(name, "store_sectors_per_request") == 0 ||
        strcmp(name, "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio") == 0)
        return gl_gst_sectors_per_request(c);
    if (strcmp(name, "sector_efficiency") == 0)
        return gl_global_sector_efficiency(c);
    if (strcmp(name, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct") == 0)
        return 100 * ratio(c->gld_bytes, 32 * c->gld_sectors);
    if (strcmp(name, "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct") == 0)
        return 100 * ratio(c->gst_bytes, 32 * c->gst_sectors);
    if (strcmp(name, "bank_conflicts") == 0)
        return (double)(c->shld_bank_conflicts + c->shst_bank_conflicts);
    if (strcmp(name, "shared_load_wavefronts_per_request") == 0)
        return ratio(c->shld_wavefronts, c->shld_requests);
    if (strcmp(name, "shared_store_wavefronts_per_request") == 0)
        return ratio(c->shst_wavefronts, c->shst_requests);
    if (strcmp(name, "global_loads") == 0)
        return (double)r->global_load_lanes;
    if (strcmp(name, "global_atomics") == 0)
        return (double)c->global_atom_threads;
    if (strcmp(name, "shared_atomics") == 0)
        return (double)c->shared_atom_threads;
    if (strcmp(name, "additions") == 0)
        return (double)c->additions;
    if (strcmp(name, "float_additions") == 0)
        return (double)c->float_additions;
    if (strcmp(name, "tensor_instructions") == 0)
        return (double)c->tensor_insts;
    if (strcmp(name, "global_load_bytes_per_flop") == 0)
        return spec->flops > 0 ? 32.0 * (double)c->gld_sectors / spec->flops : 0;
    if (strcmp(name, "flops_per_sector_byte") == 0)
        return sectors ? spec->flops / (32.0 * (double)sectors) : 0;
    if (strcmp(name, "theoretical_occupancy") == 0)
        return res->occupancy.valid ? 100 * res->occupancy.theoretical : 0;
    if (strcmp(name, "achieved_occupancy") == 0)
        return res->occupancy.valid ? 100 * res->occupancy.achieved : 0;
    if (strcmp(name, "shared_bytes_per_block") == 0)
        return res->occupancy.valid ? res->occupancy.shared_bytes : 0;
    return 0;
}

static int check_metric(const gl_expect *e, const gl_spec *spec, const krun *r, char *why,
                        size_t len)
{
    char got[48], want[96];
    if (strcmp(e->name, "occupancy_limiter") == 0) {
        const char *lim = r->res.occupancy.valid ? r->res.occupancy.limiter : "(not computed)";
        if (e->equals_str && strcmp(lim, e->equals_str) != 0) {
            snprintf(why, len, "the occupancy's limit is %s; expected %s", lim, e->equals_str);
            return 0;
        }
        return 1;
    }
    const int occupancy =
        strstr(e->name, "occupancy") != NULL || strcmp(e->name, "shared_bytes_per_block") == 0;
    if (!occupancy && !r->res.metrics) {
        snprintf(why, len, "the run has no metrics");
        return 0;
    }
    if (!occupancy && r->res.metrics->incomplete) {
        snprintf(why, len, "the run's metrics are incomplete");
        return 0;
    }
    gl_counts c = {0};
    if (!occupancy && !counts_of(e, spec, r->res.metrics, &c)) {
        snprintf(why, len, "no instruction of %s line %d ran", base_name(spec->source), e->line);
        return 0;
    }
    double v = metric_value(e->name, &c, spec, r);
    if (e->per > 0)
        v /= e->per;
    else if (e->per == -1)
        v /= (double)spec->grid[0] * spec->grid[1] * spec->grid[2];
    else if (e->per == -2)
        v = spec->flops > 0 ? v / spec->flops : 0;
    if (value_ok(e, v))
        return 1;
    fmt(got, sizeof got, v);
    fmt_claim(want, sizeof want, e);
    if (e->line)
        snprintf(why, len, "%s at %s:%d is %s; expected %s", e->name, base_name(spec->source),
                 e->line, got, want);
    else
        snprintf(why, len, "%s is %s; expected %s", e->name, got, want);
    return 0;
}

/* An occupancy entry e of run r whose registers per thread are unknown
 * (gl_occupancy.bound): 1 when only registers could decide it, i.e. the occupancy the
 * other limits allow (an upper bound: registers only lower it) is above the claim, or
 * the claim is that registers set the limit; 0 when that bound decides it (it holds
 * there, or is already under the claim). */
static int registers_decide(const gl_expect *e, const gl_spec *spec, const krun *r)
{
    const gl_occupancy *o = &r->res.occupancy;
    if (strcmp(e->name, "occupancy_limiter") == 0)
        return e->equals_str && strcmp(e->equals_str, "registers") == 0 &&
               strcmp(o->limiter, "registers") != 0;
    const double v = metric_value(e->name, &(gl_counts){0}, spec, r);
    if (value_ok(e, v) || (e->has_min && v < e->min))
        return 0;
    return (e->has_equals && v > e->equals + e->tolerance) || (e->has_max && v > e->max);
}

static int finding_kind_is(const gl_finding *f, const char *kind)
{
    const int shared = f->kind == GL_FIND_RACE || f->kind == GL_FIND_WARP_RACE;
    if (strcmp(kind, "race") == 0)
        return shared || f->kind == GL_FIND_GLOBAL_RACE;
    if (strcmp(kind, "shared_race") == 0)
        return shared;
    if (strcmp(kind, "global_race") == 0)
        return f->kind == GL_FIND_GLOBAL_RACE;
    if (strcmp(kind, "barrier") == 0)
        return f->kind == GL_FIND_DIVERGENT_BARRIER || f->kind == GL_FIND_EXITED_BARRIER;
    if (strcmp(kind, "deadlock") == 0)
        return f->kind == GL_FIND_DEADLOCK;
    if (strcmp(kind, "out_of_bounds") == 0)
        return f->kind == GL_FIND_OUT_OF_BOUNDS || f->kind == GL_FIND_MISALIGNED;
    if (strcmp(kind, "uninitialized") == 0)
        return f->kind == GL_FIND_UNINIT_READ;
    if (strcmp(kind, "step_limit") == 0)
        return f->kind == GL_FIND_STEP_LIMIT;
    return 0;
}

/* The element a finding's address names: a global buffer's "name[i]" (from the run's
 * buffer addresses) or the shared variable's. */
static void finding_element(const gl_finding *f, const gl_spec *spec, const gl_run_result *res,
                            char *buf, size_t len)
{
    snprintf(buf, len, "%s", f->var);
    if (f->space != GL_SPACE_GLOBAL || !res->dptr)
        return;
    for (int a = 0; a < spec->nargs; a++) {
        const gl_arg *arg = &spec->args[a];
        const uint64_t lo = res->dptr[a], size = spec_type_size(arg->type);
        if (arg->is_ptr && lo && f->address >= lo && f->address < lo + arg->len * size) {
            snprintf(buf, len, "%s[%llu]", arg->name,
                     (unsigned long long)((f->address - lo) / size));
            return;
        }
    }
}

static int same_thread(const unsigned a[3], const unsigned b[3])
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/* Whether finding f has the entry's hazard, reader, writer and element. */
static int finding_matches(const gl_expect *e, const gl_finding *f, const gl_spec *spec,
                           const gl_run_result *res)
{
    if (e->hazard && (int)f->hazard != e->hazard)
        return 0;
    const gl_access *acc[2] = {&f->access, &f->other};
    if (e->has_reader) {
        int ok = 0;
        for (int i = 0; i < 2; i++)
            ok |= acc[i]->op == 0 && same_thread(acc[i]->thread, e->reader);
        if (!ok)
            return 0;
    }
    if (e->has_writer) {
        int ok = 0;
        for (int i = 0; i < 2; i++)
            ok |= acc[i]->op != 0 && same_thread(acc[i]->thread, e->writer);
        if (!ok)
            return 0;
    }
    if (e->element) {
        char el[96];
        finding_element(f, spec, res, el, sizeof el);
        if (strcmp(el, e->element) != 0)
            return 0;
    }
    return 1;
}

static int check_finding(const gl_expect *e, const gl_spec *spec, const krun *r, char *why,
                         size_t len)
{
    const gl_run_result *res = &r->res;
    if (strcmp(e->name, "none") == 0) {
        if (res->nfindings == 0 && res->fault.kind == GL_FAULT_NONE)
            return 1;
        snprintf(why, len, "the run has %s: %s", res->nfindings ? "a finding" : "a fault",
                 res->nfindings ? res->findings[0].message : res->fault.message);
        return 0;
    }
    uint64_t occurrences = 0;
    int seen = 0, matched = 0;
    const gl_finding *first = NULL;
    for (int i = 0; i < res->nfindings; i++) {
        const gl_finding *f = &res->findings[i];
        if (!finding_kind_is(f, e->name))
            continue;
        occurrences += f->count ? f->count : 1;
        if (!first)
            first = f;
        if ((!e->first || !seen) && finding_matches(e, f, spec, res))
            matched = 1;
        seen = 1;
    }
    if (!seen) {
        snprintf(why, len, "the checkers report no %s", e->name);
        return 0;
    }
    if (!matched) {
        char el[96];
        finding_element(first, spec, res, el, sizeof el);
        snprintf(why, len,
                 "no %s%s finding has the hazard, threads and element the entry names; the "
                 "first is: %s (element %s)",
                 e->first ? "first " : "", e->name, first->message, el[0] ? el : "unknown");
        return 0;
    }
    if ((e->has_min || e->has_max) && !value_ok(e, (double)occurrences)) {
        char got[48], want[96];
        fmt(got, sizeof got, (double)occurrences);
        fmt_claim(want, sizeof want, e);
        snprintf(why, len, "the checkers report %s occurrences of %s; expected %s", got, e->name,
                 want);
        return 0;
    }
    return 1;
}

static int library_pct(const gl_timing *t, double *out)
{
    const gl_library_run *lib = &t->library;
    if (!lib->ran)
        return 0;
    const double rate = lib->gbs > 0 ? lib->gbs : lib->gflops;
    const double mine = lib->gbs > 0 ? t->gbs : t->gflops;
    if (rate <= 0 || mine <= 0)
        return 0;
    *out = 100.0 * mine / rate;
    return 1;
}

static int check_measure(const gl_expect *e, const krun *r, const krun *step, char *why, size_t len)
{
    const gl_timing *t = &r->res.timing;
    double v = 0;
    if (t->reps == 0) {
        snprintf(why, len, "the run was not timed");
        return 0;
    }
    if (strcmp(e->name, "time_ms") == 0)
        v = t->median_ms;
    else if (strcmp(e->name, "gbs") == 0)
        v = t->gbs;
    else if (strcmp(e->name, "gflops") == 0)
        v = t->gflops;
    else if (strcmp(e->name, "pct_of_peak") == 0)
        v = t->pct_of_peak;
    else if (strcmp(e->name, "time_ratio") == 0)
        v = step->res.timing.median_ms > 0 ? t->median_ms / step->res.timing.median_ms : 0;
    else if (!library_pct(t, &v)) {
        snprintf(why, len, "the library did not run: %s", t->library.note);
        return 0;
    }
    if (value_ok(e, v))
        return 1;
    char got[48], want[96];
    fmt(got, sizeof got, v);
    fmt_claim(want, sizeof want, e);
    snprintf(why, len, "%s%s%s is %s; expected %s", e->kernel ? e->kernel : "",
             e->kernel ? "'s " : "", e->name, got, want);
    return 0;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

/* Checks entry e against its run; *why says how it fails. */
static int check_entry(const gl_expect *e, const gl_spec *spec, const krun *r, const krun *step,
                       char *why, size_t len)
{
    switch (e->kind) {
    case GL_EXPECT_BUFFER: return check_buffer(e, spec, r, step, why, len);
    case GL_EXPECT_STDOUT_LINES: {
        const int n = count_lines(r->res.stdout_text);
        if (value_ok(e, n))
            return 1;
        char want[96];
        fmt_claim(want, sizeof want, e);
        snprintf(why, len, "the kernel printed %d line%s; expected %s", n, n == 1 ? "" : "s", want);
        return 0;
    }
    case GL_EXPECT_STDOUT_CONTAINS:
        if (r->res.stdout_text && strstr(r->res.stdout_text, e->name))
            return 1;
        snprintf(why, len, "the kernel's output has no \"%s\"", e->name);
        return 0;
    case GL_EXPECT_METRIC: return check_metric(e, spec, r, why, len);
    case GL_EXPECT_FINDING: return check_finding(e, spec, r, why, len);
    case GL_EXPECT_MEASURE: return check_measure(e, r, step, why, len);
    }
    return 0;
}

/* Counts lane-level global loads (gl_run_opts.trace_sink; ctx: a uint64_t). */
static void count_global_loads(void *ctx, const trace_t *t, const trace_event *ev,
                               const uint64_t *addrs)
{
    (void)t;
    (void)addrs;
    if (ev->kind == TRACE_EV_MEM && ev->space == TRACE_SPACE_GLOBAL && ev->op == TRACE_LOAD)
        *(uint64_t *)ctx += (uint64_t)__builtin_popcount(ev->mask);
}

/* Runs `kernel` of step s's file (NULL: the step's) on `where` with the launch the step
 * gives it (lesson_step_spec_for), into r (r->spec owned: krun_free). */
static void run_kernel(const gl_lesson *l, int s, const char *kernel, gl_backend_kind where,
                       const gl_run_opts *o, krun *r)
{
    memset(r, 0, sizeof *r);
    r->kernel = kernel;
    gl_error err = {0};
    r->status = lesson_step_spec_for(l, s, kernel, where, &r->spec, &err);
    if (r->status == GL_OK) {
        r->have_spec = 1;
        gl_run_opts ro = *o;
        if (ro.metrics && ro.backend == GL_BACKEND_SIM) {
            ro.trace_sink = count_global_loads;
            ro.trace_sink_ctx = &r->global_load_lanes;
        }
        r->status = gl_run_spec(&r->spec, &ro, &r->res, &err);
    }
    if (r->status != GL_OK)
        snprintf(r->error, sizeof r->error, "%s", err.msg);
}

static void krun_free(krun *r)
{
    gl_run_result_free(&r->res);
    if (r->have_spec)
        spec_free(&r->spec);
}

/* The scalar arguments as "M=4096 N=4096 K=4096" (a speed row's size). */
static void size_text(const gl_spec *s, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int a = 0; a < s->nargs && used < len; a++) {
        const gl_arg *arg = &s->args[a];
        if (arg->is_ptr)
            continue;
        char v[48];
        if (spec_type_is_float(arg->type))
            fmt(v, sizeof v, arg->value.f);
        else
            snprintf(v, sizeof v, "%lld", (long long)arg->value.i);
        int k = snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", arg->name, v);
        used += k > 0 ? (size_t)k : 0;
    }
}

/* One row of gpulearn lint --speed's table. */
static void speed_row(FILE *out, const gl_lesson *l, int s, const gl_spec *spec, const krun *r)
{
    char size[128], lib[320] = "";
    size_text(spec, size, sizeof size);
    const char *k = r->kernel ? r->kernel : spec->kernel;
    if (r->status != GL_OK) {
        fprintf(out, "speed %2d.%d %-22s %-28s failed: %s\n", l->number, s + 1, k, size, r->error);
        return;
    }
    const gl_timing *t = &r->res.timing;
    double pct = 0;
    if (library_pct(t, &pct))
        snprintf(lib, sizeof lib, "%s %.0f %s (yours %.0f %%)",
                 t->library.gbs > 0 ? "CUB" : "cuBLAS",
                 t->library.gbs > 0 ? t->library.gbs : t->library.gflops,
                 t->library.gbs > 0 ? "GB/s" : "GFLOP/s", pct);
    else if (t->library.asked)
        snprintf(lib, sizeof lib, "library not run: %.240s", t->library.note);
    char flops[48] = "";
    if (t->gflops > 0)
        snprintf(flops, sizeof flops, "%9.0f GFLOP/s", t->gflops);
    fprintf(out, "speed %2d.%d %-22s %-28s %10.4f ms %8.0f GB/s %5.1f %% of peak%s%s%s%s\n",
            l->number, s + 1, k, size, t->median_ms, t->gbs, t->pct_of_peak, flops[0] ? " " : "",
            flops, lib[0] ? " " : "", lib);
}

/* Whether kernel k (NULL: the step's) is already in runs[0..n). */
static int find_run(const krun *runs, int n, const char *k)
{
    for (int i = 0; i < n; i++)
        if ((!k && !runs[i].kernel) || (k && runs[i].kernel && strcmp(k, runs[i].kernel) == 0))
            return i;
    return -1;
}

/* The other kernels of the step run's PTX that take as many arguments as the launch
 * passes (those f would run), added to runs (names borrowed from names). */
static int add_file_kernels(const krun *step, const gl_spec *spec, char ***names, int **np, int *nk)
{
    *nk = step->res.ptx ? gl_run_ptx_kernels(step->res.ptx, names, np) : 0;
    if (*nk < 0)
        *nk = 0;
    int count = 0;
    for (int i = 0; i < *nk; i++)
        count += (*np)[i] == spec->nargs && strcmp((*names)[i], spec->kernel) != 0;
    return count;
}

/* Whether `kernel` runs without a fault (a race is no fault) on the simulator at step s's
 * own launch: --speed times the file's other kernels on the GPU only then (lesson 9's
 * store one value per block into a one-int buffer; on a GPU that would write past it
 * unnoticed). */
static int fits_launch(const gl_lesson *l, int s, const char *kernel, char *why, size_t len)
{
    const gl_run_opts o = {.backend = GL_BACKEND_SIM};
    krun r;
    run_kernel(l, s, kernel, GL_BACKEND_SIM, &o, &r);
    const int ok = r.status == GL_OK;
    if (!ok)
        snprintf(why, len, "%.1000s", r.error);
    krun_free(&r);
    return ok;
}

/* Runs the step on one back end and checks the entries marked for it. */
static int lint_on(const gl_lesson *l, int s, gl_backend_kind where, const gl_expect_lint_opts *lo,
                   FILE *out)
{
    const gl_step *step = &l->steps[s];
    const unsigned bit = where == GL_BACKEND_GPU ? GL_EXPECT_ON_GPU : GL_EXPECT_ON_SIM;
    const char *dev = where == GL_BACKEND_GPU ? lo->device : "the simulator";
    int problems = 0, metrics = 0, timed = where == GL_BACKEND_GPU && lo->speed;
    int nbound = 0;             /* occupancy entries judged without registers per thread */
    int nundecided = 0;         /* and those that only registers could decide */
    const char *bound_why = ""; /* why they are not known */
    for (int j = 0; j < step->nexpect; j++) {
        const gl_expect *e = &step->expect[j];
        if (!(e->on & bit) || (e->device && !strstr(lo->device, e->device)))
            continue;
        metrics |= e->kind == GL_EXPECT_METRIC;
        timed |= e->kind == GL_EXPECT_MEASURE;
    }
    gl_run_opts o = {.backend = where, .metrics = metrics};
    if (timed) {
        o.time_reps = 20;
        o.time_warmup = 1;
    }
    /* the step's kernel, then each other kernel an entry names (or, for --speed, every
     * kernel f would run), once each */
    int cap = 1 + step->nexpect, n = 0;
    char **names = NULL;
    int *np = NULL, nk = 0;
    krun *runs = calloc((size_t)cap, sizeof *runs);
    if (!runs)
        return 1;
    run_kernel(l, s, NULL, where, &o, &runs[n++]);
    const gl_spec *spec = &runs[0].spec;
    if (runs[0].status != GL_OK) {
        fprintf(out, "%s/lesson.json: steps[%d]: the step's kernel does not run on %s: %s\n",
                l->dir, s, dev, runs[0].error);
        problems++;
    } else {
        if (lo->speed && where == GL_BACKEND_GPU) {
            const int extra = add_file_kernels(&runs[0], spec, &names, &np, &nk);
            krun *more = realloc(runs, (size_t)(cap + extra) * sizeof *runs);
            if (more) {
                runs = more;
                memset(runs + cap, 0, (size_t)extra * sizeof *runs);
                cap += extra;
            }
            spec = &runs[0].spec; /* runs moved */
            speed_row(out, l, s, spec, &runs[0]);
            for (int i = 0; i < nk && more; i++)
                if (np[i] == spec->nargs && strcmp(names[i], spec->kernel) != 0) {
                    char why[4096];
                    if (!fits_launch(l, s, names[i], why, sizeof why)) {
                        fprintf(out,
                                "speed %2d.%d %-22s not run on the GPU: on the simulator at the "
                                "step's launch: %s\n",
                                l->number, s + 1, names[i], why);
                        continue;
                    }
                    run_kernel(l, s, names[i], where, &o, &runs[n]);
                    speed_row(out, l, s, &runs[n].spec, &runs[n]);
                    n++;
                }
        }
        for (int j = 0; j < step->nexpect; j++) {
            const gl_expect *e = &step->expect[j];
            if (!(e->on & bit) || (e->device && !strstr(lo->device, e->device)))
                continue;
            int r = e->kernel ? find_run(runs, n, e->kernel) : 0;
            if (r < 0) {
                r = n++;
                run_kernel(l, s, e->kernel, where, &o, &runs[r]);
            }
            /* a kernel that faults is checked only for its finding (f on a launch that
             * does not fit it) */
            const int fault_finding = runs[r].status == GL_ERR_FAULT &&
                                      e->kind == GL_EXPECT_FINDING && strcmp(e->name, "none") != 0;
            if (runs[r].status != GL_OK && !fault_finding) {
                fprintf(out,
                        "%s/lesson.json: steps[%d].expect[%d]: kernel %s does not run with the "
                        "launch the step gives it on %s: %s\n",
                        l->dir, s, j, e->kernel, dev, runs[r].error);
                problems++;
                continue;
            }
            /* registers per thread not counted (no CUDA Toolkit's ptxas): an occupancy
             * entry is checked against the occupancy the other limits allow where that
             * decides it, else not checked; the step says so below */
            if (e->kind == GL_EXPECT_METRIC && strstr(e->name, "occupancy") &&
                runs[r].res.occupancy.bound) {
                bound_why = runs[r].res.occupancy.regs_why;
                if (registers_decide(e, &runs[r].spec, &runs[r])) {
                    nundecided++;
                    continue;
                }
                nbound++;
            }
            char why[1536];
            if (!check_entry(e, &runs[r].spec, &runs[r], &runs[0], why, sizeof why)) {
                fprintf(out, "%s/lesson.json: steps[%d].expect[%d]: %s (%s)\n", l->dir, s, j, why,
                        dev);
                problems++;
            }
        }
    }
    if (nbound || nundecided)
        fprintf(out,
                "%s/lesson.json: steps[%d]: SKIP: registers per thread unknown (%s): %d "
                "occupancy expect entr%s checked against the other limits only, %d not checked "
                "(registers decide %s)\n",
                l->dir, s, bound_why, nbound, nbound == 1 ? "y" : "ies", nundecided,
                nundecided == 1 ? "it" : "them");
    for (int i = 0; i < n; i++)
        krun_free(&runs[i]);
    free(runs);
    if (nk > 0)
        gl_run_ptx_kernels_free(names, np, nk);
    return problems;
}

void gl_expect_probe_gpu(gl_expect_lint_opts *o)
{
    gl_device_info info;
    char note[256];
    gl_error err = {0};
    o->gpu = gl_run_device_query(GL_BACKEND_AUTO, &info, note, sizeof note, &err) == GL_OK &&
             !info.is_simulator;
    snprintf(o->device, sizeof o->device, "%s", o->gpu ? info.name : "");
}

int gl_expect_lint_step(const gl_lesson *l, int s, const gl_expect_lint_opts *o, FILE *out,
                        int *gpu_skipped)
{
    const gl_step *step = &l->steps[s];
    int problems = 0, gpu_entries = 0;
    if (gpu_skipped)
        *gpu_skipped = 0;
    if (!step->launch)
        return 0;
    for (int j = 0; j < step->nexpect; j++)
        gpu_entries += (step->expect[j].on & GL_EXPECT_ON_GPU) != 0;
    if (!o->no_sim)
        problems += lint_on(l, s, GL_BACKEND_SIM, o, out);
    if (o->gpu && (gpu_entries || o->speed)) {
        problems += lint_on(l, s, GL_BACKEND_GPU, o, out);
    } else if (!o->gpu) {
        /* the GPU launch must build even where it cannot run */
        gl_spec spec;
        gl_error err = {0};
        if (step->gpu_launch &&
            lesson_step_spec_for(l, s, NULL, GL_BACKEND_GPU, &spec, &err) != GL_OK) {
            fprintf(out, "%s/lesson.json: steps[%d].gpu_launch: %s\n", l->dir, s, err.msg);
            problems++;
        } else if (step->gpu_launch) {
            spec_free(&spec);
        }
        if (gpu_skipped)
            *gpu_skipped = gpu_entries;
    }
    return problems;
}
