/* duel-test-sequential-write.c — the sustained sequential write: trim, then 1 MiB sequential writes from start to end
 *
 * The chart today's reviews lead with: MB/s against GB written while the
 * drive is written once from empty, which shows the pseudo-SLC cache (its
 * size, the speed in it and after it, and the folding stretch on drives
 * that have one; duel-sequential-write.c). The span (the whole target, or
 * --span for a shorter first look) is trimmed, then written exactly once,
 * front to back, in one stream.
 *
 * 1 MiB blocks at queue depth 8, one job: CrystalDiskMark's SEQ1M Q8T1,
 * the workload behind the sequential write figures reviews and spec sheets
 * quote as the cache's speed. Eight 1 MiB writes in flight saturate an
 * NVMe drive's sequential write; deeper queues only add latency, and one
 * stream keeps the writes strictly in order, as a cache test needs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-review-test-private.h"

static const DuelReviewStep steps[] = {
  { "seqw-fill", NULL, DUEL_ANALYSIS_SEQUENTIAL_WRITE,
    DUEL_PATTERN_SEQUENTIAL, 1024 * 1024, 8, 1, 0, TRUE, DUEL_LIVE_VIEW_SEQUENTIAL },
};

/* The cache and the speed after it first: what a buyer of a QLC drive
 * compares. */
static const char * const headline[] = {
  "seqw_cache_gb", "seqw_cache_mbps", "seqw_after_cache_mbps", "seqw_fold_mbps", "seqw_mean_mbps", "seqw_time_s", NULL,
};

static const DuelReviewTest test_sequential_write = {
  .headline = headline,
  .id = "sequential-write",
  .title = N_("Sustained sequential write"),
  .preset_title = N_("Sustained Sequential Write"),
  .description = N_("Discard, then 1 MiB sequential write QD8 from the start to the end: the write cache’s size "
                    "and the speeds in it and after it"),
  .trim_first = TRUE,
  .fill_multiple = 1,
  /* A small or fast drive writes its cache in a second or two: rows of
   * 1 s would leave the fall inside one row (a 1 GiB drive at 320 MB/s). */
  .max_interval_ms = 100,
  .passes = 1,
  .steps = steps,
  .n_steps = G_N_ELEMENTS (steps),
};

DUEL_REVIEW_TEST_FILE (sequential_write, &test_sequential_write);
