/* duel-test-pts-latency.c — SNIA PTS latency: small blocks at QD1, in rounds to steady state
 *
 * SNIA PTS latency test: purge (the trim the target allows), 128 KiB
 * sequential preconditioning of twice the span, then rounds of 512 B,
 * 4 KiB and 8 KiB random at 100/0, 65/35 and 0/100 read/write, one job at
 * queue depth 1, one minute each, until the 4 KiB 100 % write mean latency
 * of the last five rounds is steady (20 % range, 10 % slope), at most 25
 * rounds. Each cell reports its mean, 99.99 % and longest latency over the
 * steady window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-review-test-private.h"

#define CELL(bs_name, bs, read) \
  { "pts-lat-" bs_name "-r" #read, NULL, DUEL_ANALYSIS_MATRIX_CELL, \
    DUEL_PATTERN_RANDOM, bs, 1, 1, read, FALSE, DUEL_LIVE_VIEW_LATENCY }
#define MIX(read) CELL ("8k", 8 * 1024, read), CELL ("4k", 4096, read), CELL ("512", 512, read)

static const DuelReviewStep steps[] = {
  { "pts-lat-precondition", N_("preconditioning: 128K sequential write to 2x the capacity"),
    DUEL_ANALYSIS_STANDARD, DUEL_PATTERN_SEQUENTIAL, 128 * 1024, 32, 1, 0, TRUE, DUEL_LIVE_VIEW_WRITE_CURVE },
  MIX (100), MIX (65), MIX (0),
};

static const DuelReviewRounds rounds = {
  .max_rounds = 25,
  .window = 5,
  .data_limit = 0.20,
  .slope_limit = 0.10,
  .tracked_step = "pts-lat-4k-r0",
  .tracked_key = "latency_mean_us",
};

static const DuelReviewTest test_pts_latency = {
  .id = "pts-latency",
  .title = N_("SNIA latency"),
  .preset_title = N_("SNIA Latency"),
  .description = N_("SNIA PTS latency: purge, precondition, then 512 B, 4K and 8K random at QD1 and three "
                    "read/write mixes, in one-minute rounds until 4K random write latency is steady"),
  .runtime_key = "pts_latency_cell_ms",
  .runtime_ms = 60000,
  .quick_runtime_ms = 1000,
  .trim_first = TRUE,
  .purge_first = TRUE,
  .passes = 1,
  .steps = steps,
  .n_steps = G_N_ELEMENTS (steps),
  .rounds = &rounds,
  .titles_from_workload = TRUE,
};

DUEL_REVIEW_TEST_FILE (pts_latency, &test_pts_latency);
