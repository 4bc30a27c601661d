/* cmd_info.c — `gpulearn info`: the GPU's properties, or the simulator's model. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int cmd_info(int argc, char **argv)
{
    cli c = {0};
    int rc = cli_parse_args(argc, argv, &c, "--backend --json");
    if (rc)
        return rc;
    gl_device_info d;
    char note[512];
    gl_error err = {0};
    gl_status st = gl_device_query(c.backend, &d, note, sizeof note, &err);
    if (st != GL_OK)
        return cli_die(st, err.msg);
    if (note[0])
        fprintf(stderr, "gpulearn: %s\n", note);
    if (c.json) {
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
        cJSON_AddNumberToObject(o, "shared_bytes_per_block", (double)d.shared_bytes_per_block);
        cJSON_AddNumberToObject(o, "shared_bytes_per_sm", (double)d.shared_bytes_per_sm);
        cJSON_AddNumberToObject(o, "global_bytes", (double)d.global_bytes);
        cJSON_AddNumberToObject(o, "l2_bytes", (double)d.l2_bytes);
        cJSON_AddNumberToObject(o, "clock_khz", d.clock_khz);
        cJSON_AddNumberToObject(o, "mem_clock_khz", d.mem_clock_khz);
        cJSON_AddNumberToObject(o, "mem_bus_bits", d.mem_bus_bits);
        cJSON_AddNumberToObject(o, "peak_bandwidth_gbs", d.peak_bandwidth_gbs);
        char *text = cJSON_Print(o);
        printf("%s\n", text);
        free(text);
        cJSON_Delete(o);
        return 0;
    }
    printf("%s%s\n", d.name, d.is_simulator ? " (the simulator's model of a GPU)" : "");
    printf("  compute capability      %d.%d\n", d.compute_major, d.compute_minor);
    printf("  SMs                     %d\n", d.sm_count);
    printf("  warp size               %d threads\n", d.warp_size);
    printf("  max threads per block   %d\n", d.max_threads_per_block);
    printf("  max block dimensions    %d x %d x %d\n", d.max_block_dim[0], d.max_block_dim[1],
           d.max_block_dim[2]);
    printf("  shared memory per block %zu KiB\n", d.shared_bytes_per_block / 1024);
    if (!d.is_simulator) {
        printf("  max threads per SM      %d\n", d.max_threads_per_sm);
        printf("  shared memory per SM    %zu KiB\n", d.shared_bytes_per_sm / 1024);
        printf("  global memory           %.1f GiB\n", (double)d.global_bytes / (1 << 30));
        printf("  L2 cache                %zu MiB\n", d.l2_bytes >> 20);
        printf("  SM clock                %d MHz\n", d.clock_khz / 1000);
        printf("  memory bus              %d bits at %d MHz\n", d.mem_bus_bits,
               d.mem_clock_khz / 1000);
        printf("  theoretical bandwidth   %.0f GB/s\n", d.peak_bandwidth_gbs);
    }
    return 0;
}

