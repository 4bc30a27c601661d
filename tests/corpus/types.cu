// One kernel over every argument type: each output element is input + 1 (wrapping).
extern "C" __global__ void bump(const signed char *i8, unsigned char *u8, short *i16,
                                unsigned short *u16, int *i32, unsigned *u32,
                                long long *i64, unsigned long long *u64, float *f32,
                                double *f64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        u8[i] = (unsigned char)(i8[i] + 1);
        i16[i] += 1; u16[i] += 1; i32[i] += 1; u32[i] += 1;
        i64[i] += 1; u64[i] += 1; f32[i] = f32[i] * 2.0f; f64[i] = -f64[i];
    }
}
