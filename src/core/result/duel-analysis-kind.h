/* duel-analysis-kind.h — which analysis a test's figures come from
 *
 * A value of the result file (summary.details.analysis) and of the review
 * tests' descriptors (src/core/review/), so it lives below both; the
 * analyses themselves, and the kinds' names in the file
 * (duel_analysis_kind_to_string()), are in src/core/analysis/.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Which analysis applies to a test; kept in summary.details.analysis. */
typedef enum
{
  DUEL_ANALYSIS_NONE,
  DUEL_ANALYSIS_SATURATION,    /* 4 KiB random write to N x the span */
  DUEL_ANALYSIS_READ_SCORE,    /* 4 KiB random read on the filled target */
  DUEL_ANALYSIS_CONSISTENCY,   /* 4 KiB random 50/50, per-interval IOPS */
  DUEL_ANALYSIS_QOS,           /* latency percentiles per direction */
  DUEL_ANALYSIS_STANDARD,      /* IOPS and MB/s from the totals */
  DUEL_ANALYSIS_MATRIX_CELL,   /* one cell of a test matrix: IOPS, MB/s, latency */
  DUEL_ANALYSIS_SEQUENTIAL_WRITE, /* the span written once sequentially: the write cache */
  DUEL_ANALYSIS_RECOVERY,      /* 4 KiB random write after an idle, against the fill before it */
} DuelAnalysisKind;

G_END_DECLS
