// The memory requests the metrics count beside ld/st (trace/analysis.h): cp.async (PTX
// ISA §9.7.9.25.3) of 16 and 4 bytes, with a bank conflict on the shared side and with a
// src-size of 0 (zero fill), the same 16-byte copy through registers (ld.global.v4 /
// st.shared.v4), and atom against red (an atomic whose result is unused).
__device__ __forceinline__ unsigned saddr(const void *p)
{
    unsigned a;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
    return a;
}

// Blocks of 64: each warp copies 32 x 16 contiguous bytes with one cp.async.cg (16
// sectors), then stores them with one st.global.v4.f32 (16 sectors).
extern "C" __global__ void async_copy16(const float4 *in, float4 *out)
{
    __shared__ __attribute__((aligned(16))) float4 tile[64];
    const int t = threadIdx.x, i = blockIdx.x * 64 + t;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(saddr(&tile[t])), "l"(in + i));
    asm volatile("cp.async.commit_group;");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    out[i] = tile[t];
}

// The same copy through registers: ld.global.v4.f32, st.shared.v4.f32.
extern "C" __global__ void sync_copy16(const float4 *in, float4 *out)
{
    __shared__ float4 tile[64];
    const int t = threadIdx.x, i = blockIdx.x * 64 + t;
    tile[t] = in[i];
    __syncthreads();
    out[i] = tile[t];
}

// One warp: lane t copies in[t] to tile[2t], a stride of two words: two lanes per bank,
// a 2-way conflict on the shared side of the cp.async (2 wavefronts).
extern "C" __global__ void async_copy4_stride2(const float *in, float *out)
{
    __shared__ float tile[64];
    const int t = threadIdx.x;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(saddr(&tile[2 * t])),
                 "l"(in + t));
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    out[t] = tile[2 * t];
}

// One warp: odd lanes give src-size 0 (their word is zero-filled, nothing is read).
extern "C" __global__ void async_copy_zfill(const float *in, float *out)
{
    __shared__ float tile[32];
    const int t = threadIdx.x;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(saddr(&tile[t])),
                 "l"(in + t), "r"(t % 2 ? 0 : 4));
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    out[t] = tile[t];
}

// atomicAdd with its result used (atom.global.add) and red.global.add (written out:
// compilers emit atom for an unused atomicAdd too, ptxas makes it a RED).
extern "C" __global__ void atom_red(unsigned *count, unsigned *old)
{
    old[threadIdx.x] = atomicAdd(&count[0], 1u);
    asm volatile("red.global.add.u32 [%0], 1;" ::"l"(&count[1]) : "memory");
}
