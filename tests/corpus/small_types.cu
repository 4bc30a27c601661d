// char/short/unsigned char arithmetic: sign and zero extension on load, truncation on store, wrap-around, mixed-type promotion.
extern "C" __global__ void small_types(const signed char *c, const unsigned char *u, const short *s, signed char *oc,
                                       unsigned short *ous, int *oi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    signed char x = c[i];
    unsigned char y = u[i];
    short z = s[i];
    oc[i] = (signed char)(x * 3 + y);
    ous[i] = (unsigned short)(z * 5 - y);
    oi[i * 4 + 0] = x + y + z;
    oi[i * 4 + 1] = (x < 0) ? x >> 2 : (y >> 3);
    oi[i * 4 + 2] = (unsigned char)(x) * (short)(z >> 4);
    oi[i * 4 + 3] = (int)(unsigned short)z / (y | 1);
}
