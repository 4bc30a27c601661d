/* cmd_lint.c — `gpulearn lint LESSON_DIR...`: validates lessons: the schema,
 * the files, every step runs on the simulator, the reference passes every check and
 * the starter fails at least one. Exit 0 clean, 1 problems found, 2 bad usage or a
 * folder without lesson.json. */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "runtime/grade.h"

int cmd_lint(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (argv[i][0] == '-')
            return cli_usage_error("unknown option '%s'", argv[i]);
    if (argc < 1)
        return cli_usage_error("lint needs a lesson folder (gpulearn lint LESSON_DIR...)%s", "");
    int problems = 0;
    for (int i = 0; i < argc; i++) {
        char json[PATH_MAX];
        snprintf(json, sizeof json, "%s/lesson.json", argv[i]);
        if (access(json, R_OK) != 0) {
            fprintf(stderr, "gpulearn: %s: not a lesson folder (no readable lesson.json)\n",
                    argv[i]);
            return 2;
        }
    }
    for (int i = 0; i < argc; i++)
        problems += grade_lint(argv[i], stdout);
    return problems ? 1 : 0;
}
