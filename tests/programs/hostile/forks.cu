// A graded program that starts processes (a fork bomb): stopped at the first fork.
#include <cstdio>
#include <unistd.h>

int main()
{
    printf("forking\n");
    for (int i = 0; i < 1000; i++)
        if (fork() == 0)
            pause();
    printf("forked 1000 processes\n");
    return 0;
}
