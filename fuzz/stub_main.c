/* stub_main.c — a main() for the fuzz targets without libFuzzer, so that `make check`
 * builds them with the compiler and libraries of every other test (they link against
 * the current sources and cannot rot) and replays their inputs: it runs
 * LLVMFuzzerInitialize (when the target has one) and then LLVMFuzzerTestOneInput once per
 * file named on the command line, every regular file of a named folder in name order,
 * as libFuzzer replays inputs. tests/fuzz_replay.sh runs each target over its seeds
 * (fuzz/corpus/NAME) and its saved crashes (fuzz/crashes/NAME). Exit 0 after all inputs
 * (a crash ends the process as it would under libFuzzer), 2 when a file cannot be read. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Runs the target on the file at path: 0, or -1 when it cannot be read. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    uint8_t *data = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            uint8_t *nd = realloc(data, cap ? cap * 2 : 4096);
            if (!nd)
                break;
            data = nd;
            cap = cap ? cap * 2 : 4096;
        }
        size_t got = fread(data + len, 1, cap - len, f);
        if (got == 0)
            break;
        len += got;
    }
    const int err = ferror(f);
    fclose(f);
    if (!err) /* a copy of exactly len bytes: the target may read no further (ASan) */
        LLVMFuzzerTestOneInput(len ? data : (const uint8_t *)"", len);
    free(data);
    return err ? -1 : 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    int rc = 0, inputs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "%s: cannot read it\n", argv[i]);
            rc = 2;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            rc = run_file(argv[i]) == 0 ? rc : 2;
            inputs++;
            continue;
        }
        struct dirent **names = NULL;
        const int n = scandir(argv[i], &names, NULL, by_name);
        for (int k = 0; k < n; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
            if (names[k]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                rc = run_file(path) == 0 ? rc : 2;
                inputs++;
            }
            free(names[k]);
        }
        free(names);
    }
    printf("%s: %d inputs run\n", argv[0], inputs);
    return rc;
}
