// A compile error on line 5.
#include <cstdio>
__global__ void k(int *p)
{
    p[0] = undeclared_thing;
}
int main(void) { return 0; }
