// movmatrix.sync.aligned.m8n8.trans.b16 (PTX ISA §9.7.14.5.17, PTX ISA 7.8): lane l's
// word holds row l / 4, columns 2 (l % 4) and the next of an 8x8 b16 matrix; out gets
// the transpose in the same layout, once and twice (the identity).
extern "C" __global__ void movmatrix_trans(const unsigned *in, unsigned *out)
{
    const int l = threadIdx.x;
    unsigned a = in[blockIdx.x * 32 + l], d, e;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d) : "r"(a));
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(e) : "r"(d));
    out[blockIdx.x * 64 + l] = d;
    out[blockIdx.x * 64 + 32 + l] = e;
}
