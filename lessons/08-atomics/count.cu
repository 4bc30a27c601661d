// 256 threads each add 1 to one counter. `count_racy` reads, adds and writes back:
// increments made at the same time overwrite each other. `count_atomic` uses
// atomicAdd, which does the read-modify-write as one indivisible operation.
extern "C" __global__ void count_racy(int *counter)
{
    counter[0] = counter[0] + 1;
}

extern "C" __global__ void count_atomic(int *counter)
{
    atomicAdd(&counter[0], 1);
}
