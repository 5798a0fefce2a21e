/* duel-chart-standard.h — the standard set as grouped bars
 *
 * Sequential tests in MB/s on the left, random tests in IOPS on the right,
 * one bar per drive in each group; the vendor's rating as a line over the
 * bar when a result carries one, and the interface's ceiling as a line
 * across the MB/s panel when it is known.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART_STANDARD (duel_chart_standard_get_type ())

DUEL_DECLARE_CHART_TYPE (DuelChartStandard, duel_chart_standard, DUEL, CHART_STANDARD)

DuelChart *duel_chart_standard_new (DuelComparison *comparison);

G_END_DECLS
