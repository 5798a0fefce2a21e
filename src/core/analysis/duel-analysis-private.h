/* duel-analysis-private.h — what a review test's module implements, and the helpers they share
 *
 * Each of the review's tests is one module in src/core/analysis/ with an
 * ops table, as fio's io engines are: its name in summary.details, its
 * figures, the workloads it fits and its summary. duel-analysis.c holds
 * the list of modules and what they share; duel-analysis.h is the API.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-analysis.h"
#include "duel-json.h"

G_BEGIN_DECLS

/* Limits of the cliff's parameters (duel_analysis_params_from_json()). A
 * finer grid makes the knee fit slow (it tries every pair of breakpoints)
 * without making the knee better than the smoothing allows. */
#define DUEL_CLIFF_MIN_STEP_PCT 0.05
/* The running median sorts its window for every interval. */
#define DUEL_CLIFF_MAX_SMOOTH_ROWS 101

typedef struct
{
  DuelAnalysisKind      kind;
  /* Kept in summary.details.analysis: "saturation". */
  const char           *name;
  /* Its figures, in the order tables list them. */
  const DuelFigureInfo *figures;
  guint                 n_figures;
  /* A test no preset named (an imported fio job) is this kind of test. */
  gboolean            (*fits)      (const DuelTestRecord     *record);
  /* Adds the figures, and what they were computed from to the details. */
  void                (*summarize) (const DuelTestRecord     *record,
                                    const DuelAnalysisParams *params,
                                    DuelSummary              *summary);
} DuelAnalysisOps;

extern const DuelAnalysisOps _duel_analysis_saturation_ops;
extern const DuelAnalysisOps _duel_analysis_read_score_ops;
extern const DuelAnalysisOps _duel_analysis_consistency_ops;
extern const DuelAnalysisOps _duel_analysis_qos_ops;
extern const DuelAnalysisOps _duel_analysis_standard_ops;
extern const DuelAnalysisOps _duel_analysis_matrix_cell_ops;
extern const DuelAnalysisOps _duel_analysis_sequential_write_ops;
extern const DuelAnalysisOps _duel_analysis_recovery_ops;

/* NULL for DUEL_ANALYSIS_NONE. */
const DuelAnalysisOps *_duel_analysis_get_ops (DuelAnalysisKind kind);

/* The module's typed summary (a fill's DuelSaturationSummary), carried to
 * the record by duel_analysis_apply() beside the JSON. */
void        _duel_summary_set_typed           (DuelSummary      *summary,
                                               gconstpointer     data,
                                               gsize             size);

/* The end of the last row, ms. */
guint64     _duel_analysis_series_end_ms      (const DuelSeries *series);
/* "read" or "write", as figure keys spell them. */
const char *_duel_analysis_direction_name     (DuelDirection     direction);
/* For qsort() of doubles. */
int         _duel_analysis_compare_doubles    (gconstpointer     a,
                                               gconstpointer     b);

G_END_DECLS
