/* duel-test-qos.c — quality of service: latency percentiles at QD1 and QD32, and a 50/50 mix
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-review-test-private.h"

static const DuelReviewStep steps[] = {
  { "qos-read-qd1", N_("4K random read QD1"), DUEL_ANALYSIS_QOS,
    DUEL_PATTERN_RANDOM, 4096, 1, 1, 100, FALSE, DUEL_LIVE_VIEW_LATENCY },
  { "qos-write-qd1", N_("4K random write QD1"), DUEL_ANALYSIS_QOS,
    DUEL_PATTERN_RANDOM, 4096, 1, 1, 0, FALSE, DUEL_LIVE_VIEW_LATENCY },
  { "qos-read-qd32", N_("4K random read QD32"), DUEL_ANALYSIS_QOS,
    DUEL_PATTERN_RANDOM, 4096, 32, 1, 100, FALSE, DUEL_LIVE_VIEW_LATENCY },
  { "qos-write-qd32", N_("4K random write QD32"), DUEL_ANALYSIS_QOS,
    DUEL_PATTERN_RANDOM, 4096, 32, 1, 0, FALSE, DUEL_LIVE_VIEW_LATENCY },
  { "qos-mix-qd32", N_("4K random 50/50 mix QD32"), DUEL_ANALYSIS_QOS,
    DUEL_PATTERN_RANDOM, 4096, 32, 1, 50, FALSE, DUEL_LIVE_VIEW_LATENCY },
};

/* 99.99 % at QD1 and QD32, reads and writes. */
static const char * const headline[] = {
  "qos_read_qd1_p99_99_us", "qos_write_qd1_p99_99_us", "qos_read_qd32_p99_99_us", "qos_write_qd32_p99_99_us", NULL,
};

static const DuelReviewTest test_qos = {
  .headline = headline,
  .id = "qos",
  .title = N_("Quality of service"),
  .preset_title = N_("Quality of Service"),
  .description = N_("Latency percentiles of 4K random read and write at QD1 and QD32, and a 50/50 mix"),
  .runtime_key = "qos_ms",
  .runtime_ms = 60000,
  .quick_runtime_ms = 4000,
  .passes = 1,
  .steps = steps,
  .n_steps = G_N_ELEMENTS (steps),
};

DUEL_REVIEW_TEST_FILE (qos, &test_qos);
