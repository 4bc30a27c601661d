// A graded program that tries to read a file of the learner's (argv[1], an ~/.ssh key)
// and its environment (a token): in the sandbox the open fails and the token is unset.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv)
{
    const char *token = getenv("GL_TEST_TOKEN");
    printf("token: %s\n", token ? token : "(unset)");
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f) {
        printf("cannot read %s: %s\n", argc > 1 ? argv[1] : "(nothing)", strerror(errno));
        return 1;
    }
    char line[256] = "";
    if (fgets(line, sizeof line, f))
        printf("read: %s", line);
    fclose(f);
    return 0;
}
