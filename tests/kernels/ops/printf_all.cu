// Device printf with every conversion CUDA supports (one thread).
extern "C" __global__ void printf_all(int i, float f, double d, const char *s)
{
    if (threadIdx.x != 0)
        return;
    printf("d=%d i=%i u=%u o=%o x=%x X=%X c=%c\n", i, -i, (unsigned)i, i, i, 0xBEEF, 'Z');
    printf("f=%f F=%F e=%e E=%E g=%g G=%G a=%a A=%A\n", f, d, d, d, 1e-5, 1e20, 1.0, 0.5);
    printf("s=%s p=%p pct=%% ld=%ld lld=%lld llu=%llu lx=%lx\n", s, (void *)0x1234,
           -1234567890123L, 9876543210LL, 18446744073709551615ULL, 0xfeedfaceL);
    printf("hd=%hd hhd=%hhd hu=%hu hx=%hx\n", (short)-2, (char)-3, (unsigned short)65535,
           (unsigned short)0xabc);
    printf("w=[%5d] l=[%-5d] z=[%05d] +=[%+d] sp=[% d] #x=[%#x] #o=[%#o] .3f=[%.3f]\n", 42,
           42, 42, 42, 42, 255, 8, d);
    printf("star=[%*d] prec=[%.*f] both=[%*.*f] str=[%.3s] [%10s]\n", 6, 7, 2, d, 8, 1,
           d, s, s);
    printf("%d %s %c%c\n", 3, "done", 'o', 'k');
}
