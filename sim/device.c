/* device.c — the device profiles the simulator models (sim.h sim_device_model).
 *
 * Every number is from the CUDA C++ Programming Guide, "Compute Capabilities", Table
 * "Technical Specifications per Compute Capability" (threads, blocks, warps, registers and
 * shared memory per SM and per block), its "Compute Capability 7.x/8.x/9.0" sections
 * ("Shared Memory": the opt-in maximum per block), and, for the SM count and L2 size of
 * the named GPU, NVIDIA's product data sheets / architecture whitepapers. Global memory
 * is accessed in 32-byte sectors on every one of them (CUDA C++ Best Practices Guide,
 * "Coalesced Access to Global Memory").
 *
 * The roofline: DRAM bandwidth and boost clock from each GPU's data sheet, and per SM
 * and clock (flops_per_clk, dense):
 *  - FP32: 2 FLOPs (one FMA) per FP32 lane: 64 lanes on 7.5 and 8.0, 128 on 8.6, 8.9
 *    and 9.0; FP64: 2 per FP64 result, 2 results per clock on 7.5, 8.6 and 8.9, 32 on
 *    8.0, 64 on 9.0 (CUDA C++ Programming Guide, "Arithmetic Instructions", throughput
 *    table: "32-bit / 64-bit floating-point add, multiply, multiply-add");
 *  - FP16 on the CUDA cores (half2 fma): 2x FP32 on 8.0 and 9.0, else 1x of the 8.6/8.9
 *    lanes and 2x of 7.5's (the data sheets' "FP16" or "half" figures: A100 78, H100
 *    133.8 TFLOP/s; the A10 and L4 at the FP32 rate);
 *  - tensor cores: the architecture whitepapers' dense FMA per SM per clock x 2 (Turing:
 *    8 tensor cores x 64 FP16 FMA; GA100: 4 x 256; GA102 and AD104: 4 x 128 (the
 *    data-centre parts' rate, FP32 accumulate); GH100: 4 x 512), tf32 at half the f16
 *    rate, int8 and fp8 at twice it, f64 (DMMA) 64 FMA per SM on GA100, 128 on GH100.
 * peak = SMs x flops_per_clk x clock gives each data sheet's dense figure (its sparse
 * figure halved): T4 8.1 FP32, 65 f16, 130 int8 TOP/s; A100 19.5 FP32, 9.7 FP64, 312
 * f16/bf16, 156 tf32, 624 int8, 19.5 f64 tensor; A10 31.2 FP32, 125 f16/bf16, 62.5
 * tf32, 250 int8; L4 30.3 FP32, 121 f16/bf16, 60 tf32, 242 fp8/int8; H100 SXM 66.9
 * FP32, 33.5 FP64, 66.9 f64 tensor at 1980 MHz and 989.4 f16/bf16, 494.7 tf32, 1979
 * fp8/int8 at 1830 MHz, the clock NVIDIA quotes its low-precision tensor figures at
 * (NVIDIA T4, A100, A10, L4 and H100 Tensor Core GPU data sheets; Turing, Ampere GA100,
 * Ampere GA102, Ada and Hopper architecture whitepapers).
 */
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"

#define KIB ((size_t)1024)
#define MIB (KIB * 1024)

/* Limits every profile shares (Technical Specifications table, compute capability 7.5
 * to 9.0): 1024 threads per block of at most 1024 x 1024 x 64, a grid of at most
 * (2^31-1) x 65535 x 65535 blocks, 48 KiB of static shared memory per block, warps of
 * 32 lanes, 255 registers per thread, 64 K registers per SM and per block. Registers are
 * allocated to a warp in units of 256, in one of the SM's 4 sub-partitions (each holds a
 * quarter of the SM's registers): the CUDA Occupancy Calculator's rules, as the CUDA
 * Toolkit's cuda_occupancy.h states them (cudaOccRegAllocationGranularity: 256 and
 * cudaOccSubPartitionsPerMultiprocessor: 4 for compute capability 7.x to 9.x,
 * cudaOccMaxBlocksPerSMRegsLimit), and Nsight Compute's "Block Limit Registers". */
#define COMMON                                                                                     \
    .warp_size = 32, .max_threads_per_block = 1024, .max_block_dim = {1024, 1024, 64},             \
    .max_grid_dim = {2147483647u, 65535u, 65535u}, .shared_bytes_per_block = 48 * KIB,             \
    .regs_per_sm = 65536, .regs_per_thread = 255, .reg_alloc_unit = 256, .sm_partitions = 4,       \
    .sector_bytes = 32

/* flops_per_clk in sim_roof order: FP32, FP64, FP16, tensor f16, bf16, tf32, int8, fp8,
 * f64 (the header comment gives each one's source). */
#define ROOFS(fp32, fp64, fp16, f16, bf16, tf32, int8, fp8, f64)                                   \
    .flops_per_clk = {fp32, fp64, fp16, f16, bf16, tf32, int8, fp8, f64}

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
     .shared_reserved_per_block = 0,
     .shared_alloc_unit = 256,
     .l2_bytes = 4 * MIB,
     /* T4 data sheet: 320 GB/s GDDR6, 1590 MHz boost; no bf16, tf32, fp8 or f64 tensor
      * cores (those PTX types need sm_80 / sm_89) */
     .clock_mhz = 1590,
     .tensor_clock_mhz = 1590,
     ROOFS(128, 4, 256, 1024, 0, 0, 2048, 0, 0),
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
     .shared_reserved_per_block = KIB,
     .shared_alloc_unit = 128,
     .l2_bytes = 40 * MIB,
     /* A100 40GB SXM data sheet: 1555 GB/s HBM2, 1410 MHz; no fp8 */
     .clock_mhz = 1410,
     .tensor_clock_mhz = 1410,
     ROOFS(128, 64, 512, 2048, 2048, 1024, 4096, 0, 128),
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
     .shared_reserved_per_block = KIB,
     .shared_alloc_unit = 128,
     .l2_bytes = 6 * MIB,
     /* A10 data sheet: 600 GB/s GDDR6, 1695 MHz; no fp8, no f64 tensor figure */
     .clock_mhz = 1695,
     .tensor_clock_mhz = 1695,
     ROOFS(256, 4, 256, 1024, 1024, 512, 2048, 0, 0),
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
     .shared_reserved_per_block = KIB,
     .shared_alloc_unit = 128,
     .l2_bytes = 48 * MIB,
     /* L4 data sheet: 300 GB/s GDDR6, 2040 MHz; no f64 tensor figure */
     .clock_mhz = 2040,
     .tensor_clock_mhz = 2040,
     ROOFS(256, 4, 256, 1024, 1024, 512, 2048, 2048, 0),
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
     .shared_reserved_per_block = KIB,
     .shared_alloc_unit = 128,
     .l2_bytes = 50 * MIB,
     /* H100 SXM5 data sheet: 3.35 TB/s HBM3, 1980 MHz, the low-precision tensor figures
      * at 1830 MHz */
     .clock_mhz = 1980,
     .tensor_clock_mhz = 1830,
     ROOFS(256, 128, 512, 4096, 4096, 2048, 8192, 8192, 256),
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
