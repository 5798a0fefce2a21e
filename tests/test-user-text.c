/* test-user-text.c — no test id reaches what people read, in English or in zh_TW
 *
 * Record names ("qos-read-qd1"), review test ids ("write-saturation") and
 * preset names are keys in files and options, not words. This test makes
 * two results holding every review test's records, with the differences
 * that bring out fairness warnings, a stopped test and a test one drive
 * lacks, and reads everything the comparison, the charts, the Markdown
 * report, the Run page's step line and the CLI's analyze and compare print.
 * None may hold an id. Meson runs it twice: in English and with
 * LANGUAGE=zh_TW against the built catalogue.
 *
 * Which ids, and how they are found: test-ids.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>
#include <sys/wait.h>

#include "duel-chart-export.h"
#include "run/duel-preset.h"
#include "review/duel-review-test.h"
#include "test-chart-helpers.h"
#include "test-cli.h"
#include "test-dir.h"
#include "test-ids.h"

static void
check_text (const char *where,
            const char *text)
{
  const char *id, *tail;

  if (test_ids_in_text (text, &id, &tail))
    g_error ("%s shows the id “%s” (as “%s”):\n%s", where, id, tail, text);
}

/* A pair with every test, and the differences the warnings speak of. */
static void
make_results (DuelResult **out_a,
              DuelResult **out_b)
{
  DuelTestRecord *record;
  GPtrArray *tests;

  test_make_pair (out_a, out_b);
  /* A plain run at a depth no table lists, on both: its figures' keys
   * ("rand_write_qd4_iops") must reach people as words. */
  for (guint d = 0; d < 2; d++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (7 + d);

      record = test_new_record ("randwrite", "randwrite", 8192, 4, 0);
      g_free (record->preset);
      record->preset = NULL;
      record->workload.runtime_ms = 10000;
      test_add_rows (record, rand, 10, 20000, 0.05, 150000);
      {
        DuelAnalysisKind kind = duel_analysis_guess (record);
        g_autoptr(DuelSummary) summary = duel_analysis_summarize (record, kind, NULL);

        duel_analysis_apply (record, kind, NULL, summary);
      }
      duel_result_add_test (d == 0 ? *out_a : *out_b, record);
      duel_test_record_unref (record);
    }
  tests = duel_result_get_tests (*out_b);
  for (guint i = 0; i < tests->len; i++)
    {
      record = g_ptr_array_index (tests, i);
      if (g_str_has_prefix (record->name, "qos-"))
        record->workload.runtime_ms = 4000;
      if (g_str_has_prefix (record->name, "std-rand-write"))
        record->status = DUEL_TEST_STATUS_CANCELLED;
    }
  /* One test B did not run. */
  record = duel_result_find_test (*out_b, "std-seq-read");
  g_ptr_array_remove (tests, record);
}

static void
test_comparison_and_exports (void)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GPtrArray) charts = NULL;
  g_autoptr(GPtrArray) written = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("duel-user-text-XXXXXX", &error);
  g_autofree char *md = NULL;
  g_autofree char *md_path = NULL;
  DuelChartExportOptions options;
  const char * const *warnings;
  guint n_warnings;

  g_assert_no_error (error);
  make_results (&a, &b);
  comparison = duel_comparison_new (a, b, NULL);

  warnings = duel_comparison_get_warnings (comparison);
  n_warnings = g_strv_length ((char **) warnings);
  /* The differences made above must have been spoken of, or this checks nothing. */
  g_assert_cmpuint (n_warnings, >=, 3);
  for (guint i = 0; warnings[i] != NULL; i++)
    check_text ("a fairness warning", warnings[i]);

  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, i);

      check_text ("a row's label", row->label);
      /* Figure keys have underscores; labels are words. */
      if (strchr (row->label, '_') != NULL)
        g_error ("a row's label is a key: “%s”", row->label);
      if (row->test != NULL)
        check_text ("a section title", duel_comparison_get_section_title (comparison, row->test));
      for (guint d = 0; d < duel_comparison_get_n_drives (comparison); d++)
        check_text ("a row's value", row->text[d]);
    }
  for (const char * const *t = duel_comparison_get_tests (comparison); *t != NULL; t++)
    {
      const char * const *notes = duel_comparison_get_notes (comparison, *t);

      for (guint i = 0; notes != NULL && notes[i] != NULL; i++)
        check_text ("a note", notes[i]);
    }

  charts = duel_chart_new_all (comparison, NULL);
  g_assert_cmpuint (charts->len, >, 0);
  for (guint i = 0; i < charts->len; i++)
    {
      g_autofree char *title = duel_chart_get_title (g_ptr_array_index (charts, i));
      g_autofree char *subtitle = duel_chart_get_subtitle (g_ptr_array_index (charts, i));

      check_text ("a chart's title", title);
      check_text ("a chart's subtitle", subtitle);
    }

  duel_chart_export_options_init (&options);
  g_assert_true (duel_chart_export_parse_formats ("md", &options.formats, &error));
  g_assert_no_error (error);
  g_assert_true (duel_chart_export_all (comparison, dir, &options, written, &error));
  g_assert_no_error (error);
  md_path = g_build_filename (dir, "summary.md", NULL);
  g_assert_true (g_file_get_contents (md_path, &md, NULL, &error));
  g_assert_no_error (error);
  /* The report names the tests in words: it must hold their titles. */
  g_assert_nonnull (strstr (md, duel_comparison_get_section_title (comparison, "qos-read-qd1")));
  check_text ("the Markdown report", md);

  test_dir_remove (dir);
}

/* The Run page's step line and the CLI's progress say what runs in words. */
static void
test_step_titles (void)
{
  const DuelReviewTest * const *all = duel_review_tests_get_all ();

  for (guint i = 0; all[i] != NULL; i++)
    {
      check_text ("a review test's title", duel_review_test_get_title (all[i]));
      check_text ("a review test's description", duel_review_test_get_description (all[i]));
      for (guint s = 0; s < all[i]->n_steps; s++)
        {
          g_autofree char *title = duel_review_describe_record (all[i]->steps[s].name);

          check_text ("a step's title", title);
        }
    }
  for (const char * const *n = duel_preset_get_names (); *n != NULL; n++)
    {
      check_text ("a preset's title", duel_preset_get_title_for_name (*n));
      check_text ("a preset's description", duel_preset_describe (*n));
    }
}

static void
test_cli (void)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("duel-user-text-XXXXXX", &error);
  g_autofree char *path_a = NULL;
  g_autofree char *path_b = NULL;
  g_autofree char *analyze = NULL;
  g_autofree char *compare = NULL;
  g_autofree char *out_dir = NULL;
  g_autofree char *md_path = NULL;
  g_autofree char *md = NULL;

  g_assert_no_error (error);
  make_results (&a, &b);
  path_a = g_build_filename (dir, "a.json", NULL);
  path_b = g_build_filename (dir, "b.json", NULL);
  g_assert_true (duel_result_save (a, path_a, &error));
  g_assert_no_error (error);
  g_assert_true (duel_result_save (b, path_b, &error));
  g_assert_no_error (error);

  g_assert_cmpint (run_cli (&analyze, NULL, "analyze", path_b, NULL), ==, 0);
  g_assert_cmpuint (strlen (analyze), >, 200);
  check_text ("driveduel-cli analyze", analyze);

  out_dir = g_build_filename (dir, "out", NULL);
  g_assert_cmpint (run_cli (&compare, NULL, "compare", "--format=md", "--output-dir", out_dir, path_a, path_b, NULL),
                   ==, 0);
  check_text ("driveduel-cli compare", compare);
  md_path = g_build_filename (out_dir, "summary.md", NULL);
  g_assert_true (g_file_get_contents (md_path, &md, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (md), >, 200);
  check_text ("driveduel-cli compare's Markdown", md);

  test_dir_remove (dir);
}

/* The reference drives' own words (their files' device.form_factor and
 * device.slot, shown as identity rows): each one in the catalogue, so that
 * under zh_TW none reaches the table in English. */
static void
test_reference_words (void)
{
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *language = g_getenv ("LANGUAGE");
  gboolean chinese = language != NULL && g_str_has_prefix (language, "zh_TW");
  const char *name;
  guint n_words = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      JsonObject *device;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      json_parser_load_from_file (parser, path, &error);
      g_assert_no_error (error);
      device = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "device");
      g_assert_nonnull (device);
      for (guint k = 0; k < 2; k++)
        {
          const char *key = k == 0 ? "form_factor" : "slot";
          const char *word = json_object_get_string_member_with_default (device, key, NULL);

          if (word == NULL)
            continue;
          n_words++;
          g_test_message ("%s %s: “%s” → “%s”", name, key, word, g_dgettext (GETTEXT_PACKAGE, word));
          if (chinese && strcmp (g_dgettext (GETTEXT_PACKAGE, word), word) == 0)
            g_error ("%s: its %s “%s” is not in the catalogue (src/core/device/duel-device-identity-text.c, reference_words)",
                     name, key, word);
        }
    }
  g_assert_cmpuint (n_words, >, 0);
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
  /* The CLI in the language meson gave this test: English or zh_TW. */
  test_cli_keep_language = TRUE;

  g_test_add_func ("/duel/user-text/comparison-and-exports", test_comparison_and_exports);
  g_test_add_func ("/duel/user-text/step-titles", test_step_titles);
  g_test_add_func ("/duel/user-text/cli", test_cli);
  g_test_add_func ("/duel/user-text/reference-words", test_reference_words);

  return g_test_run ();
}
