/* duel-test-pts-iops.c — SNIA PTS IOPS: a matrix of block sizes and read/write mixes, in rounds to steady state
 *
 * SNIA's Solid State Storage Performance Test Specification (PTS-C 2.0,
 * PTS-E 1.1), IOPS test: purge (here the trim the target allows; the
 * record says which), workload-independent preconditioning (128 KiB
 * sequential write of twice the span), then rounds of every read/write mix
 * (100/0 … 0/100) at every block size (1024 KiB … 512 B), one minute each,
 * random, until the 4 KiB 100 % write IOPS of the last five rounds is
 * steady (range within 20 % of their mean, fitted line within 10 %), at
 * most 25 rounds. Outstanding I/O: one job at queue depth 32 (SNIA leaves
 * the thread count and queue depth to the tester; the record keeps both).
 * The report is each cell's mean over the steady-state window.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-review-test-private.h"

#define CELL(bs_name, bs, read) \
  { "pts-iops-" bs_name "-r" #read, NULL, DUEL_ANALYSIS_MATRIX_CELL, \
    DUEL_PATTERN_RANDOM, bs, 32, 1, read, FALSE, DUEL_LIVE_VIEW_INTERVALS }
#define MIX(read) \
  CELL ("1m", 1024 * 1024, read), CELL ("128k", 128 * 1024, read), CELL ("64k", 64 * 1024, read), \
  CELL ("32k", 32 * 1024, read), CELL ("16k", 16 * 1024, read), CELL ("8k", 8 * 1024, read), \
  CELL ("4k", 4096, read), CELL ("512", 512, read)

/* SNIA's order: the mixes outside, the block sizes inside, largest first. */
static const DuelReviewStep steps[] = {
  { "pts-iops-precondition", N_("preconditioning: 128K sequential write to 2x the capacity"),
    DUEL_ANALYSIS_STANDARD, DUEL_PATTERN_SEQUENTIAL, 128 * 1024, 32, 1, 0, TRUE, DUEL_LIVE_VIEW_WRITE_CURVE },
  MIX (100), MIX (95), MIX (65), MIX (50), MIX (35), MIX (5), MIX (0),
};

static const DuelReviewRounds rounds = {
  .max_rounds = 25,
  .window = 5,
  .data_limit = 0.20,
  .slope_limit = 0.10,
  .tracked_step = "pts-iops-4k-r0",
  .tracked_key = "iops",
};

static const DuelReviewTest test_pts_iops = {
  .id = "pts-iops",
  .title = N_("SNIA IOPS"),
  .preset_title = N_("SNIA IOPS"),
  .description = N_("SNIA PTS IOPS: purge, precondition, then block sizes from 512 B to 1 MiB at seven "
                    "read/write mixes, in one-minute rounds until 4K random write is steady"),
  .runtime_key = "pts_iops_cell_ms",
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

DUEL_REVIEW_TEST_FILE (pts_iops, &test_pts_iops);
