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

/* The roofline of device d into p (p->device is left alone): its DRAM bandwidth, L2 and
 * peak of each kind. The per-SM, per-clock figures are those of the simulator's profile
 * of d's compute capability (sim.h flops_per_clk), scaled by d's SMs and clock: for a
 * profile itself that gives its GPU's data sheet; for a GPU its own SMs and boost clock
 * (cuDeviceGetAttribute CLOCK_RATE), the low-precision tensor kinds at that clock times
 * the profile's tensor_clock_mhz / clock_mhz (an H100's or H200's 1980 MHz: 1830). A
 * compute capability without a profile gets the FP32 roof only (64 FP32 lanes per SM on
 * 6.0, 7.x and 8.0, else 128); an unknown clock or SM count none. */
void gl_arch_peaks(const gl_device_info *d, gl_peaks *p);
/* The roofline of a simulator's device profile d: gl_arch_peaks of its properties, and
 * p->device "A100 (Ampere), sm_80". */
void gl_arch_profile_peaks(const struct sim_device_model *d, gl_peaks *p);
/* The roofline of the device a simulator run of spec with opts models (gl_run_profile's
 * precedence: --arch, the spec's "arch", the default), as gl_arch_profile_peaks. */
void gl_arch_run_peaks(const gl_spec *spec, const gl_run_opts *opts, gl_peaks *p);
/* "FP32", "FP64", "FP16", "f16 tensor", "bf16 tensor", "tf32 tensor", "int8 tensor",
 * "fp8 tensor", "f64 tensor". */
const char *gl_arch_roof_name(gl_roof r);

/* The SM number of the `.target sm_XY` directive of PTX text (PTX ISA §11.3.2
 * ".target"), or 0 when it has none. */
int gl_arch_ptx_target_sm(const char *ptx);

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
gl_status gl_arch_check_ptx_features(const struct ptx_module *m, int target_sm, const char *source,
                                     const char *origin, gl_error *err);

#endif
