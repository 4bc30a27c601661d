/* arch.h — the GPU target of a compilation and a run (`--arch`, a spec's or a lesson's
 * "arch"): naming it, the features each target adds, and the errors that name them.
 *
 * A target is written sm_XY, compute_XY, XY or X.Y (compute capability X.Y). The
 * simulator models the targets it has a device profile for (sim.h sim_device_find);
 * the GPU runs PTX for its own compute capability or an older one. */
#ifndef GL_ARCH_H
#define GL_ARCH_H

#include <stddef.h>

#include "runtime/backend.h"
#include "runtime/gl.h"

/* The SM number of a target name ("sm_90", "compute_90", "90", "9.0", "sm_90a" -> 90),
 * or 0 when arch is not one. */
int gl_arch_sm(const char *arch);

/* A target the simulator models, canonically "sm_XY", into out (16 bytes). Returns 1,
 * or 0 with why = "'sm_70' is not a known target (known: sm_75, sm_80, sm_86, sm_89,
 * sm_90)". */
int gl_arch_known(const char *arch, char out[16], char *why, size_t whylen);

/* The targets the simulator models (sim.h device profiles), oldest first: how many, and
 * the i-th one's name ("sm_75"), the GPU it is modelled on ("Tesla T4 (Turing)") and its
 * properties as the simulator's device (info->name "gpulearn SIMT simulator: sm_75, ...").
 * Returns 1 when it is the simulator's default, 0 when not, -1 when there is no i-th. */
int gl_arch_target_count(void);
int gl_arch_target(int i, char name[16], char gpu[64], gl_device_info *info);

/* A device profile as the simulator's device properties. */
struct sim_device_model;
void gl_arch_device_info(const struct sim_device_model *d, gl_device_info *info);

/* Peak FP32 throughput of d, GFLOP/s: d->peak_fp32_gflops when set, else SMs x FP32 lanes
 * per SM (gl_fp32_lanes_per_sm) x 2 FLOPs per FMA x SM clock; 0 when the clock or the SM
 * count is unknown. */
double gl_peak_fp32_gflops(const gl_device_info *d);
/* FP32 lanes per SM of compute capability major.minor (CUDA C++ Programming Guide,
 * "Arithmetic Instructions" throughput table: 32-bit floating-point add, multiply,
 * multiply-add results per clock per SM): 64 on 6.0, 7.x and 8.0, else 128. */
int gl_fp32_lanes_per_sm(int major, int minor);

/* The SM number of the `.target sm_XY` directive of PTX text (PTX ISA §11.3.2
 * ".target"), or 0 when it has none. */
int gl_ptx_target_sm(const char *ptx);

/* A CUDA C identifier or PTX instruction that needs a newer target than some. */
typedef struct gl_arch_feature {
    const char *name; /* "__reduce_add_sync", or a PTX feature (sim.h ptx_feature:
                         "redux.sync", "cp.async.bulk") */
    int is_ptx;       /* 1: a PTX instruction (or special register, "%cluster"), 0: CUDA C */
    int first_sm;     /* the first target that has it: 80 */
    const char *cuda; /* is_ptx: what CUDA C writes that becomes it, or NULL */
} gl_arch_feature;

/* The feature whose name appears in text (a compiler's error message) as a whole
 * identifier and needs a target newer than target_sm: 1 with *out, else 0. PTX names
 * are the simulator's features (sim.h ptx_feature_at); of several, the one that needs
 * the newest target. */
int gl_arch_feature_in(const char *text, int target_sm, gl_arch_feature *out);

/* Checks that every instruction of parsed module m exists on target_sm, from the
 * module's decoded op facts (sim.h ptx_module_newer_feature: ptx_ops.def's first
 * target of each op and of its later forms, PTX ISA "Target ISA notes"): GL_OK (also
 * for m NULL), or GL_ERR_COMPILE with err->msg "k.cu:7: redux.sync (__reduce_*_sync)
 * needs sm_80 or newer; this run targets sm_75 (--arch)" (the source line from the
 * PTX's .loc where it has one, else the PTX line). source: the .cu path for the
 * message; origin: where the target came from ("--arch", "the spec's \"arch\"", ...). */
struct ptx_module;
gl_status gl_ptx_check_features(const struct ptx_module *m, int target_sm, const char *source,
                                const char *origin, gl_error *err);

#endif
