/* duel-chart-export.h — charts and tables to files: PNG, SVG, PDF, CSV, Markdown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart.h"
#include "duel-file-writer.h"

G_BEGIN_DECLS

typedef enum
{
  DUEL_CHART_EXPORT_PNG      = 1 << 0,
  DUEL_CHART_EXPORT_SVG      = 1 << 1,
  DUEL_CHART_EXPORT_PDF      = 1 << 2,
  DUEL_CHART_EXPORT_CSV      = 1 << 3,
  DUEL_CHART_EXPORT_MARKDOWN = 1 << 4,
  DUEL_CHART_EXPORT_FIO      = 1 << 5,
  DUEL_CHART_EXPORT_ALL      = (1 << 6) - 1,
} DuelChartExportFormats;

typedef struct
{
  double                 width;      /* user units (px at scale 1, pt in PDF/SVG) */
  double                 height;
  double                 scale;      /* PNG pixels per unit */
  DuelChartExportFormats formats;
  DuelChartTheme         theme;
  /* Added to an export's rules (duel-file-writer.h): by default a file is
   * replaced only when Drive Duel exported it and nobody changed it since;
   * DUEL_WRITE_REPLACE_ANY once the person agreed, DUEL_WRITE_HINT_OVERWRITE
   * from the command line (a refusal names --overwrite-output). */
  DuelWriteFlags         write_flags;
} DuelChartExportOptions;

void     duel_chart_export_options_init (DuelChartExportOptions *options);
/* "png,svg,pdf,csv,md,fio" (any subset, "all"); errors name the bad word. */
gboolean duel_chart_export_parse_formats (const char             *text,
                                          DuelChartExportFormats *out_formats,
                                          GError                **error);

/* A single file: replaces only what Drive Duel exported (unchanged since)
 * or an empty file, never through a link. */
gboolean duel_chart_export_png          (DuelChart              *chart,
                                         const char             *path,
                                         double                  width,
                                         double                  height,
                                         double                  scale,
                                         GError                **error);
gboolean duel_chart_export_svg          (DuelChart              *chart,
                                         const char             *path,
                                         double                  width,
                                         double                  height,
                                         GError                **error);
/* One PDF: the headline, identity, parameters and warnings, the charts with
 * data two to a page from where those end, then the table's figures from
 * where the charts end, over as many pages as it needs. */
gboolean duel_chart_export_pdf_report   (DuelComparison         *comparison,
                                         GPtrArray              *charts,
                                         const char             *path,
                                         double                  width,
                                         double                  height,
                                         GError                **error);
/* The comparison as a Markdown table for articles, winners in bold. */
char    *duel_chart_export_markdown     (DuelComparison         *comparison);
/* The height to export a chart at: the table grows to show every row. */
double   duel_chart_export_height_for   (DuelChart              *chart,
                                         double                  width,
                                         double                  height);

/* Everything @options asks for into @directory (created if needed):
 * CHART.png/.svg/.csv per chart with data (the table as summary.png, then
 * summary-2.png… when it is taller than twice the height), summary.csv,
 * summary.md, report.pdf, and DRIVE.fio per result. @out_files collects
 * the paths. Every name is checked first (duel-file-writer.h): files in
 * the way that Drive Duel did not export, or that changed since, stop the
 * export before anything is written (DUEL_ERROR_EXISTS naming them), unless
 * @options' write_flags allow them; a link or a folder at a name is never
 * replaced. Each file is written whole, then put in place. */
gboolean duel_chart_export_all          (DuelComparison               *comparison,
                                         const char                   *directory,
                                         const DuelChartExportOptions *options,
                                         GPtrArray                    *out_files,
                                         GError                      **error);

G_END_DECLS
