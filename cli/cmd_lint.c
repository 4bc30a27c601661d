/* cmd_lint.c — `gpulearn lint LESSON_DIR`: validates a lesson (issue 5). */
#include <stdio.h>

#include "cli/cli.h"

int cmd_lint(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "gpulearn: lint is not implemented yet\n");
    return 2;
}
