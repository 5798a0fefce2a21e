/* test-ssd-virtual.c — the fill's analysis on the simulated SSD, in virtual time
 *
 * The deterministic half of the SSD-model tests. The FTL model (ssd-ftl.c)
 * is driven as the write-saturation preset drives a drive
 * (ssd-virtual-fill.c: a discard, then 4 KiB random writes at queue depth
 * 32 to twice the capacity, on the model's own clock, counted into rows).
 * The series goes to the analysis a run uses (duel_analysis_saturation()),
 * and what it finds is held against the model's own account:
 *
 *  - every fall within 3 points of capacity written (or the resolution the
 *    analysis states) of an event that makes one, the cache running out or
 *    GC beginning, and every event that clearly makes one found; which
 *    events do is read off the model's completions (classify());
 *  - the plateau against the rate computed from every completion's time,
 *    within what prorating rows at the window's two edges can move it;
 *  - the first steady-state window after the model's GC began;
 *  - the named shapes of test-ssd-analysis.sh, and 300 random
 *    configurations nobody tuned the analysis to (ssd_random_config()).
 *
 * No FUSE, no threads, no wall clock: the same series, bit for bit, on any
 * host and under a sanitizer. test-ssd-analysis.sh runs the named cases
 * through FUSE and the real engine, where a busy host can reshape the curve.
 * DUEL_SSD_CONFIGS=N runs N random configurations instead (a campaign);
 * DUEL_SSD_ONLY=K runs configuration K alone and prints its events, falls
 * and curve.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <stdlib.h>

#include "analysis/duel-analysis.h"
#include "ssd-shapes.h"
#include "ssd-virtual-fill.h"

#define NSEC          G_GUINT64_CONSTANT (1000000000)
#define MSEC          G_GUINT64_CONSTANT (1000000)
#define QUEUE_DEPTH   32
#define INTERVAL_MS   100
#define ROUND_MS      1000
#define FILL_MULTIPLE 2
#define SEED          0x5eed
#define RANDOM_CONFIGS 300

/* The cases of test-ssd-analysis.sh: the shapes of docs/ssd-model.md and
 * one change each. A negative or zero field keeps the shape's value. */
typedef struct
{
  const char *name;
  const char *shape;
  double      cache_pct;
  double      op_pct;
  guint       units;
  double      t_prog_cache_us;
  double      t_prog_us;
  guint       falls;       /* as the model's events say (the checks below) */
} Case;

static const Case cases[] = {
  { "falls",       "falls", -1, -1, 0, 0, 0, 2 },
  { "small-cache", "falls", 10, -1, 0, 0, 0, 2 },
  { "more-op",     "falls", -1, 28, 0, 0, 0, 2 },
  { "two-units",   "falls", -1, -1, 2, 125, 350, 2 },
  { "rises",       "rises", -1, -1, 0, 0, 0, 1 },
  { "flat",        "flat",  -1, -1, 0, 0, 0, 0 },
};

static void
case_config (const Case *c,
             SsdConfig  *cfg)
{
  const SsdShape *shape = ssd_shape_lookup (c->shape);

  g_assert_nonnull (shape);
  ssd_shape_config (shape, shape->config.capacity_bytes, cfg);
  if (c->cache_pct >= 0)
    cfg->cache_bytes = (guint64) (cfg->capacity_bytes * c->cache_pct / 100.0) / SSD_PAGE_SIZE * SSD_PAGE_SIZE;
  if (c->op_pct >= 0)
    cfg->op_pct = c->op_pct;
  if (c->units > 0)
    cfg->units = c->units;
  if (c->t_prog_cache_us > 0)
    cfg->t_prog_cache_ns = (guint64) (c->t_prog_cache_us * 1000);
  if (c->t_prog_us > 0)
    cfg->t_prog_ns = (guint64) (c->t_prog_us * 1000);
  g_assert_true (ssd_config_check (cfg, NULL));
}

static void
params_init (DuelAnalysisParams *params)
{
  duel_analysis_params_init (params);
  params->round_ms = ROUND_MS;
}

/* Bytes written by @ms of the fill. */
static double
pct_written_by (const SsdVirtualFill *fill,
                guint64     ms)
{
  guint lo = 0, hi = fill->done_ns->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (fill->done_ns, guint64, mid) < ms * MSEC)
        lo = mid + 1;
      else
        hi = mid;
    }
  return 100.0 * lo / fill->n_pages;
}

/* SNIA's steady-state excursions, written here from the definition, over
 * the last @n complete rounds of the model's completions: (max − min) and
 * |slope| x (n − 1) of the least-squares line, as fractions of the mean. */
static void
last_rounds_excursions (const SsdVirtualFill *fill,
                        guint       n,
                        double     *out_data,
                        double     *out_slope)
{
  guint64 end = g_array_index (fill->done_ns, guint64, fill->done_ns->len - 1);
  guint full = (guint) (end / (ROUND_MS * MSEC));
  g_autofree double *iops = g_new0 (double, n);
  double mean = 0, lo = G_MAXDOUBLE, hi = 0, sxy = 0, sxx = 0;

  g_assert_cmpuint (full, >=, n);
  for (guint k = 0; k < fill->done_ns->len; k++)
    {
      guint64 round = g_array_index (fill->done_ns, guint64, k) / (ROUND_MS * MSEC);

      if (round >= full - n && round < full)
        iops[round - (full - n)] += 1000.0 / ROUND_MS;
    }
  for (guint i = 0; i < n; i++)
    {
      mean += iops[i] / n;
      lo = MIN (lo, iops[i]);
      hi = MAX (hi, iops[i]);
    }
  for (guint i = 0; i < n; i++)
    {
      sxy += (i - (n - 1) / 2.0) * (iops[i] - mean);
      sxx += (i - (n - 1) / 2.0) * (i - (n - 1) / 2.0);
    }
  *out_data = (hi - lo) / mean;
  *out_slope = fabs (sxy / sxx) * (n - 1) / mean;
}

/* ---- The model's events as the truth of the falls ---------------------------- */

typedef enum
{
  EVENT_FALL,          /* clearly a fall by docs/analysis.md: must be found */
  EVENT_NO_FALL,       /* clearly none: a fall reported there is invented */
  EVENT_EITHER,        /* between the two, or too late in the fill to tell */
} EventClass;

typedef struct
{
  const char *what;
  double      pct;
  EventClass  class;
  double      before, after;   /* the model's own rates either side */
} Event;

/* The @q quantile (0.5: the median) of the model's rates over the 1-point
 * stretches of capacity written in [@lo_pct, @hi_pct). */
static double
quantile_rate (const SsdVirtualFill *fill,
               double                lo_pct,
               double                hi_pct,
               double                q)
{
  double rates[64];
  guint n = 0;

  for (double x = lo_pct; x + 1 <= hi_pct + 1e-9 && n < G_N_ELEMENTS (rates); x += 1)
    {
      double r = ssd_virtual_fill_rate (fill, x, x + 1);

      if (isfinite (r))
        rates[n++] = r;
    }
  if (n == 0)
    return NAN;
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && rates[j - 1] > rates[j]; j--)
      {
        double t = rates[j];

        rates[j] = rates[j - 1];
        rates[j - 1] = t;
      }
  return rates[(guint) floor (q * (n - 1) + 0.5)];
}

/* The level a noisy stretch holds. */
static double
median_rate (const SsdVirtualFill *fill,
             double                lo_pct,
             double                hi_pct)
{
  return quantile_rate (fill, lo_pct, hi_pct, 0.5);
}

/* From the model's completions alone, each level the median of its
 * 1-point rates: the level over the 5 points before the event, and after
 * it the lower of the levels over 2–12 and 8–18 points past it (the
 * definition gives a fall 20 points to happen); then that level 10 points
 * later. A clear fall: down to 60 % or less and holding (within 10 %: a
 * fall, not the start of a slide). Clearly none: never below 85 %. The
 * definition itself draws its line at 75 % with a turn at both ends; the
 * bands either side of it are where "found" and "invented" are not decided
 * by a hair. Medians of whole stretches, not the lowest of many short
 * windows: in garbage collection's scatter the lowest window is far below
 * the level the drive holds. */
static void
classify (const SsdVirtualFill *fill,
          Event                *e)
{
  double early, late, lowest;

  e->class = EVENT_EITHER;
  e->before = median_rate (fill, MAX (e->pct - 5, 0), e->pct);
  /* Too late to see a level after, or too early for a level before: the
   * rule reads throughput over a point of capacity, and a level of two
   * points at the start of the fill is at the edge of what it can see. */
  if (e->pct + 30 > 200 || !(e->pct >= 2.5) || !isfinite (e->before))
    return;
  early = median_rate (fill, e->pct + 2, e->pct + 12);
  late = median_rate (fill, e->pct + 8, e->pct + 18);
  lowest = MIN (early, late);
  e->after = lowest;
  /* On a model of a few hundred MiB, a point of capacity is a few
   * garbage-collection cycles: where the model's own rate swings by more
   * than half from point to point after the event (its upper quartile over
   * its lower), the level after is not one at the scale the definition
   * reads it, and the event is no clear fall. On a drive, a point is
   * gigabytes and thousands of cycles. */
  if (quantile_rate (fill, e->pct + 2, e->pct + 12, 0.75) > 1.5 * quantile_rate (fill, e->pct + 2, e->pct + 12, 0.25))
    return;
  if (lowest <= 0.6 * e->before && median_rate (fill, e->pct + 18, e->pct + 28) >= 0.9 * lowest)
    e->class = EVENT_FALL;
  else if (lowest >= 0.85 * e->before)
    e->class = EVENT_NO_FALL;
}

static guint
model_events (const SsdConfig      *cfg,
              const SsdVirtualFill *fill,
              Event                *events)
{
  guint n = 0;

  if (cfg->cache_bytes > 0 && fill->counters.cache_exhausted_at >= 0)
    events[n++] = (Event) { "the cache ran out", 100.0 * fill->counters.cache_exhausted_at / fill->n_pages };
  if (fill->counters.gc_first_at >= 0)
    events[n++] = (Event) { "GC began", 100.0 * fill->counters.gc_first_at / fill->n_pages };
  for (guint i = 0; i < n; i++)
    classify (fill, &events[i]);
  return n;
}

typedef struct
{
  guint  fills, events[3], found, missed, invented, plateau_off;
  double worst_knee, worst_plateau;
  char   worst_knee_what[200];
} Tally;

/* Every fall reported lies at an event that may be one, every clear fall
 * is reported, within 3 points (or the resolution stated); the plateau
 * within what prorating rows at the window's edges can move it. Returns
 * FALSE and says why when not. */
static gboolean
check_against_model (const char           *name,
                     const SsdConfig      *cfg,
                     const SsdVirtualFill *fill,
                     guint                 interval_ms,
                     const DuelSaturation *sat,
                     Tally                *tally)
{
  Event events[2];
  guint n = model_events (cfg, fill, events);
  gboolean ok = TRUE, matched[2] = { FALSE, FALSE };
  double exact, margin;

  tally->fills++;
  for (guint k = 0; k < n; k++)
    tally->events[events[k].class]++;
  for (guint i = 0; i < sat->falls.falls->len; i++)
    {
      const DuelFall *f = &g_array_index (sat->falls.falls, DuelFall, i);
      double tolerance = MAX (3.0, f->resolution_pct);
      gboolean real = FALSE;

      for (guint k = 0; k < n && !real; k++)
        {
          double error = fabs (f->knee_pct - events[k].pct);

          if (!matched[k] && events[k].class != EVENT_NO_FALL && error <= tolerance)
            {
              matched[k] = real = TRUE;
              tally->found++;
              if (error > tally->worst_knee)
                {
                  tally->worst_knee = error;
                  g_snprintf (tally->worst_knee_what, sizeof tally->worst_knee_what, "%s: %s at %.1f %%, found %.1f %%",
                              name, events[k].what, events[k].pct, f->knee_pct);
                }
            }
        }
      if (!real)
        {
          ok = FALSE;
          tally->invented++;
          g_test_message ("%s: a fall at %.1f %% (%.0f -> %.0f IOPS) where the model logged none",
                          name, f->knee_pct, f->level_before_iops, f->level_after_iops);
        }
    }
  for (guint k = 0; k < n; k++)
    {
      if (events[k].class == EVENT_FALL && !matched[k])
        {
          ok = FALSE;
          tally->missed++;
          g_test_message ("%s: %s at %.1f %% (%.0f -> %.0f IOPS) and no fall was found there",
                          name, events[k].what, events[k].pct, events[k].before, events[k].after);
        }
    }

  exact = ssd_virtual_fill_rate (fill, sat->plateau.lo_pct, sat->plateau.hi_pct);
  margin = 2.0 * interval_ms / 1e3 / sat->plateau.seconds;
  tally->worst_plateau = MAX (tally->worst_plateau, fabs (sat->plateau.iops / exact - 1));
  if (!(fabs (sat->plateau.iops / exact - 1) <= margin))
    {
      ok = FALSE;
      tally->plateau_off++;
      g_test_message ("%s: plateau %.1f IOPS, %.1f from the completions (%.2f %% allowed)",
                      name, sat->plateau.iops, exact, 100 * margin);
    }
  return ok;
}

static void
test_fill (gconstpointer user_data)
{
  const Case *c = user_data;
  SsdConfig cfg;
  SsdVirtualFill fill;
  DuelAnalysisParams params;
  DuelSaturation sat;
  Tally tally = { 0 };
  double gc_pct;

  case_config (c, &cfg);
  ssd_virtual_fill_run (&cfg, QUEUE_DEPTH, FILL_MULTIPLE, INTERVAL_MS, SEED, &fill);
  params_init (&params);
  duel_analysis_saturation (fill.series, cfg.capacity_bytes, &params, &sat);

  gc_pct = fill.counters.gc_first_at < 0 ? NAN : 100.0 * fill.counters.gc_first_at / fill.n_pages;
  g_test_message ("%s: %u intervals, %.1f s of model time; start %.0f, plateau %.0f IOPS; "
                  "%u falls, the cliff at %.1f %%; the model's cache ran out at %.1f %%, GC from %.1f %%",
                  c->name, duel_series_get_length (fill.series),
                  g_array_index (fill.done_ns, guint64, fill.done_ns->len - 1) / 1e9,
                  sat.at_0.iops, sat.plateau.iops, sat.falls.falls->len, sat.cliff_pct,
                  fill.counters.cache_exhausted_at < 0 ? NAN : 100.0 * fill.counters.cache_exhausted_at / fill.n_pages,
                  gc_pct);
  for (guint i = 0; i < sat.falls.falls->len; i++)
    {
      const DuelFall *f = &g_array_index (sat.falls.falls, DuelFall, i);

      g_test_message ("%s: fall at %.2f–%.2f %%, %.0f -> %.0f IOPS", c->name, f->knee_pct, f->foot_pct,
                      f->level_before_iops, f->level_after_iops);
    }

  g_assert_cmpfloat (sat.written_pct, ==, 100.0 * FILL_MULTIPLE);
  g_assert_true (check_against_model (c->name, &cfg, &fill, INTERVAL_MS, &sat, &tally));
  g_assert_cmpuint (sat.falls.falls->len, ==, c->falls);

  /* The drive is in its steady state only once GC runs. */
  if (sat.steady_state.found)
    {
      double start_pct = pct_written_by (&fill, (sat.steady_state.first_steady_round - params.ss_window_rounds)
                                                * (guint64) ROUND_MS);

      g_test_message ("%s: first steady window ends at round %u, starts at %.1f %% written",
                      c->name, sat.steady_state.first_steady_round, start_pct);
      g_assert_cmpfloat (start_pct, >=, gc_pct);
    }
  else if (sat.cliff_found)
    {
      double data, slope;

      /* None found: the model's last rounds must fail SNIA's test too. */
      last_rounds_excursions (&fill, params.ss_window_rounds, &data, &slope);
      g_test_message ("%s: no steady-state window after the fall; the model's last %u rounds: "
                      "data excursion %.1f %%, slope excursion %.1f %% of the mean",
                      c->name, params.ss_window_rounds, 100 * data, 100 * slope);
      g_assert_true (data > params.ss_data_limit || slope > params.ss_slope_limit);
    }

  duel_saturation_clear (&sat);
  ssd_virtual_fill_clear (&fill);
}

/* The model under random configurations it was not tuned on: every clear
 * fall the model logged is found, no fall is reported where it logged
 * none. The seeds are fixed: the same configurations on every run. */
static void
test_random_configurations (void)
{
  guint count = g_getenv ("DUEL_SSD_CONFIGS") != NULL ? (guint) atoi (g_getenv ("DUEL_SSD_CONFIGS")) : RANDOM_CONFIGS;
  Tally tally = { 0 };
  DuelAnalysisParams params;

  params_init (&params);
  for (guint64 seed = 1; seed <= count; seed++)
    {
      const char *only = g_getenv ("DUEL_SSD_ONLY");
      SsdConfig cfg;
      SsdVirtualFill fill;
      DuelSaturation sat;
      char what[200], name[240];
      guint interval_ms;
      g_autoptr(GError) error = NULL;

      if (only != NULL && g_ascii_strtoull (only, NULL, 10) != seed)
        continue;
      ssd_random_config (seed, &cfg, what, sizeof what);
      if (!ssd_config_check (&cfg, &error))
        g_error ("configuration %" G_GUINT64_FORMAT " (%s): %s", seed, what, error->message);
      /* A few thousand rows whatever the model's speed: its time to write
       * twice the capacity at the native program time, over 2000. */
      interval_ms = CLAMP ((guint) (2.0 * cfg.capacity_bytes / SSD_PAGE_SIZE * cfg.t_prog_ns / cfg.units / 1e6 / 2000),
                           1, 100);
      ssd_virtual_fill_run (&cfg, QUEUE_DEPTH, FILL_MULTIPLE, interval_ms, seed, &fill);
      duel_analysis_saturation (fill.series, cfg.capacity_bytes, &params, &sat);
      g_snprintf (name, sizeof name, "configuration %" G_GUINT64_FORMAT " (%s; %u rows)", seed, what,
                  duel_series_get_length (fill.series));
      check_against_model (name, &cfg, &fill, interval_ms, &sat, &tally);
      if (only != NULL)
        {
          guint64 cum = 0, prev = 0;
          Event events[2];
          guint n_events = model_events (&cfg, &fill, events);

          for (guint k = 0; k < n_events; k++)
            g_printerr ("# event: %s at %.2f %%\n", events[k].what, events[k].pct);
          for (guint i = 0; i < sat.falls.falls->len; i++)
            {
              const DuelFall *f = &g_array_index (sat.falls.falls, DuelFall, i);

              g_printerr ("# fall: %.2f–%.2f %% (± %.2f), %.0f -> %.0f\n", f->knee_pct, f->foot_pct,
                          f->resolution_pct, f->level_before_iops, f->level_after_iops);
            }
          for (guint i = 0; i < duel_series_get_length (fill.series); i++)
            {
              const DuelSeriesRow *row = duel_series_get_row (fill.series, i);

              cum += row->bytes[DUEL_DIRECTION_WRITE];
              g_printerr ("%.3f %.1f\n", 100.0 * cum / cfg.capacity_bytes,
                          row->ops[DUEL_DIRECTION_WRITE] / ((row->t_ms - prev) / 1e3));
              prev = row->t_ms;
            }
        }
      duel_saturation_clear (&sat);
      ssd_virtual_fill_clear (&fill);
    }
  g_test_message ("%u configurations: %u events clearly falls, %u clearly not, %u between; "
                  "%u falls found (worst knee %.2f points: %s), %u missed, %u invented; "
                  "plateau worst %.2f %%, %u off",
                  tally.fills, tally.events[EVENT_FALL], tally.events[EVENT_NO_FALL], tally.events[EVENT_EITHER],
                  tally.found, tally.worst_knee, tally.worst_knee_what, tally.missed, tally.invented,
                  100 * tally.worst_plateau, tally.plateau_off);
  if (tally.missed > 0 || tally.invented > 0 || tally.plateau_off > 0)
    g_test_fail ();
}

/* The model's time is the only clock: two fills give the same series. */
static void
test_repeatable (void)
{
  SsdConfig cfg;
  SsdVirtualFill a, b;

  case_config (&cases[0], &cfg);
  ssd_virtual_fill_run (&cfg, QUEUE_DEPTH, FILL_MULTIPLE, INTERVAL_MS, SEED, &a);
  ssd_virtual_fill_run (&cfg, QUEUE_DEPTH, FILL_MULTIPLE, INTERVAL_MS, SEED, &b);
  g_assert_cmpuint (duel_series_get_length (a.series), ==, duel_series_get_length (b.series));
  g_assert_cmpmem (duel_series_get_rows (a.series), duel_series_get_length (a.series) * sizeof (DuelSeriesRow),
                   duel_series_get_rows (b.series), duel_series_get_length (b.series) * sizeof (DuelSeriesRow));
  ssd_virtual_fill_clear (&a);
  ssd_virtual_fill_clear (&b);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/ssd-virtual/fill/%s", cases[i].name);

      g_test_add_data_func (path, &cases[i], test_fill);
    }
  g_test_add_func ("/ssd-virtual/random-configurations", test_random_configurations);
  g_test_add_func ("/ssd-virtual/repeatable", test_repeatable);
  return g_test_run ();
}
