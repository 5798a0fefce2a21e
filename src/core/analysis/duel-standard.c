/* duel-standard.c — the standard set: sequential MB/s, random IOPS at QD1 and QD32
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "duel-analysis-private.h"

static void
summarize (const DuelTestRecord     *record,
           const DuelAnalysisParams *params,
           DuelSummary              *summary)
{
  DuelThroughput t;
  DuelDirection d;
  g_autofree char *iops_key = NULL;
  g_autofree char *mbps_key = NULL;

  duel_analysis_throughput (record->series, record->runtime_ns, &t);

  /* The standard set has one direction per test; a mix has no key of its own. */
  if (duel_workload_is_mixed (&record->workload))
    return;
  d = duel_workload_reads (&record->workload) ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE;

  mbps_key = duel_analysis_standard_key (record->workload.pattern, d, record->workload.queue_depth, FALSE);
  if (record->workload.pattern == DUEL_PATTERN_SEQUENTIAL)
    {
      duel_summary_add (summary, mbps_key, t.mb_per_s[d]);
      return;
    }

  iops_key = duel_analysis_standard_key (record->workload.pattern, d, record->workload.queue_depth, TRUE);
  duel_summary_add (summary, iops_key, t.iops[d]);
  duel_summary_add (summary, mbps_key, t.mb_per_s[d]);
}

static const DuelFigureInfo figures[] = {
  /* Any block size and queue depth (the standard set's 128K QD32,
   * CrystalDiskMark's SEQ1M Q8T1, …): the test's title says which. */
  { "seq_read_mbps",        "MB/s", DUEL_BETTER_HIGHER, N_("Sequential read") },
  { "seq_write_mbps",       "MB/s", DUEL_BETTER_HIGHER, N_("Sequential write") },
  { "rand_read_qd1_iops",   "IOPS", DUEL_BETTER_HIGHER, N_("4K random read QD1") },
  { "rand_read_qd1_mbps",   "MB/s", DUEL_BETTER_HIGHER, N_("4K random read QD1, throughput") },
  { "rand_write_qd1_iops",  "IOPS", DUEL_BETTER_HIGHER, N_("4K random write QD1") },
  { "rand_write_qd1_mbps",  "MB/s", DUEL_BETTER_HIGHER, N_("4K random write QD1, throughput") },
  { "rand_read_qd32_iops",  "IOPS", DUEL_BETTER_HIGHER, N_("4K random read QD32") },
  { "rand_read_qd32_mbps",  "MB/s", DUEL_BETTER_HIGHER, N_("4K random read QD32, throughput") },
  { "rand_write_qd32_iops", "IOPS", DUEL_BETTER_HIGHER, N_("4K random write QD32") },
  { "rand_write_qd32_mbps", "MB/s", DUEL_BETTER_HIGHER, N_("4K random write QD32, throughput") },
};

/* Anything that ran: its IOPS and MB/s. */
static gboolean
fits (const DuelTestRecord *record)
{
  return record->status == DUEL_TEST_STATUS_COMPLETE || duel_series_get_length (record->series) > 0 ||
         record->summary != NULL;
}

const DuelAnalysisOps _duel_analysis_standard_ops = {
  .kind = DUEL_ANALYSIS_STANDARD,
  .name = "standard",
  .figures = figures,
  .n_figures = G_N_ELEMENTS (figures),
  .fits = fits,
  .summarize = summarize,
};
