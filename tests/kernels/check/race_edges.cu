// Shared-memory access patterns at the edges of the simulator's racecheck and initcheck
// (sim/sim.c: the warp-wide fast paths for row broadcasts, half-warp rows, unit-stride
// words, partial masks). tests/race_edges.sh runs each spec in race_edges/ and compares
// the findings, exit code and output with its goldens; the goldens name lines of this
// file, so editing it means re-recording them (see tests/race_edges.sh).
//
// Each kernel's `mode` argument is a set of bits, each turning on one access below (the
// comment on each `if` says what it exercises); a spec picks a combination.
//
// tile2d (16x16 blocks): bits 1,2,4 fill As, Bs, Cs (Cs one word off alignment); 8 writes
// single bytes into Bs's words; 16 __syncthreads(), 32 __syncwarp(); the k loop reads As
// rows (two broadcast words per warp) and Bs columns (16 words, each read by two lanes),
// 64 the unaligned Cs columns, 128 full broadcasts (column bits 16..19); 256, 512, 1024
// overwrite Bs, As, Cs after the loop (write after read); 2048 reads bytes nobody wrote;
// 4096 reads global rows and broadcasts, 8192 stores one global row from two half-warps;
// 16384 reads neighbours after a barrier.
extern "C" __global__ void tile2d(const float *in, float *out, float *gbuf, int mode)
{
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    __shared__ float Cs[16 * 16 + 8];
    __shared__ unsigned char cb[64];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.x * 16 + ty;
    if (mode & 1)
        As[ty][tx] = in[row * 16 + tx];
    if (mode & 2)
        Bs[ty][tx] = in[ty * 16 + tx] + 1.0f;
    if (mode & 4)
        Cs[ty * 16 + tx + 1] = in[ty * 16 + tx] + 2.0f;
    if (mode & 8)
        ((unsigned char *)Bs)[ty * 64 + tx] = (unsigned char)tx; // part of words
    if (mode & 16)
        __syncthreads();
    if (mode & 32)
        __syncwarp();
    float acc = 0.0f;
    for (int k = 0; k < 16; k++) {
        acc += As[ty][k] * Bs[k][tx];
        if (mode & 64)
            acc += Cs[k * 16 + tx + 1];
        if (mode & 128)
            acc += As[0][0] + Bs[k][(mode >> 16) & 15];
    }
    if (mode & 256)
        Bs[ty][tx] = acc; // WAR against the column readers
    if (mode & 512)
        As[ty][tx] = acc; // WAR against the row readers (same warp)
    if (mode & 1024)
        Cs[ty * 16 + tx + 1] = acc;
    if (mode & 2048)
        acc += cb[tx];    // uninitialised bytes
    if (mode & 4096)
        acc += gbuf[row * 16 + tx] + gbuf[ty]; // global rows, broadcasts (unwritten?)
    if (mode & 8192)
        gbuf[(ty & 1) * 16 + tx] = acc;        // global half-warps storing the same row
    if (mode & 16384) {
        __syncthreads();
        acc += As[ty][tx ^ 1] + Bs[tx][ty];
    }
    out[row * 16 + tx] = acc;
}

// 1-D blocks of 128: unit-stride words at unaligned offsets, partial masks, and the
// hazards around them. Bits 0..5: the offset `off`; 64, 128 fill buf[0] (128 overlaps
// the next warp's words); 256 __syncthreads(); every thread reads buf[0][t] and
// buf[0][t - off], 512 also buf[0][t + off]; 1024 writes buf[1]; 2048 overwrites
// buf[0][t + 1]; 4096 __syncwarp(); 8192 writes 2-byte halves, 16384 reads the
// neighbour's half and buf[1]; 32768 reads buf[1] a warp away after a barrier.
extern "C" __global__ void strided(const unsigned *in, unsigned *out, int mode)
{
    __shared__ unsigned buf[2][160];
    __shared__ unsigned short hs[128];
    unsigned t = threadIdx.x;
    int off = mode & 63;
    if (mode & 64)
        buf[0][t] = in[t];
    if (mode & 128)
        buf[0][t + 32] = in[t] * 3u;
    if (mode & 256)
        __syncthreads();
    unsigned v = buf[0][t];
    if (t >= (unsigned)off)
        v += buf[0][t - off];
    if (mode & 512)
        v += buf[0][t + off];
    if (mode & 1024)
        buf[1][t] = v;
    if (mode & 2048)
        buf[0][t + 1] = v; // WAR / WAW across lanes and warps
    if (mode & 4096)
        __syncwarp();
    if (mode & 8192)
        hs[t] = (unsigned short)v; // halves
    if (mode & 16384)
        v += hs[t ^ 1] + buf[1][t];
    if (mode & 32768) {
        __syncthreads();
        v += buf[1][(t + 32) & 127];
    }
    out[t] = v;
}

// Out-of-bounds and misaligned shared accesses in the warp patterns (16x16 blocks).
// Bits 0..7: an index k; 256 reads column S[k][tx], 512 the row broadcast S[ty][k];
// 1024 a column, 2048 a broadcast, each moved by the byte offset in bits 16 and up.
extern "C" __global__ void badshared(float *out, int mode)
{
    __shared__ float S[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    S[ty][tx] = (float)tx;
    __syncthreads();
    float acc = 0.0f;
    int k = mode & 255;
    if (mode & 256)
        acc += S[k][tx];                                 // column past the end
    if (mode & 512)
        acc += S[ty][k];                                 // row broadcast past the end
    if (mode & 1024)
        acc += *(float *)((char *)&S[0][tx] + (mode >> 16)); // misaligned column
    if (mode & 2048)
        acc += *(float *)((char *)&S[ty][0] + (mode >> 16)); // misaligned broadcast
    out[ty * 16 + tx] = acc;
}

// Part of a warp: unit-stride words over some lanes (prefixes, gaps, misaligned).
// Bits 8..13: a lane limit `lim`; bits 16..19: a word shift `sh`. 1 fills s[t]; 2 odd
// lanes write s[t + 40]; 4 __syncthreads(); 8 lanes below lim read s[t + sh]; 16 lanes
// with bit 1 set read s[t + 40]; 128 __syncwarp(); 32 every third lane writes s[t + sh];
// 64 lanes 5..59 write s[t + 1]; 4096 a barrier, then lanes below lim read s[t+1], s[t+2].
extern "C" __global__ void partial(const unsigned *in, unsigned *out, int mode)
{
    __shared__ unsigned s[224];
    unsigned t = threadIdx.x;
    unsigned lim = (mode >> 8) & 63, sh = (mode >> 16) & 15;
    if (mode & 1)
        s[t] = in[t];
    if (mode & 2) {
        if (t & 1)
            s[t + 40] = t;
    }
    if (mode & 4)
        __syncthreads();
    unsigned v = 0;
    if (mode & 8) {
        if (t < lim)
            v += s[t + sh];
    }
    if (mode & 16) {
        if (t & 2)
            v += s[t + 40];
    }
    if (mode & 128)
        __syncwarp();
    if (mode & 32) {
        if (t % 3 == 0)
            s[t + sh] = v;
    }
    if (mode & 64) {
        if (t >= 5 && t < 60)
            s[t + 1] = v + 1;
    }
    if (mode & 4096) {
        __syncthreads();
        if (t < lim)
            v += s[t + 1] + s[t + 2];
    }
    out[t] = v;
}
