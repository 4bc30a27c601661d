/* fuzz_lesson.c — libFuzzer target for the lesson loader.
 *
 * Hands arbitrary bytes to lesson_parse as the lesson.json of a scratch folder that holds
 * every kernel file the shipped lessons name (so valid lessons load), then, for a lesson
 * that loads, builds each step's launch spec and the exercise's spec at every graded size
 * and with every input variant, as `gpulearn run` and `gpulearn grade` do. No buffer is
 * allocated and nothing is compiled. Built only by `make fuzz`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/grade.h"
#include "runtime/lesson.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256] = "/tmp";

/* Creates the scratch folder with the kernel files the shipped lessons name (empty). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char tmpl[] = "/tmp/gl_fuzz_lesson_XXXXXX";
    if (!mkdtemp(tmpl))
        return 0;
    snprintf(dir, sizeof dir, "%s", tmpl);
    const char *names[] = {"access.cu",   "banks.cu",    "count.cu", "diverge.cu", "guard.cu",
                           "hello.cu",    "hist.cu",     "index.cu", "loop.cu",    "multiblock.cu",
                           "reduce.cu",   "reverse.cu",  "scan.cu",  "stencil.cu", "stride.cu",
                           "exercise.cu", "solution.cu", "kernel.cu"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[300];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *f = fopen(path, "w");
        if (f)
            fclose(f);
    }
    return 0;
}

/* libFuzzer entry point: always returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gl_lesson l;
    gl_error err;
    if (lesson_parse((const char *)data, size, dir, &l, &err) != GL_OK)
        return 0;
    for (int i = 0; i < l.nsteps; i++) {
        gl_spec spec;
        if (lesson_step_spec(&l, i, &spec, &err) == GL_OK)
            spec_free(&spec);
    }
    if (l.exercise) {
        int64_t sizes[64];
        const int n = grade_sizes(l.exercise, sizes, 64);
        const int last = GL_INPUTS_DECLARED + lesson_exercise_declared_inputs(&l);
        for (int i = 0; i < n; i++)
            for (int v = GL_INPUTS_RANDOM; v < last; v++) {
                gl_spec spec;
                if (lesson_exercise_spec_variant(&l, sizes[i], (uint64_t)i * 64, (gl_inputs)v,
                                                 "kernel.cu", &spec, &err) == GL_OK)
                    spec_free(&spec);
            }
    }
    lesson_free(&l);
    return 0;
}
