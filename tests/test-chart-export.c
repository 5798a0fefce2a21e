/* test-chart-export.c — every export is a valid file of its kind
 *
 * PNG loads through cairo at the asked size and scale, SVG parses as XML with
 * an <svg> root, the PDF has the expected pages (and renders through
 * ghostscript when it is installed), CSV columns are consistent, the Markdown
 * table has a row per comparison row. The report has no near-empty page and
 * says each test's setup once when the drives agree; the summary image comes
 * in parts an article can hold.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "duel-chart-export.h"
#include "duel-chart-export-private.h"
#include "duel-chart-table.h"
#include "duel-number.h"
#include "test-chart-helpers.h"
#include "test-dir.h"
#include "test-locale.h"
#include "test-rounds-records.h"

typedef struct
{
  char           *dir;
  DuelComparison *comparison;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;

  fixture->dir = g_dir_make_tmp ("duel-export-XXXXXX", NULL);
  g_assert_nonnull (fixture->dir);
  test_make_pair (&a, &b);
  fixture->comparison = duel_comparison_new (a, b, NULL);
  g_assert_nonnull (fixture->comparison);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  test_dir_remove (fixture->dir);
  g_free (fixture->dir);
  g_clear_object (&fixture->comparison);
}

/* ---- Validators ---------------------------------------------------------------- */

static void
check_png (const char *path,
           int         width,
           int         height)
{
  cairo_surface_t *surface = cairo_image_surface_create_from_png (path);

  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, width);
  if (height > 0)
    g_assert_cmpint (cairo_image_surface_get_height (surface), ==, height);
  else
    g_assert_cmpint (cairo_image_surface_get_height (surface), >=, -height);
  cairo_surface_destroy (surface);
}

static int
png_height (const char *path)
{
  cairo_surface_t *surface = cairo_image_surface_create_from_png (path);
  int height;

  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  height = cairo_image_surface_get_height (surface);
  cairo_surface_destroy (surface);
  return height;
}

/* summary.png, summary-2.png… as written: how many. */
static guint
count_parts (const char *dir,
             const char *extension)
{
  guint n = 0;

  for (;; n++)
    {
      g_autofree char *name = n == 0 ? g_strdup_printf ("summary.%s", extension)
                                     : g_strdup_printf ("summary-%u.%s", n + 1, extension);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return n;
    }
}

typedef struct
{
  guint depth;
  char *root;
  guint elements;
  guint texts;      /* <text> elements: none, the export dialog says so */
} SvgState;

static void
svg_start (GMarkupParseContext  *context,
           const char           *element,
           const char          **names,
           const char          **values,
           gpointer              user_data,
           GError              **error)
{
  SvgState *state = user_data;

  if (state->depth == 0)
    state->root = g_strdup (element);
  state->depth++;
  state->elements++;
  if (g_strcmp0 (element, "text") == 0)
    state->texts++;
}

static void
svg_end (GMarkupParseContext  *context,
         const char           *element,
         gpointer              user_data,
         GError              **error)
{
  ((SvgState *) user_data)->depth--;
}

static void
check_svg (const char *path)
{
  static const GMarkupParser parser = { svg_start, svg_end, NULL, NULL, NULL };
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GMarkupParseContext) context = NULL;
  SvgState state = { 0, };
  gsize length;

  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  context = g_markup_parse_context_new (&parser, G_MARKUP_IGNORE_QUALIFIED, &state, NULL);
  g_assert_true (g_markup_parse_context_parse (context, text, length, &error));
  g_assert_no_error (error);
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (state.root, ==, "svg");
  g_assert_cmpuint (state.elements, >, 50);
  /* Cairo draws the text as glyph outlines, as the export dialog tells. */
  g_assert_cmpuint (state.texts, ==, 0);
  g_free (state.root);
}

/* "/Type /Page" not followed by "s" in @data: page objects. */
static guint
count_page_objects (const char *data,
                    gsize       length)
{
  const char *p, *end = data + length;
  guint pages = 0;

  for (p = data; (p = memmem (p, end - p, "/Type /Page", 11)) != NULL; p += 11)
    if (p + 11 < end && p[11] != 's')
      pages++;
  return pages;
}

/* The zlib stream at @data inflated, or NULL when it is not one. */
static GBytes *
inflate_stream (const char *data,
                gsize       length)
{
  g_autoptr(GZlibDecompressor) zlib = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint8 buffer[16384];
  gsize done = 0;

  for (;;)
    {
      gsize read = 0, written = 0;
      GConverterResult result = g_converter_convert (G_CONVERTER (zlib), data + done, length - done,
                                                     buffer, sizeof buffer, G_CONVERTER_INPUT_AT_END,
                                                     &read, &written, NULL);

      if (result == G_CONVERTER_ERROR || (read == 0 && written == 0 && result != G_CONVERTER_FINISHED))
        return NULL;
      done += read;
      g_byte_array_append (out, buffer, written);
      if (result == G_CONVERTER_FINISHED)
        return g_byte_array_free_to_bytes (g_steal_pointer (&out));
    }
}

/* Page objects, in the file and in its compressed streams: cairo 1.16 writes
 * them as they are, cairo 1.18 packs them into compressed object streams
 * (/Type /ObjStm, PDF 1.5), where the file's own bytes show none. */
static guint
pdf_page_count (const char *path)
{
  g_autofree char *data = NULL;
  gsize length;
  guint pages = 0;
  const char *p, *end;

  g_assert_true (g_file_get_contents (path, &data, &length, NULL));
  g_assert_true (length > 8 && memcmp (data, "%PDF-", 5) == 0);
  end = data + length;
  pages = count_page_objects (data, length);
  for (p = data; (p = memmem (p, end - p, "stream", 6)) != NULL; p += 6)
    {
      const char *start = p + 6, *stop;
      g_autoptr(GBytes) inflated = NULL;

      if (p > data && p[-1] == 'd')
        continue; /* "endstream" */
      if (start < end && *start == '\r')
        start++;
      if (start >= end || *start != '\n')
        continue;
      start++;
      stop = memmem (start, end - start, "endstream", 9);
      if (stop == NULL)
        break;
      inflated = inflate_stream (start, stop - start);
      if (inflated != NULL)
        {
          gsize n;
          const char *bytes = g_bytes_get_data (inflated, &n);

          pages += count_page_objects (bytes, n);
        }
      p = stop;
    }
  /* memmem, not g_strrstr_len: that stops at the first NUL, and the
   * compressed stream before the trailer may hold one (it did on sid,
   * and the whole report read as cut off). */
  g_assert_nonnull (memmem (data + length - MIN (length, 64), MIN (length, 64), "%%EOF", 5));
  return pages;
}

/* The text of page @page as ghostscript extracts it; NULL without gs. */
static char *
pdf_page_text (const char *path,
               guint       page)
{
  g_autofree char *gs = g_find_program_in_path ("gs");
  g_autofree char *first = g_strdup_printf ("-dFirstPage=%u", page);
  g_autofree char *last = g_strdup_printf ("-dLastPage=%u", page);
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status;

  if (gs == NULL)
    return NULL;
  {
    const char *argv[] = { gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=txtwrite", first, last,
                           "-sOutputFile=-", path, NULL };
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                                 &out, NULL, &status, &error));
  }
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

static void
check_pdf_renders (const char *path,
                   guint       pages)
{
  g_autofree char *gs = g_find_program_in_path ("gs");
  g_autofree char *dir = NULL;
  g_autofree char *pattern = NULL;
  g_autofree char *output = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int status;

  if (gs == NULL)
    {
      g_test_skip ("ghostscript is not installed: the PDF was only parsed, not rendered");
      return;
    }
  dir = g_dir_make_tmp ("duel-gs-XXXXXX", NULL);
  pattern = g_build_filename (dir, "page-%d.png", NULL);
  output = g_strdup_printf ("-sOutputFile=%s", pattern);
  {
    const char *argv[] = { gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=png16m", "-r30", output, path, NULL };
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, &error));
  }
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL) || (err && *err))
    g_error ("ghostscript failed on the report: %s", err);
  for (guint i = 1; i <= pages + 1; i++)
    {
      g_autofree char *name = g_strdup_printf ("page-%u.png", i);
      g_autofree char *png = g_build_filename (dir, name, NULL);

      /* Exactly @pages images. */
      g_assert_cmpint (g_file_test (png, G_FILE_TEST_EXISTS), ==, i <= pages);
      if (i <= pages)
        {
          cairo_surface_t *surface = cairo_image_surface_create_from_png (png);

          /* A4 landscape at 30 dpi. */
          g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
          g_assert_cmpint (ABS (cairo_image_surface_get_width (surface) - 351), <=, 1);
          cairo_surface_destroy (surface);
        }
    }
  test_dir_remove (dir);
}

static guint
count_fields (const char *line)
{
  guint n = 1;
  gboolean quoted = FALSE;

  for (const char *p = line; *p; p++)
    {
      if (*p == '"')
        quoted = !quoted;
      else if (*p == ',' && !quoted)
        n++;
    }
  return n;
}

static void
check_csv (const char *path)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint columns;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  columns = count_fields (lines[0]);
  g_assert_cmpuint (columns, >=, 4);
  g_assert_nonnull (lines[1]);
  for (guint i = 1; lines[i] && *lines[i]; i++)
    g_assert_cmpuint (count_fields (lines[i]), ==, columns);
}

/* ---- Tests -------------------------------------------------------------------------- */

static void
test_export_all (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) charts = duel_chart_new_all (fixture->comparison, NULL);
  DuelChartExportOptions options;
  /* QoS at both of the review's depths, a chart each. */
  static const char * const ids[] = { "write-curve", "consistency", "qos-qd1", "qos-qd32", "standard", "summary" };
  g_autofree char *pdf = g_build_filename (fixture->dir, "report.pdf", NULL);
  g_autofree char *md_path = g_build_filename (fixture->dir, "summary.md", NULL);
  g_autofree char *md = NULL;
  guint pages, n_parts, md_rows = 0;
  g_auto(GStrv) md_lines = NULL;

  duel_chart_export_options_init (&options);
  g_assert_true (duel_chart_export_all (fixture->comparison, fixture->dir, &options, files, &error));
  g_assert_no_error (error);

  /* 6 charts × (png, svg, csv), the table's further parts (png, svg),
   * report.pdf + summary.md + 2 fio job files */
  n_parts = count_parts (fixture->dir, "png");
  g_assert_cmpuint (n_parts, >=, 2);
  g_assert_cmpuint (count_parts (fixture->dir, "svg"), ==, n_parts);
  g_assert_cmpuint (files->len, ==, G_N_ELEMENTS (ids) * 3 + 2 * (n_parts - 1) + 1 + 1 + 2);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autofree char *png = g_strdup_printf ("%s/%s.png", fixture->dir, ids[i]);
      g_autofree char *svg = g_strdup_printf ("%s/%s.svg", fixture->dir, ids[i]);
      g_autofree char *csv = g_strdup_printf ("%s/%s.csv", fixture->dir, ids[i]);

      /* 1200 × 675 at scale 2; the table's parts are as tall as their lines. */
      check_png (png, 2400, g_str_equal (ids[i], "summary") ? -200 : 1350);
      check_svg (svg);
      check_csv (csv);
    }
  for (guint part = 1; part < n_parts; part++)
    {
      g_autofree char *png = g_strdup_printf ("%s/summary-%u.png", fixture->dir, part + 1);
      g_autofree char *svg = g_strdup_printf ("%s/summary-%u.svg", fixture->dir, part + 1);

      check_png (png, 2400, -200);
      check_svg (svg);
    }

  /* The cover, charts two to a page, the table from where they end: at
   * full size (a "Rated" column for the rated drive alone keeps it within
   * the page's width), over two or three pages. */
  pages = pdf_page_count (pdf);
  g_test_message ("%u pages", pages);
  g_assert_cmpuint (pages, >=, 1 + 3 + 1);
  g_assert_cmpuint (pages, <=, 1 + 5 + 3);
  /* Each QoS chart says its depth, and its CSV holds that depth's tests. */
  for (guint k = 0; k < 2; k++)
    {
      g_autofree char *csv_path = g_strdup_printf ("%s/qos-qd%u.csv", fixture->dir, k == 0 ? 1 : 32);
      g_autofree char *svg_path = g_strdup_printf ("%s/qos-qd%u.svg", fixture->dir, k == 0 ? 1 : 32);
      g_autofree char *csv = NULL;
      g_autofree char *svg = NULL;

      g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
      g_assert_true (g_file_get_contents (svg_path, &svg, NULL, NULL));
      g_assert_nonnull (strstr (csv, k == 0 ? "qos-read-qd1" : "qos-read-qd32"));
      g_assert_null (strstr (csv, k == 0 ? "qos-read-qd32" : "qos-read-qd1,"));
    }
  check_pdf_renders (pdf, pages);
  /* The cover leads with the headline, before the drives' identity. */
  {
    g_autofree char *cover = pdf_page_text (pdf, 1);
    guint n_headline = 0;
    const guint *headline = duel_comparison_get_headline (fixture->comparison, &n_headline);

    if (cover != NULL)
      {
        const char *at = strstr (cover, "Headline");
        const char *label = NULL;

        g_assert_nonnull (at);
        g_assert_cmpuint (n_headline, >, 0);
        label = strstr (at, duel_comparison_get_row (fixture->comparison, headline[0])->label);
        g_assert_nonnull (label);
        g_assert_nonnull (strstr (label, duel_comparison_get_row (fixture->comparison, headline[n_headline - 1])->label));
        g_assert_true (strstr (cover, "Drives") > label);
      }
  }

  g_assert_true (g_file_get_contents (md_path, &md, NULL, NULL));
  md_lines = g_strsplit (md, "\n", -1);
  for (guint i = 0; md_lines[i]; i++)
    md_rows += g_str_has_prefix (md_lines[i], "| ") && !g_str_has_prefix (md_lines[i], "| **");
  /* The headline table (header, its rows), then the detail table (header,
   * a line per row); the section lines are counted apart. */
  {
    guint n_headline = 0;
    const guint *headline = duel_comparison_get_headline (fixture->comparison, &n_headline);
    g_autofree char *headline_at = NULL;
    const char *details_at = strstr (md, "### Details");

    g_assert_cmpuint (n_headline, >=, 10);
    g_assert_cmpuint (md_rows, ==, 1 + n_headline + 1 + duel_comparison_get_n_rows (fixture->comparison));
    /* It comes first, and its first row is the fill's start. */
    g_assert_nonnull (details_at);
    g_assert_true (strstr (md, "### Headline") < details_at);
    g_assert_cmpstr (duel_comparison_get_row (fixture->comparison, headline[0])->key, ==, "iops_at_0pct");
    headline_at = g_strdup_printf ("| %s |", duel_comparison_get_row (fixture->comparison, headline[0])->label);
    g_assert_true (strstr (md, headline_at) < details_at);
  }
  /* The row's label, A, B, B against A, and A's rating (B has none). */
  g_assert_nonnull (strstr (md, "|---|---:|---:|---:|---:|\n"));
  /* Sections under the review's names, not the test ids; the difference
   * column says which drive against which; no % on counts. */
  g_assert_nonnull (strstr (md, "| **Write saturation** |"));
  g_assert_null (strstr (md, "**wsat-fill**"));
  {
    g_autofree char *heading = duel_comparison_dup_difference_heading (fixture->comparison);
    g_autofree char *cell = g_strdup_printf ("| %s |", heading);

    g_assert_nonnull (strstr (heading, " vs "));
    g_assert_nonnull (strstr (md, cell));
  }
  {
    guint counts = 0;

    for (guint i = 0; i < duel_comparison_get_n_rows (fixture->comparison); i++)
      {
        const DuelComparisonRow *row = duel_comparison_get_row (fixture->comparison, i);

        if ((g_strcmp0 (row->unit, "rounds") == 0 || g_strcmp0 (row->unit, "intervals") == 0 ||
             g_strcmp0 (row->unit, "I/Os") == 0) && row->has_value[0] && row->has_value[1])
          {
            g_assert_true (isnan (row->difference_pct));
            counts++;
          }
      }
    g_assert_cmpuint (counts, >, 0);
  }
  g_assert_nonnull (strstr (md, " **"));   /* winners in bold */

  {
    g_autofree char *fio_a = g_build_filename (fixture->dir, "alpha-ssd.fio", NULL);
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (fio_a, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, "[wsat-fill]\n"));
    g_assert_nonnull (strstr (text, "rw=randwrite\n"));
    g_assert_nonnull (strstr (text, "[std-seq-read]\n"));
  }
}

static void
test_export_formats (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  DuelChartExportOptions options;
  DuelChartExportFormats formats;
  g_autofree char *png = g_build_filename (fixture->dir, "qos-qd32.png", NULL);
  cairo_surface_t *surface;
  guint32 corner;

  g_assert_true (duel_chart_export_parse_formats ("png, md", &formats, &error));
  g_assert_cmpint (formats, ==, DUEL_CHART_EXPORT_PNG | DUEL_CHART_EXPORT_MARKDOWN);
  g_assert_false (duel_chart_export_parse_formats ("png,gif", &formats, &error));
  g_assert_nonnull (strstr (error->message, "gif"));
  g_clear_error (&error);
  g_assert_false (duel_chart_export_parse_formats (",", &formats, &error));
  g_clear_error (&error);

  duel_chart_export_options_init (&options);
  options.formats = formats;
  options.width = 800;
  options.height = 450;
  options.scale = 1;
  options.theme = DUEL_CHART_THEME_DARK;
  g_assert_true (duel_chart_export_all (fixture->comparison, fixture->dir, &options, files, &error));
  g_assert_no_error (error);
  /* Six charts (QoS at QD1 and QD32), the table's further parts, summary.md */
  g_assert_cmpuint (files->len, ==, 6 + count_parts (fixture->dir, "png") - 1 + 1);
  check_png (png, 800, 450);

  /* The dark style paints a dark ground. */
  surface = cairo_image_surface_create_from_png (png);
  corner = *(const guint32 *) (gconstpointer) cairo_image_surface_get_data (surface);
  g_assert_cmpuint ((corner >> 16) & 0xff, <, 64);
  cairo_surface_destroy (surface);
}

static void
test_export_one_drive (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelComparison) single = duel_comparison_new (duel_comparison_get_result (fixture->comparison, 0), NULL, NULL);
  DuelChartExportOptions options;
  g_autofree char *pdf = g_build_filename (fixture->dir, "report.pdf", NULL);

  duel_chart_export_options_init (&options);
  options.formats = DUEL_CHART_EXPORT_PDF | DUEL_CHART_EXPORT_SVG;
  g_assert_true (duel_chart_export_all (single, fixture->dir, &options, files, &error));
  g_assert_no_error (error);
  /* Six SVGs (QoS at QD1 and QD32), the table's further parts, the report */
  g_assert_cmpuint (files->len, ==, 6 + count_parts (fixture->dir, "svg") - 1 + 1);
  /* The cover, five charts two to a page, the table (report-pages checks
   * that no page is wasted). */
  g_assert_cmpuint (pdf_page_count (pdf), >=, 1 + 3);
}

static void
test_export_unwritable (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *file = g_build_filename (fixture->dir, "a-file", NULL);
  g_autofree char *below = g_build_filename (file, "charts", NULL);
  DuelChartExportOptions options;

  g_assert_true (g_file_set_contents (file, "", 0, NULL));
  duel_chart_export_options_init (&options);
  g_assert_false (duel_chart_export_all (fixture->comparison, below, &options, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "charts"));
}

/* Under a locale that writes "3,5": the Markdown and the window's text use
 * its marks, the CSV files stay readable by programs (a point, no
 * grouping) in every number column. */
static void
test_export_locale (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GRegex) grouped = g_regex_new ("\\| \\**[0-9]{1,3}(\\.[0-9]{3})+ IOPS\\** \\|", 0, 0, NULL);
  g_autoptr(GRegex) plain_time = g_regex_new (",measured,[0-9]+\\.[0-9]{3},", 0, 0, NULL);
  g_autofree char *md_path = g_build_filename (fixture->dir, "summary.md", NULL);
  g_autofree char *csv_path = g_build_filename (fixture->dir, "summary.csv", NULL);
  g_autofree char *curve_path = g_build_filename (fixture->dir, "consistency.csv", NULL);
  g_autofree char *md = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *curve = NULL;
  g_auto(GStrv) lines = NULL;
  DuelChartExportOptions options;
  const DuelComparisonRow *row = NULL;
  char expected[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *expected_field = NULL;
  gboolean found = FALSE;

  if (!test_locale_use ("de_DE.UTF-8"))
    return;
  /* Texts are made when the comparison is. */
  comparison = duel_comparison_new (duel_comparison_get_result (fixture->comparison, 0),
                                    duel_comparison_get_result (fixture->comparison, 1), NULL);
  duel_chart_export_options_init (&options);
  options.formats = DUEL_CHART_EXPORT_MARKDOWN | DUEL_CHART_EXPORT_CSV;
  g_assert_true (duel_chart_export_all (comparison, fixture->dir, &options, files, &error));
  g_assert_no_error (error);
  test_locale_reset ();

  g_assert_true (g_file_get_contents (md_path, &md, NULL, NULL));
  g_assert_true (g_regex_match (grouped, md, 0, NULL));

  g_assert_true (g_file_get_contents (curve_path, &curve, NULL, NULL));
  g_assert_true (g_regex_match (plain_time, curve, 0, NULL));

  /* summary.csv: the fill's start as its value column holds it. */
  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    if (g_strcmp0 (duel_comparison_get_row (comparison, i)->key, "iops_at_0pct") == 0)
      row = duel_comparison_get_row (comparison, i);
  g_assert_nonnull (row);
  g_assert_true (row->has_value[0] && row->value[0] >= 1000);
  g_ascii_formatd (expected, sizeof expected, "%.10g", row->value[0]);
  g_assert_null (strchr (expected, ','));
  expected_field = g_strdup_printf (",%s,", expected);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  lines = g_strsplit (csv, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "figure,") && strstr (lines[i], ",iops_at_0pct,") != NULL)
      {
        g_test_message ("%s", lines[i]);
        g_assert_nonnull (strstr (lines[i], expected_field));
        found = TRUE;
      }
  g_assert_true (found);
}

/* The rate unit: the Markdown and the charts in MiB/s, saying so; the CSV
 * value columns in MB/s whatever the unit, as the result files hold them. */
static void
test_export_rate_unit (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autofree char *md_path = g_build_filename (fixture->dir, "summary.md", NULL);
  g_autofree char *csv_path = g_build_filename (fixture->dir, "summary.csv", NULL);
  g_autofree char *svg_path = g_build_filename (fixture->dir, "standard.svg", NULL);
  g_autofree char *md = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *shown = NULL;
  g_auto(GStrv) lines = NULL;
  DuelChartExportOptions options;
  const DuelComparisonRow *row = NULL;
  char value[G_ASCII_DTOSTR_BUF_SIZE];
  gboolean found = FALSE;

  duel_set_rate_unit (DUEL_RATE_UNIT_MIB_S);
  comparison = duel_comparison_new (duel_comparison_get_result (fixture->comparison, 0),
                                    duel_comparison_get_result (fixture->comparison, 1), NULL);
  duel_chart_export_options_init (&options);
  options.formats = DUEL_CHART_EXPORT_MARKDOWN | DUEL_CHART_EXPORT_CSV | DUEL_CHART_EXPORT_SVG;
  g_assert_true (duel_chart_export_all (comparison, fixture->dir, &options, files, &error));
  duel_set_rate_unit (DUEL_RATE_UNIT_MB_S);
  g_assert_no_error (error);

  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    if (g_strcmp0 (duel_comparison_get_row (comparison, i)->key, "seq_read_mbps") == 0)
      row = duel_comparison_get_row (comparison, i);
  g_assert_nonnull (row);
  g_assert_true (row->has_value[0]);

  /* The text: the same rate in MiB/s (2^20 bytes), one decimal. */
  {
    g_autofree char *number = duel_number_format (row->value[0] * 1e6 / 1048576.0, 1);

    shown = g_strconcat (number, " MiB/s", NULL);
  }
  g_assert_cmpstr (row->text[0], ==, shown);
  g_assert_true (g_file_get_contents (md_path, &md, NULL, NULL));
  g_assert_nonnull (strstr (md, shown));
  g_assert_null (strstr (md, " MB/s"));
  g_assert_nonnull (strstr (md, "Rates: 1 MiB/s = 2²⁰ (1,048,576) bytes per second."));

  /* The CSV: value in MB/s, unit MB/s, the text as shown. */
  g_ascii_formatd (value, sizeof value, "%.10g", row->value[0]);
  expected = g_strdup_printf (",MB/s,higher,%s,", value);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  lines = g_strsplit (csv, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "figure,") && strstr (lines[i], ",seq_read_mbps,") != NULL)
      {
        g_assert_nonnull (strstr (lines[i], expected));
        g_assert_nonnull (strstr (lines[i], shown));
        found = TRUE;
      }
  g_assert_true (found);

  /* The standard chart says the unit in its title (and on its axis). */
  {
    g_autoptr(GPtrArray) charts = duel_chart_new_all (comparison, NULL);
    g_autofree char *title = NULL;

    duel_set_rate_unit (DUEL_RATE_UNIT_GB_S);
    for (guint i = 0; i < charts->len; i++)
      if (g_strcmp0 (duel_chart_get_id (g_ptr_array_index (charts, i)), "standard") == 0)
        title = duel_chart_get_title (g_ptr_array_index (charts, i));
    duel_set_rate_unit (DUEL_RATE_UNIT_MB_S);
    g_assert_cmpstr (title, ==, "Standard set: sequential GB/s and random IOPS");
  }
  g_assert_true (g_file_test (svg_path, G_FILE_TEST_IS_REGULAR));
}

static DuelComparison *
make_comparison (guint32 b_fill_queue_depth,
                 guint64 b_qos_span)
{
  TestDrive a, b;
  g_autoptr(DuelResult) result_a = NULL;
  g_autoptr(DuelResult) result_b = NULL;

  test_drive_init (&a, "Alpha SSD", 1.0, 11);
  test_drive_init (&b, "Beta SSD", 0.6, 22);
  b.fill_queue_depth = b_fill_queue_depth;
  result_a = test_make_result (&a);
  result_b = test_make_result (&b);
  if (b_qos_span > 0)
    duel_result_find_test (result_b, "qos-read-qd1")->span_length = b_qos_span;
  return duel_comparison_new (result_a, result_b, NULL);
}

/* One line per test when both drives ran it alike; the drives apart where
 * they did not, each with its own setup. */
static void
test_report_parameters (void)
{
  g_autoptr(DuelComparison) alike = make_comparison (32, 0);
  g_autoptr(DuelComparison) differ = make_comparison (8, G_GUINT64_CONSTANT (268400000));
  g_autoptr(GPtrArray) lines = NULL;
  const char * const *tests = duel_comparison_get_tests (alike);
  guint n_tests = g_strv_length ((char **) tests);
  const DuelChartExportParameter *line;

  test_locale_use ("C");
  lines = duel_chart_export_dup_parameters (alike);
  g_assert_cmpuint (n_tests, >=, 10);
  g_assert_cmpuint (lines->len, ==, n_tests);
  for (guint i = 0; i < lines->len; i++)
    {
      line = g_ptr_array_index (lines, i);
      g_assert_false (line->per_drive);
      g_assert_true (g_str_has_prefix (line->text, duel_comparison_get_section_title (alike, tests[i])));
      g_assert_true (g_str_has_suffix (line->text, "; span 64\u00a0GiB"));
    }
  line = g_ptr_array_index (lines, 0);
  g_assert_cmpstr (line->text, ==, "Write saturation — 4 KiB random write, QD32, to 2× the span, trimmed first; span 64\u00a0GiB");
  g_clear_pointer (&lines, g_ptr_array_unref);

  /* The fill at another depth and one QoS test on a smaller span: those
   * two tests take a line per drive, the others stay one line. */
  tests = duel_comparison_get_tests (differ);
  lines = duel_chart_export_dup_parameters (differ);
  g_assert_cmpuint (lines->len, ==, g_strv_length ((char **) tests) + 2 * 2);
  for (guint i = 0, t = 0; i < lines->len; t++)
    {
      gboolean split = g_str_equal (tests[t], DUEL_TEST_WSAT_FILL) || g_str_equal (tests[t], "qos-read-qd1");

      line = g_ptr_array_index (lines, i++);
      g_assert_false (line->per_drive);
      if (!split)
        {
          g_assert_nonnull (strstr (line->text, " — "));
          continue;
        }
      g_assert_cmpstr (line->text, ==, duel_comparison_get_section_title (differ, tests[t]));
      for (guint d = 0; d < 2; d++)
        {
          g_autofree char *drive = g_strdup_printf ("%s: ", duel_comparison_get_drive_name (differ, d));

          line = g_ptr_array_index (lines, i++);
          g_assert_true (line->per_drive);
          g_assert_true (g_str_has_prefix (line->text, drive));
        }
    }
  line = g_ptr_array_index (lines, 1);
  g_assert_cmpstr (line->text, ==, "Alpha SSD: 4 KiB random write, QD32, to 2× the span, trimmed first; span 64\u00a0GiB");
  line = g_ptr_array_index (lines, 2);
  g_assert_cmpstr (line->text, ==, "Beta SSD: 4 KiB random write, QD8, to 2× the span, trimmed first; span 64\u00a0GiB");
  for (guint i = 0; i < lines->len; i++)
    {
      line = g_ptr_array_index (lines, i);
      if (g_str_has_prefix (line->text, "Beta SSD: 4 KiB random read, QD1,"))
        g_assert_true (g_str_has_suffix (line->text, "; span 268.4\u00a0MB"));
    }
  test_locale_reset ();
}

/* The report's pages: no more than its content needs, none but the last
 * less than 40 % full; the same for one drive. */
static void
test_report_pages (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(DuelComparison) single = duel_comparison_new (duel_comparison_get_result (fixture->comparison, 0), NULL, NULL);
  DuelComparison *comparisons[] = { fixture->comparison, single };

  for (guint c = 0; c < G_N_ELEMENTS (comparisons); c++)
    {
      g_autoptr(GPtrArray) charts = duel_chart_new_report (comparisons[c], NULL);
      g_autoptr(GArray) fill = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GError) error = NULL;
      g_autofree char *pdf = g_build_filename (fixture->dir, "pages.pdf", NULL);
      double content = 0;
      guint pages, n_charts = 0;

      g_assert_true (duel_chart_export_pdf_report_full (comparisons[c], charts, pdf, 1200, 675, fill, &error));
      g_assert_no_error (error);
      pages = pdf_page_count (pdf);
      g_assert_cmpuint (fill->len, ==, pages);
      for (guint i = 0; i < pages; i++)
        {
          double f = g_array_index (fill, double, i);

          g_test_message ("drives %u, page %u: %.0f %% full", duel_comparison_get_n_drives (comparisons[c]),
                          i + 1, 100 * f);
          g_assert_cmpfloat (f, <=, 1.0);
          if (i + 1 < pages)
            g_assert_cmpfloat (f, >=, 0.4);
          content += f;
        }
      /* Page breaks lose at most a page in all. */
      g_assert_cmpuint (pages, <=, (guint) ceil (content) + 1);
      /* Two charts a page: the five take three pages' worth at most, where
       * they took five. */
      for (guint i = 0; i < charts->len; i++)
        n_charts += duel_chart_has_data (g_ptr_array_index (charts, i)) &&
                    !DUEL_IS_CHART_TABLE (g_ptr_array_index (charts, i));
      g_assert_cmpuint (n_charts, ==, 5);

      /* The cover says the span as it was given (ghostscript reads it). */
      {
        g_autofree char *cover = pdf_page_text (pdf, 1);
        g_autofree char *next = pdf_page_text (pdf, 2);
        g_autofree char *text = g_strconcat (cover, next, NULL);

        if (cover != NULL)
          {
            /* The space before the unit is a no-break one: text extraction may write either. */
            g_assert_nonnull (strstr (text, "span 64"));
            g_assert_nonnull (strstr (text, "GiB"));
            g_assert_null (strstr (text, "68.7"));
          }
      }
    }
}

/* The first lit row from the foot of @path: the band under it is no more
 * than the frame's padding. */
static int
png_empty_band (const char *path)
{
  cairo_surface_t *surface = cairo_image_surface_create_from_png (path);
  const guint8 *pixels = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  int width = cairo_image_surface_get_width (surface);
  int height = cairo_image_surface_get_height (surface);
  guint32 ground = *(const guint32 *) (gconstpointer) pixels;
  int y;

  for (y = height - 1; y >= 0; y--)
    {
      const guint32 *row = (const guint32 *) (gconstpointer) (pixels + (gsize) y * stride);
      gboolean lit = FALSE;

      for (int x = 0; x < width && !lit; x++)
        lit = row[x] != ground;
      if (lit)
        break;
    }
  cairo_surface_destroy (surface);
  return height - 1 - y;
}

/* The summary image in parts of at most twice the chart height, every line
 * in one part, each part titled "(k of n)" and as tall as its lines. */
static void
test_summary_parts (Fixture       *fixture,
                    gconstpointer  data)
{
  static const double heights[] = { 675, 450, 300, 2000 };
  g_autoptr(DuelChart) chart = duel_chart_table_new (fixture->comparison);
  DuelChartTable *table = DUEL_CHART_TABLE (chart);
  guint n_lines = duel_chart_table_get_n_lines (table);
  g_autofree char *plain = duel_chart_get_title (chart);

  for (guint h = 0; h < G_N_ELEMENTS (heights); h++)
    {
      g_autoptr(GArray) bounds = duel_chart_table_split (table, 1200, 2 * heights[h]);
      guint n_parts = bounds->len - 1, sum = 0;

      g_assert_cmpuint (bounds->len, >=, 2);
      g_assert_cmpuint (g_array_index (bounds, guint, 0), ==, 0);
      g_assert_cmpuint (g_array_index (bounds, guint, n_parts), ==, n_lines);
      /* The whole table fits in one image 4000 tall. */
      g_assert_cmpint (n_parts == 1, ==, heights[h] == 2000);
      for (guint p = 0; p < n_parts; p++)
        {
          guint first = g_array_index (bounds, guint, p), end = g_array_index (bounds, guint, p + 1);
          g_autofree char *title = NULL;
          g_autofree char *suffix = g_strdup_printf (" (%u of %u)", p + 1, n_parts);
          double natural;

          g_assert_cmpuint (end, >, first);
          sum += end - first;
          duel_chart_table_set_part (table, p, n_parts, first, end);
          natural = duel_chart_table_get_natural_height (table, 1200);
          g_assert_cmpfloat (natural, <=, 2 * heights[h]);
          title = duel_chart_get_title (chart);
          if (n_parts > 1)
            {
              g_assert_true (g_str_has_suffix (title, suffix));
              g_assert_true (g_str_has_prefix (title, plain));
            }
          else
            g_assert_cmpstr (title, ==, plain);
          /* Parts but the last fill more than half their room. */
          if (p + 1 < n_parts)
            g_assert_cmpfloat (natural, >, heights[h]);
        }
      g_assert_cmpuint (sum, ==, n_lines);
      duel_chart_table_set_part (table, 0, 0, 0, 0);
    }
  {
    g_autofree char *title = duel_chart_get_title (chart);

    g_assert_cmpstr (title, ==, plain);
  }

  /* As written: at most 2 × 450 × 2 pixels tall, no empty band at the foot. */
  {
    g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(GError) error = NULL;
    g_autoptr(GArray) bounds = duel_chart_table_split (table, 1200, 900);
    DuelChartExportOptions options;
    guint n_parts;

    duel_chart_export_options_init (&options);
    options.height = 450;
    options.formats = DUEL_CHART_EXPORT_PNG;
    g_assert_true (duel_chart_export_all (fixture->comparison, fixture->dir, &options, files, &error));
    g_assert_no_error (error);
    n_parts = count_parts (fixture->dir, "png");
    g_assert_cmpuint (n_parts, ==, bounds->len - 1);
    for (guint p = 0; p < n_parts; p++)
      {
        g_autofree char *name = p == 0 ? g_strdup ("summary.png") : g_strdup_printf ("summary-%u.png", p + 1);
        g_autofree char *path = g_build_filename (fixture->dir, name, NULL);
        int height = png_height (path);

        g_test_message ("%s: %d px", name, height);
        g_assert_cmpint (height, <=, 2 * 450 * 2);
        /* The frame's padding (1.25 × 13 units) and a row's (4) at scale 2. */
        g_assert_cmpint (png_empty_band (path), <=, 2 * (17 + 6));
      }
  }
}


/* A result of SNIA's IOPS test by hand: the tracked 4 KiB write steady in
 * round 6 (window 2–6, mean 51 000), a 4 KiB read beside it. The PDF ends
 * with SNIA's pages for it: the header block with the verdict over the
 * convergence plot, the window plot over the matrix table, the matrix
 * plot; every page before them as without the test. */
static void
test_report_snia_pages (void)
{
  static const double tracked[] = { 90000, 53000, 52000, 50000, 51000, 49000 };
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GPtrArray) charts = NULL;
  g_autoptr(GArray) fill = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("duel-snia-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "report.pdf", NULL);
  g_autoptr(DuelChartStyle) style = duel_chart_style_new (DUEL_CHART_THEME_LIGHT);
  cairo_surface_t *surface;
  cairo_t *cr;
  guint pages, snia;

  duel_result_set_name (result, "Alpha SSD");
  for (guint r = 1; r <= 6; r++)
    {
      test_add_round_cell (result, "pts-iops-4k-r0", 4096, 0, r, tracked[r - 1], NAN);
      test_add_round_cell (result, "pts-iops-4k-r100", 4096, 100, r, 100000 + r * 1000, NAN);
    }
  comparison = duel_comparison_new (result, NULL, &error);
  g_assert_no_error (error);

  /* The SNIA pages alone, counted as drawn: three for one test. */
  surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cr = cairo_create (surface);
  snia = _duel_chart_export_snia_pages (comparison, cr, style, 1200, NULL);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  g_assert_cmpuint (snia, ==, 3);

  charts = duel_chart_new_report (comparison, NULL);
  g_assert_true (duel_chart_export_pdf_report_full (comparison, charts, pdf, 1200, 675, fill, &error));
  g_assert_no_error (error);
  pages = pdf_page_count (pdf);
  g_assert_cmpuint (pages, ==, fill->len);
  g_assert_cmpuint (pages, >, snia);
  check_pdf_renders (pdf, pages);
  {
    g_autofree char *first = pdf_page_text (pdf, pages - 2);
    g_autofree char *second = pdf_page_text (pdf, pages - 1);
    g_autofree char *third = pdf_page_text (pdf, pages);

    if (first == NULL)
      return;
    g_test_message ("%s", first);
    g_assert_nonnull (strstr (first, "SNIA PTS report: SNIA IOPS"));
    g_assert_nonnull (strstr (first, "Test sponsor"));
    g_assert_nonnull (strstr (first, "Device under test"));
    g_assert_nonnull (strstr (first, "Purge"));
    g_assert_nonnull (strstr (first, "reached in rounds 2–6"));
    g_assert_nonnull (strstr (first, "steady state by round"));
    g_assert_nonnull (strstr (second, "steady-state window"));
    /* The matrix table: the means of rounds 2–6, worked out by hand. */
    g_assert_nonnull (strstr (second, "the mean of rounds 2–6"));
    g_assert_nonnull (strstr (second, "51,000"));
    g_assert_nonnull (strstr (second, "104,000"));
    g_assert_nonnull (strstr (third, "IOPS by block size"));
  }
  test_dir_remove (dir);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/duel/chart-export/all", Fixture, NULL, fixture_set_up, test_export_all, fixture_tear_down);
  g_test_add ("/duel/chart-export/formats", Fixture, NULL, fixture_set_up, test_export_formats, fixture_tear_down);
  g_test_add ("/duel/chart-export/one-drive", Fixture, NULL, fixture_set_up, test_export_one_drive, fixture_tear_down);
  g_test_add ("/duel/chart-export/locale", Fixture, NULL, fixture_set_up, test_export_locale, fixture_tear_down);
  g_test_add ("/duel/chart-export/rate-unit", Fixture, NULL, fixture_set_up, test_export_rate_unit, fixture_tear_down);
  g_test_add ("/duel/chart-export/unwritable", Fixture, NULL, fixture_set_up, test_export_unwritable, fixture_tear_down);
  g_test_add_func ("/duel/chart-export/report-parameters", test_report_parameters);
  g_test_add_func ("/duel/chart-export/report-snia-pages", test_report_snia_pages);
  g_test_add ("/duel/chart-export/report-pages", Fixture, NULL, fixture_set_up, test_report_pages, fixture_tear_down);
  g_test_add ("/duel/chart-export/summary-parts", Fixture, NULL, fixture_set_up, test_summary_parts, fixture_tear_down);

  return g_test_run ();
}
