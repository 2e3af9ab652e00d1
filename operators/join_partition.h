/* Test hook of the joins' radix partition (operators/join_partition.cuh),
 * not part of the public API (include/gjadvise.h): tests/test_join.c checks
 * it against a CPU stable partition at every bit count the joins use. */
#ifndef GJ_OPERATORS_JOIN_PARTITION_H
#define GJ_OPERATORS_JOIN_PARTITION_H

#include <stdint.h>

#include "gjadvise.h"
#include "operators/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Value sources of the first pass; GJ_PART_HASH may be or-ed in: the keys
 * are hashed (operators/hash.cuh, hash_key) as they are read, and kout and
 * the partition are those of the hashed keys. GJ_PART_SPLIT may be or-ed
 * into COPY8 and PACK, without use_cub: the 8-byte values leave split,
 * vout receiving 2n 4-byte values, the low halves in [0, n) and the high
 * halves in [n, 2n) (a packed pair as its two columns: PHJ's S side).
 * GJ_PART_WIDE, with GJ_PART_HASH (PGB): GJ_PART_WIDE_BITS bits take one
 * pass (operators/shapes.h gj_part_passes); other bit counts as without.
 * GJ_PART_RES16: gj_join_partition_claim's keys of a direct plan (below). */
enum {
    GJ_PART_IOTA = 0,
    GJ_PART_COPY4 = 1,
    GJ_PART_COPY8 = 2,
    GJ_PART_PACK = 3,
    GJ_PART_HASH = 16,
    GJ_PART_SPLIT = 32,
    GJ_PART_WIDE = 64,
    GJ_PART_RES16 = 128
};

/* Stable partition of n (key, value) rows on key bits [0, bits), 1 <= bits
 * <= GJ_PART_MAX_BITS (16), on the GPU. key_width 4 or 8. kin/kout: device
 * keys; values: IOTA writes row indices (4 bytes) to vout; COPY4/COPY8 copy
 * va (4 or 8 bytes);
 * PACK writes va[i] | vb[i] << 32 (8 bytes). use_cub: CUB's radix sort
 * instead (IOTA, PACK and GJ_PART_HASH then build their values or hashed
 * keys first). Synchronises the
 * stream before returning. Returns GJ_OK, GJ_ERR_INVALID, GJ_ERR_CUDA. */
int gj_join_partition(int key_width, const void *kin, void *kout, int mode, const void *va,
                      const void *vb, void *vout, uint64_t n, int bits, int use_cub, void *stream,
                      gj_ctx *ctx);

/* PGB's claimed pass (operators/shapes.h gj_part_claims): one pass of
 * 1..10 bits (mode GJ_PART_IOTA or GJ_PART_PACK, or-ed with GJ_PART_HASH,
 * or for a direct plan's keys (shapes.h gj_pgb_direct, unhashed) with
 * GJ_PART_RES16) without a histogram, into kout and vout of room >=
 * gj_part_claim_room(n, bits) rows (room + n under 2^32). words: 4 *
 * 2^bits + 2 device words; on return words[b] is bin b's first row and
 * words[2 * 2^bits + b] its end (bin b's room ends at words[2^bits + b]):
 * the bins lie in order with gaps, a bin's rows in no particular order.
 * GJ_PART_RES16: kout receives each key k as the 2-byte residue
 * (int16_t)((k >> bits) - (kin[0] >> bits)); its bin gives the low bits
 * back (k_pgb_many rebuilds the key, operators/groupby_kernels.cuh
 * PgbKeys): a direct plan's span of at most 2^14 table slots a partition
 * keeps it within int16, and a key out of that reach fails the claim. *claimed = 0 where a bin outgrew the room its sample gave it (or
 * a residue overflowed): the output is garbage, run gj_join_partition
 * instead. Synchronises the stream. Returns GJ_OK, GJ_ERR_INVALID,
 * GJ_ERR_CUDA. */
int gj_join_partition_claim(int key_width, const void *kin, void *kout, int mode, const void *va, const void *vb,
                            void *vout, uint64_t n, int bits, uint64_t room, uint32_t *words, int *claimed,
                            void *stream, gj_ctx *ctx);
#ifdef __cplusplus
}
#endif
#endif
