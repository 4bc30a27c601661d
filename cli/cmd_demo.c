/* cmd_demo.c — `gpulearn demo LESSON [--auto SECONDS] [--backend auto|sim|gpu]`: parses
 * the arguments after "demo" and runs the TUI in its projector layout (tui_opts.demo). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "tui/tui.h"

int cmd_demo(int argc, char **argv)
{
    tui_opts o = {.backend = GL_BACKEND_AUTO, .demo = true};
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        if ((strcmp(s, "--auto") == 0 || strcmp(s, "--backend") == 0) && i + 1 >= argc) {
            fprintf(stderr, "gpulearn: %s needs a value\n(gpulearn --help shows the usage)\n", s);
            return 2;
        }
        if (strcmp(s, "--auto") == 0) {
            char *end;
            o.auto_seconds = strtod(argv[++i], &end);
            if (*end || !(o.auto_seconds >= 1 && o.auto_seconds <= 3600)) {
                fprintf(stderr, "gpulearn: --auto takes seconds between 1 and 3600, not '%s'\n",
                        argv[i]);
                return 2;
            }
        } else if (strcmp(s, "--backend") == 0) {
            const char *v = argv[++i];
            if (strcmp(v, "auto") == 0)
                o.backend = GL_BACKEND_AUTO;
            else if (strcmp(v, "sim") == 0)
                o.backend = GL_BACKEND_SIM;
            else if (strcmp(v, "gpu") == 0)
                o.backend = GL_BACKEND_GPU;
            else {
                fprintf(stderr, "gpulearn: --backend must be auto, sim or gpu, not '%s'\n", v);
                return 2;
            }
        } else if (s[0] == '-' && s[1]) {
            fprintf(stderr, "gpulearn: unknown option '%s'\n(gpulearn --help shows the usage)\n",
                    s);
            return 2;
        } else if (!o.lesson) {
            o.lesson = s;
        } else {
            fprintf(stderr, "gpulearn: too many arguments ('%s')\n", s);
            return 2;
        }
    }
    if (!o.lesson) {
        fprintf(stderr, "gpulearn: demo needs a lesson: gpulearn demo LESSON [--auto SECONDS]\n");
        return 2;
    }
    return tui_run(&o);
}
