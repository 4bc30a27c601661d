// A graded program that asks for 64 GiB of host memory: refused (the sandbox's address
// space limit), so malloc returns NULL.
#include <cstdio>
#include <cstdlib>

int main()
{
    char *volatile p = (char *)malloc(64ull << 30); /* volatile: the call stays */
    printf("malloc of 64 GiB: %s\n", p ? "granted" : "refused");
    free(p);
    return p ? 0 : 1;
}
