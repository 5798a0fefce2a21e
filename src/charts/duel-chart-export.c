/* duel-chart-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "duel-chart-export.h"
#include "duel-chart-export-private.h"
#include "duel-chart-table.h"
#include "duel-error.h"
#include "duel-made-files.h"
#include "fio/duel-fio-export.h"
#include "duel-number.h"
#include "duel-size.h"

/* An export replaces only what Drive Duel exported before and nobody
 * changed since (or an empty file), and is recorded as such. */
#define EXPORT_WRITE_FLAGS (DUEL_WRITE_REPLACE_MADE | DUEL_WRITE_REPLACE_EMPTY | DUEL_WRITE_RECORD_MADE)

void
duel_chart_export_options_init (DuelChartExportOptions *options)
{
  g_return_if_fail (options != NULL);

  options->width = 1200;
  options->height = 675;
  options->scale = 2;
  options->formats = DUEL_CHART_EXPORT_ALL;
  options->theme = DUEL_CHART_THEME_LIGHT;
  options->write_flags = 0;
}

gboolean
duel_chart_export_parse_formats (const char             *text,
                                 DuelChartExportFormats *out_formats,
                                 GError                **error)
{
  static const struct { const char *name; DuelChartExportFormats format; } names[] = {
    { "png", DUEL_CHART_EXPORT_PNG },
    { "svg", DUEL_CHART_EXPORT_SVG },
    { "pdf", DUEL_CHART_EXPORT_PDF },
    { "csv", DUEL_CHART_EXPORT_CSV },
    { "md", DUEL_CHART_EXPORT_MARKDOWN },
    { "markdown", DUEL_CHART_EXPORT_MARKDOWN },
    { "fio", DUEL_CHART_EXPORT_FIO },
    { "all", DUEL_CHART_EXPORT_ALL },
  };
  g_auto(GStrv) words = NULL;
  DuelChartExportFormats formats = 0;

  g_return_val_if_fail (out_formats != NULL, FALSE);

  words = g_strsplit (text ? text : "", ",", -1);
  for (guint i = 0; words[i] != NULL; i++)
    {
      gboolean known = FALSE;

      g_strstrip (words[i]);
      if (words[i][0] == '\0')
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        {
          if (g_ascii_strcasecmp (words[i], names[k].name) == 0)
            {
              formats |= names[k].format;
              known = TRUE;
            }
        }
      if (!known)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                       _("Unknown format “%s”: use png, svg, pdf, csv, md or fio."), words[i]);
          return FALSE;
        }
    }
  if (formats == 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("No format given: use png, svg, pdf, csv, md or fio."));
      return FALSE;
    }
  *out_formats = formats;
  return TRUE;
}

/* cairo writes through the file writer: what it draws goes to the new
 * file, which takes its name only once whole. */
typedef struct
{
  DuelFileWriter *writer;
  GError         *error;     /* the writer's first failure */
} Stream;

static cairo_status_t
stream_write_cb (void                *closure,
                 const unsigned char *data,
                 unsigned int         length)
{
  Stream *stream = closure;

  if (stream->error != NULL)
    return CAIRO_STATUS_WRITE_ERROR;
  if (!duel_file_writer_write (stream->writer, data, length, &stream->error))
    return CAIRO_STATUS_WRITE_ERROR;
  return CAIRO_STATUS_SUCCESS;
}

/* The writer's own sentence when it failed (a full disk), else cairo's. */
static gboolean
stream_failed (Stream          *stream,
               cairo_status_t   status,
               GError         **error)
{
  if (stream->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&stream->error));
      return TRUE;
    }
  if (status == CAIRO_STATUS_SUCCESS)
    return FALSE;
  g_set_error (error, DUEL_ERROR, DUEL_ERROR_FAILED, _("Could not draw the file: %s"),
               cairo_status_to_string (status));
  return TRUE;
}

typedef gboolean (*WriteFunc) (DuelFileWriter  *writer,
                               gpointer         data,
                               GError         **error);

/* One file at @path through the writer, with an export's rules. */
static gboolean
write_path (const char  *path,
            WriteFunc    func,
            gpointer     data,
            GError     **error)
{
  g_autoptr(DuelFileWriter) writer = duel_made_files_writer_new (path, EXPORT_WRITE_FLAGS, error);

  return writer != NULL && func (writer, data, error) && duel_file_writer_commit (writer, error);
}

double
duel_chart_export_height_for (DuelChart *chart,
                              double     width,
                              double     height)
{
  g_return_val_if_fail (DUEL_IS_CHART (chart), height);

  if (DUEL_IS_CHART_TABLE (chart))
    return MAX (height, duel_chart_table_get_natural_height (DUEL_CHART_TABLE (chart), width));
  return height;
}

typedef struct
{
  DuelChart *chart;
  double     width;
  double     height;
  double     scale;
} Image;

static gboolean
write_png (DuelFileWriter  *writer,
           gpointer         data,
           GError         **error)
{
  Image *image = data;
  Stream stream = { writer, NULL };
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;
  int w, h;

  w = (int) ceil (image->width * image->scale);
  h = (int) ceil (image->height * image->scale);
  if (w <= 0 || h <= 0 || w > 32767 || h > 32767)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("A PNG of %d × %d pixels is not possible; choose a smaller size or scale."), w, h);
      return FALSE;
    }

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cr = cairo_create (surface);
  cairo_scale (cr, image->scale, image->scale);
  duel_chart_draw (image->chart, cr, image->width, image->height);
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_write_to_png_stream (surface, stream_write_cb, &stream);
  cairo_surface_destroy (surface);
  return !stream_failed (&stream, status, error);
}

static gboolean
write_svg (DuelFileWriter  *writer,
           gpointer         data,
           GError         **error)
{
  Image *image = data;
  Stream stream = { writer, NULL };
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;

  surface = cairo_svg_surface_create_for_stream (stream_write_cb, &stream, image->width, image->height);
  cr = cairo_create (surface);
  duel_chart_draw (image->chart, cr, image->width, image->height);
  status = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  return !stream_failed (&stream, status, error);
}

gboolean
duel_chart_export_png (DuelChart   *chart,
                       const char  *path,
                       double       width,
                       double       height,
                       double       scale,
                       GError     **error)
{
  Image image = { chart, width, height, scale };

  g_return_val_if_fail (DUEL_IS_CHART (chart), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return write_path (path, write_png, &image, error);
}

gboolean
duel_chart_export_svg (DuelChart   *chart,
                       const char  *path,
                       double       width,
                       double       height,
                       GError     **error)
{
  Image image = { chart, width, height, 1 };

  g_return_val_if_fail (DUEL_IS_CHART (chart), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return write_path (path, write_svg, &image, error);
}

/* ---- The report's parameters --------------------------------------------------- */

static void
parameter_free (gpointer data)
{
  DuelChartExportParameter *parameter = data;

  g_free (parameter->text);
  g_free (parameter);
}

static void
add_parameter (GPtrArray *parameters,
               char      *text,
               gboolean   per_drive)
{
  DuelChartExportParameter *parameter = g_new0 (DuelChartExportParameter, 1);

  parameter->text = text;
  parameter->per_drive = per_drive;
  g_ptr_array_add (parameters, parameter);
}

/* "4 KiB random write, QD32, to 2× the span; span 256 MiB" */
static char *
describe_setup (const DuelTestRecord *record)
{
  g_autofree char *setup = duel_chart_describe_workload (record);
  g_autofree char *span = NULL;

  if (record->span_length == 0)
    return g_steal_pointer (&setup);
  span = duel_format_size_as_given (record->span_length);
  return g_strdup_printf ("%s; %s %s", setup, _("span"), span);
}

GPtrArray *
duel_chart_export_dup_parameters (DuelComparison *comparison)
{
  const char * const *tests;
  guint n;
  GPtrArray *parameters;

  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);

  tests = duel_comparison_get_tests (comparison);
  n = duel_comparison_get_n_drives (comparison);
  parameters = g_ptr_array_new_with_free_func (parameter_free);
  for (guint t = 0; tests[t] != NULL; t++)
    {
      const char *title = duel_comparison_get_section_title (comparison, tests[t]);
      g_autoptr(GPtrArray) setups = g_ptr_array_new_with_free_func (g_free);
      gboolean alike = TRUE;

      for (guint d = 0; d < n; d++)
        {
          DuelTestRecord *record = duel_result_find_test (duel_comparison_get_result (comparison, d), tests[t]);

          g_ptr_array_add (setups, record != NULL ? describe_setup (record) : NULL);
          alike = alike && record != NULL && g_strcmp0 (g_ptr_array_index (setups, d), g_ptr_array_index (setups, 0)) == 0;
        }
      /* Said once when every drive ran it alike, as a reader compares them. */
      if (alike && n > 0)
        {
          add_parameter (parameters, g_strdup_printf ("%s — %s", title, (char *) g_ptr_array_index (setups, 0)), FALSE);
          continue;
        }
      add_parameter (parameters, g_strdup (title), FALSE);
      for (guint d = 0; d < n; d++)
        if (g_ptr_array_index (setups, d) != NULL)
          add_parameter (parameters, g_strdup_printf ("%s: %s", duel_comparison_get_drive_name (comparison, d),
                                                      (char *) g_ptr_array_index (setups, d)), TRUE);
    }
  return parameters;
}

/* ---- The PDF report ----------------------------------------------------------- */

typedef struct
{
  cairo_t              *cr;
  const DuelChartStyle *style;
  double                y;
  GArray               *fill;    /* double per finished page, or NULL */
} Flow;

/* Closes the page, noting how much of it the content took. */
static void
flow_end_page (Flow *flow)
{
  if (flow->fill != NULL)
    {
      double fill = CLAMP ((flow->y - PAGE_MARGIN) / PAGE_INNER_HEIGHT, 0, 1);

      g_array_append_val (flow->fill, fill);
    }
  cairo_show_page (flow->cr);
}

static void
flow_new_page (Flow *flow)
{
  flow_end_page (flow);
  duel_chart_set_source_color (flow->cr, &flow->style->background);
  cairo_paint (flow->cr);
  flow->y = PAGE_MARGIN;
}

/* A new page unless @height fits under what the page holds. */
static void
flow_need (Flow   *flow,
           double  height)
{
  if (flow->y + height > PAGE_HEIGHT - PAGE_MARGIN + 0.01 && flow->y > PAGE_MARGIN)
    flow_new_page (flow);
}

/* Text that wraps to the page and breaks onto a new one when full. */
static void
flow_text (Flow             *flow,
           DuelChartTextRole role,
           const DuelChartColor *color,
           const char       *text,
           double            indent)
{
  g_autoptr(PangoLayout) layout = duel_chart_style_create_layout (flow->style, flow->cr, role, text);
  PangoRectangle logical;
  double h;

  pango_layout_set_width (layout, (int) ((PAGE_WIDTH - 2 * PAGE_MARGIN - indent) * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_get_extents (layout, NULL, &logical);
  h = (double) logical.height / PANGO_SCALE;
  flow_need (flow, h);
  cairo_save (flow->cr);
  duel_chart_set_source_color (flow->cr, color);
  cairo_move_to (flow->cr, PAGE_MARGIN + indent, flow->y);
  pango_cairo_show_layout (flow->cr, layout);
  cairo_restore (flow->cr);
  flow->y += h + 3;
}

/* One line of the cover's headline in a column, at the flow's line. */
static double
cell_text (Flow                 *flow,
           DuelChartTextRole     role,
           const DuelChartColor *color,
           const char           *text,
           double                x,
           double                width,
           double                xalign)
{
  return duel_chart_draw_text_in (flow->cr, flow->style, role, color, text,
                                  &(DuelChartRect) { x, flow->y, width, 0 }, xalign, 0);
}

/* The review's figures first, as the Compare page leads with them: a row
 * each, a column per drive, the better value in bold. */
static void
draw_headline (DuelComparison *comparison,
               Flow           *flow)
{
  const DuelChartStyle *style = flow->style;
  guint n = duel_comparison_get_n_drives (comparison), n_headline = 0;
  const guint *headline = duel_comparison_get_headline (comparison, &n_headline);
  double left = PAGE_MARGIN + 12, width = PAGE_WIDTH - 2 * PAGE_MARGIN - 12;
  double label_w = width * 0.5, column_w = (width - label_w) / MAX (n, 1), h = 0;

  if (n_headline == 0)
    return;
  flow_text (flow, DUEL_CHART_TEXT_TABLE_HEADER, &style->foreground, _("Headline"), 0);
  for (guint d = 0; d < n; d++)
    h = MAX (h, cell_text (flow, DUEL_CHART_TEXT_TABLE_HEADER,
                           duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN),
                           duel_comparison_get_drive_name (comparison, d),
                           left + label_w + d * column_w, column_w - 8, 1.0));
  flow->y += h + 3;
  for (guint i = 0; i < n_headline; i++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, headline[i]);

      if (flow->y + h > PAGE_HEIGHT - PAGE_MARGIN)
        flow_new_page (flow);
      h = cell_text (flow, DUEL_CHART_TEXT_TABLE, &style->foreground, row->label, left, label_w - 8, 0);
      for (guint d = 0; d < n; d++)
        {
          gboolean wins = duel_comparison_row_is_best (row, d);

          h = MAX (h, cell_text (flow, wins ? DUEL_CHART_TEXT_TABLE_HEADER : DUEL_CHART_TEXT_TABLE,
                                 &style->foreground, row->text[d] != NULL ? row->text[d] : "–",
                                 left + label_w + d * column_w, column_w - 8, 1.0));
        }
      flow->y += h + 2;
    }
  flow->y += 8;
}

static void
draw_cover (DuelComparison       *comparison,
            Flow                 *flow)
{
  const DuelChartStyle *style = flow->style;
  g_autoptr(GPtrArray) parameters = duel_chart_export_dup_parameters (comparison);
  g_auto(GStrv) warnings = duel_comparison_dup_warning_lines (comparison);
  guint n = duel_comparison_get_n_drives (comparison);
  g_autofree char *title = NULL;
  g_autofree char *when = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  {
    g_autofree char *names = duel_comparison_dup_title (comparison);

    title = g_strdup_printf (_("Drive Duel report: %s"), names);
  }
  flow_text (flow, DUEL_CHART_TEXT_TITLE, &style->foreground, title, 0);
  when = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
  {
    g_autofree char *line = g_strdup_printf (_("Made with Drive Duel %s on %s"), PACKAGE_VERSION, when);
    flow_text (flow, DUEL_CHART_TEXT_SUBTITLE, &style->muted, line, 0);
  }
  flow->y += 8;

  draw_headline (comparison, flow);

  /* The drives, as the results identify them. */
  flow_text (flow, DUEL_CHART_TEXT_TABLE_HEADER, &style->foreground, _("Drives"), 0);
  for (guint d = 0; d < n; d++)
    {
      DuelResult *result = duel_comparison_get_result (comparison, d);
      g_autoptr(GString) line = g_string_new (NULL);
      GDateTime *created = duel_result_get_created (result);

      g_string_append_printf (line, "%s", duel_comparison_get_drive_name (comparison, d));
      if (duel_result_is_published (result))
        g_string_append_printf (line, " — %s", _("published figures (sparse points, not a measured run)"));
      if (created != NULL && !duel_result_is_published (result))
        {
          g_autofree char *date = g_date_time_format (created, "%Y-%m-%d %H:%M UTC");
          g_string_append_printf (line, " — %s %s", _("measured"), date);
        }
      flow_text (flow, DUEL_CHART_TEXT_TABLE, duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN),
                 line->str, 12);
    }
  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, i);
      g_autoptr(GString) line = NULL;

      if (row->kind != DUEL_COMPARISON_ROW_IDENTITY)
        continue;
      line = g_string_new (row->label);
      g_string_append (line, ": ");
      for (guint d = 0; d < n; d++)
        g_string_append_printf (line, "%s%s", d > 0 ? "  |  " : "", row->text[d]);
      flow_text (flow, DUEL_CHART_TEXT_TABLE, &style->foreground, line->str, 12);
    }
  flow->y += 8;

  /* How each test was run: a line per test when the drives agree. */
  flow_text (flow, DUEL_CHART_TEXT_TABLE_HEADER, &style->foreground, _("Parameters"), 0);
  for (guint i = 0; i < parameters->len; i++)
    {
      const DuelChartExportParameter *parameter = g_ptr_array_index (parameters, i);

      if (parameter->per_drive)
        flow_text (flow, DUEL_CHART_TEXT_ANNOTATION, &style->muted, parameter->text, 24);
      else
        flow_text (flow, DUEL_CHART_TEXT_TABLE, &style->foreground, parameter->text, 12);
    }

  if (warnings[0] != NULL)
    {
      flow->y += 8;
      flow_text (flow, DUEL_CHART_TEXT_TABLE_HEADER, &style->foreground, _("Fairness warnings"), 0);
      for (guint i = 0; warnings[i] != NULL; i++)
        flow_text (flow, DUEL_CHART_TEXT_TABLE, &style->foreground, warnings[i], 12);
    }
}

/* Charts two to a page, in the export's proportions in half the page's
 * height, at the text size a chart had when it took a page alone: the chart
 * lays itself out in a smaller box rather than shrinking its type. A chart
 * a little too tall for what is left of a page shrinks to stay on it. */
static void
draw_charts (GPtrArray *charts,
             Flow      *flow,
             double     width,
             double     height)
{
  double page_w = PAGE_WIDTH - 2 * PAGE_MARGIN;
  double slot_h = (PAGE_INNER_HEIGHT - CHART_GAP) / 2;
  double text_scale = MIN (page_w / width, PAGE_INNER_HEIGHT / height);
  double fit = MIN (page_w / width, slot_h / height);

  for (guint i = 0; i < charts->len; i++)
    {
      DuelChart *chart = g_ptr_array_index (charts, i);
      double room = PAGE_HEIGHT - PAGE_MARGIN - flow->y;
      double shrink = 1, box_w, box_h;

      if (DUEL_IS_CHART_TABLE (chart) || !duel_chart_has_data (chart))
        continue;
      if (room < height * fit && room >= 0.8 * height * fit)
        shrink = room / (height * fit);
      box_w = width * fit * shrink;
      box_h = height * fit * shrink;
      flow_need (flow, box_h);
      cairo_save (flow->cr);
      cairo_translate (flow->cr, (PAGE_WIDTH - box_w) / 2, flow->y);
      cairo_scale (flow->cr, text_scale * shrink, text_scale * shrink);
      duel_chart_draw (chart, flow->cr, box_w / (text_scale * shrink), box_h / (text_scale * shrink));
      cairo_restore (flow->cr);
      flow->y += box_h + CHART_GAP;
    }
}

/* The table at a readable size, from where the charts end when its title
 * and a few rows fit there, then over as many pages as it takes under its
 * column headings. Its headline and the drives are on the cover already. */
static void
draw_table (DuelChartTable *table,
            Flow           *flow)
{
  const DuelChartStyle *style = flow->style;
  double table_scale = 0.8;
  double table_w = (PAGE_WIDTH - 2 * PAGE_MARGIN) / table_scale;
  g_autofree char *title = duel_chart_get_title (DUEL_CHART (table));
  guint line = duel_chart_table_get_first_figure_line (table), n = duel_chart_table_get_n_lines (table);
  double title_h = 0;

  duel_chart_measure_text (flow->cr, style, DUEL_CHART_TEXT_TITLE, title, NULL, &title_h);
  flow_need (flow, PAGE_INNER_HEIGHT / 4);
  duel_chart_draw_text (flow->cr, style, DUEL_CHART_TEXT_TITLE, &style->foreground, title,
                        PAGE_MARGIN, flow->y, 0, 0);
  flow->y += title_h + 8;
  for (;;)
    {
      double used = 0;

      cairo_save (flow->cr);
      cairo_translate (flow->cr, PAGE_MARGIN, flow->y);
      cairo_scale (flow->cr, table_scale, table_scale);
      line = duel_chart_table_draw_page_full (table, flow->cr, table_w,
                                              (PAGE_HEIGHT - PAGE_MARGIN - flow->y) / table_scale, line, &used);
      cairo_restore (flow->cr);
      flow->y += used * table_scale;
      if (line >= n)
        break;
      flow_new_page (flow);
    }
}

typedef struct
{
  DuelComparison *comparison;
  GPtrArray      *charts;
  double          width;
  double          height;
  GArray         *page_fill;
} Report;

static gboolean
write_pdf_report (DuelFileWriter  *writer,
                  gpointer         data,
                  GError         **error)
{
  Report *report = data;
  Stream stream = { writer, NULL };
  cairo_surface_t *surface;
  cairo_status_t status;
  const DuelChartStyle *style = NULL;
  DuelChartTable *table = NULL;
  g_autofree char *title = NULL;
  GPtrArray *charts = report->charts;
  Flow flow;

  style = duel_chart_get_style (g_ptr_array_index (charts, 0));
  surface = cairo_pdf_surface_create_for_stream (stream_write_cb, &stream, PAGE_WIDTH, PAGE_HEIGHT);
  if (stream_failed (&stream, cairo_surface_status (surface), error))
    {
      cairo_surface_destroy (surface);
      return FALSE;
    }
  title = duel_comparison_dup_title (report->comparison);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, title);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Drive Duel " PACKAGE_VERSION);

  flow.cr = cairo_create (surface);
  flow.style = style;
  flow.y = PAGE_MARGIN;
  flow.fill = report->page_fill;
  if (report->page_fill != NULL)
    g_array_set_size (report->page_fill, 0);
  duel_chart_set_source_color (flow.cr, &style->background);
  cairo_paint (flow.cr);
  draw_cover (report->comparison, &flow);

  /* The first chart under the cover when it fits there. */
  flow.y += CHART_GAP;
  draw_charts (charts, &flow, report->width, report->height);

  for (guint i = 0; i < charts->len; i++)
    if (DUEL_IS_CHART_TABLE (g_ptr_array_index (charts, i)))
      table = g_ptr_array_index (charts, i);
  if (table != NULL && duel_chart_table_get_n_lines (table) > 0)
    draw_table (table, &flow);

  flow_end_page (&flow);
  /* Then each test in rounds as SNIA's report pages lay it out. */
  _duel_chart_export_snia_pages (report->comparison, flow.cr, style, report->width, report->page_fill);
  status = cairo_status (flow.cr);
  cairo_destroy (flow.cr);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  return !stream_failed (&stream, status, error);
}

gboolean
duel_chart_export_pdf_report (DuelComparison  *comparison,
                              GPtrArray       *charts,
                              const char      *path,
                              double           width,
                              double           height,
                              GError         **error)
{
  return duel_chart_export_pdf_report_full (comparison, charts, path, width, height, NULL, error);
}

gboolean
duel_chart_export_pdf_report_full (DuelComparison  *comparison,
                                   GPtrArray       *charts,
                                   const char      *path,
                                   double           width,
                                   double           height,
                                   GArray          *out_page_fill,
                                   GError         **error)
{
  Report report = { comparison, charts, width, height, out_page_fill };

  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), FALSE);
  g_return_val_if_fail (charts != NULL && charts->len > 0, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return write_path (path, write_pdf_report, &report, error);
}

/* ---- Markdown ------------------------------------------------------------------ */

static void
md_cell (GString    *md,
         const char *text,
         gboolean    bold)
{
  g_string_append (md, " ");
  if (bold && text && *text)
    g_string_append (md, "**");
  for (const char *p = text ? text : ""; *p; p++)
    {
      if (*p == '|' || *p == '*' || *p == '\\' || *p == '_')
        g_string_append_c (md, '\\');
      if (*p == '\n')
        g_string_append (md, "<br>");
      else
        g_string_append_c (md, *p);
    }
  if (bold && text && *text)
    g_string_append (md, "**");
  g_string_append (md, " |");
}

static void
md_header (GString        *md,
           DuelComparison *comparison,
           guint           n_columns)
{
  guint n = duel_comparison_get_n_drives (comparison);

  g_string_append (md, "|");
  md_cell (md, "", FALSE);
  for (guint d = 0; d < n; d++)
    {
      g_autofree char *label = duel_comparison_is_published (comparison, d)
                               ? g_strdup_printf (_("%s (published)"), duel_comparison_get_drive_name (comparison, d))
                               : g_strdup (duel_comparison_get_drive_name (comparison, d));
      md_cell (md, label, FALSE);
    }
  if (n == 2)
    {
      g_autofree char *heading = duel_comparison_dup_difference_heading (comparison);

      md_cell (md, heading, FALSE);
    }
  {
    guint rated[DUEL_COMPARISON_MAX_DRIVES];
    guint n_rated = duel_comparison_get_rated_drives (comparison, rated);

    for (guint i = 0; i < n_rated; i++)
      {
        g_autofree char *label = g_strdup_printf (_("Rated (%s)"), duel_comparison_get_drive_name (comparison, rated[i]));
        md_cell (md, label, FALSE);
      }
  }
  g_string_append (md, "\n|---|");
  for (guint c = 1; c < n_columns; c++)
    g_string_append (md, "---:|");
  g_string_append_c (md, '\n');
}

static void
md_section (GString    *md,
            const char *title,
            guint       n_columns)
{
  g_string_append (md, "|");
  md_cell (md, title, TRUE);
  for (guint c = 1; c < n_columns; c++)
    md_cell (md, "", FALSE);
  g_string_append_c (md, '\n');
}

static void
md_row (GString                 *md,
        DuelComparison          *comparison,
        const DuelComparisonRow *row)
{
  guint n = duel_comparison_get_n_drives (comparison);

  g_string_append (md, "|");
  md_cell (md, row->label, FALSE);
  for (guint d = 0; d < n; d++)
    md_cell (md, row->text[d],
             duel_comparison_row_is_best (row, d));
  if (n == 2)
    {
      g_autofree char *diff = duel_comparison_row_format_difference (row);

      md_cell (md, diff, FALSE);
    }
  {
    guint rated[DUEL_COMPARISON_MAX_DRIVES];
    guint n_rated = duel_comparison_get_rated_drives (comparison, rated);

    for (guint i = 0; i < n_rated; i++)
      {
        g_autofree char *text = duel_comparison_row_format_rated (row, rated[i]);
        md_cell (md, text, FALSE);
      }
  }
  g_string_append_c (md, '\n');
}

char *
duel_chart_export_markdown (DuelComparison *comparison)
{
  GString *md;
  guint n, n_columns, n_headline;
  const guint *headline;
  const char *current = NULL;
  gboolean identity_done = FALSE;
  g_auto(GStrv) warnings = NULL;

  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);

  n = duel_comparison_get_n_drives (comparison);
  {
    guint rated[DUEL_COMPARISON_MAX_DRIVES];

    n_columns = 1 + n + (n == 2 ? 1 : 0) + duel_comparison_get_rated_drives (comparison, rated);
  }
  md = g_string_new (NULL);

  {
    g_autofree char *title = duel_comparison_dup_title (comparison);

    g_string_append_printf (md, "## %s\n\n", title);
  }

  /* The review's own figures first, ready to paste; then every row. */
  headline = duel_comparison_get_headline (comparison, &n_headline);
  if (n_headline > 0)
    {
      g_string_append_printf (md, "### %s\n\n", _("Headline"));
      md_header (md, comparison, n_columns);
      for (guint i = 0; i < n_headline; i++)
        md_row (md, comparison, duel_comparison_get_row (comparison, headline[i]));
      g_string_append_printf (md, "\n### %s\n\n", _("Details"));
    }

  md_header (md, comparison, n_columns);
  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, i);

      if (row->kind == DUEL_COMPARISON_ROW_IDENTITY && !identity_done)
        {
          md_section (md, _("Drive"), n_columns);
          identity_done = TRUE;
        }
      else if (row->kind == DUEL_COMPARISON_ROW_FIGURE && g_strcmp0 (current, row->test) != 0)
        {
          md_section (md, duel_comparison_get_section_title (comparison, row->test), n_columns);
          current = row->test;
        }
      md_row (md, comparison, row);
    }

  if (n > 2)
    g_string_append_printf (md, "\n%s\n", _("Bold: the best value of the row."));
  if (n == 2)
    {
      g_autofree char *heading = duel_comparison_dup_difference_heading (comparison);
      g_autofree char *note = g_strdup_printf (_("%s: how far the second drive’s figure is from the first’s, in %%; "
                                                 "counts and percentages have none. Bold: the better value."), heading);

      g_string_append_printf (md, "\n%s\n", note);
    }
  {
    /* TRANSLATORS: %s says what the unit is: "1 MiB/s = 2²⁰ (1,048,576) bytes per second" */
    g_autofree char *units = g_strdup_printf (_("Rates: %s."), duel_rate_unit_describe (duel_get_rate_unit ()));

    g_string_append_printf (md, "\n%s\n", units);
  }

  warnings = duel_comparison_dup_warning_lines (comparison);
  if (warnings[0] != NULL)
    {
      g_string_append_printf (md, "\n**%s**\n\n", _("Fairness warnings"));
      for (guint i = 0; warnings[i] != NULL; i++)
        g_string_append_printf (md, "- %s\n", warnings[i]);
    }
  return g_string_free (md, FALSE);
}

/* ---- Everything ------------------------------------------------------------------- */

/* File names made from drive names stay well inside NAME_MAX (255 bytes
 * on Linux filesystems), with room for a "-N" and the extension. */
#define STEM_MAX_BYTES 200

static char *
slug (const char *name)
{
  GString *text = g_string_new (NULL);
  gboolean dash = FALSE;

  for (const char *p = name ? name : ""; *p && text->len < STEM_MAX_BYTES; p++)
    {
      if (g_ascii_isalnum (*p))
        {
          if (dash && text->len > 0)
            g_string_append_c (text, '-');
          g_string_append_c (text, g_ascii_tolower (*p));
          dash = FALSE;
        }
      else
        dash = TRUE;
    }
  /* ASCII only, so any byte is a character boundary. */
  g_string_truncate (text, MIN (text->len, STEM_MAX_BYTES));
  while (text->len > 0 && text->str[text->len - 1] == '-')
    g_string_truncate (text, text->len - 1);
  if (text->len == 0)
    g_string_append (text, "drive");
  return g_string_free (text, FALSE);
}

/* @stem, or @stem-2, -3… when an earlier drive has it already (names that
 * differ only in what a slug drops or cuts, "Name" and "Name (2)"). */
static char *
unique_stem (const char *stem,
             GPtrArray  *used)
{
  char *candidate = g_strdup (stem);

  for (guint n = 2; g_ptr_array_find_with_equal_func (used, candidate, g_str_equal, NULL); n++)
    {
      g_autofree char *suffix = g_strdup_printf ("-%u", n);

      g_free (candidate);
      candidate = g_strdup_printf ("%.*s%s", (int) MIN (strlen (stem), STEM_MAX_BYTES - strlen (suffix)),
                                   stem, suffix);
    }
  g_ptr_array_add (used, g_strdup (candidate));
  return candidate;
}

/* What an export writes into its folder. Run twice: first only to list
 * the names (@planned), which are all checked against the writer's rules
 * before the first file is written; then to write them. */
typedef struct
{
  DuelFolder                   *folder;
  DuelWriteFlags                flags;
  const DuelChartExportOptions *options;
  GPtrArray                    *planned;     /* names, while planning */
  GPtrArray                    *out_files;
} Exporter;

static gboolean
export_file (Exporter     *ex,
             const char   *name,
             WriteFunc     func,
             gpointer      data,
             GError      **error)
{
  g_autoptr(DuelFileWriter) writer = NULL;

  if (ex->planned != NULL)
    {
      g_ptr_array_add (ex->planned, g_strdup (name));
      return TRUE;
    }
  writer = duel_made_files_writer_new_in (ex->folder, name, ex->flags, error);
  if (writer == NULL || !func (writer, data, error) || !duel_file_writer_commit (writer, error))
    return FALSE;
  if (ex->out_files != NULL)
    g_ptr_array_add (ex->out_files, g_build_filename (duel_folder_get_path (ex->folder), name, NULL));
  return TRUE;
}

static gboolean
write_text_cb (DuelFileWriter  *writer,
               gpointer         data,
               GError         **error)
{
  const char *text = data;

  return duel_file_writer_write (writer, text, strlen (text), error);
}

static gboolean
write_csv_cb (DuelFileWriter  *writer,
              gpointer         data,
              GError         **error)
{
  g_autofree char *csv = duel_chart_to_csv (DUEL_CHART (data));

  return write_text_cb (writer, csv, error);
}

static gboolean
write_markdown_cb (DuelFileWriter  *writer,
                   gpointer         data,
                   GError         **error)
{
  g_autofree char *md = duel_chart_export_markdown (DUEL_COMPARISON (data));

  return write_text_cb (writer, md, error);
}

static gboolean
write_fio_cb (DuelFileWriter  *writer,
              gpointer         data,
              GError         **error)
{
  g_autofree char *text = duel_fio_export_result (DUEL_RESULT (data));

  return write_text_cb (writer, text, error);
}

/* STEM.png and STEM.svg as the options ask. */
static gboolean
export_images (Exporter    *ex,
               DuelChart   *chart,
               const char  *stem,
               double       height,
               GError     **error)
{
  const DuelChartExportOptions *options = ex->options;

  if (options->formats & DUEL_CHART_EXPORT_PNG)
    {
      g_autofree char *name = g_strconcat (stem, ".png", NULL);
      Image image = { chart, options->width, height, options->scale };

      if (!export_file (ex, name, write_png, &image, error))
        return FALSE;
    }
  if (options->formats & DUEL_CHART_EXPORT_SVG)
    {
      g_autofree char *name = g_strconcat (stem, ".svg", NULL);
      Image image = { chart, options->width, height, 1 };

      if (!export_file (ex, name, write_svg, &image, error))
        return FALSE;
    }
  return TRUE;
}

/* The table as images for an article: summary.png, then summary-2.png,
 * summary-3.png… each at most twice the chart height and as tall as its
 * lines, no taller (the same in SVG). */
static gboolean
export_table_parts (Exporter        *ex,
                    DuelChartTable  *table,
                    GError         **error)
{
  const DuelChartExportOptions *options = ex->options;
  DuelChart *chart = DUEL_CHART (table);
  g_autoptr(GArray) bounds = NULL;
  guint n_parts;
  gboolean ok = TRUE;

  if (!(options->formats & (DUEL_CHART_EXPORT_PNG | DUEL_CHART_EXPORT_SVG)))
    return TRUE;
  bounds = duel_chart_table_split (table, options->width, 2 * options->height);
  n_parts = bounds->len - 1;
  for (guint part = 0; ok && part < n_parts; part++)
    {
      g_autofree char *stem = part == 0 ? g_strdup (duel_chart_get_id (chart))
                                        : g_strdup_printf ("%s-%u", duel_chart_get_id (chart), part + 1);

      duel_chart_table_set_part (table, part, n_parts,
                                 g_array_index (bounds, guint, part), g_array_index (bounds, guint, part + 1));
      ok = export_images (ex, chart, stem, duel_chart_table_get_natural_height (table, options->width), error);
    }
  /* The report shows the whole table under its plain title. */
  duel_chart_table_set_part (table, 0, 0, 0, 0);
  return ok;
}

static gboolean
export_everything (Exporter        *ex,
                   DuelComparison  *comparison,
                   GPtrArray       *charts,
                   GError         **error)
{
  DuelChartExportFormats formats = ex->options->formats;

  for (guint i = 0; i < charts->len; i++)
    {
      DuelChart *chart = g_ptr_array_index (charts, i);
      const char *id = duel_chart_get_id (chart);

      if (!duel_chart_has_data (chart))
        continue;

      /* The table in parts an article can hold, the charts whole. */
      if (DUEL_IS_CHART_TABLE (chart))
        {
          if (!export_table_parts (ex, DUEL_CHART_TABLE (chart), error))
            return FALSE;
        }
      else if (!export_images (ex, chart, id, ex->options->height, error))
        return FALSE;

      if (formats & DUEL_CHART_EXPORT_CSV)
        {
          g_autofree char *name = g_strconcat (id, ".csv", NULL);

          if (!export_file (ex, name, write_csv_cb, chart, error))
            return FALSE;
        }
    }

  if (formats & DUEL_CHART_EXPORT_PDF)
    {
      Report report = { comparison, charts, ex->options->width, ex->options->height, NULL };

      if (!export_file (ex, "report.pdf", write_pdf_report, &report, error))
        return FALSE;
    }

  if ((formats & DUEL_CHART_EXPORT_MARKDOWN) &&
      !export_file (ex, "summary.md", write_markdown_cb, comparison, error))
    return FALSE;

  if (formats & DUEL_CHART_EXPORT_FIO)
    {
      g_autoptr(GPtrArray) used = g_ptr_array_new_with_free_func (g_free);

      for (guint d = 0; d < duel_comparison_get_n_drives (comparison); d++)
        {
          g_autofree char *base = slug (duel_comparison_get_drive_name (comparison, d));
          g_autofree char *stem = unique_stem (base, used);
          g_autofree char *name = g_strconcat (stem, ".fio", NULL);

          if (!export_file (ex, name, write_fio_cb, duel_comparison_get_result (comparison, d), error))
            return FALSE;
        }
    }
  return TRUE;
}

/* Every name the export would write, against the writer's rules, before
 * any is written: one refusal naming all the files in the way. */
static gboolean
check_planned (Exporter   *ex,
               GPtrArray  *names,
               GError    **error)
{
  g_autoptr(GPtrArray) in_the_way = g_ptr_array_new ();
  g_autoptr(GError) first = NULL;
  g_autoptr(GString) list = g_string_new (NULL);
  g_autofree char *folder = NULL;
  g_autofree char *files = NULL;

  for (guint i = 0; i < names->len; i++)
    {
      g_autoptr(GError) local_error = NULL;

      if (duel_made_files_check_name_in (ex->folder, g_ptr_array_index (names, i), ex->flags, &local_error))
        continue;
      if (!g_error_matches (local_error, DUEL_ERROR, DUEL_ERROR_EXISTS))
        {
          /* A link, a folder or a device at the name: never replaced. */
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      g_ptr_array_add (in_the_way, g_ptr_array_index (names, i));
      if (first == NULL)
        first = g_steal_pointer (&local_error);
    }
  if (in_the_way->len == 0)
    return TRUE;
  if (in_the_way->len == 1)
    {
      g_propagate_error (error, g_steal_pointer (&first));
      return FALSE;
    }

  for (guint i = 0; i < MIN (in_the_way->len, 4u); i++)
    {
      g_autofree char *display = g_filename_display_name (g_ptr_array_index (in_the_way, i));

      if (i > 0)
        g_string_append (list, _(", "));
      g_string_append (list, display);
    }
  if (in_the_way->len > 4)
    {
      /* TRANSLATORS: ends a list of file names that is cut short */
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, " and %u more", " and %u more",
                                                            in_the_way->len - 4),
                                               in_the_way->len - 4);

      g_string_append (list, more);
    }
  folder = g_filename_display_name (duel_folder_get_path (ex->folder));
  /* TRANSLATORS: a count of files, then the folder */
  files = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u file in %s", "%u files in %s", in_the_way->len),
                           in_the_way->len, folder);
  if (ex->flags & DUEL_WRITE_HINT_OVERWRITE)
    /* TRANSLATORS: "3 files in DIR", then the list of their names */
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_EXISTS,
                 _("%s would be replaced (%s), and Drive Duel did not write them or they were changed since; "
                   "give another folder, or --overwrite-output to replace them."), files, list->str);
  else
    /* TRANSLATORS: "3 files in DIR", then the list of their names */
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_EXISTS,
                 _("%s would be replaced (%s), and Drive Duel did not write them or they were changed since; "
                   "they were left as they are."), files, list->str);
  return FALSE;
}

gboolean
duel_chart_export_all (DuelComparison               *comparison,
                       const char                   *directory,
                       const DuelChartExportOptions *options,
                       GPtrArray                    *out_files,
                       GError                      **error)
{
  g_autoptr(DuelChartStyle) style = NULL;
  g_autoptr(GPtrArray) charts = NULL;
  g_autoptr(GPtrArray) planned = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(DuelFolder) folder = NULL;
  Exporter ex = { 0 };

  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), FALSE);
  g_return_val_if_fail (directory != NULL, FALSE);
  g_return_val_if_fail (options != NULL, FALSE);

  if (*directory == '\0')
    {
      g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT, _("The folder name is empty."));
      return FALSE;
    }
  /* Opened once: every file is named in this folder, whatever happens to
   * its path meanwhile. Made only where nothing is at its path. */
  {
    g_autoptr(GError) local_error = NULL;

    folder = duel_folder_open (directory, &local_error);
    if (folder == NULL && g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
      {
        g_clear_error (&local_error);
        if (g_mkdir_with_parents (directory, 0755) != 0)
          {
            int saved_errno = errno;
            g_autofree char *display = g_filename_display_name (directory);

            g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                         _("Could not create the folder %s: %s"), display, g_strerror (saved_errno));
            return FALSE;
          }
        folder = duel_folder_open (directory, &local_error);
      }
    if (folder == NULL)
      {
        g_propagate_error (error, g_steal_pointer (&local_error));
        return FALSE;
      }
  }

  style = duel_chart_style_new (options->theme);
  charts = duel_chart_new_report (comparison, style);

  ex.folder = folder;
  ex.flags = EXPORT_WRITE_FLAGS | options->write_flags;
  ex.options = options;
  ex.planned = planned;
  if (!export_everything (&ex, comparison, charts, error) || !check_planned (&ex, planned, error))
    return FALSE;
  ex.planned = NULL;
  ex.out_files = out_files;
  return export_everything (&ex, comparison, charts, error);
}
