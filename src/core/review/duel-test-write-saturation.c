/* duel-test-write-saturation.c — the review's fill: trim, 4 KiB random write QD32 to 2x the span, then the read score
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-review-test-private.h"

static const DuelReviewStep steps[] = {
  { "wsat-fill", NULL, DUEL_ANALYSIS_SATURATION,
    DUEL_PATTERN_RANDOM, 4096, 32, 1, 0, TRUE, DUEL_LIVE_VIEW_WRITE_CURVE },
  { "wsat-read", N_("read score after the fill"), DUEL_ANALYSIS_READ_SCORE,
    DUEL_PATTERN_RANDOM, 4096, 32, 1, 100, FALSE, DUEL_LIVE_VIEW_INTERVALS },
};

/* The fill's curve at its points, its cliff and plateau; the mean over the
 * run and the read score after it, each followed by the review's own score
 * in a row of its own. */
static const char * const headline[] = {
  "iops_at_0pct", "iops_at_50pct", "iops_at_100pct", "iops_at_end", "plateau_iops", "cliff_pct",
  "write_iops_mean", "review_write_score_iops", "read_score_iops", "review_read_score_iops", NULL,
};

static const DuelReviewTest test_write_saturation = {
  .headline = headline,
  .id = "write-saturation",
  .title = N_("Write saturation"),
  .preset_title = N_("Write Saturation"),
  .description = N_("Discard, then 4K random write QD32 to 2x the capacity, then a 4K random read score"),
  .runtime_key = "read_score_ms",
  .runtime_ms = 60000,
  .quick_runtime_ms = 5000,
  .trim_first = TRUE,
  .passes = 1,
  .steps = steps,
  .n_steps = G_N_ELEMENTS (steps),
};

DUEL_REVIEW_TEST_FILE (write_saturation, &test_write_saturation);
