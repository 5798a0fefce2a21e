/* duel-chart-qos.h — quality of service: latency against percentile, "nines" axis
 *
 * Each drive's read and write latency distribution, from the histograms'
 * bins, on a percentile axis where 90, 99, 99.9, 99.99 and 99.999 % are
 * equally spaced and a log latency axis. The datasheet's QoS points are
 * marked where enough I/Os back them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART_QOS (duel_chart_qos_get_type ())

DUEL_DECLARE_CHART_TYPE (DuelChartQos, duel_chart_qos, DUEL, CHART_QOS)

DuelChart *duel_chart_qos_new             (DuelComparison *comparison);
/* The queue depth of the QoS tests to show; 0 picks 32, else the deepest. */
guint      duel_chart_qos_get_queue_depth (DuelChartQos   *self);
void       duel_chart_qos_set_queue_depth (DuelChartQos   *self,
                                           guint           queue_depth);
/* Show the mixed read/write test instead of the pure read and write ones. */
gboolean   duel_chart_qos_get_mixed       (DuelChartQos   *self);
void       duel_chart_qos_set_mixed       (DuelChartQos   *self,
                                           gboolean        mixed);

G_END_DECLS
