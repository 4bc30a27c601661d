// Device printf with every conversion CUDA supports (one thread): the grammar of the CUDA
// C++ Programming Guide, "Formatted Output": flags # 0 + - space, width digits or '*',
// precision digits only, sizes h l ll, types c d i o u x X p e E f g G a A s. (An earlier
// version used "%.*f", "%F" and "%hhd", which the device printf does not support: on an
// H200 its arguments went out of step and a later %s faulted with
// CUDA_ERROR_ILLEGAL_ADDRESS; the simulator now reports such formats as a fault.)
extern "C" __global__ void printf_all(int i, float f, double d, const char *s)
{
    if (threadIdx.x != 0)
        return;
    printf("d=%d i=%i u=%u o=%o x=%x X=%X c=%c\n", i, -i, (unsigned)i, i, i, 0xBEEF, 'Z');
    printf("f=%f F=%f e=%e E=%E g=%g G=%G a=%a A=%A\n", f, d, d, d, 1e-5, 1e20, 1.0, 0.5);
    printf("s=%s p=%p pct=%% ld=%ld lld=%lld llu=%llu lx=%lx\n", s, (void *)0x1234,
           -1234567890123L, 9876543210LL, 18446744073709551615ULL, 0xfeedfaceL);
    printf("hd=%hd hhd=%d hu=%hu hx=%hx\n", (short)-2, (int)(char)-3, (unsigned short)65535,
           (unsigned short)0xabc);
    printf("w=[%5d] l=[%-5d] z=[%05d] +=[%+d] sp=[% d] #x=[%#x] #o=[%#o] .3f=[%.3f]\n", 42,
           42, 42, 42, 42, 255, 8, d);
    printf("star=[%*d] prec=[%.2f] both=[%*.1f] str=[%.3s] [%10s]\n", 6, 7, d, 8, d, s, s);
    printf("%d %s %c%c\n", 3, "done", 'o', 'k');
}
