/* duel-chart-pts-iops.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-chart-pts-iops.h"

struct _DuelChartPtsIops
{
  DuelChartMatrix parent_instance;
};

struct _DuelChartPtsIopsClass
{
  DuelChartMatrixClass parent_class;
};

G_DEFINE_FINAL_TYPE (DuelChartPtsIops, duel_chart_pts_iops, DUEL_TYPE_CHART_MATRIX)

static void
duel_chart_pts_iops_class_init (DuelChartPtsIopsClass *klass)
{
  DuelChartClass *chart_class = DUEL_CHART_CLASS (klass);
  DuelChartMatrixClass *matrix_class = DUEL_CHART_MATRIX_CLASS (klass);

  chart_class->id = "pts-iops";
  chart_class->tab_title = N_("SNIA IOPS");
  matrix_class->section_prefix = "pts-iops";
  matrix_class->kind = DUEL_CHART_MATRIX_IOPS;
}

static void
duel_chart_pts_iops_init (DuelChartPtsIops *self)
{
}
