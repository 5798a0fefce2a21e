/* duel-test-recovery.c — recovery after idle: trim, the review's fill, then bursts of 4 KiB random write after idle periods
 *
 * A burst of 4 KiB random write QD32 on the trimmed drive gives its fresh
 * speed; the fill brings the drive to its dirty, steady speed (4 KiB
 * random write QD32 to 2x the span, as the review's write saturation test
 * does); the
 * drive is then left idle (no I/O from the run) for each period in turn,
 * 5 and 30 minutes by default (reviews use these), and a 30 s burst of
 * 4 KiB random write QD32 after each measures how much of the fresh speed
 * background garbage collection gave back, and 1 MiB sequential writes
 * before it, until their rate falls, how large a write cache the idle
 * rebuilt (duel-recovery.c). The sequential write goes first: a burst of
 * 30 s would use up much of a rebuilt cache before it could be measured
 * (10 s at 4,000 IOPS took all of the simulated SSD's); it stops once its
 * rate has fallen, so the burst after it meets the drive with its cache
 * used up, and measures what garbage collection freed. The periods
 * are the plan's (DuelPresetOptions.idle_ms); a burst whose period the
 * plan lacks does not run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-review-test-private.h"

#define BURST(n, title) \
  { "recovery-burst-" #n, title, DUEL_ANALYSIS_RECOVERY, \
    DUEL_PATTERN_RANDOM, 4096, 32, 1, 0, FALSE, DUEL_LIVE_VIEW_INTERVALS, FALSE, n }
/* Before it, right after the idle, 1 MiB sequential writes QD8 (the
 * sustained sequential write's) until their rate falls: the cache the idle
 * rebuilt. At most a quarter of the span or two minutes (the probe's share). */
#define CACHE(n, title) \
  { "recovery-cache-" #n, title, DUEL_ANALYSIS_RECOVERY, \
    DUEL_PATTERN_SEQUENTIAL, 1024 * 1024, 8, 1, 0, TRUE, DUEL_LIVE_VIEW_SEQUENTIAL, FALSE, n, 0.25 }

static const DuelReviewStep steps[] = {
  /* The fresh speed, measured as the bursts after the idles will be: the
   * first point of a fill is too short and too early to compare with. */
  { "recovery-fresh", N_("4K random write on the fresh drive"), DUEL_ANALYSIS_RECOVERY,
    DUEL_PATTERN_RANDOM, 4096, 32, 1, 0, FALSE, DUEL_LIVE_VIEW_INTERVALS },
  { "recovery-fill", N_("fill"), DUEL_ANALYSIS_SATURATION,
    DUEL_PATTERN_RANDOM, 4096, 32, 1, 0, TRUE, DUEL_LIVE_VIEW_WRITE_CURVE },
  CACHE (1, N_("sequential write after the first idle, until it slows")),
  BURST (1, N_("4K random write after the first idle")),
  CACHE (2, N_("sequential write after the second idle, until it slows")),
  BURST (2, N_("4K random write after the second idle")),
  CACHE (3, N_("sequential write after the third idle, until it slows")),
  BURST (3, N_("4K random write after the third idle")),
  CACHE (4, N_("sequential write after the fourth idle, until it slows")),
  BURST (4, N_("4K random write after the fourth idle")),
};

static const char * const headline[] = {
  "recovery_iops", "recovery_fresh_pct", "recovery_regained_pct", "idle_s", NULL,
};

static const DuelReviewTest test_recovery = {
  .headline = headline,
  .id = "recovery",
  .title = N_("Recovery after idle"),
  .preset_title = N_("Recovery After Idle"),
  .description = N_("Discard, a 4K random write burst on the fresh drive, 4K random write QD32 to 2x the "
                    "capacity, then after each idle period (no I/O) the same burst and a sequential write "
                    "until it slows: how much of the fresh speed came back, and how large a cache"),
  .runtime_key = "recovery_burst_ms",
  .runtime_ms = 30000,
  .quick_runtime_ms = 2000,
  .trim_first = TRUE,
  .passes = 1,
  .steps = steps,
  .n_steps = G_N_ELEMENTS (steps),
  .idle_ms = { 5 * 60000, 30 * 60000 },
  .quick_idle_ms = { 2000, 5000 },
};

DUEL_REVIEW_TEST_FILE (recovery, &test_recovery);
