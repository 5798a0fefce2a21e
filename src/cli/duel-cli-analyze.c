/* duel-cli-analyze.c — `driveduel-cli analyze RESULT.json`: recompute and print the figures
 *
 * Every figure is computed again from the series and histograms in the file
 * with the same functions a preset uses, so the output matches what the run
 * printed; a figure that differs from the one stored in the file is reported.
 * A published reference (data/reference/) holds the review's figures and no
 * series: those figures are printed as stored, and said to be published.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/duel-cdm-grid.h"
#include "duel-cli.h"
#include "analysis/duel-rounds.h"
#include "analysis/duel-sequential-write.h"
#include "duel-json.h"
#include "duel-number.h"
#include "run/duel-preset.h"
#include "review/duel-review-test.h"
#include "duel-cli-figures.h"
#include "device/duel-device-link.h"
#include "duel-text.h"

#define LABEL_COLUMNS 52

static void
print_padded (const char *label)
{
  glong width = duel_text_columns (label);

  /* Pad by the columns a terminal gives them, so Chinese labels line up too. */
  printf ("  %s", label);
  for (glong i = width; i < LABEL_COLUMNS; i++)
    putchar (' ');
}

/* The status in words, for the heading. A file that names a journal is
 * a checkpoint: without the journal, its pending test may have run after
 * the file's last save. */
static const char *
status_words (DuelTestStatus status,
              const char    *missing_journal)
{
  switch (status)
    {
    case DUEL_TEST_STATUS_PENDING:   return missing_journal ? _("interrupted") : _("not run");
    case DUEL_TEST_STATUS_RUNNING:   return _("interrupted");
    case DUEL_TEST_STATUS_COMPLETE:  return _("complete");
    case DUEL_TEST_STATUS_CANCELLED: return _("stopped");
    case DUEL_TEST_STATUS_FAILED:    return _("failed");
    default:                         return duel_test_status_describe (status);
    }
}

/* The heading of a test, and what its status means for its figures.
 * @missing_journal: the journal the file names, when it is not beside it. */
static void
print_heading (const DuelTestRecord *record,
               const char           *missing_journal)
{
  g_autofree char *title = duel_review_describe_record (record->name);

  /* TRANSLATORS: the test's title, the preset's, the status: "Write saturation (Quick Review, complete)" */
  printf (_("%s (%s, %s)\n"), title,
          record->preset ? duel_preset_get_title_for_name (record->preset) : _("no preset"),
          status_words (record->status, missing_journal));
  /* What the run recorded after the file's last save was in the journal:
   * a test the file has as pending or running may have more, or have run. */
  if (missing_journal != NULL &&
      (record->status == DUEL_TEST_STATUS_PENDING || record->status == DUEL_TEST_STATUS_RUNNING))
    {
      g_autofree char *base = g_path_get_basename (missing_journal);
      g_autofree char *display = g_filename_display_name (base);
      g_autofree char *escaped = duel_text_escape (display);

      /* TRANSLATORS: %s is a file name, "results.json.journal" */
      printf (_("  The journal %s beside this file is missing: what this test recorded after the file was saved is lost.\n"),
              escaped);
      if (record->status == DUEL_TEST_STATUS_PENDING)
        return;
    }
  switch (record->status)
    {
    case DUEL_TEST_STATUS_RUNNING:
      /* Only a checkpoint says "running": the run never wrote its end. */
      printf ("  %s\n", _("Warning: this is a checkpoint taken during the run, which never finished "
                          "(it was killed, or its final save failed); the figures cover the intervals up to it."));
      break;
    case DUEL_TEST_STATUS_CANCELLED:
      printf ("  %s\n", _("Stopped before the end; the figures cover what was measured."));
      break;
    case DUEL_TEST_STATUS_FAILED:
      /* TRANSLATORS: the error that stopped the run */
      printf (_("  Failed: %s; the figures cover what was measured before.\n"),
              record->error_message ? record->error_message : _("no reason recorded"));
      break;
    case DUEL_TEST_STATUS_PENDING:
      printf ("  %s\n", _("This test was not run."));
      break;
    case DUEL_TEST_STATUS_COMPLETE:
    default:
      break;
    }
  /* The process was paused (SIGSTOP, a suspend): said at the run's end and
   * by analyze alike. */
  {
    g_autofree char *paused = duel_test_record_dup_pause_note (record);

    if (paused != NULL)
      printf ("  %s\n", paused);
  }
}

/* A plain run has no summary: its totals, as fio prints them. */
static void
print_totals (const DuelTestRecord *record)
{
  static const DuelDirection directions[] = { DUEL_DIRECTION_READ, DUEL_DIRECTION_WRITE };

  for (guint i = 0; i < G_N_ELEMENTS (directions); i++)
    {
      guint64 ops = duel_test_record_get_ops (record, directions[i]);
      g_autofree char *iops = NULL;
      g_autofree char *mb_s = NULL;

      if (ops == 0)
        continue;
      /* Grouped as the figures above them are (duel_number_format()). */
      iops = duel_number_format (duel_test_record_get_iops (record, directions[i]), 0);
      mb_s = duel_number_format (duel_test_record_get_bytes_per_second (record, directions[i]) / 1e6, 1);
      print_padded (directions[i] == DUEL_DIRECTION_READ ? _("Read IOPS") : _("Write IOPS"));
      printf (" %s IOPS\n", iops);
      print_padded (directions[i] == DUEL_DIRECTION_READ ? _("Read bandwidth") : _("Write bandwidth"));
      printf (" %s MB/s\n", mb_s);
    }
}

void
duel_cli_print_figures (const DuelTestRecord *record,
                        const DuelSummary    *summary,
                        const char           *missing_journal)
{
  guint n = duel_summary_get_n_figures (summary);
  double intervals;

  print_heading (record, missing_journal);
  for (guint i = 0; i < n; i++)
    {
      const char *key = duel_summary_get_key (summary, i);
      g_autofree char *value = duel_figure_format (key, duel_summary_get_value (summary, i));

      print_padded (duel_figure_get_record_label (key, record));
      printf (" %s\n", value);
    }
  if (duel_summary_lookup (summary, "cliff_pct", &intervals))
    {
      g_auto(GStrv) falls = duel_saturation_dup_falls_text (duel_summary_get_details ((DuelSummary *) summary));

      for (guint i = 0; falls[i] != NULL; i++)
        printf ("  %s\n", falls[i]);
    }
  if (duel_summary_lookup (summary, "seqw_mean_mbps", &intervals))
    {
      g_auto(GStrv) lines = duel_sequential_write_dup_text (duel_summary_get_details ((DuelSummary *) summary));

      for (guint i = 0; lines[i] != NULL; i++)
        printf ("  %s\n", lines[i]);
    }
  if (duel_summary_lookup (summary, "consistency_intervals", &intervals))
    {
      g_autofree char *partial = duel_analysis_consistency_dup_partial_note (record);

      if (intervals < DUEL_CONSISTENCY_MIN_INTERVALS)
        printf (_("  Note: fewer than %u intervals, so the 99.9 %% slowest interval is a single sample.\n"),
                DUEL_CONSISTENCY_MIN_INTERVALS);
      if (partial != NULL)
        printf ("  %s\n", partial);
    }
}

void
duel_cli_print_ceiling_notes (DuelResult           *result,
                              const DuelTestRecord *record,
                              const DuelSummary    *summary)
{
  double ceiling = duel_device_link_ceiling_from_json (duel_result_get_device (result));
  g_auto(GStrv) notes = duel_analysis_dup_ceiling_notes (record, summary, ceiling);

  for (guint i = 0; notes[i] != NULL; i++)
    printf ("  ⚠ %s\n", notes[i]);
}

void
duel_cli_print_cdm_grid (DuelResult *result)
{
  g_autoptr(DuelCdmGrid) grid = duel_cdm_grid_new_for_result (result);
  g_autofree char *text = NULL;

  if (grid == NULL)
    return;
  text = duel_cdm_grid_to_text (grid, DUEL_CDM_UNIT_MB_S, DUEL_CDM_TEXT_PLAIN);
  printf ("\n%s", text);
}

/* The figures stored in the record, in their order: what a published
 * reference holds (a null value is NAN). */
static DuelSummary *
summary_from_stored (const DuelTestRecord *record)
{
  DuelSummary *summary = duel_summary_new ();
  JsonNode *node = record->summary != NULL ? json_object_get_member (record->summary, "figures") : NULL;
  JsonArray *figures;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return summary;
  figures = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (figures); i++)
    {
      JsonNode *element = json_array_get_element (figures, i);
      JsonObject *figure;
      const char *key;
      double value;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      figure = json_node_get_object (element);
      key = json_object_get_string_member_with_default (figure, "key", NULL);
      if (key == NULL || !duel_test_record_get_figure (record, key, &value))
        continue;
      duel_summary_add (summary, key, value);
    }
  return summary;
}


static gboolean
same_value (double a,
            double b)
{
  if (isnan (a) || isnan (b))
    return isnan (a) && isnan (b);
  /* The file keeps doubles with 17 digits; allow for a last-digit difference. */
  return fabs (a - b) <= 1e-12 * MAX (fabs (a), fabs (b));
}

static guint
count_differences (const DuelTestRecord *record,
                   const DuelSummary    *summary)
{
  guint n = duel_summary_get_n_figures (summary), differences = 0;

  if (record->summary == NULL)
    return 0;
  for (guint i = 0; i < n; i++)
    {
      double stored;

      if (duel_test_record_get_figure (record, duel_summary_get_key (summary, i), &stored) &&
          !same_value (stored, duel_summary_get_value (summary, i)))
        differences++;
    }
  return differences;
}

static void
add_figures_json (JsonBuilder          *builder,
                  const DuelTestRecord *record,
                  const DuelSummary    *summary)
{
  guint n = duel_summary_get_n_figures (summary);

  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    {
      const char *key = duel_summary_get_key (summary, i);
      const DuelFigureInfo *info = duel_figure_lookup (key);
      double value = duel_summary_get_value (summary, i);
      double stored;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "key");
      json_builder_add_string_value (builder, key);
      json_builder_set_member_name (builder, "label");
      json_builder_add_string_value (builder, duel_figure_get_record_label (key, record));
      json_builder_set_member_name (builder, "value");
      if (isfinite (value))
        json_builder_add_double_value (builder, value);
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "unit");
      json_builder_add_string_value (builder, info ? info->unit : "");
      json_builder_set_member_name (builder, "matches_stored");
      if (duel_test_record_get_figure (record, key, &stored))
        json_builder_add_boolean_value (builder, same_value (stored, value));
      else
        json_builder_add_null_value (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/* Every fall, recovery and decline of a fill (docs/result-format.md,
 * "analyze --json"), from the recomputed summary; a published reference
 * holds its cliff alone, as a figure. */
static JsonNode *
falls_json (const DuelTestRecord *record,
            const DuelSummary    *summary,
            gboolean              published)
{
  JsonObject *details = published ? duel_json_get_object (record->summary, "details")
                                  : duel_summary_get_details ((DuelSummary *) summary);
  JsonNode *node = duel_saturation_dup_events_json (details);
  JsonArray *events = json_node_get_array (node);
  double cliff;

  if (json_array_get_length (events) == 0 && duel_summary_lookup (summary, "cliff_pct", &cliff) && isfinite (cliff))
    {
      JsonObject *event = json_object_new ();

      json_object_set_string_member (event, "kind", "cliff");
      json_object_set_double_member (event, "knee_pct", cliff);
      json_object_set_null_member (event, "foot_pct");
      json_object_set_null_member (event, "level_before_iops");
      json_object_set_null_member (event, "level_after_iops");
      json_object_set_null_member (event, "resolution_pct");
      json_array_add_object_element (events, event);
    }
  return node;
}

int
duel_cli_analyze (int    argc,
                  char **argv)
{
  gboolean as_json = FALSE;
  g_auto(GStrv) rest = NULL;
  g_autofree char *units = NULL;
  g_autofree char *message = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json, N_("Print the figures as JSON"), NULL },
    { "units", 0, 0, G_OPTION_ARG_STRING, &units, N_("Rates in mb (MB/s, the default), mib (MiB/s) or gb (GB/s)"), "UNIT" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(JsonBuilder) builder = NULL;
  GPtrArray *tests;
  guint differences = 0;
  gboolean published;

  context = g_option_context_new (_("RESULT.json — recompute and print the summary figures of a result file"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return duel_cli_usage_error (context, "%s", error->message);
  if (rest == NULL || g_strv_length (rest) != 1)
    return duel_cli_usage_error (context, _("Give one result file."));
  if (!duel_cli_set_units (units, &message))
    return duel_cli_usage_error (context, "%s", message);

  result = duel_result_load (rest[0], &error);
  if (result == NULL)
    {
      duel_cli_print_error (error);
      return DUEL_CLI_EXIT_FAILED;
    }
  duel_analysis_update_result (result);

  tests = duel_result_get_tests (result);
  published = duel_result_is_published (result);
  if (as_json)
    {
      builder = json_builder_new ();
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "result");
      json_builder_add_string_value (builder, rest[0]);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, duel_result_get_name (result));
      json_builder_set_member_name (builder, "published");
      json_builder_add_boolean_value (builder, published);
      if (duel_result_get_missing_journal (result) != NULL)
        {
          json_builder_set_member_name (builder, "missing_journal");
          json_builder_add_string_value (builder, duel_result_get_missing_journal (result));
        }
      if (published)
        {
          json_builder_set_member_name (builder, "note");
          json_builder_add_string_value (builder, _("Published figures from the review, not measured by Drive Duel."));
        }
      json_builder_set_member_name (builder, "tests");
      json_builder_begin_array (builder);
    }
  else
    {
      /* TRANSLATORS: the result file, the drive's name, how many tests it holds */
      printf (g_dngettext (GETTEXT_PACKAGE, "%s: %s, %u test\n", "%s: %s, %u tests\n", tests->len),
              rest[0], duel_result_get_name (result), tests->len);
      /* A reference has no series to recompute from: say so before its figures. */
      if (published)
        printf ("%s\n", _("Published figures from the review, not measured by Drive Duel."));
    }

  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      g_autoptr(GError) local_error = NULL;
      g_autoptr(DuelSummary) summary = NULL;
      DuelAnalysisKind kind = DUEL_ANALYSIS_NONE;

      if (published)
        {
          summary = summary_from_stored (record);
          kind = duel_analysis_kind_of_record (record);
        }
      else
        {
          summary = duel_analysis_resummarize (record, &kind, &local_error);
          if (summary != NULL)
            differences += count_differences (record, summary);
        }

      if (as_json)
        {
          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, record->name);
          json_builder_set_member_name (builder, "preset");
          if (record->preset != NULL)
            json_builder_add_string_value (builder, record->preset);
          else
            json_builder_add_null_value (builder);
          json_builder_set_member_name (builder, "analysis");
          json_builder_add_string_value (builder, duel_analysis_kind_to_string (kind));
          json_builder_set_member_name (builder, "status");
          json_builder_add_string_value (builder, duel_test_status_to_string (record->status));
          json_builder_set_member_name (builder, "figures");
          if (summary != NULL)
            add_figures_json (builder, record, summary);
          else
            {
              json_builder_begin_array (builder);
              json_builder_end_array (builder);
            }
          if (kind == DUEL_ANALYSIS_SEQUENTIAL_WRITE && summary != NULL)
            {
              g_auto(GStrv) lines = duel_sequential_write_dup_text (
                published ? duel_json_get_object (record->summary, "details")
                          : duel_summary_get_details ((DuelSummary *) summary));

              json_builder_set_member_name (builder, "sentences");
              json_builder_begin_array (builder);
              for (guint l = 0; lines[l] != NULL; l++)
                json_builder_add_string_value (builder, lines[l]);
              json_builder_end_array (builder);
            }
          if (kind == DUEL_ANALYSIS_SATURATION && summary != NULL)
            {
              json_builder_set_member_name (builder, "falls");
              json_builder_add_value (builder, falls_json (record, summary, published));
            }
          json_builder_end_object (builder);
        }
      /* A round's cells are told by the matrix (duel_cli_print_rounds()). */
      else if (duel_rounds_record_in_round (record))
        continue;
      else if (summary != NULL)
        {
          duel_cli_print_figures (record, summary, duel_result_get_missing_journal (result));
          duel_cli_print_ceiling_notes (result, record, summary);
        }
      else
        {
          print_heading (record, duel_result_get_missing_journal (result));
          print_totals (record);
          duel_cli_print_ceiling_notes (result, record, NULL);
          /* A plain run has no figures but its totals; anything else says why. */
          if (record->preset != NULL)
            printf ("  %s\n", local_error->message);
        }
    }

  if (!as_json)
    {
      duel_cli_print_cdm_grid (result);
      duel_cli_print_rounds (result);
    }

  if (as_json)
    {
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;

      json_builder_end_array (builder);
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      json_generator_set_root (generator, root);
      json_generator_set_pretty (generator, TRUE);
      text = json_generator_to_data (generator, NULL);
      printf ("%s\n", text);
    }

  if (differences > 0)
    g_printerr (g_dngettext (GETTEXT_PACKAGE,
                             "driveduel-cli: %u figure differs from the one stored in the file; the recomputed value is shown.\n",
                             "driveduel-cli: %u figures differ from those stored in the file; the recomputed values are shown.\n",
                             differences),
                differences);

  return DUEL_CLI_EXIT_OK;
}
