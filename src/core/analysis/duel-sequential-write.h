/* duel-sequential-write.h — the sustained sequential write: a write cache's size and the speeds either side of it
 *
 * The drive written once from start to end in large sequential blocks
 * (src/core/review/duel-test-sequential-write.c), read as MB/s against
 * GB written. Its falls are found by the fill's own rule
 * (duel_analysis_falls(), docs/analysis.md "Falls"): the first fall is
 * the write cache running out, its knee the cache's size; a second fall
 * is the folding stretch, a third, slower level while the drive moves
 * the cache's contents to its native cells. A drive without a fall held
 * one speed throughout. Pure functions of the series, as every analysis.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-analysis.h"

G_BEGIN_DECLS

typedef struct
{
  guint64   span_bytes;
  guint64   written_bytes;
  double    seconds;               /* the write's time, pauses left out */
  double    mean_mbps;             /* written / seconds, 10^6 bytes per second */
  double    bytes_per_op;          /* written / write ops: MB/s = IOPS x this / 10^6 */
  DuelFalls falls;                 /* every fall, in IOPS and % of the span */
  gboolean  cache_found;           /* a first fall: the cache ran out */
  guint64   cache_bytes;           /* written before its knee */
  double    cache_resolution_bytes;/* ± how far the knee may lie from cache_bytes */
  double    cache_mbps;            /* the level before it */
  double    after_cache_mbps;      /* the level after it */
  gboolean  fold_found;            /* a second fall: the folding stretch */
  guint64   fold_bytes;
  double    fold_resolution_bytes;
  double    fold_mbps;             /* the level after the second fall */
  /* The rows but the last (which the end cuts short): most of them (the
   * 5th to the 95th percentile) between row_low_mbps and row_high_mbps,
   * NAN without any; held when those differ by less than a fall. */
  double    row_low_mbps;
  double    row_high_mbps;
  gboolean  held;
} DuelSequentialWrite;

void        duel_analysis_sequential_write  (const DuelSeries         *series,
                                             guint64                   span_bytes,
                                             const DuelAnalysisParams *params,
                                             DuelSequentialWrite      *out);
void        duel_sequential_write_clear     (DuelSequentialWrite      *write);
/* @write as summary.details.sequential_write holds it. */
JsonObject *duel_sequential_write_to_json   (const DuelSequentialWrite *write);
/* The sentences of a sequential write, in the reader's language, from a
 * record's summary details (or duel_summary_get_details()): one for each
 * fall ("The cache ran out after 42.3 GB (± 0.4 GB): from 6,812 to 1,480
 * MB/s."), or without a fall one saying that the write held one speed, or
 * how far its rows ranged when they did not. NULL-terminated;
 * empty when @details hold no sequential write. */
char      **duel_sequential_write_dup_text  (JsonObject               *details);

G_END_DECLS
