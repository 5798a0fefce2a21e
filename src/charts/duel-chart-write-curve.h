/* duel-chart-write-curve.h — IOPS against "% of capacity written", both drives
 *
 * The review's focus chart: 4 KiB random writes from an empty drive to twice
 * its capacity. Markers carry the values at 0, 50 and 100 % and at the end;
 * the cliff and the plateau are marked. Published references show their
 * sparse points as markers, never as a curve.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART_WRITE_CURVE (duel_chart_write_curve_get_type ())

DUEL_DECLARE_CHART_TYPE (DuelChartWriteCurve, duel_chart_write_curve, DUEL, CHART_WRITE_CURVE)

DuelChart *duel_chart_write_curve_new            (DuelComparison      *comparison);
gboolean   duel_chart_write_curve_get_log_scale  (DuelChartWriteCurve *self);
void       duel_chart_write_curve_set_log_scale  (DuelChartWriteCurve *self,
                                                  gboolean             log_scale);
/* Time on the x axis instead of the share of capacity written. */
gboolean   duel_chart_write_curve_get_time_axis  (DuelChartWriteCurve *self);
void       duel_chart_write_curve_set_time_axis  (DuelChartWriteCurve *self,
                                                  gboolean             time_axis);

G_END_DECLS
