/* fuzz_wire.c — libFuzzer target for the codec of what crosses a pipe (runtime/wire.h):
 * arbitrary bytes decoded as a run's result, a grading's report, an exercise run, a
 * call's status and the GPU worker's records, as the parent of a sandboxed child would. A decoded result is
 * encoded again and must decode (what the decoder accepts is whole and consistent).
 * Seeds: corpus/wire/, encodings of tests/test_wire.c's results. Built only by
 * `make fuzz` (and by `make check` with the stub driver). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put_run(gl_wire_out *w, const void *r)
{
    gl_wire_put_run(w, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gl_wire_in in = gl_wire_in_of(data, size);
    gl_run_result r;
    if (gl_wire_get_run(&in, &r) == 0) {
        size_t len = 0;
        char *again = gl_wire_encode(put_run, &r, &len);
        gl_run_result back;
        gl_wire_in in2 = gl_wire_in_of(again, len);
        if (again && gl_wire_get_run(&in2, &back) != 0)
            abort(); /* accepted once, refused re-encoded: the decoder kept something odd */
        if (again)
            gl_run_result_free(&back);
        free(again);
        gl_run_result_free(&r);
    }
    in = gl_wire_in_of(data, size);
    gl_grade_report rep;
    if (gl_wire_get_report(&in, &rep) == 0)
        grade_report_free(&rep);
    in = gl_wire_in_of(data, size);
    gl_exercise_result ex;
    if (gl_wire_get_exercise(&in, &ex) == 0)
        exercise_result_free(&ex);
    in = gl_wire_in_of(data, size);
    gl_status st;
    char msg[64];
    gl_wire_get_status(&in, &st, msg, sizeof msg);
    in = gl_wire_in_of(data, size);
    gl_device_info d;
    gl_wire_get_device_info(&in, &d);
    in = gl_wire_in_of(data, size);
    gl_library_run l;
    gl_wire_get_library(&in, &l);
    return 0;
}
