/* arch.c — GPU targets: names, the features each adds, the errors that name them. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/arch.h"
#include "sim/sim.h"

int gl_arch_sm(const char *arch)
{
    if (!arch)
        return 0;
    if (strncmp(arch, "compute_", 8) == 0)
        arch += 8;
    else if (strncmp(arch, "sm_", 3) == 0)
        arch += 3;
    if (arch[0] < '1' || arch[0] > '9')
        return 0;
    if (arch[1] == '.' && isdigit((unsigned char)arch[2]) && !arch[3])
        return (arch[0] - '0') * 10 + (arch[2] - '0');
    char *end;
    long n = strtol(arch, &end, 10);
    /* an architecture-specific suffix ("sm_90a") keeps the number */
    if (n < 10 || n > 999 || end - arch < 2 || (*end && (end[1] || !islower((unsigned char)*end))))
        return 0;
    return (int)n;
}

int gl_arch_known(const char *arch, char out[16], char *why, size_t whylen)
{
    const sim_device_model *d = sim_device_find(arch);
    if (d) {
        snprintf(out, 16, "%s", d->name);
        return 1;
    }
    char names[128];
    sim_device_names(names, sizeof names);
    snprintf(why, whylen, "'%s' is not a known target (known: %s)", arch ? arch : "", names);
    return 0;
}

void gl_arch_device_info(const sim_device_model *d, gl_device_info *info)
{
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "gpulearn SIMT simulator: %s, %s", d->name, d->gpu);
    info->is_simulator = 1;
    info->compute_major = d->compute_major;
    info->compute_minor = d->compute_minor;
    info->sm_count = d->sm_count;
    info->warp_size = d->warp_size;
    info->max_threads_per_block = d->max_threads_per_block;
    info->max_threads_per_sm = d->max_threads_per_sm;
    info->max_blocks_per_sm = d->max_blocks_per_sm;
    for (int i = 0; i < 3; i++) {
        info->max_block_dim[i] = d->max_block_dim[i];
        info->max_grid_dim[i] = (int)d->max_grid_dim[i];
    }
    info->shared_bytes_per_block = d->shared_bytes_per_block;
    info->shared_bytes_per_sm = d->shared_bytes_per_sm;
    info->shared_reserved_per_block = d->shared_reserved_per_block;
    info->shared_alloc_unit = d->shared_alloc_unit;
    info->shared_bytes_per_block_optin = d->shared_bytes_per_block_optin;
    info->regs_per_sm = d->regs_per_sm;
    info->regs_per_block = d->regs_per_sm; /* 64 K per block too on 7.5 - 9.0 */
    info->regs_per_thread = d->regs_per_thread;
    info->reg_alloc_unit = d->reg_alloc_unit;
    info->sm_partitions = d->sm_partitions;
    info->l2_bytes = d->l2_bytes;
    info->clock_khz = d->clock_mhz * 1000;
    info->peak_bandwidth_gbs = d->dram_gbs;
}

const char *gl_arch_roof_name(gl_roof r)
{
    static const char *const names[GL_ROOFS] = {"FP32",        "FP64",        "FP16",
                                                "f16 tensor",  "bf16 tensor", "tf32 tensor",
                                                "int8 tensor", "fp8 tensor",  "f64 tensor"};
    return r >= 0 && r < GL_ROOFS ? names[r] : "?";
}

/* FP32 lanes per SM of compute capability major.minor (CUDA C++ Programming Guide,
 * "Arithmetic Instructions" throughput table: 32-bit floating-point add, multiply,
 * multiply-add results per clock per SM): 64 on 6.0, 7.x and 8.0, else 128. */
static int fp32_lanes_per_sm(int major, int minor)
{
    return (major == 6 && minor == 0) || major == 7 || (major == 8 && minor == 0) ? 64 : 128;
}

void gl_arch_peaks(const gl_device_info *d, gl_peaks *p)
{
    p->gbs = d->peak_bandwidth_gbs;
    p->l2_bytes = d->l2_bytes;
    memset(p->gflops, 0, sizeof p->gflops);
    if (d->sm_count <= 0 || d->clock_khz <= 0 || d->compute_major <= 0)
        return;
    char name[16];
    snprintf(name, sizeof name, "sm_%d%d", d->compute_major, d->compute_minor);
    const sim_device_model *m = sim_device_find(name);
    const double mhz = d->clock_khz / 1e3;
    if (!m) {
        p->gflops[GL_ROOF_FP32] = (double)d->sm_count *
                                  fp32_lanes_per_sm(d->compute_major, d->compute_minor) * 2 * mhz /
                                  1e3;
        return;
    }
    for (int k = 0; k < GL_ROOFS; k++) {
        const int low_tensor = k >= GL_ROOF_TC_F16 && k <= GL_ROOF_TC_FP8;
        const double clk = low_tensor ? mhz * m->tensor_clock_mhz / m->clock_mhz : mhz;
        p->gflops[k] = (double)d->sm_count * m->flops_per_clk[k] * clk / 1e3;
    }
}

void gl_arch_profile_peaks(const sim_device_model *d, gl_peaks *p)
{
    gl_device_info info;
    gl_arch_device_info(d, &info);
    gl_arch_peaks(&info, p);
    snprintf(p->device, sizeof p->device, "%s, %s", d->gpu, d->name);
}

void gl_arch_run_peaks(const gl_spec *spec, const gl_run_opts *opts, gl_peaks *p)
{
    const char *origin = NULL;
    gl_arch_profile_peaks(gl_run_profile(spec, opts, &origin), p);
}

int gl_arch_target_count(void)
{
    return sim_device_count();
}

int gl_arch_target(int i, char name[16], char gpu[64], gl_device_info *info)
{
    const sim_device_model *d = sim_device_at(i);
    if (!d)
        return -1;
    snprintf(name, 16, "%s", d->name);
    snprintf(gpu, 64, "%s", d->gpu);
    gl_arch_device_info(d, info);
    return d == sim_device();
}

int gl_arch_ptx_target_sm(const char *ptx)
{
    return ptx ? ptx_text_target_sm(ptx, strlen(ptx)) : 0;
}

/* What CUDA C writes that becomes a PTX feature (the simulator's feature names,
 * sim.h ptx_feature), for messages. */
static const struct {
    const char *ptx, *cuda;
} cuda_spelling[] = {
    {"cp.async.bulk", "cuda::memcpy_async with TMA"},
    {"cp.async", "__pipeline_memcpy_async / cuda::memcpy_async"},
    {"mbarrier.try_wait", "cuda::barrier"},
    {"mbarrier.expect_tx", "cuda::barrier"},
    {"mbarrier", "cuda::barrier"},
    {"redux.sync", "__reduce_*_sync"},
    {"mapa", "cluster.map_shared_rank()"},
    {"getctarank", "cluster.block_rank()"},
    {"barrier.cluster", "cluster.sync()"},
    {"%cluster", "cooperative_groups::this_cluster()"},
};

/* The CUDA C identifiers that need a newer target, with the CUDA C++ Programming Guide
 * section that gives their compute capability. */
static const gl_arch_feature cuda_features[] = {
    /* "Warp Reduce Functions": compute capability 8.x and later */
    {"__reduce_add_sync", 0, 80, NULL},
    {"__reduce_min_sync", 0, 80, NULL},
    {"__reduce_max_sync", 0, 80, NULL},
    {"__reduce_and_sync", 0, 80, NULL},
    {"__reduce_or_sync", 0, 80, NULL},
    {"__reduce_xor_sync", 0, 80, NULL},
    /* "Thread Block Clusters": compute capability 9.0 */
    {"__cluster_dims__", 0, 90, NULL},
    {"this_cluster", 0, 90, NULL},
    {"__isClusterShared", 0, 90, NULL},
};

static int ident_char(int c)
{
    return isalnum(c) || c == '_';
}

/* Whether name occurs in text as a whole word (for a PTX name, followed by anything
 * but an identifier character: "redux.sync.add"). */
static int has_word(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; (p = strstr(p, name)); p++) {
        int before = p == text || (!ident_char((unsigned char)p[-1]) && p[-1] != '.');
        int after = !ident_char((unsigned char)p[n]) || name[0] == '%';
        if (before && after)
            return 1;
    }
    return 0;
}

/* The simulator's feature f (sim.h) as a gl_arch_feature. */
static gl_arch_feature from_ptx(const ptx_feature *f)
{
    gl_arch_feature g = {f->name, 1, f->first_sm, NULL};
    for (size_t i = 0; i < sizeof cuda_spelling / sizeof *cuda_spelling; i++)
        if (strcmp(cuda_spelling[i].ptx, f->name) == 0)
            g.cuda = cuda_spelling[i].cuda;
    return g;
}

int gl_arch_feature_in(const char *text, int target_sm, gl_arch_feature *out)
{
    for (size_t i = 0; text && i < sizeof cuda_features / sizeof *cuda_features; i++)
        if (cuda_features[i].first_sm > target_sm && has_word(text, cuda_features[i].name)) {
            *out = cuda_features[i];
            return 1;
        }
    /* PTX names: of the ones named, the form that needs the newest target
     * ("mbarrier.try_wait" over "mbarrier") */
    const ptx_feature *best = NULL;
    for (int i = 0; text && i < ptx_feature_count(); i++) {
        const ptx_feature *f = ptx_feature_at(i);
        if (f->first_sm > target_sm && (!best || f->first_sm > best->first_sm) &&
            has_word(text, f->name))
            best = f;
    }
    if (!best)
        return 0;
    *out = from_ptx(best);
    return 1;
}

gl_status gl_arch_check_ptx_features(const struct ptx_module *m, int target_sm, const char *source,
                                     const char *origin, gl_error *err)
{
    ptx_feature_use use;
    if (!m || !ptx_module_newer_feature(m, target_sm, &use))
        return GL_OK;
    const gl_arch_feature f = from_ptx(use.feature);
    char where[64];
    if (use.src_line > 0)
        snprintf(where, sizeof where, ":%d", use.src_line);
    else
        snprintf(where, sizeof where, " (PTX line %d)", use.ptx_line);
    char what[160];
    snprintf(what, sizeof what, "%s%s%s%s", f.name, f.cuda ? " (" : "", f.cuda ? f.cuda : "",
             f.cuda ? ")" : "");
    return gl_fail(err, GL_ERR_COMPILE,
                   "%s%s: %s needs sm_%d or newer; this run targets sm_%d (%s)",
                   gl_display_path(source), where, what, f.first_sm, target_sm,
                   origin ? origin : "the default");
}
