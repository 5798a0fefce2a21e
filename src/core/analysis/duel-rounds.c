/* duel-rounds.c — how the records of a test run in rounds combine: steady state and the matrix
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-json.h"
#include "duel-rounds.h"

static void
cell_free (gpointer data)
{
  DuelRoundsCell *cell = data;

  g_free (cell->name);
  g_free (cell);
}

void
duel_rounds_report_free (DuelRoundsReport *report)
{
  if (report == NULL)
    return;
  g_free (report->section);
  g_free (report->tracked_step);
  g_free (report->tracked_key);
  g_free (report->purge_method);
  g_free (report->purge_refused);
  g_clear_pointer (&report->tracked, g_array_unref);
  g_clear_pointer (&report->cells, g_ptr_array_unref);
  g_free (report);
}

guint
duel_rounds_record_get_round (DuelTestRecord *record)
{
  double round = 0;

  g_return_val_if_fail (record != NULL, 0);

  if (!duel_json_get_number (duel_test_record_get_details (record), "round", &round) ||
      round < 1 || round > G_MAXUINT || round != floor (round))
    return 0;
  return (guint) round;
}

GStrv
duel_rounds_list_sections (DuelResult *result)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *tests;

  g_return_val_if_fail (DUEL_IS_RESULT (result), NULL);

  tests = duel_result_get_tests (result);
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      const char *section = duel_json_get_string (duel_test_record_get_details (record), "section");

      if (duel_rounds_record_get_round (record) == 0 || section == NULL || g_hash_table_contains (seen, section))
        continue;
      g_hash_table_add (seen, (gpointer) section);
      g_strv_builder_add (builder, section);
    }
  return g_strv_builder_end (builder);
}

gboolean
duel_rounds_record_in_round (DuelTestRecord *record)
{
  g_return_val_if_fail (record != NULL, FALSE);

  return duel_rounds_record_get_round (record) > 0;
}

static guint
number_or (JsonObject *object,
           const char *member,
           double      min,
           double      max,
           double      fallback)
{
  double value;

  if (!duel_json_get_number (object, member, &value) || value < min || value > max)
    return (guint) fallback;
  return (guint) value;
}

static double
share_or (JsonObject *object,
          const char *member,
          double      fallback)
{
  double value;

  if (!duel_json_get_number (object, member, &value) || !(value > 0) || value > 10)
    return fallback;
  return value;
}

/* The rules the test ran under, as its first record in a round says. */
static void
take_rules (DuelRoundsReport *report,
            DuelTestRecord   *record)
{
  JsonObject *rules = duel_json_get_object (duel_test_record_get_details (record), "rounds");
  const char *step = duel_json_get_string (rules, "tracked_step");
  const char *key = duel_json_get_string (rules, "tracked_key");

  report->window = number_or (rules, "window", 1, DUEL_STEADY_STATE_MAX_WINDOW, 5);
  report->max_rounds = number_or (rules, "max_rounds", 1, G_MAXUINT, 25);
  report->data_limit = share_or (rules, "data_limit", 0.20);
  report->slope_limit = share_or (rules, "slope_limit", 0.10);
  report->tracked_step = g_strdup (step);
  report->tracked_key = g_strdup (key != NULL ? key : "iops");
}

static DuelRoundsCell *
find_cell (DuelRoundsReport *report,
           const char       *name)
{
  for (guint i = 0; i < report->cells->len; i++)
    {
      DuelRoundsCell *cell = g_ptr_array_index (report->cells, i);

      if (g_strcmp0 (cell->name, name) == 0)
        return cell;
    }
  return NULL;
}

typedef struct
{
  double iops, mbps, mean, p9999;
  guint  n_iops, n_mbps, n_mean, n_p9999;
} CellSums;

/* Adds @value to a running mean kept as a sum in *@sum and a count. */
static void
add_to (double *sum,
        guint  *count,
        double  value)
{
  if (!isfinite (value))
    return;
  *sum = (*count == 0 ? 0 : *sum) + value;
  (*count)++;
}

DuelRoundsReport *
duel_rounds_report_new (DuelResult *result,
                        const char *section)
{
  g_autoptr(DuelRoundsReport) report = NULL;
  GPtrArray *tests;
  guint first, last;
  g_autofree CellSums *sums = NULL;

  g_return_val_if_fail (DUEL_IS_RESULT (result), NULL);

  tests = duel_result_get_tests (result);
  report = g_new0 (DuelRoundsReport, 1);
  report->tracked = g_array_new (FALSE, FALSE, sizeof (double));
  report->cells = g_ptr_array_new_with_free_func (cell_free);

  /* The tracked figure of every round, in the order the rounds ran. */
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      const char *record_section = duel_json_get_string (duel_test_record_get_details (record), "section");
      guint round = duel_rounds_record_get_round (record);
      double value;

      if (round == 0 || (section != NULL && g_strcmp0 (record_section, section) != 0) ||
          (report->section != NULL && g_strcmp0 (record_section, report->section) != 0))
        continue;
      if (report->section == NULL)
        {
          report->section = g_strdup (record_section);
          take_rules (report, record);
        }
      if (find_cell (report, record->name) == NULL)
        {
          DuelRoundsCell *cell = g_new0 (DuelRoundsCell, 1);

          cell->name = g_strdup (record->name);
          cell->block_size = record->workload.block_size;
          cell->read_percent = record->workload.read_percent;
          g_ptr_array_add (report->cells, cell);
        }
      if (g_strcmp0 (record->name, report->tracked_step) != 0)
        continue;
      value = duel_test_record_get_figure_value (record, report->tracked_key);
      g_array_append_val (report->tracked, value);
    }
  if (report->section == NULL)
    return NULL;
  /* How the test's span was brought to empty: its preconditioning says. */
  for (guint i = 0; i < tests->len && report->purge_method == NULL; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      JsonObject *details = duel_test_record_get_details (record);
      JsonObject *discard = duel_json_get_object (details, "discard");

      if (discard != NULL && g_strcmp0 (duel_json_get_string (details, "section"), report->section) == 0)
        {
          report->purge_method = g_strdup (duel_json_get_string (discard, "method"));
          report->purge_refused = g_strdup (duel_json_get_string (discard, "format_refused"));
        }
    }
  report->n_rounds = report->tracked->len;

  /* SNIA: from the window's length on, the first window that passes. */
  for (guint end = report->window; end <= report->n_rounds; end++)
    {
      duel_analysis_steady_state_window ((const double *) (gconstpointer) report->tracked->data, report->n_rounds,
                                         end - report->window, report->window,
                                         report->data_limit, report->slope_limit, &report->measured);
      if (report->measured.steady)
        {
          report->steady = TRUE;
          report->steady_round = end;
          break;
        }
    }
  /* None passed: the last window is what the drive ended in, said as not steady. */
  if (!report->steady)
    duel_analysis_steady_state_window ((const double *) (gconstpointer) report->tracked->data, report->n_rounds,
                                       report->n_rounds > report->window ? report->n_rounds - report->window : 0,
                                       MIN (report->window, MAX (report->n_rounds, 1)),
                                       report->data_limit, report->slope_limit, &report->measured);
  last = report->steady ? report->steady_round : report->n_rounds;
  first = last >= report->window ? last - report->window + 1 : 1;

  /* Each cell's figures: the mean over the window's rounds. */
  sums = g_new0 (CellSums, report->cells->len);
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      guint round = duel_rounds_record_get_round (record);
      DuelRoundsCell *cell;
      guint c;

      if (round < first || round > last ||
          g_strcmp0 (duel_json_get_string (duel_test_record_get_details (record), "section"), report->section) != 0)
        continue;
      cell = find_cell (report, record->name);
      if (cell == NULL || !g_ptr_array_find (report->cells, cell, &c))
        continue;
      cell->n_rounds++;
      add_to (&sums[c].iops, &sums[c].n_iops, duel_test_record_get_figure_value (record, "iops"));
      add_to (&sums[c].mbps, &sums[c].n_mbps, duel_test_record_get_figure_value (record, "mbps"));
      add_to (&sums[c].mean, &sums[c].n_mean, duel_test_record_get_figure_value (record, "latency_mean_us"));
      add_to (&sums[c].p9999, &sums[c].n_p9999, duel_test_record_get_figure_value (record, "latency_p9999_us"));
      if (isfinite (duel_test_record_get_figure_value (record, "latency_max_us")))
        cell->latency_max_us = MAX (cell->latency_max_us, duel_test_record_get_figure_value (record, "latency_max_us"));
    }
  for (guint c = 0; c < report->cells->len; c++)
    {
      DuelRoundsCell *cell = g_ptr_array_index (report->cells, c);

      cell->iops = sums[c].n_iops > 0 ? sums[c].iops / sums[c].n_iops : NAN;
      cell->mbps = sums[c].n_mbps > 0 ? sums[c].mbps / sums[c].n_mbps : NAN;
      cell->latency_mean_us = sums[c].n_mean > 0 ? sums[c].mean / sums[c].n_mean : NAN;
      cell->latency_p9999_us = sums[c].n_p9999 > 0 ? sums[c].p9999 / sums[c].n_p9999 : NAN;
      if (cell->n_rounds == 0 || cell->latency_max_us <= 0)
        cell->latency_max_us = NAN;
    }
  return g_steal_pointer (&report);
}

const DuelRoundsCell *
duel_rounds_report_find_cell (const DuelRoundsReport *report,
                              guint32                 block_size,
                              guint                   read_percent)
{
  g_return_val_if_fail (report != NULL, NULL);

  for (guint i = 0; i < report->cells->len; i++)
    {
      const DuelRoundsCell *cell = g_ptr_array_index (report->cells, i);

      if (cell->block_size == block_size && cell->read_percent == read_percent)
        return cell;
    }
  return NULL;
}

const char *
duel_rounds_describe_purge (const char *method)
{
  if (g_strcmp0 (method, "nvme-format") == 0)
    return _("an NVMe format with user data erase (Format NVM)");
  if (g_strcmp0 (method, "BLKDISCARD") == 0)
    return _("a trim of the span (block discard); no device purge");
  if (g_strcmp0 (method, "punch-hole") == 0)
    return _("the file's blocks released (a hole punched over the span), as a trim; a file has no device purge");
  if (g_strcmp0 (method, "none") == 0)
    return _("none; the run was asked not to trim");
  return NULL;
}
