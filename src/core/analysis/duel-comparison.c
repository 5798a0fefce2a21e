/* duel-comparison.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "duel-comparison-private.h"
#include "duel-passes.h"
#include "review/duel-review-test.h"
#include "duel-device-identity-text.h"
#include "duel-json.h"
#include "duel-number.h"
#include "duel-error.h"

/* Values this close count as a tie: figures come from histograms and
 * interval counters, whose precision is far coarser. */
#define TIE_EPSILON 1e-9

G_DEFINE_FINAL_TYPE (DuelComparison, duel_comparison, G_TYPE_OBJECT)

static void
row_clear (gpointer data)
{
  DuelComparisonRow *row = data;

  g_free (row->test);
  g_free (row->key);
  g_free (row->label);
  g_free (row->unit);
  for (guint i = 0; i < DUEL_COMPARISON_MAX_DRIVES; i++)
    g_free (row->text[i]);
}

/* No relative difference for counts (rounds, intervals, I/Os) and yes/no
 * figures, which say how a test went, not how fast; nor for figures that
 * are themselves percentages (the cliff at 18 % against 104 % is not
 * "+461 %"): the two values side by side say it. */
static gboolean
unit_has_no_difference (const char *unit)
{
  return unit == NULL || *unit == '\0' || g_strcmp0 (unit, "rounds") == 0 ||
         g_strcmp0 (unit, "intervals") == 0 || g_strcmp0 (unit, "I/Os") == 0 || g_strcmp0 (unit, "%") == 0;
}

static void
duel_comparison_finalize (GObject *object)
{
  DuelComparison *self = (DuelComparison *) object;

  for (guint i = 0; i < DUEL_COMPARISON_MAX_DRIVES; i++)
    {
      g_clear_object (&self->results[i]);
      g_clear_pointer (&self->names[i], g_free);
      g_clear_pointer (&self->missing_causes[i], g_free);
    }
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->tests, g_ptr_array_unref);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_clear_pointer (&self->origins, g_array_unref);
  g_clear_pointer (&self->notes, g_hash_table_unref);
  g_clear_pointer (&self->section_titles, g_hash_table_unref);
  g_clear_pointer (&self->headline, g_array_unref);

  G_OBJECT_CLASS (duel_comparison_parent_class)->finalize (object);
}

static void
duel_comparison_class_init (DuelComparisonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = duel_comparison_finalize;
}

static void
duel_comparison_init (DuelComparison *self)
{
  self->rows = g_array_new (FALSE, TRUE, sizeof (DuelComparisonRow));
  g_array_set_clear_func (self->rows, row_clear);
  self->n_rated_drives = -1;
  self->tests = g_ptr_array_new_with_free_func (g_free);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->origins = g_array_new (FALSE, FALSE, sizeof (DuelWarningOrigin));
  self->notes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  self->section_titles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

DuelWinner
duel_comparison_decide (double     a,
                        double     b,
                        DuelBetter better)
{
  double scale;

  if (better == DUEL_BETTER_NONE || !isfinite (a) || !isfinite (b))
    return DUEL_WINNER_NONE;
  scale = MAX (fabs (a), fabs (b));
  if (fabs (a - b) <= TIE_EPSILON * MAX (scale, 1e-300))
    return DUEL_WINNER_TIE;
  if (better == DUEL_BETTER_HIGHER)
    return a > b ? DUEL_WINNER_A : DUEL_WINNER_B;
  return a < b ? DUEL_WINNER_A : DUEL_WINNER_B;
}

/* Which drives hold @row's best value: a bit each; none when fewer than two
 * values are there, the row has no better direction, or all are equal. */
static guint
decide_winners (const DuelComparisonRow *row,
                guint                    n_drives)
{
  double best = NAN;
  guint n_values = 0, mask = 0, n_best = 0;

  if (row->better == DUEL_BETTER_NONE)
    return 0;
  for (guint d = 0; d < n_drives; d++)
    {
      if (!row->has_value[d] || !isfinite (row->value[d]))
        continue;
      n_values++;
      if (!isfinite (best) || (row->better == DUEL_BETTER_HIGHER ? row->value[d] > best : row->value[d] < best))
        best = row->value[d];
    }
  if (n_values < 2)
    return 0;
  for (guint d = 0; d < n_drives; d++)
    if (row->has_value[d] && isfinite (row->value[d]) &&
        duel_comparison_decide (row->value[d], best, row->better) == DUEL_WINNER_TIE)
      {
        mask |= 1u << d;
        n_best++;
      }
  return n_best == n_values ? 0 : mask;
}

/* The winner columns of a row from its values: the mask for any number of
 * drives, the A/B verdict and the difference for two. */
static void
settle_row (DuelComparisonRow *row,
            guint              n_drives)
{
  row->winners = decide_winners (row, n_drives);
  row->winner = n_drives == 2 ? duel_comparison_decide (row->value[0], row->value[1], row->better)
                              : DUEL_WINNER_NONE;
  row->difference_pct = NAN;
  if (n_drives == 2 && row->kind == DUEL_COMPARISON_ROW_FIGURE && row->has_value[0] && row->has_value[1] &&
      row->value[0] != 0 && !unit_has_no_difference (row->unit))
    row->difference_pct = (row->value[1] - row->value[0]) / fabs (row->value[0]) * 100.0;
}

gboolean
duel_comparison_row_is_best (const DuelComparisonRow *row,
                             guint                    drive)
{
  g_return_val_if_fail (row != NULL, FALSE);

  return drive < DUEL_COMPARISON_MAX_DRIVES && (row->winners & (1u << drive)) != 0;
}

/* ---- Identity ------------------------------------------------------------- */

static void
add_identity_rows (DuelComparison *self)
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
          row_clear (&row);
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
      settle_row (&row, self->n_drives);
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
   * fio's clat; a mix of both is a fairness warning (_duel_comparison_check_fairness()).
   * The label states the drives' workload where they all ran the same
   * (a custom 70/30 mix is not "50/50"); else the table's words. */
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

  settle_row (&row, self->n_drives);

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

static void
add_test_rows (DuelComparison *self,
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
static void
add_rated_rows (DuelComparison *self)
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
      settle_row (&row, self->n_drives);
      self->has_rated = TRUE;
      g_array_append_val (self->rows, row);
    }
}

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

const char *
duel_comparison_get_section_title (DuelComparison *self,
                                   const char     *test)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);

  char *title;

  if (test == NULL)
    return _("Drive");
  if (g_strcmp0 (test, DUEL_COMPARISON_RATED_SECTION) == 0)
    return _("Vendor ratings: rated against measured");
  title = g_hash_table_lookup (self->section_titles, test);
  if (title != NULL)
    return title;

  /* The review's names for the preset's tests, in the session's language;
   * another test (an imported fio job) keeps its own name. */
  title = duel_review_describe_record (test);
  g_hash_table_insert (self->section_titles, g_strdup (test), title);
  return title;
}

const guint *
duel_comparison_get_headline (DuelComparison *self,
                              guint          *out_n_rows)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (out_n_rows != NULL, NULL);

  if (self->headline == NULL)
    {
      const DuelReviewTest * const *tests = duel_review_tests_get_all ();

      /* Each review test's headline figures, in the review's order. */
      self->headline = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint t = 0; tests[t] != NULL; t++)
        for (guint k = 0; tests[t]->headline != NULL && tests[t]->headline[k] != NULL; k++)
          for (guint i = 0; i < self->rows->len; i++)
            {
              const DuelComparisonRow *row = &g_array_index (self->rows, DuelComparisonRow, i);

              /* A measured figure of some drive; the first test that has it. */
              if (row->kind == DUEL_COMPARISON_ROW_FIGURE && g_strcmp0 (row->key, tests[t]->headline[k]) == 0 &&
                  g_strcmp0 (row->test, DUEL_COMPARISON_RATED_SECTION) != 0)
                {
                  g_array_append_val (self->headline, i);
                  break;
                }
            }
    }
  *out_n_rows = self->headline->len;
  return (const guint *) (gconstpointer) self->headline->data;
}

char *
duel_comparison_dup_title (DuelComparison *self)
{
  GString *title;

  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);

  title = g_string_new (self->names[0]);
  for (guint d = 1; d < self->n_drives; d++)
    {
      /* TRANSLATORS: between the drives' names in a title ("A vs B vs C") */
      g_string_append (title, _(" vs "));
      g_string_append (title, self->names[d]);
    }
  return g_string_free (title, FALSE);
}

char *
duel_comparison_dup_difference_heading (DuelComparison *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);

  if (self->n_drives != 2)
    return g_strdup ("");
  /* TRANSLATORS: the difference column's heading: the second drive's name,
   * the first's ("Drive B vs Drive A") */
  return g_strdup_printf (_("%s vs %s"), self->names[1], self->names[0]);
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

/* ---- Construction -------------------------------------------------------------- */

static void
build (DuelComparison *self)
{
  GPtrArray *only[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };   /* borrowed titles */

  for (guint d = 0; d < self->n_drives; d++)
    {
      GPtrArray *tests = duel_result_get_tests (self->results[d]);

      only[d] = g_ptr_array_new ();
      for (guint i = 0; i < tests->len; i++)
        duel_passes_ensure_summary (g_ptr_array_index (tests, i));
    }

  add_identity_rows (self);

  /* The first drive's tests in its order, then those of the others it did
   * not run. A test is compared when two drives or more ran it (a report
   * on one drive: all of them); one drive alone is left out, said once. */
  for (guint d = 0; d < self->n_drives; d++)
    {
      GPtrArray *tests = duel_result_get_tests (self->results[d]);

      for (guint i = 0; i < tests->len; i++)
        {
          DuelTestRecord *record = g_ptr_array_index (tests, i);
          guint holders = 0, first = d;

          /* A name twice in one file: the first counts, as in duel_result_find_test(). */
          if (duel_result_find_test (self->results[d], record->name) != record)
            continue;
          if (g_ptr_array_find_with_equal_func (self->tests, record->name, g_str_equal, NULL))
            continue;
          for (guint e = 0; e < self->n_drives; e++)
            if (duel_result_find_test (self->results[e], record->name) != NULL)
              {
                if (holders++ == 0)
                  first = e;
              }
          if (first < d)
            continue;   /* an earlier drive ran it, and it was left out there */
          if (self->n_drives > 1 && holders < 2)
            {
              g_ptr_array_add (only[d], (gpointer) duel_comparison_get_section_title (self, record->name));
              continue;
            }
          g_ptr_array_add (self->tests, g_strdup (record->name));
          add_test_rows (self, record->name);
          _duel_comparison_add_notes (self, record->name);
          for (guint e = d + 1; e < self->n_drives; e++)
            {
              if (duel_result_find_test (self->results[e], record->name) != NULL)
                _duel_comparison_check_fairness (self, record->name, d, e);
              else
                _duel_comparison_warn_missing (self, record->name, e);
            }
          for (guint e = 0; e < d; e++)
            _duel_comparison_warn_missing (self, record->name, e);
        }
    }

  _duel_comparison_warn_left_out (self, only);
  for (guint d = 0; d < self->n_drives; d++)
    g_ptr_array_unref (only[d]);

  add_rated_rows (self);
  _duel_comparison_check_honesty (self);
  _duel_comparison_check_target_kinds (self);

  g_ptr_array_add (self->tests, NULL);
  g_ptr_array_add (self->warnings, NULL);
}

DuelComparison *
duel_comparison_new_for_results (DuelResult * const *results,
                                 guint               n_results,
                                 GError            **error)
{
  g_autoptr(DuelComparison) self = NULL;
  static const char * const default_names[DUEL_COMPARISON_MAX_DRIVES] = {
    N_("Drive A"), N_("Drive B"), N_("Drive C"), N_("Drive D"),
  };
  const char *base[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };   /* the names before "(2)" */

  g_return_val_if_fail (results != NULL, NULL);
  g_return_val_if_fail (n_results >= 1 && n_results <= DUEL_COMPARISON_MAX_DRIVES, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (DUEL_TYPE_COMPARISON, NULL);
  self->n_drives = n_results;
  for (guint d = 0; d < n_results; d++)
    {
      g_return_val_if_fail (DUEL_IS_RESULT (results[d]), NULL);
      self->results[d] = g_object_ref (results[d]);
    }

  for (guint d = 0; d < self->n_drives; d++)
    {
      const char *name = duel_result_get_name (self->results[d]);
      guint same = 0;

      if (name == NULL || *name == '\0')
        name = _(default_names[d]);
      base[d] = name;
      if (duel_result_get_tests (self->results[d])->len == 0)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                       _("%s: the result holds no test, so there is nothing to compare."), name);
          return NULL;
        }
      /* Two drives of one name: "Name", "Name (2)". */
      for (guint e = 0; e < d; e++)
        same += g_strcmp0 (base[e], name) == 0;
      self->names[d] = same > 0 ? g_strdup_printf ("%s (%u)", name, same + 1) : g_strdup (name);
    }

  build (self);
  return g_steal_pointer (&self);
}

DuelComparison *
duel_comparison_new (DuelResult  *a,
                     DuelResult  *b,
                     GError     **error)
{
  DuelResult *results[] = { a, b };

  g_return_val_if_fail (DUEL_IS_RESULT (a), NULL);
  g_return_val_if_fail (b == NULL || DUEL_IS_RESULT (b), NULL);

  return duel_comparison_new_for_results (results, b != NULL ? 2 : 1, error);
}

DuelComparison *
duel_comparison_new_for_paths (const char  *path_a,
                               const char  *path_b,
                               GError     **error)
{
  const char *paths[] = { path_a, path_b };

  g_return_val_if_fail (path_a != NULL, NULL);

  return duel_comparison_new_for_pathv (paths, path_b != NULL ? 2 : 1, error);
}

DuelComparison *
duel_comparison_new_for_pathv (const char * const *paths,
                               guint               n_paths,
                               GError            **error)
{
  DuelResult *results[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };
  g_autoptr(GError) local_error = NULL;
  DuelComparison *comparison = NULL;

  g_return_val_if_fail (paths != NULL, NULL);
  g_return_val_if_fail (n_paths >= 1 && n_paths <= DUEL_COMPARISON_MAX_DRIVES, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (guint d = 0; d < n_paths; d++)
    {
      results[d] = duel_result_load (paths[d], error);
      if (results[d] == NULL)
        goto out;
    }

  comparison = duel_comparison_new_for_results (results, n_paths, &local_error);
  if (comparison == NULL)
    {
      /* Name the file rather than the drive. */
      const char *path = paths[0];
      g_autofree char *display = NULL;

      for (guint d = 0; d < n_paths; d++)
        if (duel_result_get_tests (results[d])->len == 0)
          {
            path = paths[d];
            break;
          }
      display = g_filename_display_name (path);
      g_set_error (error, local_error->domain, local_error->code,
                   _("%s: the result holds no test, so there is nothing to compare."), display);
    }

out:
  for (guint d = 0; d < n_paths; d++)
    g_clear_object (&results[d]);
  return comparison;
}

guint
duel_comparison_get_n_drives (DuelComparison *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), 0);
  return self->n_drives;
}

DuelResult *
duel_comparison_get_result (DuelComparison *self,
                            guint           drive)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (drive < self->n_drives, NULL);
  return self->results[drive];
}

const char *
duel_comparison_get_drive_name (DuelComparison *self,
                                guint           drive)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (drive < self->n_drives, NULL);
  return self->names[drive];
}

gboolean
duel_comparison_is_published (DuelComparison *self,
                              guint           drive)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), FALSE);
  g_return_val_if_fail (drive < self->n_drives, FALSE);
  return duel_result_is_published (self->results[drive]);
}

guint
duel_comparison_get_n_rows (DuelComparison *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), 0);
  return self->rows->len;
}

const DuelComparisonRow *
duel_comparison_get_row (DuelComparison *self,
                         guint           index)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (index < self->rows->len, NULL);
  return &g_array_index (self->rows, DuelComparisonRow, index);
}

const char * const *
duel_comparison_get_tests (DuelComparison *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  return (const char * const *) self->tests->pdata;
}

gboolean
duel_comparison_has_rated (DuelComparison *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), FALSE);
  return self->has_rated;
}

guint
duel_comparison_get_rated_drives (DuelComparison *self,
                                  guint           out_drives[DUEL_COMPARISON_MAX_DRIVES])
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), 0);

  /* Asked for every row of every table: the rows are walked once. */
  if (self->n_rated_drives < 0)
    {
      self->n_rated_drives = 0;
      for (guint d = 0; self->has_rated && d < self->n_drives; d++)
        {
          gboolean rated = FALSE;

          for (guint r = 0; r < duel_comparison_get_n_rows (self) && !rated; r++)
            rated = duel_comparison_get_row (self, r)->has_rated[d];
          if (rated)
            self->rated_drives[self->n_rated_drives++] = d;
        }
    }
  memcpy (out_drives, self->rated_drives, self->n_rated_drives * sizeof (guint));
  return (guint) self->n_rated_drives;
}

const char * const *
duel_comparison_get_warnings (DuelComparison *self)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  return (const char * const *) self->warnings->pdata;
}

const char * const *
duel_comparison_get_notes (DuelComparison *self,
                           const char     *test)
{
  static const char * const none[] = { NULL };
  GPtrArray *notes;

  g_return_val_if_fail (DUEL_IS_COMPARISON (self), none);

  notes = test != NULL ? g_hash_table_lookup (self->notes, test) : NULL;
  return notes != NULL ? (const char * const *) notes->pdata : none;
}

/* ---- Finding the test a chart needs ---------------------------------------- */

static DuelAnalysisKind
summary_kind (const DuelTestRecord *record)
{
  JsonObject *details = duel_json_get_object (record->summary, "details");
  const char *text = duel_json_get_string (details, "analysis");
  DuelAnalysisKind kind;

  if (text != NULL && duel_analysis_kind_from_string (text, &kind))
    return kind;
  return DUEL_ANALYSIS_NONE;
}

GPtrArray *
duel_comparison_find_tests (DuelComparison   *self,
                            guint             drive,
                            DuelAnalysisKind  kind)
{
  GPtrArray *found = g_ptr_array_new ();
  GPtrArray *tests;

  g_return_val_if_fail (DUEL_IS_COMPARISON (self), found);
  g_return_val_if_fail (drive < self->n_drives, found);

  tests = duel_result_get_tests (self->results[drive]);
  /* Three tiers, the first that finds something wins: a preset's test name,
   * the analysis a summary names, and (for tests no preset named, such as
   * imported fio jobs) a workload that fits. */
  for (guint tier = 0; tier < 3 && found->len == 0; tier++)
    {
      for (guint i = 0; i < tests->len; i++)
        {
          DuelTestRecord *record = g_ptr_array_index (tests, i);
          DuelAnalysisKind named = duel_analysis_kind_for_test_name (record->name);
          gboolean match;

          if (tier == 0)
            match = named == kind;
          else if (tier == 1)
            match = named == DUEL_ANALYSIS_NONE && summary_kind (record) == kind;
          else
            match = named == DUEL_ANALYSIS_NONE && duel_analysis_fits (record, kind);
          if (match)
            g_ptr_array_add (found, record);
        }
    }
  return found;
}

DuelTestRecord *
duel_comparison_find_test (DuelComparison   *self,
                           guint             drive,
                           DuelAnalysisKind  kind)
{
  g_autoptr(GPtrArray) found = NULL;

  g_return_val_if_fail (DUEL_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (drive < self->n_drives, NULL);

  found = duel_comparison_find_tests (self, drive, kind);
  return found->len > 0 ? g_ptr_array_index (found, 0) : NULL;
}
