/* duel-comparison-rows.c — the comparison's rows
 *
 * The drives' identity, every figure of a test with the mean and spread of
 * its passes, the vendor's ratings beside the figures they rate, and the
 * rows' columns as printed (passes, rating, difference).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "duel-comparison-private.h"
#include "device/duel-device-identity-text.h"
#include "duel-json.h"
#include "duel-number.h"
#include "duel-passes.h"

/* ---- Identity ------------------------------------------------------------- */

void
_duel_comparison_add_identity_rows (DuelComparison *self)
{
  gboolean any_file = FALSE;

  for (guint d = 0; d < self->n_drives; d++)
    {
      const DuelTargetInfo *target = duel_result_get_target (self->results[d]);

      any_file |= target != NULL && target->kind == DUEL_TARGET_KIND_FILE;
    }

  for (DuelDeviceIdentityKey k = 0; k < DUEL_DEVICE_IDENTITY_N_KEYS; k++)
    {
      DuelComparisonRow row = { 0, };
      gboolean any = FALSE;

      /* Said only where a file was measured: a device was itself. */
      if (k == DUEL_DEVICE_IDENTITY_TARGET && !any_file)
        continue;

      row.kind = DUEL_COMPARISON_ROW_IDENTITY;
      row.key = g_strdup (duel_device_identity_key_to_string (k));
      row.label = g_strdup (duel_device_identity_get_label (k));
      row.unit = g_strdup (duel_device_identity_get_unit (k));
      row.better = DUEL_BETTER_NONE;
      row.difference_pct = NAN;
      row.winner = DUEL_WINNER_NONE;

      for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
        {
          row.value[d] = NAN;
          row.rated[d] = NAN;
          row.pass_mean[d] = row.pass_min[d] = row.pass_max[d] = NAN;
          if (d < self->n_drives)
            {
              g_autofree char *text = duel_device_identity_dup_text (self->results[d], k, &row.value[d]);
              if (text != NULL && *text != '\0')
                {
                  row.text[d] = g_steal_pointer (&text);
                  row.has_value[d] = TRUE;
                  any = TRUE;
                }
            }
          if (row.text[d] == NULL)
            row.text[d] = g_strdup ("–");
        }

      if (!any)
        {
          _duel_comparison_row_clear (&row);
          continue;
        }
      g_array_append_val (self->rows, row);
    }
}

/* ---- Rated figures ---------------------------------------------------------- */

/* result.rated holds the vendor's figures under these keys (docs/result-format.md):
 * a rated key applies to a single-direction test of that access pattern. */
static const struct
{
  const char  *key;
  DuelPattern  pattern;
  DuelDirection direction;
  const char  *unit;         /* the figure unit it compares with */
} rated_keys[] = {
  { "seq_read_mb_s",   DUEL_PATTERN_SEQUENTIAL, DUEL_DIRECTION_READ,  "MB/s" },
  { "seq_write_mb_s",  DUEL_PATTERN_SEQUENTIAL, DUEL_DIRECTION_WRITE, "MB/s" },
  { "rand_read_iops",  DUEL_PATTERN_RANDOM,     DUEL_DIRECTION_READ,  "IOPS" },
  { "rand_write_iops", DUEL_PATTERN_RANDOM,     DUEL_DIRECTION_WRITE, "IOPS" },
};

/* Which direction a figure key speaks of, by its name: "read_iops" → read. */
static gboolean
key_direction (const char    *key,
               DuelDirection *out_direction)
{
  gboolean read = strstr (key, "read") != NULL;
  gboolean write = strstr (key, "write") != NULL;

  if (read == write)
    return FALSE;
  *out_direction = read ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE;
  return TRUE;
}

/* The deepest queue depth among @result's standard random tests of one
 * direction: vendors rate 4K IOPS at their deepest queue. */
static guint
deepest_random_depth (DuelResult    *result,
                      DuelDirection  direction)
{
  GPtrArray *tests = duel_result_get_tests (result);
  guint deepest = 0;

  for (guint i = 0; i < tests->len; i++)
    {
      const DuelTestRecord *record = g_ptr_array_index (tests, i);

      if (duel_analysis_kind_for_test_name (record->name) == DUEL_ANALYSIS_STANDARD &&
          record->workload.pattern == DUEL_PATTERN_RANDOM &&
          (direction == DUEL_DIRECTION_READ ? !duel_workload_writes (&record->workload)
                                            : !duel_workload_reads (&record->workload)))
        deepest = MAX (deepest, record->workload.queue_depth);
    }
  return deepest;
}

/* The rated_keys[] entry a standard test's figure is measured against, or -1. */
static int
rated_key_for (DuelResult           *result,
               const DuelTestRecord *record,
               const DuelPassFigure *figure)
{
  DuelDirection test_direction, key_dir;

  if (record == NULL || figure->unit == NULL ||
      duel_analysis_kind_for_test_name (record->name) != DUEL_ANALYSIS_STANDARD)
    return -1;
  /* Rated figures are for one direction at a time: 100 % read or write. */
  if (duel_workload_is_mixed (&record->workload))
    return -1;
  test_direction = duel_workload_reads (&record->workload) ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE;
  if (key_direction (figure->key, &key_dir) && key_dir != test_direction)
    return -1;
  if (record->workload.pattern == DUEL_PATTERN_RANDOM &&
      record->workload.queue_depth != deepest_random_depth (result, test_direction))
    return -1;

  for (guint i = 0; i < G_N_ELEMENTS (rated_keys); i++)
    {
      if (rated_keys[i].pattern == record->workload.pattern &&
          rated_keys[i].direction == test_direction &&
          g_strcmp0 (rated_keys[i].unit, figure->unit) == 0)
        return (int) i;
    }
  return -1;
}

/* ---- Figures ---------------------------------------------------------------- */

/* Below a figure of a test run in passes: the mean of the passes and their
 * spread, rows of their own so that every table and export shows them.
 * Neither has a winner: the best pass decides, as CrystalDiskMark reports. */
static void
add_pass_rows (DuelComparison *self,
               guint           best_index)
{
  /* A copy: appending may move the array (the strings it points to stay). */
  const DuelComparisonRow best_row = g_array_index (self->rows, DuelComparisonRow, best_index);
  const DuelComparisonRow *best = &best_row;
  gboolean any = FALSE;

  for (guint d = 0; d < self->n_drives; d++)
    any |= best->n_passes[d] > 0;
  if (!any)
    return;

  for (guint part = 0; part < 2; part++)
    {
      DuelComparisonRow row = { 0, };

      row.kind = DUEL_COMPARISON_ROW_FIGURE;
      row.test = g_strdup (best->test);
      row.key = g_strconcat (best->key, part == 0 ? ".passes_mean" : ".passes_spread", NULL);
      row.label = part == 0
                  /* TRANSLATORS: a figure's label, then: the mean of a test's passes */
                  ? g_strdup_printf (_("%s, mean of the passes"), best->label)
                  /* TRANSLATORS: a figure's label, then: its lowest and highest pass */
                  : g_strdup_printf (_("%s, spread of the passes"), best->label);
      row.unit = g_strdup (part == 0 ? best->unit : "");
      row.better = DUEL_BETTER_NONE;
      for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
        {
          row.value[d] = row.rated[d] = row.pass_mean[d] = row.pass_min[d] = row.pass_max[d] = NAN;
          if (d >= self->n_drives || best->n_passes[d] == 0)
            {
              row.text[d] = g_strdup ("–");
              continue;
            }
          if (part == 0)
            {
              row.has_value[d] = isfinite (best->pass_mean[d]);
              row.value[d] = best->pass_mean[d];
              row.text[d] = duel_figure_format (best->key, best->pass_mean[d]);
            }
          else
            {
              g_autofree char *low = duel_figure_format (best->key, best->pass_min[d]);
              g_autofree char *high = duel_figure_format (best->key, best->pass_max[d]);

              if (best->pass_mean[d] != 0 && isfinite (best->pass_mean[d]))
                {
                  g_autofree char *share = duel_number_format ((best->pass_max[d] - best->pass_min[d]) /
                                                               fabs (best->pass_mean[d]) * 100.0, 0);

                  /* TRANSLATORS: the lowest and highest pass, and their distance as a share of the mean */
                  row.text[d] = g_strdup_printf (_("%s–%s (%s %%)"), low, high, share);
                }
              else
                row.text[d] = g_strdup_printf ("%s–%s", low, high);
            }
        }
      _duel_comparison_settle_row (&row, self->n_drives);
      g_array_append_val (self->rows, row);
    }
}

static void
add_figure_row (DuelComparison       *self,
                const char           *test,
                const DuelPassFigure *figures[DUEL_COMPARISON_MAX_DRIVES],
                DuelTestRecord       *records[DUEL_COMPARISON_MAX_DRIVES],
                const guint           best_pass[DUEL_COMPARISON_MAX_DRIVES],
                const guint           n_runs[DUEL_COMPARISON_MAX_DRIVES])
{
  DuelComparisonRow row = { 0, };
  const DuelPassFigure *any = NULL;
  const DuelWorkload *workload = NULL;
  gboolean completion = FALSE, same_workload = TRUE;

  for (guint d = 0; d < self->n_drives && any == NULL; d++)
    any = figures[d];
  /* A latency figure says "completion latency" when every drive's is
   * fio's clat; a mix of both is a fairness warning
   * (_duel_comparison_check_fairness()). The label states the drives'
   * workload where they all ran the same (a custom 70/30 mix is not
   * "50/50"); else the table's words. */
  for (guint d = 0; d < self->n_drives; d++)
    if (figures[d] != NULL && records[d] != NULL)
      {
        const DuelWorkload *w = &records[d]->workload;

        completion = workload == NULL ? records[d]->latency_kind == DUEL_LATENCY_COMPLETION
                                      : completion && records[d]->latency_kind == DUEL_LATENCY_COMPLETION;
        if (workload == NULL)
          workload = w;
        else if (w->block_size != workload->block_size || w->pattern != workload->pattern ||
                 w->read_percent != workload->read_percent)
          same_workload = FALSE;
      }

  row.kind = DUEL_COMPARISON_ROW_FIGURE;
  row.test = g_strdup (test);
  row.key = g_strdup (any->key);
  row.label = g_strdup (duel_figure_get_workload_label (any->key, same_workload ? workload : NULL, completion));
  row.unit = g_strdup (any->unit ? any->unit : "");
  row.better = any->better;
  if (row.better == DUEL_BETTER_NONE && duel_figure_lookup (any->key) != NULL)
    row.better = duel_figure_lookup (any->key)->better;

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    {
      row.value[d] = NAN;
      row.rated[d] = NAN;
      if (d < self->n_drives && figures[d] != NULL)
        {
          row.has_value[d] = isfinite (figures[d]->value);
          row.value[d] = figures[d]->value;
          row.text[d] = duel_figure_format (figures[d]->key, figures[d]->value);
          row.n_passes[d] = figures[d]->n_passes;
          if (n_runs[d] > 1)
            {
              row.best_pass[d] = best_pass[d] + 1;
              row.n_runs[d] = n_runs[d];
            }
        }
      row.pass_mean[d] = row.n_passes[d] > 0 ? figures[d]->mean : NAN;
      row.pass_min[d] = row.n_passes[d] > 0 ? figures[d]->min : NAN;
      row.pass_max[d] = row.n_passes[d] > 0 ? figures[d]->max : NAN;
      if (d < self->n_drives)
        {
          const DuelPassFigure *figure = figures[d] ? figures[d] : any;
          int k = rated_key_for (self->results[d], records[d], figure);

          if (k >= 0 && duel_json_get_number (duel_result_get_rated (self->results[d]), rated_keys[k].key, &row.rated[d]))
            {
              row.has_rated[d] = TRUE;
              self->rated_attached[d] |= 1u << k;
              self->has_rated = TRUE;
            }
        }
      if (row.text[d] == NULL)
        row.text[d] = g_strdup ("–");
    }

  _duel_comparison_settle_row (&row, self->n_drives);

  g_array_append_val (self->rows, row);
  add_pass_rows (self, self->rows->len - 1);
}

/* The review's scores and the measured figures they are not: the review
 * does not say how its script computes a score, so a score is never set
 * against a drive's mean over the run or read score. Each has a row of its
 * own, shown even where one drive alone holds it (beside a reference,
 * figures one drive alone holds are otherwise left out). */
static const struct
{
  const char *score;
  const char *measured;
} review_scores[] = {
  { "review_write_score_iops", "write_iops_mean" },
  { "review_read_score_iops",  "read_score_iops" },
};

/* Whether @key gets a row though one drive alone holds it: a review score,
 * or the measured figure beside a drive that has the score instead. */
static gboolean
shown_alone (DuelComparison *self,
             GArray         *lists[DUEL_COMPARISON_MAX_DRIVES],
             const char     *key)
{
  for (guint k = 0; k < G_N_ELEMENTS (review_scores); k++)
    {
      if (g_strcmp0 (key, review_scores[k].score) == 0)
        return TRUE;
      if (g_strcmp0 (key, review_scores[k].measured) == 0)
        for (guint d = 0; d < self->n_drives; d++)
          if (duel_passes_find_figure (lists[d], review_scores[k].score) != NULL)
            return TRUE;
    }
  return FALSE;
}

/* Above the figures of the cell a test in rounds is judged by: which
 * rounds each drive's figures (every cell's) are the mean of, and whether
 * they were steady. No winner: a drive steady sooner is not better. */
static void
add_rounds_row (DuelComparison   *self,
                const char       *test,
                const DuelPasses  passes[DUEL_COMPARISON_MAX_DRIVES],
                DuelTestRecord   *records[DUEL_COMPARISON_MAX_DRIVES])
{
  DuelComparisonRow row = { 0, };
  gboolean tracked = FALSE;

  for (guint d = 0; d < self->n_drives; d++)
    if (passes[d].last_round > 0 && records[d] != NULL)
      {
        JsonObject *rules = duel_json_get_object (duel_test_record_get_details (records[d]), "rounds");

        tracked |= g_strcmp0 (duel_json_get_string (rules, "tracked_step"), test) == 0;
      }
  if (!tracked)
    return;

  row.kind = DUEL_COMPARISON_ROW_FIGURE;
  row.test = g_strdup (test);
  row.key = g_strdup ("steady_state_rounds");
  row.label = g_strdup (_("Steady state (every cell: the mean of these rounds)"));
  row.unit = g_strdup ("");
  row.better = DUEL_BETTER_NONE;
  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    {
      row.value[d] = row.rated[d] = NAN;
      row.pass_mean[d] = row.pass_min[d] = row.pass_max[d] = NAN;
      if (d < self->n_drives && passes[d].last_round > 0)
        row.text[d] = passes[d].steady
                      /* TRANSLATORS: the first and last round of the steady-state window */
                      ? g_strdup_printf (_("reached, rounds %u–%u"), passes[d].first_round, passes[d].last_round)
                      /* TRANSLATORS: the first and last of the rounds run, none steady */
                      : g_strdup_printf (_("not reached, rounds %u–%u"), passes[d].first_round,
                                         passes[d].last_round);
      else
        row.text[d] = g_strdup ("–");
    }
  _duel_comparison_settle_row (&row, self->n_drives);
  g_array_append_val (self->rows, row);
}

void
_duel_comparison_add_test_rows (DuelComparison *self,
                                const char     *test)
{
  DuelPasses passes[DUEL_COMPARISON_MAX_DRIVES] = { { NULL, }, };
  DuelTestRecord *records[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };
  GArray *lists[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };
  guint best_pass[DUEL_COMPARISON_MAX_DRIVES] = { 0, };
  guint n_runs[DUEL_COMPARISON_MAX_DRIVES] = { 0, };
  gboolean published = FALSE;

  for (guint d = 0; d < self->n_drives; d++)
    {
      duel_passes_combine (self->results[d], test, &passes[d]);
      lists[d] = passes[d].figures;
      best_pass[d] = passes[d].chosen;
      n_runs[d] = passes[d].records->len;
      /* The record the figures are from: the best pass's. */
      records[d] = n_runs[d] > 0 ? g_ptr_array_index (passes[d].records, best_pass[d]) : NULL;
      published |= duel_result_is_published (self->results[d]);
    }

  add_rounds_row (self, test, passes, records);

  /* A's order, then what only later drives have. A figure one drive alone
   * holds is shown unless a published reference is among them, which
   * prints few; the review's scores and their measured neighbours are. */
  for (guint pass = 0; pass < self->n_drives; pass++)
    {
      for (guint i = 0; i < lists[pass]->len; i++)
        {
          const DuelPassFigure *figure = &g_array_index (lists[pass], DuelPassFigure, i);
          const DuelPassFigure *row[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };
          gboolean earlier = FALSE;
          guint holders = 0;

          for (guint d = 0; d < self->n_drives; d++)
            {
              row[d] = d == pass ? figure : duel_passes_find_figure (lists[d], figure->key);
              holders += row[d] != NULL;
              earlier |= d < pass && row[d] != NULL;
            }
          if (earlier)
            continue;   /* added in an earlier drive's pass */
          if (self->n_drives > 1 && holders < 2 && published && !shown_alone (self, lists, figure->key))
            continue;
          add_figure_row (self, test, row, records, best_pass, n_runs);
        }
    }
  for (guint d = 0; d < self->n_drives; d++)
    duel_passes_clear (&passes[d]);
}

static const char * const rated_labels[G_N_ELEMENTS (rated_keys)] = {
  N_("Sequential read"),
  N_("Sequential write"),
  N_("4K random read"),
  N_("4K random write"),
};

/* The measured figure of @result that a rating is compared with: its
 * standard test of that pattern and direction (the deepest queue for IOPS). */
static gboolean
measured_for_rating (DuelResult *result,
                     guint       k,
                     char      **out_key,
                     double     *out_value)
{
  GPtrArray *tests = duel_result_get_tests (result);

  for (guint i = 0; i < tests->len; i++)
    {
      const DuelTestRecord *record = g_ptr_array_index (tests, i);
      g_autoptr(GArray) figures = duel_passes_record_figures (record);

      for (guint f = 0; f < figures->len; f++)
        {
          const DuelPassFigure *figure = &g_array_index (figures, DuelPassFigure, f);

          if (rated_key_for (result, record, figure) == (int) k && isfinite (figure->value))
            {
              *out_key = g_strdup (figure->key);
              *out_value = figure->value;
              return TRUE;
            }
        }
    }
  return FALSE;
}

/* Ratings no common test row carried get rows of their own, so that a run
 * beside a published reference still shows rated against measured. */
void
_duel_comparison_add_rated_rows (DuelComparison *self)
{
  for (guint k = 0; k < G_N_ELEMENTS (rated_keys); k++)
    {
      DuelComparisonRow row = { 0, };
      gboolean any_rated = FALSE;

      for (guint d = 0; d < self->n_drives; d++)
        {
          double value;

          if (!(self->rated_attached[d] & (1u << k)) &&
              duel_json_get_number (duel_result_get_rated (self->results[d]), rated_keys[k].key, &value))
            any_rated = TRUE;
        }
      if (!any_rated)
        continue;

      row.kind = DUEL_COMPARISON_ROW_FIGURE;
      row.test = g_strdup (DUEL_COMPARISON_RATED_SECTION);
      row.key = g_strdup (rated_keys[k].key);
      row.label = g_strdup_printf ("%s (%s)", _(rated_labels[k]),
                                   strcmp (rated_keys[k].unit, "MB/s") == 0
                                   ? duel_rate_unit_get_symbol (duel_get_rate_unit ()) : rated_keys[k].unit);
      row.unit = g_strdup (rated_keys[k].unit);
      row.better = DUEL_BETTER_HIGHER;
      for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
        {
          g_autofree char *measured_key = NULL;

          row.value[d] = NAN;
          row.rated[d] = NAN;
          row.pass_mean[d] = row.pass_min[d] = row.pass_max[d] = NAN;
          if (d < self->n_drives)
            {
              if (measured_for_rating (self->results[d], k, &measured_key, &row.value[d]))
                {
                  row.has_value[d] = TRUE;
                  row.text[d] = duel_figure_format (measured_key, row.value[d]);
                }
              row.has_rated[d] = duel_json_get_number (duel_result_get_rated (self->results[d]),
                                                rated_keys[k].key, &row.rated[d]);
            }
          if (row.text[d] == NULL)
            row.text[d] = g_strdup ("–");
        }
      _duel_comparison_settle_row (&row, self->n_drives);
      self->has_rated = TRUE;
      g_array_append_val (self->rows, row);
    }
}

/* ---- Rows as printed -------------------------------------------------------- */

char *
duel_comparison_row_format_passes (const DuelComparisonRow *row,
                                   guint                    drive)
{
  g_autofree char *best = NULL;
  g_autofree char *mean = NULL;
  g_autofree char *low = NULL;
  g_autofree char *high = NULL;
  g_autofree char *share = NULL;

  g_return_val_if_fail (row != NULL, NULL);
  g_return_val_if_fail (drive < DUEL_COMPARISON_MAX_DRIVES, NULL);

  if (row->kind != DUEL_COMPARISON_ROW_FIGURE || row->n_passes[drive] == 0)
    return g_strdup ("");
  best = duel_figure_format (row->key, row->value[drive]);
  mean = duel_figure_format (row->key, row->pass_mean[drive]);
  low = duel_figure_format (row->key, row->pass_min[drive]);
  high = duel_figure_format (row->key, row->pass_max[drive]);
  if (row->pass_mean[drive] == 0)
    /* TRANSLATORS: a test run in passes: the figure of its best pass, which
     * pass that was and of how many, their mean, the lowest and the highest */
    return g_strdup_printf (_("best %s (pass %u of %u), mean %s, spread %s–%s"), best, row->best_pass[drive],
                            row->n_runs[drive], mean, low, high);
  share = duel_number_format ((row->pass_max[drive] - row->pass_min[drive]) / fabs (row->pass_mean[drive]) * 100.0, 0);
  /* TRANSLATORS: a test run in passes: the figure of its best pass, which
   * pass that was and of how many, their mean, the lowest and the highest,
   * the spread as a share of the mean */
  return g_strdup_printf (_("best %s (pass %u of %u), mean %s, spread %s–%s (%s %%)"), best, row->best_pass[drive],
                          row->n_runs[drive], mean, low, high, share);
}

char *
duel_comparison_row_format_rated (const DuelComparisonRow *row,
                                  guint                    drive)
{
  g_return_val_if_fail (row != NULL, NULL);
  g_return_val_if_fail (drive < DUEL_COMPARISON_MAX_DRIVES, NULL);

  if (!row->has_rated[drive])
    return g_strdup ("");
  if (duel_figure_lookup (row->key) != NULL)
    return duel_figure_format (row->key, row->rated[drive]);
  if (g_strcmp0 (row->unit, "MB/s") == 0)
    return duel_rate_format_rounded (row->rated[drive]);
  if (row->unit != NULL && *row->unit != '\0')
    {
      g_autofree char *number = duel_number_format (row->rated[drive], 0);

      return g_strconcat (number, " ", row->unit, NULL);
    }
  return g_strdup_printf ("%g", row->rated[drive]);
}

char *
duel_comparison_row_format_difference (const DuelComparisonRow *row)
{
  g_autofree char *number = NULL;

  g_return_val_if_fail (row != NULL, NULL);

  if (row->kind != DUEL_COMPARISON_ROW_FIGURE || !isfinite (row->difference_pct))
    return g_strdup ("");
  number = duel_number_format (row->difference_pct, 1);
  /* The sign always shows: which way B differs is the point. */
  return g_strdup_printf ("%s%s %%", number[0] != '-' ? "+" : "", number);
}
