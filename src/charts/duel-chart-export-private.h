/* duel-chart-export-private.h — the report's pieces, for the tests
 *
 * Not for the app or the CLI, which use duel-chart-export.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart-export.h"

G_BEGIN_DECLS

typedef struct
{
  char     *text;
  gboolean  per_drive;   /* one drive's setup, under its test's line */
} DuelChartExportParameter;

/* The report's parameters: one line per test, "Title — setup; span 256 MiB",
 * when every drive ran it alike; else the title and a line per drive. A
 * GPtrArray of DuelChartExportParameter, freed with it. */
GPtrArray *duel_chart_export_dup_parameters    (DuelComparison  *comparison);

/* duel_chart_export_pdf_report(), and how full each page is (a double per
 * page: the share of its height between the margins that holds content)
 * in @out_page_fill when not NULL. */
gboolean   duel_chart_export_pdf_report_full   (DuelComparison  *comparison,
                                                GPtrArray       *charts,
                                                const char      *path,
                                                double           width,
                                                double           height,
                                                GArray          *out_page_fill,
                                                GError         **error);

G_END_DECLS
