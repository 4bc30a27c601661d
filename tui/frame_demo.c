/* frame_demo.c — the demo's frame (gpulearn demo): a projector layout without borders,
 * the step's text large, the kernel and the thread map side by side, the Result last,
 * and a bottom line with the few keys a presenter needs. */
#include <stdio.h>
#include <string.h>

#include "tui/pane.h"
#include "tui/term.h"
#include "tui/view.h"

/* The demo's bottom line: what is happening and the few keys a presenter needs. */
void frame_demo_status(const app *a)
{
    char left[400], right[200];
    if (app_busy(a))
        snprintf(left, sizeof left, "%s %s%s %.0f s   (Esc cancels)", frame_spinner(), a->busy_msg,
                 term_glyph()->ellipsis, job_now() - a->job.started);
    else if (a->flash[0])
        snprintf(left, sizeof left, "%s", a->flash);
    else if (a->have_spec && !a->have_run && !app_on_exercise(a))
        snprintf(left, sizeof left, "Space: run the kernel");
    else
        snprintf(left, sizeof left, "%s",
                 a->step + 1 < app_nsteps(a) ? "Space: next step" : "end of the lesson");
    if (a->auto_next)
        snprintf(right, sizeof right, "auto %.0f s %s ?:keys q:quit", a->opts.auto_seconds,
                 term_glyph()->dot);
    else
        snprintf(right, sizeof right, "%s%s",
                 COLS >= 80 && a->have_run && a->run.trace ? "P:play  " : "",
                 COLS >= 70 ? "p:back  a:auto  ?:keys  q:quit" : "?:keys q:quit");
    frame_bar(PANE_STATUS, LINES - 1, term_attr(TC_DIM), left, right);
}

/* Projector layout: no borders, a large title, the text in wide margins, then the
 * kernel and the thread map side by side (stacked when narrow), the result last. */
void frame_demo_draw(const app *a, struct view_metrics *m)
{
    WINDOW *win = pane_win(PANE_FULL, 0, 0, LINES - 1, COLS);
    if (!win)
        return;
    int H = LINES - 1;
    int mx = COLS >= 160 ? COLS / 10 : COLS >= 110 ? COLS / 16 : 2;
    int width = COLS - 2 * mx;
    const gl_step *st = app_cur_step(a);
    /* header: lesson, step chips */
    char head[300];
    snprintf(head, sizeof head, "Lesson %d %s %s", a->lesson->number, term_glyph()->dot,
             a->lesson->title ? a->lesson->title : "");
    int hw = view_put(win, 0, mx, width, head, term_attr(TC_DIM));
    frame_step_chips(a, win, 0, COLS - mx, term_attr(TC_DIM), mx + hw + 2);
    /* title, centred, underlined by a rule */
    const char *title = st ? (st->title ? st->title : "")
                           : (a->lesson->exercise->title ? a->lesson->exercise->title : "Exercise");
    int big = LINES >= 40 && COLS >= 150;
    int y = big ? 3 : 2;
    int tw;
    pane_fit(title, strlen(title), width, &tw);
    view_put(win, y, (COLS - tw) / 2, width, title, term_attr(TC_HEADING) | A_BOLD);
    wattron(win, term_attr(TC_BORDER));
    for (int i = 0; i < tw; i++)
        mvwaddstr(win, y + 1, (COLS - tw) / 2 + i, term_glyph()->h);
    wattroff(win, term_attr(TC_BORDER));
    y += big ? 3 : 2;
    /* text */
    int textw = width < 110 ? width : 110;
    if (big && textw > 100)
        textw = 100;
    tlines L = {0};
    const char *text = st ? st->text : a->lesson->exercise->text;
    tl_wrap(&L, text ? text : "", textw, PLAIN);
    bool device = st && st->view && strcmp(st->view, "device") == 0;
    bool has_src = a->src.text != NULL, has_map = a->have_spec;
    int rest = H - y;
    /* once the step ran, its result matters more than the text (already read) */
    int text_rows = (has_src || has_map || device)
                        ? pane_clampi(L.n, 1, a->have_run ? rest / 5 : rest * 2 / 5)
                        : rest;
    m->text_lines = L.n;
    m->text_rows = text_rows;
    int ttop = tl_draw(win, &L, a->text_top, y, (COLS - textw) / 2, text_rows, textw);
    if (ttop + text_rows < L.n)
        view_put(win, y + text_rows - 1, (COLS + textw) / 2 + 1, 3, term_glyph()->ellipsis,
                 term_attr(TC_DIM));
    tl_free(&L);
    y += text_rows + 1;
    rest = H - y;
    if (rest < 3)
        return;
    if (device) {
        pane_show(win); /* first: the device window lies on top of it */
        WINDOW *d = pane_win(PANE_MAP, y, mx, rest, width);
        if (d)
            pane_device_draw(a, d, rest + 1, width), pane_show(d);
        return;
    }
    if (!has_src && !has_map) {
        pane_show(win);
        return;
    }
    /* result rows: what the run printed or produced, under the kernel and map */
    tlines R = {0};
    if (a->have_run)
        pane_result_run_lines(a, &R, width);
    int rrows = a->have_run ? pane_clampi(R.n, 1, rest / 2) : 0;
    int crows = rest - rrows - (rrows ? 1 : 0);
    /* kernel | map */
    int gap = 4;
    int sw = has_src ? pane_source_width(a) : 0;
    bool stacked = has_src && has_map && width - sw - gap < 30 && crows >= 14;
    if (has_src && has_map && !stacked) {
        int maxs = width * 55 / 100;
        if (sw > maxs)
            sw = maxs;
        if (width - sw - gap < 30)
            sw = width - gap - 30;
        if (sw < width / 3)
            sw = width / 3;
    } else if (has_src) {
        sw = width;
    }
    /* content rows: what the source and the map need, not more (the result follows) */
    {
        int need_src = has_src ? 1 + pane_source_rows_big(a, has_map && !stacked ? sw : width) : 0;
        int need_map =
            has_map ? view_slot_height(a, has_src && !stacked ? width - sw - gap : width) : 0;
        if (has_map && need_map < 9)
            need_map = 9;
        int need = stacked ? need_src + need_map + 1 : (need_src > need_map ? need_src : need_map);
        if (need < crows)
            crows = need;
        if (a->have_run)
            rrows = pane_clampi(R.n, 1, rest - crows - 1);
    }
    int sy = y, srows = crows;
    if (stacked)
        srows = crows / 2;
    if (has_src) {
        char lbl[300];
        snprintf(lbl, sizeof lbl, "%s", pane_base_name(a->src.path));
        view_put(win, sy, mx, sw, lbl, term_attr(TC_DIM) | A_BOLD);
        int top = a->src_top;
        if (top > a->src.nlines - 1)
            top = a->src.nlines - 1;
        if (top < 0)
            top = 0;
        m->src_rows = pane_source_region(a, win, sy + 1, mx, srows - 1, sw, top, true);
    }
    if (has_map) {
        int mxx = has_src && !stacked ? mx + sw + gap : mx;
        int my = stacked ? sy + srows + 1 : sy;
        int mh = stacked ? crows - srows - 1 : crows;
        int mw = has_src && !stacked ? width - sw - gap : width;
        if (mh >= 3) {
            WINDOW *mp = pane_win(PANE_MAP, my, mxx, mh, mw);
            if (mp)
                view_slot_draw(mp, a, 0, 0, mh, mw), pane_show(mp);
        }
    }
    if (rrows) {
        int ry = y + crows + 1;
        m->res_lines = R.n;
        m->res_rows = rrows;
        tl_draw(win, &R, a->res_top, ry, mx, rrows, width);
    }
    tl_free(&R);
    /* the map window sits on top of the full window: show the full one first */
    touchwin(win);
    wnoutrefresh(win);
    if (has_map && pane_slot(PANE_MAP))
        pane_show(pane_slot(PANE_MAP));
}
