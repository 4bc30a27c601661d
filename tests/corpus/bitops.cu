// Bit intrinsics: __popc/__popcll, __clz/__clzll, __brev/__brevll, __ffs/__ffsll, __byte_perm, __funnelshift_l/r/lc/rc, bit-field extract/insert.
extern "C" __global__ void bitops(const unsigned *a, const unsigned *b, unsigned *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = a[i], y = b[i], s = y & 63;
    unsigned long long X = ((unsigned long long)x << 32) | y;
    unsigned *r = o + i * 16;
    r[0] = __popc(x);
    r[1] = __popcll(X) + 100;
    r[2] = __clz((int)(x >> (y & 31)));
    r[3] = __clzll((long long)(X >> s));
    r[4] = __brev(x);
    r[5] = (unsigned)(__brevll(X) >> 7);
    r[6] = __ffs((int)(x & (x << 3)));
    r[7] = __ffsll((long long)(X & (X << 9)));
    r[8] = __byte_perm(x, y, 0x5140);
    r[9] = __byte_perm(x, y, y & 0x7777);
    r[10] = __funnelshift_l(x, y, s);
    r[11] = __funnelshift_r(x, y, s);
    r[12] = __funnelshift_lc(x, y, s);
    r[13] = __funnelshift_rc(x, y, s);
    r[14] = (x >> (y & 15)) & 0x3ffu;
    r[15] = (x & ~(0xffu << 8)) | ((y & 0xffu) << 8);
}
