/* duel-test-crystaldiskmark.c — the CrystalDiskMark set: its default and NVMe profiles
 *
 * CrystalDiskMark 8's tests with its own notation: SEQ1M is 1 MiB
 * (1048576-byte) sequential blocks, RND4K 4 KiB random blocks, Q the queue
 * depth per thread and T the threads (numjobs here). Its defaults: each
 * test runs 5 passes of 5 s and the best pass is reported (MB/s; IOPS and
 * latency beside it), so .passes is 5 and the comparison keeps the best.
 *
 * CrystalDiskMark writes its test file before it measures, so its reads read
 * data. A preset has no such preparation: each test writes before it reads,
 * so that a fresh file target has data to read (as the standard set does).
 *
 * Its test file is 1 GiB by default: so is the span, unless one is given.
 * The write before each read covers it many times over at sequential speed,
 * so no read of a fresh drive reads blocks never written (which an SSD
 * answers without reading flash).
 *
 * Steps both profiles share have one record name, so that a run of either
 * profile compares with the other on what they have in common; a name is
 * looked up in the first of the two (duel-review-tests.c), whose step is the
 * same.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-review-test-private.h"

#define MIB_BLOCK (1024 * 1024)

#define SEQ1M_Q8T1 \
  { "cdm-seq1m-q8t1-write", N_("SEQ1M Q8T1 write"), DUEL_ANALYSIS_STANDARD, \
    DUEL_PATTERN_SEQUENTIAL, MIB_BLOCK, 8, 1, 0, FALSE, DUEL_LIVE_VIEW_BARS }, \
  { "cdm-seq1m-q8t1-read", N_("SEQ1M Q8T1 read"), DUEL_ANALYSIS_STANDARD, \
    DUEL_PATTERN_SEQUENTIAL, MIB_BLOCK, 8, 1, 100, FALSE, DUEL_LIVE_VIEW_BARS }
#define RND4K_Q32T16 \
  { "cdm-rnd4k-q32t16-write", N_("RND4K Q32T16 write"), DUEL_ANALYSIS_STANDARD, \
    DUEL_PATTERN_RANDOM, 4096, 32, 16, 0, FALSE, DUEL_LIVE_VIEW_BARS }, \
  { "cdm-rnd4k-q32t16-read", N_("RND4K Q32T16 read"), DUEL_ANALYSIS_STANDARD, \
    DUEL_PATTERN_RANDOM, 4096, 32, 16, 100, FALSE, DUEL_LIVE_VIEW_BARS }
#define RND4K_Q1T1 \
  { "cdm-rnd4k-q1t1-write", N_("RND4K Q1T1 write"), DUEL_ANALYSIS_STANDARD, \
    DUEL_PATTERN_RANDOM, 4096, 1, 1, 0, FALSE, DUEL_LIVE_VIEW_BARS }, \
  { "cdm-rnd4k-q1t1-read", N_("RND4K Q1T1 read"), DUEL_ANALYSIS_STANDARD, \
    DUEL_PATTERN_RANDOM, 4096, 1, 1, 100, FALSE, DUEL_LIVE_VIEW_BARS }

/* CrystalDiskMark's default profile. */
static const DuelReviewStep default_steps[] = {
  SEQ1M_Q8T1,
  { "cdm-seq1m-q1t1-write", N_("SEQ1M Q1T1 write"), DUEL_ANALYSIS_STANDARD,
    DUEL_PATTERN_SEQUENTIAL, MIB_BLOCK, 1, 1, 0, FALSE, DUEL_LIVE_VIEW_BARS },
  { "cdm-seq1m-q1t1-read", N_("SEQ1M Q1T1 read"), DUEL_ANALYSIS_STANDARD,
    DUEL_PATTERN_SEQUENTIAL, MIB_BLOCK, 1, 1, 100, FALSE, DUEL_LIVE_VIEW_BARS },
  RND4K_Q32T16,
  RND4K_Q1T1,
};

/* Its NVMe SSD profile: SEQ128K Q32T1 in place of SEQ1M Q1T1. */
static const DuelReviewStep nvme_steps[] = {
  SEQ1M_Q8T1,
  { "cdm-seq128k-q32t1-write", N_("SEQ128K Q32T1 write"), DUEL_ANALYSIS_STANDARD,
    DUEL_PATTERN_SEQUENTIAL, 128 * 1024, 32, 1, 0, FALSE, DUEL_LIVE_VIEW_BARS },
  { "cdm-seq128k-q32t1-read", N_("SEQ128K Q32T1 read"), DUEL_ANALYSIS_STANDARD,
    DUEL_PATTERN_SEQUENTIAL, 128 * 1024, 32, 1, 100, FALSE, DUEL_LIVE_VIEW_BARS },
  RND4K_Q32T16,
  RND4K_Q1T1,
};

static const DuelReviewTest test_crystaldiskmark = {
  .id = "crystaldiskmark",
  .title = N_("CrystalDiskMark set"),
  .preset_title = N_("CrystalDiskMark"),
  .description = N_("CrystalDiskMark’s default profile: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T16 and RND4K Q1T1, "
                    "write and read, best of 5 passes of 5 s"),
  .runtime_key = "crystaldiskmark_ms",
  .runtime_ms = 5000,
  .quick_runtime_ms = 1000,
  .span_bytes = G_GUINT64_CONSTANT (1) << 30,
  .passes = 5,
  .steps = default_steps,
  .n_steps = G_N_ELEMENTS (default_steps),
};

static const DuelReviewTest test_crystaldiskmark_nvme = {
  .id = "crystaldiskmark-nvme",
  .title = N_("CrystalDiskMark set"),
  .preset_title = N_("CrystalDiskMark (NVMe)"),
  .description = N_("CrystalDiskMark’s NVMe profile: SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16 and RND4K Q1T1, "
                    "write and read, best of 5 passes of 5 s"),
  .runtime_key = "crystaldiskmark_nvme_ms",
  .runtime_ms = 5000,
  .quick_runtime_ms = 1000,
  .span_bytes = G_GUINT64_CONSTANT (1) << 30,
  .passes = 5,
  .steps = nvme_steps,
  .n_steps = G_N_ELEMENTS (nvme_steps),
};

DUEL_REVIEW_TEST_FILE (crystaldiskmark, &test_crystaldiskmark, &test_crystaldiskmark_nvme);
