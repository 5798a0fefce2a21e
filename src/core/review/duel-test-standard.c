/* duel-test-standard.c — the standard set: sequential and random throughput
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-review-test-private.h"

/* Writes before reads, so that a fresh file target has data to read. */
static const DuelReviewStep steps[] = {
  { "std-seq-write", N_("128K sequential write QD32"), DUEL_ANALYSIS_STANDARD,
    DUEL_PATTERN_SEQUENTIAL, 128 * 1024, 32, 1, 0, FALSE, DUEL_LIVE_VIEW_BARS },
  { "std-seq-read", N_("128K sequential read QD32"), DUEL_ANALYSIS_STANDARD,
    DUEL_PATTERN_SEQUENTIAL, 128 * 1024, 32, 1, 100, FALSE, DUEL_LIVE_VIEW_BARS },
  { "std-rand-read-qd1", N_("4K random read QD1"), DUEL_ANALYSIS_STANDARD,
    DUEL_PATTERN_RANDOM, 4096, 1, 1, 100, FALSE, DUEL_LIVE_VIEW_BARS },
  { "std-rand-write-qd1", N_("4K random write QD1"), DUEL_ANALYSIS_STANDARD,
    DUEL_PATTERN_RANDOM, 4096, 1, 1, 0, FALSE, DUEL_LIVE_VIEW_BARS },
  { "std-rand-read-qd32", N_("4K random read QD32"), DUEL_ANALYSIS_STANDARD,
    DUEL_PATTERN_RANDOM, 4096, 32, 1, 100, FALSE, DUEL_LIVE_VIEW_BARS },
  { "std-rand-write-qd32", N_("4K random write QD32"), DUEL_ANALYSIS_STANDARD,
    DUEL_PATTERN_RANDOM, 4096, 32, 1, 0, FALSE, DUEL_LIVE_VIEW_BARS },
};

static const DuelReviewTest test_standard = {
  .id = "standard",
  .title = N_("Standard set"),
  .preset_title = N_("Standard Set"),
  .description = N_("128K sequential read and write QD32, 4K random read and write at QD1 and QD32"),
  .runtime_key = "standard_ms",
  .runtime_ms = 60000,
  .quick_runtime_ms = 3000,
  .passes = 1,
  .steps = steps,
  .n_steps = G_N_ELEMENTS (steps),
};

DUEL_REVIEW_TEST_FILE (standard, &test_standard);
