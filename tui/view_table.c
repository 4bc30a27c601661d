/* view_table.c — the table of the views of the map's slot (one row each: its name, key,
 * help, title, traits and functions, in the order v cycles through them), and the code
 * that reads it: drawing and sizing the slot, its pane title, the view keys and their
 * help lines. The views themselves are tui/view_NAME.c. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tui/view_common.h"

enum { F_TRACE = VIEW_F_RUN | VIEW_F_TRACE };

/* The views' own state, one each (tui_view.state). */
static view_map_state s_map;
static view_buffers_state s_buffers;
static view_tree_state s_tree;
static view_roofline_state s_roofline;
static view_frags_state s_frags;

static const tui_view k_views[VIEW__COUNT] = {
    [VIEW_MAP] = {VIEW_MAP, "threads", '1', "threads", "Threads (w: warps)", 0, 0, view_map_draw,
                  view_map_height, map_natural_width, &s_map},
    [VIEW_WARPS] = {VIEW_WARPS, "warps", '2', "warps", "Warps (w: map)", VIEW_F_RUN, 0,
                    view_warps_draw, view_warps_height, NULL},
    [VIEW_MEMORY] = {VIEW_MEMORY, "memory", '3', "memory", NULL, F_TRACE | VIEW_F_WIDE,
                     TRACE_SPACE_GLOBAL, view_memory_draw, view_memory_height, NULL},
    [VIEW_BANKS] = {VIEW_BANKS, "banks", '4', "banks", NULL, F_TRACE | VIEW_F_WIDE,
                    TRACE_SPACE_SHARED, view_banks_draw, view_banks_height, NULL},
    [VIEW_BARRIERS] = {VIEW_BARRIERS, "barriers", '5', "barriers", NULL,
                       F_TRACE | VIEW_F_SIM | VIEW_F_WIDE | VIEW_F_BARRIER, 0, view_barriers_draw,
                       view_barriers_height, NULL},
    [VIEW_ATOMICS] = {VIEW_ATOMICS, "atomics", '6', "atomics", NULL, F_TRACE, 0, view_atomics_draw,
                      view_atomics_height, NULL},
    [VIEW_BUFFERS] = {VIEW_BUFFERS, "buffers", '7', "buffers", NULL,
                      F_TRACE | VIEW_F_WHOLE | VIEW_F_WIDE_EX, 0, view_buffers_draw,
                      view_buffers_height, NULL, &s_buffers, view_buffers_reset, view_buffers_key},
    [VIEW_TREE] = {VIEW_TREE, "tree", '8', "tree", NULL,
                   F_TRACE | VIEW_F_SIM | VIEW_F_WIDE | VIEW_F_BARRIER, 0, view_tree_draw,
                   view_tree_height, NULL, &s_tree, view_tree_reset, view_tree_key},
    [VIEW_ERROR] = {VIEW_ERROR, "error", '9', "error picture", NULL, F_TRACE | VIEW_F_WHOLE, 0,
                    view_error_draw, view_error_height, NULL},
    [VIEW_REGS] = {VIEW_REGS, "registers", '0', "the selected thread's registers", NULL,
                   F_TRACE | VIEW_F_SIM, 0, view_regs_draw, view_regs_height, NULL},
    [VIEW_ROOFLINE] = {VIEW_ROOFLINE, "roofline", 'L', "the roofline, with this session's runs",
                       NULL, VIEW_F_RUN | VIEW_F_WIDE, 0, view_roofline_draw, view_roofline_height,
                       NULL, &s_roofline},
    [VIEW_FRAGS] = {VIEW_FRAGS, "fragments", 'F',
                    "tensor-core fragments: which lane holds which element (M t T)", NULL,
                    F_TRACE | VIEW_F_SIM | VIEW_F_WIDE, 0, view_fragments_draw,
                    view_fragments_height, NULL, &s_frags, view_fragments_reset,
                    view_fragments_key},
};

const tui_view *view_of(app_view v)
{
    return &k_views[(unsigned)v < VIEW__COUNT ? v : VIEW_MAP];
}

const tui_view *view_of_key(int ch)
{
    for (int i = 0; i < VIEW__COUNT; i++)
        if (k_views[i].key == ch)
            return &k_views[i];
    return NULL;
}

app_view view_of_step(const char *name)
{
    for (int i = 0; name && i < VIEW__COUNT; i++)
        if (strcmp(name, k_views[i].name) == 0)
            return k_views[i].id;
    return VIEW_MAP;
}

app_view view_next(app_view v)
{
    return k_views[(view_of(v)->id + 1) % VIEW__COUNT].id;
}

/* The status line at the bottom of every trace view: time, selection, keys. */
static void draw_time_line(WINDOW *win, const app *a, const trace_t *t, int y, int x, int w)
{
    uint32_t b;
    unsigned wp, l;
    tv_selected(a, &b, &wp, &l);
    char buf[256];
    size_t pos = a->tpos > t->nevents ? t->nevents : a->tpos;
    uint64_t time = pos > 0 ? t->events[pos - 1].time : 0;
    /* the cursor in words where there is room: how far the launch had run (warp
     * instructions issued) and which of the trace's events it stands after */
    if (w >= 96)
        snprintf(buf, sizeof buf,
                 "after %" PRIu64 " warp instructions (event %zu of %zu): block %u warp %u lane %u"
                 "  . , step  < > barrier  ( ) warp",
                 time, pos, t->nevents, b, wp, l);
    else if (w >= 60)
        snprintf(buf, sizeof buf,
                 "after %" PRIu64 " warp instr. (event %zu of %zu) b%u w%u lane %u  .,<>()", time,
                 pos, t->nevents, b, wp, l);
    else if (snprintf(buf, sizeof buf, "t=%" PRIu64 " ev %zu/%zu b%u w%u l%u .,<>()", time, pos,
                      t->nevents, b, wp, l) > w) /* the numbers matter more than the keys */
        snprintf(buf, sizeof buf, "t=%" PRIu64 " ev %zu/%zu b%u w%u l%u", time, pos, t->nevents, b,
                 wp, l);
    view_put(win, y, x, w, buf, term_attr(TC_DIM));
}

void view_slot_draw(WINDOW *win, const app *a, int y, int x, int h, int w)
{
    const tui_view *v = view_of(a->view);
    const trace_t *t = view_trace(a);
    if (!(v->flags & VIEW_F_TRACE)) {
        v->draw(win, a, v->state, t, y, x, h, w);
        return;
    }
    if (h < 3 || w < 16)
        return;
    if ((v->flags & VIEW_F_WHOLE) && a->have_run) { /* the slot has a spec (frame.c) */
        v->draw(win, a, v->state, t, y, x, h, w);
        return;
    }
    if (!t || t->nevents == 0) {
        int r = view_put_wrap(win, y, x, w, h - 1,
                              !a->have_run ? "press r: this view shows what the kernel did"
                              : a->run.backend != GL_BACKEND_SIM
                                  ? "no trace of this GPU run: S replays it on the simulator"
                                  : "no trace of this run",
                              term_attr(TC_DIM));
        view_put_wrap(win, y + r, x, w, h - r, "1 thread map, 2 warps, v next view, ? help",
                      term_attr(TC_DIM));
        return;
    }
    if (a->run.backend != GL_BACKEND_SIM && (v->flags & VIEW_F_SIM)) {
        /* GPU traces hold memory requests and block starts/ends (runtime/instrument.h) */
        int r =
            view_put_wrap(win, y, x, w, h - 1,
                          "the GPU's trace has memory requests and blocks only", term_attr(TC_DIM));
        view_put_wrap(win, y + r, x, w, h - r,
                      "S replays this launch on the simulator, which records this view",
                      term_attr(TC_DIM));
        return;
    }
    v->draw(win, a, v->state, t, y, x, h - 1, w);
    draw_time_line(win, a, t, y + h - 1, x, w);
}

int view_slot_height(const app *a, int w)
{
    return view_of(a->view)->natural_height(a, w);
}

bool view_slot_key(const app *a, int ch)
{
    const tui_view *v = view_of(a->view);
    return v->on_key && v->on_key(v->state, a, ch);
}

void view_reset(app_view v)
{
    const tui_view *row = view_of(v);
    if (row->reset)
        row->reset(row->state);
}

void view_reset_all(void)
{
    for (int i = 0; i < VIEW__COUNT; i++)
        view_reset(k_views[i].id);
}

const char *view_slot_title(const app *a, char *buf, size_t len)
{
    const tui_view *v = view_of(a->view);
    if (v->title)
        snprintf(buf, len, "%s", v->title);
    else
        snprintf(buf, len, "%c %s (v: next view)", v->key, v->name);
    return buf;
}

int view_help_lines(app_help_line *out, int max)
{
    static char keys[VIEW__COUNT][8], help[VIEW__COUNT][200];
    int n = 0;
    for (int i = 0; i < VIEW__COUNT && n < max;) {
        /* a line: up to five views whose keys follow each other */
        int j = i + 1;
        while (j < VIEW__COUNT && j - i < 5 && k_views[j].key == k_views[j - 1].key + 1)
            j++;
        if (j - i == 1) {
            snprintf(keys[n], sizeof keys[n], "%c", k_views[i].key);
            snprintf(help[n], sizeof help[n], "view: %s", k_views[i].help);
        } else {
            snprintf(keys[n], sizeof keys[n], "%c-%c", k_views[i].key, k_views[j - 1].key);
            size_t o = (size_t)snprintf(help[n], sizeof help[n], "views:");
            for (int k = i; k < j && o < sizeof help[n]; k++)
                o += (size_t)snprintf(help[n] + o, sizeof help[n] - o, " %c %s", k_views[k].key,
                                      k_views[k].help);
        }
        out[n] = (app_help_line){keys[n], help[n]};
        n++;
        i = j;
    }
    return n;
}
