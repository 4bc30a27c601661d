/* view_roofline.c — the roofline view: the device's roofline on log-log axes (attainable
 * FP32 FLOP/s = min(peak FLOP/s, arithmetic intensity x DRAM bandwidth); Williams,
 * Waterman and Patterson, "Roofline", CACM 2009; Nsight Compute Profiling Guide, "Roofline
 * Charts") with the session's runs placed on it at their intensity. The current run is
 * bright, earlier ones dim, so a kernel is seen to move. On the GPU a run sits at the
 * FLOP/s it reached; the simulator has no clock, so there a run is a vertical line up to
 * the roof at its intensity. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "runtime/arch.h"
#include "trace/analysis.h"
#include "tui/view_common.h"

/* FLOPs the run's metrics counted (trace/analysis.h, from the trace's instruction facts:
 * every kind, CUDA-core and tensor); 0 without issue events (a GPU trace). */
static double trace_flops(const gl_metrics *m)
{
    double f = 0;
    for (int k = TRACE_FLOP_NONE + 1; m && k < TRACE_FLOP_COUNT; k++)
        f += (double)gl_flops(&m->total, k);
    return f;
}

/* The device's roofline for the last run: its own peaks (the simulator's profile, or
 * the GPU's when the worker sent them), else the GPU's properties. */
static void run_peaks(const app *a, double *gbs, double *gflops, const char **device)
{
    *gbs = a->run.peaks.gbs;
    *gflops = a->run.peaks.gflops;
    *device = a->run.peaks.device;
    if ((*gbs <= 0 || *gflops <= 0) && a->backend_known) {
        *gbs = a->device.peak_bandwidth_gbs;
        *gflops = gl_peak_fp32_gflops(&a->device);
        *device = a->device.name;
    }
}

void view_roofline_record(app *a)
{
    if (!a->have_run || a->run_status != GL_OK || !a->have_spec)
        return;
    app_roof_point p = {0};
    snprintf(p.kernel, sizeof p.kernel, "%.63s", a->run_kernel[0] ? a->run_kernel : a->spec.kernel);
    const gl_metrics *m = a->run.metrics;
    p.flops = a->spec.flops > 0 ? a->spec.flops : trace_flops(m);
    const double sectors = m ? (double)gl_global_sectors(&m->total) : 0;
    p.from_sectors = sectors > 0;
    p.bytes = sectors > 0 ? sectors * 32 : a->spec.bytes_moved;
    if (p.flops <= 0 || p.bytes <= 0)
        return;
    if (a->run.backend == GL_BACKEND_GPU && a->run.elapsed_ms > 0)
        p.gflops = p.flops / (a->run.elapsed_ms * 1e6);
    p.gen = a->run_gen;
    /* a run again of the same kernel at the same intensity replaces its point */
    int n = a->nroof;
    for (int i = 0; i < n; i++)
        if (strcmp(a->roof[i].kernel, p.kernel) == 0 &&
            fabs(a->roof[i].flops / a->roof[i].bytes - p.flops / p.bytes) <=
                1e-9 * (p.flops / p.bytes)) {
            memmove(&a->roof[i], &a->roof[i + 1], (size_t)(n - i - 1) * sizeof a->roof[0]);
            n--;
            break;
        }
    if (n == APP_MAX_ROOF) {
        memmove(&a->roof[0], &a->roof[1], (size_t)(n - 1) * sizeof a->roof[0]);
        n--;
    }
    a->roof[n] = p;
    a->nroof = n + 1;
}

/* Numbers on the axes: 0.01 0.1 1 10 100 1000, then 1e+04 ... */
static void axis_label(char *buf, size_t len, int decade)
{
    if (decade < 0)
        snprintf(buf, len, "%.*f", -decade, pow(10, decade));
    else if (decade <= 3)
        snprintf(buf, len, "%.0f", pow(10, decade));
    else
        snprintf(buf, len, "1e%d", decade);
}

/* "3.35 TB/s"-style: GFLOP/s or GB/s with a prefix. */
static void fmt_rate(char *buf, size_t len, double g, const char *unit)
{
    if (g >= 1000)
        snprintf(buf, len, "%.3g T%s", g / 1000, unit);
    else
        snprintf(buf, len, "%.3g G%s", g, unit);
}

/* "earlier: a vec_add 0.0833 b ..." at (y, x): the first n points, dim; nothing when n
 * is 0. */
static void earlier_draw(WINDOW *win, const app *a, int n, int y, int x, int w)
{
    char buf[512];
    if (n <= 0)
        return;
    size_t used = (size_t)snprintf(buf, sizeof buf, "earlier:");
    for (int i = 0; i < n && used < sizeof buf; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, " %c %s %.3g", 'a' + i,
                                 a->roof[i].kernel, a->roof[i].flops / a->roof[i].bytes);
    view_put(win, y, x, w, buf, term_attr(TC_DIM));
}

/* The legend at (y, x): the current run (2 lines: where it sits, what bounds it) and the
 * earlier runs (1 line), or why there is no point. */
static void legend_draw(WINDOW *win, const app *a, int y, int x, int w, double bw, double peak)
{
    char buf[512], r1[32], r2[32];
    const bool current = a->nroof > 0 && a->roof[a->nroof - 1].gen == a->run_gen;
    if (!current) {
        view_put(win, y, x, w,
                 !a->have_run ? "r runs the kernel and places it at its FLOPs per byte"
                 : a->run_status != GL_OK
                     ? "the run did not finish: it gives no point"
                     : "this run gives no point: the launch declares no \"flops\" and the "
                       "trace counts none",
                 term_attr(TC_DIM));
        if (a->nroof > 0)
            earlier_draw(win, a, a->nroof, y + 1, x, w);
        return;
    }
    const app_roof_point *p = &a->roof[a->nroof - 1];
    const double ai = p->flops / p->bytes, att = fmin(peak, ai * bw);
    char reach[96] = "";
    if (p->gflops > 0) {
        fmt_rate(r1, sizeof r1, p->gflops, "FLOP/s");
        snprintf(reach, sizeof reach, ", reached %s (%.0f%% of the roof)", r1,
                 100 * p->gflops / att);
    }
    fmt_rate(r2, sizeof r2, att, "FLOP/s");
    snprintf(buf, sizeof buf, "%c %s: %.3g FLOP/B, %s-bound", 'a' + a->nroof - 1, p->kernel, ai,
             ai < peak / bw ? "memory" : "compute");
    view_put(win, y, x, w, buf, term_attr(TC_GOOD));
    snprintf(buf, sizeof buf, "  at most %s%s (bytes: %s)", r2, reach,
             p->from_sectors ? "global sectors x 32" : "the launch's bytes_moved");
    view_put(win, y + 1, x, w, buf, term_attr(TC_GOOD));
    earlier_draw(win, a, a->nroof - 1, y + 2, x, w);
}

void view_roofline_draw(WINDOW *win, const app *a, const trace_t *t, int y, int x, int h, int w,
                        struct view_metrics *vm)
{
    (void)t;
    (void)vm;
    double bw = 0, peak = 0;
    const char *device = "";
    if (a->have_run)
        run_peaks(a, &bw, &peak, &device);
    else if (a->backend_known) {
        bw = a->device.peak_bandwidth_gbs;
        peak = gl_peak_fp32_gflops(&a->device);
        device = a->device.name;
    }
    char buf[512], r1[32], r2[32];
    if (bw <= 0 || peak <= 0) {
        view_put(win, y, x, w,
                 a->have_run ? "the device's peak bandwidth or FLOP/s is not known"
                             : "press r: the roofline of the device, with this kernel on it",
                 term_attr(TC_DIM));
        return;
    }
    const double ridge = peak / bw;
    fmt_rate(r1, sizeof r1, bw, "B/s");
    fmt_rate(r2, sizeof r2, peak, "FLOP/s");
    snprintf(buf, sizeof buf, "%s, %s FP32, ridge %.3g FLOP/B: %s", r1, r2, ridge, device);
    view_put(win, y, x, w, buf, term_attr(TC_HEADING));
    /* the legend: the current run, and the earlier ones (dim) */
    const int legend = a->nroof > 1 ? 3 : 2;
    const int ph = h - 3 - legend; /* plot rows, then the x axis and its labels */
    const int lw = 7;              /* y labels */
    const int pw = w - lw - 1;
    if (ph < 5 || pw < 20) { /* no room for the plot: the legend alone */
        legend_draw(win, a, y + 1, x, w, bw, peak);
        return;
    }
    /* axes: intensity 0.01 .. 1000 FLOP/byte, wider to hold every point; FLOP/s from a
     * decade under the roof's lowest point to the decade over the peak */
    int dx0 = -2, dx1 = 3;
    for (int i = 0; i < a->nroof; i++) {
        const double li = log10(a->roof[i].flops / a->roof[i].bytes);
        if (li < dx0)
            dx0 = (int)floor(li);
        if (li > dx1)
            dx1 = (int)ceil(li);
    }
    const int dy1 = (int)ceil(log10(peak * 1.01));
    int dy0 = (int)floor(log10(bw * pow(10, dx0)));
    for (int i = 0; i < a->nroof; i++)
        if (a->roof[i].gflops > 0 && log10(a->roof[i].gflops) < dy0)
            dy0 = (int)floor(log10(a->roof[i].gflops));
    if (dy1 - dy0 < 1)
        dy0 = dy1 - 1;
#define COL(li) ((int)floor(((double)(li)-dx0) / (dx1 - dx0) * pw))
#define ROW(lg) (ph - 1 - (int)floor(((double)(lg)-dy0) / (dy1 - dy0) * ph))
    const int py = y + 1, px = x + lw + 1;
    /* y axis: a label at each decade's row */
    for (int d = dy0; d <= dy1; d++) {
        const int r = ROW(d); /* the row whose range starts at 10^d */
        if (r < 0 || r >= ph)
            continue;
        if (d >= 3)
            snprintf(buf, sizeof buf, "%*.0fT", lw - 1, pow(10, d - 3));
        else
            snprintf(buf, sizeof buf, "%*.0fG", lw - 1, pow(10, d));
        view_put(win, py + r, x, lw, buf, term_attr(TC_DIM));
    }
    for (int r = 0; r < ph; r++)
        view_put(win, py + r, px - 1, 1, "|", term_attr(TC_DIM));
    /* the roof: the bandwidth slope, then the compute ceiling; '+' at the ridge */
    const int ridge_col = COL(log10(ridge));
    for (int c = 0; c < pw; c++) {
        const double li = dx0 + (c + 0.5) / pw * (dx1 - dx0);
        const double att = fmin(peak, pow(10, li) * bw);
        const int r = ROW(log10(att));
        if (r < 0 || r >= ph)
            continue;
        const char *g = c == ridge_col ? "+" : att >= peak ? "-" : "/";
        view_put(win, py + r, px + c, 1, g, PLAIN);
    }
    /* the runs: earlier ones dim, the current bright; a letter each */
    for (int i = 0; i < a->nroof; i++) {
        const app_roof_point *p = &a->roof[i];
        const bool cur = p->gen == a->run_gen && a->have_run;
        const int attr = cur ? (int)(term_attr(TC_GOOD) | A_BOLD) : term_attr(TC_DIM);
        const double ai = p->flops / p->bytes;
        int c = COL(log10(ai));
        c = c < 0 ? 0 : c >= pw ? pw - 1 : c;
        char mark[2] = {(char)('a' + i), 0};
        if (p->gflops > 0) {
            int r = ROW(log10(p->gflops));
            r = r < 0 ? 0 : r >= ph ? ph - 1 : r;
            view_put(win, py + r, px + c, 1, mark, attr);
        } else {
            /* no clock: the line up to what the roof allows at this intensity */
            int top = ROW(log10(fmin(peak, ai * bw)));
            top = top < 0 ? 0 : top;
            for (int r = top + 1; r < ph; r++)
                view_put(win, py + r, px + c, 1, cur ? "|" : ":", attr);
            view_put(win, py + top, px + c, 1, mark, attr);
        }
    }
    /* x axis and its decades */
    const int ay = py + ph;
    for (int c = 0; c < pw; c++)
        view_put(win, ay, px + c, 1, "-", term_attr(TC_DIM));
    view_put(win, ay, px - 1, 1, "+", term_attr(TC_DIM));
    for (int d = dx0, free_col = 0; d <= dx1; d++) {
        char lab[16];
        axis_label(lab, sizeof lab, d);
        int c = COL(d);
        const int len = (int)strlen(lab);
        if (c + len > pw)
            c = pw - len;
        if (c < free_col)
            continue; /* no room beside the previous label */
        view_put(win, ay + 1, px + c, len, lab, term_attr(TC_DIM));
        free_col = c + len + 1;
    }
    view_put(win, ay + 1, x, lw, "FLOP/B", term_attr(TC_DIM)); /* the x axis' unit */
    legend_draw(win, a, ay + 2, x, w, bw, peak);
#undef COL
#undef ROW
}

int view_roofline_height(const app *a, int w)
{
    (void)a;
    (void)w;
    return 19;
}
