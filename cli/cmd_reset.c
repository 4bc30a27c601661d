/* cmd_reset.c — `gpulearn reset LESSON [--yes]`: restores the exercise's starter in the
 * learner's workspace after confirmation. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "runtime/lesson.h"
#include "runtime/workspace.h"

/* The file name part of a path. */
static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int cmd_reset(int argc, char **argv)
{
    int yes = 0;
    char *rest[8];
    int nrest = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--yes") == 0 || strcmp(argv[i], "-y") == 0)
            yes = 1;
        else if (nrest < 8)
            rest[nrest++] = argv[i];
        else
            return cli_usage_error("too many arguments ('%s')", argv[i]);
    }
    cli c = {0};
    int rc = cli_parse_args(nrest, rest, &c, "");
    if (rc)
        return rc;
    if (c.npos != 1)
        return cli_usage_error("reset needs one lesson (gpulearn reset LESSON [--yes])%s", "");
    gl_lesson l;
    if ((rc = cli_exercise_lesson(c.pos[0], "reset", &l)) != 0)
        return rc;
    gl_error err = {0};
    gl_status st;
    char path[PATH_MAX];
    if (!workspace_has_copy(&l, path, sizeof path)) {
        /* Nothing to lose: make the copy from the starter. */
        st = workspace_exercise_path(&l, path, sizeof path, &err);
        if (st == GL_OK)
            printf("%s is the starter of lesson '%s'\n", path, l.id);
        lesson_free(&l);
        return st == GL_OK ? 0 : cli_die(st, err.msg);
    }
    if (!yes) {
        printf("Replace %s with the starter of lesson '%s'? Your version is kept as a "
               "backup beside it (%s.bak, or .bak.2, ... when that exists). [y/N] ",
               path, l.id, base_of(path));
        fflush(stdout);
        char answer[64] = "";
        if (!fgets(answer, sizeof answer, stdin) || (answer[0] != 'y' && answer[0] != 'Y')) {
            printf("\nnot reset\n");
            lesson_free(&l);
            return 1;
        }
    }
    char bak[PATH_MAX + 16];
    st = workspace_reset(&l, bak, sizeof bak, &err);
    if (st == GL_OK && bak[0])
        printf("%s restored from the starter (your version: %s)\n", path, bak);
    else if (st == GL_OK)
        printf("%s is already the starter: nothing to restore\n", path);
    lesson_free(&l);
    return st == GL_OK ? 0 : cli_die(st, err.msg);
}
