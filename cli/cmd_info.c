/* cmd_info.c — `gpulearn info`: the GPU's properties, or the simulator's model, and the
 * targets (--arch) the simulator models. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "runtime/arch.h"

/* The simulator's default target: the profile gl_arch_target marks. */
static void default_sim_target(char out[16])
{
    char gpu[64];
    gl_device_info info;
    for (int i = 0; i < gl_arch_target_count(); i++)
        if (gl_arch_target(i, out, gpu, &info) == 1)
            return;
    out[0] = '\0';
}

/* The default target of a run on device d: a GPU's own compute capability, else the
 * simulator's default profile. */
static void default_target(const gl_device_info *d, char out[16])
{
    if (d->is_simulator)
        default_sim_target(out);
    else
        snprintf(out, 16, "sm_%d%d", d->compute_major, d->compute_minor);
}

/* The simulator's device profiles (runtime/arch.h targets) as a JSON array. */
static cJSON *targets_json(void)
{
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < gl_arch_target_count(); i++) {
        char name[16], gpu[64], cc[16];
        gl_device_info p;
        int is_default = gl_arch_target(i, name, gpu, &p);
        cJSON *o = cJSON_CreateObject();
        snprintf(cc, sizeof cc, "%d.%d", p.compute_major, p.compute_minor);
        cJSON_AddStringToObject(o, "name", name);
        cJSON_AddStringToObject(o, "gpu", gpu);
        cJSON_AddStringToObject(o, "compute_capability", cc);
        cJSON_AddNumberToObject(o, "sm_count", p.sm_count);
        cJSON_AddNumberToObject(o, "max_threads_per_sm", p.max_threads_per_sm);
        cJSON_AddNumberToObject(o, "max_blocks_per_sm", p.max_blocks_per_sm);
        cJSON_AddNumberToObject(o, "regs_per_sm", p.regs_per_sm);
        cJSON_AddNumberToObject(o, "shared_bytes_per_block", (double)p.shared_bytes_per_block);
        cJSON_AddNumberToObject(o, "shared_bytes_per_block_optin",
                                (double)p.shared_bytes_per_block_optin);
        cJSON_AddNumberToObject(o, "shared_bytes_per_sm", (double)p.shared_bytes_per_sm);
        cJSON_AddNumberToObject(o, "l2_bytes", (double)p.l2_bytes);
        cJSON_AddBoolToObject(o, "simulator_default", is_default == 1);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* The profiles as text, one line each, the default marked. */
static void targets_text(const char *deftarget)
{
    printf("targets (--arch, \"arch\"; the simulator models each):\n");
    for (int i = 0; i < gl_arch_target_count(); i++) {
        char name[16], gpu[64];
        gl_device_info p;
        gl_arch_target(i, name, gpu, &p);
        printf("  %-6s %-24s %3d SMs, %4d threads/SM, %zu KiB shared/SM (%zu KiB/block opted "
               "in), %zu MiB L2%s\n",
               name, gpu, p.sm_count, p.max_threads_per_sm, p.shared_bytes_per_sm >> 10,
               p.shared_bytes_per_block_optin >> 10, p.l2_bytes >> 20,
               strcmp(name, deftarget) == 0 ? "  (default)" : "");
    }
}

int cmd_info(int argc, char **argv)
{
    cli c = {0};
    int rc = cli_parse_args(argc, argv, &c, "--backend --json");
    if (rc)
        return rc;
    gl_device_info d;
    char note[512];
    gl_error err = {0};
    gl_status st = gl_run_device_query(c.backend, &d, note, sizeof note, &err);
    if (st != GL_OK)
        return cli_die(st, err.msg);
    if (note[0])
        fprintf(stderr, "gpulearn: %s\n", note);
    if (c.json) {
        /* Every field of gl_device_info (backend.h), sizes in bytes, clocks in kHz. */
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", d.name);
        cJSON_AddBoolToObject(o, "simulator", d.is_simulator);
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", d.compute_major, d.compute_minor);
        cJSON_AddStringToObject(o, "compute_capability", cc);
        cJSON_AddNumberToObject(o, "sm_count", d.sm_count);
        cJSON_AddNumberToObject(o, "warp_size", d.warp_size);
        cJSON_AddNumberToObject(o, "max_threads_per_block", d.max_threads_per_block);
        cJSON_AddNumberToObject(o, "max_threads_per_sm", d.max_threads_per_sm);
        cJSON_AddNumberToObject(o, "max_blocks_per_sm", d.max_blocks_per_sm);
        cJSON_AddItemToObject(o, "max_block_dim", cJSON_CreateIntArray(d.max_block_dim, 3));
        cJSON_AddItemToObject(o, "max_grid_dim", cJSON_CreateIntArray(d.max_grid_dim, 3));
        cJSON_AddNumberToObject(o, "regs_per_block", d.regs_per_block);
        cJSON_AddNumberToObject(o, "regs_per_sm", d.regs_per_sm);
        cJSON_AddNumberToObject(o, "shared_bytes_per_block", (double)d.shared_bytes_per_block);
        cJSON_AddNumberToObject(o, "shared_bytes_per_block_optin",
                                (double)d.shared_bytes_per_block_optin);
        cJSON_AddNumberToObject(o, "shared_bytes_per_sm", (double)d.shared_bytes_per_sm);
        cJSON_AddNumberToObject(o, "global_bytes", (double)d.global_bytes);
        cJSON_AddNumberToObject(o, "l2_bytes", (double)d.l2_bytes);
        cJSON_AddNumberToObject(o, "clock_khz", d.clock_khz);
        cJSON_AddNumberToObject(o, "mem_clock_khz", d.mem_clock_khz);
        cJSON_AddNumberToObject(o, "mem_bus_bits", d.mem_bus_bits);
        cJSON_AddNumberToObject(o, "peak_bandwidth_gbs", d.peak_bandwidth_gbs);
        cJSON_AddStringToObject(o, "driver", d.driver);
        char deftarget[16];
        default_target(&d, deftarget);
        cJSON_AddStringToObject(o, "default_target", deftarget);
        cJSON_AddItemToObject(o, "targets", targets_json());
        char *text = cJSON_Print(o);
        printf("%s\n", text);
        free(text);
        cJSON_Delete(o);
        return 0;
    }
    /* A value the driver did not report (0) is shown as "not reported". */
#define KNOWN(v) ((v) > 0)
    printf("%s%s\n", d.name, d.is_simulator ? " (the simulator's model of a GPU)" : "");
    if (d.driver[0])
        printf("  driver                  CUDA %s\n", d.driver);
    printf("  compute capability      %d.%d\n", d.compute_major, d.compute_minor);
    printf("  SMs                     %d\n", d.sm_count);
    printf("  warp size               %d threads\n", d.warp_size);
    printf("  max threads per block   %d\n", d.max_threads_per_block);
    printf("  max block dimensions    %d x %d x %d\n", d.max_block_dim[0], d.max_block_dim[1],
           d.max_block_dim[2]);
    printf("  max grid dimensions     %d x %d x %d\n", d.max_grid_dim[0], d.max_grid_dim[1],
           d.max_grid_dim[2]);
    printf("  shared memory per block %zu KiB", d.shared_bytes_per_block / 1024);
    if (KNOWN(d.shared_bytes_per_block_optin))
        printf(" (up to %zu KiB opted in)", d.shared_bytes_per_block_optin / 1024);
    printf("\n");
    printf("  max threads per SM      %d\n", d.max_threads_per_sm);
    if (KNOWN(d.max_blocks_per_sm))
        printf("  max blocks per SM       %d\n", d.max_blocks_per_sm);
    printf("  registers               %d per block, %d per SM\n", d.regs_per_block, d.regs_per_sm);
    printf("  shared memory per SM    %zu KiB\n", d.shared_bytes_per_sm / 1024);
    if (d.is_simulator)
        printf("  L2 cache                %.1f MiB\n", (double)d.l2_bytes / (1 << 20));
    if (!d.is_simulator) {
        printf("  global memory           %.1f GiB\n", (double)d.global_bytes / (1 << 30));
        printf("  L2 cache                %.1f MiB\n", (double)d.l2_bytes / (1 << 20));
        if (KNOWN(d.clock_khz))
            printf("  SM clock                %d MHz\n", d.clock_khz / 1000);
        else
            printf("  SM clock                not reported by the driver\n");
        if (KNOWN(d.mem_clock_khz) && KNOWN(d.mem_bus_bits)) {
            printf("  memory bus              %d bits at %d MHz\n", d.mem_bus_bits,
                   d.mem_clock_khz / 1000);
            printf("  theoretical bandwidth   %.0f GB/s (2 transfers per clock x %d MHz x "
                   "%d bits / 8)\n",
                   d.peak_bandwidth_gbs, d.mem_clock_khz / 1000, d.mem_bus_bits);
        } else {
            printf("  memory bus              not reported by the driver (no theoretical "
                   "bandwidth)\n");
        }
    }
#undef KNOWN
    char deftarget[16];
    default_target(&d, deftarget);
    printf("\n");
    targets_text(deftarget);
    if (!d.is_simulator) {
        char simdef[16];
        default_sim_target(simdef);
        printf("default target: %s, this GPU's own (the simulator's default: %s)\n", deftarget,
               simdef);
    }
    return 0;
}
