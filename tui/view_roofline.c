/* view_roofline.c — the roofline view: the device's roofline on log-log axes (attainable
 * FLOP/s = min(peak FLOP/s, arithmetic intensity x DRAM bandwidth); Williams, Waterman and
 * Patterson, "Roofline", CACM 2009; Nsight Compute Profiling Guide, "Roofline Charts")
 * with the lesson's runs on this device placed on it at their intensity.
 *
 * A run's point: its FLOPs (counted over every event of the trace by kind, else the
 * launch's "flops") over its bytes of DRAM traffic (the DRAM model of the device's L2,
 * trace/dram.h, over every global request; else the global sectors x 32 or the launch's
 * "bytes_moved", and the legend says which). It is judged against the roof of the work it
 * does: the FP32, FP64 or FP16 units' or the tensor cores' of its input type; a kernel
 * doing several kinds against the one whose FLOPs take longest at its peak, the unit it
 * keeps busiest. The current run is bright, earlier ones of the lesson on the same device
 * dim, so a kernel is seen to move. On the GPU a run sits at the FLOP/s it reached; the
 * simulator has no clock, so there a run is a vertical line up to the roof at its
 * intensity. Too few rows for the full chart (80x24) draw a compact one: axes, roofs,
 * points and a one-line verdict. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "runtime/arch.h"
#include "trace/analysis.h"
#include "tui/view_common.h"

/* The roof of a kind of FLOP of the trace's instruction facts (trace.h TRACE_FLOP_*):
 * bf16 arithmetic runs on the FP16 units; int4 and b1 tensor operations are judged on
 * the int8 roof (no data sheet of a profile's GPU gives them a dense figure of their own
 * that this view shows); -1 for none. */
static int flop_roof(int kind)
{
    switch (kind) {
    case TRACE_FLOP_FP32: return GL_ROOF_FP32;
    case TRACE_FLOP_FP64: return GL_ROOF_FP64;
    case TRACE_FLOP_FP16:
    case TRACE_FLOP_BF16: return GL_ROOF_FP16;
    case TRACE_FLOP_TENSOR_F16: return GL_ROOF_TC_F16;
    case TRACE_FLOP_TENSOR_BF16: return GL_ROOF_TC_BF16;
    case TRACE_FLOP_TENSOR_TF32: return GL_ROOF_TC_TF32;
    case TRACE_FLOP_TENSOR_F64: return GL_ROOF_TC_F64;
    case TRACE_FLOP_TENSOR_INT8:
    case TRACE_FLOP_TENSOR_INT4:
    case TRACE_FLOP_TENSOR_B1: return GL_ROOF_TC_INT8;
    case TRACE_FLOP_TENSOR_FP8: return GL_ROOF_TC_FP8;
    default: return -1;
    }
}

/* The FLOPs of instruction ti issued with `on` lanes whose guard is true. */
static double insn_flops(const trace_insn *ti, int on)
{
    if (TRACE_FLOP_IS_TENSOR(ti->flop_kind))
        return on ? (double)ti->mma_flops : 0;
    return (double)ti->flops * on;
}

/* The FLOPs of the last run by roof (kind[GL_ROOFS], 0 where none), as its metrics
 * counted them over every event (trace/analysis.h gl_flops; none in a GPU trace, which
 * has no issue events). */
static void run_flops(const gl_metrics *m, double kind[GL_ROOFS])
{
    memset(kind, 0, GL_ROOFS * sizeof kind[0]);
    for (int k = TRACE_FLOP_NONE + 1; m && k < TRACE_FLOP_COUNT; k++)
        if (flop_roof(k) >= 0)
            kind[flop_roof(k)] += (double)gl_flops(&m->total, k);
}

/* The target a run started now would model (app_start_run's choice). */
static void run_target(const app *a, gl_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->compile.arch = a->opts.arch;
    if (!o->compile.arch && app_on_exercise(a) && a->lesson)
        o->compile.arch = lesson_exercise_arch(a->lesson);
}

/* The roofline the view draws: the device of the step's last run, else the one a run
 * would use now (the GPU, or the simulator's profile of the step's target). Zeros when
 * none is known. */
static void view_peaks(const app *a, gl_peaks *pk)
{
    memset(pk, 0, sizeof *pk);
    if (a->have_run && a->run.peaks.gbs > 0) {
        *pk = a->run.peaks;
        return;
    }
    const bool gpu = a->have_run ? a->run.backend == GL_BACKEND_GPU
                                 : a->backend_known && !a->device.is_simulator &&
                                       a->opts.backend != GL_BACKEND_SIM;
    if (gpu && a->backend_known && !a->device.is_simulator) {
        gl_arch_peaks(&a->device, pk);
        snprintf(pk->device, sizeof pk->device, "%.79s", a->device.name);
    } else if (a->have_spec) {
        gl_run_opts o;
        run_target(a, &o);
        gl_arch_run_peaks(&a->spec, &o, pk);
    }
}

static const char *lesson_id(const app *a)
{
    return a->lesson && a->lesson->id ? a->lesson->id : "";
}

/* The roof a run's FLOPs are judged against: of the kinds it did, the one whose FLOPs
 * take longest at that kind's peak. A kind the device has no unit for counts on the
 * units that run it (f64 mma on the FP64 units where there are no FP64 tensor cores,
 * the rest on the FP32 ones). */
static gl_roof judged_roof(const double kind[GL_ROOFS], const gl_peaks *pk)
{
    double on[GL_ROOFS] = {0}; /* FLOPs by the units that run them */
    for (int k = 0; k < GL_ROOFS; k++)
        if (kind[k] > 0)
            on[pk->gflops[k] > 0     ? k
               : k == GL_ROOF_TC_F64 ? GL_ROOF_FP64
                                     : GL_ROOF_FP32] += kind[k];
    int best = GL_ROOF_FP32;
    double longest = 0;
    for (int r = 0; r < GL_ROOFS; r++)
        if (on[r] > 0 && pk->gflops[r] > 0 && on[r] / pk->gflops[r] > longest)
            best = r, longest = on[r] / pk->gflops[r];
    return (gl_roof)best;
}

/* The roof for a run whose FLOPs were not counted (a GPU trace has no issue events):
 * judged_roof of the FLOPs each of the kernel's instructions does once per warp, which
 * the tensor cores' kinds dominate; FP32 when it has none. */
static gl_roof insns_roof(const trace_t *t, const gl_peaks *pk)
{
    double kind[GL_ROOFS] = {0};
    for (int pc = 0; t && pc < t->ninsns; pc++) {
        const int r = flop_roof(t->insns[pc].flop_kind);
        if (r >= 0)
            kind[r] += insn_flops(&t->insns[pc], WARP);
    }
    return judged_roof(kind, pk);
}

void view_roofline_record(const app *a)
{
    view_roofline_state *R = view_of(VIEW_ROOFLINE)->state;
    if (!a->have_run || a->run_status != GL_OK || !a->have_spec)
        return;
    view_roof_point p = {0};
    gl_peaks pk;
    view_peaks(a, &pk);
    snprintf(p.kernel, sizeof p.kernel, "%.63s", a->run_kernel[0] ? a->run_kernel : a->spec.kernel);
    snprintf(p.lesson, sizeof p.lesson, "%.63s", lesson_id(a));
    snprintf(p.device, sizeof p.device, "%s", pk.device);
    /* FLOPs: counted over the run, by kind; else the launch's */
    const gl_metrics *m = a->run.metrics;
    run_flops(m, p.kind);
    for (int k = 0; k < GL_ROOFS; k++)
        p.flops += p.kind[k];
    p.declared = a->spec.flops;
    if (p.flops > 0) {
        p.roof = judged_roof(p.kind, &pk);
    } else {
        p.flops = a->spec.flops;
        p.roof = insns_roof(a->run.trace, &pk);
        p.roof_from_insns = true;
    }
    /* bytes: the DRAM model, else the sectors, else the launch's */
    const double dram = m ? (double)(m->total.dram_read_bytes + m->total.dram_write_bytes) : 0;
    const double sectors = m ? 32.0 * (double)gl_global_sectors(&m->total) : 0;
    const bool cut = m && m->incomplete;
    p.sector_bytes = sectors;
    if (cut && a->spec.bytes_moved > 0) {
        p.bytes = a->spec.bytes_moved, p.bytes_from = ROOF_BYTES_SPEC;
    } else if (dram > 0) {
        p.bytes = dram, p.bytes_from = ROOF_BYTES_DRAM, p.l2_bytes = pk.l2_bytes, p.cut = cut;
    } else if (sectors > 0) {
        p.bytes = sectors, p.bytes_from = ROOF_BYTES_SECTORS, p.cut = cut;
    } else {
        p.bytes = a->spec.bytes_moved, p.bytes_from = ROOF_BYTES_SPEC;
    }
    if (p.flops <= 0 || p.bytes <= 0)
        return;
    if (a->run.backend == GL_BACKEND_GPU && a->run.elapsed_ms > 0)
        p.gflops = p.flops / (a->run.elapsed_ms * 1e6);
    p.gen = a->run_gen;
    /* a run again of the same kernel at the same intensity replaces its point */
    int n = R->n;
    for (int i = 0; i < n; i++) {
        const view_roof_point *q = &R->pt[i];
        if (strcmp(q->kernel, p.kernel) == 0 && strcmp(q->lesson, p.lesson) == 0 &&
            strcmp(q->device, p.device) == 0 &&
            fabs(q->flops / q->bytes - p.flops / p.bytes) <= 1e-9 * (p.flops / p.bytes)) {
            memmove(&R->pt[i], &R->pt[i + 1], (size_t)(n - i - 1) * sizeof R->pt[0]);
            n--;
            break;
        }
    }
    if (n == VIEW_MAX_ROOF) {
        memmove(&R->pt[0], &R->pt[1], (size_t)(n - 1) * sizeof R->pt[0]);
        n--;
    }
    R->pt[n] = p;
    R->n = n + 1;
}

/* The points of the current lesson on device pk, oldest first, into idx (their indexes
 * in R->pt); how many. */
static int shown_points(const view_roofline_state *R, const app *a, const gl_peaks *pk,
                        int idx[VIEW_MAX_ROOF])
{
    int n = 0;
    for (int i = 0; i < R->n; i++)
        if (strcmp(R->pt[i].lesson, lesson_id(a)) == 0 && strcmp(R->pt[i].device, pk->device) == 0)
            idx[n++] = i;
    return n;
}

/* Numbers on the axes: 0.01 0.1 1 10 100 1000, then 1e4 ... */
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
    if (g >= 1e6)
        snprintf(buf, len, "%.3g P%s", g / 1e6, unit);
    else if (g >= 1000)
        snprintf(buf, len, "%.3g T%s", g / 1000, unit);
    else
        snprintf(buf, len, "%.3g G%s", g, unit);
}

/* The unit of a roof's rate: integer operations for int8. */
static const char *roof_unit(int roof)
{
    return roof == GL_ROOF_TC_INT8 ? "OP/s" : "FLOP/s";
}

/* s at (y, x) wrapped at spaces to width w over at most rows rows (the last one cut),
 * the lines after the first indented by 2; returns the rows used. */
static int put_wrapped(WINDOW *win, int y, int x, int w, int rows, const char *s, int attr)
{
    int used = 0;
    while (*s && used < rows && w > 2) {
        const int in = used ? 2 : 0, lw = w - in;
        int n = (int)strlen(s);
        if (n > lw && used + 1 < rows) {
            n = lw;
            while (n > 0 && s[n] != ' ')
                n--;
            if (n == 0)
                n = lw;
        }
        char line[512];
        snprintf(line, sizeof line, "%.*s", n < (int)sizeof line - 1 ? n : (int)sizeof line - 1, s);
        view_put(win, y + used, x + in, lw, line, attr);
        used++;
        s += n;
        while (*s == ' ')
            s++;
    }
    return used;
}

/* Where a point's bytes came from, for the legend. */
static void bytes_label(char *buf, size_t len, const view_roof_point *p)
{
    if (p->bytes_from == ROOF_BYTES_DRAM)
        snprintf(buf, len, "DRAM, modelled (a %.0f MiB L2)%s, %.3g FLOP/B of global sectors",
                 (double)p->l2_bytes / (1024.0 * 1024.0), p->cut ? ", of a cut trace" : "",
                 p->flops / p->sector_bytes);
    else if (p->bytes_from == ROOF_BYTES_SECTORS)
        snprintf(buf, len, "global sectors x 32, not DRAM bytes%s",
                 p->cut ? ", of a cut trace" : "");
    else
        snprintf(buf, len, "the launch's bytes_moved");
}

/* What the legend adds about the current run's FLOPs, when there is something to add:
 * where they and the roof came from when they were not counted, the launch's "flops"
 * when the run did more or fewer, the mix of kinds and why that roof ("FLOPs: 97% f16
 * tensor, 3% FP32; judged on the f16 tensor roof, ..."). */
static void roof_reason(char *buf, size_t len, const view_roof_point *p)
{
    buf[0] = '\0';
    if (p->roof_from_insns) {
        snprintf(buf, len,
                 "FLOPs: the launch's \"flops\", its roof the kind of the kernel's "
                 "instructions");
        return;
    }
    size_t used = 0;
    if (p->declared > 0 && fabs(p->flops - p->declared) > 0.01 * p->declared)
        used = (size_t)snprintf(buf, len, "FLOPs: %.0f counted, the launch declares %.0f", p->flops,
                                p->declared);
    int kinds = 0;
    for (int k = 0; k < GL_ROOFS; k++)
        kinds += p->kind[k] > 0;
    if (kinds < 2 || used >= len)
        return;
    used += (size_t)snprintf(buf + used, len - used, "%s", used ? ";" : "FLOPs:");
    for (int k = 0; k < GL_ROOFS && used < len; k++)
        if (p->kind[k] > 0)
            used += (size_t)snprintf(buf + used, len - used, " %.0f%% %s,",
                                     100 * p->kind[k] / p->flops, gl_arch_roof_name((gl_roof)k));
    if (used < len)
        snprintf(buf + used - 1, len - used + 1,
                 "; judged on the %s roof, whose share takes "
                 "longest at its peak",
                 gl_arch_roof_name((gl_roof)p->roof));
}

/* "a vec_add: 0.0833 FLOP/B, memory-bound" for point p (letter c) against peak. */
static void verdict(char *buf, size_t len, const view_roof_point *p, char c, double bw, double peak)
{
    const double ai = p->flops / p->bytes;
    snprintf(buf, len, "%c %s: %.3g FLOP/B, %s-bound", c, p->kernel, ai,
             ai < peak / bw ? "memory" : "compute");
}

/* The legend at (y, x) in rows rows: the current run (where it sits, what bounds it, why
 * that roof, where its bytes came from) and the earlier runs, or why there is no point. */
static void legend_draw(WINDOW *win, const app *a, const view_roofline_state *R, const int *idx,
                        int n, bool current, int y, int x, int w, int rows, double bw, double peak)
{
    char buf[1024], r1[32], r2[32], bl[160], why[400];
    int used = 0;
    if (!current) {
        used = put_wrapped(
            win, y, x, w, rows,
            !a->have_run ? "r runs the kernel and places it at its FLOPs per byte of DRAM"
            : a->run_status != GL_OK
                ? "the run did not finish: it gives no point"
                : "this run gives no point: the launch declares no \"flops\" and the trace "
                  "counts none",
            term_attr(TC_DIM));
    } else {
        const view_roof_point *p = &R->pt[idx[n - 1]];
        const double ai = p->flops / p->bytes, att = fmin(peak, ai * bw);
        const int keep = n > 1 ? 1 : 0; /* a row for the earlier runs */
        verdict(buf, sizeof buf, p, (char)('a' + n - 1), bw, peak);
        used += put_wrapped(win, y, x, w, 1, buf, term_attr(TC_GOOD));
        char reach[96] = "";
        if (p->gflops > 0) {
            fmt_rate(r1, sizeof r1, p->gflops, roof_unit(p->roof));
            snprintf(reach, sizeof reach, ", reached %s (%.0f%% of it)", r1, 100 * p->gflops / att);
        }
        fmt_rate(r2, sizeof r2, att, roof_unit(p->roof));
        bytes_label(bl, sizeof bl, p);
        roof_reason(why, sizeof why, p);
        snprintf(buf, sizeof buf, "  at most %s under the %s roof%s; bytes: %s%s%s", r2,
                 gl_arch_roof_name((gl_roof)p->roof), reach, bl, why[0] ? "; " : "", why);
        used += put_wrapped(win, y + used, x, w, rows - used - keep, buf, term_attr(TC_GOOD));
        n--; /* the rest are earlier runs */
    }
    if (n > 0 && used < rows) {
        size_t o = (size_t)snprintf(buf, sizeof buf, "earlier:");
        for (int i = 0; i < n && o < sizeof buf; i++) {
            const view_roof_point *q = &R->pt[idx[i]];
            o += (size_t)snprintf(buf + o, sizeof buf - o, " %c %s %.3g", 'a' + i, q->kernel,
                                  q->flops / q->bytes);
        }
        put_wrapped(win, y + used, x, w, rows - used, buf, term_attr(TC_DIM));
    }
}

void view_roofline_draw(WINDOW *win, const app *a, void *self, const trace_t *t, int y, int x,
                        int h, int w)
{
    (void)t;
    const view_roofline_state *R = self;
    gl_peaks pk;
    view_peaks(a, &pk);
    int idx[VIEW_MAX_ROOF];
    const int n = shown_points(R, a, &pk, idx);
    const bool current = n > 0 && a->have_run && R->pt[idx[n - 1]].gen == a->run_gen;
    const int roof = current ? R->pt[idx[n - 1]].roof : GL_ROOF_FP32;
    const double bw = pk.gbs, peak = pk.gflops[roof], fp32 = pk.gflops[GL_ROOF_FP32];
    char buf[512], r1[32], r2[32];
    if (bw <= 0 || peak <= 0) {
        put_wrapped(win, y, x, w, h,
                    a->have_run ? "the device's peak bandwidth or FLOP/s is not known"
                                : "press r: the roofline of the device, with this kernel on it",
                    term_attr(TC_DIM));
        return;
    }
    const double ridge = peak / bw;
    /* the full chart: header, plot (at least 5 rows), x axis, its labels, a legend of 2+
     * rows; with fewer rows a compact one: header, plot, x axis with its labels, verdict */
    const int legend = h - 3 - 8 < 2 ? 2 : h - 3 - 8 > 5 ? 5 : h - 3 - 8;
    const bool compact = h - 3 - legend < 5;
    /* the header: the roof, the bandwidth, the ridge and the device, as much of it as
     * fits whole (a number or a name cut short would read as another) */
    fmt_rate(r1, sizeof r1, bw, "B/s");
    fmt_rate(r2, sizeof r2, peak, roof_unit(roof));
    if (compact) { /* "f16 tensor 312T, 1.55TB/s" */
        const double g = peak >= 1e6 ? peak / 1e6 : peak >= 1e3 ? peak / 1e3 : peak;
        snprintf(r2, sizeof r2, "%.3g%c", g, peak >= 1e6 ? 'P' : peak >= 1e3 ? 'T' : 'G');
        for (char *c = r1; (c = strchr(c, ' '));)
            memmove(c, c + 1, strlen(c));
    }
    char ridge_s[32];
    snprintf(ridge_s, sizeof ridge_s, compact ? "ridge %.3g" : "ridge %.3g FLOP/B", ridge);
    char head[5][256];
    const int dn = (int)strcspn(pk.device, "(,"); /* "H100 SXM (Hopper), sm_90": H100 SXM */
    snprintf(head[0], sizeof head[0], "%s %s, %s, %s: %s", gl_arch_roof_name(roof), r2, r1, ridge_s,
             pk.device);
    snprintf(head[1], sizeof head[1], "%s %s, %s, %s: %.*s", gl_arch_roof_name(roof), r2, r1,
             ridge_s, dn > 0 && pk.device[dn - 1] == ' ' ? dn - 1 : dn, pk.device);
    snprintf(head[2], sizeof head[2], "%s %s, %s, %s", gl_arch_roof_name(roof), r2, r1, ridge_s);
    snprintf(head[3], sizeof head[3], "%s %s, %s", gl_arch_roof_name(roof), r2, ridge_s);
    snprintf(head[4], sizeof head[4], "%s %s", gl_arch_roof_name(roof), r2);
    int hi = 0;
    while (hi < 4 && (int)strlen(head[hi]) > w)
        hi++;
    view_put(win, y, x, w, head[hi], term_attr(TC_HEADING));
    const int lw = compact ? 4 : 7; /* y labels */
    const int ph = compact ? h - 3 : h - 3 - legend;
    const int pw = w - lw - 1;
    if (ph < 2 || pw < 12) { /* no room for a plot: the legend alone */
        legend_draw(win, a, R, idx, n, current, y + 1, x, w, h - 1, bw, peak);
        return;
    }
    /* axes: intensity 0.01 .. 1000 FLOP/byte, wider to hold every point; FLOP/s from a
     * decade under the roof's lowest point to the decade over the highest roof drawn */
    int dx0 = -2, dx1 = 3;
    for (int i = 0; i < n; i++) {
        const double li = log10(R->pt[idx[i]].flops / R->pt[idx[i]].bytes);
        if (li < dx0)
            dx0 = (int)floor(li);
        if (li > dx1)
            dx1 = (int)ceil(li);
    }
    const double top = fmax(peak, fp32);
    const int dy1 = (int)ceil(log10(top * 1.01));
    int dy0 = (int)floor(log10(bw * pow(10, dx0)));
    for (int i = 0; i < n; i++)
        if (R->pt[idx[i]].gflops > 0 && log10(R->pt[idx[i]].gflops) < dy0)
            dy0 = (int)floor(log10(R->pt[idx[i]].gflops));
    if (dy1 - dy0 < 1)
        dy0 = dy1 - 1;
#define COL(li) ((int)floor(((double)(li)-dx0) / (dx1 - dx0) * pw))
#define ROW(lg) (ph - 1 - (int)floor(((double)(lg)-dy0) / (dy1 - dy0) * ph))
    const int py = y + 1, px = x + lw + 1;
    /* y axis: a label at each decade's row (every other one when rows are few) */
    const int ystep = ph < dy1 - dy0 + 1 ? 2 : 1;
    for (int d = dy1; d >= dy0; d -= ystep) {
        const int r = ROW(d); /* the row whose range starts at 10^d */
        if (r < 0 || r >= ph)
            continue;
        const double v = d >= 6 ? pow(10, d - 6) : d >= 3 ? pow(10, d - 3) : pow(10, d);
        snprintf(buf, sizeof buf, "%*.0f%s", lw - 1, v, d >= 6 ? "P" : d >= 3 ? "T" : "G");
        view_put(win, py + r, x, lw, buf, term_attr(TC_DIM));
    }
    for (int r = 0; r < ph; r++)
        view_put(win, py + r, px - 1, 1, "|", term_attr(TC_DIM));
    /* the FP32 roof, dim and named at its right end, where the run is judged against
     * another one */
    if (roof != GL_ROOF_FP32 && fp32 > 0 && ROW(log10(fp32)) >= 0 && ROW(log10(fp32)) < ph) {
        const int r = ROW(log10(fp32));
        for (int c = 0; c < pw; c++) {
            const double li = dx0 + (c + 0.5) / pw * (dx1 - dx0);
            if (pow(10, li) * bw >= fp32)
                view_put(win, py + r, px + c, 1, ".", term_attr(TC_DIM));
        }
        snprintf(buf, sizeof buf, "FP32 %.3g%c", fp32 >= 1e3 ? fp32 / 1e3 : fp32,
                 fp32 >= 1e3 ? 'T' : 'G');
        const int len = (int)strlen(buf);
        if (len < pw / 3)
            view_put(win, py + r, px + pw - len, len, buf, term_attr(TC_DIM));
    }
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
    for (int i = 0; i < n; i++) {
        const view_roof_point *p = &R->pt[idx[i]];
        const bool cur = current && i == n - 1;
        const int attr = cur ? (int)(term_attr(TC_GOOD) | A_BOLD) : term_attr(TC_DIM);
        const double ai = p->flops / p->bytes;
        const double cap = pk.gflops[p->roof] > 0 ? pk.gflops[p->roof] : peak;
        int c = COL(log10(ai));
        c = c < 0 ? 0 : c >= pw ? pw - 1 : c;
        char mark[2] = {(char)('a' + i), 0};
        if (p->gflops > 0) {
            int r = ROW(log10(p->gflops));
            r = r < 0 ? 0 : r >= ph ? ph - 1 : r;
            view_put(win, py + r, px + c, 1, mark, attr);
        } else {
            /* no clock: the line up to what its roof allows at this intensity */
            int rt = ROW(log10(fmin(cap, ai * bw)));
            rt = rt < 0 ? 0 : rt;
            for (int r = rt + 1; r < ph; r++)
                view_put(win, py + r, px + c, 1, cur ? "|" : ":", attr);
            view_put(win, py + rt, px + c, 1, mark, attr);
        }
    }
    /* x axis and its decades: under it, or on it in the compact chart */
    const int ay = py + ph, ly = compact ? ay : ay + 1;
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
        view_put(win, ly, px + c, len, lab, term_attr(TC_DIM));
        free_col = c + len + 1;
    }
    view_put(win, ly, x, lw, compact ? "F/B" : "FLOP/B", term_attr(TC_DIM)); /* the x unit */
    if (compact) {
        /* the verdict alone, or why there is no point */
        if (current) {
            const view_roof_point *p = &R->pt[idx[n - 1]];
            const double ai = p->flops / p->bytes;
            snprintf(buf, sizeof buf, "%c %s %.3g F/B: %s-bound", 'a' + n - 1, p->kernel, ai,
                     ai < ridge ? "memory" : "compute");
            if ((int)strlen(buf) > w) /* without the kernel's name */
                snprintf(buf, sizeof buf, "%c %.3g F/B: %s-bound", 'a' + n - 1, ai,
                         ai < ridge ? "memory" : "compute");
            view_put(win, ay + 1, x, w, buf, term_attr(TC_GOOD));
        } else {
            legend_draw(win, a, R, idx, n, false, ay + 1, x, w, 1, bw, peak);
        }
    } else {
        legend_draw(win, a, R, idx, n, current, ay + 2, x, w, h - (ay + 2 - y), bw, peak);
    }
#undef COL
#undef ROW
}

int view_roofline_height(const app *a, int w)
{
    (void)a;
    (void)w;
    return 19;
}
