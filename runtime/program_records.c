/* program_records.c — a whole program's launch records: the file cudart writes
 * (cudart/record.h) read into runtime's types, the launch sites' file:line from the
 * executable's line table, and the run's --trace-json / --metrics-json assembled from
 * each launch's files (program.h). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/program.h"
#include "trace/perfetto.h"
#include "trace/trace_file.h"

/* ------------------------------------------------------------ record lines */

static const char *jstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double jnum(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static void jdim(const cJSON *o, const char *k, unsigned d[3])
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    for (int i = 0; i < 3; i++) {
        const cJSON *e = cJSON_IsArray(v) ? cJSON_GetArrayItem(v, i) : NULL;
        d[i] = cJSON_IsNumber(e) ? (unsigned)e->valuedouble : 0;
    }
}

static void jcopy(char *dst, size_t n, const cJSON *o, const char *k)
{
    const char *s = jstr(o, k);
    snprintf(dst, n, "%s", s ? s : "");
}

/* The value sim/kinds.h's list gives name (its X(NAME, value)); dflt when none does. */
#define PR_NAME(n, v) {#n, v},
static const struct {
    const char *name;
    int value;
} fault_kinds[] = {SIM_FAULT_LIST(PR_NAME)}, finding_kinds[] = {SIM_FINDING_LIST(PR_NAME)},
  hazards[] = {SIM_HAZARD_LIST(PR_NAME)};
#undef PR_NAME
#define PR_KIND(table, s, dflt) kind_value(table, sizeof table / sizeof *table, s, dflt)

static int kind_value(const void *table, size_t n, const char *s, int dflt)
{
    const struct {
        const char *name;
        int value;
    } *t = table;
    for (size_t i = 0; s && i < n; i++)
        if (strcmp(t[i].name, s) == 0)
            return t[i].value;
    return dflt;
}

static gl_space space_value(const char *s)
{
    for (int v = TRACE_SPACE_GENERIC; s && v <= TRACE_SPACE_PARAM; v++)
        if (strcmp(trace_space_name(v), s) == 0)
            return (gl_space)v;
    return GL_SPACE_GENERIC;
}

static void access_of(const cJSON *o, const unsigned block_dim[3], gl_access *a)
{
    memset(a, 0, sizeof *a);
    if (!cJSON_IsObject(o))
        return;
    a->op = (int)jnum(o, "op");
    jdim(o, "block", a->block);
    jdim(o, "thread", a->thread);
    a->warp = (int)((a->thread[0] + (uint64_t)block_dim[0] *
                                        (a->thread[1] + (uint64_t)block_dim[1] * a->thread[2])) /
                    32);
    a->ptx_line = (int)jnum(o, "ptx_line");
    jcopy(a->src_file, sizeof a->src_file, o, "file");
    a->src_line = (int)jnum(o, "line");
}

static void fault_of(const cJSON *o, gl_prog_launch *l)
{
    gl_fault *f = &l->fault;
    f->kind = (gl_fault_kind)PR_KIND(fault_kinds, jstr(o, "kind"), GL_FAULT_TRAP);
    jcopy(f->message, sizeof f->message, o, "message");
    jcopy(f->src_file, sizeof f->src_file, o, "file");
    f->src_line = (int)jnum(o, "line");
    f->ptx_line = (int)jnum(o, "ptx_line");
    jdim(o, "block", f->block);
    jdim(o, "thread", f->thread);
    f->space = space_value(jstr(o, "space"));
    f->is_store = (int)jnum(o, "is_store");
    f->address = (uint64_t)jnum(o, "address");
    f->size = (unsigned)jnum(o, "size");
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "alloc");
    if (cJSON_IsObject(a)) {
        jcopy(f->alloc_name, sizeof f->alloc_name, a, "name");
        f->alloc_bytes = (uint64_t)jnum(a, "bytes");
        f->alloc_distance = (uint64_t)jnum(a, "distance");
        f->alloc_after = (int)jnum(a, "after");
    }
    f->warp = f->lane = -1;
    if (f->kind != GL_FAULT_DEADLOCK && f->kind != GL_FAULT_UNSUPPORTED) {
        const uint64_t tid =
            f->thread[0] +
            (uint64_t)l->block[0] * (f->thread[1] + (uint64_t)l->block[1] * f->thread[2]);
        f->warp = (int)(tid / 32);
        f->lane = (int)(tid % 32);
    }
    jcopy(l->fault_error, sizeof l->fault_error, o, "error");
}

static void finding_of(const cJSON *o, const unsigned block_dim[3], gl_finding *g)
{
    memset(g, 0, sizeof *g);
    g->kind = (gl_finding_kind)PR_KIND(finding_kinds, jstr(o, "kind"), GL_FIND_OTHER);
    const char *sev = jstr(o, "severity");
    g->is_error = sev && strcmp(sev, "error") == 0;
    jcopy(g->message, sizeof g->message, o, "message");
    access_of(o, block_dim, &g->access);
    g->space = space_value(jstr(o, "space"));
    g->address = (uint64_t)jnum(o, "address");
    g->size = (unsigned)jnum(o, "size");
    g->hazard = (gl_hazard)PR_KIND(hazards, jstr(o, "hazard"), 0);
    g->count = (uint64_t)jnum(o, "count");
    jcopy(g->var, sizeof g->var, o, "var");
    access_of(cJSON_GetObjectItemCaseSensitive(o, "other"), block_dim, &g->other);
    g->other_async = (int)jnum(o, "other_async");
}

static int launch_of(const cJSON *o, gl_prog_launch *l)
{
    memset(l, 0, sizeof *l);
    l->number = (unsigned)jnum(o, "launch");
    jcopy(l->kernel, sizeof l->kernel, o, "kernel");
    jcopy(l->mangled, sizeof l->mangled, o, "mangled");
    jdim(o, "grid", l->grid);
    jdim(o, "block", l->block);
    l->shared = (uint64_t)jnum(o, "shared");
    const char *site = jstr(o, "site");
    l->site = site ? strtoull(site, NULL, 16) : 0;
    l->launched = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "launched"));
    jcopy(l->error, sizeof l->error, o, "error");
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, "fault");
    if (cJSON_IsObject(f))
        fault_of(f, l);
    const cJSON *fs = cJSON_GetObjectItemCaseSensitive(o, "findings");
    const int n = cJSON_IsArray(fs) ? cJSON_GetArraySize(fs) : 0;
    if (n > 0 && !(l->findings = calloc((size_t)n, sizeof *l->findings)))
        return -1;
    for (int i = 0; i < n; i++)
        finding_of(cJSON_GetArrayItem(fs, i), l->block, &l->findings[l->nfindings++]);
    l->findings_dropped = (int)jnum(o, "findings_dropped");
    l->nerrors = (int)jnum(o, "errors");
    l->nwarnings = (int)jnum(o, "warnings");
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(o, "stats");
    l->stats.warp_instructions = (uint64_t)jnum(st, "warp_instructions");
    l->stats.thread_instructions = (uint64_t)jnum(st, "thread_instructions");
    l->printf_bytes = (uint64_t)jnum(st, "printf_bytes");
    l->start_ns = jnum(o, "start_ns");
    l->end_ns = jnum(o, "end_ns");
    l->wall_start_ns = jnum(o, "wall_start_ns");
    l->wall_end_ns = jnum(o, "wall_end_ns");
    return 0;
}

/* ------------------------------------------------------------ launch sites */

/* The first of addr2line, llvm-addr2line on PATH into buf; 0 when neither is. */
static int find_addr2line(char *buf, size_t n)
{
    static const char *const names[] = {"addr2line", "llvm-addr2line"};
    const char *path = getenv("PATH");
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        for (const char *p = path ? path : "/usr/bin"; *p;) {
            const char *e = strchr(p, ':');
            const size_t len = e ? (size_t)(e - p) : strlen(p);
            if (snprintf(buf, n, "%.*s/%s", (int)len, p, names[k]) < (int)n &&
                access(buf, X_OK) == 0)
                return 1;
            p += len + (e != NULL);
        }
    return 0;
}

/* Fills each launch's where / where_line from exe's line table: one addr2line run for
 * every site. Leaves them unknown when it cannot. */
static void resolve_sites(gl_prog_records *r, const char *exe)
{
    char tool[PATH_MAX];
    int nsites = 0;
    for (int i = 0; i < r->nlaunches; i++)
        nsites += r->launches[i].site != 0;
    if (!exe || nsites == 0 || !find_addr2line(tool, sizeof tool))
        return;
    char **argv = calloc((size_t)nsites + 4, sizeof *argv);
    char(*addr)[24] = calloc((size_t)nsites, sizeof *addr);
    int *which = calloc((size_t)nsites, sizeof *which);
    int pfd[2] = {-1, -1};
    if (!argv || !addr || !which || pipe(pfd) != 0) {
        free(argv), free(addr), free(which);
        return;
    }
    int n = 0;
    argv[n++] = tool;
    argv[n++] = "-e";
    argv[n++] = (char *)exe;
    for (int i = 0, k = 0; i < r->nlaunches; i++)
        if (r->launches[i].site) {
            snprintf(addr[k], sizeof addr[k], "0x%llx", (unsigned long long)r->launches[i].site);
            which[k] = i;
            argv[n++] = addr[k++];
        }
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(pfd[1], 1);
        close(pfd[0]);
        close(pfd[1]);
        execv(tool, argv);
        _exit(127);
    }
    close(pfd[1]);
    FILE *f = pid > 0 ? fdopen(pfd[0], "r") : NULL;
    char line[PATH_MAX + 64], cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        cwd[0] = '\0';
    const size_t ncwd = strlen(cwd);
    for (int k = 0; f && k < nsites && fgets(line, sizeof line, f); k++) {
        line[strcspn(line, "\n")] = '\0';
        char *disc = strstr(line, " (discriminator");
        if (disc)
            *disc = '\0';
        char *colon = strrchr(line, ':');
        if (!colon || line[0] == '?')
            continue;
        *colon = '\0';
        const int ln = atoi(colon + 1);
        if (ln <= 0)
            continue;
        const char *file = line;
        if (ncwd && strncmp(file, cwd, ncwd) == 0 && file[ncwd] == '/')
            file += ncwd + 1;
        gl_prog_launch *l = &r->launches[which[k]];
        snprintf(l->where, sizeof l->where, "%.*s", (int)sizeof l->where - 1, file);
        l->where_line = ln;
    }
    if (f)
        fclose(f);
    else
        close(pfd[0]);
    if (pid > 0)
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    free(argv), free(addr), free(which);
}

gl_status gl_program_records_read(const char *path, const char *exe, gl_prog_records *r,
                                  gl_error *err)
{
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? GL_OK
                               : gl_fail(err, GL_ERR_INPUT, "%s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int nl = 0, nc = 0, capl = 0, capc = 0;
    gl_status st = GL_OK;
    while (st == GL_OK && (len = getline(&line, &cap, f)) >= 0) {
        /* a line cut by a crash has no newline and does not parse */
        cJSON *o = len > 0 && line[len - 1] == '\n' ? cJSON_Parse(line) : NULL;
        const char *type = o ? jstr(o, "type") : NULL;
        if (type && strcmp(type, "launch") == 0) {
            if (nl == capl) {
                capl = capl ? 2 * capl : 16;
                gl_prog_launch *nla = realloc(r->launches, (size_t)capl * sizeof *nla);
                if (!nla) {
                    st = gl_fail(err, GL_ERR_NOMEM, "out of memory reading %s", path);
                    cJSON_Delete(o);
                    break;
                }
                r->launches = nla;
            }
            if (launch_of(o, &r->launches[nl]) != 0)
                st = gl_fail(err, GL_ERR_NOMEM, "out of memory reading %s", path);
            r->nlaunches = ++nl;
        } else if (type && strcmp(type, "api") == 0) {
            if (nc == capc) {
                capc = capc ? 2 * capc : 64;
                gl_prog_call *nca = realloc(r->calls, (size_t)capc * sizeof *nca);
                if (!nca) {
                    st = gl_fail(err, GL_ERR_NOMEM, "out of memory reading %s", path);
                    cJSON_Delete(o);
                    break;
                }
                r->calls = nca;
            }
            gl_prog_call *c = &r->calls[nc++];
            jcopy(c->name, sizeof c->name, o, "name");
            c->start_ns = jnum(o, "start_ns");
            c->end_ns = jnum(o, "end_ns");
            c->wall_start_ns = jnum(o, "wall_start_ns");
            c->wall_end_ns = jnum(o, "wall_end_ns");
            r->ncalls = nc;
        } else {
            r->bad_lines++;
        }
        cJSON_Delete(o);
    }
    free(line);
    fclose(f);
    if (st != GL_OK) {
        gl_program_records_free(r);
        return st;
    }
    resolve_sites(r, exe);
    return GL_OK;
}

void gl_program_records_free(gl_prog_records *r)
{
    for (int i = 0; i < r->nlaunches; i++)
        free(r->launches[i].findings);
    free(r->launches);
    free(r->calls);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------ trace and metrics */

/* The JSON of trace_dir/N.SUFFIX (any size), or NULL with err set. */
static cJSON *launch_file(const char *dir, unsigned n, const char *suffix, gl_error *err)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%u.%s", dir, n, suffix);
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long len = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)len + 1)) != NULL && fread(text, 1, (size_t)len, f) == (size_t)len)
        text[len] = '\0';
    else if (text) {
        free(text);
        text = NULL;
    }
    if (f)
        fclose(f);
    cJSON *o = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!o)
        gl_fail(err, GL_ERR_INPUT, "launch %u's %s is missing or unreadable (%s)", n, suffix, path);
    return o;
}

gl_status gl_program_launch_trace(const char *trace_dir, unsigned n, trace_t **out, gl_error *err)
{
    char path[PATH_MAX + 32], why[256] = "";
    snprintf(path, sizeof path, "%s/%u.trace", trace_dir, n);
    FILE *f = fopen(path, "rb");
    *out = f ? trace_load(f, why, sizeof why) : NULL;
    if (f)
        fclose(f);
    if (!*out)
        return gl_fail(err, GL_ERR_INPUT, "launch %u's trace (%s): %s", n, path,
                       why[0] ? why : strerror(errno));
    return GL_OK;
}

/* Launch n's trace as Chrome Trace Event JSON (trace/perfetto.h), parsed; NULL with err
 * set. */
static cJSON *launch_perfetto(const char *dir, unsigned n, gl_error *err)
{
    trace_t *t = NULL;
    if (gl_program_launch_trace(dir, n, &t, err) != GL_OK)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    const int ok = mem && gl_perfetto_write(mem, t, NULL) == GL_PERFETTO_OK;
    if (mem)
        fclose(mem);
    trace_free(t);
    cJSON *o = ok && text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!o)
        gl_fail(err, GL_ERR_NOMEM, "launch %u's trace: out of memory", n);
    return o;
}

/* "kernel<<<(x,y,z), (x,y,z)>>>" and " at file:line" of launch l into buf. */
static const char *launch_label(const gl_prog_launch *l, char *buf, size_t n)
{
    char where[GL_FILE_MAX + 32] = "";
    if (l->where_line > 0)
        snprintf(where, sizeof where, " at %s:%d", l->where, l->where_line);
    snprintf(buf, n, "launch %u: %s<<<(%u,%u,%u), (%u,%u,%u)>>>%s", l->number,
             l->kernel[0] ? l->kernel : "?", l->grid[0], l->grid[1], l->grid[2], l->block[0],
             l->block[1], l->block[2], where);
    return buf;
}

static cJSON *meta(const char *name, int pid, int tid, const char *key, cJSON *value)
{
    cJSON *m = cJSON_CreateObject(), *args = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "name", name);
    cJSON_AddStringToObject(m, "ph", "M");
    cJSON_AddNumberToObject(m, "pid", pid);
    if (tid >= 0)
        cJSON_AddNumberToObject(m, "tid", tid);
    cJSON_AddItemToObject(args, key, value);
    cJSON_AddItemToObject(m, "args", args);
    return m;
}

/* Writes o unformatted to out; GL_ERR_NOMEM when it cannot be printed. */
static gl_status print_json(cJSON *o, FILE *out, gl_error *err)
{
    char *text = cJSON_PrintUnformatted(o);
    if (!text)
        return gl_fail(err, GL_ERR_NOMEM, "out of memory writing JSON");
    fputs(text, out);
    fputc('\n', out);
    free(text);
    return ferror(out) ? gl_fail(err, GL_ERR_INPUT, "cannot write the JSON") : GL_OK;
}

gl_status gl_program_write_trace(const gl_prog_records *r, const char *trace_dir,
                                 const char *program, FILE *out, gl_error *err)
{
    cJSON *doc = cJSON_CreateObject(), *other = cJSON_CreateObject(), *evs = cJSON_CreateArray();
    cJSON_AddStringToObject(doc, "displayTimeUnit", "ns");
    cJSON_AddStringToObject(other, "generator", "gpulearn");
    cJSON_AddStringToObject(other, "program", program ? program : "");
    cJSON_AddStringToObject(other, "clock",
                            "modelled device clock, us (simulated: a launch costs 3 us plus its "
                            "warp instructions at 4 a clock per SM); process 0: the host's CUDA "
                            "API calls; process N: launch N, its trace's clock (warp "
                            "instructions issued) stretched over the launch's modelled span");
    cJSON_AddItemToObject(doc, "otherData", other);
    cJSON_AddItemToObject(doc, "traceEvents", evs);
    cJSON_AddItemToArray(
        evs, meta("process_name", 0, -1, "name", cJSON_CreateString("host: CUDA API calls")));
    cJSON_AddItemToArray(evs, meta("thread_name", 0, 0, "name", cJSON_CreateString("host thread")));
    for (int i = 0; i < r->ncalls; i++) {
        const gl_prog_call *c = &r->calls[i];
        cJSON *e = cJSON_CreateObject(), *args = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", c->name);
        cJSON_AddStringToObject(e, "cat", "api");
        cJSON_AddStringToObject(e, "ph", "X");
        cJSON_AddNumberToObject(e, "pid", 0);
        cJSON_AddNumberToObject(e, "tid", 0);
        cJSON_AddNumberToObject(e, "ts", c->start_ns / 1000.0);
        cJSON_AddNumberToObject(e, "dur", (c->end_ns - c->start_ns) / 1000.0);
        cJSON_AddNumberToObject(args, "wall_start_ns", c->wall_start_ns);
        cJSON_AddNumberToObject(args, "wall_end_ns", c->wall_end_ns);
        cJSON_AddItemToObject(e, "args", args);
        cJSON_AddItemToArray(evs, e);
    }
    gl_status st = GL_OK;
    for (int i = 0; i < r->nlaunches && st == GL_OK; i++) {
        const gl_prog_launch *l = &r->launches[i];
        if (!l->launched)
            continue;
        cJSON *t = launch_perfetto(trace_dir, l->number, err);
        cJSON *tev = t ? cJSON_GetObjectItemCaseSensitive(t, "traceEvents") : NULL;
        if (!cJSON_IsArray(tev)) {
            cJSON_Delete(t);
            st =
                gl_fail(err, GL_ERR_INPUT, "launch %u's trace is missing or unreadable", l->number);
            break;
        }
        double end = 1; /* the trace's last time */
        const cJSON *e;
        cJSON_ArrayForEach(e, tev)
        {
            const double x = jnum(e, "ts") + jnum(e, "dur");
            if (x > end)
                end = x;
        }
        const double scale = (l->end_ns - l->start_ns) / 1000.0 / end, base = l->start_ns / 1000.0;
        char label[GL_FILE_MAX + 600];
        cJSON_AddItemToArray(evs, meta("process_name", (int)l->number, -1, "name",
                                       cJSON_CreateString(launch_label(l, label, sizeof label))));
        cJSON_AddItemToArray(evs, meta("process_sort_index", (int)l->number, -1, "sort_index",
                                       cJSON_CreateNumber(l->number)));
        cJSON *next;
        for (cJSON *ev = tev->child; ev; ev = next) {
            next = ev->next;
            const char *ph = jstr(ev, "ph"), *name = jstr(ev, "name");
            if (ph && strcmp(ph, "M") == 0 && name && strncmp(name, "process_", 8) == 0)
                continue; /* the SMs' process names: the launch is the process here */
            cJSON_DetachItemViaPointer(tev, ev);
            cJSON_ReplaceItemInObjectCaseSensitive(ev, "pid", cJSON_CreateNumber(l->number));
            cJSON *ts = cJSON_GetObjectItemCaseSensitive(ev, "ts");
            if (cJSON_IsNumber(ts))
                cJSON_SetNumberValue(ts, base + ts->valuedouble * scale);
            cJSON *dur = cJSON_GetObjectItemCaseSensitive(ev, "dur");
            if (cJSON_IsNumber(dur))
                cJSON_SetNumberValue(dur, dur->valuedouble * scale);
            cJSON_AddItemToArray(evs, ev);
        }
        cJSON_Delete(t);
    }
    if (st == GL_OK)
        st = print_json(doc, out, err);
    cJSON_Delete(doc);
    return st;
}

gl_status gl_program_write_metrics(const gl_prog_records *r, const char *trace_dir,
                                   const char *program, FILE *out, gl_error *err)
{
    cJSON *doc = cJSON_CreateObject(), *launches = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "program", program ? program : "");
    cJSON_AddItemToObject(doc, "launches", launches);
    gl_status st = GL_OK;
    for (int i = 0; i < r->nlaunches && st == GL_OK; i++) {
        const gl_prog_launch *l = &r->launches[i];
        if (!l->launched)
            continue;
        cJSON *m = launch_file(trace_dir, l->number, "metrics.json", err);
        if (!m) {
            st = GL_ERR_INPUT;
            break;
        }
        char key[16], where[GL_FILE_MAX + 16];
        cJSON_AddNumberToObject(m, "launch", l->number);
        cJSON_AddStringToObject(m, "kernel_name", l->kernel);
        cJSON_AddItemToObject(
            m, "grid",
            cJSON_CreateIntArray((const int[]){(int)l->grid[0], (int)l->grid[1], (int)l->grid[2]},
                                 3));
        cJSON_AddItemToObject(
            m, "block",
            cJSON_CreateIntArray(
                (const int[]){(int)l->block[0], (int)l->block[1], (int)l->block[2]}, 3));
        if (l->where_line > 0) {
            snprintf(where, sizeof where, "%s:%d", l->where, l->where_line);
            cJSON_AddStringToObject(m, "where", where);
        } else {
            cJSON_AddNullToObject(m, "where");
        }
        snprintf(key, sizeof key, "%u", l->number);
        cJSON_AddItemToObject(launches, key, m);
    }
    if (st == GL_OK)
        st = print_json(doc, out, err);
    cJSON_Delete(doc);
    return st;
}
