/* duel-chart-export-private.h — the report's pieces, for the tests
 *
 * Not for the app or the CLI, which use duel-chart-export.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart-export.h"

G_BEGIN_DECLS

/* A4 landscape, in points: the report prints as well as it reads on screen. */
#define PAGE_WIDTH  841.89
#define PAGE_HEIGHT 595.28
#define PAGE_MARGIN 36.0
#define PAGE_INNER_HEIGHT (PAGE_HEIGHT - 2 * PAGE_MARGIN)
/* Between two charts on a page. */
#define CHART_GAP   12.0


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

/* SNIA's report pages (duel-chart-export-snia.c), for every drive and each
 * of its tests in rounds: the header block (sponsor, device under test,
 * set-up, steady-state verdict), the convergence and window plots, the
 * matrix as a table and as a plot. Each page painted and shown on @cr,
 * its fill appended to @page_fill when not NULL. Returns the pages drawn:
 * 0 when no result holds a test in rounds. */
guint      _duel_chart_export_snia_pages       (DuelComparison       *comparison,
                                                cairo_t              *cr,
                                                const DuelChartStyle *style,
                                                double                chart_width,
                                                GArray               *page_fill);

G_END_DECLS
