/* fuzz_ptx.c — libFuzzer target for the PTX front end.
 *
 * Feeds arbitrary bytes to ptx_parse as PTX text. The text is copied into a buffer of
 * exactly `size` bytes with no terminating NUL, so AddressSanitizer catches any read
 * past the end. A module that parses is freed and nothing else is done with it.
 * Built and run only by `make fuzz` (clang -fsanitize=fuzzer,address,undefined).
 * Inputs that once hung or crashed the parser are replayed from fuzz/crashes/ptx/ on
 * every `make fuzz` run.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libFuzzer entry point: always returns 0 (errors are expected, crashes are not). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    if (size)
        memcpy(text, data, size);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, size, "fuzz.ptx", &m, &diag);
    if (st == SIM_OK) {
        /* Touch the entry table the way the runtime does, then free. */
        int n = ptx_entry_count(m);
        for (int i = 0; i < n; i++) {
            ptx_param_info params[16];
            int count = 0;
            const char *name = ptx_entry_name(m, i);
            if (name)
                (void)ptx_entry_params(m, name, params, 16, &count);
        }
        ptx_module_free(m);
    }
    free(diag);
    free(text);
    return 0;
}
