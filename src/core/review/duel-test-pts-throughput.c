/* duel-test-pts-throughput.c — SNIA PTS throughput: sequential read and write, each block size to its own steady state
 *
 * SNIA PTS throughput test, once per block size (1024 KiB and 128 KiB):
 * purge (the trim the target allows), 128 KiB sequential preconditioning
 * of twice the span, then rounds of a sequential write and a sequential
 * read, one job at queue depth 32, one minute each, until the write's MB/s
 * of the last five rounds is steady (20 % range, 10 % slope), at most 25
 * rounds. The preset "pts-throughput" runs both.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-review-test-private.h"

#define PRECONDITION(prefix) \
  { prefix "-precondition", N_("preconditioning: 128K sequential write to 2x the capacity"), \
    DUEL_ANALYSIS_STANDARD, DUEL_PATTERN_SEQUENTIAL, 128 * 1024, 32, 1, 0, TRUE, DUEL_LIVE_VIEW_WRITE_CURVE }
#define CELL(prefix, bs, read) \
  { prefix "-r" #read, NULL, DUEL_ANALYSIS_MATRIX_CELL, \
    DUEL_PATTERN_SEQUENTIAL, bs, 32, 1, read, FALSE, DUEL_LIVE_VIEW_INTERVALS }

static const DuelReviewStep steps_1m[] = {
  PRECONDITION ("pts-tp-1m"), CELL ("pts-tp-1m", 1024 * 1024, 0), CELL ("pts-tp-1m", 1024 * 1024, 100),
};
static const DuelReviewStep steps_128k[] = {
  PRECONDITION ("pts-tp-128k"), CELL ("pts-tp-128k", 128 * 1024, 0), CELL ("pts-tp-128k", 128 * 1024, 100),
};

static const DuelReviewRounds rounds_1m = {
  .max_rounds = 25, .window = 5, .data_limit = 0.20, .slope_limit = 0.10,
  .tracked_step = "pts-tp-1m-r0", .tracked_key = "mbps",
};
static const DuelReviewRounds rounds_128k = {
  .max_rounds = 25, .window = 5, .data_limit = 0.20, .slope_limit = 0.10,
  .tracked_step = "pts-tp-128k-r0", .tracked_key = "mbps",
};

static const DuelReviewTest test_pts_throughput_1m = {
  .id = "pts-throughput-1m",
  .title = N_("SNIA throughput, 1 MiB"),
  .preset_title = N_("SNIA Throughput (1 MiB)"),
  .description = N_("SNIA PTS throughput: purge, precondition, then 1 MiB sequential write and read in "
                    "one-minute rounds until the write is steady"),
  .runtime_key = "pts_throughput_cell_ms",
  .runtime_ms = 60000,
  .quick_runtime_ms = 1000,
  .trim_first = TRUE,
  .purge_first = TRUE,
  .passes = 1,
  .steps = steps_1m,
  .n_steps = G_N_ELEMENTS (steps_1m),
  .rounds = &rounds_1m,
  .titles_from_workload = TRUE,
};

static const DuelReviewBundle both_block_sizes = {
  .name = "pts-throughput",
  .title = N_("SNIA Throughput"),
  .description = N_("SNIA PTS throughput: 1 MiB, then 128 KiB sequential write and read, each to its own steady state"),
  .tests = { "pts-throughput-1m", "pts-throughput-128k" },
};

static const DuelReviewTest test_pts_throughput_128k = {
  .id = "pts-throughput-128k",
  .title = N_("SNIA throughput, 128 KiB"),
  .preset_title = N_("SNIA Throughput (128 KiB)"),
  .description = N_("SNIA PTS throughput: purge, precondition, then 128 KiB sequential write and read in "
                    "one-minute rounds until the write is steady"),
  .runtime_key = "pts_throughput_128k_cell_ms",
  .runtime_ms = 60000,
  .quick_runtime_ms = 1000,
  .trim_first = TRUE,
  .purge_first = TRUE,
  .passes = 1,
  .steps = steps_128k,
  .n_steps = G_N_ELEMENTS (steps_128k),
  .rounds = &rounds_128k,
  .titles_from_workload = TRUE,
  .ends_bundle = &both_block_sizes,
};

DUEL_REVIEW_TEST_FILE (pts_throughput, &test_pts_throughput_1m, &test_pts_throughput_128k);
