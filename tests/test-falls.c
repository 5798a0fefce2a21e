/* test-falls.c — the falls rule on fill curves it was not tuned on
 *
 * fill-shapes.c makes thousands of fill curves from fixed seeds: steps,
 * ramps, rounded falls, one to three of them, rises before falls, slow
 * declines before a late knee (the SSD 750), straight declines, exponential
 * decays, dips and bursts, jitter, stalls, GC scatter, a few dozen to a
 * million rows. Each comes with what it was made of. The analysis must find
 * every fall built in, within 3 points of capacity written or the
 * resolution it states, invent none, and give the plateau within 5 %.
 * Straight declines and decays that lose a third or more are reported as
 * declines. The seeds are fixed: the same curves, and the same verdict, on
 * every run.
 *
 * Two families aim at what live runs showed: shape_generate_live() puts a
 * busy host's noise (single slow rows, short stalls, writes counted a row
 * late, a slow row a few rows before each fall) on 100 ms rows of 0.1–6 %
 * of capacity, and every knee must lie within the resolution it states;
 * shape_generate_band() makes stationary bands of two levels in blocks of
 * up to 5 points (5–95 % fast), after a fall into them, before a fall
 * below them or throughout, on fine and on 100 ms rows: no fall inside a
 * band, and the fall into one within 3 points.
 *
 * DUEL_FALLS_SHAPES=N runs N curves per family instead (a campaign, not the
 * gate); DUEL_FALLS_SEED=S runs one curve and prints it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "duel-analysis.h"
#include "fill-shapes.h"

#define KNEE_TOLERANCE_PCT 3.0
#define PLATEAU_TOLERANCE  0.05

typedef enum
{
  GENERATE_SHAPES,          /* shape_generate() */
  GENERATE_LIVE,            /* shape_generate_live(): host noise on 100 ms rows */
  GENERATE_BAND,            /* shape_generate_band() */
} Generator;

typedef struct
{
  const char *name;
  guint64     first_seed;
  guint       count;
  gboolean    coarse;
  guint       min_rows;
  guint       max_rows;
  Generator   generator;
  /* Every knee within the resolution it states, not only within 3
   * points: live rows, where the rows place the knee. */
  gboolean    within_resolution;
} Family;

/* 2 000 curves of 1 000 to 100 000 rows, 200 on coarse rows, 20 of up
 * to a million; 300 with the host's noise on 100 ms rows, and 300 bands
 * of two levels in blocks (on fine rows and on 100 ms rows). */
static const Family families[] = {
  { "fine",        1,       2000, FALSE, 1000,   100000,  GENERATE_SHAPES, FALSE },
  { "coarse",      100001,  200,  TRUE,  0,      0,       GENERATE_SHAPES, FALSE },
  { "million",     200001,  20,   FALSE, 500000, 1000000, GENERATE_SHAPES, FALSE },
  { "live",        300001,  300,  TRUE,  0,      0,       GENERATE_LIVE,   TRUE },
  { "band",        400001,  200,  FALSE, 0,      0,       GENERATE_BAND,   FALSE },
  { "band-coarse", 500001,  100,  TRUE,  0,      0,       GENERATE_BAND,   FALSE },
};

typedef struct
{
  guint curves, true_falls, found, missed, unseen, invented, plateau_off;
  guint declines_due, declines_found;
  guint within, outside;    /* knees found within their stated resolution, and not */
  GArray *resolutions;      /* double: the resolution stated beside each knee found */
  GArray *errors;           /* double: how far each knee found is from the one built in */
  double worst_knee_error, worst_plateau_error;
  guint64 worst_knee_seed, worst_plateau_seed;
  guint per_kind[SHAPE_N_KINDS], failed_kind[SHAPE_N_KINDS];
} Tally;

static DuelSeries *
generate (const Family *family,
          guint64       seed,
          ShapeTruth   *truth)
{
  switch (family->generator)
    {
    case GENERATE_LIVE:
      return shape_generate_live (seed, truth);
    case GENERATE_BAND:
      return shape_generate_band (seed, family->coarse, truth);
    case GENERATE_SHAPES:
    default:
      return shape_generate (seed, family->coarse, family->min_rows, family->max_rows, truth);
    }
}

static guint
env_uint (const char *name,
          guint       fallback)
{
  const char *value = g_getenv (name);

  return value != NULL ? (guint) g_ascii_strtoull (value, NULL, 10) : fallback;
}

static void
print_curve (const DuelSeries *series,
             guint64           span)
{
  guint64 cum = 0, prev = 0;

  for (guint i = 0; i < duel_series_get_length (series); i++)
    {
      const DuelSeriesRow *row = duel_series_get_row (series, i);

      cum += row->bytes[DUEL_DIRECTION_WRITE];
      g_printerr ("%.3f %.1f\n", 100.0 * cum / span,
                  row->ops[DUEL_DIRECTION_WRITE] / ((row->t_ms - prev) / 1e3));
      prev = row->t_ms;
    }
}

/* Whether the data show fall @k at all: three whole rows on its level
 * before (since the fall before it ended) and three on its level after
 * (until the next begins), as the definition asks of a level. A fall inside
 * the first rows of a run is in no data; two falls in three rows are one. */
static gboolean
fall_visible (const DuelSeries *series,
              const ShapeTruth *truth,
              guint             k)
{
  const ShapeFall *fall = &truth->falls[k];
  double from = k > 0 ? truth->falls[k - 1].knee_pct + truth->falls[k - 1].width_pct : 0;
  double to = k + 1 < truth->n_falls ? truth->falls[k + 1].knee_pct : G_MAXDOUBLE;
  double foot = fall->knee_pct + fall->width_pct, cum = 0;
  guint n = duel_series_get_length (series), before = 0, after = 0;

  for (guint i = 0; i < n; i++)
    {
      double start = cum;

      cum += 100.0 * duel_series_get_row (series, i)->bytes[DUEL_DIRECTION_WRITE] / truth->span_bytes;
      if (start >= from && cum <= fall->knee_pct)
        before++;
      if (start >= foot && cum <= to)
        after++;
    }
  /* And a level before of two points at least: the rule reads the
   * throughput over a point of capacity, so a level shorter than that at
   * the start of the fill is below what it can see. */
  return before >= 3 && after >= 3 && fall->knee_pct - from >= 2;
}

/* One curve: returns FALSE (and says why) when the rule got it wrong. */
static gboolean
check_curve (guint64          seed,
             const Family    *family,
             Tally           *tally,
             gboolean         verbose)
{
  ShapeTruth truth;
  g_autoptr(DuelSeries) series = generate (family, seed, &truth);
  DuelAnalysisParams params;
  DuelSaturation sat;
  gboolean ok = TRUE, matched[SHAPE_MAX_FALLS] = { FALSE };
  GArray *falls;
  double plateau_error;

  duel_analysis_params_init (&params);
  duel_analysis_saturation (series, truth.span_bytes, &params, &sat);
  falls = sat.falls.falls;
  tally->curves++;
  tally->per_kind[truth.kind]++;
  tally->true_falls += truth.n_falls;

  /* Every fall reported is one that was built in, near its knee. */
  for (guint i = 0; i < falls->len; i++)
    {
      const DuelFall *f = &g_array_index (falls, DuelFall, i);
      /* The fall into a band within 3 points, whatever the band after it. */
      double tolerance = truth.kind == SHAPE_KIND_BAND_AFTER ? KNEE_TOLERANCE_PCT : MAX (KNEE_TOLERANCE_PCT, f->resolution_pct);
      gboolean real = FALSE;

      for (guint k = 0; k < truth.n_falls; k++)
        {
          double error = fabs (f->knee_pct - truth.falls[k].knee_pct);

          if (!matched[k] && error <= tolerance)
            {
              matched[k] = real = TRUE;
              tally->found++;
              if (tally->resolutions != NULL)
                {
                  g_array_append_val (tally->resolutions, f->resolution_pct);
                  g_array_append_val (tally->errors, error);
                }
              if (error <= f->resolution_pct)
                tally->within++;
              else
                {
                  tally->outside++;
                  if (family->within_resolution)
                    {
                      ok = FALSE;
                      g_test_message ("seed %" G_GUINT64_FORMAT " (%s): the fall at %.2f %% placed at %.2f ± %.2f %%",
                                      seed, truth.description, truth.falls[k].knee_pct, f->knee_pct, f->resolution_pct);
                    }
                }
              if (error > tally->worst_knee_error)
                {
                  tally->worst_knee_error = error;
                  tally->worst_knee_seed = seed;
                }
              break;
            }
        }
      if (!real)
        {
          tally->invented++;
          ok = FALSE;
          g_test_message ("seed %" G_GUINT64_FORMAT " (%s): a fall at %.2f %% (%.0f → %.0f IOPS) that is not there",
                          seed, truth.description, f->knee_pct, f->level_before_iops, f->level_after_iops);
        }
    }
  for (guint k = 0; k < truth.n_falls; k++)
    {
      if (!matched[k] && !fall_visible (series, &truth, k))
        {
          tally->unseen++;
          g_test_message ("seed %" G_GUINT64_FORMAT " (%s): the fall at %.2f %% lies within the first two rows "
                          "or the last two: no rows show its level before or after", seed, truth.description,
                          truth.falls[k].knee_pct);
        }
      else if (!matched[k])
        {
          tally->missed++;
          ok = FALSE;
          g_test_message ("seed %" G_GUINT64_FORMAT " (%s): the fall at %.2f %% (%.2f points, to %.2f of the level) was not found",
                          seed, truth.description, truth.falls[k].knee_pct, truth.falls[k].width_pct,
                          truth.falls[k].ratio);
        }
    }

  /* The cliff is the last fall. */
  if (ok && truth.n_falls > 0 && matched[truth.n_falls - 1])
    g_assert_cmpfloat (fabs (sat.cliff_pct - truth.falls[truth.n_falls - 1].knee_pct), <=,
                       MAX (KNEE_TOLERANCE_PCT, sat.cliff_resolution_pct));
  if (falls->len == 0)
    g_assert_true (isnan (sat.cliff_pct));

  /* The plateau (where the truth has it). */
  plateau_error = isnan (truth.plateau_iops) ? 0 : fabs (sat.plateau.iops / truth.plateau_iops - 1);
  if (plateau_error > tally->worst_plateau_error)
    {
      tally->worst_plateau_error = plateau_error;
      tally->worst_plateau_seed = seed;
    }
  if (plateau_error > PLATEAU_TOLERANCE)
    {
      tally->plateau_off++;
      ok = FALSE;
      g_test_message ("seed %" G_GUINT64_FORMAT " (%s): plateau %.0f IOPS, built in %.0f (%+.1f %%)",
                      seed, truth.description, sat.plateau.iops, truth.plateau_iops,
                      100 * (sat.plateau.iops / truth.plateau_iops - 1));
    }

  /* A knee-less curve that loses a third or more is a decline. */
  if (truth.n_falls == 0 && truth.decline_ratio <= 2.0 / 3)
    {
      tally->declines_due++;
      if (sat.falls.declines->len > 0)
        tally->declines_found++;
      else
        {
          ok = FALSE;
          g_test_message ("seed %" G_GUINT64_FORMAT " (%s): a decline to %.2f of the start, not reported",
                          seed, truth.description, truth.decline_ratio);
        }
    }

  if (!ok)
    tally->failed_kind[truth.kind]++;
  if (verbose)
    {
      g_printerr ("# %s: %u falls built in\n", truth.description, truth.n_falls);
      for (guint k = 0; k < truth.n_falls; k++)
        g_printerr ("#  built: %.2f %%, %.2f points, ratio %.2f\n", truth.falls[k].knee_pct,
                    truth.falls[k].width_pct, truth.falls[k].ratio);
      for (guint i = 0; i < falls->len; i++)
        {
          const DuelFall *f = &g_array_index (falls, DuelFall, i);

          g_printerr ("#  found: %.2f–%.2f %% (± %.2f), %.0f → %.0f\n", f->knee_pct, f->foot_pct,
                      f->resolution_pct, f->level_before_iops, f->level_after_iops);
        }
      for (guint i = 0; i < sat.falls.declines->len; i++)
        {
          const DuelDecline *d = &g_array_index (sat.falls.declines, DuelDecline, i);

          g_printerr ("#  decline: %.0f → %.0f, %.2f–%.2f %%\n", d->from_iops, d->to_iops, d->from_pct, d->to_pct);
        }
      g_printerr ("#  plateau %.0f, built in %.0f\n", sat.plateau.iops, truth.plateau_iops);
      if (g_getenv ("DUEL_FALLS_PRINT") != NULL)
        print_curve (series, truth.span_bytes);
    }
  duel_saturation_clear (&sat);
  return ok;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The @q quantile of @values (sorted here). */
static double
quantile (GArray *values,
          double  q)
{
  if (values->len == 0)
    return NAN;
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, MIN ((guint) (q * values->len), values->len - 1));
}

static void
test_family (gconstpointer data)
{
  const Family *family = data;
  guint count = env_uint ("DUEL_FALLS_SHAPES", family->count);
  Tally tally = { 0 };
  g_autoptr(GArray) resolutions = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) errors = g_array_new (FALSE, FALSE, sizeof (double));

  tally.resolutions = resolutions;
  tally.errors = errors;
  for (guint64 seed = family->first_seed; seed < family->first_seed + count; seed++)
    check_curve (seed, family, &tally, FALSE);
  g_test_message ("%s: knees found: error median %.2f, 90 %% %.2f, worst %.2f points; resolution stated: median %.2f, "
                  "90 %% %.2f points", family->name, quantile (errors, 0.5), quantile (errors, 0.9),
                  quantile (errors, 1), quantile (resolutions, 0.5), quantile (resolutions, 0.9));

  g_test_message ("%s: %u curves, %u falls built in: %u found (worst knee %.2f points, seed %" G_GUINT64_FORMAT
                  "; %u within the resolution stated, %u not), %u missed, %u in no rows, %u invented; plateau worst %.2f %% "
                  "(seed %" G_GUINT64_FORMAT "), %u off; declines %u of %u",
                  family->name, tally.curves, tally.true_falls, tally.found, tally.worst_knee_error,
                  tally.worst_knee_seed, tally.within, tally.outside, tally.missed, tally.unseen, tally.invented,
                  100 * tally.worst_plateau_error, tally.worst_plateau_seed, tally.plateau_off, tally.declines_found,
                  tally.declines_due);
  for (guint k = 0; k < SHAPE_N_KINDS; k++)
    if (tally.per_kind[k] > 0)
      g_test_message ("  %s: %u curves, %u wrong", shape_kind_name (k), tally.per_kind[k], tally.failed_kind[k]);

  /* Every family runs to its end, so the messages count every miss. */
  if (tally.missed > 0 || tally.invented > 0 || tally.plateau_off > 0 || tally.declines_found != tally.declines_due ||
      (family->within_resolution && tally.outside > 0))
    g_test_fail ();
}

int
main (int    argc,
      char **argv)
{
  const char *one = g_getenv ("DUEL_FALLS_SEED");

  g_test_init (&argc, &argv, NULL);
  if (one != NULL)
    {
      Tally tally = { 0 };
      guint64 seed = g_ascii_strtoull (one, NULL, 10);
      const Family *family = &families[0];

      /* The family whose seeds hold it. */
      for (guint i = 0; i < G_N_ELEMENTS (families); i++)
        if (seed >= families[i].first_seed)
          family = &families[i];

      return check_curve (seed, family, &tally, TRUE) ? 0 : 1;
    }
  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    {
      g_autofree char *path = g_strdup_printf ("/falls/shapes/%s", families[i].name);

      g_test_add_data_func (path, &families[i], test_family);
    }
  return g_test_run ();
}
