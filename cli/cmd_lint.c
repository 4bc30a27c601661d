/* cmd_lint.c — `gpulearn lint [--speed] LESSON_DIR...`: validates lessons: the schema,
 * the files, every step runs on the simulator and its text's "expect" entries hold there
 * (and on a GPU, when there is one, at the step's GPU launch), the reference passes
 * every check and the starter fails at least one. --speed (a GPU only) times each step
 * with a "gpu_launch" and the other kernels of its file at that launch, prints a table
 * row for each and checks the GPU entries (tools/gpu_speed.sh). Exit 0 clean, 1
 * problems found (or --speed without a GPU), 2 bad usage, a folder without
 * lesson.json or a lesson.json that does not load. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "runtime/grade.h"

/* --speed: the GPU runs of every step with a "gpu_launch". */
static int lint_speed(const gl_lesson *l, const gl_expect_lint_opts *o)
{
    int problems = 0;
    for (int s = 0; s < l->nsteps; s++)
        if (l->steps[s].gpu_launch)
            problems += gl_expect_lint_step(l, s, o, stdout, NULL);
    printf("%s: %s\n", l->dir, problems ? "FAILED" : "ok");
    return problems;
}

int cmd_lint(int argc, char **argv)
{
    int speed = 0, ndirs = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--speed") == 0)
            speed = 1;
        else if (argv[i][0] == '-')
            return cli_usage_error("unknown option '%s'", argv[i]);
        else
            ndirs++;
    }
    if (ndirs < 1)
        return cli_usage_error("lint needs a lesson folder (gpulearn lint LESSON_DIR...)%s", "");
    for (int i = 0; i < argc; i++) {
        if (argv[i][0] == '-')
            continue;
        char json[PATH_MAX];
        snprintf(json, sizeof json, "%s/lesson.json", argv[i]);
        if (access(json, R_OK) != 0) {
            fprintf(stderr, "gpulearn: %s: not a lesson folder (no readable lesson.json)\n",
                    argv[i]);
            return 2;
        }
        /* a lesson.json that does not load (its schema, an "expect" entry) is bad input */
        gl_lesson l;
        gl_error err = {0};
        if (lesson_load(argv[i], &l, &err) != GL_OK) {
            fprintf(stderr, "gpulearn: %s\n", err.msg);
            return 2;
        }
        lesson_free(&l);
    }
    gl_expect_lint_opts o = {.no_sim = 1, .speed = 1};
    if (speed) {
        gl_expect_probe_gpu(&o);
        if (!o.gpu) {
            fprintf(stderr,
                    "gpulearn: lint --speed times the steps on a GPU; there is none here\n");
            return 1;
        }
    }
    int problems = 0;
    for (int i = 0; i < argc; i++) {
        if (argv[i][0] == '-')
            continue;
        if (!speed) {
            problems += grade_lint(argv[i], stdout);
            continue;
        }
        gl_lesson l;
        gl_error err = {0};
        if (lesson_load(argv[i], &l, &err) != GL_OK) {
            fprintf(stderr, "gpulearn: %s\n", err.msg);
            return 2;
        }
        problems += lint_speed(&l, &o);
        lesson_free(&l);
    }
    return problems ? 1 : 0;
}
