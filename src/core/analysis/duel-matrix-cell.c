/* duel-matrix-cell.c — one cell of a test matrix (SNIA PTS): IOPS, MB/s and latency of one access
 *
 * A cell is one block size at one read/write mix, run for one round's
 * length. Its figures are the same whatever the cell, so that the cells of
 * a matrix and the rounds of a cell compare: IOPS and MB/s of both
 * directions together and of each, and the latency of all its I/O (mean,
 * 99.99 % and the longest), from the record's histograms.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-analysis-private.h"

static void
summarize (const DuelTestRecord     *record,
           const DuelAnalysisParams *params,
           DuelSummary              *summary)
{
  DuelHistogram all;
  DuelThroughput t;

  duel_analysis_throughput (record->series, record->runtime_ns, &t);
  duel_summary_add (summary, "iops", t.iops[DUEL_DIRECTION_READ] + t.iops[DUEL_DIRECTION_WRITE]);
  duel_summary_add (summary, "mbps", t.mb_per_s[DUEL_DIRECTION_READ] + t.mb_per_s[DUEL_DIRECTION_WRITE]);
  if (duel_workload_reads (&record->workload))
    duel_summary_add (summary, "read_iops", t.iops[DUEL_DIRECTION_READ]);
  if (duel_workload_writes (&record->workload))
    duel_summary_add (summary, "write_iops", t.iops[DUEL_DIRECTION_WRITE]);

  /* Latency over both directions: SNIA's latency test reports the cell's. */
  duel_histogram_init (&all);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    if (record->latency[d] != NULL)
      duel_histogram_merge (&all, record->latency[d]);
  if (all.count == 0)
    return;
  duel_summary_add (summary, "latency_mean_us", duel_histogram_mean_ns (&all) / 1e3);
  /* Only where the samples reach that far into the tail. */
  if (all.count >= duel_histogram_min_samples_for (99.99))
    duel_summary_add (summary, "latency_p9999_us", duel_histogram_percentile_ns (&all, 99.99) / 1e3);
  duel_summary_add (summary, "latency_max_us", all.max_ns / 1e3);
}

static const DuelFigureInfo figures[] = {
  { "iops",             "IOPS", DUEL_BETTER_HIGHER, N_("IOPS") },
  { "mbps",             "MB/s", DUEL_BETTER_HIGHER, N_("Throughput") },
  { "read_iops",        "IOPS", DUEL_BETTER_HIGHER, N_("Read IOPS") },
  { "write_iops",       "IOPS", DUEL_BETTER_HIGHER, N_("Write IOPS") },
  { "latency_mean_us",  "us",   DUEL_BETTER_LOWER,  N_("Mean latency") },
  /* xgettext:no-c-format */
  { "latency_p9999_us", "us",   DUEL_BETTER_LOWER,  N_("99.99 % latency") },
  { "latency_max_us",   "us",   DUEL_BETTER_LOWER,  N_("Longest latency") },
};

/* Only a matrix names its cells: an imported job is never taken for one. */
static gboolean
fits (const DuelTestRecord *record)
{
  return FALSE;
}

const DuelAnalysisOps _duel_analysis_matrix_cell_ops = {
  .kind = DUEL_ANALYSIS_MATRIX_CELL,
  .name = "matrix-cell",
  .figures = figures,
  .n_figures = G_N_ELEMENTS (figures),
  .fits = fits,
  .summarize = summarize,
};
