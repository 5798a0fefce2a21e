/* duel-chart-consistency.h — per-interval IOPS of the mixed workload, both drives
 *
 * A scatter of every interval's IOPS (total, or read and write apart), with
 * each drive's mean and its 99.9 % slowest interval as levels: Intel's
 * "performance consistency" drawn rather than told. The same plot shows any
 * one record's intervals for the live Run page.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART_CONSISTENCY (duel_chart_consistency_get_type ())

DUEL_DECLARE_CHART_TYPE (DuelChartConsistency, duel_chart_consistency, DUEL, CHART_CONSISTENCY)

DuelChart *duel_chart_consistency_new                  (DuelComparison       *comparison);
/* IOPS per interval of @test alone, whatever analysis it serves (a live
 * run's running step, a read score, a plain run); @test is one of the
 * comparison's records. Titled "IOPS per interval". */
DuelChart *duel_chart_consistency_new_for_test         (DuelComparison       *comparison,
                                                        DuelTestRecord       *test);
/* Read and write as two scatters per drive instead of their total. */
gboolean   duel_chart_consistency_get_split_directions (DuelChartConsistency *self);
void       duel_chart_consistency_set_split_directions (DuelChartConsistency *self,
                                                        gboolean              split);

G_END_DECLS
