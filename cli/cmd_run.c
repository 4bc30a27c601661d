/* cmd_run.c — `gpulearn run SPEC.json`: compile, run, print or dump the buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* A short human-readable preview of a buffer: its first and last elements. */
static void print_buffer(const gl_arg *a, const gl_buffer *b)
{
    printf("%s (%s[%zu]):", a->name, gl_type_name(a->type), a->len);
    size_t show = a->len <= 16 ? a->len : 8;
    for (size_t i = 0; i < show; i++) {
        putchar(' ');
        gl_json_write_value(stdout, a->type, gl_buffer_get(b->data, a->type, i));
    }
    if (show < a->len) {
        printf(" ...");
        for (size_t i = a->len - 4; i < a->len; i++) {
            putchar(' ');
            gl_json_write_value(stdout, a->type, gl_buffer_get(b->data, a->type, i));
        }
    }
    putchar('\n');
}

static int write_dump(const char *path, const gl_spec *spec, const gl_run_result *res)
{
    gl_error err = {0};
    if (strcmp(path, "-") == 0) {
        gl_json_write_result(stdout, spec, res->buffers, res->stdout_text, &err);
        return 0;
    }
    char *data = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&data, &len);
    if (!mem)
        return cli_die(GL_ERR_NOMEM, "out of memory");
    gl_json_write_result(mem, spec, res->buffers, res->stdout_text, &err);
    fclose(mem);
    gl_status st = gl_write_file_atomic(path, data, len, &err);
    free(data);
    return st == GL_OK ? 0 : cli_die(st, err.msg);
}

int cmd_run(int argc, char **argv)
{
    cli c = {0};
    int rc = cli_parse_args(argc, argv, &c, "--backend --dump-json --compiler --verbose");
    if (rc)
        return rc;
    if (c.npos != 1)
        return cli_usage_error("run needs exactly one launch spec (gpulearn run SPEC.json)%s", "");
    gl_spec spec;
    gl_error err = {0};
    gl_status st = spec_load_file(c.pos[0], &spec, &err);
    if (st != GL_OK)
        return cli_die(st, err.msg);
    gl_run_opts opts = {.backend = c.backend,
                        .compile = {.compiler = c.compiler, .verbose = c.verbose}};
    gl_run_result res;
    st = gl_run_spec(&spec, &opts, &res, &err);
    if (res.note[0])
        fprintf(stderr, "gpulearn: %s\n", res.note);
    int dumped = c.dump_json && strcmp(c.dump_json, "-") == 0;
    if (res.buffers && (st == GL_OK || st == GL_ERR_FAULT)) {
        if (c.dump_json)
            rc = write_dump(c.dump_json, &spec, &res);
        if (!dumped) {
            printf("%s<<<(%u,%u,%u), (%u,%u,%u)>>> ran on the %s (compiled with %s)\n",
                   spec.kernel, spec.grid[0], spec.grid[1], spec.grid[2], spec.block[0],
                   spec.block[1], spec.block[2],
                   res.backend == GL_BACKEND_GPU ? "GPU" : "simulator",
                   gl_compiler_name(res.compiler));
            if (res.stdout_text && *res.stdout_text)
                fputs(res.stdout_text, stdout);
            for (int i = 0; i < spec.nargs; i++)
                if (spec.args[i].is_ptr)
                    print_buffer(&spec.args[i], &res.buffers[i]);
        }
    }
    if (st != GL_OK)
        rc = cli_die(st, err.msg);
    gl_run_result_free(&res);
    spec_free(&spec);
    return rc;
}

