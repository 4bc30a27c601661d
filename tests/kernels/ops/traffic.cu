// The memory requests the metrics count beside ld/st (trace/analysis.h): cp.async (PTX
// ISA §9.7.9.25.3) of 16 and 4 bytes, with a bank conflict on the shared side and with a
// src-size of 0 (zero fill), the same 16-byte copy through registers (ld.global.v4 /
// st.shared.v4), and atom against red (an atomic whose result is unused); then additions.
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

// Every form of addition counts (trace/analysis.h "gpulearn__thread_additions_float.sum"):
// per lane an add.f32, an fma.rn.f32 by 1 (an addition all the same), a
// red.global.add.f32 and an add.rn.f16x2 of a packed pair (two): 5 float additions.
extern "C" __global__ void adds_every_form(float *f, unsigned *h)
{
    const int t = threadIdx.x;
    float x = f[t] + 1.0f;
    asm("fma.rn.f32 %0, 0f3F800000, %1, 0f40000000;" : "=f"(x) : "f"(x)); // 1 * x + 2
    f[t] = x;
    asm volatile("red.global.add.f32 [%0], %1;" ::"l"(&f[32]), "f"(x) : "memory");
    unsigned v = h[t];
    asm("add.rn.f16x2 %0, %1, %1;" : "=r"(v) : "r"(v));
    h[t] = v;
}

// One warp, four tiles of 32 floats through two shared buffers: tile k + 1's group is
// committed before the wait for tile k, which waits with wait_group N. With N = 1 the
// copy of tile k + 1 stays in flight while the warp reads tile k from shared memory, so
// the waits for tiles 1, 2 and 3 land groups that were in flight over such reads (3
// overlapped waits of 4); with N = 0 each wait also lands the tile just committed, before
// any read (0 of 4).
template <int N> __device__ void pipeline(const float *in, float *out)
{
    __shared__ float buf[2][32];
    const int t = threadIdx.x;
    float s = 0;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(saddr(&buf[0][t])), "l"(in + t));
    asm volatile("cp.async.commit_group;");
    for (int k = 0; k < 4; k++) {
        if (k + 1 < 4)
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(
                             saddr(&buf[(k + 1) & 1][t])),
                         "l"(in + 32 * (k + 1) + t));
        asm volatile("cp.async.commit_group;");
        asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
        __syncwarp();
        s += buf[k & 1][(t + 1) % 32];
        __syncwarp();
    }
    out[t] = s;
}
extern "C" __global__ void pipeline_wait1(const float *in, float *out)
{
    pipeline<1>(in, out);
}
extern "C" __global__ void pipeline_wait0(const float *in, float *out)
{
    pipeline<0>(in, out);
}

// Block b of the grid stores (b + 1) x 32 floats: with 3 blocks the most one block
// writes to global memory is block 2's 384 bytes.
extern "C" __global__ void uneven_blocks(float *out, float *unused)
{
    (void)unused;
    for (int k = 0; k <= (int)blockIdx.x; k++)
        out[blockIdx.x * 96 + 32 * k + threadIdx.x] = 1.0f;
}
