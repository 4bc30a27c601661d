/* perfetto.c — Chrome Trace Event JSON from a launch trace; see perfetto.h. */
#include "trace/perfetto.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Per warp, while its block runs: the open slice. */
typedef struct warp_state {
    int running;          /* a "running" slice is open */
    int waiting;          /* a barrier wait is open */
    uint64_t start, last; /* open slice's first time; last issue time */
    uint64_t count;       /* instructions in the running slice */
    int32_t line_lo, line_hi;
    int32_t wait_line;
} warp_state;

typedef struct block_state {
    uint64_t start;
    uint32_t sm;
    uint64_t mem; /* memory requests seen (GPU traces; cp.async is two, trace.h) */
    warp_state *warps;
} block_state;

typedef struct writer {
    FILE *f;
    const trace_t *t;
    int first;       /* no event written yet (comma handling) */
    unsigned nwarps; /* warps per block */
    uint64_t nblocks;
    block_state **blocks; /* by linear block index, NULL when not running */
    unsigned char *sm_named;
    size_t nsm_named;
    int gpu;     /* a GPU trace (instrument.h): time is %globaltimer ns */
    uint64_t t0; /* GPU: the earliest time, shown as 0 */
} writer;

/* A time for "ts": the simulator's clock as is; GPU nanoseconds since t0 as
 * microseconds with three decimals. */
static const char *fmt_ts(const writer *w, uint64_t t, char *buf, size_t n)
{
    if (!w->gpu)
        snprintf(buf, n, "%" PRIu64, t);
    else
        snprintf(buf, n, "%.3f", (double)(t > w->t0 ? t - w->t0 : 0) / 1000.0);
    return buf;
}

/* A duration for "dur" (at least one clock unit). */
static const char *fmt_dur(const writer *w, uint64_t from, uint64_t to, char *buf, size_t n)
{
    uint64_t d = to > from ? to - from : 1;
    if (!w->gpu)
        snprintf(buf, n, "%" PRIu64, d);
    else
        snprintf(buf, n, "%.3f", (double)d / 1000.0);
    return buf;
}

/* JSON string body (without quotes) of s[0..n). */
static void json_text(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
}

static void sep(writer *w)
{
    fputs(w->first ? "\n" : ",\n", w->f);
    w->first = 0;
}

/* "(x,y,z)" of a linear block index (x fastest). */
static void block_coords(const trace_t *t, uint64_t b, char *buf, size_t n)
{
    unsigned gx = t->grid[0] ? t->grid[0] : 1, gy = t->grid[1] ? t->grid[1] : 1;
    snprintf(buf, n, "(%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")", b % gx, b / gx % gy, b / gx / gy);
}

/* Track ids: per block one for the block and one per warp. pid = SM + 1. */
static uint64_t tid_block(const writer *w, uint64_t b)
{
    return b * (w->nwarps + 1) + 1;
}
static uint64_t tid_warp(const writer *w, uint64_t b, unsigned warp)
{
    return b * (w->nwarps + 1) + 2 + warp;
}

static void name_sm(writer *w, uint32_t sm)
{
    if (sm >= w->nsm_named) {
        size_t n = (size_t)sm + 16;
        unsigned char *p = realloc(w->sm_named, n);
        if (!p)
            return;
        memset(p + w->nsm_named, 0, n - w->nsm_named);
        w->sm_named = p;
        w->nsm_named = n;
    }
    if (w->sm_named[sm])
        return;
    w->sm_named[sm] = 1;
    sep(w);
    fprintf(w->f,
            "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%" PRIu32
            ",\"args\":{\"name\":\"SM %" PRIu32 "\"}},\n"
            "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%" PRIu32
            ",\"args\":{\"sort_index\":%" PRIu32 "}}",
            sm + 1, sm, sm + 1, sm);
}

static void close_running(writer *w, uint64_t b, unsigned warp, uint64_t end)
{
    block_state *bs = w->blocks[b];
    warp_state *ws = &bs->warps[warp];
    if (!ws->running)
        return;
    ws->running = 0;
    uint64_t dur = end > ws->start ? end - ws->start : 1;
    sep(w);
    fprintf(w->f,
            "{\"name\":\"running\",\"cat\":\"warp\",\"ph\":\"X\",\"pid\":%" PRIu32
            ",\"tid\":%" PRIu64 ",\"ts\":%" PRIu64 ",\"dur\":%" PRIu64
            ",\"args\":{\"instructions\":%" PRIu64,
            bs->sm + 1, tid_warp(w, b, warp), ws->start, dur, ws->count);
    if (ws->line_lo > 0)
        fprintf(w->f, ",\"lines\":\"%" PRId32 "-%" PRId32 "\"", ws->line_lo, ws->line_hi);
    fputs("}}", w->f);
}

static void close_wait(writer *w, uint64_t b, unsigned warp, uint64_t end)
{
    block_state *bs = w->blocks[b];
    warp_state *ws = &bs->warps[warp];
    if (!ws->waiting)
        return;
    ws->waiting = 0;
    uint64_t dur = end > ws->start ? end - ws->start : 1;
    sep(w);
    fprintf(w->f,
            "{\"name\":\"bar.sync wait, line %" PRId32 "\",\"cat\":\"barrier\",\"ph\":\"X\","
            "\"pid\":%" PRIu32 ",\"tid\":%" PRIu64 ",\"ts\":%" PRIu64 ",\"dur\":%" PRIu64 "}",
            ws->wait_line, bs->sm + 1, tid_warp(w, b, warp), ws->start, dur);
}

static int32_t line_of(const trace_t *t, int32_t pc)
{
    return pc >= 0 && pc < t->ninsns ? t->insns[pc].src_line : 0;
}

static gl_perfetto_status block_start(writer *w, const trace_event *ev)
{
    uint64_t b = ev->block;
    if (w->blocks[b])
        return GL_PERFETTO_OK;
    block_state *bs = calloc(1, sizeof *bs);
    warp_state *ws = calloc(w->nwarps ? w->nwarps : 1, sizeof *ws);
    if (!bs || !ws) {
        free(bs);
        free(ws);
        return GL_PERFETTO_NOMEM;
    }
    bs->start = ev->time;
    bs->sm = ev->aux;
    bs->warps = ws;
    w->blocks[b] = bs;
    name_sm(w, bs->sm);
    char xyz[96];
    block_coords(w->t, b, xyz, sizeof xyz);
    sep(w);
    fprintf(w->f,
            "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu64
            ",\"args\":{\"name\":\"block %s\"}}",
            bs->sm + 1, tid_block(w, b), xyz);
    for (unsigned i = 0; i < w->nwarps; i++) {
        sep(w);
        fprintf(w->f,
                "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu64
                ",\"args\":{\"name\":\"block %s warp %u\"}}",
                bs->sm + 1, tid_warp(w, b, i), xyz, i);
    }
    return GL_PERFETTO_OK;
}

static void block_end(writer *w, uint64_t b, uint64_t time)
{
    block_state *bs = w->blocks[b];
    if (!bs)
        return;
    uint64_t end = time;
    for (unsigned i = 0; i < w->nwarps; i++) {
        warp_state *ws = &bs->warps[i];
        if (ws->running && ws->last + 1 > end)
            end = ws->last + 1;
        close_running(w, b, i, ws->last + 1);
        close_wait(w, b, i, time);
    }
    char xyz[96], ts[32], dur[32];
    block_coords(w->t, b, xyz, sizeof xyz);
    sep(w);
    fprintf(w->f,
            "{\"name\":\"block %s\",\"cat\":\"block\",\"ph\":\"X\",\"pid\":%" PRIu32
            ",\"tid\":%" PRIu64 ",\"ts\":%s,\"dur\":%s,\"args\":{\"sm\":%" PRIu32,
            xyz, bs->sm + 1, tid_block(w, b), fmt_ts(w, bs->start, ts, sizeof ts),
            fmt_dur(w, bs->start, end, dur, sizeof dur), bs->sm);
    if (w->gpu)
        fprintf(w->f, ",\"memory_requests\":%" PRIu64, bs->mem);
    fputs("}}", w->f);
    free(bs->warps);
    free(bs);
    w->blocks[b] = NULL;
}

const char *gl_perfetto_message(gl_perfetto_status s)
{
    switch (s) {
    case GL_PERFETTO_OK: return "ok";
    case GL_PERFETTO_NO_TRACE: return "no trace was recorded";
    case GL_PERFETTO_NOMEM: return "out of memory writing the trace";
    case GL_PERFETTO_WRITE: return "could not write the trace";
    }
    return "?";
}

gl_perfetto_status gl_perfetto_write(FILE *f, const trace_t *t, const char *clock_note)
{
    if (!t || t->level == TRACE_OFF)
        return GL_PERFETTO_NO_TRACE;
    writer w = {.f = f, .t = t, .first = 1};
    w.nwarps = t->nwarps_per_block;
    if (w.nwarps == 0) {
        uint64_t threads = (uint64_t)t->block[0] * t->block[1] * t->block[2];
        w.nwarps = (unsigned)((threads + 31) / 32);
    }
    /* A GPU trace (runtime/instrument.h) has block and memory events but no issue
     * events: blocks on SMs over %globaltimer time, no warp tracks. */
    w.gpu = t->nevents > 0;
    w.t0 = UINT64_MAX;
    for (size_t i = 0; i < t->nevents && w.gpu; i++) {
        if (t->events[i].kind == TRACE_EV_ISSUE)
            w.gpu = 0;
        else if (t->events[i].time < w.t0)
            w.t0 = t->events[i].time;
    }
    if (w.gpu) {
        w.nwarps = 0;
        if (!clock_note)
            clock_note = "GPU %globaltimer: microseconds since the first traced event "
                         "(the instrumented kernel's run; timing uses the uninstrumented one)";
    } else {
        w.t0 = 0;
    }
    w.nblocks = (uint64_t)(t->grid[0] ? t->grid[0] : 1) * (t->grid[1] ? t->grid[1] : 1) *
                (t->grid[2] ? t->grid[2] : 1);
    w.blocks = calloc(w.nblocks ? w.nblocks : 1, sizeof *w.blocks);
    if (!w.blocks)
        return GL_PERFETTO_NOMEM;
    if (!clock_note)
        clock_note = "simulated: 1 us = 1 warp instruction issued in the launch";
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"gpulearn\",\"kernel\":\"", f);
    json_text(f, t->kernel, strlen(t->kernel));
    fprintf(f, "\",\"grid\":\"%u,%u,%u\",\"block\":\"%u,%u,%u\",\"clock\":\"", t->grid[0],
            t->grid[1], t->grid[2], t->block[0], t->block[1], t->block[2]);
    json_text(f, clock_note, strlen(clock_note));
    fputs("\"},\"traceEvents\":[", f);

    gl_perfetto_status st = GL_PERFETTO_OK;
    uint64_t last_time = 0;
    for (size_t i = 0; i < t->nevents && st == GL_PERFETTO_OK; i++) {
        const trace_event *ev = &t->events[i];
        uint64_t b = ev->block;
        if (b >= w.nblocks)
            continue;
        if (ev->time > last_time)
            last_time = ev->time;
        if (ev->kind == TRACE_EV_BLOCK_START) {
            st = block_start(&w, ev);
            continue;
        }
        if (ev->kind == TRACE_EV_BLOCK_END) {
            block_end(&w, b, ev->time);
            continue;
        }
        block_state *bs = w.blocks[b];
        if (!bs) /* a trace cut before its BLOCK_START */
            continue;
        if (ev->kind == TRACE_EV_MEM && !trace_event_is_bulk(w.t, ev))
            bs->mem++; /* (a bulk copy's pieces are one request per lane, its issue) */
        unsigned warp = ev->warp;
        warp_state *ws = warp < w.nwarps ? &bs->warps[warp] : NULL;
        switch (ev->kind) {
        case TRACE_EV_ISSUE: {
            if (!ws)
                break;
            if (ws->waiting)
                close_wait(&w, b, warp, ev->time);
            if (!ws->running) {
                ws->running = 1;
                ws->start = ev->time;
                ws->count = 0;
                ws->line_lo = ws->line_hi = 0;
            }
            ws->last = ev->time;
            ws->count++;
            int32_t line = line_of(t, ev->pc);
            if (line > 0) {
                if (ws->line_lo == 0 || line < ws->line_lo)
                    ws->line_lo = line;
                if (line > ws->line_hi)
                    ws->line_hi = line;
            }
            break;
        }
        case TRACE_EV_BAR_ARRIVE:
            if (!ws)
                break;
            close_running(&w, b, warp, ev->time + 1);
            ws->waiting = 1;
            ws->start = ev->time + 1;
            ws->wait_line = line_of(t, ev->pc);
            break;
        case TRACE_EV_BAR_RELEASE:
            for (unsigned k = 0; k < w.nwarps; k++)
                close_wait(&w, b, k, ev->time);
            break;
        case TRACE_EV_PRINTF:
            sep(&w);
            fprintf(f,
                    "{\"name\":\"printf\",\"cat\":\"printf\",\"ph\":\"i\",\"s\":\"t\",\"pid\":"
                    "%" PRIu32 ",\"tid\":%" PRIu64 ",\"ts\":%" PRIu64 ",\"args\":{\"text\":\"",
                    bs->sm + 1, tid_warp(&w, b, warp), ev->time);
            if (t->text && (size_t)ev->aux + ev->barrier <= t->ntext)
                json_text(f, t->text + ev->aux, ev->barrier);
            fputs("\"}}", f);
            break;
        default: break;
        }
    }
    /* Blocks still open: the launch stopped (a fault) or the trace was cut. */
    for (uint64_t b = 0; b < w.nblocks; b++)
        if (w.blocks[b])
            block_end(&w, b, last_time + 1);
    if (t->truncated) {
        char ts[32];
        sep(&w);
        fprintf(f,
                "{\"name\":\"trace truncated: %" PRIu64
                " events dropped\",\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0,\"ts\":%s}",
                t->dropped, fmt_ts(&w, last_time, ts, sizeof ts));
    }
    fputs("\n]}\n", f);
    free(w.blocks);
    free(w.sm_named);
    if (st != GL_PERFETTO_OK)
        return st;
    return ferror(f) ? GL_PERFETTO_WRITE : GL_PERFETTO_OK;
}
