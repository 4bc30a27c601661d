/* app_program.c — the TUI on a whole CUDA program (`gpulearn PROG.cu`, tui.h
 * tui_program): the program is built and run as `run PROG.cu` runs it (a child process,
 * its kernels on the simulator), with cudart's launch records and traces
 * (runtime/program.h), its stdin from /dev/null and its stdout and stderr kept; then the
 * screen shows the launches (kernel, grid, block, where in the host code), the
 * program's output (o: its source instead) and the selected launch in the views a
 * lesson's launch has (view.h), drawn from that launch's trace, fault and findings. r
 * builds and runs it again (after an edit). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/program.h"
#include "trace/analysis.h"
#include "tui/app.h"
#include "tui/app_int.h"
#include "tui/pane.h"
#include "tui/term.h"
#include "tui/tui.h"
#include "tui/view.h"

/* The program's output kept for the output pane: at most this many bytes. */
enum { PROG_OUTPUT_MAX = 1 << 20 };
/* A run from the TUI stops after this many seconds (the TUI waits for it). */
#define PROG_TIMEOUT_S 60.0

/* The screen's state: the program, its last run, the selected launch, which the views
 * see as the run of `a` (a lesson launch's state, view.h). */
typedef struct prog_ui {
    app a;
    const tui_program_opts *o;
    char dir[PATH_MAX]; /* the build and the run's files (gl_tmpdir_make) */
    char exe[PATH_MAX + 16];
    char traces[PATH_MAX + 32];
    gl_prog_records recs;
    int status;   /* the program's exit status; -1 it did not build or start */
    char *output; /* its stdout and stderr as written (and the compiler's messages) */
    int sel, list_top;
    unsigned loaded; /* the launch whose trace is in a.run (0: none) */
    char note[512];  /* why the selected launch shows no views */
    bool show_source;
    int out_top;
} prog_ui;

/* The run's output file read back into p->output, cut at PROG_OUTPUT_MAX bytes. */
static void read_output(prog_ui *p, const char *path)
{
    free(p->output);
    p->output = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    p->output = malloc(PROG_OUTPUT_MAX + 64);
    size_t n = p->output ? fread(p->output, 1, PROG_OUTPUT_MAX, f) : 0;
    if (p->output) {
        const int more = fgetc(f) != EOF;
        p->output[n] = '\0';
        if (more)
            strcat(p->output, "\n(more output, not kept)\n");
    }
    fclose(f);
}

/* The compiler's errors and warnings in the output that name the shown source (clang's
 * "prog.cu:5:12: error: ...", nvcc's "prog.cu(5): error: ..."), marked in the source
 * pane as a kernel's compile errors are (a->diags, the first message of a line); none
 * when the program built. Returns whether any is an error. */
static bool mark_compile_errors(prog_ui *p)
{
    app *a = &p->a;
    a->ndiags = 0;
    if (p->status >= 0 || !p->output || !a->src.path)
        return false;
    const char *want = app_base_name(a->src.path);
    bool any_error = false;
    for (const char *s = p->output; *s && a->ndiags < APP_MAX_DIAGS;) {
        const char *end = strchr(s, '\n');
        if (!end)
            end = s + strlen(s);
        const char *sep = s;
        while (sep < end && *sep != ':' && *sep != '(')
            sep++;
        const char *base = sep;
        while (base > s && base[-1] != '/')
            base--;
        char *num;
        long line = sep < end ? strtol(sep + 1, &num, 10) : 0, col = 0;
        if (line > 0 && line < INT_MAX && (size_t)(sep - base) == strlen(want) &&
            strncmp(base, want, (size_t)(sep - base)) == 0 && num < end) {
            if (*sep == ':' && *num == ':')
                col = strtol(num + 1, &num, 10);
            const char *e = strstr(num, "error: "), *w = strstr(num, "warning: ");
            const char *m = e && e < end ? e : w && w < end ? w : NULL;
            if (m && !app_diag_at(a, (int)line)) {
                app_diag *g = &a->diags[a->ndiags++];
                memset(g, 0, sizeof *g);
                g->line = (int)line;
                g->col = col > 0 && col < INT_MAX ? (int)col : 0;
                g->is_error = m == e;
                any_error |= g->is_error;
                snprintf(g->msg, sizeof g->msg, "%.*s", (int)(end - m), m);
            }
        }
        s = *end ? end + 1 : end;
    }
    return any_error;
}

/* Builds and runs the program with its stdin from /dev/null and its stdout and stderr
 * (and the compiler's messages) into the output file; then reads the records. The
 * terminal must not be in curses mode. */
static void run_program(prog_ui *p)
{
    char out[PATH_MAX + 32], recs[PATH_MAX + 32];
    snprintf(out, sizeof out, "%s/output.txt", p->dir);
    snprintf(recs, sizeof recs, "%s/records.jsonl", p->dir);
    /* a fresh folder of traces and records for this run */
    static unsigned runs;
    snprintf(p->traces, sizeof p->traces, "%s/launches%u", p->dir, ++runs);
    unlink(recs);
    gl_program_records_free(&p->recs);
    p->loaded = 0;
    p->status = -1;
    fprintf(stderr, "gpulearn: building and running %s ...\n", p->o->build.sources[0]);
    fflush(NULL);
    const int save_in = dup(0), save_out = dup(1), save_err = dup(2);
    const int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
    const int null = open("/dev/null", O_RDONLY);
    gl_error err = {0};
    if (save_in < 0 || save_out < 0 || save_err < 0 || fd < 0 || null < 0 ||
        mkdir(p->traces, 0700) != 0) {
        snprintf(p->note, sizeof p->note, "cannot set up the run: %s", strerror(errno));
    } else {
        dup2(null, 0), dup2(fd, 1), dup2(fd, 2);
        setenv("GPULEARN_PROG_RECORD", recs, 1);
        setenv("GPULEARN_PROG_TRACE_DIR", p->traces, 1);
        setenv("GPULEARN_PROG_TRACE_FULL", "1", 1);
        gl_status st = gl_program_build(&p->o->build, p->dir, p->exe, sizeof p->exe, &err);
        if (st != GL_OK)
            fprintf(stderr, "gpulearn: %s\n", err.msg);
        else
            p->status =
                gl_program_run(p->exe, p->o->argv, p->o->build.arch, NULL, PROG_TIMEOUT_S, &err);
        if (st == GL_OK && p->status < 0)
            fprintf(stderr, "gpulearn: %s\n", err.msg);
        fflush(NULL);
        dup2(save_in, 0), dup2(save_out, 1), dup2(save_err, 2);
    }
    const int fds[] = {save_in, save_out, save_err, fd, null};
    for (size_t k = 0; k < sizeof fds / sizeof fds[0]; k++)
        if (fds[k] >= 0)
            close(fds[k]);
    read_output(p, out);
    gl_error rerr = {0};
    if (gl_program_records_read(recs, p->exe, &p->recs, &rerr) != GL_OK)
        snprintf(p->note, sizeof p->note, "%.500s", rerr.msg);
    if (p->sel >= p->recs.nlaunches)
        p->sel = p->recs.nlaunches ? p->recs.nlaunches - 1 : 0;
    /* a compile error: the source, its lines marked, rather than the output */
    if (mark_compile_errors(p))
        p->show_source = true;
}

/* Drops the launch shown in the views (its trace and metrics; the findings are the
 * records'). */
static void unload(prog_ui *p)
{
    app *a = &p->a;
    trace_free(a->run.trace);
    if (a->run.metrics) {
        gl_metrics_free(a->run.metrics);
        free(a->run.metrics);
    }
    memset(&a->run, 0, sizeof a->run);
    a->have_run = false;
    p->loaded = 0;
}

/* Shows launch i in the views: its trace (checked as it is read), the metrics the views
 * read from it, its fault and findings, its launch as the spec the views know. */
static void load(prog_ui *p, int i)
{
    app *a = &p->a;
    if (i < 0 || i >= p->recs.nlaunches || p->loaded == p->recs.launches[i].number)
        return;
    unload(p);
    const gl_prog_launch *l = &p->recs.launches[i];
    p->loaded = l->number;
    p->note[0] = '\0';
    memcpy(a->spec.grid, l->grid, sizeof a->spec.grid);
    memcpy(a->spec.block, l->block, sizeof a->spec.block);
    a->spec.dynamic_shared_bytes = (unsigned)l->shared;
    a->spec.kernel = (char *)l->mangled;
    a->have_spec = true;
    a->sel_on = false;
    a->run_gen++;
    view_reset_all();
    if (!l->launched) {
        snprintf(p->note, sizeof p->note, "launch %u did not run: it returned %s", l->number,
                 l->error);
        return;
    }
    gl_error err = {0};
    trace_t *t = NULL;
    if (gl_program_launch_trace(p->traces, l->number, &t, &err) != GL_OK) {
        snprintf(p->note, sizeof p->note, "%.500s", err.msg);
        return;
    }
    a->run.backend = GL_BACKEND_SIM;
    a->run.trace = t;
    a->run.metrics = calloc(1, sizeof *a->run.metrics);
    if (a->run.metrics && gl_metrics_from_trace(t, a->run.metrics) != 0) {
        free(a->run.metrics);
        a->run.metrics = NULL;
    }
    a->run.fault = l->fault;
    a->run.findings = l->findings;
    a->run.nfindings = l->nfindings;
    a->run.findings_dropped = l->findings_dropped;
    a->run.nerrors = l->nerrors;
    a->run.nwarnings = l->nwarnings;
    a->run.stats = l->stats;
    a->have_run = true;
    a->run_status = l->fault.kind != GL_FAULT_NONE ? GL_ERR_FAULT : GL_OK;
    a->tpos = tv_initial_pos(a);
}

/* "vectorAdd" of "vectorAdd(float const*, ...)": the kernel's name without parameters. */
static void short_name(const char *kernel, char *buf, size_t n)
{
    const char *par = strchr(kernel, '(');
    snprintf(buf, n, "%.*s", (int)(par ? par - kernel : (long)strlen(kernel)), kernel);
}

/* "4" or "(4,2,1)": a grid or block as a learner writes it. */
static void dims(const unsigned d[3], char *buf, size_t n)
{
    if (d[1] == 1 && d[2] == 1)
        snprintf(buf, n, "%u", d[0]);
    else
        snprintf(buf, n, "(%u,%u,%u)", d[0], d[1], d[2]);
}

/* The launch list: one row a launch, then the selected launch in words. */
static void draw_launches(prog_ui *p, int y, int x, int h, int w)
{
    char title[64];
    snprintf(title, sizeof title, "launches (%d)", p->recs.nlaunches);
    WINDOW *win = pane_framed(PANE_TEXT, y, x, h, w, title);
    if (!win)
        return;
    const int cols = w - 4, detail = 4;
    int rows = h - 2 - detail;
    if (rows < 1)
        rows = h - 2;
    if (p->recs.nlaunches == 0) {
        view_put_wrap(win, 1, 2, cols, h - 2,
                      p->status < 0 ? "the program did not run: its output says why"
                                    : "the program launched no kernel",
                      term_attr(TC_DIM));
        pane_show(win);
        return;
    }
    if (p->sel < p->list_top)
        p->list_top = p->sel;
    if (p->sel >= p->list_top + rows)
        p->list_top = p->sel - rows + 1;
    for (int r = 0; r < rows && p->list_top + r < p->recs.nlaunches; r++) {
        const int i = p->list_top + r;
        const gl_prog_launch *l = &p->recs.launches[i];
        char name[128], g[40], b[40], line[400], where[32] = "";
        short_name(l->kernel[0] ? l->kernel : "?", name, sizeof name);
        dims(l->grid, g, sizeof g);
        dims(l->block, b, sizeof b);
        if (l->where_line > 0)
            snprintf(where, sizeof where, " :%d", l->where_line);
        /* "!": refused, faulted or a checker's error (the line below says which) */
        const bool bad = !l->launched || l->fault.kind != GL_FAULT_NONE || l->nerrors;
        snprintf(line, sizeof line, "%u %s %s<<<%s, %s>>>%s", l->number, bad ? "!" : " ", name, g,
                 b, where);
        int attr = bad ? term_attr(TC_BAD) : PLAIN;
        if (i == p->sel)
            attr = term_attr(TC_SELECTED) | A_REVERSE;
        mvwhline(win, 1 + r, 1, ' ', w - 2);
        view_put(win, 1 + r, 2, cols, line, attr);
    }
    if (rows < h - 2) { /* the selected launch: where, and what happened */
        const gl_prog_launch *l = &p->recs.launches[p->sel];
        char text[1200];
        if (l->where_line > 0)
            snprintf(text, sizeof text, "launch %u at %s:%d", l->number, pane_base_name(l->where),
                     l->where_line);
        else
            snprintf(text, sizeof text, "launch %u (where: not known)", l->number);
        const int r = view_put_wrap(win, h - 1 - detail, 2, cols, 1, text, term_attr(TC_DIM));
        if (!l->launched)
            snprintf(text, sizeof text, "not run: %s", l->error);
        else if (l->fault.kind != GL_FAULT_NONE)
            snprintf(text, sizeof text, "fault: %s", l->fault.message);
        else if (l->nerrors || l->nwarnings)
            snprintf(text, sizeof text, "%d error%s, %d warning%s: %s", l->nerrors,
                     l->nerrors == 1 ? "" : "s", l->nwarnings, l->nwarnings == 1 ? "" : "s",
                     l->nfindings ? l->findings[0].message : "");
        else
            snprintf(text, sizeof text, "completed: %llu warp instructions",
                     (unsigned long long)l->stats.warp_instructions);
        view_put_wrap(win, h - 1 - detail + r, 2, cols, detail - r, text,
                      l->launched && l->fault.kind == GL_FAULT_NONE && !l->nerrors
                          ? term_attr(TC_GOOD)
                          : term_attr(TC_BAD));
    }
    pane_show(win);
}

/* The program's output (or, o, its source) below the launches. */
static void draw_output(prog_ui *p, int y, int x, int h, int w)
{
    char title[64];
    if (p->show_source)
        snprintf(title, sizeof title, "%s (o: output)", pane_base_name(p->a.src.path));
    else
        snprintf(title, sizeof title, "output (o: source)");
    WINDOW *win = pane_framed(PANE_RESULT, y, x, h, w, title);
    if (!win)
        return;
    if (p->show_source) {
        int line = p->a.have_run ? tv_current_line(&p->a) : 0;
        if (line <= 0 && p->loaded)
            line = p->recs.launches[p->sel].where_line;
        if (line <= 0 && p->a.ndiags)
            line = p->a.diags[0].line;
        int top = line > (h - 2) / 2 ? line - (h - 2) / 2 : 0;
        pane_source_region(&p->a, win, 1, 1, h - 2, w - 3, top, false);
    } else {
        tlines L = {0};
        tl_wrap(&L, p->output && *p->output ? p->output : "(no output)", w - 4, PLAIN);
        if (p->out_top > L.n - (h - 2))
            p->out_top = L.n - (h - 2);
        if (p->out_top < 0)
            p->out_top = 0;
        p->out_top = tl_draw(win, &L, p->out_top, 1, 2, h - 2, w - 4);
        tl_free(&L);
    }
    pane_show(win);
}

static void draw(prog_ui *p)
{
    werase(stdscr);
    wnoutrefresh(stdscr);
    if (LINES < MIN_ROWS || COLS < MIN_COLS) {
        mvwprintw(stdscr, 0, 0, "terminal too small (%dx%d); need at least %dx%d", COLS, LINES,
                  MIN_COLS, MIN_ROWS);
        wnoutrefresh(stdscr);
        doupdate();
        return;
    }
    char left[PATH_MAX + 64], right[64];
    snprintf(left, sizeof left, "gpulearn  %s", pane_base_name(p->o->build.sources[0]));
    if (p->status < 0)
        snprintf(right, sizeof right, "did not run");
    else
        snprintf(right, sizeof right, "%d launch%s, exit status %d", p->recs.nlaunches,
                 p->recs.nlaunches == 1 ? "" : "es", p->status);
    frame_bar(PANE_TITLE, 0, term_attr(TC_TITLE), left, right);
    const int h = LINES - 2, lw = COLS * 9 / 20;
    int lh = p->recs.nlaunches + 7;
    lh = pane_clampi(lh, 7, h / 2);
    draw_launches(p, 1, 0, lh, lw);
    draw_output(p, 1 + lh, 0, h - lh, lw);
    char stl[128];
    WINDOW *mp = pane_framed(PANE_MAP, 1, lw, h, COLS - lw,
                             p->a.have_spec ? view_slot_title(&p->a, stl, sizeof stl) : "views");
    if (mp) {
        if (p->a.have_run)
            view_slot_draw(mp, &p->a, 1, 2, h - 2, COLS - lw - 4);
        else
            view_put_wrap(mp, 1, 2, COLS - lw - 4, h - 2,
                          p->note[0] ? p->note : "no launch to show", term_attr(TC_DIM));
        pane_show(mp);
    }
    frame_bar(PANE_STATUS, LINES - 1, term_attr(TC_STATUS),
              p->a.flash[0] ? p->a.flash
                            : "↑↓ launch  v 1-9 view  , . step  o source  r rerun  q quit",
              NULL);
    doupdate();
}

/* ( and ): the selected thread moves d warps through the grid (blocks in linear order,
 * x fastest), which the views follow. */
static void warp_move(app *a, int d)
{
    const unsigned *g = a->spec.grid, *b = a->spec.block;
    const uint64_t per = (uint64_t)b[0] * b[1] * b[2], blocks = (uint64_t)g[0] * g[1] * g[2];
    uint64_t at = 0;
    if (a->sel_on)
        at = ((uint64_t)a->sel_block[0] +
              g[0] * ((uint64_t)a->sel_block[1] + (uint64_t)g[1] * a->sel_block[2])) *
                 per +
             a->sel_thread[0] +
             b[0] * ((uint64_t)a->sel_thread[1] + (uint64_t)b[1] * a->sel_thread[2]);
    const int64_t to = (int64_t)at + 32 * (int64_t)d;
    at = to < 0 ? 0 : (uint64_t)to >= per * blocks ? per * blocks - 1 : (uint64_t)to;
    const uint64_t bl = at / per, t = at % per;
    a->sel_block[0] = (unsigned)(bl % g[0]), a->sel_block[1] = (unsigned)(bl / g[0] % g[1]);
    a->sel_block[2] = (unsigned)(bl / g[0] / g[1]);
    a->sel_thread[0] = (unsigned)(t % b[0]), a->sel_thread[1] = (unsigned)(t / b[0] % b[1]);
    a->sel_thread[2] = (unsigned)(t / b[0] / b[1]);
    a->sel_on = true;
    if (view_of(a->view)->space)
        a->tpos = tv_initial_pos(a);
}

/* One key; false when it quits. */
static bool key(prog_ui *p, int ch)
{
    app *a = &p->a;
    a->flash[0] = '\0';
    const tui_view *v = view_of_key(ch);
    if (ch == 'q' || ch == 'Q') {
        return false;
    } else if ((ch == KEY_UP || ch == 'k') && p->sel > 0) {
        load(p, --p->sel);
    } else if ((ch == KEY_DOWN || ch == 'j') && p->sel + 1 < p->recs.nlaunches) {
        load(p, ++p->sel);
    } else if (ch == 'v' && a->have_spec) {
        a->view = view_next(a->view);
        a->tpos = a->have_run ? tv_initial_pos(a) : 0;
    } else if (v && a->have_spec) {
        a->view = v->id;
        a->tpos = a->have_run ? tv_initial_pos(a) : 0;
    } else if ((ch == ',' || ch == '.' || ch == '<' || ch == '>') && a->have_run) {
        /* time: an instruction of the selected warp (a barrier in the barrier views), or
         * < > a barrier of its block */
        bool moved = false;
        const tv_unit u = ch == '<' || ch == '>' || view_of(a->view)->flags & VIEW_F_BARRIER
                              ? TV_BARRIER
                              : TV_INSN;
        const int dir = ch == '.' || ch == '>' ? 1 : -1;
        a->tpos = tv_step_pos(a, u, dir, &moved);
        if (!moved)
            app_set_flash(a, dir > 0 ? "nothing later" : "at the start");
    } else if ((ch == '(' || ch == ')') && a->have_run) {
        warp_move(a, ch == ')' ? 1 : -1);
    } else if (ch == 'o') {
        p->show_source = !p->show_source;
    } else if (ch == KEY_NPAGE || ch == KEY_PPAGE) {
        p->out_top += ch == KEY_NPAGE ? 5 : -5;
    } else if (ch == 'r') {
        unload(p);
        term_suspend();
        run_program(p);
        term_resume();
        load(p, p->sel);
    } else if (a->have_run) {
        view_slot_key(a, ch);
    }
    return true;
}

/* Builds and runs the program and shows it until q. own_term: the screen starts and ends
 * curses itself (tui_program); else it borrows a lesson's curses session, leaving it to
 * redraw in full (tui_program_within). Returns 0, 1 (no temporary folder) or 2 (no
 * terminal). */
static int show(const tui_program_opts *o, bool own_term)
{
    static prog_ui p; /* large (the views' app); one program screen at a time */
    memset(&p, 0, sizeof p);
    p.o = o;
    p.a.view = VIEW_WARPS;
    if (gl_tmpdir_make(p.dir, sizeof p.dir, "tuiprog") != 0) {
        if (own_term)
            fprintf(stderr, "gpulearn: cannot create a temporary folder\n");
        return 1;
    }
    app_source_load(&p.a.src, o->build.sources[0]);
    if (!own_term)
        term_suspend();
    run_program(&p);
    if (!own_term)
        term_resume();
    load(&p, p.sel);
    char msg[512];
    int rc = 0;
    if (own_term && !term_init(msg, sizeof msg)) {
        fprintf(stderr, "gpulearn: %s\n", msg);
        rc = 2;
    } else {
        view_free(); /* the windows are the program screen's until q */
        draw(&p);
        for (;;) {
            wtimeout(stdscr, 250);
            const int ch = wgetch(stdscr);
            if (term_quit_signal())
                break;
            if (ch == ERR)
                continue;
            if (!key(&p, ch))
                break;
            draw(&p);
        }
        view_free();
        if (own_term)
            term_end();
        else
            clearok(curscr, TRUE);
    }
    unload(&p);
    view_reset_all(); /* no view keeps state of this program's launches */
    gl_program_records_free(&p.recs);
    app_source_load(&p.a.src, NULL);
    free(p.output);
    gl_tmpdir_remove(p.dir);
    return rc;
}

int tui_program(const tui_program_opts *o)
{
    return show(o, true);
}

int tui_program_within(const tui_program_opts *o)
{
    return show(o, false);
}
