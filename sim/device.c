/* device.c — the device profiles the simulator models (sim.h sim_device_model).
 *
 * Every number is from the CUDA C++ Programming Guide, "Compute Capabilities", Table
 * "Technical Specifications per Compute Capability" (threads, blocks, warps, registers and
 * shared memory per SM and per block), its "Compute Capability 7.x/8.x/9.0" sections
 * ("Shared Memory": the opt-in maximum per block), and, for the SM count and L2 size of
 * the named GPU, NVIDIA's product data sheets / architecture whitepapers. The roofline
 * (boost clock, FP32 lanes per SM, DRAM bandwidth) is from the same data sheets and
 * whitepapers: peak FP32 = SMs x lanes x 2 FLOPs (one FMA) x clock, which gives each data
 * sheet's FP32 figure (T4 8.1, A100 19.5, A10 31.2, L4 30.3, H100 SXM 67 TFLOP/s). Global memory
 * is accessed in 32-byte sectors on every one of them (CUDA C++ Best Practices Guide,
 * "Coalesced Access to Global Memory").
 */
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"

#define KIB ((size_t)1024)
#define MIB (KIB * 1024)

/* Limits every profile shares (Technical Specifications table, compute capability 7.5
 * to 9.0): 1024 threads per block of at most 1024 x 1024 x 64, a grid of at most
 * (2^31-1) x 65535 x 65535 blocks, 48 KiB of static shared memory per block, warps of
 * 32 lanes, 255 registers per thread. */
#define COMMON                                                                                     \
    .warp_size = 32, .max_threads_per_block = 1024, .max_block_dim = {1024, 1024, 64},             \
    .max_grid_dim = {2147483647u, 65535u, 65535u}, .shared_bytes_per_block = 48 * KIB,             \
    .regs_per_sm = 65536, .regs_per_thread = 255, .sector_bytes = 32

static const sim_device_model profiles[] = {
    /* Turing: Tesla T4 (40 SMs, 4 MiB L2). 7.5: 1024 threads, 16 blocks, 32 warps per
     * SM; 64 KiB shared per SM, a block may opt in to all of it. */
    {.name = "sm_75",
     .gpu = "Tesla T4 (Turing)",
     .compute_major = 7,
     .compute_minor = 5,
     .sm_count = 40,
     .max_threads_per_sm = 1024,
     .max_blocks_per_sm = 16,
     .max_warps_per_sm = 32,
     .shared_bytes_per_block_optin = 64 * KIB,
     .shared_bytes_per_sm = 64 * KIB,
     .l2_bytes = 4 * MIB,
     /* T4 data sheet: 320 GB/s GDDR6, 1590 MHz boost; Turing whitepaper: 64 FP32 lanes per SM */
     .clock_mhz = 1590,
     .fp32_lanes_per_sm = 64,
     .dram_gbs = 320,
     COMMON},
    /* Ampere: A100 SXM (108 SMs, 40 MiB L2). 8.0: 2048 threads, 32 blocks, 64 warps per
     * SM; 164 KiB shared per SM, 163 KiB opt-in per block. */
    {.name = "sm_80",
     .gpu = "A100 (Ampere)",
     .compute_major = 8,
     .compute_minor = 0,
     .sm_count = 108,
     .max_threads_per_sm = 2048,
     .max_blocks_per_sm = 32,
     .max_warps_per_sm = 64,
     .shared_bytes_per_block_optin = 163 * KIB,
     .shared_bytes_per_sm = 164 * KIB,
     .l2_bytes = 40 * MIB,
     /* A100 40GB SXM: 1555 GB/s HBM2, 1410 MHz; Ampere GA100 whitepaper: 64 FP32 lanes per SM */
     .clock_mhz = 1410,
     .fp32_lanes_per_sm = 64,
     .dram_gbs = 1555,
     COMMON},
    /* Ampere: A10 (72 SMs, 6 MiB L2; an RTX 3080-class part). 8.6: 1536 threads, 16
     * blocks, 48 warps per SM; 100 KiB shared per SM, 99 KiB opt-in per block. */
    {.name = "sm_86",
     .gpu = "A10 / RTX 30xx (Ampere)",
     .compute_major = 8,
     .compute_minor = 6,
     .sm_count = 72,
     .max_threads_per_sm = 1536,
     .max_blocks_per_sm = 16,
     .max_warps_per_sm = 48,
     .shared_bytes_per_block_optin = 99 * KIB,
     .shared_bytes_per_sm = 100 * KIB,
     .l2_bytes = 6 * MIB,
     /* A10 data sheet: 600 GB/s GDDR6, 1695 MHz; GA102 whitepaper: 128 FP32 lanes per SM */
     .clock_mhz = 1695,
     .fp32_lanes_per_sm = 128,
     .dram_gbs = 600,
     COMMON},
    /* Ada Lovelace: L4 (58 SMs, 48 MiB L2; RTX 40xx-class). 8.9: 1536 threads, 24 blocks,
     * 48 warps per SM; 100 KiB shared per SM, 99 KiB opt-in per block. */
    {.name = "sm_89",
     .gpu = "L4 / RTX 40xx (Ada)",
     .compute_major = 8,
     .compute_minor = 9,
     .sm_count = 58,
     .max_threads_per_sm = 1536,
     .max_blocks_per_sm = 24,
     .max_warps_per_sm = 48,
     .shared_bytes_per_block_optin = 99 * KIB,
     .shared_bytes_per_sm = 100 * KIB,
     .l2_bytes = 48 * MIB,
     /* L4 data sheet: 300 GB/s GDDR6, 2040 MHz; Ada whitepaper: 128 FP32 lanes per SM */
     .clock_mhz = 2040,
     .fp32_lanes_per_sm = 128,
     .dram_gbs = 300,
     COMMON},
    /* Hopper: H100 SXM5 (132 SMs, 50 MiB L2). 9.0: 2048 threads, 32 blocks, 64 warps per
     * SM; 228 KiB shared per SM, 227 KiB opt-in per block. */
    {.name = "sm_90",
     .gpu = "H100 SXM (Hopper)",
     .compute_major = 9,
     .compute_minor = 0,
     .sm_count = 132,
     .max_threads_per_sm = 2048,
     .max_blocks_per_sm = 32,
     .max_warps_per_sm = 64,
     .shared_bytes_per_block_optin = 227 * KIB,
     .shared_bytes_per_sm = 228 * KIB,
     .l2_bytes = 50 * MIB,
     /* H100 SXM5 data sheet: 3.35 TB/s HBM3, 1980 MHz; Hopper whitepaper: 128 FP32 lanes per SM */
     .clock_mhz = 1980,
     .fp32_lanes_per_sm = 128,
     .dram_gbs = 3350,
     COMMON},
};

#define NPROFILES ((int)(sizeof profiles / sizeof profiles[0]))
#define DEFAULT_PROFILE (NPROFILES - 1) /* sm_90: "a recent one" */

const sim_device_model *sim_device(void)
{
    return &profiles[DEFAULT_PROFILE];
}

int sim_device_count(void)
{
    return NPROFILES;
}

const sim_device_model *sim_device_at(int i)
{
    return i >= 0 && i < NPROFILES ? &profiles[i] : NULL;
}

const sim_device_model *sim_device_find(const char *name)
{
    if (!name)
        return NULL;
    int major = 0, minor = 0, used = 0;
    if (strncmp(name, "compute_", 8) == 0)
        name += 8;
    else if (strncmp(name, "sm_", 3) == 0)
        name += 3;
    /* "8.0", or two digits "80" (major, minor) */
    if (name[0] >= '1' && name[0] <= '9' && sscanf(name, "%1d.%1d%n", &major, &minor, &used) == 2 &&
        name[used] == '\0') {
    } else if (strlen(name) == 2 && name[0] >= '1' && name[0] <= '9' && name[1] >= '0' &&
               name[1] <= '9') {
        major = name[0] - '0';
        minor = name[1] - '0';
    } else {
        return NULL;
    }
    for (int i = 0; i < NPROFILES; i++)
        if (profiles[i].compute_major == major && profiles[i].compute_minor == minor)
            return &profiles[i];
    return NULL;
}

void sim_device_names(char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int i = 0; i < NPROFILES && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", profiles[i].name);
}
