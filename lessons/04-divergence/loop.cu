// Data-dependent loop trip counts: lane i loops i times, so the warp runs 31 rounds
// and lane 0 idles through all of them.
extern "C" __global__ void triangle(int *out)
{
    int s = 0;
    for (int k = 0; k < (int)threadIdx.x; k++)
        s += k;
    out[threadIdx.x] = s;
}
