/* fuzz_spec.c — libFuzzer target for the launch-spec loader.
 *
 * Parses arbitrary bytes as JSON (cJSON) and hands the result to spec_from_json with
 * the variables a lesson defines ("n", "m", "k"), so both the JSON validation and the
 * integer expression evaluator behind "(n + 255) / 256" are exercised. A spec that
 * loads and whose buffers total at most 1 MiB also gets its buffers initialised
 * (values / fill / iota / random) and written by spec_json_write_result to /dev/null. `source` is resolved against a scratch folder that
 * holds kernel.cu, so valid specs are reachable. Built only by `make fuzz`.
 */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/spec.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char base_dir[256] = "/tmp";
static FILE *devnull;

/* Creates the scratch folder with kernel.cu and saxpy.cu (stat only, never read). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    devnull = fopen("/dev/null", "w");
    char tmpl[] = "/tmp/gl_fuzz_spec_XXXXXX";
    if (mkdtemp(tmpl)) {
        snprintf(base_dir, sizeof base_dir, "%s", tmpl);
        const char *names[] = {"kernel.cu", "saxpy.cu"};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            char path[300];
            snprintf(path, sizeof path, "%s/%s", base_dir, names[i]);
            FILE *f = fopen(path, "w");
            if (f)
                fclose(f);
        }
    }
    return 0;
}

/* libFuzzer entry point: always returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cJSON *json = cJSON_ParseWithLength((const char *)data, size);
    if (!json)
        return 0;
    gl_vars vars = {.names = {"n", "m", "k"}, .values = {1000, 16, -3}, .count = 3};
    gl_spec spec;
    gl_error err;
    memset(&spec, 0, sizeof spec);
    gl_status st = spec_from_json(json, "fuzz.json", base_dir, &vars, &spec, &err);
    if (st == GL_OK) {
        size_t total = 0;
        for (int i = 0; i < spec.nargs; i++)
            if (spec.args[i].is_ptr)
                total += spec.args[i].len <= (1u << 20)
                             ? spec.args[i].len * spec_type_size(spec.args[i].type)
                             : (size_t)1 << 30;
        if (total <= (1u << 20)) {
            gl_buffer *bufs = NULL;
            if (spec_buffers_new(&spec, &bufs, &err) == GL_OK) {
                /* the exact JSON writer behind --dump-json, on every initialiser */
                if (devnull)
                    (void)spec_json_write_result(devnull, &spec, bufs, "out\n\"x\"", &err);
                spec_buffers_free(bufs, spec.nargs);
            }
        }
        spec_free(&spec);
    }
    cJSON_Delete(json);
    return 0;
}
