/* duel-chart-pts-throughput.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-chart-pts-throughput.h"

struct _DuelChartPtsThroughput
{
  DuelChartMatrix parent_instance;
};

struct _DuelChartPtsThroughputClass
{
  DuelChartMatrixClass parent_class;
};

G_DEFINE_FINAL_TYPE (DuelChartPtsThroughput, duel_chart_pts_throughput, DUEL_TYPE_CHART_MATRIX)

static void
duel_chart_pts_throughput_class_init (DuelChartPtsThroughputClass *klass)
{
  DuelChartClass *chart_class = DUEL_CHART_CLASS (klass);
  DuelChartMatrixClass *matrix_class = DUEL_CHART_MATRIX_CLASS (klass);

  chart_class->id = "pts-throughput";
  chart_class->tab_title = N_("SNIA Throughput");
  matrix_class->section_prefix = "pts-throughput";
  matrix_class->kind = DUEL_CHART_MATRIX_THROUGHPUT;
}

static void
duel_chart_pts_throughput_init (DuelChartPtsThroughput *self)
{
}
