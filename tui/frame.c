/* frame.c — the whole frame from the app state: the title and status bars, the lesson
 * list, the lesson page's layout (text, source, the map's slot, Result; the device pane
 * on lesson 0) and the help overlay over it. Each frame: werase and redraw every window,
 * wnoutrefresh each, one doupdate (curses sends only what changed, so there is no
 * flicker; kilo's editorRefreshScreen does the same with an append buffer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/pane.h"
#include "tui/term.h"
#include "tui/view.h"

/* ---------------------------------------------------------------- bars */

void frame_bar(int slot, int y, int attr, const char *left, const char *right)
{
    WINDOW *win = pane_win(slot, y, 0, 1, COLS);
    if (!win)
        return;
    wbkgdset(win, ' ' | attr);
    werase(win);
    int rw = 0, lw = 0;
    pane_fit(left, strlen(left), COLS, &lw);
    if (right && *right) {
        pane_fit(right, strlen(right), COLS, &rw);
        if (lw + rw + 4 < COLS)
            view_put(win, 0, COLS - rw - 1, rw, right, attr);
        else
            rw = 0; /* the left part matters more */
    }
    view_put(win, 0, 1, COLS - rw - 3, left, attr);
    pane_show(win);
}

const char *frame_spinner(void)
{
    static const char *utf8[] = {"\u280b", "\u2819", "\u2839", "\u2838", "\u283c",
                                 "\u2834", "\u2826", "\u2827", "\u2807", "\u280f"};
    static const char *ascii[] = {"|", "/", "-", "\\"};
    long t = (long)(job_now() * 10);
    if (strcmp(term_glyph()->h, "-") == 0)
        return ascii[t % 4];
    return utf8[t % 10];
}

static void draw_status(const app *a)
{
    char backend[300], left[700];
    app_backend_label(a, backend, sizeof backend);
    if (a->confirm == CONFIRM_RESET) {
        frame_bar(PANE_STATUS, LINES - 1, term_attr(TC_WARN) | A_REVERSE,
                  "Restore the starter? Your version is kept as a .bak file. (y/n)", "");
        return;
    }
    if (app_busy(a)) {
        snprintf(left, sizeof left, "%s %s%s %.0f s", frame_spinner(), a->busy_msg,
                 term_glyph()->ellipsis, job_now() - a->job.started);
        frame_bar(PANE_STATUS, LINES - 1, term_attr(TC_STATUS), left,
                  a->flash[0] ? a->flash : "Ctrl-C/Esc: cancel");
        return;
    }
    const char *right = a->flash[0] ? a->flash : "?:help  q:quit";
    /* N (the debug build) changes every count: the status line says so while it is on */
    char names[64] = "";
    if (a->screen == SCREEN_LESSON && a->names_build)
        snprintf(names, sizeof names, "%s N: debug build -G", term_glyph()->dot);
    /* the help keys stay: a narrow terminal first loses the back end's explanation
     * ("simulator (no GPU found)" -> "simulator"), then the back end */
    for (int pass = 0; pass < 3; pass++) {
        char *paren = strstr(backend, " (");
        if (pass == 1 && paren)
            *paren = '\0';
        if (pass == 2)
            backend[0] = '\0';
        const char *sep = backend[0] ? term_glyph()->dot : "";
        if (a->screen == SCREEN_LESSON && a->lesson)
            snprintf(left, sizeof left, "lesson %s %s step %d/%d%s%s %s %s", a->lesson->label,
                     term_glyph()->dot, a->step + 1, app_nsteps(a), names[0] ? " " : "", names, sep,
                     backend);
        else
            snprintf(left, sizeof left, "%d lesson%s %s %s", a->nlessons,
                     a->nlessons == 1 ? "" : "s", sep, backend);
        int lw, rw;
        pane_fit(left, strlen(left), 1 << 20, &lw);
        pane_fit(right, strlen(right), 1 << 20, &rw);
        if (lw + rw + 4 < COLS)
            break;
    }
    if (a->flash[0]) { /* a message matters more than the back end's name */
        if (a->screen == SCREEN_LESSON && a->lesson)
            snprintf(left, sizeof left, "lesson %s %s step %d/%d%s%s", a->lesson->label,
                     term_glyph()->dot, a->step + 1, app_nsteps(a), names[0] ? " " : "", names);
        else
            left[0] = '\0';
        int lw, rw;
        pane_fit(left, strlen(left), 1 << 20, &lw);
        pane_fit(right, strlen(right), 1 << 20, &rw);
        if (lw + rw + 4 >= COLS) { /* the message alone, after N's mark */
            char both[400];
            snprintf(both, sizeof both, "%s%s%.300s", names[0] ? "N -G " : "",
                     names[0] ? term_glyph()->dot : "", right);
            frame_bar(PANE_STATUS, LINES - 1, term_attr(TC_STATUS), both, "");
            return;
        }
    }
    frame_bar(PANE_STATUS, LINES - 1, term_attr(TC_STATUS), left, right);
}

void view_busy_tick(const app *a)
{
    if (LINES < 12 || COLS < 40)
        return;
    if (a->opts.demo)
        frame_demo_status(a);
    else
        draw_status(a);
    doupdate();
}

/* The step bar: " 1 2 3 4 Ex " with the current step highlighted and seen steps
 * marked; each chip is clickable. Drawn right-aligned in the title bar. */
void frame_step_chips(const app *a, WINDOW *win, int y, int right_edge, int attr, int min_x)
{
    int n = app_nsteps(a);
    if (n <= 0)
        return;
    const gl_lesson_progress *p = app_progress(a, a->lesson);
    int width = 0;
    for (int i = 0; i < n; i++)
        width += (a->lesson->exercise && i == n - 1) ? 4 : (i + 1 >= 10 ? 3 : 2) + 1;
    int x = right_edge - width;
    if (x < min_x)
        return;
    int bx, by;
    getbegyx(win, by, bx);
    for (int i = 0; i < n; i++) {
        char chip[8];
        bool ex = a->lesson->exercise && i == n - 1;
        snprintf(chip, sizeof chip, ex ? " Ex" : " %d", i + 1);
        bool seen = p && i < 32 && ((p->steps_seen >> i) & 1u);
        int cattr = attr;
        if (i == a->step)
            cattr = term_attr(TC_SELECTED) | A_BOLD | A_REVERSE;
        else if (!seen && !a->opts.demo)
            cattr = attr | A_DIM;
        int w = (int)strlen(chip);
        view_put(win, y, x, w, chip, cattr);
        pane_hit_add(by + y, bx + x, bx + x + w + 1, HIT_STEP, i);
        x += w;
        if (i == a->step)
            view_put(win, y, x, 1, " ", cattr);
        x += 1;
    }
}

static void draw_title(const app *a)
{
    char left[512];
    if (a->screen == SCREEN_LESSON && a->lesson)
        snprintf(left, sizeof left, "gpulearn %s Lesson %s: %s",
                 strcmp(term_glyph()->h, "-") ? "\u2014" : "-", a->lesson->label,
                 a->lesson->title ? a->lesson->title : "");
    else
        snprintf(left, sizeof left, "gpulearn %s learn CUDA by running it",
                 strcmp(term_glyph()->h, "-") ? "\u2014" : "-");
    frame_bar(PANE_TITLE, 0, term_attr(TC_TITLE), left, "");
    if (a->screen == SCREEN_LESSON && a->lesson && pane_slot(PANE_TITLE)) {
        int lw;
        pane_fit(left, strlen(left), COLS, &lw);
        frame_step_chips(a, pane_slot(PANE_TITLE), 0, COLS - 1, term_attr(TC_TITLE), lw + 3);
        wnoutrefresh(pane_slot(PANE_TITLE));
    }
}

/* ------------------------------------------------------------ lesson list */

static void draw_list(const app *a, int y, int h)
{
    WINDOW *win = pane_framed(PANE_FULL, y, 0, h, COLS, "Lessons");
    if (!win)
        return;
    int rows = h - 2, cols = COLS - 4;
    if (a->list_error[0]) {
        tlines L = {0};
        tl_wrap(&L, a->list_error, cols, term_attr(TC_BAD));
        tl_draw(win, &L, 0, 1, 2, rows, cols);
        tl_free(&L);
        pane_show(win);
        return;
    }
    if (a->nlessons == 0)
        view_put(win, 1, 2, cols, "No lessons found.", term_attr(TC_WARN));
    int title_w = 0;
    for (int i = 0; i < a->nlessons; i++) {
        int w;
        const char *t = a->lessons[i].title ? a->lessons[i].title : "";
        pane_fit(t, strlen(t), 60, &w);
        if (w > title_w)
            title_w = w;
    }
    /* narrow screens: summaries go under the list (selected lesson only) */
    bool detail = COLS < 140 && a->nlessons + 6 <= rows;
    for (int r = 0; r < rows && a->list_top + r < a->nlessons; r++) {
        int i = a->list_top + r;
        const gl_lesson *l = &a->lessons[i];
        bool sel = i == a->list_sel;
        int attr = sel ? term_attr(TC_SELECTED) : PLAIN;
        if (sel) {
            wattron(win, attr);
            mvwhline(win, 1 + r, 1, ' ', COLS - 2);
            wattroff(win, attr);
        }
        char num[16];
        snprintf(num, sizeof num, "%2s", l->label);
        int x = 2;
        int by, bx;
        getbegyx(win, by, bx);
        pane_hit_add(by + 1 + r, bx + 1, bx + COLS - 1, HIT_LESSON, i);
        x += view_put(win, 1 + r, x, cols, num, sel ? attr : term_attr(TC_HEADING)) + 2;
        int tw = view_put(win, 1 + r, x, COLS - 2 - x, l->title ? l->title : "",
                          l->broken && !sel ? term_attr(TC_BAD) : (int)(attr | A_BOLD));
        x += (title_w > tw ? title_w : tw) + 2;
        /* progress: a tick once the exercise passed, else steps seen */
        const gl_lesson_progress *pg = app_progress(a, l);
        int total = l->nsteps + (l->exercise ? 1 : 0);
        char mark[32] = "";
        bool passed = pg && pg->passed;
        if (passed)
            snprintf(mark, sizeof mark, "%s",
                     strcmp(term_glyph()->h, "-") ? "\u2713 passed" : "ok passed");
        else if (pg && app_steps_seen(a, l) > 0)
            snprintf(mark, sizeof mark, "%d/%d seen", app_steps_seen(a, l), total);
        if (x + 11 < COLS - 3)
            view_put(win, 1 + r, x, 10, mark,
                     sel      ? attr
                     : passed ? term_attr(TC_GOOD)
                              : term_attr(TC_DIM));
        x += 12;
        if (x < COLS - 3 && !detail)
            view_put(win, 1 + r, x, COLS - 2 - x, l->summary ? l->summary : "",
                     sel ? attr : term_attr(TC_DIM));
    }
    /* Under the list, when there is room: the selected lesson's summary in full. */
    if (detail && a->list_sel >= 0 && a->list_sel < a->nlessons) {
        const gl_lesson *l = &a->lessons[a->list_sel];
        int y0 = a->nlessons + 2;
        wattron(win, term_attr(TC_BORDER));
        for (int i = 1; i < COLS - 1; i++)
            mvwaddstr(win, y0, i, term_glyph()->h);
        wattroff(win, term_attr(TC_BORDER));
        tlines L = {0};
        tl_printf(&L, cols, term_attr(TC_HEADING), "%s %s %s", l->label, term_glyph()->dot,
                  l->title ? l->title : "");
        if (l->broken)
            tl_wrap(&L, l->broken, cols, term_attr(TC_BAD));
        tl_wrap(&L, l->summary ? l->summary : "", cols, PLAIN);
        const gl_lesson_progress *pg = app_progress(a, l);
        int total = l->nsteps + (l->exercise ? 1 : 0);
        tl_printf(&L, cols, term_attr(TC_DIM), "%d step%s%s %s %d of %d seen%s%s", l->nsteps,
                  l->nsteps == 1 ? "" : "s", l->exercise ? " and an exercise" : "",
                  term_glyph()->dot, pg ? app_steps_seen(a, l) : 0, total,
                  pg && pg->passed ? " " : "", pg && pg->passed ? "- exercise passed" : "");
        tl_draw(win, &L, 0, y0 + 1, 2, rows - y0, cols);
        tl_free(&L);
    }
    pane_show(win);
}

static void draw_lesson(const app *a, int y, int h, struct view_metrics *m)
{
    const gl_step *st = app_cur_step(a);
    bool device = st && st->view && strcmp(st->view, "device") == 0;
    bool has_src = a->src.text != NULL;
    bool has_map = a->have_spec;
    bool has_result = has_map || app_on_exercise(a);
    char step_title[64], src_title[300];
    if (app_on_exercise(a))
        snprintf(step_title, sizeof step_title, "Exercise");
    else
        snprintf(step_title, sizeof step_title, "Step %d/%d", a->step + 1, app_nsteps(a));
    snprintf(src_title, sizeof src_title, "%s", has_src ? pane_base_name(a->src.path) : "kernel");
    if (app_on_exercise(a) && a->show_reference && has_src)
        snprintf(src_title, sizeof src_title, "reference solution: %.200s %s o your copy",
                 pane_base_name(a->src.path), term_glyph()->dot);
    else if (app_on_exercise(a) && a->ex_path[0] && has_src)
        snprintf(src_title, sizeof src_title, "your copy: %.200s %s e edit %s g grade",
                 pane_base_name(a->src.path), term_glyph()->dot, term_glyph()->dot);
    char res_title[96] = "Result";
    if (app_on_exercise(a) && (a->ex_pick > 0 || a->ex_default > 0))
        snprintf(res_title, sizeof res_title, "Result / grade %s n = %lld %s z size",
                 term_glyph()->dot,
                 (long long)(a->have_run && a->ref_n > 0 ? a->ref_n : app_exercise_n(a)),
                 term_glyph()->dot);
    else if (app_on_exercise(a))
        snprintf(res_title, sizeof res_title, "Result / grade %s n = auto %s z size",
                 term_glyph()->dot, term_glyph()->dot);

    if (device) {
        int th = h * 2 / 5 > 6 ? h * 2 / 5 : 6;
        if (COLS >= 120) {
            int lw = COLS * 2 / 5;
            WINDOW *t = pane_framed(PANE_TEXT, y, 0, h, lw, step_title);
            if (t)
                pane_text_draw(a, t, h, lw, m), pane_show(t);
            WINDOW *d = pane_framed(PANE_FULL, y, lw, h, COLS - lw, "Device");
            if (d)
                pane_device_draw(a, d, h, COLS - lw), pane_show(d);
        } else {
            WINDOW *t = pane_framed(PANE_TEXT, y, 0, th, COLS, step_title);
            if (t)
                pane_text_draw(a, t, th, COLS, m), pane_show(t);
            WINDOW *d = pane_framed(PANE_FULL, y + th, 0, h - th, COLS, "Device");
            if (d)
                pane_device_draw(a, d, h - th, COLS), pane_show(d);
        }
        return;
    }
    if (a->res_full && has_result) { /* the Result on the whole page */
        char full[160];
        snprintf(full, sizeof full, "%s %s Enter: back to the panes", res_title, term_glyph()->dot);
        WINDOW *r = pane_framed(PANE_RESULT, y, 0, h, COLS, full);
        if (r)
            pane_result_draw(a, r, h, COLS, m), pane_show(r);
        return;
    }
    if (!has_src && !has_result) {
        WINDOW *t = pane_framed(PANE_TEXT, y, 0, h, COLS, step_title);
        if (t)
            pane_text_draw(a, t, h, COLS, m), pane_show(t);
        return;
    }
    bool wide = COLS >= WIDE_COLS && h >= WIDE_ROWS - 2;
    if (wide) {
        int lw = COLS * 9 / 20;
        /* the text and the map take what they need (up to 40% / 55%), the source and
         * the result the rest */
        tlines need;
        pane_text_lines(a, lw - 4, &need);
        int th = pane_clampi(need.n + 2, 6, h * 2 / 5);
        tl_free(&need);
        int mh = has_map ? pane_clampi(view_slot_height(a, COLS - lw - 4) + 2, 12, h * 11 / 20) : 0;
        WINDOW *t = pane_framed(PANE_TEXT, y, 0, th, lw, step_title);
        if (t)
            pane_text_draw(a, t, th, lw, m), pane_show(t);
        WINDOW *s = pane_framed(PANE_SOURCE, y + th, 0, h - th, lw, src_title);
        if (s)
            pane_source_draw(a, s, h - th, lw, m), pane_show(s);
        if (has_map) {
            char stl[96];
            WINDOW *mp =
                pane_framed(PANE_MAP, y, lw, mh, COLS - lw, view_slot_title(a, stl, sizeof stl));
            if (mp)
                view_slot_draw(mp, a, 1, 2, mh - 2, COLS - lw - 4), pane_show(mp);
        }
        WINDOW *r = pane_framed(PANE_RESULT, y + mh, lw, h - mh, COLS - lw, res_title);
        if (r)
            pane_result_draw(a, r, h - mh, COLS - lw, m), pane_show(r);
        return;
    }
    /* Narrow layout: the text gets the rows it needs (up to 45%), the source/map row
     * what the kernel needs, the result the rest (at least 6 rows). */
    tlines need;
    pane_text_lines(a, COLS - 4, &need);
    /* Once the step has run, the result matters more than the text. */
    int th = pane_clampi(need.n + 2, 5, a->have_run || a->have_grade ? h / 4 : h * 45 / 100);
    tl_free(&need);
    /* Source and map side by side: the map gets what it needs (its natural width,
     * at most 45%), the source the rest; a source that needs less gives it back. */
    int sw = COLS;
    /* On the exercise, when both do not fit side by side, the slot shows the source
     * (what the learner works on); m (map focus) shows the map there instead. */
    if (has_map && has_src && app_on_exercise(a) && a->view == VIEW_MAP &&
        pane_source_width(a) + map_natural_width(a) > COLS) {
        /* (the exercise: see above) */
        if (a->map_focus)
            has_src = false;
        else
            has_map = false;
    }
    if (has_map && has_src) {
        /* the trace views need room: 55% (the source wraps) */
        const tui_view *v = view_of(a->view);
        bool wide_view =
            (v->flags & VIEW_F_WIDE) || ((v->flags & VIEW_F_WIDE_EX) && app_on_exercise(a));
        int maxw = wide_view ? COLS / 2 : COLS * 45 / 100;
        int mapw = pane_clampi(v->natural_width ? v->natural_width(a) : maxw, 30, maxw);
        sw = COLS - mapw;
        int want = pane_source_width(a);
        if (want < sw && COLS - want <= COLS * 60 / 100)
            sw = want;
        if (sw < COLS / 3 && !(v->flags & VIEW_F_TRACE))
            sw = COLS / 3;
    } else if (has_map) {
        sw = 0;
    }
    int rmin = has_result ? 6 : 0;
    int need_rows = has_src && sw > 0 ? pane_source_rows(a, sw - 3) : 6;
    if (has_map) {
        int mrows = view_slot_height(a, COLS - sw - 4);
        if (mrows > need_rows)
            need_rows = mrows;
    }
    int mh = has_result ? pane_clampi(need_rows + 2, 8, h - th - rmin) : h - th;
    int rh = h - th - mh;
    WINDOW *t = pane_framed(PANE_TEXT, y, 0, th, COLS, step_title);
    if (t)
        pane_text_draw(a, t, th, COLS, m), pane_show(t);
    if (has_src && sw > 0) {
        WINDOW *s = pane_framed(PANE_SOURCE, y + th, 0, mh, sw, src_title);
        if (s)
            pane_source_draw(a, s, mh, sw, m), pane_show(s);
    }
    if (has_map) {
        char stl[96];
        WINDOW *mp =
            pane_framed(PANE_MAP, y + th, sw, mh, COLS - sw, view_slot_title(a, stl, sizeof stl));
        if (mp)
            view_slot_draw(mp, a, 1, 2, mh - 2, COLS - sw - 4), pane_show(mp);
    }
    if (rh > 0) {
        WINDOW *r = pane_framed(PANE_RESULT, y + th + mh, 0, rh, COLS, res_title);
        if (r)
            pane_result_draw(a, r, rh, COLS, m), pane_show(r);
    }
}

void view_draw(const app *a, struct view_metrics *m)
{
    memset(m, 0, sizeof *m);
    bool demo = a->opts.demo && a->screen == SCREEN_LESSON;
    if (demo ? (LINES < 12 || COLS < 40) : (LINES < MIN_ROWS || COLS < MIN_COLS)) {
        view_free();
        werase(stdscr);
        char msg[128];
        snprintf(msg, sizeof msg, "terminal too small (%dx%d); need at least %dx%d", COLS, LINES,
                 demo ? 40 : MIN_COLS, demo ? 12 : MIN_ROWS);
        int len = (int)strlen(msg);
        mvwaddnstr(stdscr, LINES / 2, len < COLS ? (COLS - len) / 2 : 0, msg, COLS);
        if (LINES > 2)
            mvwaddnstr(stdscr, LINES / 2 + 1, COLS > 10 ? (COLS - 10) / 2 : 0, "q: quit", COLS);
        touchwin(stdscr);
        wnoutrefresh(stdscr);
        doupdate();
        return;
    }
    pane_hits_clear();
    /* stdscr underneath: blank, so nothing stale shows between panes */
    werase(stdscr);
    wnoutrefresh(stdscr);
    if (a->opts.demo && a->screen == SCREEN_LESSON && a->lesson) {
        frame_demo_draw(a, m);
        frame_demo_status(a);
        if (a->confirm == CONFIRM_NONE && a->help)
            frame_help_draw(a, m);
        doupdate();
        return;
    }
    draw_title(a);
    if (a->screen == SCREEN_LESSON && a->lesson)
        draw_lesson(a, 1, LINES - 2, m);
    else
        draw_list(a, 1, LINES - 2);
    draw_status(a);
    if (a->help)
        frame_help_draw(a, m);
    doupdate();
}
