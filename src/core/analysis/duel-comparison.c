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
#include "duel-json.h"
#include "duel-error.h"

/* Values this close count as a tie: figures come from histograms and
 * interval counters, whose precision is far coarser. */
#define TIE_EPSILON 1e-9

G_DEFINE_FINAL_TYPE (DuelComparison, duel_comparison, G_TYPE_OBJECT)

void
_duel_comparison_row_clear (gpointer data)
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
  g_array_set_clear_func (self->rows, _duel_comparison_row_clear);
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
void
_duel_comparison_settle_row (DuelComparisonRow *row,
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

  _duel_comparison_add_identity_rows (self);

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
          _duel_comparison_add_test_rows (self, record->name);
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

  _duel_comparison_add_rated_rows (self);
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
      duel_analysis_update_result (results[d]);
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
