/* cmd_grade.c — `gpulearn grade LESSON [FILE.cu]`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "runtime/grade.h"
#include "runtime/lesson.h"

int cmd_grade(int argc, char **argv)
{
    cli c = {0};
    int rc = cli_parse_args(argc, argv, &c, "--backend --format --compiler --verbose");
    if (rc)
        return rc;
    if (c.npos < 1 || c.npos > 2)
        return cli_usage_error("grade needs a lesson and optionally a .cu file "
                           "(gpulearn grade LESSON [FILE.cu])%s", "");
    gl_lesson l;
    gl_error err = {0};
    gl_status st = lesson_find(c.pos[0], &l, &err);
    if (st != GL_OK)
        return cli_die(st, err.msg);
    if (!l.exercise) {
        fprintf(stderr, "gpulearn: lesson '%s' has no exercise to grade\n", l.id);
        lesson_free(&l);
        return 2;
    }
    gl_grade_opts opts = {.backend = c.backend,
                          .compile = {.compiler = c.compiler, .verbose = c.verbose}};
    gl_grade_report rep;
    st = grade_exercise(&l, c.npos == 2 ? c.pos[1] : NULL, &opts, &rep, &err);
    if (st == GL_OK) {
        if (c.format && strcmp(c.format, "json") == 0)
            grade_report_write_json(stdout, &rep);
        else
            grade_report_write_text(stdout, &rep);
        rc = rep.passed ? 0 : 1;
    } else {
        rc = cli_die(st, err.msg);
    }
    grade_report_free(&rep);
    lesson_free(&l);
    return rc;
}

