/* duel-read-score.c — 4K random read on the filled drive: the read score
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

  duel_analysis_throughput (record->series, record->runtime_ns, &t);
  duel_summary_add (summary, "read_score_iops", t.iops[DUEL_DIRECTION_READ]);
  duel_summary_add (summary, "read_score_mbps", t.mb_per_s[DUEL_DIRECTION_READ]);
}

static const DuelFigureInfo figures[] = {
  { "read_score_iops",        "IOPS",   DUEL_BETTER_HIGHER, N_("4K random read score (filled)") },
  { "read_score_mbps",        "MB/s",   DUEL_BETTER_HIGHER, N_("4K random read score (filled), throughput") },
  /* Only in a published reference: the score the review prints. */
  { "review_read_score_iops", "IOPS",   DUEL_BETTER_HIGHER, N_("The review’s 4K read score (method not stated)") },
};

/* A random read: on a filled drive, the read score. */
static gboolean
fits (const DuelTestRecord *record)
{
  return record->workload.pattern == DUEL_PATTERN_RANDOM && !duel_workload_writes (&record->workload);
}

const DuelAnalysisOps _duel_analysis_read_score_ops = {
  .kind = DUEL_ANALYSIS_READ_SCORE,
  .name = "read-score",
  .figures = figures,
  .n_figures = G_N_ELEMENTS (figures),
  .fits = fits,
  .summarize = summarize,
};
