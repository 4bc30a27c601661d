/* sfu_tables.c — the tables of sim/sfu/ from a GPU's special-function unit results (sim/sfu.h).
 *
 * Usage: build/debug/tools/sfu_tables DUMPDIR OUTDIR
 *
 * DUMPDIR holds rcp.d8, rsqrt.d8, sqrt.d8 and ex2.d8 as tools/sfu_dump.cu writes them on
 * a machine with an NVIDIA GPU. For each table, every entry's correction (the GPU's
 * result minus sim/sfu.c's correctly rounded reference, in ulps: -2..+1) is packed in 2
 * bits and zlib-compressed into OUTDIR/<table>.z (written to a temporary file, then
 * renamed). Prints each table's corrections and size. Exits 0, or 1 naming the entry
 * whose correction does not fit, or 2 for a missing or short dump. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "sim/sfu.h"

static const char *const names[SFU_NTABLES] = {"rcp", "rsqrt", "sqrt", "ex2"};

/* Reads n results from dump file path (sfu_dump.cu's coding) into out. 0, or -1 after a
 * message. */
static int read_dump(const char *path, uint32_t *out, unsigned n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "sfu_tables: %s: %s\n", path, strerror(errno));
        return -1;
    }
    uint32_t prev = 0;
    unsigned i = 0;
    int c;
    while (i < n && (c = getc(f)) != EOF) {
        if (c == 0x80) {
            unsigned char b[4];
            if (fread(b, 1, 4, f) != 4)
                break;
            prev = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        } else {
            prev += (uint32_t)(int32_t)(int8_t)c;
        }
        out[i++] = prev;
    }
    fclose(f);
    if (i < n) {
        fprintf(stderr, "sfu_tables: %s: %u results, %u expected\n", path, i, n);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: sfu_tables DUMPDIR OUTDIR\n");
        return 2;
    }
    for (int t = 0; t < SFU_NTABLES; t++) {
        const unsigned n = sfu_table_size((sfu_table_id)t);
        uint32_t *gpu = malloc((size_t)n * 4);
        unsigned char *packed = calloc(n / 4, 1);
        uLongf zlen = compressBound(n / 4);
        unsigned char *z = malloc(zlen);
        if (!gpu || !packed || !z) {
            fprintf(stderr, "sfu_tables: out of memory\n");
            return 2;
        }
        char path[4096], tmp[4200];
        snprintf(path, sizeof path, "%s/%s.d8", argv[1], names[t]);
        if (read_dump(path, gpu, n) != 0)
            return 2;
        unsigned long long count[4] = {0};
        for (unsigned k = 0; k < n; k++) {
            /* ex2's dump is of 1 + f: twice the table's 2^f */
            const uint32_t hw = t == SFU_EX2 ? gpu[k] - (1u << 23) : gpu[k];
            const int corr = (int)hw - (int)sfu_table_reference((sfu_table_id)t, k);
            if (corr < -2 || corr > 1) {
                fprintf(stderr,
                        "sfu_tables: %s entry %u: the GPU's 0x%08x is %d ulps from the "
                        "reference: more than 2 bits hold\n",
                        names[t], k, hw, corr);
                return 1;
            }
            count[corr + 2]++;
            packed[k >> 2] |= (unsigned char)((corr + 2) << (2 * (k & 3)));
        }
        if (compress2(z, &zlen, packed, n / 4, 9) != Z_OK) {
            fprintf(stderr, "sfu_tables: zlib failed on %s\n", names[t]);
            return 2;
        }
        snprintf(path, sizeof path, "%s/%s.z", argv[2], names[t]);
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        FILE *f = fopen(tmp, "wb");
        if (!f || fwrite(z, 1, zlen, f) != zlen || fclose(f) != 0 || rename(tmp, path) != 0) {
            fprintf(stderr, "sfu_tables: %s: %s\n", path, strerror(errno));
            return 2;
        }
        printf("%-5s %8u entries: corrections -2: %llu, -1: %llu, 0: %llu, +1: %llu; %s %lu "
               "bytes\n",
               names[t], n, count[0], count[1], count[2], count[3], path, (unsigned long)zlen);
        free(gpu);
        free(packed);
        free(z);
    }
    return 0;
}
