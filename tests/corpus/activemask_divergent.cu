// activemask_divergent.cu — __activemask() in both arms of a divergent if: each arm sees
// only its own lanes (CUDA Programming Guide §7.22.1 "__activemask"), with every
// compiler (clang once hoisted the two identical calls above the branch, where all 32
// lanes are active).
extern "C" __global__ void activemask_divergent(const int *in, unsigned *out)
{
    const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[g] > 0)
        out[g] = __activemask();
    else
        out[g] = __activemask() ^ 0x80000000u;
}
