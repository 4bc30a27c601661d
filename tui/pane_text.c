/* pane_text.c — the lesson's text pane (the step's or the exercise's text, hints) and
 * lesson 0's device pane. */
#include <stdio.h>
#include <string.h>

#include "tui/pane.h"
#include "tui/term.h"

/* The step's (or the exercise's) text wrapped to cols columns. */
void pane_text_lines(const app *a, int cols, tlines *out)
{
    tlines L = {0};
    if (app_on_exercise(a)) {
        const gl_exercise *ex = a->lesson->exercise;
        tl_wrap(&L, ex->title ? ex->title : "Exercise", cols, term_attr(TC_HEADING));
        tl_add(&L, "", 0, 0);
        tl_wrap(&L, ex->text, cols, PLAIN);
        tl_add(&L, "", 0, 0);
        if (a->opts.demo)
            tl_printf(&L, cols, term_attr(TC_DIM), "Starter: %s", pane_base_name(ex->starter));
        else if (a->ex_path[0])
            tl_printf(&L, cols, term_attr(TC_DIM),
                      "Your copy: %s %s e edits it, g grades it, R restores the starter",
                      gl_display_path(a->ex_path), term_glyph()->dot);
        else
            tl_printf(&L, cols, term_attr(TC_BAD), "%s",
                      a->ex_error[0] ? a->ex_error : "no copy of the exercise");
        for (int i = 0; i < a->hints_shown && i < ex->nhints; i++) {
            tl_add(&L, "", 0, 0);
            tl_printf(&L, cols, term_attr(TC_WARN), "Hint %d: %s", i + 1, ex->hints[i]);
        }
        if (a->hints_shown < ex->nhints)
            tl_printf(&L, cols, term_attr(TC_DIM), "h: show a hint (%d left)",
                      ex->nhints - a->hints_shown);
    } else {
        const gl_step *st = app_cur_step(a);
        tl_wrap(&L, st && st->title ? st->title : "", cols, term_attr(TC_HEADING));
        tl_add(&L, "", 0, 0);
        tl_wrap(&L, st ? st->text : "", cols, PLAIN);
    }
    *out = L;
}

void pane_text_draw(const app *a, WINDOW *win, int h, int w, struct view_metrics *m)
{
    tlines L;
    int cols = w - 4;
    pane_text_lines(a, cols, &L);
    m->text_lines = L.n;
    m->text_rows = h - 2;
    int top = tl_draw(win, &L, a->text_top, 1, 2, h - 2, cols);
    if (top + h - 2 < L.n)
        view_put(win, h - 1, w - 14, 11, " PgDn more ", term_attr(TC_DIM));
    tl_free(&L);
}

static void fmt_bytes(char *buf, size_t len, size_t b)
{
    if (b == 0)
        snprintf(buf, len, "-");
    else if (b >= (1ull << 30))
        snprintf(buf, len, "%.1f GiB", (double)b / (1ull << 30));
    else if (b >= (1ull << 20))
        snprintf(buf, len, "%.1f MiB", (double)b / (1ull << 20));
    else if (b >= 1024)
        snprintf(buf, len, "%zu KiB", b / 1024);
    else
        snprintf(buf, len, "%zu bytes", b);
}

void pane_device_draw(const app *a, WINDOW *win, int h, int w)
{
    int cols = w - 4;
    tlines L = {0};
    if (!a->backend_known) {
        tl_wrap(&L, "querying the device...", cols, term_attr(TC_DIM));
    } else if (a->device_error[0]) {
        tl_wrap(&L, a->device_error, cols, term_attr(TC_BAD));
    } else {
        const gl_device_info *d = &a->device;
        char v[32], k1[48], k2[48];
        struct {
            const char *label;
            char value[320];
        } rows[24];
        int n = 0;
#define ROW(lbl, ...)                                                                              \
    (rows[n].label = (lbl), snprintf(rows[n].value, sizeof rows[n].value, __VA_ARGS__), n++)
#define NUM(x) ((x) ? (snprintf(v, sizeof v, "%d", (x)), v) : "-")
        ROW("device", "%s%s", d->name, d->is_simulator ? " (simulated)" : "");
        ROW("compute capability", "%d.%d", d->compute_major, d->compute_minor);
        ROW("streaming multiprocessors", "%s", NUM(d->sm_count));
        ROW("warp size", "%s threads", NUM(d->warp_size));
        ROW("max threads per block", "%s", NUM(d->max_threads_per_block));
        ROW("max threads per SM", "%s", NUM(d->max_threads_per_sm));
        ROW("max block size", "%d x %d x %d", d->max_block_dim[0], d->max_block_dim[1],
            d->max_block_dim[2]);
        ROW("max grid size", "%d x %d x %d", d->max_grid_dim[0], d->max_grid_dim[1],
            d->max_grid_dim[2]);
        ROW("registers per block", "%s", NUM(d->regs_per_block));
        fmt_bytes(k1, sizeof k1, d->shared_bytes_per_block);
        fmt_bytes(k2, sizeof k2, d->shared_bytes_per_sm);
        ROW("shared memory per block", "%s", k1);
        ROW("shared memory per SM", "%s", k2);
        fmt_bytes(k1, sizeof k1, d->global_bytes);
        fmt_bytes(k2, sizeof k2, d->l2_bytes);
        ROW("global memory", "%s", k1);
        ROW("L2 cache", "%s", k2);
        if (d->clock_khz)
            ROW("SM clock", "%.0f MHz", d->clock_khz / 1000.0);
        else
            ROW("SM clock", "-");
        if (d->mem_clock_khz)
            ROW("memory clock", "%.0f MHz", d->mem_clock_khz / 1000.0);
        else
            ROW("memory clock", "-");
        if (d->mem_bus_bits)
            ROW("memory bus", "%d bits", d->mem_bus_bits);
        else
            ROW("memory bus", "-");
        if (d->peak_bandwidth_gbs > 0)
            ROW("peak memory bandwidth", "%.0f GB/s", d->peak_bandwidth_gbs);
        else
            ROW("peak memory bandwidth", "-");
        ROW("driver", "%s", d->driver[0] ? d->driver : "-");
#undef ROW
#undef NUM
        for (int i = 0; i < n; i++) {
            char line[256];
            snprintf(line, sizeof line, "%-26s %s", rows[i].label, rows[i].value);
            tl_add(&L, line, strlen(line), i == 0 ? term_attr(TC_HEADING) : PLAIN);
        }
        if (a->device_note[0]) {
            tl_add(&L, "", 0, 0);
            tl_wrap(&L, a->device_note, cols, term_attr(TC_WARN));
        }
    }
    tl_draw(win, &L, 0, 1, 2, h - 2, cols);
    tl_free(&L);
}
