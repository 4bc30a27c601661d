// Global-memory requests of two unit-stride half-warp rows (lanes 0-15 from one
// address, 16-31 from another, with a gap), which the global race detector checks with
// one pass over the request's words (sim/sim_mem.h grace_rows). test_sim_check runs it
// with one block of 64 threads. Lane l of each warp stores word (l < 16 ? l : l + 16),
// so both warps store the same 32 words; `sync` puts a barrier between them (no race),
// else warp 1's store races with warp 0's (write after write). Every thread then reads
// its word back in the same half-row pattern.
extern "C" __global__ void store_halves(float *buf, float *out, int sync)
{
    int lane = threadIdx.x % 32;
    int word = lane < 16 ? lane : lane + 16;
    if (sync) {
        if (threadIdx.x < 32)
            buf[word] = 1.0f;
        __syncthreads();
        if (threadIdx.x >= 32)
            buf[word] = 2.0f;
        __syncthreads();
    } else {
        buf[word] = (float)(threadIdx.x / 32 + 1);
    }
    out[threadIdx.x] = buf[word];
}
