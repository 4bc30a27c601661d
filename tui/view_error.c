/* view_error.c — errors as pictures: a race's two threads and lines, an
 * out-of-bounds lane against the buffer's bounds, a deadlock's groups of warps
 * waiting at different barriers, a barrier misused. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/view_common.h"

bool tv_has_error_picture(const app *a)
{
    if (!a->have_run)
        return false;
    if (a->run.fault.kind != GL_FAULT_NONE)
        return true;
    for (int i = 0; i < a->run.nfindings; i++) {
        const gl_finding *f = &a->run.findings[i];
        /* barrier misuse is a warning in a run (legal PTX) and a failure in grading */
        if (f->is_error || f->kind == GL_FIND_DIVERGENT_BARRIER ||
            f->kind == GL_FIND_EXITED_BARRIER)
            return true;
    }
    return false;
}

/* ------------------------------------------------------------------- error */

/* Who did an access: block, thread, warp and lane, and its source line. Two rows, or
 * three when narrow. Returns the rows used. */
/* One access of a race: who (thread, block, warp and lane) and the source line, in at
 * most `rows` rows from y. Returns the rows used. */
static int thread_box(WINDOW *win, const app *a, const gl_access *ac, const char *what, int y,
                      int x, int w, int rows, int attr)
{
    char buf[400];
    unsigned T0 = a->spec.block[0], T1 = a->spec.block[1];
    unsigned lt = ac->thread[0] + ac->thread[1] * T0 + ac->thread[2] * T0 * T1;
    int r = 0;
    if (rows < 0) { /* compact (few rows): who on one row, the block left to the caller */
        snprintf(buf, sizeof buf, "%s: thread (%u,%u,%u) w%u lane %u", what, ac->thread[0],
                 ac->thread[1], ac->thread[2], lt / WARP, lt % WARP);
        if ((int)strlen(buf) > w)
            snprintf(buf, sizeof buf, "%s: (%u,%u,%u) w%u lane %u", what, ac->thread[0],
                     ac->thread[1], ac->thread[2], lt / WARP, lt % WARP);
        if ((int)strlen(buf) > w) /* "A: (63,0,0) w1 lane 31" */
            snprintf(buf, sizeof buf, "%c: (%u,%u,%u) w%u lane %u", what[0], ac->thread[0],
                     ac->thread[1], ac->thread[2], lt / WARP, lt % WARP);
        view_put(win, y + r++, x, w, buf, attr);
        if (-rows > 1) {
            snprintf(buf, sizeof buf, "  line %d: %s", ac->src_line,
                     view_src_text(a, ac->src_line));
            view_put(win, y + r++, x, w, buf, PLAIN);
        }
        return r;
    }
    if (w >= 64) {
        snprintf(buf, sizeof buf, "%s: block (%u,%u,%u) thread (%u,%u,%u) = warp %u lane %u", what,
                 ac->block[0], ac->block[1], ac->block[2], ac->thread[0], ac->thread[1],
                 ac->thread[2], lt / WARP, lt % WARP);
        if (r < rows)
            view_put(win, y + r++, x, w, buf, attr);
    } else {
        snprintf(buf, sizeof buf, "%s: thread (%u,%u,%u)", what, ac->thread[0], ac->thread[1],
                 ac->thread[2]);
        if (r < rows)
            view_put(win, y + r++, x, w, buf, attr);
        /* warp and lane first: a narrow pane cuts the block, not them */
        snprintf(buf, sizeof buf, "  warp %u lane %u, block (%u,%u,%u)", lt / WARP, lt % WARP,
                 ac->block[0], ac->block[1], ac->block[2]);
        if (r < rows)
            view_put(win, y + r++, x, w, buf, attr);
    }
    snprintf(buf, sizeof buf, "  line %d: %s", ac->src_line, view_src_text(a, ac->src_line));
    if (r < rows)
        view_put(win, y + r++, x, w, buf, PLAIN);
    return r;
}

/* The warps of a block as rows of lanes, threads p and q marked. */
static void lanes_picture(WINDOW *win, const app *a, const gl_access *p, const gl_access *q, int y,
                          int x, int h, int w)
{
    unsigned T0 = a->spec.block[0], T1 = a->spec.block[1];
    uint64_t T = (uint64_t)T0 * T1 * a->spec.block[2];
    unsigned lp = p->thread[0] + p->thread[1] * T0 + p->thread[2] * T0 * T1;
    unsigned lq = q ? q->thread[0] + q->thread[1] * T0 + q->thread[2] * T0 * T1 : UINT32_MAX;
    unsigned wpb = (unsigned)((T + WARP - 1) / WARP);
    unsigned wp = lp / WARP, wq = q ? lq / WARP : wp;
    int r = 0;
    /* a narrow pane keeps all 32 lanes with a shorter label, "w12  ", "w12", "12", or
     * none (the rows are in warp order; the accesses' lines above name their warps) */
    const int lw = w >= WARP + 5 ? 5 : w >= WARP + 3 ? 3 : w >= WARP + 2 ? 2 : 0;
    for (unsigned wi = 0; wi < wpb && r < h; wi++) {
        if (wpb > (unsigned)h && wi != wp && wi != wq)
            continue;
        char lbl[16];
        if (lw >= 3)
            snprintf(lbl, sizeof lbl, "w%-3u", wi);
        else
            snprintf(lbl, sizeof lbl, "%u", wi);
        if (lw > 0)
            view_put(win, y + r, x, lw, lbl, term_attr(TC_DIM));
        /* fewer columns than lanes: the row starts late enough to show its marked lanes,
         * an ellipsis standing for the lanes left out */
        const int cols = w - lw;
        unsigned first = 0, hi = 0;
        if (wi == wp)
            hi = lp % WARP;
        if (q && wi == wq && lq % WARP > hi)
            hi = lq % WARP;
        if (cols < WARP && (int)hi >= cols)
            first = hi - (unsigned)cols + 2;
        for (unsigned l = first; l < WARP && lw + (int)(l - first) < w; l++) {
            uint64_t id = (uint64_t)wi * WARP + l;
            if (id >= T)
                break;
            const char *g = term_glyph()->dot;
            int at = term_attr(TC_DIM);
            if (id == lp)
                g = "A", at = term_attr(TC_BAD) | A_REVERSE;
            else if (id == lq)
                g = "B", at = term_attr(TC_WARN) | A_REVERSE;
            if (first > 0 && l == first && id != lp && id != lq)
                g = term_glyph()->ellipsis;
            view_glyph(win, y + r, x + lw + (int)(l - first), g, at);
        }
        r++;
    }
}

static void draw_oob(WINDOW *win, const app *a, int y, int x, int h, int w)
{
    const gl_fault *f = &a->run.fault;
    char buf[600];
    gl_access ac = {0};
    ac.op = f->is_store;
    memcpy(ac.thread, f->thread, sizeof ac.thread);
    memcpy(ac.block, f->block, sizeof ac.block);
    ac.src_line = f->src_line;
    view_put(win, y, x, w,
             f->kind == GL_FAULT_MISALIGNED ? "misaligned access" : "out-of-bounds access",
             term_attr(TC_BAD) | A_BOLD);
    int r = y + 1 +
            thread_box(win, a, &ac,
                       f->is_store == 1   ? "store by"
                       : f->is_store == 2 ? "atomic by"
                                          : "load by",
                       y + 1, x, w, h - 1, term_attr(TC_BAD));
    const unsigned long long dist = f->alloc_distance, size = f->alloc_bytes;
    const bool after = f->alloc_after;
    const char *name = f->alloc_name;
    if (size > 0 && r + 3 < y + h) {
        /* the bar: the allocation, then the gap and the access past it */
        int bw = w - 2 < 60 ? w - 2 : 60;
        unsigned long long span = size + dist + f->size;
        int alloc = (int)((double)size * bw / (double)span);
        if (alloc < 4)
            alloc = 4;
        if (alloc > bw - 3)
            alloc = bw - 3;
        snprintf(buf, sizeof buf, "'%s': %llu bytes%s", name, size,
                 after ? "" : " (the access is before it)");
        view_put(win, r++, x, w, buf, term_attr(TC_HEADING));
        if (after) {
            for (int i = 0; i < alloc; i++)
                view_glyph(win, r, x + i, view_block_glyph(), term_attr(TC_GOOD));
            int gap = dist > 0 ? 1 : 0;
            for (int i = 0; i < gap; i++)
                view_glyph(win, r, x + alloc + i, term_glyph()->dot, term_attr(TC_DIM));
            view_glyph(win, r, x + alloc + gap, "X", term_attr(TC_BAD) | A_REVERSE);
            r++;
            if (alloc + gap + 12 <= w)
                snprintf(buf, sizeof buf, "0%*s^ byte %llu", alloc + gap - 1, "", size + dist);
            else
                snprintf(buf, sizeof buf, "0%*sbyte %llu ^",
                         alloc + gap - 11 > 0 ? alloc + gap - 11 : 0, "", size + dist);
            view_put(win, r++, x, w, buf, term_attr(TC_DIM));
        } else {
            view_glyph(win, r, x, "X", term_attr(TC_BAD) | A_REVERSE);
            for (int i = 0; i < alloc; i++)
                view_glyph(win, r, x + 2 + i, view_block_glyph(), term_attr(TC_GOOD));
            r++;
        }
        snprintf(buf, sizeof buf, "%u-byte %s, %llu B %s", f->size,
                 f->is_store == 1 ? "store" : "load", dist,
                 after ? "past the end" : "before the start");
        view_put(win, r++, x, w, buf, term_attr(TC_BAD));
        if (size && f->size) {
            snprintf(buf, sizeof buf, "element [%llu] of %llu (0..%llu)",
                     after ? (size + dist) / f->size : 0, size / f->size, size / f->size - 1);
            if (after)
                view_put(win, r++, x, w, buf, PLAIN);
        }
    } else {
        r += view_put_wrap(win, r, x, w, y + h - r > 3 ? 3 : y + h - r, f->message, PLAIN);
    }
    if (r + 1 < y + h)
        lanes_picture(win, a, &ac, NULL, r + 1, x, y + h - r - 1, w);
}

int tv_deadlock_lines(const app *a, int *lines, int max)
{
    const trace_t *t = view_trace(a);
    if (!t)
        return 0;
    unsigned wpb = view_warps_per_block(t);
    int32_t *at = malloc(wpb * sizeof *at);
    if (!at)
        return 0;
    uint64_t B = (uint64_t)t->grid[0] * t->grid[1] * t->grid[2];
    int n = 0;
    for (uint32_t b = 0; b < B && n == 0; b++) {
        view_waiting_at(t, t->nevents, b, at, wpb);
        for (unsigned k = 0; k < wpb && n < max; k++) {
            int line = at[k] >= 0 ? view_line_of_pc(t, at[k]) : 0;
            bool seen = line <= 0;
            for (int q = 0; q < n; q++)
                seen |= lines[q] == line;
            if (!seen)
                lines[n++] = line;
        }
    }
    free(at);
    return n;
}

static void draw_deadlock(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w)
{
    view_put(win, y, x, w, "deadlock: warps wait at different barriers",
             term_attr(TC_BAD) | A_BOLD);
    int r = y + 1;
    char buf[400];
    if (!t) {
        view_put_wrap(win, r, x, w, y + h - r, a->run.fault.message, PLAIN);
        return;
    }
    unsigned wpb = view_warps_per_block(t);
    int32_t *at = malloc(wpb * sizeof *at);
    if (!at)
        return;
    uint64_t B = (uint64_t)t->grid[0] * t->grid[1] * t->grid[2];
    for (uint32_t b = 0; b < B && r < y + h; b++) {
        view_waiting_at(t, t->nevents, b, at, wpb);
        bool any = false;
        for (unsigned k = 0; k < wpb; k++)
            any |= at[k] >= 0;
        if (!any)
            continue;
        snprintf(buf, sizeof buf, "block %u:", b);
        view_put(win, r++, x, w, buf, term_attr(TC_HEADING));
        /* group warps by the line they wait at; the others have finished */
        bool done[1024] = {false};
        for (unsigned k = 0; k < wpb && k < 1024 && r < y + h; k++) {
            if (done[k])
                continue;
            int line = at[k] >= 0 ? view_line_of_pc(t, at[k]) : -1;
            int n = snprintf(buf, sizeof buf, "  warp");
            for (unsigned q = k; q < wpb && q < 1024 && n < (int)sizeof buf - 16; q++) {
                int lq = at[q] >= 0 ? view_line_of_pc(t, at[q]) : -1;
                if (lq == line)
                    done[q] = true,
                    n += snprintf(buf + n, sizeof buf - (size_t)n, "%s %u", q > k ? "," : "", q);
            }
            if (line >= 0)
                snprintf(buf + n, sizeof buf - (size_t)n, ": wait at line %d %s", line,
                         view_src_text(a, line));
            else
                snprintf(buf + n, sizeof buf - (size_t)n, ": finished (never reach it)");
            view_put(win, r++, x, w, buf, line >= 0 ? term_attr(TC_WARN) : term_attr(TC_DIM));
        }
        break; /* the first stuck block is the picture */
    }
    free(at);
    if (r < y + h)
        view_put_wrap(win, r, x, w, y + h - r, a->run.fault.message, term_attr(TC_DIM));
}

/* Barrier misuse (synccheck): in the finding's block, the lines of the barriers each
 * warp arrived at, and the warps that arrived at fewer barriers than the others (they
 * exited, or went another way). */
static void draw_barrier_misuse(WINDOW *win, const trace_t *t, const gl_finding *fi, int y, int x,
                                int h, int w)
{
    const char *head = fi->kind == GL_FIND_EXITED_BARRIER
                           ? "barrier skipped by threads that exited"
                           : "threads waited at different __syncthreads()";
    int r = y;
    if ((int)strlen(head) <= w) {
        view_put(win, r++, x, w, head, term_attr(TC_BAD) | A_BOLD);
    } else { /* two rows, split at the last space that fits */
        int cut = w;
        while (cut > 0 && head[cut] != ' ')
            cut--;
        if (cut <= 0)
            cut = w;
        char first[96];
        snprintf(first, sizeof first, "%.*s", cut, head);
        view_put(win, r++, x, w, first, term_attr(TC_BAD) | A_BOLD);
        if (r < y + h)
            view_put(win, r++, x, w, head + cut + (head[cut] == ' '), term_attr(TC_BAD) | A_BOLD);
    }
    if (!t) {
        view_put_wrap(win, r, x, w, y + h - r, fi->message, PLAIN);
        return;
    }
    const unsigned wpb = view_warps_per_block(t) < 1024 ? view_warps_per_block(t) : 1024;
    const uint32_t b = fi->access.block[0] + fi->access.block[1] * t->grid[0] +
                       fi->access.block[2] * t->grid[0] * t->grid[1];
    unsigned arrivals[1024] = {0}, most = 0;
    char lines[1024][48];
    for (unsigned k = 0; k < wpb; k++)
        lines[k][0] = '\0';
    for (size_t i = 0; i < t->nevents; i++) {
        const trace_event *e = &t->events[i];
        if (e->block != b || e->kind != TRACE_EV_BAR_ARRIVE || e->warp >= wpb)
            continue;
        arrivals[e->warp]++;
        char l[16];
        snprintf(l, sizeof l, " %d", view_line_of_pc(t, e->pc));
        if (!strstr(lines[e->warp], l) && strlen(lines[e->warp]) + strlen(l) < sizeof lines[0])
            strcat(lines[e->warp], l);
    }
    for (unsigned k = 0; k < wpb; k++)
        most = arrivals[k] > most ? arrivals[k] : most;
    char buf[400];
    snprintf(buf, sizeof buf,
             "block (%u,%u,%u), the barriers each warp reached (lines):", fi->access.block[0],
             fi->access.block[1], fi->access.block[2]);
    view_put(win, r++, x, w, buf, term_attr(TC_HEADING));
    for (unsigned k = 0; k < wpb && r < y + h - 1; k++) {
        snprintf(buf, sizeof buf, "  warp %u: %s%s", k, lines[k][0] ? lines[k] + 1 : "none",
                 arrivals[k] < most
                     ? (fi->kind == GL_FIND_EXITED_BARRIER ? "  (exited before the others' barrier)"
                                                           : "  (fewer than the others)")
                     : "");
        view_put(win, r++, x, w, buf, arrivals[k] < most ? term_attr(TC_WARN) : PLAIN);
    }
    if (r < y + h)
        view_put_wrap(win, r, x, w, y + h - r,
                      "__syncthreads() needs a condition that is the same for the whole block",
                      term_attr(TC_DIM));
}

void view_error_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x, int h,
                     int w)
{
    (void)self;
    if (!tv_has_error_picture(a)) {
        int r =
            view_put_wrap(win, y, x, w, 2,
                          a->have_run ? "no error in this run: nothing to picture" : "no run yet",
                          term_attr(TC_GOOD));
        view_put_wrap(win, y + r, x, w, h - r,
                      "races, out-of-bounds accesses and deadlocks open here", term_attr(TC_DIM));
        return;
    }
    const gl_fault *f = &a->run.fault;
    if (f->kind == GL_FAULT_OUT_OF_BOUNDS || f->kind == GL_FAULT_MISALIGNED) {
        draw_oob(win, a, y, x, h, w);
        return;
    }
    for (int i = 0; i < a->run.nfindings; i++) {
        const gl_finding *fi = &a->run.findings[i];
        if (fi->kind == GL_FIND_DEADLOCK) {
            draw_deadlock(win, a, t, y, x, h, w);
            return;
        }
    }
    for (int i = 0; i < a->run.nfindings; i++) {
        const gl_finding *fi = &a->run.findings[i];
        if (!fi->is_error || (fi->kind != GL_FIND_RACE && fi->kind != GL_FIND_WARP_RACE &&
                              fi->kind != GL_FIND_GLOBAL_RACE))
            continue;
        char buf[300];
        static const char *const haz[] = {"", "read after write", "write after read",
                                          "write after write"};
        char elem[96];
        const int named = fi->space == GL_SPACE_SHARED
                              ? snprintf(elem, sizeof elem, "%s", fi->var) > 0
                              : view_buffer_elem(a, fi->address, elem, sizeof elem);
        if (named && w >= 50)
            snprintf(buf, sizeof buf, "race on %s (%s, %s)", elem,
                     fi->space == GL_SPACE_SHARED ? "shared" : "global",
                     fi->hazard <= GL_HAZ_WAW ? haz[fi->hazard] : "");
        else if (named)
            snprintf(buf, sizeof buf, "race on %s", elem);
        else if (w >= 50)
            snprintf(buf, sizeof buf, "race on %s bytes at 0x%" PRIx64 " (%s)",
                     fi->space == GL_SPACE_SHARED ? "shared" : "global", fi->address,
                     fi->hazard <= GL_HAZ_WAW ? haz[fi->hazard] : "");
        else
            snprintf(buf, sizeof buf, "race on %s 0x%" PRIx64,
                     fi->space == GL_SPACE_SHARED ? "shared" : "global", fi->address);
        view_put(win, y, x, w, buf, term_attr(TC_BAD) | A_BOLD);
        const char *opn[] = {"A reads", "A writes", "A atomic"};
        const char *opm[] = {"B reads", "B writes", "B atomic"};
        int r = y + 1;
        const int other_block =
            memcmp(fi->access.block, fi->other.block, sizeof fi->access.block) != 0;
        /* rows: the heading, two accesses of 3 (2 wide), the verdict, a lane row per warp;
         * short of rows, each access takes 2 (who; its line), the blocks on one row */
        const unsigned T0 = a->spec.block[0], T1 = a->spec.block[1];
        const unsigned la =
            fi->other.thread[0] + fi->other.thread[1] * T0 + fi->other.thread[2] * T0 * T1;
        const unsigned lb =
            fi->access.thread[0] + fi->access.thread[1] * T0 + fi->access.thread[2] * T0 * T1;
        const int lane_rows = la / WARP == lb / WARP ? 1 : 2;
        const int full_rows = 1 + 2 * (w >= 64 ? 2 : 3) + 1 + lane_rows;
        if (h >= full_rows) {
            r += thread_box(win, a, &fi->other,
                            opn[fi->other.op >= 0 && fi->other.op < 3 ? fi->other.op : 0], r, x, w,
                            y + h - r, term_attr(TC_BAD));
            r += thread_box(win, a, &fi->access,
                            opm[fi->access.op >= 0 && fi->access.op < 3 ? fi->access.op : 0], r, x,
                            w, y + h - r, term_attr(TC_WARN));
        } else {
            const int lines = h >= 1 + 4 + 1 + lane_rows ? 2 : 1;
            r += thread_box(win, a, &fi->other,
                            opn[fi->other.op >= 0 && fi->other.op < 3 ? fi->other.op : 0], r, x, w,
                            -lines, term_attr(TC_BAD));
            r += thread_box(win, a, &fi->access,
                            opm[fi->access.op >= 0 && fi->access.op < 3 ? fi->access.op : 0], r, x,
                            w, -lines, term_attr(TC_WARN));
            if (other_block && r < y + h) {
                snprintf(buf, sizeof buf, "blocks: A (%u,%u,%u), B (%u,%u,%u)", fi->other.block[0],
                         fi->other.block[1], fi->other.block[2], fi->access.block[0],
                         fi->access.block[1], fi->access.block[2]);
                view_put(win, r++, x, w, buf, PLAIN);
            }
        }
        if (r < y + h)
            view_put(win, r++, x, w,
                     fi->kind == GL_FIND_WARP_RACE
                         ? (w >= 28 ? "and no __syncwarp() between" : "no __syncwarp() between")
                     : other_block
                         ? (w >= 52 ? "and nothing orders them: blocks run at the same time"
                                    : "nothing orders the blocks")
                     : w >= 30 ? "and no __syncthreads() between"
                               : "no __syncthreads() between",
                     term_attr(TC_DIM));
        if (y + h - r >= 1)
            lanes_picture(win, a, &fi->other, &fi->access, r, x, y + h - r, w);
        return;
    }
    for (int i = 0; i < a->run.nfindings; i++) {
        const gl_finding *fi = &a->run.findings[i];
        if (fi->kind == GL_FIND_DIVERGENT_BARRIER || fi->kind == GL_FIND_EXITED_BARRIER) {
            draw_barrier_misuse(win, t, fi, y, x, h, w);
            return;
        }
    }
    int r = view_put_wrap(win, y, x, w, h - 1,
                          f->kind != GL_FAULT_NONE ? f->message : a->run.findings[0].message,
                          term_attr(TC_BAD));
    if (f->kind == GL_FAULT_GPU && r + 1 < h) /* CUDA names no thread or line */
        view_put_wrap(win, y + r + 1, x, w, h - r - 1,
                      "the GPU does not say which thread or line: press S to re-run it on the "
                      "simulator, which shows where",
                      term_attr(TC_DIM));
}

int view_error_height(const app *a, int w)
{
    (void)a, (void)w;
    return 14;
}
