/* lesson.c — loading lesson format v1 (see lesson.h and the README). */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/arch.h"
#include "runtime/backend.h"
#include "runtime/grade.h"
#include "runtime/lesson.h"

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

const char *lesson_root(void)
{
    static char root[PATH_MAX + 64];
    const char *env = getenv("GPULEARN_LESSONS");
    if (env && *env)
        return env;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(root, sizeof root, "%s/../share/gpulearn/lessons", exe);
            if (is_dir(root))
                return root;
        }
    }
    return GL_LESSONS_DIR;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* ---------------------------------------------------------------- JSON helpers */

typedef struct ctx {
    const char *file;
    gl_error *err;
} ctx;

static gl_status bad(ctx *c, const char *field, const char *what)
{
    return gl_fail(c->err, GL_ERR_INPUT, "%s: %s: %s", c->file, field, what);
}

/* Fails on keys not in `allowed` (NULL-terminated), to catch typos. */
static gl_status only_keys(ctx *c, const cJSON *obj, const char *field, const char *const *allowed)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, obj)
    {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            ok |= strcmp(*a, it->string) == 0;
        if (!ok) {
            char f[256];
            snprintf(f, sizeof f, "%s%s%s", field, *field ? "." : "", it->string);
            return bad(c, f, "unknown key");
        }
    }
    return GL_OK;
}

/* A string, or an array of strings joined with newlines (for long texts). */
static gl_status get_text(ctx *c, const cJSON *obj, const char *key, const char *field,
                          int required, char **out)
{
    *out = NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char f[256];
    snprintf(f, sizeof f, "%s%s%s", field, *field ? "." : "", key);
    if (!v)
        return required ? bad(c, f, "missing") : GL_OK;
    if (cJSON_IsString(v)) {
        *out = strdup(v->valuestring);
        return GL_OK;
    }
    if (!cJSON_IsArray(v))
        return bad(c, f, "must be a string or an array of strings");
    size_t len = 1;
    const cJSON *it;
    cJSON_ArrayForEach(it, v)
    {
        if (!cJSON_IsString(it))
            return bad(c, f, "must be a string or an array of strings");
        len += strlen(it->valuestring) + 1;
    }
    char *s = calloc(1, len);
    if (!s)
        return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
    cJSON_ArrayForEach(it, v)
    {
        if (*s)
            strcat(s, "\n");
        strcat(s, it->valuestring);
    }
    *out = s;
    return GL_OK;
}

/* A file named relative to the lesson folder, which must exist. */
static gl_status get_path(ctx *c, const char *dir, const cJSON *obj, const char *key,
                          const char *field, int required, char **out)
{
    *out = NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char f[256];
    snprintf(f, sizeof f, "%s%s%s", field, *field ? "." : "", key);
    if (!v)
        return required ? bad(c, f, "missing") : GL_OK;
    if (!cJSON_IsString(v) || !*v->valuestring)
        return bad(c, f, "must be a file name relative to the lesson folder");
    char *p = v->valuestring[0] == '/' ? strdup(v->valuestring) : join(dir, v->valuestring);
    if (!p)
        return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
    if (!is_file(p)) {
        char what[PATH_MAX + 32];
        snprintf(what, sizeof what, "no such file '%s'", p);
        free(p);
        return bad(c, f, what);
    }
    *out = p;
    return GL_OK;
}

static gl_status get_sizes(ctx *c, const cJSON *v, const char *field, int64_t **out, int *n)
{
    *out = NULL;
    *n = 0;
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0)
        return bad(c, field, "must be a non-empty array of positive integers");
    int count = cJSON_GetArraySize(v);
    int64_t *s = calloc((size_t)count, sizeof *s);
    if (!s)
        return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
    for (int i = 0; i < count; i++) {
        const cJSON *it = cJSON_GetArrayItem(v, i);
        if (!cJSON_IsNumber(it) || it->valuedouble < 1 || it->valuedouble > 1e9 ||
            it->valuedouble != (double)(int64_t)it->valuedouble) {
            free(s);
            char f[256];
            snprintf(f, sizeof f, "%s[%d]", field, i);
            return bad(c, f, "must be a positive integer");
        }
        s[i] = (int64_t)it->valuedouble;
    }
    *out = s;
    *n = count;
    return GL_OK;
}

static const char *const k_views[] = {"text",      "device",   "grid_map",  "buffers", "warps",
                                      "memory",    "banks",    "barriers",  "atomics", "tree",
                                      "registers", "roofline", "fragments", NULL};
static const char *const k_map_values[] = {"global_index", "block", "thread", "warp",
                                           "lane",         "sm",    NULL};

/* An optional "arch" of obj (a target the simulator models): *out gets its canonical
 * name (malloc'd), NULL when absent. */
static gl_status get_arch(ctx *c, const cJSON *obj, const char *field, char **out)
{
    *out = NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "arch");
    char f[64], canon[16], why[160];
    snprintf(f, sizeof f, "%s%sarch", field, *field ? "." : "");
    if (!v)
        return GL_OK;
    if (!cJSON_IsString(v))
        return bad(c, f, "must be a target such as \"sm_80\"");
    if (!gl_arch_known(v->valuestring, canon, why, sizeof why))
        return bad(c, f, why);
    *out = strdup(canon);
    return *out ? GL_OK : gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
}

/* A copy of a launch object with "arch" set to arch where it has none (arch NULL: an
 * unchanged copy). NULL when out of memory. */
static cJSON *launch_with_arch(const cJSON *launch, const char *arch)
{
    cJSON *js = cJSON_Duplicate(launch, 1);
    if (js && arch && !cJSON_GetObjectItemCaseSensitive(js, "arch"))
        cJSON_AddStringToObject(js, "arch", arch);
    return js;
}

/* An array of strings at js.key (absent: none) into *out, *n. */
static gl_status get_strings(ctx *c, const cJSON *js, const char *key, const char *field,
                             char ***out, int *n)
{
    *out = NULL;
    *n = 0;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(js, key);
    if (!a)
        return GL_OK;
    char f[96];
    snprintf(f, sizeof f, "%s.%s", field, key);
    if (!cJSON_IsArray(a))
        return bad(c, f, "must be an array of strings");
    *out = calloc((size_t)cJSON_GetArraySize(a) + 1, sizeof **out);
    if (!*out)
        return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
    const cJSON *it;
    cJSON_ArrayForEach(it, a)
    {
        if (!cJSON_IsString(it))
            return bad(c, f, "must be an array of strings");
        if (!((*out)[(*n)++] = strdup(it->valuestring)))
            return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
    }
    return GL_OK;
}

/* A step whose "program" is a whole CUDA program (README "Writing a lesson"): its file,
 * "args" and "status"; no kernel, launch or launch amendments. */
static gl_status load_program_step(ctx *c, const char *dir, const cJSON *js, char *field,
                                   gl_step *s)
{
    static const char *const launch_keys[] = {"kernel",  "launch", "gpu_launch",
                                              "kernels", "map",    "expect"};
    for (size_t k = 0; k < sizeof launch_keys / sizeof launch_keys[0]; k++)
        if (cJSON_GetObjectItemCaseSensitive(js, launch_keys[k])) {
            char f[96];
            snprintf(f, sizeof f, "%s.%s", field, launch_keys[k]);
            return bad(c, f, "a step with a \"program\" has no launch: the program launches");
        }
    gl_status st = get_path(c, dir, js, "program", field, 1, &s->kernel);
    if (st != GL_OK)
        return st;
    const size_t n = strlen(s->kernel);
    if (n < 3 || strcmp(s->kernel + n - 3, ".cu") != 0)
        return bad(c, strcat(field, ".program"), "must name a .cu file (a whole CUDA program)");
    s->program = 1;
    if (!(s->view = strdup("text")))
        return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
    if ((st = get_strings(c, js, "args", field, &s->args, &s->nargs)) != GL_OK)
        return st;
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(js, "status");
    if (status && (!cJSON_IsNumber(status) || status->valuedouble != (int)status->valuedouble ||
                   status->valuedouble < 0 || status->valuedouble > 255))
        return bad(c, strcat(field, ".status"), "must be an exit status from 0 to 255");
    s->status = status ? (int)status->valuedouble : 0;
    return GL_OK;
}

/* Launch changes: a step's "gpu_launch", an entry of its "kernels" or of its gpu_launch's
 * "kernels". Each of `keys` replaces the launch's own; "args" is an object naming
 * arguments of the launch, each with any of "len", "value", "shape" and "init" to replace
 * its own ({"in": {"len": 67108867}, "n": {"value": 67108867}}); "kernels" (only where
 * `kernels_too`) an object of the file's other kernels, each with changes of its own. The
 * changed launch is validated as a spec when it is built (lesson_step_spec_for). */
static gl_status check_changes(ctx *c, const cJSON *ch, const cJSON *launch, const char *field,
                               int gpu, int kernels_too)
{
    char f[640];
    if (!cJSON_IsObject(ch))
        return bad(c, field, "must be an object of changes to the step's launch");
    static const char *const gpu_keys[] = {"grid",  "block", "dynamic_shared_bytes", "bytes_moved",
                                           "flops", "args",  "reference_library",    "kernels",
                                           NULL};
    static const char *const kernel_keys[] = {
        "grid", "block", "dynamic_shared_bytes", "bytes_moved", "flops", "args", NULL};
    gl_status st = only_keys(c, ch, field, gpu ? gpu_keys : kernel_keys);
    if (st != GL_OK)
        return st;
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(ch, "args"), *a;
    snprintf(f, sizeof f, "%s.args", field);
    if (args && !cJSON_IsObject(args))
        return bad(c, f, "must be an object: argument name -> {\"len\", \"value\", ...}");
    cJSON_ArrayForEach(a, args)
    {
        snprintf(f, sizeof f, "%s.args.%s", field, a->string);
        /* a pointer argument's "len", "shape" and "init"; a scalar's "value" */
        static const char *const ptr_keys[] = {"len", "shape", "init", NULL};
        static const char *const scalar_keys[] = {"value", NULL};
        const cJSON *arg = NULL, *la;
        cJSON_ArrayForEach(la, cJSON_GetObjectItemCaseSensitive(launch, "args"))
        {
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(la, "name");
            if (cJSON_IsString(n) && strcmp(n->valuestring, a->string) == 0)
                arg = la;
        }
        if (!arg)
            return bad(c, f, "names no argument of the step's launch");
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(arg, "type");
        const int ptr = cJSON_IsString(type) && strchr(type->valuestring, '*');
        if (!cJSON_IsObject(a))
            return bad(c, f,
                       ptr ? "must be an object of \"len\", \"shape\" or \"init\""
                           : "must be an object with the scalar's \"value\"");
        if ((st = only_keys(c, a, f, ptr ? ptr_keys : scalar_keys)) != GL_OK)
            return st;
    }
    const cJSON *ks = cJSON_GetObjectItemCaseSensitive(ch, "kernels"), *k;
    snprintf(f, sizeof f, "%s.kernels", field);
    if (ks && (!kernels_too || !cJSON_IsObject(ks)))
        return bad(c, f, "must be an object of kernel names and their launch changes");
    const cJSON *own = cJSON_GetObjectItemCaseSensitive(launch, "kernel");
    cJSON_ArrayForEach(k, ks)
    {
        snprintf(f, sizeof f, "%s.kernels.%s", field, k->string);
        if (!*k->string)
            return bad(c, f, "must name a kernel of the step's file");
        if (cJSON_IsString(own) && strcmp(own->valuestring, k->string) == 0)
            return bad(c, f, "is the step's own kernel: its launch is the step's \"launch\"");
        if ((st = check_changes(c, k, launch, f, 0, 0)) != GL_OK)
            return st;
    }
    return GL_OK;
}

static gl_status load_step(ctx *c, const char *dir, const cJSON *js, int i, gl_step *s)
{
    char field[32];
    snprintf(field, sizeof field, "steps[%d]", i);
    if (!cJSON_IsObject(js))
        return bad(c, field, "must be an object");
    static const char *const keys[] = {"title",   "text", "kernel", "launch",     "view",
                                       "map",     "arch", "expect", "gpu_launch", "kernels",
                                       "program", "args", "status", NULL};
    gl_status st = only_keys(c, js, field, keys);
    if (st == GL_OK)
        st = get_arch(c, js, field, &s->arch);
    if (st == GL_OK)
        st = get_text(c, js, "title", field, 1, &s->title);
    if (st == GL_OK)
        st = get_text(c, js, "text", field, 1, &s->text);
    if (st == GL_OK)
        st = get_path(c, dir, js, "kernel", field, 0, &s->kernel);
    if (st != GL_OK)
        return st;
    if (cJSON_GetObjectItemCaseSensitive(js, "program"))
        return load_program_step(c, dir, js, field, s);
    if (cJSON_GetObjectItemCaseSensitive(js, "args") ||
        cJSON_GetObjectItemCaseSensitive(js, "status"))
        return bad(c, field, "\"args\" and \"status\" belong to a step with a \"program\"");
    const cJSON *view = cJSON_GetObjectItemCaseSensitive(js, "view");
    const char *vname = s->kernel ? "grid_map" : "text";
    if (view) {
        int ok = cJSON_IsString(view);
        for (const char *const *v = k_views; ok && *v && strcmp(*v, view->valuestring); v++)
            ok = v[1] != NULL;
        if (!ok)
            return bad(c, strcat(field, ".view"),
                       "must be one of \"text\", \"device\", \"grid_map\", \"buffers\", "
                       "\"warps\", \"memory\", \"banks\", \"barriers\", \"atomics\", \"tree\"");
        vname = view->valuestring;
    }
    s->view = strdup(vname);
    const cJSON *map = cJSON_GetObjectItemCaseSensitive(js, "map");
    if (map) {
        int ok = cJSON_IsString(map) && strncmp(map->valuestring, "buffer:", 7) == 0 &&
                 map->valuestring[7];
        for (const char *const *v = k_map_values; !ok && *v && cJSON_IsString(map); v++)
            ok = strcmp(*v, map->valuestring) == 0;
        if (!ok)
            return bad(c, strcat(field, ".map"),
                       "must be \"global_index\", \"block\", \"thread\", \"warp\", \"lane\" "
                       "or \"buffer:NAME\"");
        s->map_value = strdup(map->valuestring);
    }
    const cJSON *launch = cJSON_GetObjectItemCaseSensitive(js, "launch");
    if (launch) {
        if (!cJSON_IsObject(launch))
            return bad(c, strcat(field, ".launch"), "must be a launch spec object");
        if (!s->kernel && !cJSON_GetObjectItemCaseSensitive(launch, "source"))
            return bad(c, strcat(field, ".launch"), "needs the step's \"kernel\" or a \"source\"");
        s->launch = cJSON_Duplicate(launch, 1);
    } else if (s->kernel) {
        return bad(c, strcat(field, ".launch"), "missing (a step with a kernel runs it)");
    }
    /* "kernels" (the launch of each other kernel of the file, for the TUI's f) and
     * "gpu_launch" (the changes for a GPU) amend the launch */
    static const char *const amends[] = {"kernels", "gpu_launch"};
    for (int k = 0; k < 2; k++) {
        const cJSON *ch = cJSON_GetObjectItemCaseSensitive(js, amends[k]);
        if (!ch)
            continue;
        char f[64];
        snprintf(f, sizeof f, "%s.%s", field, amends[k]);
        if (!launch)
            return bad(c, f, "needs the step's \"launch\" (it amends it)");
        if (k == 0) {
            /* {"kernels": {...}} as the changes of a launch that has only kernels */
            cJSON *wrap = cJSON_CreateObject();
            if (!wrap || !cJSON_AddItemReferenceToObject(wrap, "kernels", (cJSON *)ch)) {
                cJSON_Delete(wrap);
                return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
            }
            st = cJSON_IsObject(ch) ? check_changes(c, wrap, launch, field, 1, 1)
                                    : bad(c, f,
                                          "must be an object of kernel names and their "
                                          "launch changes");
            cJSON_Delete(wrap);
        } else {
            st = check_changes(c, ch, launch, f, 1, 1);
        }
        if (st != GL_OK)
            return st;
        cJSON **to = k == 0 ? &s->kernels : &s->gpu_launch;
        if (!(*to = cJSON_Duplicate(ch, 1)))
            return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
    }
    const cJSON *expect = cJSON_GetObjectItemCaseSensitive(js, "expect");
    if (expect)
        return gl_expect_parse(expect, launch, c->file, i, &s->expect, &s->nexpect, c->err);
    return GL_OK;
}

/* Metric checks: name, and whether the threshold is a minimum (else a maximum). */
const char *const lesson_metric_names[] = {"branch_efficiency",       "warp_execution_efficiency",
                                           "sectors_per_request",     "sector_efficiency",
                                           "bank_conflicts",          "global_atomics",
                                           "global_loads_per_output", "additions",
                                           "float_additions",         "global_load_bytes_per_flop",
                                           "theoretical_occupancy",   "tensor_instructions",
                                           "tensor_core_share",       "work_distribution",
                                           "pipeline_overlap",        NULL};

static const char k_check_kinds[] =
    "\"matches_reference\", \"no_out_of_bounds\", \"no_races\", \"no_deadlock\", "
    "\"no_uninitialized_reads\", "
    "\"time_limit\", \"random_schedule\", \"branch_efficiency\", \"warp_execution_efficiency\", "
    "\"sectors_per_request\", "
    "\"sector_efficiency\", "
    "\"bank_conflicts\", \"global_atomics\", \"global_loads_per_output\", \"additions\", "
    "\"float_additions\", \"global_load_bytes_per_flop\", \"theoretical_occupancy\", "
    "\"tensor_instructions\", \"tensor_core_share\", \"work_distribution\" or "
    "\"pipeline_overlap\"";

/* js.key as a number from lo to hi (absent: out unchanged, *has unset). */
static gl_status get_number(ctx *c, const cJSON *js, const char *field, const char *key, double lo,
                            double hi, double *out, int *has)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(js, key);
    if (!v)
        return GL_OK;
    char f[96];
    snprintf(f, sizeof f, "%s.%s", field, key);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo && v->valuedouble <= hi)) {
        char what[96];
        if (lo == floor(lo) && hi == floor(hi) && fabs(lo) < 1e18 && fabs(hi) < 1e18)
            snprintf(what, sizeof what, "must be a number from %.0f to %.0f", lo, hi);
        else
            snprintf(what, sizeof what, "must be a number from %g to %g", lo, hi);
        return bad(c, f, what);
    }
    *out = v->valuedouble;
    if (has)
        *has = 1;
    return GL_OK;
}

/* Every exercise is graded by the checkers whatever its lesson.json declares (a PASS
 * means the kernel is right: every error a checker finds fails the grade):
 * no_out_of_bounds, no_races, no_deadlock, no_uninitialized_reads, time_limit (the
 * exercise's step limit: an
 * endless loop fails it) and random_schedule (2 seeds, comparing what
 * matches_reference compares) are added, marked implicit, where not declared. */
static gl_status add_implicit_checks(ctx *c, gl_exercise *e)
{
    static const struct {
        gl_check_kind kind;
        const char *name;
    } always[] = {
        {GL_CHECK_NO_FAULT, "no_out_of_bounds"}, {GL_CHECK_NO_RACES, "no_races"},
        {GL_CHECK_NO_DEADLOCK, "no_deadlock"},   {GL_CHECK_NO_UNINIT, "no_uninitialized_reads"},
        {GL_CHECK_TIME_LIMIT, "time_limit"},     {GL_CHECK_RANDOM_SCHEDULE, "random_schedule"}};
    const gl_check *ref = NULL;
    for (int i = 0; i < e->nchecks; i++)
        if (e->checks[i].kind == GL_CHECK_MATCHES_REFERENCE)
            ref = &e->checks[i];
    for (size_t a = 0; a < sizeof always / sizeof *always; a++) {
        int have = 0;
        for (int i = 0; i < e->nchecks; i++)
            have |= e->checks[i].kind == always[a].kind;
        if (have || (always[a].kind == GL_CHECK_RANDOM_SCHEDULE && !ref))
            continue;
        gl_check *nk = realloc(e->checks, (size_t)(e->nchecks + 1) * sizeof *nk);
        if (!nk)
            return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
        e->checks = nk;
        for (int i = 0; i < e->nchecks; i++)
            if (ref && nk[i].kind == GL_CHECK_MATCHES_REFERENCE)
                ref = &nk[i];
        gl_check *k = &e->checks[e->nchecks++];
        memset(k, 0, sizeof *k);
        k->kind = always[a].kind;
        k->implicit = 1;
        k->name = strdup(always[a].name);
        if (!k->name)
            return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
        if (k->kind == GL_CHECK_TIME_LIMIT)
            k->max_steps = e->step_limit ? e->step_limit : GL_STEP_LIMIT_DEFAULT;
        if (k->kind == GL_CHECK_RANDOM_SCHEDULE) {
            k->seeds = 2;
            k->tolerance = ref->tolerance;
            if (ref->noutputs) {
                k->outputs = calloc((size_t)ref->noutputs, sizeof *k->outputs);
                if (!k->outputs)
                    return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
                k->noutputs = ref->noutputs;
                for (int j = 0; j < ref->noutputs; j++)
                    if (!(k->outputs[j] = strdup(ref->outputs[j])))
                        return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
            }
        }
    }
    return GL_OK;
}

static gl_status load_check(ctx *c, const cJSON *js, int i, gl_check *k)
{
    char field[32];
    snprintf(field, sizeof field, "exercise.checks[%d]", i);
    if (!cJSON_IsObject(js))
        return bad(c, field, "must be an object");
    static const char *const keys[] = {"kind", "sizes",     "outputs", "tolerance", "min",
                                       "max",  "max_steps", "seeds",   "product",   NULL};
    gl_status st = only_keys(c, js, field, keys);
    if (st != GL_OK)
        return st;
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(js, "kind");
    char f[64];
    snprintf(f, sizeof f, "%s.kind", field);
    char what[512];
    if (!cJSON_IsString(kind)) {
        snprintf(what, sizeof what, "missing (%s)", k_check_kinds);
        return bad(c, f, what);
    }
    const char *kn = kind->valuestring;
    int metric = 0;
    for (const char *const *m = lesson_metric_names; *m; m++)
        metric |= strcmp(*m, kn) == 0;
    if (strcmp(kn, "matches_reference") == 0)
        k->kind = GL_CHECK_MATCHES_REFERENCE;
    else if (strcmp(kn, "no_out_of_bounds") == 0)
        k->kind = GL_CHECK_NO_FAULT;
    else if (strcmp(kn, "no_races") == 0)
        k->kind = GL_CHECK_NO_RACES;
    else if (strcmp(kn, "no_deadlock") == 0)
        k->kind = GL_CHECK_NO_DEADLOCK;
    else if (strcmp(kn, "no_uninitialized_reads") == 0)
        k->kind = GL_CHECK_NO_UNINIT;
    else if (strcmp(kn, "time_limit") == 0)
        k->kind = GL_CHECK_TIME_LIMIT;
    else if (strcmp(kn, "random_schedule") == 0)
        k->kind = GL_CHECK_RANDOM_SCHEDULE;
    else if (metric)
        k->kind = GL_CHECK_METRIC;
    else {
        snprintf(what, sizeof what, "unknown check (expected %s)", k_check_kinds);
        return bad(c, f, what);
    }
    /* Keys that only some kinds take. */
    const int share = strcmp(kn, "tensor_core_share") == 0;
    const char *only_for[][2] = {{"tolerance", "matches_reference or random_schedule"},
                                 {"min", "metric"},
                                 {"max", "metric"},
                                 {"max_steps", "time_limit"},
                                 {"seeds", "random_schedule"},
                                 {"product", "tensor_core_share"}};
    int takes[] = {k->kind == GL_CHECK_MATCHES_REFERENCE || k->kind == GL_CHECK_RANDOM_SCHEDULE,
                   metric,
                   metric,
                   k->kind == GL_CHECK_TIME_LIMIT,
                   k->kind == GL_CHECK_RANDOM_SCHEDULE,
                   share};
    for (size_t j = 0; j < sizeof takes / sizeof *takes; j++)
        if (!takes[j] && cJSON_GetObjectItemCaseSensitive(js, only_for[j][0])) {
            snprintf(f, sizeof f, "%s.%s", field, only_for[j][0]);
            snprintf(what, sizeof what, "only %s checks take this key", only_for[j][1]);
            return bad(c, f, what);
        }
    if (metric) {
        if ((st = get_number(c, js, field, "min", -1e300, 1e300, &k->min, &k->has_min)) != GL_OK ||
            (st = get_number(c, js, field, "max", -1e300, 1e300, &k->max, &k->has_max)) != GL_OK)
            return st;
        if (!k->has_min && !k->has_max)
            return bad(c, field, "a metric check needs \"min\" or \"max\"");
        k->metric = strdup(kn);
    }
    if (share) { /* the product's multiply-adds, an expression over n (spec_eval) */
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(js, "product");
        snprintf(f, sizeof f, "%s.product", field);
        if (!p)
            return bad(c, field,
                       "a tensor_core_share check needs \"product\" (the product's "
                       "multiply-adds M x N x K, an expression over n)");
        char buf[64], msg[160] = "";
        const char *src = cJSON_IsString(p) ? p->valuestring : buf;
        if (cJSON_IsNumber(p))
            snprintf(buf, sizeof buf, "%.0f", p->valuedouble);
        int64_t v = 0;
        const gl_vars one = {.names = {"n"}, .values = {1}, .count = 1};
        if ((!cJSON_IsString(p) &&
             !(cJSON_IsNumber(p) && p->valuedouble >= 1 && p->valuedouble < 0x1p53 &&
               p->valuedouble == floor(p->valuedouble))) ||
            !spec_eval(src, &one, &v, msg, sizeof msg) || v < 1) {
            snprintf(what, sizeof what,
                     "must be a number >= 1 or an expression over n such as \"16 * n * 16 * n "
                     "* 32\"%s%s",
                     msg[0] ? ": " : "", msg);
            return bad(c, f, what);
        }
        if (!(k->product = strdup(src)))
            return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
    }
    if (k->kind == GL_CHECK_TIME_LIMIT) {
        double ms = 0;
        int has = 0;
        if ((st = get_number(c, js, field, "max_steps", 1, 0x1p50, &ms, &has)) != GL_OK)
            return st;
        if (!has)
            return bad(c, field, "a time_limit check needs \"max_steps\" (warp instructions)");
        k->max_steps = (uint64_t)ms;
    }
    if (k->kind == GL_CHECK_RANDOM_SCHEDULE) {
        double seeds = 3;
        if ((st = get_number(c, js, field, "seeds", 1, 64, &seeds, NULL)) != GL_OK)
            return st;
        if (seeds > 64 || seeds != (double)(int)seeds)
            return bad(c, strcat(strcpy(f, field), ".seeds"), "must be an integer from 1 to 64");
        k->seeds = (int)seeds;
    }
    k->name = strdup(kind->valuestring);
    const cJSON *sizes = cJSON_GetObjectItemCaseSensitive(js, "sizes");
    if (sizes) {
        snprintf(f, sizeof f, "%s.sizes", field);
        if ((st = get_sizes(c, sizes, f, &k->sizes, &k->nsizes)) != GL_OK)
            return st;
    }
    const cJSON *outs = cJSON_GetObjectItemCaseSensitive(js, "outputs");
    if (outs) {
        snprintf(f, sizeof f, "%s.outputs", field);
        if (!cJSON_IsArray(outs) || cJSON_GetArraySize(outs) == 0)
            return bad(c, f, "must be a non-empty array of buffer names");
        k->noutputs = cJSON_GetArraySize(outs);
        k->outputs = calloc((size_t)k->noutputs, sizeof *k->outputs);
        for (int j = 0; j < k->noutputs; j++) {
            const cJSON *o = cJSON_GetArrayItem(outs, j);
            if (!cJSON_IsString(o))
                return bad(c, f, "must be a non-empty array of buffer names");
            k->outputs[j] = strdup(o->valuestring);
        }
    }
    const cJSON *tol = cJSON_GetObjectItemCaseSensitive(js, "tolerance");
    if (tol) {
        snprintf(f, sizeof f, "%s.tolerance", field);
        if (!cJSON_IsNumber(tol) || tol->valuedouble < 0)
            return bad(c, f, "must be a number >= 0");
        k->tolerance = tol->valuedouble;
    }
    return GL_OK;
}

int64_t lesson_check_product(const gl_check *k, int64_t n)
{
    const gl_vars vars = {.names = {"n"}, .values = {n}, .count = 1};
    int64_t v = 0;
    char msg[160];
    return k->product && spec_eval(k->product, &vars, &v, msg, sizeof msg) && v > 0 ? v : 0;
}

/* An exercise argument's "adversarial" list (lesson.h gl_inputs), or NULL. */
static const cJSON *adversarial_of(const cJSON *arg)
{
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(arg, "init"),
                                            "adversarial");
}

static gl_status exercise_spec(const cJSON *launch, const char *arch, const char *dir, int64_t n,
                               uint64_t seed_offset, gl_inputs variant, const char *source_path,
                               gl_spec *out, gl_error *err);

/* Each argument's "adversarial" list: only beside "random", an array of at most
 * GL_INPUTS_MAX_DECLARED objects with a known "class" and the keys a "random" init takes
 * but its seed; and each set makes a valid launch at the exercise's first size. */
static gl_status check_adversarial(ctx *c, const char *dir, const gl_exercise *e)
{
    static const char *const keys[] = {"class", "min", "max", "quantum", "nonfinite", NULL};
    const cJSON *arg;
    int i = 0, nsets = 0;
    cJSON_ArrayForEach(arg, cJSON_GetObjectItemCaseSensitive(e->launch, "args"))
    {
        const cJSON *adv = adversarial_of(arg);
        char f[96];
        snprintf(f, sizeof f, "exercise.launch.args[%d].init.adversarial", i++);
        if (!adv)
            continue;
        if (!cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(arg, "init"),
                                              "random"))
            return bad(c, f, "only an argument with \"random\" inputs takes adversarial ones");
        if (!cJSON_IsArray(adv) || cJSON_GetArraySize(adv) > GL_INPUTS_MAX_DECLARED)
            return bad(c, f,
                       "must be an array of at most 8 input sets, e.g. [{\"class\": "
                       "\"full_range\"}]");
        const cJSON *set;
        int j = 0;
        cJSON_ArrayForEach(set, adv)
        {
            char fj[128];
            snprintf(fj, sizeof fj, "%s[%d]", f, j++);
            if (!cJSON_IsObject(set))
                return bad(c, fj, "must be an object {\"class\": ...}");
            gl_status st = only_keys(c, set, fj, keys);
            if (st != GL_OK)
                return st;
            const cJSON *cls = cJSON_GetObjectItemCaseSensitive(set, "class");
            if (!cJSON_IsString(cls) || (strcmp(cls->valuestring, "full_range") != 0 &&
                                         strcmp(cls->valuestring, "bit_ranges") != 0 &&
                                         strcmp(cls->valuestring, "uniform") != 0))
                return bad(c, strcat(fj, ".class"),
                           "must be \"full_range\", \"bit_ranges\" or \"uniform\"");
        }
        nsets = j > nsets ? j : nsets;
    }
    for (int j = 0; j < nsets; j++) {
        gl_spec spec;
        gl_error serr = {0};
        if (exercise_spec(e->launch, NULL, dir, e->sizes[0], 0, (gl_inputs)(GL_INPUTS_DECLARED + j),
                          e->starter, &spec, &serr) != GL_OK)
            return gl_fail(c->err, GL_ERR_INPUT, "%s", serr.msg);
        spec_free(&spec);
    }
    return GL_OK;
}

/* The exercise's "hints": an array of strings. */
static gl_status load_hints(ctx *c, const cJSON *js, gl_exercise *e)
{
    const cJSON *hints = cJSON_GetObjectItemCaseSensitive(js, "hints");
    if (hints && !cJSON_IsArray(hints))
        return bad(c, "exercise.hints", "must be an array of strings");
    return get_strings(c, js, "hints", "exercise", &e->hints, &e->nhints);
}

/* The most points one check may be worth. */
#define POINTS_MAX 1000

/* The exercise's "points": {"CHECK": P, ...}, each name one of the checks its report
 * shows (grade_check_names: "compiles", the declared and implicit checks, a program
 * exercise's own and its kernel's "kernel.NAME"), each P a whole number from 0 to
 * POINTS_MAX. A name that is no check is an error naming the checks there are, so that
 * a typo never leaves a check at the default 1 point. */
static gl_status load_points(ctx *c, const cJSON *js, gl_exercise *e)
{
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(js, "points");
    if (!pts)
        return GL_OK;
    if (!cJSON_IsObject(pts))
        return bad(c, "exercise.points",
                   "must be an object {\"CHECK\": POINTS, ...} (e.g. {\"matches_reference\": 6})");
    char names[64][64];
    const int nnames = grade_check_names(e, names, 64);
    const int n = cJSON_GetArraySize(pts);
    if (!(e->points = calloc((size_t)n + 1, sizeof *e->points)))
        return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
    const cJSON *it;
    cJSON_ArrayForEach(it, pts)
    {
        char f[128];
        snprintf(f, sizeof f, "exercise.points.%.100s", it->string);
        int known = 0;
        for (int i = 0; i < nnames; i++)
            known |= strcmp(names[i], it->string) == 0;
        if (!known) {
            char list[2048] = "";
            size_t len = 0;
            for (int i = 0; i < nnames && len + 70 < sizeof list; i++)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
                                        names[i]);
            char what[2200];
            snprintf(what, sizeof what, "no check of this exercise is named so (its checks: %s)",
                     list);
            return bad(c, f, what);
        }
        for (int i = 0; i < e->npoints; i++)
            if (strcmp(e->points[i].check, it->string) == 0)
                return bad(c, f, "given twice");
        if (!cJSON_IsNumber(it) || it->valuedouble != floor(it->valuedouble) ||
            it->valuedouble < 0 || it->valuedouble > POINTS_MAX)
            return bad(c, f, "must be a whole number of points from 0 to 1000");
        gl_points *p = &e->points[e->npoints++];
        p->points = (int)it->valuedouble;
        if (!(p->check = strdup(it->string)))
            return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
    }
    return GL_OK;
}

int lesson_check_points(const gl_exercise *e, const char *check)
{
    for (int i = 0; i < e->npoints; i++)
        if (strcmp(e->points[i].check, check) == 0)
            return e->points[i].points;
    return 1;
}

/* A program exercise's "program": {"runs": [{"args": [...], "stdin": "..."}],
 * "tolerance": T, "timeout": S} (lesson.h gl_program_exercise). */
static gl_status load_program_exercise(ctx *c, const cJSON *js, gl_exercise *e)
{
    static const char *const keys[] = {"runs", "tolerance", "timeout", NULL};
    static const char *const run_keys[] = {"args", "stdin", NULL};
    if (!cJSON_IsObject(js))
        return bad(c, "exercise.program", "must be an object {\"runs\": [...], ...}");
    gl_status st = only_keys(c, js, "exercise.program", keys);
    if (st != GL_OK)
        return st;
    gl_program_exercise *p = e->program = calloc(1, sizeof *p);
    if (!p)
        return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
    p->timeout_s = 30;
    if ((st = get_number(c, js, "exercise.program", "tolerance", 0, 1e300, &p->tolerance, NULL)) !=
            GL_OK ||
        (st = get_number(c, js, "exercise.program", "timeout", 1, 600, &p->timeout_s, NULL)) !=
            GL_OK)
        return st;
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(js, "runs");
    if (runs &&
        (!cJSON_IsArray(runs) || cJSON_GetArraySize(runs) == 0 || cJSON_GetArraySize(runs) > 16))
        return bad(c, "exercise.program.runs",
                   "must be an array of 1 to 16 runs {\"args\": [...]}");
    p->nruns = runs ? cJSON_GetArraySize(runs) : 1;
    if (!(p->runs = calloc((size_t)p->nruns, sizeof *p->runs)))
        return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
    for (int i = 0; runs && i < p->nruns; i++) {
        const cJSON *r = cJSON_GetArrayItem(runs, i);
        char f[64];
        snprintf(f, sizeof f, "exercise.program.runs[%d]", i);
        if (!cJSON_IsObject(r))
            return bad(c, f, "must be an object {\"args\": [...], \"stdin\": \"...\"}");
        if ((st = only_keys(c, r, f, run_keys)) != GL_OK ||
            (st = get_strings(c, r, "args", f, &p->runs[i].args, &p->runs[i].nargs)) != GL_OK ||
            (st = get_text(c, r, "stdin", f, 0, &p->runs[i].stdin_text)) != GL_OK)
            return st;
    }
    return GL_OK;
}

static gl_status load_exercise(ctx *c, const char *dir, const cJSON *js, gl_exercise *e)
{
    if (!cJSON_IsObject(js))
        return bad(c, "exercise", "must be an object");
    static const char *const keys[] = {"title",   "text",   "starter", "reference",  "launch",
                                       "sizes",   "checks", "hints",   "step_limit", "memory_limit",
                                       "program", "points", NULL};
    gl_status st = only_keys(c, js, "exercise", keys);
    if (st == GL_OK)
        st = get_text(c, js, "title", "exercise", 0, &e->title);
    if (st == GL_OK)
        st = get_text(c, js, "text", "exercise", 1, &e->text);
    if (st == GL_OK)
        st = get_path(c, dir, js, "starter", "exercise", 1, &e->starter);
    if (st == GL_OK)
        st = get_path(c, dir, js, "reference", "exercise", 1, &e->reference);
    if (st != GL_OK)
        return st;
    const cJSON *launch = cJSON_GetObjectItemCaseSensitive(js, "launch");
    const cJSON *program = cJSON_GetObjectItemCaseSensitive(js, "program");
    if (program) {
        if ((st = load_program_exercise(c, program, e)) != GL_OK)
            return st;
        /* the kernel inside the program is graded too when the exercise says how */
        const int has = (launch != NULL) + (cJSON_GetObjectItemCaseSensitive(js, "sizes") != NULL) +
                        (cJSON_GetObjectItemCaseSensitive(js, "checks") != NULL);
        if (has != 0 && has != 3)
            return bad(c, "exercise",
                       "a program exercise has \"launch\", \"sizes\" and \"checks\" (its "
                       "kernel graded as well) or none of them");
        if (!has)
            return (st = load_points(c, js, e)) != GL_OK ? st : load_hints(c, js, e);
    }
    if (!cJSON_IsObject(launch))
        return bad(c, "exercise.launch", "missing (a launch spec object; numbers may use n)");
    e->launch = cJSON_Duplicate(launch, 1);
    const cJSON *sizes = cJSON_GetObjectItemCaseSensitive(js, "sizes");
    if (!sizes)
        return bad(c, "exercise.sizes", "missing (the values of n to grade with)");
    if ((st = get_sizes(c, sizes, "exercise.sizes", &e->sizes, &e->nsizes)) != GL_OK)
        return st;
    if ((st = check_adversarial(c, dir, e)) != GL_OK)
        return st;
    const cJSON *checks = cJSON_GetObjectItemCaseSensitive(js, "checks");
    if (!cJSON_IsArray(checks) || cJSON_GetArraySize(checks) == 0)
        return bad(c, "exercise.checks", "must be a non-empty array of checks");
    e->nchecks = cJSON_GetArraySize(checks);
    e->checks = calloc((size_t)e->nchecks, sizeof *e->checks);
    if (!e->checks)
        return gl_fail(c->err, GL_ERR_NOMEM, "out of memory");
    for (int i = 0; i < e->nchecks; i++)
        if ((st = load_check(c, cJSON_GetArrayItem(checks, i), i, &e->checks[i])) != GL_OK)
            return st;
    for (int i = 0; i < e->nchecks; i++) /* bytes per FLOP divides by the launch's flops */
        if (e->checks[i].metric && strcmp(e->checks[i].metric, "global_load_bytes_per_flop") == 0 &&
            !cJSON_GetObjectItemCaseSensitive(launch, "flops"))
            return bad(c, "exercise.launch.flops",
                       "missing (global_load_bytes_per_flop divides by the launch's \"flops\")");
    double limit = 0;
    if ((st = get_number(c, js, "exercise", "step_limit", 1000, 0x1p50, &limit, NULL)) != GL_OK)
        return st;
    e->step_limit = (uint64_t)limit;
    limit = 0; /* bytes: 1 MiB to 1 TiB */
    if ((st = get_number(c, js, "exercise", "memory_limit", 0x1p20, 0x1p40, &limit, NULL)) != GL_OK)
        return st;
    e->memory_limit = (uint64_t)limit;
    if ((st = add_implicit_checks(c, e)) != GL_OK || (st = load_points(c, js, e)) != GL_OK)
        return st;
    return load_hints(c, js, e);
}

/* The label of the lesson in folder dir (gl_lesson.label) into out[8]. */
static void label_of(const char *dir, char out[8])
{
    const char *base = strrchr(dir, '/');
    base = base ? base + 1 : dir;
    while (base[0] == '0' && isdigit((unsigned char)base[1]))
        base++;
    size_t n = 0;
    while (n < 7 && isalnum((unsigned char)base[n]))
        n++;
    memcpy(out, base, n);
    out[n] = '\0';
}

static int number_of(const char *dir)
{
    const char *base = strrchr(dir, '/');
    base = base ? base + 1 : dir;
    if (!isdigit((unsigned char)*base))
        return -1;
    return atoi(base);
}

gl_status lesson_load(const char *dir, gl_lesson *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    char *path = join(dir, "lesson.json");
    if (!path)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    size_t len = 0;
    char *text = gl_read_file(path, &len, err);
    gl_status st = text ? lesson_parse(text, len, dir, out, err) : GL_ERR_INPUT;
    free(text);
    free(path);
    return st;
}

gl_status lesson_parse(const char *text, size_t len, const char *dir, gl_lesson *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    char *path = join(dir, "lesson.json");
    if (!path)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    ctx c = {path, err};
    gl_status st = GL_OK;
    const char *end = NULL;
    cJSON *js = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!js) {
        int line = 1, col = 1;
        for (const char *p = text; end && p < end; p++) {
            if (*p == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        st = gl_fail(err, GL_ERR_INPUT, "%s:%d:%d: malformed JSON", path, line, col);
        goto done;
    }
    static const char *const keys[] = {"format", "id",       "title", "summary",
                                       "steps",  "exercise", "arch",  NULL};
    if (!cJSON_IsObject(js)) {
        st = bad(&c, "(top level)", "must be an object");
        goto done;
    }
    if ((st = only_keys(&c, js, "", keys)) != GL_OK)
        goto done;
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(js, "format");
    if (!cJSON_IsNumber(fmt) || fmt->valuedouble != 1) {
        st = bad(&c, "format", "must be 1 (lesson format v1)");
        goto done;
    }
    out->dir = strdup(dir);
    out->number = number_of(dir);
    label_of(dir, out->label);
    if ((st = get_text(&c, js, "id", "", 1, &out->id)) != GL_OK ||
        (st = get_text(&c, js, "title", "", 1, &out->title)) != GL_OK ||
        (st = get_text(&c, js, "summary", "", 1, &out->summary)) != GL_OK ||
        (st = get_arch(&c, js, "", &out->arch)) != GL_OK)
        goto done;
    const cJSON *steps = cJSON_GetObjectItemCaseSensitive(js, "steps");
    if (!cJSON_IsArray(steps) || cJSON_GetArraySize(steps) == 0) {
        st = bad(&c, "steps", "must be a non-empty array of steps");
        goto done;
    }
    out->nsteps = cJSON_GetArraySize(steps);
    out->steps = calloc((size_t)out->nsteps, sizeof *out->steps);
    if (!out->steps) {
        st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < out->nsteps && st == GL_OK; i++)
        st = load_step(&c, dir, cJSON_GetArrayItem(steps, i), i, &out->steps[i]);
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(js, "exercise");
    if (st == GL_OK && ex) {
        out->exercise = calloc(1, sizeof *out->exercise);
        st = out->exercise ? load_exercise(&c, dir, ex, out->exercise)
                           : gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
done:
    cJSON_Delete(js);
    free(path);
    if (st != GL_OK)
        lesson_free(out);
    return st;
}

static void free_strings(char **s, int n)
{
    for (int i = 0; s && i < n; i++)
        free(s[i]);
    free(s);
}

void lesson_free(gl_lesson *l)
{
    if (!l)
        return;
    for (int i = 0; l->steps && i < l->nsteps; i++) {
        gl_step *s = &l->steps[i];
        free(s->title);
        free(s->text);
        free(s->kernel);
        free(s->view);
        free(s->map_value);
        free(s->arch);
        cJSON_Delete(s->launch);
        cJSON_Delete(s->gpu_launch);
        gl_expect_free(s->expect, s->nexpect);
        cJSON_Delete(s->kernels);
        free_strings(s->args, s->nargs);
    }
    free(l->steps);
    free(l->arch);
    gl_exercise *e = l->exercise;
    if (e) {
        free(e->title);
        free(e->text);
        free(e->starter);
        free(e->reference);
        cJSON_Delete(e->launch);
        free(e->sizes);
        for (int i = 0; e->checks && i < e->nchecks; i++) {
            free(e->checks[i].name);
            free(e->checks[i].metric);
            free(e->checks[i].product);
            free(e->checks[i].sizes);
            free_strings(e->checks[i].outputs, e->checks[i].noutputs);
        }
        free(e->checks);
        free_strings(e->hints, e->nhints);
        for (int i = 0; i < e->npoints; i++)
            free(e->points[i].check);
        free(e->points);
        for (int i = 0; e->program && i < e->program->nruns; i++) {
            free_strings(e->program->runs[i].args, e->program->runs[i].nargs);
            free(e->program->runs[i].stdin_text);
        }
        if (e->program)
            free(e->program->runs);
        free(e->program);
        free(e);
    }
    free(l->dir);
    free(l->id);
    free(l->title);
    free(l->summary);
    free(l->broken);
    memset(l, 0, sizeof *l);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

gl_status lesson_list(gl_lesson **out, int *count, gl_error *err)
{
    *out = NULL;
    *count = 0;
    const char *root = lesson_root();
    struct dirent **names = NULL;
    int n = scandir(root, &names, NULL, by_name);
    if (n < 0)
        return gl_fail(err, GL_ERR_INPUT,
                       "%s: cannot read the lessons folder (set GPULEARN_LESSONS)", root);
    gl_lesson *ls = calloc((size_t)n + 1, sizeof *ls);
    gl_status st = ls ? GL_OK : gl_fail(err, GL_ERR_NOMEM, "out of memory");
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (st == GL_OK && isdigit((unsigned char)names[i]->d_name[0])) {
            char *dir = join(root, names[i]->d_name);
            char *json = dir ? join(dir, "lesson.json") : NULL;
            if (json && is_file(json)) {
                gl_error lerr = {0};
                if (lesson_load(dir, &ls[k], &lerr) != GL_OK) {
                    /* listed as broken, with why */
                    memset(&ls[k], 0, sizeof ls[k]);
                    ls[k].dir = strdup(dir);
                    ls[k].id = strdup(names[i]->d_name);
                    ls[k].number = number_of(dir);
                    label_of(dir, ls[k].label);
                    ls[k].title = strdup("(broken: this lesson does not load)");
                    ls[k].broken = strdup(lerr.msg);
                    if (!ls[k].dir || !ls[k].id || !ls[k].title || !ls[k].broken) {
                        lesson_free(&ls[k]);
                        st = gl_fail(err, GL_ERR_NOMEM, "out of memory");
                    }
                }
                k += st == GL_OK;
            }
            free(json);
            free(dir);
        }
        free(names[i]);
    }
    free(names);
    if (st != GL_OK) {
        lesson_list_free(ls, k);
        return st;
    }
    *out = ls;
    *count = k;
    return GL_OK;
}

void lesson_list_free(gl_lesson *ls, int count)
{
    for (int i = 0; ls && i < count; i++)
        lesson_free(&ls[i]);
    free(ls);
}

gl_status lesson_find(const char *name, gl_lesson *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    if (strchr(name, '/') || (is_dir(name) && !isdigit((unsigned char)name[0]))) {
        char *json = join(name, "lesson.json");
        int ok = json && is_file(json);
        free(json);
        if (ok)
            return lesson_load(name, out, err);
        if (strchr(name, '/'))
            return gl_fail(err, GL_ERR_USAGE, "%s: not a lesson folder (no lesson.json)", name);
    }
    gl_lesson *ls = NULL;
    int n = 0;
    gl_status st = lesson_list(&ls, &n, err);
    if (st != GL_OK)
        return st;
    int all_digits = *name != '\0';
    for (const char *p = name; *p; p++)
        all_digits &= isdigit((unsigned char)*p) != 0;
    const char *label = name; /* "00b" is "0b" */
    while (label[0] == '0' && isdigit((unsigned char)label[1]))
        label++;
    int found = -1;
    for (int i = 0; i < n && found < 0; i++) {
        const char *base = strrchr(ls[i].dir, '/');
        base = base ? base + 1 : ls[i].dir;
        if ((all_digits && ls[i].number == atoi(name)) || strcmp(ls[i].id, name) == 0 ||
            strcmp(base, name) == 0 || (!all_digits && strcmp(ls[i].label, label) == 0))
            found = i;
    }
    if (found >= 0) {
        *out = ls[found];
        memset(&ls[found], 0, sizeof ls[found]);
    } else {
        st = gl_fail(err, GL_ERR_USAGE, "no lesson '%s' (gpulearn list shows them)", name);
    }
    lesson_list_free(ls, n);
    return st;
}

/* Replaces (or adds) obj.key with a copy of v. 0 when out of memory. */
static int set_copy(cJSON *obj, const char *key, const cJSON *v)
{
    cJSON *n = cJSON_Duplicate(v, 1);
    if (!n)
        return 0;
    if (cJSON_GetObjectItemCaseSensitive(obj, key))
        return cJSON_ReplaceItemInObjectCaseSensitive(obj, key, n) ? 1 : (cJSON_Delete(n), 0);
    cJSON_AddItemToObject(obj, key, n);
    return 1;
}

/* launch with the changes ch (check_changes's form; NULL: none) applied in place, all but
 * their "kernels". 0 when out of memory. */
static int apply_changes(cJSON *launch, const cJSON *ch)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, ch)
    {
        if (strcmp(it->string, "kernels") == 0)
            continue;
        if (strcmp(it->string, "args") != 0) {
            if (!set_copy(launch, it->string, it))
                return 0;
            continue;
        }
        const cJSON *change;
        cJSON_ArrayForEach(change, it)
        {
            cJSON *arg;
            cJSON_ArrayForEach(arg, cJSON_GetObjectItemCaseSensitive(launch, "args"))
            {
                const cJSON *n = cJSON_GetObjectItemCaseSensitive(arg, "name"), *v;
                if (cJSON_IsString(n) && strcmp(n->valuestring, change->string) == 0)
                    cJSON_ArrayForEach(v, change) if (!set_copy(arg, v->string, v)) return 0;
            }
        }
    }
    return 1;
}

gl_status lesson_step_spec(const gl_lesson *l, int step, gl_spec *out, gl_error *err)
{
    return lesson_step_spec_for(l, step, NULL, GL_BACKEND_SIM, out, err);
}

gl_status lesson_step_spec_for(const gl_lesson *l, int step, const char *kernel,
                               gl_backend_kind where, gl_spec *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    if (step < 0 || step >= l->nsteps || !l->steps[step].launch)
        return gl_fail(err, GL_ERR_USAGE, "%s: step %d has no kernel to run", l->dir, step + 1);
    const gl_step *s = &l->steps[step];
    const cJSON *gpu = where == GL_BACKEND_GPU ? s->gpu_launch : NULL;
    if (kernel && strcmp(kernel, lesson_step_kernel_name(s)) == 0)
        kernel = NULL;
    cJSON *js = launch_with_arch(s->launch, s->arch ? s->arch : l->arch);
    cJSON *name = kernel ? cJSON_CreateString(kernel) : NULL;
    /* the step's launch, its changes for a GPU, then the kernel's own changes and the
     * kernel's for a GPU */
    int ok = js && (!kernel || (name && set_copy(js, "kernel", name))) && apply_changes(js, gpu);
    if (ok && kernel) {
        ok = apply_changes(js, cJSON_GetObjectItemCaseSensitive(s->kernels, kernel)) &&
             apply_changes(js, cJSON_GetObjectItemCaseSensitive(
                                   cJSON_GetObjectItemCaseSensitive(gpu, "kernels"), kernel));
    }
    cJSON_Delete(name);
    if (!ok) {
        cJSON_Delete(js);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    /* A "source" in the launch is relative to the lesson folder; the step's kernel
     * path is already resolved. */
    const char *base = l->dir;
    if (!cJSON_GetObjectItemCaseSensitive(js, "source")) {
        cJSON_AddStringToObject(js, "source", s->kernel);
        base = NULL;
    }
    char file[PATH_MAX];
    snprintf(file, sizeof file, "%s/lesson.json: steps[%d].launch%s%s%s", l->dir, step,
             gpu ? " with gpu_launch" : "", kernel ? " with kernels." : "", kernel ? kernel : "");
    gl_status st = spec_from_json(js, file, base, NULL, out, err);
    cJSON_Delete(js);
    return st;
}

const char *lesson_exercise_arch(const gl_lesson *l)
{
    const cJSON *a =
        l->exercise ? cJSON_GetObjectItemCaseSensitive(l->exercise->launch, "arch") : NULL;
    return cJSON_IsString(a) ? a->valuestring : l->arch;
}

gl_status lesson_exercise_spec(const gl_lesson *l, int64_t n, uint64_t seed_offset,
                               const char *source_path, gl_spec *out, gl_error *err)
{
    return lesson_exercise_spec_variant(l, n, seed_offset, GL_INPUTS_RANDOM, source_path, out, err);
}

int lesson_exercise_has_random(const gl_lesson *l)
{
    if (!l->exercise || !l->exercise->launch)
        return 0;
    const cJSON *arg;
    cJSON_ArrayForEach(
        arg,
        cJSON_GetObjectItemCaseSensitive(
            l->exercise->launch,
            "args")) if (cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(arg,
                                                                                           "init"),
                                                          "random")) return 1;
    return 0;
}

/* The limits of the element type of an argument typed `type` ("u32*"), as strings a
 * spec reads exactly: {"0", "4294967295"}; NULL for an unknown type. */
static const char *const *type_limits(const char *type)
{
    static const char *const lim[][3] = {
        {"i8", "-128", "127"},
        {"u8", "0", "255"},
        {"i16", "-32768", "32767"},
        {"u16", "0", "65535"},
        {"i32", "-2147483648", "2147483647"},
        {"u32", "0", "4294967295"},
        {"i64", "-9223372036854775808", "9223372036854775807"},
        {"u64", "0", "18446744073709551615"},
        {"f32", "-3.4028234663852886e38", "3.4028234663852886e38"},
        {"f64", "-1.7976931348623157e308", "1.7976931348623157e308"},
    };
    for (size_t i = 0; type && i < sizeof lim / sizeof *lim; i++)
        if (strncmp(type, lim[i][0], strlen(lim[i][0])) == 0 && type[strlen(lim[i][0])] == '*')
            return &lim[i][1];
    return NULL;
}

/* rnd (a "random" init) with the input set `set` of its "adversarial" list: the set's
 * class, quantum, nonfinite, and its min and max, by default the type's limits. 0 when
 * out of memory. */
static int apply_input_set(cJSON *rnd, const cJSON *set, const char *type)
{
    static const char *const keys[] = {"class", "quantum", "nonfinite"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(set, keys[k]);
        if (v && !set_copy(rnd, keys[k], v))
            return 0;
    }
    const char *const *lim = type_limits(type);
    for (int k = 0; k < 2; k++) {
        const char *key = k ? "max" : "min";
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(set, key);
        cJSON *def = !v && lim ? cJSON_CreateString(lim[k]) : NULL;
        const int ok = !(v || def) || set_copy(rnd, key, v ? v : def);
        cJSON_Delete(def);
        if (!ok)
            return 0;
    }
    return 1;
}

gl_status lesson_exercise_spec_variant(const gl_lesson *l, int64_t n, uint64_t seed_offset,
                                       gl_inputs variant, const char *source_path, gl_spec *out,
                                       gl_error *err)
{
    memset(out, 0, sizeof *out);
    if (!l->exercise)
        return gl_fail(err, GL_ERR_USAGE, "lesson '%s' has no exercise", l->id);
    return exercise_spec(l->exercise->launch, l->arch, l->dir, n, seed_offset, variant, source_path,
                         out, err);
}

/* lesson_exercise_spec_variant on an exercise's launch, the lesson's arch (NULL: none)
 * and folder. */
static gl_status exercise_spec(const cJSON *launch, const char *arch, const char *dir, int64_t n,
                               uint64_t seed_offset, gl_inputs variant, const char *source_path,
                               gl_spec *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    cJSON *js = launch_with_arch(launch, arch);
    if (!js)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    cJSON_DeleteItemFromObjectCaseSensitive(js, "source");
    cJSON_AddStringToObject(js, "source", source_path);
    int ok = 1;
    cJSON *arg;
    cJSON_ArrayForEach(arg, cJSON_GetObjectItemCaseSensitive(js, "args"))
    {
        cJSON *init = cJSON_GetObjectItemCaseSensitive(arg, "init");
        cJSON *adv = cJSON_DetachItemFromObjectCaseSensitive(init, "adversarial");
        cJSON *rnd = cJSON_GetObjectItemCaseSensitive(init, "random");
        /* Different inputs at every size: offset each "random" seed. */
        cJSON *seed = cJSON_GetObjectItemCaseSensitive(rnd, "seed");
        if (cJSON_IsNumber(seed))
            cJSON_SetNumberValue(seed, seed->valuedouble + (double)seed_offset);
        /* adversarial inputs inside the declared range (the kernel may rely on it) */
        cJSON *mn = cJSON_GetObjectItemCaseSensitive(rnd, "min");
        cJSON *mx = cJSON_GetObjectItemCaseSensitive(rnd, "max");
        if (variant != GL_INPUTS_RANDOM && variant < GL_INPUTS_DECLARED && cJSON_IsNumber(mn) &&
            cJSON_IsNumber(mx)) {
            const double lo = mn->valuedouble, hi = mx->valuedouble;
            if (variant == GL_INPUTS_ALL_MAX)
                cJSON_SetNumberValue(mn, hi);
            else if (variant == GL_INPUTS_ALL_MIN)
                cJSON_SetNumberValue(mx, lo);
            else if (variant == GL_INPUTS_FEW_VALUES)
                cJSON_SetNumberValue(mx, lo + floor((hi - lo) / 4)); /* integral: ints */
        }
        /* the declared sets: the argument's own entry, where it has one */
        const cJSON *set = variant >= GL_INPUTS_DECLARED && rnd
                               ? cJSON_GetArrayItem(adv, (int)variant - GL_INPUTS_DECLARED)
                               : NULL;
        if (set) {
            const cJSON *type = cJSON_GetObjectItemCaseSensitive(arg, "type");
            ok &= apply_input_set(rnd, set, cJSON_IsString(type) ? type->valuestring : NULL);
        }
        cJSON_Delete(adv);
    }
    if (!ok) {
        cJSON_Delete(js);
        return gl_fail(err, GL_ERR_NOMEM, "out of memory");
    }
    gl_vars vars = {.names = {"n"}, .values = {n}, .count = 1};
    char file[PATH_MAX];
    if (variant >= GL_INPUTS_DECLARED)
        snprintf(file, sizeof file,
                 "%s/lesson.json: exercise.launch (n = %lld) with adversarial[%d]", dir,
                 (long long)n, (int)variant - GL_INPUTS_DECLARED);
    else
        snprintf(file, sizeof file, "%s/lesson.json: exercise.launch (n = %lld)", dir,
                 (long long)n);
    gl_status st = spec_from_json(js, file, NULL, &vars, out, err); /* source_path as given */
    cJSON_Delete(js);
    return st;
}

int lesson_exercise_declared_inputs(const gl_lesson *l)
{
    int most = 0;
    const cJSON *arg;
    if (!l->exercise)
        return 0;
    cJSON_ArrayForEach(arg, cJSON_GetObjectItemCaseSensitive(l->exercise->launch, "args"))
    {
        const int k = cJSON_GetArraySize(adversarial_of(arg));
        most = k > most ? k : most;
    }
    return most;
}

/* Appends one argument's input set to buf (used bytes): "keys across the whole range of
 * u32 (its extremes included)". */
static void describe_set(char *buf, size_t len, const char *name, const char *type,
                         const cJSON *set)
{
    const char *cls = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(set, "class"));
    const cJSON *mn = cJSON_GetObjectItemCaseSensitive(set, "min");
    const cJSON *mx = cJSON_GetObjectItemCaseSensitive(set, "max");
    const cJSON *qu = cJSON_GetObjectItemCaseSensitive(set, "quantum");
    const int is_f = type && type[0] == 'f';
    char range[96], t[8];
    snprintf(t, sizeof t, "%.*s", (int)strcspn(type ? type : "", "*"), type ? type : "");
    /* the bounds: the set's, else the type's limits; floats as %.9g */
    double lo = -1, hi = 1; /* the whole range holds 0 */
    if (mn || mx) {
        char a[40], b[40];
        const char *const *lim = type_limits(type);
        const char *ls = cJSON_IsString(mn) ? mn->valuestring : lim ? lim[0] : "0";
        const char *hs = cJSON_IsString(mx) ? mx->valuestring : lim ? lim[1] : "0";
        lo = cJSON_IsNumber(mn) ? mn->valuedouble : strtod(ls, NULL);
        hi = cJSON_IsNumber(mx) ? mx->valuedouble : strtod(hs, NULL);
        if (is_f || cJSON_IsNumber(mn))
            snprintf(a, sizeof a, "%.9g", lo);
        else
            snprintf(a, sizeof a, "%s", ls);
        if (is_f || cJSON_IsNumber(mx))
            snprintf(b, sizeof b, "%.9g", hi);
        else
            snprintf(b, sizeof b, "%s", hs);
        snprintf(range, sizeof range, "[%s, %s]", a, b);
    } else {
        snprintf(range, sizeof range, "the whole range of %s", t);
    }
    size_t used = strlen(buf);
    if (strcmp(cls, "bit_ranges") == 0) {
        const int w = (int)(8 * (t[1] == '8' ? 1 : t[1] == '1' ? 2 : t[1] == '3' ? 4 : 8));
        used += (size_t)snprintf(buf + used, len - used, "%s differing only in bits", name);
        for (int k = 0; k < w / 8 && used < len; k++)
            used += (size_t)snprintf(buf + used, len - used, " %d-%d,", 8 * k, 8 * k + 7);
        if (used < len)
            snprintf(buf + used, len - used, " or bit %d (one range per part of %s)", w - 1, name);
    } else if (strcmp(cls, "uniform") == 0) {
        snprintf(buf + used, len - used, "%s uniform in %s", name, range);
    } else if (!is_f) {
        snprintf(buf + used, len - used, "%s across %s (its extremes included)", name, range);
    } else {
        int e = 0;
        if (cJSON_IsNumber(qu))
            frexp(qu->valuedouble, &e);
        used += (size_t)snprintf(buf + used, len - used, "%s over every binade of %s", name, range);
        if (cJSON_IsNumber(qu) && used < len)
            used += (size_t)snprintf(buf + used, len - used, " in multiples of 2^%d", e - 1);
        else if (used < len && lo <= 0 && hi >= 0)
            used += (size_t)snprintf(buf + used, len - used, " (zeros and denormals included)");
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(set, "nonfinite")) && used < len)
            snprintf(buf + used, len - used, ", with infinities and NaN");
    }
}

void lesson_exercise_inputs_label(const gl_lesson *l, gl_inputs variant, char *buf, size_t len)
{
    static const char *const implicit[] = {
        "", " with every input the largest allowed", " with every input the smallest allowed",
        " with inputs from the lowest quarter of their range (duplicates)"};
    if (!len)
        return;
    buf[0] = '\0';
    if (variant < GL_INPUTS_DECLARED) {
        snprintf(buf, len, "%s", implicit[variant]);
        return;
    }
    const cJSON *arg,
        *args = l->exercise ? cJSON_GetObjectItemCaseSensitive(l->exercise->launch, "args") : NULL;
    int first = 1;
    cJSON_ArrayForEach(arg, args)
    {
        const cJSON *set =
            cJSON_GetArrayItem(adversarial_of(arg), (int)variant - GL_INPUTS_DECLARED);
        if (!set)
            continue;
        const size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s", first ? " with " : "; ");
        first = 0;
        describe_set(buf, len, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(arg, "name")),
                     cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(arg, "type")), set);
    }
}

const char *lesson_step_kernel_name(const gl_step *s)
{
    const cJSON *k = s->launch ? cJSON_GetObjectItemCaseSensitive(s->launch, "kernel") : NULL;
    return cJSON_IsString(k) ? k->valuestring : "";
}
