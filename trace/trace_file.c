/* trace_file.c — a launch trace saved to a file and read back; see trace_file.h. */
#include "trace/trace_file.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TF_MAGIC "GLTRACE1"

/* The header: the launch and the count of each array (the file's byte order and the
 * sizes of trace.h's structs, checked on reading, are this build's). */
typedef struct tf_header {
    char magic[8];
    uint32_t sizes[6]; /* sizeof trace_insn, trace_reg, trace_var, trace_event,
                          trace_snapshot, and 32 (addresses per slot) */
    int32_t level;
    uint32_t grid[3], block[3], nwarps_per_block;
    char kernel[128];
    int32_t ninsns, nfiles, nregs, nvars, record_regs, truncated, snaps_truncated;
    uint64_t nevents, naddrs, ntext, nsnaps, nsnap_bytes, dropped, snap_max_bytes;
} tf_header;

static void header_sizes(uint32_t s[6])
{
    s[0] = sizeof(trace_insn), s[1] = sizeof(trace_reg), s[2] = sizeof(trace_var);
    s[3] = sizeof(trace_event), s[4] = sizeof(trace_snapshot), s[5] = 32;
}

static int put(FILE *f, const void *p, size_t n)
{
    return n == 0 || fwrite(p, 1, n, f) == n ? 0 : -1;
}

int trace_save(const trace_t *t, FILE *f)
{
    tf_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, TF_MAGIC, 8);
    header_sizes(h.sizes);
    h.level = (int32_t)t->level;
    for (int i = 0; i < 3; i++)
        h.grid[i] = t->grid[i], h.block[i] = t->block[i];
    h.nwarps_per_block = t->nwarps_per_block;
    memcpy(h.kernel, t->kernel, sizeof h.kernel);
    h.ninsns = t->ninsns, h.nfiles = t->nfiles, h.nregs = t->nregs, h.nvars = t->nvars;
    h.record_regs = t->record_regs, h.truncated = t->truncated;
    h.snaps_truncated = t->snaps_truncated;
    h.nevents = t->nevents, h.naddrs = t->naddrs, h.ntext = t->ntext, h.nsnaps = t->nsnaps;
    h.nsnap_bytes = t->nsnap_bytes, h.dropped = t->dropped, h.snap_max_bytes = t->snap_max_bytes;
    int rc = put(f, &h, sizeof h);
    rc |= put(f, t->insns, (size_t)t->ninsns * sizeof *t->insns);
    for (int i = 1; i < t->nfiles && rc == 0; i++) { /* files[0] is NULL */
        const uint32_t n = t->files[i] ? (uint32_t)strlen(t->files[i]) : 0;
        rc |= put(f, &n, sizeof n) | put(f, t->files[i], n);
    }
    rc |= put(f, t->regs, (size_t)t->nregs * sizeof *t->regs);
    rc |= put(f, t->vars, (size_t)t->nvars * sizeof *t->vars);
    rc |= put(f, t->events, t->nevents * sizeof *t->events);
    rc |= put(f, t->addrs, t->naddrs * 32 * sizeof *t->addrs);
    rc |= put(f, t->text, t->ntext);
    rc |= put(f, t->snaps, t->nsnaps * sizeof *t->snaps);
    rc |= put(f, t->snap_bytes, t->nsnap_bytes);
    return rc || ferror(f) ? -1 : 0;
}

/* Reading: the bytes left in the file, so that no count asks for more. */
typedef struct reader {
    FILE *f;
    uint64_t left;
} reader;

/* n items of size bytes into a new array (*out; NULL for none); -1 past the end. */
static int take(reader *r, void **out, uint64_t n, size_t size)
{
    *out = NULL;
    if (n == 0)
        return 0;
    if (n > r->left / size)
        return -1;
    void *p = malloc((size_t)(n * size) + 1);
    if (!p || fread(p, size, (size_t)n, r->f) != (size_t)n) {
        free(p);
        return -1;
    }
    r->left -= n * size;
    *out = p;
    return 0;
}

/* Whether every index t's arrays hold lies inside the array it indexes. */
static const char *check(const trace_t *t)
{
    const uint64_t blocks = (uint64_t)t->grid[0] * t->grid[1] * t->grid[2];
    const uint64_t threads = (uint64_t)t->block[0] * t->block[1] * t->block[2];
    if (blocks == 0 || threads == 0 || threads > 65536 ||
        t->nwarps_per_block != (threads + 31) / 32)
        return "a launch of no threads, or warps that do not match its block";
    if (t->level < TRACE_OFF || t->level > TRACE_MEMORY)
        return "an unknown trace level";
    for (int i = 0; i < t->ninsns; i++)
        if (t->insns[i].src_file < 0 || t->insns[i].src_file >= (t->nfiles ? t->nfiles : 1))
            return "an instruction's file outside the file table";
    for (int i = 0; i < t->nvars; i++)
        if (t->vars[i].reg < 0 || t->vars[i].reg >= t->nregs)
            return "a variable's register outside the register table";
    for (size_t i = 0; i < t->nsnaps; i++)
        if (t->snaps[i].block >= blocks || t->snaps[i].offset > t->nsnap_bytes ||
            t->snaps[i].size > t->nsnap_bytes - t->snaps[i].offset)
            return "a snapshot outside its bytes";
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->kind < TRACE_EV_ISSUE || e->kind > TRACE_EV_VOTE || e->block >= blocks ||
            e->warp >= t->nwarps_per_block || e->pc < -1 || e->pc >= t->ninsns)
            return "an event of an unknown kind, block, warp or instruction";
        const int slots =
            e->kind == TRACE_EV_MEM || e->kind == TRACE_EV_REG || e->kind == TRACE_EV_SHFL;
        if ((slots && e->aux >= t->naddrs) ||
            (e->kind == TRACE_EV_REG && e->barrier >= (unsigned)t->nregs) ||
            (e->kind == TRACE_EV_PRINTF && (uint64_t)e->aux + e->barrier > t->ntext) ||
            (e->kind == TRACE_EV_BAR_RELEASE && e->aux != UINT32_MAX && e->aux >= t->nsnaps))
            return "an event whose addresses, register, text or snapshot are outside the trace";
    }
    return NULL;
}

trace_t *trace_load(FILE *f, char *why, size_t whylen)
{
    tf_header h;
    uint32_t sizes[6];
    header_sizes(sizes);
    long end = -1, at = ftell(f);
    if (at >= 0 && fseek(f, 0, SEEK_END) == 0)
        end = ftell(f);
    if (end < 0 || fseek(f, at, SEEK_SET) != 0 || fread(&h, sizeof h, 1, f) != 1 ||
        memcmp(h.magic, TF_MAGIC, 8) != 0 || memcmp(h.sizes, sizes, sizeof sizes) != 0) {
        snprintf(why, whylen, "not a trace of this gpulearn (or cut short)");
        return NULL;
    }
    trace_t *t = trace_new((trace_level)h.level, 0);
    if (!t) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    reader r = {f, (uint64_t)(end - at) - sizeof h};
    for (int i = 0; i < 3; i++)
        t->grid[i] = h.grid[i], t->block[i] = h.block[i];
    t->nwarps_per_block = h.nwarps_per_block;
    memcpy(t->kernel, h.kernel, sizeof t->kernel);
    t->kernel[sizeof t->kernel - 1] = '\0';
    t->record_regs = h.record_regs;
    t->truncated = h.truncated;
    t->snaps_truncated = h.snaps_truncated;
    t->dropped = h.dropped;
    t->snap_max_bytes = h.snap_max_bytes;
    const char *bad = "cut short, or a count past the file's end";
    int ok = h.ninsns >= 0 && h.nfiles >= 0 && h.nregs >= 0 && h.nvars >= 0 &&
             take(&r, (void **)&t->insns, (uint64_t)h.ninsns, sizeof *t->insns) == 0;
    t->ninsns = ok ? h.ninsns : 0;
    if (ok && h.nfiles > 0) {
        ok = (uint64_t)h.nfiles <= r.left / 4 + 1 &&
             (t->files = calloc((size_t)h.nfiles, sizeof *t->files)) != NULL;
        t->nfiles = ok ? h.nfiles : 0;
        for (int i = 1; ok && i < h.nfiles; i++) {
            uint32_t n;
            ok = r.left >= 4 && fread(&n, 4, 1, f) == 1;
            r.left -= ok ? 4 : 0;
            if (ok && n == 0)
                ok = (t->files[i] = calloc(1, 1)) != NULL;
            else if (ok)
                ok = take(&r, (void **)&t->files[i], n, 1) == 0;
            if (ok)
                t->files[i][n] = '\0';
        }
    }
    ok = ok && take(&r, (void **)&t->regs, (uint64_t)h.nregs, sizeof *t->regs) == 0;
    t->nregs = ok ? h.nregs : 0;
    ok = ok && take(&r, (void **)&t->vars, (uint64_t)h.nvars, sizeof *t->vars) == 0;
    t->nvars = ok ? h.nvars : 0;
    ok = ok && take(&r, (void **)&t->events, h.nevents, sizeof *t->events) == 0;
    t->nevents = t->cap_events = ok ? h.nevents : 0;
    ok = ok && take(&r, (void **)&t->addrs, h.naddrs, 32 * sizeof *t->addrs) == 0;
    t->naddrs = t->cap_addrs = ok ? h.naddrs : 0;
    ok = ok && take(&r, (void **)&t->text, h.ntext, 1) == 0;
    t->ntext = ok ? h.ntext : 0;
    t->cap_text = t->ntext + 1;
    if (t->text)
        t->text[t->ntext] = '\0';
    ok = ok && take(&r, (void **)&t->snaps, h.nsnaps, sizeof *t->snaps) == 0;
    t->nsnaps = t->cap_snaps = ok ? h.nsnaps : 0;
    ok = ok && take(&r, (void **)&t->snap_bytes, h.nsnap_bytes, 1) == 0;
    t->nsnap_bytes = t->cap_snap_bytes = ok ? h.nsnap_bytes : 0;
    if (ok) { /* names are shown: each ends within its field */
        for (int i = 0; i < t->ninsns; i++)
            t->insns[i].mnemonic[sizeof t->insns[i].mnemonic - 1] = '\0';
        for (int i = 0; i < t->nregs; i++)
            t->regs[i].name[sizeof t->regs[i].name - 1] = '\0';
        for (int i = 0; i < t->nvars; i++)
            t->vars[i].name[sizeof t->vars[i].name - 1] = '\0';
        bad = check(t);
    }
    if (!ok || bad) {
        snprintf(why, whylen, "%s", bad ? bad : "cut short, or a count past the file's end");
        trace_free(t);
        return NULL;
    }
    return t;
}
