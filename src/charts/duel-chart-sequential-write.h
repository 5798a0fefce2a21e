/* duel-chart-sequential-write.h — MB/s against GB written, the sustained sequential write of up to four drives
 *
 * The cache test's chart: each drive's write speed per interval, placed at
 * the middle of what the interval wrote, with a dashed line at each fall
 * the analysis found (the cache running out, then folding), labelled with
 * the GB written before it and how far off that may be.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART_SEQUENTIAL_WRITE (duel_chart_sequential_write_get_type ())

DUEL_DECLARE_CHART_TYPE (DuelChartSequentialWrite, duel_chart_sequential_write, DUEL, CHART_SEQUENTIAL_WRITE)

DuelChart *duel_chart_sequential_write_new          (DuelComparison *comparison);
/* @test alone, as the first drive's, whatever its analysis: the Run page's
 * live chart of a write as it grows (the sustained sequential write, the
 * cache after idle). */
DuelChart *duel_chart_sequential_write_new_for_test (DuelComparison *comparison,
                                                     DuelTestRecord *test);

G_END_DECLS
