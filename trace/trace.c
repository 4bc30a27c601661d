/* trace.c — the trace container: growable event, address, text and snapshot arrays
 * with caps (trace.h). */
#include "trace/trace.h"

#include <stdlib.h>
#include <string.h>

#define TRACE_DEFAULT_MAX_EVENTS (1u * 1024 * 1024)
#define TRACE_MAX_TEXT (64u * 1024 * 1024)

trace_t *trace_new(trace_level level, size_t max_events)
{
    trace_t *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->level = level;
    t->max_events = max_events;
    return t;
}

static void free_static(trace_t *t)
{
    free(t->insns);
    t->insns = NULL;
    t->ninsns = 0;
    for (int i = 0; i < t->nfiles; i++)
        free(t->files[i]);
    free(t->files);
    t->files = NULL;
    t->nfiles = 0;
}

static void free_regs(trace_t *t)
{
    free(t->regs);
    t->regs = NULL;
    t->nregs = 0;
    free(t->vars);
    t->vars = NULL;
    t->nvars = 0;
}

void trace_free(trace_t *t)
{
    if (!t)
        return;
    free_static(t);
    free_regs(t);
    free(t->events);
    free(t->addrs);
    free(t->text);
    free(t->snaps);
    free(t->snap_bytes);
    free(t);
}

int trace_begin_launch(trace_t *t, const char *kernel, const unsigned grid[3],
                       const unsigned block[3])
{
    free_static(t);
    free_regs(t);
    t->nevents = 0;
    t->naddrs = 0;
    t->ntext = 0;
    t->nsnaps = 0;
    t->nsnap_bytes = 0;
    t->truncated = 0;
    t->dropped = 0;
    t->snaps_truncated = 0;
    size_t n = strlen(kernel);
    if (n >= sizeof t->kernel)
        n = sizeof t->kernel - 1;
    memcpy(t->kernel, kernel, n);
    t->kernel[n] = 0;
    memcpy(t->grid, grid, sizeof t->grid);
    memcpy(t->block, block, sizeof t->block);
    unsigned nthreads = block[0] * block[1] * block[2];
    t->nwarps_per_block = (nthreads + 31) / 32;
    return 0;
}

int trace_set_insns(trace_t *t, const trace_insn *insns, int n, const char *const *files,
                    int nfiles)
{
    free_static(t);
    t->insns = malloc(((size_t)n + 1) * sizeof *insns);
    t->files = calloc((size_t)nfiles + 1, sizeof *t->files);
    if (!t->insns || !t->files) {
        free_static(t);
        return -1;
    }
    if (n)
        memcpy(t->insns, insns, (size_t)n * sizeof *insns);
    t->ninsns = n;
    t->nfiles = nfiles;
    for (int i = 0; i < nfiles; i++)
        if (files[i] && !(t->files[i] = strdup(files[i]))) {
            free_static(t);
            return -1;
        }
    return 0;
}

int trace_set_regs(trace_t *t, const trace_reg *regs, int n)
{
    free_regs(t);
    if (n <= 0)
        return 0;
    t->regs = malloc((size_t)n * sizeof *regs);
    if (!t->regs)
        return -1;
    memcpy(t->regs, regs, (size_t)n * sizeof *regs);
    t->nregs = n;
    return 0;
}

int trace_set_vars(trace_t *t, const trace_var *vars, int n)
{
    free(t->vars);
    t->vars = NULL;
    t->nvars = 0;
    if (n <= 0)
        return 0;
    t->vars = malloc((size_t)n * sizeof *vars);
    if (!t->vars)
        return -1;
    memcpy(t->vars, vars, (size_t)n * sizeof *vars);
    t->nvars = n;
    return 0;
}

/* Grows *p (elements of size sz) to hold at least need; 0 or -1. */
static int grow(void **p, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : 1024;
    while (nc < need)
        nc *= 2;
    void *np = realloc(*p, nc * sz);
    if (!np)
        return -1;
    *p = np;
    *cap = nc;
    return 0;
}

int trace_append(trace_t *t, const trace_event *ev, const uint64_t *addrs)
{
    if (t->sink)
        t->sink(t->sink_ctx, t, ev, addrs);
    size_t max = t->max_events ? t->max_events : TRACE_DEFAULT_MAX_EVENTS;
    if (t->truncated || t->nevents >= max)
        goto drop;
    if (grow((void **)&t->events, &t->cap_events, t->nevents + 1, sizeof *t->events) < 0)
        goto drop_nomem;
    trace_event *e = &t->events[t->nevents];
    *e = *ev;
    if (ev->kind == TRACE_EV_MEM || ev->kind == TRACE_EV_REG || ev->kind == TRACE_EV_SHFL) {
        if (grow((void **)&t->addrs, &t->cap_addrs, t->naddrs + 1, 32 * sizeof *t->addrs) < 0)
            goto drop_nomem;
        if (addrs)
            memcpy(t->addrs + t->naddrs * 32, addrs, 32 * sizeof *addrs);
        else
            memset(t->addrs + t->naddrs * 32, 0, 32 * sizeof *addrs);
        e->aux = (uint32_t)t->naddrs++;
    }
    t->nevents++;
    return 0;
drop_nomem:
    t->truncated = 1;
    t->dropped++;
    return -1;
drop:
    t->truncated = 1;
    t->dropped++;
    return 0;
}

uint32_t trace_add_text(trace_t *t, const char *s, size_t n)
{
    size_t off = t->ntext;
    if (t->ntext + n > TRACE_MAX_TEXT ||
        grow((void **)&t->text, &t->cap_text, t->ntext + n + 1, 1) < 0)
        return (uint32_t)off;
    memcpy(t->text + t->ntext, s, n);
    t->ntext += n;
    t->text[t->ntext] = 0;
    return (uint32_t)off;
}

uint32_t trace_add_snapshot(trace_t *t, uint32_t block, int32_t pc, uint64_t time,
                            const void *bytes, size_t n)
{
    if (!t->snap_max_bytes)
        return UINT32_MAX;
    if (t->nsnap_bytes + n > t->snap_max_bytes) {
        t->snaps_truncated = 1;
        return UINT32_MAX;
    }
    if (grow((void **)&t->snaps, &t->cap_snaps, t->nsnaps + 1, sizeof *t->snaps) < 0 ||
        grow((void **)&t->snap_bytes, &t->cap_snap_bytes, t->nsnap_bytes + n + 1, 1) < 0) {
        t->snaps_truncated = 1;
        return UINT32_MAX;
    }
    trace_snapshot *s = &t->snaps[t->nsnaps];
    s->block = block;
    s->pc = pc;
    s->time = time;
    s->offset = t->nsnap_bytes;
    s->size = (uint32_t)n;
    if (n)
        memcpy(t->snap_bytes + t->nsnap_bytes, bytes, n);
    t->nsnap_bytes += n;
    return (uint32_t)t->nsnaps++;
}

const char *trace_space_name(int space)
{
    static const char *n[] = {"generic", "global", "shared", "local", "const", "param"};
    return space >= 0 && space < 6 ? n[space] : "?";
}
