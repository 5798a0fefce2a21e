/* duel-passes.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "duel-passes.h"
#include "duel-rounds.h"
#include "duel-json.h"

static DuelBetter
better_from_string (const char *text)
{
  if (g_strcmp0 (text, "higher") == 0)
    return DUEL_BETTER_HIGHER;
  if (g_strcmp0 (text, "lower") == 0)
    return DUEL_BETTER_LOWER;
  return DUEL_BETTER_NONE;
}

/* The record's summary figures in file order; the loader has checked types. */
GArray *
duel_passes_record_figures (const DuelTestRecord *record)
{
  GArray *figures = g_array_new (FALSE, TRUE, sizeof (DuelPassFigure));
  JsonNode *node;
  JsonArray *array;

  g_return_val_if_fail (record != NULL, figures);

  if (record->summary == NULL)
    return figures;
  node = json_object_get_member (record->summary, "figures");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return figures;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *object;
      DuelPassFigure figure;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      object = json_node_get_object (element);
      figure.key = duel_json_get_string (object, "key");
      if (figure.key == NULL)
        continue;
      if (!duel_json_get_number (object, "value", &figure.value))
        figure.value = NAN;
      figure.unit = duel_json_get_string (object, "unit");
      figure.better = better_from_string (duel_json_get_string (object, "better"));
      figure.n_passes = 0;
      figure.mean = figure.min = figure.max = NAN;
      figure.pass = 0;
      g_array_append_val (figures, figure);
    }
  return figures;
}

const DuelPassFigure *
duel_passes_find_figure (GArray     *figures,
                         const char *key)
{
  g_return_val_if_fail (figures != NULL, NULL);

  for (guint i = 0; i < figures->len; i++)
    {
      const DuelPassFigure *figure = &g_array_index (figures, DuelPassFigure, i);
      if (g_strcmp0 (figure->key, key) == 0)
        return figure;
    }
  return NULL;
}

GPtrArray *
duel_passes_find_records (DuelResult *result,
                          const char *test)
{
  GPtrArray *tests;
  GPtrArray *found = g_ptr_array_new ();

  g_return_val_if_fail (DUEL_IS_RESULT (result), found);

  tests = duel_result_get_tests (result);
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);

      if (g_strcmp0 (record->name, test) == 0)
        g_ptr_array_add (found, record);
    }
  return found;
}

/* The pass whose figures stand for a test run in passes: the best by its
 * first figure that has a better side (the mean IOPS of a mix, the
 * throughput of a CrystalDiskMark step), as CrystalDiskMark picks its best
 * run. Every figure shown is then that pass's, so that figures computed
 * from one another (a consistency ratio, its slowest interval and mean)
 * agree. -1 when no pass has a value for it. */
static int
best_pass (GArray **lists,
           guint    n_lists)
{
  const char *lead = NULL;
  DuelBetter better = DUEL_BETTER_NONE;
  double best = NAN;
  int chosen = -1;

  for (guint r = 0; r < n_lists && lead == NULL; r++)
    for (guint i = 0; i < lists[r]->len && lead == NULL; i++)
      {
        const DuelPassFigure *figure = &g_array_index (lists[r], DuelPassFigure, i);

        better = figure->better;
        if (better == DUEL_BETTER_NONE && duel_figure_lookup (figure->key) != NULL)
          better = duel_figure_lookup (figure->key)->better;
        if (better != DUEL_BETTER_NONE)
          lead = figure->key;
      }
  if (lead == NULL)
    return -1;
  for (guint r = 0; r < n_lists; r++)
    {
      const DuelPassFigure *figure = duel_passes_find_figure (lists[r], lead);

      if (figure == NULL || !isfinite (figure->value))
        continue;
      if (chosen < 0 || (better == DUEL_BETTER_LOWER ? figure->value < best : figure->value > best))
        {
          best = figure->value;
          chosen = (int) r;
        }
    }
  return chosen;
}

/* The first pass whose @key holds @value. */
static guint
pass_holding (GArray    **lists,
              guint       n_lists,
              const char *key,
              double      value)
{
  for (guint r = 0; r < n_lists; r++)
    {
      const DuelPassFigure *figure = duel_passes_find_figure (lists[r], key);

      if (figure != NULL && figure->value == value)
        return r;
    }
  return 0;
}

/* The figures of a test run in @records: those of its one record, or the
 * best pass's (best_pass()), each with the mean and spread of every pass.
 * Keys in the order the passes first hold them. */
static GArray *
pass_figures (GPtrArray *records,
              guint     *out_best)
{
  g_autofree GArray **lists = NULL;
  GArray *merged;
  int best;

  *out_best = 0;
  if (records->len == 0)
    return g_array_new (FALSE, TRUE, sizeof (DuelPassFigure));
  if (records->len == 1)
    return duel_passes_record_figures (g_ptr_array_index (records, 0));

  lists = g_new0 (GArray *, records->len);
  for (guint r = 0; r < records->len; r++)
    lists[r] = duel_passes_record_figures (g_ptr_array_index (records, r));
  best = best_pass (lists, records->len);
  *out_best = best >= 0 ? (guint) best : 0;

  merged = g_array_new (FALSE, TRUE, sizeof (DuelPassFigure));
  for (guint r = 0; r < records->len; r++)
    {
      GArray *figures = lists[r];

      for (guint i = 0; i < figures->len; i++)
        {
          const DuelPassFigure *figure = &g_array_index (figures, DuelPassFigure, i);
          DuelPassFigure *into = (DuelPassFigure *) duel_passes_find_figure (merged, figure->key);

          if (into == NULL)
            {
              DuelPassFigure fresh = *figure;

              fresh.value = fresh.mean = fresh.min = fresh.max = NAN;
              fresh.n_passes = 0;
              fresh.pass = *out_best;
              if (fresh.better == DUEL_BETTER_NONE && duel_figure_lookup (fresh.key) != NULL)
                fresh.better = duel_figure_lookup (fresh.key)->better;
              g_array_append_val (merged, fresh);
              into = &g_array_index (merged, DuelPassFigure, merged->len - 1);
            }
          if ((int) r == best)
            into->value = figure->value;
          if (!isfinite (figure->value))
            continue;
          /* mean holds the sum until the end. */
          if (into->n_passes++ == 0)
            {
              into->min = into->max = into->mean = figure->value;
              continue;
            }
          into->min = MIN (into->min, figure->value);
          into->max = MAX (into->max, figure->value);
          into->mean += figure->value;
        }
    }
  for (guint i = 0; i < merged->len; i++)
    {
      DuelPassFigure *figure = &g_array_index (merged, DuelPassFigure, i);

      if (figure->n_passes == 0)
        continue;
      figure->mean /= figure->n_passes;
      /* No figure has a better side: each is the best of its own passes. */
      if (best < 0)
        {
          figure->value = figure->better == DUEL_BETTER_LOWER ? figure->min : figure->max;
          figure->pass = pass_holding (lists, records->len, figure->key, figure->value);
        }
    }
  for (guint r = 0; r < records->len; r++)
    g_array_unref (lists[r]);
  return merged;
}

/* The keys a cell of a test in rounds is compared by: its tracked figure,
 * and for latency the tail and the longest too (SNIA's latency report). */
static gboolean
judged_key (const DuelRoundsReport *report,
            const char             *key)
{
  if (g_strcmp0 (key, report->tracked_key) == 0)
    return TRUE;
  return g_str_has_prefix (report->tracked_key, "latency_") &&
         (g_str_equal (key, "latency_p9999_us") || g_str_equal (key, "latency_max_us"));
}

/* The records of a cell of a test in rounds: its window's, combined as SNIA
 * reports them, each figure the mean over the window (the longest latency:
 * the longest), with the rounds' spread beside it. */
static void
combine_rounds (DuelResult *result,
                DuelPasses *out)
{
  const char *section = duel_json_get_string (duel_test_record_get_details (g_ptr_array_index (out->records, 0)),
                                              "section");
  g_autoptr(DuelRoundsReport) report = duel_rounds_report_new (result, section);
  GPtrArray *window = g_ptr_array_new ();
  GArray *figures;

  if (report != NULL)
    {
      out->last_round = report->steady ? report->steady_round : report->n_rounds;
      out->first_round = report->measured.complete ? report->measured.first_round : 1;
      out->steady = report->steady;
    }
  for (guint i = 0; i < out->records->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (out->records, i);
      guint round = duel_rounds_record_get_round (record);

      if (report == NULL || (round >= out->first_round && round <= out->last_round))
        g_ptr_array_add (window, record);
    }
  g_ptr_array_unref (out->records);
  out->records = window;
  figures = pass_figures (out->records, &out->chosen);
  out->figures = g_array_new (FALSE, TRUE, sizeof (DuelPassFigure));
  for (guint i = 0; i < figures->len; i++)
    {
      DuelPassFigure figure = g_array_index (figures, DuelPassFigure, i);

      if (report != NULL && !judged_key (report, figure.key))
        continue;
      if (figure.n_passes > 0)
        figure.value = g_str_equal (figure.key, "latency_max_us") ? figure.max : figure.mean;
      /* Not passes to pick the best of: the rounds' spread is the
       * steady-state chart's and the verdict's. */
      figure.n_passes = 0;
      figure.mean = figure.min = figure.max = NAN;
      g_array_append_val (out->figures, figure);
    }
  g_array_unref (figures);
  out->chosen = 0;
}

void
duel_passes_combine (DuelResult *result,
                     const char *test,
                     DuelPasses *out)
{
  g_return_if_fail (DUEL_IS_RESULT (result));
  g_return_if_fail (out != NULL);

  out->records = duel_passes_find_records (result, test);
  out->first_round = out->last_round = 0;
  out->steady = FALSE;
  if (out->records->len > 0 && duel_rounds_record_in_round (g_ptr_array_index (out->records, 0)))
    {
      combine_rounds (result, out);
      return;
    }
  out->figures = pass_figures (out->records, &out->chosen);
}

void
duel_passes_clear (DuelPasses *passes)
{
  g_return_if_fail (passes != NULL);

  g_clear_pointer (&passes->records, g_ptr_array_unref);
  g_clear_pointer (&passes->figures, g_array_unref);
}

void
duel_passes_ensure_summary (DuelTestRecord *record)
{
  g_autoptr(DuelSummary) summary = NULL;
  DuelAnalysisKind kind = DUEL_ANALYSIS_NONE;
  DuelAnalysisParams params;
  JsonNode *figures;

  g_return_if_fail (record != NULL);

  if (record->summary != NULL)
    {
      figures = json_object_get_member (record->summary, "figures");
      if (figures != NULL && JSON_NODE_HOLDS_ARRAY (figures) &&
          json_array_get_length (json_node_get_array (figures)) > 0)
        return;
    }
  if (duel_series_get_length (record->series) == 0)
    return;

  summary = duel_analysis_resummarize (record, &kind, NULL);
  if (summary == NULL || kind == DUEL_ANALYSIS_NONE)
    return;
  duel_analysis_params_init (&params);
  duel_analysis_apply (record, kind, &params, summary);
}
