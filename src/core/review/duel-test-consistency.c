/* duel-test-consistency.c — performance consistency: 4 KiB random 50/50 QD32, IOPS per interval
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-review-test-private.h"

static const DuelReviewStep steps[] = {
  { "consistency", NULL, DUEL_ANALYSIS_CONSISTENCY,
    DUEL_PATTERN_RANDOM, 4096, 32, 1, 50, FALSE, DUEL_LIVE_VIEW_INTERVALS },
};

/* The slowest interval, its ratio to the mean, the mean. */
static const char * const headline[] = {
  "consistency_slowest_iops", "consistency_ratio", "consistency_mean_iops", NULL,
};

static const DuelReviewTest test_consistency = {
  .headline = headline,
  .id = "consistency",
  .title = N_("Performance consistency"),
  .preset_title = N_("Performance Consistency"),
  .description = N_("4K random 50/50 read/write QD32 for 20 minutes, per-second IOPS"),
  .runtime_key = "consistency_ms",
  .runtime_ms = 1200000,
  .quick_runtime_ms = 15000,
  .passes = 1,
  .steps = steps,
  .n_steps = G_N_ELEMENTS (steps),
};

DUEL_REVIEW_TEST_FILE (consistency, &test_consistency);
