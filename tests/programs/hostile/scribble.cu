// A graded program that writes a file in its own folder (allowed) and one outside it
// (argv[1]): the second open fails in the sandbox.
#include <cerrno>
#include <cstdio>
#include <cstring>

int main(int argc, char **argv)
{
    FILE *mine = fopen("scratch.txt", "w");
    printf("own folder: %s\n", mine ? "written" : strerror(errno));
    if (mine)
        fclose(mine);
    FILE *f = argc > 1 ? fopen(argv[1], "w") : NULL;
    if (!f) {
        printf("cannot write %s: %s\n", argc > 1 ? argv[1] : "(nothing)", strerror(errno));
        return 1;
    }
    fputs("overwritten\n", f);
    fclose(f);
    return 0;
}
