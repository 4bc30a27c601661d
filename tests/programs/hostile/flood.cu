// A graded program that writes 10 GB to stdout: stopped at the sandbox's output limit.
#include <cstdio>
#include <cstring>

int main()
{
    static char buf[1 << 20];
    memset(buf, 'x', sizeof buf);
    for (int i = 0; i < 10240; i++)
        fwrite(buf, 1, sizeof buf, stdout);
    return 0;
}
