extern "C" __global__ void broken(int *x) { x[threadIdx.x] = ; }
