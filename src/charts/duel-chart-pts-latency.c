/* duel-chart-pts-latency.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-chart-pts-latency.h"

struct _DuelChartPtsLatency
{
  DuelChartMatrix parent_instance;
};

struct _DuelChartPtsLatencyClass
{
  DuelChartMatrixClass parent_class;
};

G_DEFINE_FINAL_TYPE (DuelChartPtsLatency, duel_chart_pts_latency, DUEL_TYPE_CHART_MATRIX)

static void
duel_chart_pts_latency_class_init (DuelChartPtsLatencyClass *klass)
{
  DuelChartClass *chart_class = DUEL_CHART_CLASS (klass);
  DuelChartMatrixClass *matrix_class = DUEL_CHART_MATRIX_CLASS (klass);

  chart_class->id = "pts-latency";
  chart_class->tab_title = N_("SNIA Latency");
  matrix_class->section_prefix = "pts-latency";
  matrix_class->kind = DUEL_CHART_MATRIX_LATENCY;
}

static void
duel_chart_pts_latency_init (DuelChartPtsLatency *self)
{
}
