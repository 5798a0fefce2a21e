/* duel-chart-pts-latency.h — SNIA's latency plot: mean and maximum latency by block size, per read/write mix
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart-matrix.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART_PTS_LATENCY (duel_chart_pts_latency_get_type ())

DUEL_DECLARE_CHART_TYPE (DuelChartPtsLatency, duel_chart_pts_latency, DUEL, CHART_PTS_LATENCY)

G_END_DECLS
