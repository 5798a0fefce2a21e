/* duel-workload.h — what one engine run does: pattern, mix, depth, span, stop rule
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "duel-size.h"

G_BEGIN_DECLS

typedef enum
{
  DUEL_PATTERN_RANDOM,
  DUEL_PATTERN_SEQUENTIAL,
} DuelPattern;

typedef struct
{
  guint32     block_size;      /* bytes per I/O */
  guint32     queue_depth;     /* I/Os in flight, per job */
  guint       numjobs;         /* jobs at once (fio's numjobs), each with its own ring */
  guint       read_percent;    /* 0..100, decided per I/O */
  DuelPattern pattern;
  guint64     span_offset;     /* bytes from the target's start */
  guint64     span_length;     /* bytes; 0 = to the end of the target */
  guint64     runtime_ms;      /* 0 = no time limit */
  guint64     size_bytes;      /* bytes to transfer; 0 = no absolute limit */
  double      size_multiple;   /* bytes to transfer as a multiple of the span; 0 = none */
  guint       interval_ms;     /* time-series interval, 100..60000 */
  guint64     seed;            /* PRNG seed, recorded so a run can be repeated */
} DuelWorkload;

#define DUEL_WORKLOAD_DEFAULT_INTERVAL_MS 1000
#define DUEL_WORKLOAD_MIN_INTERVAL_MS     100
#define DUEL_WORKLOAD_MAX_INTERVAL_MS     60000
#define DUEL_WORKLOAD_MAX_QUEUE_DEPTH     4096
#define DUEL_WORKLOAD_MAX_NUMJOBS         64
#define DUEL_WORKLOAD_MAX_BLOCK_SIZE      (64u * 1024 * 1024)
#define DUEL_WORKLOAD_MAX_RUNTIME_MS      G_GUINT64_CONSTANT (1000000000000)  /* 1e9 s, ~31 years */
/* The smallest logical block of any drive: before the target is known, a
 * block size, offset or span must at least be a multiple of it. */
#define DUEL_WORKLOAD_MIN_LOGICAL_BLOCK_SIZE 512u

void         duel_workload_init            (DuelWorkload        *workload);
gboolean     duel_workload_validate        (const DuelWorkload  *workload,
                                            GError             **error);
/* fio's rw= name: randread, randwrite, randrw, read, write, rw. */
const char  *duel_workload_get_rw_name     (const DuelWorkload  *workload);
gboolean     duel_workload_set_rw_name     (DuelWorkload        *workload,
                                            const char          *rw,
                                            GError             **error);
/* Whether it reads (read_percent > 0) or writes (read_percent < 100) at all:
 * the one place the percent is read for that. */
gboolean     duel_workload_reads           (const DuelWorkload  *workload);
gboolean     duel_workload_writes          (const DuelWorkload  *workload);
/* Reads and writes both (0 < read_percent < 100): a mix. */
gboolean     duel_workload_is_mixed        (const DuelWorkload  *workload);
/* The block size and the access as a person reads them, translated:
 * "4 KiB random write", "128 KiB sequential read", "4 KiB random 70/30
 * read/write". */
char        *duel_workload_describe_access (const DuelWorkload  *workload);
/* The access alone: "random write", "sequential read", "random 70/30 read/write". */
char        *duel_workload_describe_mix    (const DuelWorkload  *workload);
/* "4 KiB", "1 MiB", "512 B". */
char        *duel_workload_format_block_size (guint32            bytes);
/* The span once the target's size is known, and the byte limit it implies
 * (0 when the run is bounded by time alone). Both fail on misalignment. */
gboolean     duel_workload_resolve         (const DuelWorkload  *workload,
                                            guint64              target_size,
                                            guint32              logical_block_size,
                                            guint64             *out_span_offset,
                                            guint64             *out_span_length,
                                            guint64             *out_byte_limit,
                                            GError             **error);
JsonNode    *duel_workload_to_json         (const DuelWorkload  *workload);
gboolean     duel_workload_from_json       (JsonObject          *object,
                                            DuelWorkload        *out_workload,
                                            GError             **error);

G_END_DECLS
