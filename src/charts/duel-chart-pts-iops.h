/* duel-chart-pts-iops.h — SNIA's IOPS plot: IOPS by block size, a line per read/write mix
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart-matrix.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART_PTS_IOPS (duel_chart_pts_iops_get_type ())

DUEL_DECLARE_CHART_TYPE (DuelChartPtsIops, duel_chart_pts_iops, DUEL, CHART_PTS_IOPS)

G_END_DECLS
