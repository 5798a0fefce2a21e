/* test-chart-l10n.c — charts in Traditional Chinese: translated, real glyphs, the TC face
 *
 * Run by meson with LANGUAGE=zh_TW LC_ALL=C.UTF-8 FC_LANG=zh-tw and
 * DRIVEDUEL_LOCALEDIR pointing at the built catalogues. Under C.UTF-8
 * fontconfig would pick Noto Sans CJK JP for Han characters; FC_LANG makes it
 * pick the TC face, which the test checks in the layouts and in the PDF.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "duel-chart-export.h"
#include "test-chart-helpers.h"
#include "test-dir.h"

static gboolean
has_han (const char *text)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    if (g_unichar_get_script (g_utf8_get_char (p)) == G_UNICODE_SCRIPT_HAN)
      return TRUE;
  return FALSE;
}

/* No unknown glyphs, and every run holding Han characters is set in the TC face. */
static void
check_layout_text (const char *text)
{
  g_autoptr(DuelChartStyle) style = duel_chart_style_new (DUEL_CHART_THEME_LIGHT);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 10, 10);
  cairo_t *cr = cairo_create (surface);
  g_autoptr(PangoLayout) layout = duel_chart_style_create_layout (style, cr, DUEL_CHART_TEXT_TITLE, text);
  PangoLayoutIter *iter = pango_layout_get_iter (layout);
  guint han_runs = 0;

  g_assert_cmpint (pango_layout_get_unknown_glyphs_count (layout), ==, 0);
  do
    {
      PangoLayoutRun *run = pango_layout_iter_get_run_readonly (iter);
      g_autofree char *run_text = NULL;
      g_autoptr(PangoFontDescription) desc = NULL;
      const char *family;

      if (run == NULL)
        continue;
      run_text = g_strndup (text + run->item->offset, run->item->length);
      if (!has_han (run_text))
        continue;
      desc = pango_font_describe (run->item->analysis.font);
      family = pango_font_description_get_family (desc);
      if (g_strcmp0 (family, "Noto Sans CJK TC") != 0)
        g_error ("“%s” is set in “%s”, not Noto Sans CJK TC", run_text, family);
      han_runs++;
    }
  while (pango_layout_iter_next_run (iter));
  pango_layout_iter_free (iter);
  g_assert_cmpuint (han_runs, >, 0);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_translated_labels (void)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GPtrArray) charts = NULL;

  test_make_pair (&a, &b);
  duel_result_set_name (b, "浦科特 M8PeG");
  comparison = duel_comparison_new (a, b, NULL);
  charts = duel_chart_new_all (comparison, NULL);

  /* The catalogue was found: titles are Chinese, not the English originals. */
  for (guint i = 0; i < charts->len; i++)
    {
      g_autofree char *title = duel_chart_get_title (g_ptr_array_index (charts, i));

      g_test_message ("%s", title);
      g_assert_true (has_han (title));
      check_layout_text (title);
    }
  check_layout_text (_("Capacity written (%)"));
  check_layout_text (_("slowest interval (99.9 %)"));
  check_layout_text (_("Vendor ratings: rated against measured"));
  check_layout_text (duel_comparison_get_drive_name (comparison, 1));
}

static void
test_pdf_embeds_tc (void)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("duel-l10n-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "report.pdf", NULL);
  g_autofree char *data = NULL;
  DuelChartExportOptions options;
  gsize length;

  test_make_pair (&a, &b);
  comparison = duel_comparison_new (a, b, NULL);
  duel_chart_export_options_init (&options);
  options.formats = DUEL_CHART_EXPORT_PDF | DUEL_CHART_EXPORT_PNG;
  g_assert_true (duel_chart_export_all (comparison, dir, &options, NULL, &error));
  g_assert_no_error (error);

  /* The subset font embedded for the Chinese labels is the TC one.
   * memmem: the PDF has NUL bytes, which stop the string functions. */
  g_assert_true (g_file_get_contents (pdf, &data, &length, NULL));
  g_assert_nonnull (memmem (data, length, "NotoSansCJKtc", 13));
  g_assert_null (memmem (data, length, "NotoSansCJKjp", 13));

  test_dir_remove (dir);
}

int
main (int    argc,
      char **argv)
{
  const char *localedir = g_getenv ("DRIVEDUEL_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/chart-l10n/translated-labels", test_translated_labels);
  g_test_add_func ("/duel/chart-l10n/pdf-embeds-tc", test_pdf_embeds_tc);

  return g_test_run ();
}
