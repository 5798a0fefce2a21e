/* duel-chart-pts-throughput.h — SNIA's throughput plot: MB/s of each block size, read and write
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart-matrix.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART_PTS_THROUGHPUT (duel_chart_pts_throughput_get_type ())

DUEL_DECLARE_CHART_TYPE (DuelChartPtsThroughput, duel_chart_pts_throughput, DUEL, CHART_PTS_THROUGHPUT)

G_END_DECLS
