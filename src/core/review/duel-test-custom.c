/* duel-test-custom.c — a custom test: one workload of the person's choosing
 *
 * The block size, queue depth, jobs, access and read share come from the
 * preset's options (DuelPresetOptions.custom), its length from the timed
 * length; its record is summarised by the analysis its workload fits.
 * Two custom tests compare under one name, their differences said by the
 * comparison's fairness warnings.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-review-test-private.h"

static const DuelReviewStep steps[] = {
  { "custom", NULL, DUEL_ANALYSIS_STANDARD,
    DUEL_PATTERN_RANDOM, 4096, 1, 1, 100, FALSE, DUEL_LIVE_VIEW_INTERVALS, TRUE },
};

static const DuelReviewTest test_custom = {
  .id = "custom",
  .title = N_("Custom test"),
  .preset_title = N_("Custom Test"),
  .description = N_("One workload of your choosing: access, read share, block size, queue depth, jobs and length"),
  .runtime_key = "custom_ms",
  .runtime_ms = 60000,
  .quick_runtime_ms = 60000,
  .passes = 1,
  .steps = steps,
  .n_steps = G_N_ELEMENTS (steps),
};

DUEL_REVIEW_TEST_FILE (custom, &test_custom);
