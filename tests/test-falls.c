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
 * below them or throughout, on fine and on 100 ms rows: no fall and no
 * recovery inside a band, and the fall into one within 3 points; and the
 * band curves of a larger campaign that an earlier rule got wrong.
 *
 * DUEL_FALLS_SHAPES=N runs N curves per family instead (a campaign, not the
 * gate); DUEL_FALLS_SEED=S runs one curve and prints it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/duel-analysis.h"
#include "duel-number.h"
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
  /* These seeds (0-terminated) in place of first_seed … + count. */
  const guint64 *seeds;
} Family;

/* Band curves of the 1000-curve campaign (seeds 400001–401000) that the
 * band rule before returns_to_high() got wrong, and this one gets right: a
 * run of a band's slow blocks before the fall below it, a fast block at
 * its start or end, a decline read across a drifting mix. */
static const guint64 band_campaign_seeds[] = {
  400229, 400291, 400316, 400358, 400415, 400445, 400533, 400561, 400567, 400597, 400859, 0
};

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
  { "band-campaign", 0,     0,    FALSE, 0,      0,       GENERATE_BAND,   FALSE, band_campaign_seeds },
};

typedef struct
{
  guint curves, true_falls, found, missed, unseen, invented, plateau_off;
  guint declines_due, declines_found;
  guint within, outside;    /* knees found within their stated resolution, and not */
  guint sentences, untrue;  /* sentences checked against the curve, and found untrue */
  guint translated;         /* curves whose zh_TW sentences were compared */
  guint stored, stored_wrong; /* falls, recoveries and declines whose stored figures were checked, and wrong */
  guint recoveries_due, recoveries_found; /* fall-recover curves, and those whose recovery was reported */
  guint recoveries_in_band; /* recoveries reported inside a stationary band (a run of its faster blocks) */
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

/* ---- Every sentence true ------------------------------------------------ */

/* The curve as the test reads it, from the rows alone: the throughput over
 * a point of capacity around each quarter point (the ops over the time
 * while the writes were within it, a row that straddles a bound counted in
 * proportion to its bytes inside, as duel_analysis_window_mean() reads any
 * window), all from one pass over the rows. */
typedef struct
{
  double *point;            /* IOPS around j / 4 % */
  guint   n;
  double  plateau;          /* over the last 10 % written */
} Curve;

static void
curve_init (Curve            *c,
            const DuelSeries *series,
            guint64           span)
{
  const DuelSeriesRow *rows = duel_series_get_rows (series);
  guint n_rows = duel_series_get_length (series), n_marks, m = 0;
  double written, cum = 0, ops = 0, seconds = 0, step = span / 400.0;
  guint64 prev_t = 0;
  g_autofree double *ops_at = NULL;
  g_autofree double *seconds_at = NULL;
  DuelWindowMean w;
  DuelSeriesRow total;

  duel_series_sum (series, &total);
  written = (double) total.bytes[DUEL_DIRECTION_WRITE];
  c->n = (guint) floor (100.0 * written / span * 4) + 1;
  c->point = g_new (double, c->n);
  /* The ops and seconds so far at each quarter point, mark k at k / 4 %. */
  n_marks = c->n + 1;
  ops_at = g_new0 (double, n_marks);
  seconds_at = g_new0 (double, n_marks);
  for (guint i = 0; i < n_rows; i++)
    {
      double bytes = rows[i].bytes[DUEL_DIRECTION_WRITE], row_ops = rows[i].ops[DUEL_DIRECTION_WRITE];
      double row_seconds = (rows[i].t_ms - prev_t) / 1e3;

      /* Marks the row passes (a stall passes none: its time is counted
       * with the marks after it). */
      while (bytes > 0 && m < n_marks && m * step <= cum + bytes)
        {
          double f = (m * step - cum) / bytes;

          ops_at[m] = ops + row_ops * MAX (f, 0);
          seconds_at[m] = seconds + row_seconds * MAX (f, 0);
          m++;
        }
      cum += bytes;
      ops += row_ops;
      seconds += row_seconds;
      prev_t = rows[i].t_ms;
    }
  for (; m < n_marks; m++)
    {
      ops_at[m] = ops;
      seconds_at[m] = seconds;
    }
  /* The window of a point of capacity around each quarter point, [j − 2,
   * j + 2] in marks, clipped to the fill. */
  for (guint j = 0; j < c->n; j++)
    {
      guint lo = j >= 2 ? j - 2 : 0, hi = MIN (j + 2, c->n - 1);
      double s = seconds_at[hi] - seconds_at[lo];

      c->point[j] = s > 0 ? (ops_at[hi] - ops_at[lo]) / s : NAN;
    }
  duel_analysis_window_mean (series, DUEL_DIRECTION_WRITE, span, 0.9 * 100.0 * written / span,
                             100.0 * written / span, &w);
  c->plateau = w.iops;
}

static int
compare_doubles_asc (const void *a,
                     const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The median of the points over [@from, @to] % (clipped to the curve). */
static double
curve_median (const Curve *c,
              double       from,
              double       to)
{
  gint lo = MAX ((gint) ceil (from * 4), 0), hi = MIN ((gint) floor (to * 4), (gint) c->n - 1);
  g_autofree double *v = NULL;
  guint k = 0;

  if (hi < lo)
    return NAN;
  v = g_new (double, hi - lo + 1);
  for (gint j = lo; j <= hi; j++)
    if (isfinite (c->point[j]))
      v[k++] = c->point[j];
  if (k == 0)
    return NAN;
  qsort (v, k, sizeof (double), compare_doubles_asc);
  return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

/* Whether @iops lies among the levels over @width points (5: a fall's,
 * fall_hold_pct; 10: a decline's, fall_trend_pct) starting in [@from,
 * @to] %, within @within (a ratio) of the lowest and the highest of them:
 * a level the curve was at there (in a band of two levels, a mix of
 * them). */
static gboolean
curve_has_level (const Curve *c,
                 double       from,
                 double       to,
                 double       width,
                 double       iops,
                 double       within)
{
  double lowest = INFINITY, highest = 0;

  for (double x = from; x <= to; x += 0.25)
    {
      double level = curve_median (c, x, x + width);

      if (isfinite (level))
        {
          lowest = MIN (lowest, level);
          highest = MAX (highest, level);
        }
    }
  return iops >= lowest / within && iops <= highest * within;
}

/* The highest level over @width points starting in [@from, @to] %. */
static double
curve_highest (const Curve *c,
               double       from,
               double       to,
               double       width)
{
  double highest = 0;

  for (double x = from; x <= to; x += 0.25)
    {
      double level = curve_median (c, x, x + width);

      if (isfinite (level))
        highest = MAX (highest, level);
    }
  return highest;
}

/* The lowest level over @width points starting in [@from, @to] %. */
static double
curve_lowest (const Curve *c,
              double       from,
              double       to,
              double       width)
{
  double lowest = INFINITY;

  for (double x = from; x <= to; x += 0.25)
    {
      double level = curve_median (c, x, x + width);

      if (isfinite (level))
        lowest = MIN (lowest, level);
    }
  return lowest;
}

/* The numbers in @line, in order, as the reader's locale wrote them
 * (digits grouped by commas, a point before decimals). */
static GArray *
numbers_in (const char *line)
{
  GArray *numbers = g_array_new (FALSE, FALSE, sizeof (double));

  for (const char *p = line; *p != '\0';)
    {
      if (g_ascii_isdigit (*p))
        {
          GString *digits = g_string_new (NULL);
          double value;

          while (g_ascii_isdigit (*p) || ((*p == ',' || *p == '.') && g_ascii_isdigit (p[1])))
            {
              if (*p != ',')
                g_string_append_c (digits, *p);
              p++;
            }
          value = g_ascii_strtod (digits->str, NULL);
          g_array_append_val (numbers, value);
          g_string_free (digits, TRUE);
        }
      else
        p++;
    }
  return numbers;
}

/* The largest error the rounding of a number printed with @decimals can
 * make, as a ratio of @value. */
static double
rounding (double value,
          int    decimals)
{
  return 1 + 0.5 * pow (10, -decimals) / MAX (fabs (value), 1e-9);
}

/* One sentence against the curve; FALSE (saying why) when it is not true.
 * @last_after: the level after the fall before it (a recovery climbs from
 * it); @since: where the stretch the sentence is about began. */
static gboolean
sentence_true (const char  *line,
               const Curve *c,
               double      *last_after,
               double      *since,
               GString     *why)
{
  g_autoptr(GArray) v = numbers_in (line);
  const double *x = (const double *) (gpointer) v->data;
  const double within = 1.2;   /* a level read by the test against the one the analysis read */

  if (g_str_has_prefix (line, "A fall at ") || g_str_has_prefix (line, "Write cliff at "))
    {
      gboolean resolution = strstr (line, "±") != NULL;
      double knee, r, before, after;

      if (v->len != (resolution ? 4u : 3u) + 0 && v->len != (resolution ? 2u : 1u))
        return g_string_append_printf (why, "%u numbers", v->len), FALSE;
      knee = x[0];
      r = resolution ? x[1] : 0.5;
      if (v->len <= 2)
        return TRUE;  /* a knee alone (a file from before the levels) */
      before = x[resolution ? 2 : 1];
      after = x[resolution ? 3 : 2];
      /* Deep by the definition: a quarter, as printed. */
      if (!(after <= 0.75 * before * rounding (before, 0) * rounding (after, 0)))
        return g_string_append_printf (why, "from %.0f to %.0f is not a quarter down", before, after), FALSE;
      /* The level before is the curve's before the knee, the level after
       * the curve's within fall_max_pct (20 points) after it. */
      if (!curve_has_level (c, knee - r - 7, knee + r - 5, 5, before, within))
        return g_string_append_printf (why, "no level of %.0f IOPS just before %.1f %%", before, knee), FALSE;
      if (!curve_has_level (c, knee - r, knee + r + 22, 5, after, within))
        return g_string_append_printf (why, "no level of %.0f IOPS within 20 points after %.1f %%", after, knee), FALSE;
      if (strstr (line, "into the plateau") != NULL && !(fabs (after / c->plateau - 1) <= 0.1 + 0.5 / after))
        return g_string_append_printf (why, "%.0f IOPS is not the plateau, %.0f", after, c->plateau), FALSE;
      *last_after = after;
      /* What follows is about the curve from where it is at the level
       * after (the fall's foot is not printed). */
      *since = knee;
      while (*since < knee + r + 22 && !(curve_median (c, *since, *since + 5) <= after * within))
        *since += 0.25;
      return TRUE;
    }
  if (g_str_has_prefix (line, "The write curve recovers to "))
    {
      double to, at;

      if (v->len != 2)
        return g_string_append_printf (why, "%u numbers", v->len), FALSE;
      to = x[0];
      at = x[1];
      if (!isfinite (*last_after))
        return g_string_append (why, "a recovery with no fall before it"), FALSE;
      /* Above the level after the fall, and by a fall's depth above the
       * lowest level the curve held since the fall. */
      if (!(to > *last_after))
        return g_string_append_printf (why, "%.0f IOPS is not above the fall's %.0f", to, *last_after), FALSE;
      if (!(curve_lowest (c, *since, at - 2.5, 5) <= 0.75 * to * within))
        return g_string_append_printf (why, "%.0f IOPS is not a recovery from %.0f", to,
                                       curve_lowest (c, *since, at - 2.5, 5)), FALSE;
      if (!curve_has_level (c, at - 3, at + 1, 5, to, within))
        return g_string_append_printf (why, "no level of %.0f IOPS at %.0f %%", to, at), FALSE;
      *since = at;
      return TRUE;
    }
  if (g_str_has_prefix (line, "A decline, not a fall: "))
    {
      double from, to, lo, hi;

      if (v->len != 4)
        return g_string_append_printf (why, "%u numbers", v->len), FALSE;
      from = x[0];
      to = x[1];
      lo = x[2];
      hi = x[3];
      if (!(to <= 0.75 * from * rounding (from, 0) * rounding (to, 0)) || !(lo <= hi))
        return g_string_append_printf (why, "from %.0f to %.0f between %.0f and %.0f", from, to, lo, hi), FALSE;
      /* From its top: the curve was there before the decline's most, and
       * no higher since the stretch began. */
      if (!curve_has_level (c, *since - 2.5, lo + 2.5, 10, from, within))
        return g_string_append_printf (why, "no level of %.0f IOPS before %.0f %%", from, lo), FALSE;
      if (curve_highest (c, *since + 2.5, lo - 5, 10) > from * within)
        return g_string_append_printf (why, "the curve is higher than %.0f IOPS (%.0f) before %.0f %%", from,
                                       curve_highest (c, *since + 2.5, lo - 5, 10), lo), FALSE;
      if (!curve_has_level (c, hi - 10, hi + 10, 10, to, within))
        return g_string_append_printf (why, "no level of %.0f IOPS at %.0f %%", to, hi), FALSE;
      return TRUE;
    }
  return g_string_append (why, "a sentence of no known kind"), FALSE;
}

/* Every sentence the analysis prints for the curve, in English, checked
 * against the curve; in zh_TW, the same numbers. */
static gboolean
check_sentences (const DuelSeries         *series,
                 const ShapeTruth         *truth,
                 const DuelSaturation     *sat,
                 const DuelAnalysisParams *params,
                 Tally                    *tally)
{
  g_autoptr(JsonObject) details = json_object_new ();
  g_auto(GStrv) english = NULL;
  Curve c;
  double last_after = NAN, since = 0;
  gboolean ok = TRUE;

  json_object_set_object_member (details, "saturation", duel_saturation_to_json (sat, params));
  english = duel_saturation_dup_falls_text (details);
  curve_init (&c, series, truth->span_bytes);
  for (guint i = 0; english[i] != NULL; i++)
    {
      g_autoptr(GString) why = g_string_new (NULL);

      tally->sentences++;
      if (!sentence_true (english[i], &c, &last_after, &since, why))
        {
          tally->untrue++;
          ok = FALSE;
          g_test_message ("seed %" G_GUINT64_FORMAT " (%s): “%s” is not true: %s", truth->seed,
                          truth->description, english[i], why->str);
        }
    }
  g_free (c.point);

  /* analyze --json lists the same, in the same order: a kind for each
   * sentence, and the levels it prints. */
  {
    g_autoptr(JsonNode) node = duel_saturation_dup_events_json (details);
    JsonArray *events = json_node_get_array (node);

    g_assert_cmpuint (json_array_get_length (events), ==, g_strv_length (english));
    for (guint i = 0; english[i] != NULL; i++)
      {
        JsonObject *e = json_array_get_object_element (events, i);
        const char *kind = json_object_get_string_member (e, "kind");
        g_autofree char *before = duel_number_format (json_object_get_double_member (e, "level_before_iops"), 0);
        g_autofree char *after = duel_number_format (json_object_get_double_member (e, "level_after_iops"), 0);

        if (g_str_has_prefix (english[i], "A fall at "))
          g_assert_cmpstr (kind, ==, "fall");
        else if (g_str_has_prefix (english[i], "Write cliff at "))
          g_assert_cmpstr (kind, ==, "cliff");
        else if (g_str_has_prefix (english[i], "The write curve recovers to "))
          g_assert_cmpstr (kind, ==, "recovery");
        else
          g_assert_cmpstr (kind, ==, "decline");
        g_assert_nonnull (strstr (english[i], after));
        if (!g_str_equal (kind, "recovery"))
          g_assert_nonnull (strstr (english[i], before));
        g_assert_cmpfloat (json_object_get_double_member (e, "foot_pct"), >=,
                           json_object_get_double_member (e, "knee_pct"));
        g_assert_cmpfloat (json_object_get_double_member (e, "resolution_pct"), >, 0);
      }
  }

  /* The same sentences in Traditional Chinese carry the same numbers. */
  if (g_getenv ("DRIVEDUEL_LOCALEDIR") != NULL && english[0] != NULL)
    {
      g_auto(GStrv) chinese = NULL;

      g_setenv ("LANGUAGE", "zh_TW", TRUE);
      setlocale (LC_MESSAGES, "");
      chinese = duel_saturation_dup_falls_text (details);
      g_setenv ("LANGUAGE", "C", TRUE);
      setlocale (LC_MESSAGES, "");
      tally->translated++;
      g_assert_cmpuint (g_strv_length (chinese), ==, g_strv_length (english));
      for (guint i = 0; english[i] != NULL; i++)
        {
          g_autoptr(GArray) a = numbers_in (english[i]);
          g_autoptr(GArray) b = numbers_in (chinese[i]);

          /* Translated: the catalogue is there, the check not empty. */
          g_assert_cmpstr (english[i], !=, chinese[i]);
          if (a->len != b->len || memcmp (a->data, b->data, a->len * sizeof (double)) != 0)
            {
              ok = FALSE;
              tally->untrue++;
              g_test_message ("seed %" G_GUINT64_FORMAT ": “%s” is “%s” in zh_TW: not the same numbers",
                              truth->seed, english[i], chinese[i]);
            }
        }
    }
  return ok;
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

  /* The stored figures meet the definitions they were reported under:
   * a fall and a decline lose fall_min_drop or more, a recovery climbs
   * back by as much. */
  for (guint i = 0; i < falls->len; i++)
    {
      const DuelFall *f = &g_array_index (falls, DuelFall, i);

      tally->stored++;
      if (!(f->drop >= params.fall_min_drop && fabs (f->drop - (1 - f->level_after_iops / f->level_before_iops)) < 1e-9 &&
            f->foot_pct >= f->knee_pct))
        {
          tally->stored_wrong++;
          ok = FALSE;
          g_test_message ("seed %" G_GUINT64_FORMAT " (%s): the fall at %.2f %% stores drop %.3f (%.0f → %.0f IOPS)",
                          seed, truth.description, f->knee_pct, f->drop, f->level_before_iops, f->level_after_iops);
        }
    }
  for (guint i = 0; i < sat.falls.recoveries->len; i++)
    {
      const DuelRecovery *r = &g_array_index (sat.falls.recoveries, DuelRecovery, i);

      tally->stored++;
      if (!(r->fall < falls->len && 1 - r->from_iops / r->to_iops >= params.fall_min_drop && r->to_pct >= r->from_pct &&
            r->from_pct >= g_array_index (falls, DuelFall, r->fall).knee_pct))
        {
          tally->stored_wrong++;
          ok = FALSE;
          g_test_message ("seed %" G_GUINT64_FORMAT " (%s): a recovery from %.0f to %.0f IOPS at %.2f–%.2f %%",
                          seed, truth.description, r->from_iops, r->to_iops, r->from_pct, r->to_pct);
        }
    }
  for (guint i = 0; i < sat.falls.declines->len; i++)
    {
      const DuelDecline *d = &g_array_index (sat.falls.declines, DuelDecline, i);

      tally->stored++;
      if (!(1 - d->to_iops / d->from_iops >= params.fall_min_drop && d->top_pct <= d->from_pct &&
            d->from_pct <= d->to_pct && d->to_pct <= d->bottom_pct))
        {
          tally->stored_wrong++;
          ok = FALSE;
          g_test_message ("seed %" G_GUINT64_FORMAT " (%s): a decline from %.0f to %.0f IOPS, %.2f (%.2f–%.2f) %.2f %%",
                          seed, truth.description, d->from_iops, d->to_iops, d->top_pct, d->from_pct, d->to_pct,
                          d->bottom_pct);
        }
    }
  /* A fall that recovers says so. */
  if (truth.kind == SHAPE_KIND_FALL_RECOVER)
    {
      tally->recoveries_due++;
      if (sat.falls.recoveries->len > 0)
        tally->recoveries_found++;
      else
        {
          ok = FALSE;
          g_test_message ("seed %" G_GUINT64_FORMAT " (%s): the recovery after the fall is not reported",
                          seed, truth.description);
        }
    }

  /* The faster blocks of a band are no recovery, however long a run of
   * them: the curve does not stay up. */
  for (guint i = 0; i < sat.falls.recoveries->len; i++)
    {
      const DuelRecovery *r = &g_array_index (sat.falls.recoveries, DuelRecovery, i);

      if (truth.band_to_pct > truth.band_from_pct && r->from_pct >= truth.band_from_pct && r->from_pct <= truth.band_to_pct)
        {
          tally->recoveries_in_band++;
          ok = FALSE;
          g_test_message ("seed %" G_GUINT64_FORMAT " (%s): a recovery to %.0f IOPS at %.2f %% inside the band",
                          seed, truth.description, r->to_iops, r->to_pct);
        }
    }

  if (!check_sentences (series, &truth, &sat, &params, tally))
    ok = FALSE;
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
      for (guint i = 0; i < sat.falls.recoveries->len; i++)
        {
          const DuelRecovery *r = &g_array_index (sat.falls.recoveries, DuelRecovery, i);

          g_printerr ("#  recovery: %.0f → %.0f, %.2f–%.2f %%\n", r->from_iops, r->to_iops, r->from_pct, r->to_pct);
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
  if (family->seeds != NULL)
    for (guint i = 0; family->seeds[i] != 0; i++)
      check_curve (family->seeds[i], family, &tally, FALSE);
  else
    for (guint64 seed = family->first_seed; seed < family->first_seed + count; seed++)
      check_curve (seed, family, &tally, FALSE);
  g_test_message ("%s: knees found: error median %.2f, 90 %% %.2f, worst %.2f points; resolution stated: median %.2f, "
                  "90 %% %.2f points", family->name, quantile (errors, 0.5), quantile (errors, 0.9),
                  quantile (errors, 1), quantile (resolutions, 0.5), quantile (resolutions, 0.9));

  g_test_message ("%s: %u curves, %u falls built in: %u found (worst knee %.2f points, seed %" G_GUINT64_FORMAT
                  "; %u within the resolution stated, %u not), %u missed, %u in no rows, %u invented; plateau worst %.2f %% "
                  "(seed %" G_GUINT64_FORMAT "), %u off; declines %u of %u; recoveries %u of %u, %u inside a band; %u sentences, %u untrue "
                  "(%u curves in zh_TW too); %u stored falls, recoveries and declines, %u short of their definition",
                  family->name, tally.curves, tally.true_falls, tally.found, tally.worst_knee_error,
                  tally.worst_knee_seed, tally.within, tally.outside, tally.missed, tally.unseen, tally.invented,
                  100 * tally.worst_plateau_error, tally.worst_plateau_seed, tally.plateau_off, tally.declines_found,
                  tally.declines_due, tally.recoveries_found, tally.recoveries_due, tally.recoveries_in_band, tally.sentences, tally.untrue,
                  tally.translated, tally.stored, tally.stored_wrong);
  for (guint k = 0; k < SHAPE_N_KINDS; k++)
    if (tally.per_kind[k] > 0)
      g_test_message ("  %s: %u curves, %u wrong", shape_kind_name (k), tally.per_kind[k], tally.failed_kind[k]);

  /* Every family runs to its end, so the messages count every miss. */
  if (tally.missed > 0 || tally.invented > 0 || tally.plateau_off > 0 || tally.declines_found != tally.declines_due ||
      (family->within_resolution && tally.outside > 0) || tally.untrue > 0 || tally.stored_wrong > 0 ||
      tally.recoveries_found != tally.recoveries_due || tally.recoveries_in_band > 0)
    g_test_fail ();
}

/* ---- The sentences of the curves ---------------------------------- */

/* A fill of a 512 GB span to 200 % in rows of one second, 4 KiB each
 * write, at the IOPS of the straight lines between @knots (% of capacity,
 * IOPS; a knot twice at the same % is a step) where each row starts: no
 * noise, so that every figure printed can be said exactly. */
typedef struct
{
  double pct, iops;
} Knot;

#define CRAFTED_SPAN G_GUINT64_CONSTANT (512000000000)

static DuelSeries *
crafted_series (const Knot *knots,
                guint       n_knots)
{
  DuelSeries *series = duel_series_new ();
  guint64 written = 0;

  for (guint64 t = 1; written < 2 * CRAFTED_SPAN; t++)
    {
      double pct = 100.0 * written / CRAFTED_SPAN, iops = knots[n_knots - 1].iops;
      DuelSeriesRow row = { .t_ms = 1000 * t, .temperature_c = NAN };

      for (guint k = 0; k + 1 < n_knots; k++)
        if (pct >= knots[k].pct && pct < knots[k + 1].pct)
          {
            iops = knots[k].iops + (knots[k + 1].iops - knots[k].iops) * (pct - knots[k].pct) /
                                   (knots[k + 1].pct - knots[k].pct);
            break;
          }
      row.ops[DUEL_DIRECTION_WRITE] = (guint64) llround (iops);
      row.bytes[DUEL_DIRECTION_WRITE] = 4096 * row.ops[DUEL_DIRECTION_WRITE];
      written += row.bytes[DUEL_DIRECTION_WRITE];
      duel_series_append (series, &row);
    }
  return series;
}

typedef struct
{
  const char *name;
  Knot        knots[8];
  guint       n_knots;
  /* What the analysis says, in English, and the kinds analyze --json
   * lists, in order. */
  const char *sentences[4];
  const char *kinds[4];
  double      begins[4];    /* where each begins, as built (± 1.5 points) */
} Crafted;

static const Crafted crafted[] = {
  /* Issue 35: a cliff at 29.5 % from 59,435 to 20,259 IOPS, after which
   * the drive recovers to 89,913 IOPS at 60 % (its plateau): the recovery
   * is said, and the cliff is not "into the plateau". */
  { "recovery", { { 0, 59435 }, { 29.5, 59435 }, { 29.5, 20259 }, { 60, 20259 }, { 60, 89913 }, { 200, 89913 } }, 6,
    { "Write cliff at 29.5 % of capacity written: from 59,435 to 20,259 IOPS.",
      "The write curve recovers to 89,913 IOPS at 60 % of capacity written.", NULL },
    { "cliff", "recovery", NULL }, { 29.5, 60 } },
  /* A cliff to 4,633 IOPS, then a decline to 2,216 (the plateau): not
   * "into the plateau", and the decline from the level after the cliff. */
  { "not-the-plateau", { { 0, 30000 }, { 40, 30000 }, { 40, 4633 }, { 80, 4633 }, { 160, 2216 }, { 200, 2216 } }, 6,
    { "Write cliff at 40.0 % of capacity written: from 30,000 to 4,633 IOPS.",
      "A decline, not a fall: from 4,633 to 2,216 IOPS, mostly between 91 % and 154 % of capacity written.", NULL },
    { "cliff", "decline", NULL }, { 40, 80 } },
  /* Issue 35 (the Plextor M8PeG's figures): a rise from 33,578 to 47,061
   * IOPS at 50–60 %, then a straight decline to 9,087 at 120 %: a decline
   * from its top, not from the fill's start. */
  { "decline-from-top", { { 0, 33578 }, { 50, 47061 }, { 60, 47061 }, { 120, 9087 }, { 200, 9087 } }, 5,
    { "A decline, not a fall: from 47,061 to 9,087 IOPS, mostly between 72 % and 117 % of capacity written.", NULL },
    { "decline", NULL }, { 60 } },
  /* A cliff into its plateau says so. */
  { "into-the-plateau", { { 0, 90000 }, { 25, 90000 }, { 25, 30000 }, { 100, 30000 }, { 100, 12000 }, { 200, 12000 } }, 6,
    { "A fall at 25.1 % of capacity written: from 90,000 to 30,000 IOPS.",
      "Write cliff at 100.0 % of capacity written: from 30,000 to 12,000 IOPS, into the plateau.", NULL },
    { "fall", "cliff", NULL }, { 25, 100 } },
};

static void
test_crafted (gconstpointer data)
{
  const Crafted *c = data;
  g_autoptr(DuelSeries) series = crafted_series (c->knots, c->n_knots);
  g_autoptr(JsonObject) details = json_object_new ();
  g_autoptr(JsonNode) node = NULL;
  g_auto(GStrv) lines = NULL;
  DuelAnalysisParams params;
  DuelSaturation sat;
  JsonArray *events;
  Curve curve;
  double last_after = NAN, since = 0;

  duel_analysis_params_init (&params);
  duel_analysis_saturation (series, CRAFTED_SPAN, &params, &sat);
  json_object_set_object_member (details, "saturation", duel_saturation_to_json (&sat, &params));
  lines = duel_saturation_dup_falls_text (details);
  for (guint i = 0; lines[i] != NULL; i++)
    g_test_message ("%s: %s", c->name, lines[i]);
  /* True by the property test's own reading of the curve, too. */
  curve_init (&curve, series, CRAFTED_SPAN);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GString) why = g_string_new (NULL);

      if (!sentence_true (lines[i], &curve, &last_after, &since, why))
        g_error ("%s: “%s” is not true: %s", c->name, lines[i], why->str);
    }
  g_free (curve.point);
  g_assert_cmpstrv (lines, c->sentences);

  node = duel_saturation_dup_events_json (details);
  events = json_node_get_array (node);
  {
    g_autofree char *text = json_to_string (node, FALSE);

    g_test_message ("%s: analyze --json: %s", c->name, text);
  }
  g_assert_cmpuint (json_array_get_length (events), ==, g_strv_length ((char **) c->kinds));
  for (guint i = 0; c->kinds[i] != NULL; i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);

      g_assert_cmpstr (json_object_get_string_member (e, "kind"), ==, c->kinds[i]);
      g_assert_cmpfloat (fabs (json_object_get_double_member (e, "knee_pct") - c->begins[i]), <=, 1.5);
      if (g_str_equal (c->kinds[i], "cliff"))
        g_assert_cmpint (json_object_get_boolean_member (e, "into_plateau"), ==,
                         strstr (c->sentences[i], "into the plateau") != NULL);
    }
  duel_saturation_clear (&sat);
}

int
main (int    argc,
      char **argv)
{
  const char *one = g_getenv ("DUEL_FALLS_SEED");
  const char *localedir = g_getenv ("DRIVEDUEL_LOCALEDIR");

  /* English, whatever the environment; zh_TW where a catalogue is given
   * (check_sentences()). */
  setlocale (LC_ALL, "");
  g_setenv ("LANGUAGE", "C", TRUE);
  setlocale (LC_MESSAGES, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
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
  for (guint i = 0; i < G_N_ELEMENTS (crafted); i++)
    {
      g_autofree char *path = g_strdup_printf ("/falls/sentences/%s", crafted[i].name);

      g_test_add_data_func (path, &crafted[i], test_crafted);
    }
  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    {
      g_autofree char *path = g_strdup_printf ("/falls/shapes/%s", families[i].name);

      g_test_add_data_func (path, &families[i], test_family);
    }
  return g_test_run ();
}
