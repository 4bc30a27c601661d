/* dram.h — a model of the DRAM traffic of one launch: which global memory requests the
 * L2 cache serves and which go to DRAM, so that the roofline's arithmetic intensity is
 * FLOPs per byte of DRAM traffic (Williams, Waterman and Patterson, "Roofline", CACM
 * 2009) and not per byte the kernel asked the memory system for.
 *
 * The model. Global memory moves in 32-byte sectors (CUDA C++ Best Practices Guide,
 * "Coalesced Access to Global Memory"; the L2 keeps valid and dirty state per sector).
 * The L2 is modelled as l2_bytes / 32 sectors, fully associative, least recently used
 * first out, and empty when the launch starts (Nsight Compute flushes the caches before
 * it profiles a kernel: Kernel Profiling Guide, "Cache Control"). A request touches the
 * distinct sectors of its active lanes ([addr, addr + width) each), in address order:
 *  - a load (or the read of an atomic) of a sector the L2 does not hold reads it from
 *    DRAM: 32 bytes read; a sector it holds costs nothing and becomes the most recent;
 *  - a store (or the write of an atomic) makes its sector resident and dirty without
 *    reading it (the L2 merges written bytes with byte masks);
 *  - every dirty sector is written back once, when it is evicted or when the kernel
 *    ends. The model counts those 32 bytes when a clean sector becomes dirty: the total
 *    is the same, and it is exact at any event a trace stops at.
 * So a buffer read many times costs its size once while it fits in the L2, and a
 * streaming kernel's reads and writes are its sectors. Simplifications, each in the
 * kernel's favour or neutral: no L1 (an L1 hit is an L2 hit as far as DRAM goes), one L2
 * for the whole GPU (an A100's or H100's two partitions may each hold a copy), ideal LRU
 * rather than the hardware's hashed sets and policy, a partly written sector never read
 * back to fill its other bytes, no traffic from local memory (spills) or constant memory.
 *
 * It is deterministic: the same sequence of requests gives the same bytes. It streams:
 * each request is counted as it comes (gl_dram_access), so a trace sink that feeds it
 * every event (trace.h) is exact even when the stored trace was cut. trace/analysis.h
 * feeds it (dram__bytes_read.sum, dram__bytes_write.sum).
 *
 * Memory: 24 bytes per resident sector and 8 to 16 of hash table, for at most
 * l2_bytes / 32 sectors and only as many as the kernel touched (56 MB for all of an
 * H100's 50 MiB).
 */
#ifndef GL_DRAM_H
#define GL_DRAM_H

#include <stdint.h>

typedef struct gl_dram gl_dram;

/* An empty L2 of l2_bytes (rounded down to whole 32-byte sectors, at least one). NULL
 * when out of memory. Free with gl_dram_free. */
gl_dram *gl_dram_new(uint64_t l2_bytes);
void gl_dram_free(gl_dram *d);

/* One warp's global memory request: op is trace_mem_op (TRACE_LOAD, TRACE_STORE,
 * TRACE_ATOMIC), addrs the 32 lane addresses, mask the active lanes, width the bytes per
 * lane (0 counts as 1). Adds the DRAM bytes it causes to *read (sectors read now) and
 * *written (sectors it made dirty, each written back once later). On no memory the
 * request is counted as missing the L2 entirely and gl_dram_nomem says so. */
void gl_dram_access(gl_dram *d, int op, const uint64_t *addrs, uint32_t mask, unsigned width,
                    uint64_t *read, uint64_t *written);

/* 1 when memory ran out during some access (the counts are then an upper bound). */
int gl_dram_nomem(const gl_dram *d);

#endif
