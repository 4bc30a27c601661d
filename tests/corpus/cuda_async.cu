// cuda_async.cu — libcu++'s asynchronous copies as the CUDA C++ Programming Guide writes
// them ("Asynchronous Data Copies", "Asynchronous Barrier"): cuda::pipeline at block scope
// with cooperative groups (a two-stage producer/consumer loop) and at thread scope
// (pipeline_consumer_wait_prior), cuda::barrier (init, arrive and wait in phases,
// arrive_and_drop) and cuda::memcpy_async into a barrier, by a whole block (cooperative
// groups) and by each thread (__syncthreads, 16-byte aligned sizes). On sm_80 and later
// the copies are cp.async (and cp.async.bulk on sm_90); on sm_75, plain loads and stores.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>

namespace cg = cooperative_groups;

// a __shared__ cuda::barrier or pipeline state is initialised by init() or
// make_pipeline, not by its constructor (Programming Guide, "Asynchronous Barrier")
#pragma nv_diag_suppress static_var_with_dynamic_init

// in: tiles x 128 ints; out: 2 x 128 per block (block-scope, thread-scope results)
extern "C" __global__ void pipeline_copy(const int *in, int *out, int tiles)
{
    constexpr int stages = 2;
    __shared__ int buf[stages][128];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    const int t = threadIdx.x;
    int acc = 0;
    for (int fetch = 0, use = 0; use < tiles; use++) {
        for (; fetch < tiles && fetch < use + stages; fetch++) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[fetch % stages], in + fetch * 128, sizeof(int) * 128,
                               pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        acc = acc * 3 + buf[use % stages][(t * 5 + use) % 128];
        pipe.consumer_release();
    }
    out[blockIdx.x * 256 + t] = acc;
    block.sync();

    /* each thread its own pipeline: two copies in flight, then the older one waited */
    __shared__ int own[2][128];
    cuda::pipeline<cuda::thread_scope_thread> mine = cuda::make_pipeline();
    int sum = 0;
    for (int i = 0; i < 2 && i < tiles; i++) {
        mine.producer_acquire();
        cuda::memcpy_async(&own[i][t], in + i * 128 + t, sizeof(int), mine);
        mine.producer_commit();
    }
    for (int i = 0; i < tiles; i++) {
        cuda::pipeline_consumer_wait_prior<1>(mine);
        sum = sum * 2 - own[i % 2][t];
        mine.consumer_release();
        if (i + 2 < tiles) {
            mine.producer_acquire();
            cuda::memcpy_async(&own[i % 2][t], in + (i + 2) * 128 + t, sizeof(int), mine);
            mine.producer_commit();
        }
        if (i + 2 >= tiles)
            cuda::pipeline_consumer_wait_prior<0>(mine);
    }
    out[blockIdx.x * 256 + 128 + t] = sum;
}

// in: 256 ints per block; out: 4 x 256 per block
extern "C" __global__ void barrier_copy(const int *in, int *out)
{
    __shared__ alignas(16) int a[256];
    __shared__ alignas(16) int b[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar, part;
    auto block = cg::this_thread_block();
    const int t = threadIdx.x, base = blockIdx.x * 256;
    int *o = out + blockIdx.x * 1024;
    if (block.thread_rank() == 0) {
        init(&bar, block.size());
        init(&part, block.size());
    }
    block.sync();

    /* the whole block copies the tile, one call for all */
    cuda::memcpy_async(block, a, in + base, sizeof(int) * 256, bar);
    bar.arrive_and_wait();
    o[t] = a[255 - t] - a[t];

    /* each thread copies 16 bytes (4 ints) at once; a phase by arrive() and wait() */
    if (t < 64)
        cuda::memcpy_async(&b[t * 4], in + base + t * 4, cuda::aligned_size_t<16>(16), bar);
    auto token = bar.arrive();
    bar.wait(cuda::std::move(token));
    o[256 + t] = b[(t * 7) % 256] + t;
    __syncthreads();

    /* the upper half arrives and drops out; the lower half runs phases without it */
    if (t >= blockDim.x / 2) {
        part.arrive_and_drop();
        o[512 + t] = -t;
    } else {
        for (int phase = 0; phase < 3; phase++) {
            b[t] = a[t] * (phase + 1);
            part.arrive_and_wait();
            a[t] = b[(t + 1) % (blockDim.x / 2)];
            part.arrive_and_wait();
        }
        o[512 + t] = a[t];
    }
    __syncthreads();

    /* __syncthreads-style: one thread initialises, each copies its element */
    __shared__ cuda::barrier<cuda::thread_scope_block> one;
    if (t == 0)
        init(&one, blockDim.x);
    __syncthreads();
    cuda::memcpy_async(&a[t], in + base + (t * 3) % 256, sizeof(int), one);
    one.arrive_and_wait();
    o[768 + t] = a[t] ^ a[255 - t];
}
