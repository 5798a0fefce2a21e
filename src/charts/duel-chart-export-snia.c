/* duel-chart-export-snia.c — the PDF report's pages laid out as SNIA's PTS report pages
 *
 * Per drive and test in rounds, as SNIA's sample reports: a header block
 * (test sponsor and tester, the device under test, the set-up as run and
 * the steady-state verdict) over the convergence plot; the window plot
 * over the matrix table; the matrix plot. Everything is read from the
 * result's records: the purge method the run used (details.discard), the
 * preconditioning record, the rules in details.rounds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-chart-export-private.h"
#include "duel-chart-private.h"
#include "duel-chart-matrix.h"
#include "duel-chart-rounds.h"
#include "duel-json.h"
#include "duel-size.h"
#include "analysis/duel-rounds.h"
#include "device/duel-device-identity-text.h"
#include "review/duel-review-test.h"

/* A field the tester fills in by hand on the printed page. */
#define BLANK_FIELD "________________________________"

typedef struct
{
  cairo_t              *cr;
  const DuelChartStyle *style;
  GArray               *fill;
  double                y;
  guint                 n_pages;
} Page;

static void
page_begin (Page *page)
{
  duel_chart_set_source_color (page->cr, &page->style->background);
  cairo_paint (page->cr);
  page->y = PAGE_MARGIN;
}

static void
page_end (Page *page)
{
  if (page->fill != NULL)
    {
      double fill = CLAMP ((page->y - PAGE_MARGIN) / PAGE_INNER_HEIGHT, 0, 1);

      g_array_append_val (page->fill, fill);
    }
  cairo_show_page (page->cr);
  page->n_pages++;
}

/* The band at the top of each page: the test, the drive, which page. */
static void
draw_banner (Page       *page,
             const char *test_title,
             const char *drive,
             guint       number,
             guint       of)
{
  const DuelChartStyle *style = page->style;
  double width = PAGE_WIDTH - 2 * PAGE_MARGIN;
  /* TRANSLATORS: the heading of SNIA's report pages: "SNIA PTS report: SNIA IOPS" */
  g_autofree char *title = g_strdup_printf (_("SNIA PTS report: %s"), test_title);
  /* TRANSLATORS: under it, the drive and the page of this test's pages: "Alpha SSD — page 1 of 3" */
  g_autofree char *line = g_strdup_printf (_("%s — page %u of %u"), drive, number, of);
  double h;

  h = duel_chart_draw_text_in (page->cr, style, DUEL_CHART_TEXT_TITLE, &style->foreground, title,
                               &(DuelChartRect) { PAGE_MARGIN, page->y, width, 0 }, 0, 0);
  duel_chart_draw_text_in (page->cr, style, DUEL_CHART_TEXT_SUBTITLE, &style->muted, line,
                           &(DuelChartRect) { PAGE_MARGIN, page->y, width, 0 }, 1, 0);
  page->y += h + 4;
  cairo_save (page->cr);
  duel_chart_set_source_color (page->cr, &style->axis);
  cairo_set_line_width (page->cr, 1);
  cairo_move_to (page->cr, PAGE_MARGIN, page->y);
  cairo_line_to (page->cr, PAGE_WIDTH - PAGE_MARGIN, page->y);
  cairo_stroke (page->cr);
  cairo_restore (page->cr);
  page->y += 6;
}

/* One row of the header block: a label, its value wrapped beside it. */
static void
draw_field (Page       *page,
            double      x,
            double      width,
            const char *label,
            const char *value)
{
  const DuelChartStyle *style = page->style;
  double label_w = 150, h;

  h = duel_chart_draw_text_in (page->cr, style, DUEL_CHART_TEXT_TABLE_HEADER, &style->foreground, label,
                               &(DuelChartRect) { x, page->y, label_w - 6, 0 }, 0, 0);
  h = MAX (h, duel_chart_draw_lines_in (page->cr, style, DUEL_CHART_TEXT_TABLE, &style->foreground,
                                        value != NULL && *value ? value : "–",
                                        &(DuelChartRect) { x + label_w, page->y, width - label_w, 0 }, 0, 0, 3));
  page->y += h + 2;
}

static void
draw_heading (Page       *page,
              const char *text)
{
  double h = duel_chart_draw_text_in (page->cr, page->style, DUEL_CHART_TEXT_AXIS_TITLE, &page->style->foreground,
                                      text, &(DuelChartRect) { PAGE_MARGIN, page->y, PAGE_WIDTH, 0 }, 0, 0);

  page->y += h + 3;
}

/* A string of the result's device object, where someone wrote one in. */
static char *
dup_device_string (DuelResult *result,
                   const char *member)
{
  const char *text = duel_json_get_string (duel_result_get_device (result), member);

  return g_strdup (text != NULL && *text ? text : BLANK_FIELD);
}

static char *
dup_identity (DuelResult            *result,
              DuelDeviceIdentityKey  key)
{
  double value;

  return duel_device_identity_dup_text (result, key, &value);
}

/* The test's preconditioning record: details.section, not a round. */
static DuelTestRecord *
find_precondition (DuelResult *result,
                   const char *section)
{
  GPtrArray *tests = duel_result_get_tests (result);

  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      JsonObject *details = duel_test_record_get_details (record);

      if (!duel_rounds_record_in_round (record) &&
          g_strcmp0 (duel_json_get_string (details, "section"), section) == 0)
        return record;
    }
  return NULL;
}

/* A record of the test in a round: the length of its cells. */
static DuelTestRecord *
find_round_record (DuelResult *result,
                   const char *section)
{
  GPtrArray *tests = duel_result_get_tests (result);

  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);

      if (duel_rounds_record_in_round (record) &&
          g_strcmp0 (duel_json_get_string (duel_test_record_get_details (record), "section"), section) == 0)
        return record;
    }
  return NULL;
}

/* The purge the run did, in words: the method its preconditioning's
 * record says was used, and the drive's answer when it refused a format. */
static char *
describe_purge (const DuelRoundsReport *report)
{
  const char *words = duel_rounds_describe_purge (report->purge_method);

  if (words == NULL)
    words = _("not recorded in the result");
  if (report->purge_refused != NULL)
    /* TRANSLATORS: the purge in words, then the drive's answer to the format it refused */
    return g_strdup_printf (_("%s (the drive refused a format: %s)"), words, report->purge_refused);
  return g_strdup (words);
}

static char *
describe_precondition (DuelTestRecord *precondition)
{
  g_autofree char *bs = NULL;
  g_autofree char *span = NULL;

  if (precondition == NULL)
    return g_strdup (_("not run"));
  bs = duel_format_size_as_given (precondition->workload.block_size);
  span = precondition->span_length > 0 ? duel_format_size_as_given (precondition->span_length) : g_strdup ("–");
  if (precondition->status != DUEL_TEST_STATUS_COMPLETE)
    /* TRANSLATORS: preconditioning that stopped early: its block size */
    return g_strdup_printf (_("workload independent, %s sequential write: did not complete"), bs);
  /* TRANSLATORS: the block size, how many times the span it wrote, the span */
  return g_strdup_printf (_("workload independent: %s sequential write, %g× the span of %s, complete"),
                          bs, precondition->workload.size_multiple, span);
}

static char *
describe_verdict (const DuelRoundsReport *report)
{
  const DuelSteadyStateWindow *w = &report->measured;

  if (report->steady)
    /* TRANSLATORS: the first and last round of the window that was steady */
    return g_strdup_printf (_("reached in rounds %u–%u"), w->first_round, w->first_round + w->n - 1);
  if (report->n_rounds >= report->max_rounds)
    /* TRANSLATORS: the round limit the test ran to without a steady state */
    return g_strdup_printf (_("not reached at the limit of %u rounds; the figures are the last %u rounds'"),
                            report->max_rounds, w->n);
  /* TRANSLATORS: rounds run, of the limit */
  return g_strdup_printf (_("not reached: %u of at most %u rounds ran"), report->n_rounds, report->max_rounds);
}

/* SNIA's header block: sponsor, device under test, set-up and verdict. */
static void
draw_header_block (Page                   *page,
                   DuelResult             *result,
                   const DuelRoundsReport *report)
{
  double width = PAGE_WIDTH - 2 * PAGE_MARGIN, column = (width - 24) / 2;
  double left = PAGE_MARGIN, right = PAGE_MARGIN + column + 24, top, left_end;
  DuelTestRecord *precondition = find_precondition (result, report->section);
  DuelTestRecord *cell = find_round_record (result, report->section);
  g_autofree char *sponsor = dup_device_string (result, "test_sponsor");
  g_autofree char *tester = dup_device_string (result, "tester");
  g_autofree char *model = dup_identity (result, DUEL_DEVICE_IDENTITY_MODEL);
  g_autofree char *firmware = dup_identity (result, DUEL_DEVICE_IDENTITY_FIRMWARE);
  g_autofree char *capacity = dup_identity (result, DUEL_DEVICE_IDENTITY_CAPACITY);
  g_autofree char *link = dup_identity (result, DUEL_DEVICE_IDENTITY_INTERFACE);
  g_autofree char *target = dup_identity (result, DUEL_DEVICE_IDENTITY_TARGET);
  g_autofree char *purge = describe_purge (report);
  g_autofree char *pre = describe_precondition (precondition);
  g_autofree char *round_length = NULL;
  g_autofree char *rounds = NULL;
  g_autofree char *window = NULL;
  g_autofree char *limits = NULL;
  g_autofree char *tracked_step = report->tracked_step != NULL
                                  ? duel_review_describe_record (report->tracked_step) : g_strdup ("–");
  g_autofree char *verdict = describe_verdict (report);
  GDateTime *created = duel_result_get_created (result);
  g_autofree char *date = created != NULL ? g_date_time_format (created, "%Y-%m-%d %H:%M UTC") : NULL;

  if (cell != NULL && cell->workload.runtime_ms > 0)
    /* TRANSLATORS: the length of each cell of the matrix in a round, in seconds */
    round_length = g_strdup_printf (_("%g s per cell and round"), cell->workload.runtime_ms / 1000.0);
  /* TRANSLATORS: rounds run, of the most the test may run */
  rounds = g_strdup_printf (_("%u of at most %u"), report->n_rounds, report->max_rounds);
  /* TRANSLATORS: the measurement window's length in rounds */
  window = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u round", "%u rounds", report->window), report->window);
  /* TRANSLATORS: SNIA's two excursion limits, in % of the window's mean */
  limits = g_strdup_printf (_("data excursion ≤ %.0f %%, slope excursion ≤ %.0f %% of the window's mean"),
                            report->data_limit * 100, report->slope_limit * 100);

  top = page->y;
  draw_heading (page, _("Sponsor and tester"));
  draw_field (page, left, column, _("Test sponsor"), sponsor);
  draw_field (page, left, column, _("Tester"), tester);
  draw_field (page, left, column, _("Test date"), date);
  page->y += 4;
  draw_heading (page, _("Device under test"));
  draw_field (page, left, column, _("Model"), model);
  draw_field (page, left, column, _("Firmware"), firmware);
  draw_field (page, left, column, _("Capacity"), capacity);
  draw_field (page, left, column, _("Interface and link"), link);
  if (target != NULL)
    draw_field (page, left, column, _("Measured on"), target);
  left_end = page->y;

  page->y = top;
  page->y += 3 + duel_chart_draw_text_in (page->cr, page->style, DUEL_CHART_TEXT_AXIS_TITLE, &page->style->foreground,
                                          _("Set-up"), &(DuelChartRect) { right, page->y, column, 0 }, 0, 0);
  draw_field (page, right, column, _("Purge"), purge);
  draw_field (page, right, column, _("Preconditioning"), pre);
  draw_field (page, right, column, _("Round length"), round_length);
  draw_field (page, right, column, _("Rounds run"), rounds);
  draw_field (page, right, column, _("Window"), window);
  draw_field (page, right, column, _("Limits"), limits);
  draw_field (page, right, column, _("Tracked cell"), tracked_step);
  draw_field (page, right, column, _("Steady state"), verdict);
  page->y = MAX (page->y, left_end) + 8;
}

/* A chart filling the page from its line down to @bottom. */
static void
draw_chart_in (Page      *page,
               DuelChart *chart,
               double     bottom,
               double     chart_width)
{
  double box_w = PAGE_WIDTH - 2 * PAGE_MARGIN, box_h = bottom - page->y;
  double scale = MIN (1, box_w / chart_width);

  if (box_h < 40)
    return;
  cairo_save (page->cr);
  cairo_translate (page->cr, PAGE_MARGIN, page->y);
  cairo_scale (page->cr, scale, scale);
  duel_chart_draw (chart, page->cr, box_w / scale, box_h / scale);
  cairo_restore (page->cr);
  page->y = bottom;
}

/* The figure of the matrix table's cells, in words. */
static char *
format_cell (const DuelRoundsReport *report,
             const DuelRoundsCell   *cell)
{
  if (cell == NULL)
    return g_strdup ("");
  if (g_str_has_prefix (report->tracked_key, "latency_"))
    {
      g_autofree char *mean = duel_chart_format_number (cell->latency_mean_us, 1);
      g_autofree char *max = duel_chart_format_number (cell->latency_max_us, 1);

      /* TRANSLATORS: a latency cell: the mean / the maximum, both in µs */
      return g_strdup_printf (_("%s / %s"), isfinite (cell->latency_mean_us) ? mean : "–",
                              isfinite (cell->latency_max_us) ? max : "–");
    }
  if (g_strcmp0 (report->tracked_key, "mbps") == 0)
    return isfinite (cell->mbps) ? duel_chart_format_number (cell->mbps, 1) : g_strdup ("–");
  return isfinite (cell->iops) ? duel_chart_format_number (cell->iops, 0) : g_strdup ("–");
}

static void
append_unique (GArray  *array,
               guint32  value)
{
  for (guint i = 0; i < array->len; i++)
    if (g_array_index (array, guint32, i) == value)
      return;
  g_array_append_val (array, value);
}

static int
compare_descending (gconstpointer a,
                    gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x > y ? -1 : x < y;
}

/* SNIA's tabular data: a row per block size (largest first), a column per
 * read/write mix (100/0 first), each cell its mean over the window. */
static void
draw_matrix_table (Page                   *page,
                   const DuelRoundsReport *report)
{
  const DuelChartStyle *style = page->style;
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) mixes = g_array_new (FALSE, FALSE, sizeof (guint32));
  double width = PAGE_WIDTH - 2 * PAGE_MARGIN, label_w = 110, column_w, h = 0;
  const DuelSteadyStateWindow *w = &report->measured;
  g_autofree char *caption = NULL;
  const char *unit;

  for (guint i = 0; i < report->cells->len; i++)
    {
      const DuelRoundsCell *cell = g_ptr_array_index (report->cells, i);

      if (cell->n_rounds == 0)
        continue;
      append_unique (sizes, cell->block_size);
      append_unique (mixes, cell->read_percent);
    }
  g_array_sort (sizes, compare_descending);
  g_array_sort (mixes, compare_descending);
  if (g_str_has_prefix (report->tracked_key, "latency_"))
    unit = _("mean / maximum latency (µs)");
  else if (g_strcmp0 (report->tracked_key, "mbps") == 0)
    unit = _("MB/s");
  else
    unit = _("IOPS");
  /* TRANSLATORS: the matrix table's caption: its figure, the window's rounds */
  caption = g_strdup_printf (_("Steady-state matrix: %s, the mean of rounds %u–%u"), unit,
                             w->first_round, w->first_round + MAX (w->n, 1) - 1);
  draw_heading (page, caption);

  column_w = (width - label_w) / MAX (mixes->len, 1);
  h = duel_chart_draw_text_in (page->cr, style, DUEL_CHART_TEXT_TABLE_HEADER, &style->foreground, _("Block size"),
                               &(DuelChartRect) { PAGE_MARGIN, page->y, label_w - 6, 0 }, 0, 0);
  for (guint m = 0; m < mixes->len; m++)
    {
      guint mix = g_array_index (mixes, guint32, m);
      /* TRANSLATORS: a column of the matrix: a read/write mix in percent: "65/35 R/W" */
      g_autofree char *label = g_strdup_printf (_("%u/%u R/W"), mix, 100 - mix);

      duel_chart_draw_text_in (page->cr, style, DUEL_CHART_TEXT_TABLE_HEADER, &style->foreground, label,
                               &(DuelChartRect) { PAGE_MARGIN + label_w + m * column_w, page->y, column_w - 6, 0 }, 1, 0);
    }
  page->y += h + 3;
  for (guint b = 0; b < sizes->len; b++)
    {
      guint32 bs = g_array_index (sizes, guint32, b);
      g_autofree char *size = duel_format_size_as_given (bs);

      if (b % 2 == 0)
        {
          cairo_save (page->cr);
          duel_chart_set_source_color (page->cr, &style->stripe);
          cairo_rectangle (page->cr, PAGE_MARGIN, page->y - 1, width, h + 2);
          cairo_fill (page->cr);
          cairo_restore (page->cr);
        }
      duel_chart_draw_text_in (page->cr, style, DUEL_CHART_TEXT_TABLE, &style->foreground, size,
                               &(DuelChartRect) { PAGE_MARGIN, page->y, label_w - 6, 0 }, 0, 0);
      for (guint m = 0; m < mixes->len; m++)
        {
          g_autofree char *text = format_cell (report, duel_rounds_report_find_cell (report, bs,
                                                                                      g_array_index (mixes, guint32, m)));

          duel_chart_draw_text_in (page->cr, style, DUEL_CHART_TEXT_TABLE, &style->foreground, text,
                                   &(DuelChartRect) { PAGE_MARGIN + label_w + m * column_w, page->y, column_w - 6, 0 },
                                   1, 0);
        }
      page->y += h + 2;
    }
  page->y += 6;
}

/* The test's matrix plot, on one drive. */
static DuelChart *
new_matrix_chart (DuelComparison       *single,
                  const char           *section,
                  const DuelChartStyle *style)
{
  guint n;
  GType *types = _duel_chart_get_types (&n);

  /* The matrix chart whose tests the section is one of. */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GTypeClass) klass = NULL;

      if (!g_type_is_a (types[i], DUEL_TYPE_CHART_MATRIX))
        continue;
      klass = g_type_class_ref (types[i]);
      if (g_str_has_prefix (section, DUEL_CHART_MATRIX_CLASS (klass)->section_prefix))
        return g_object_new (types[i], "comparison", single, "style", style, NULL);
    }
  return NULL;
}

static void
draw_test_pages (Page                 *page,
                 DuelComparison       *single,
                 const char           *drive,
                 const char           *section,
                 double                chart_width)
{
  DuelResult *result = duel_comparison_get_result (single, 0);
  g_autoptr(DuelRoundsReport) report = duel_rounds_report_new (result, section);
  const DuelReviewTest *test = duel_review_test_find (section);
  const char *title = test != NULL ? duel_review_test_get_title (test) : _("SNIA PTS");
  g_autoptr(DuelChart) convergence = NULL;
  g_autoptr(DuelChart) window = NULL;
  g_autoptr(DuelChart) matrix = NULL;
  double bottom = PAGE_HEIGHT - PAGE_MARGIN;
  guint of;

  if (report == NULL)
    return;
  convergence = g_object_new (DUEL_TYPE_CHART_ROUNDS, "comparison", single, "style", page->style,
                              "section", section, NULL);
  window = g_object_new (DUEL_TYPE_CHART_ROUNDS, "comparison", single, "style", page->style,
                         "section", section, "window-only", TRUE, NULL);
  matrix = new_matrix_chart (single, section, page->style);
  of = matrix != NULL && duel_chart_has_data (matrix) ? 3 : 2;

  /* 1: who, what, how, the verdict; the convergence plot. */
  page_begin (page);
  draw_banner (page, title, drive, 1, of);
  draw_header_block (page, result, report);
  draw_chart_in (page, convergence, bottom, chart_width);
  page_end (page);

  /* 2: the window plot, then the matrix as SNIA tabulates it. */
  page_begin (page);
  draw_banner (page, title, drive, 2, of);
  draw_chart_in (page, window, page->y + (bottom - page->y) * 0.55, chart_width);
  page->y += 8;
  draw_matrix_table (page, report);
  page_end (page);

  /* 3: the matrix plot. */
  if (of < 3)
    return;
  page_begin (page);
  draw_banner (page, title, drive, 3, of);
  draw_chart_in (page, matrix, bottom, chart_width);
  page_end (page);
}

guint
_duel_chart_export_snia_pages (DuelComparison       *comparison,
                               cairo_t              *cr,
                               const DuelChartStyle *style,
                               double                chart_width,
                               GArray               *page_fill)
{
  Page page = { cr, style, page_fill, PAGE_MARGIN, 0 };

  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), 0);
  g_return_val_if_fail (cr != NULL, 0);

  for (guint d = 0; d < duel_comparison_get_n_drives (comparison); d++)
    {
      DuelResult *result = duel_comparison_get_result (comparison, d);
      g_auto(GStrv) sections = duel_rounds_list_sections (result);
      g_autoptr(DuelComparison) single = NULL;

      if (sections[0] == NULL)
        continue;
      single = duel_comparison_get_n_drives (comparison) == 1 ? g_object_ref (comparison)
               : duel_comparison_new (result, NULL, NULL);
      if (single == NULL)
        continue;
      for (guint s = 0; sections[s] != NULL; s++)
        draw_test_pages (&page, single, duel_comparison_get_drive_name (comparison, d), sections[s], chart_width);
    }
  return page.n_pages;
}
