/* cmd_reset.c — `gpulearn reset LESSON`: restores the exercise's starter (issue 5). */
#include <stdio.h>

#include "cli/cli.h"

int cmd_reset(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "gpulearn: reset is not implemented yet\n");
    return 2;
}
