/* eta-drives.c — the time left's campaign on random drives and generated shapes
 *
 *   eta-drives [--drives N] [--shapes N] [--seed S] [--worst N] [--list]
 *
 * Not a test (the gate holds fewer fills to looser bounds: test-eta-virtual,
 * test-eta-shapes): the measurement docs/eta.md quotes. N random drives of
 * the FTL model over wide settings (ssd_wide_drive(): caches of none or
 * 2–70 %, spare area 2–50 %, 1–32 units, programs of 0.1–3 ms scaled up to
 * 30 times), each run as the write-saturation preset runs it — the probe
 * with its own stopping rule, a discard, the 4 KiB random write fill to 2x
 * — in the model's own time; and N generated fill shapes (fill-shapes.c) as
 * a plain 2x random write (no probe). Each is replayed through DuelRunEta
 * as a live run would see it, and at 10, 20, … 90 % progress the tool
 * reports, per population:
 *
 *   C   the share of runs whose 80 % range holds the real time left;
 *   W   the range's width, high over low (median; and its 90th percentile);
 *   M   the share whose middle is within ±25 % of it; E its worst error;
 *   F   the share whose first pass's time left is within ±15 % (of those
 *       still in it), Fc its range's coverage;
 *   S   the second pass's range coverage (once known: GC seen or not).
 *
 * Seeds from 2 000 001 (the calibration's are from 1 000 001, the gate's
 * from 1). About 20 s of CPU for 240 drives and 300 shapes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run/duel-run-eta-private.h"
#include "eta-replay-core.h"
#include "fill-shapes.h"
#include "ssd-virtual-fill.h"

#define N_CHECKPOINTS  9
#define PROBE_MIN_MS   2000
#define DISCARD_MS     500

typedef struct
{
  const char *name;
  guint       n[N_CHECKPOINTS];
  guint       covered[N_CHECKPOINTS];
  guint       within[N_CHECKPOINTS];
  GArray     *widths[N_CHECKPOINTS];
  GArray     *errors[N_CHECKPOINTS];
  guint       first_n[N_CHECKPOINTS];
  guint       first_within[N_CHECKPOINTS];
  guint       first_covered[N_CHECKPOINTS];
  guint       second_n[N_CHECKPOINTS];
  guint       second_covered[N_CHECKPOINTS];
  GPtrArray  *worst[N_CHECKPOINTS];  /* descriptions of misses */
  /* By the running step's range kind (duel-run-eta-private.h). */
  guint       kind_n[N_CHECKPOINTS][DUEL_RUN_ETA_N_RANGES];
  guint       kind_covered[N_CHECKPOINTS][DUEL_RUN_ETA_N_RANGES];
  guint       kind_within[N_CHECKPOINTS][DUEL_RUN_ETA_N_RANGES];
  double      kind_error[N_CHECKPOINTS][DUEL_RUN_ETA_N_RANGES];   /* sum of log(middle / truth) */
} Tally;

static double
checkpoint (guint i)
{
  return 0.1 * (i + 1);
}

static void
tally_init (Tally      *t,
            const char *name)
{
  memset (t, 0, sizeof *t);
  t->name = name;
  for (guint i = 0; i < N_CHECKPOINTS; i++)
    {
      t->widths[i] = g_array_new (FALSE, FALSE, sizeof (double));
      t->errors[i] = g_array_new (FALSE, FALSE, sizeof (double));
      t->worst[i] = g_ptr_array_new_with_free_func (g_free);
    }
}

static void
tally_clear (Tally *t)
{
  for (guint i = 0; i < N_CHECKPOINTS; i++)
    {
      g_array_unref (t->widths[i]);
      g_array_unref (t->errors[i]);
      g_ptr_array_unref (t->worst[i]);
    }
}

static gboolean
holds (double low,
       double actual,
       double high)
{
  return low <= actual + 1e-6 && actual <= high + 1e-6;
}

static void
tally_add (Tally      *t,
           GArray     *samples,
           const char *what,
           gboolean    list)
{
  for (guint i = 0; i < N_CHECKPOINTS; i++)
    {
      EtaSample s;
      double error, width;

      if (!eta_replay_at (samples, checkpoint (i), &s) || !(s.actual_s > 0) || !isfinite (s.estimate_s))
        continue;
      t->n[i]++;
      error = eta_sample_error (&s);
      width = s.high_s / MAX (s.low_s, 1e-9);
      g_array_append_val (t->errors[i], error);
      g_array_append_val (t->widths[i], width);
      t->within[i] += fabs (error) <= 0.25;
      if (s.range >= 0)
        {
          t->kind_n[i][s.range]++;
          t->kind_covered[i][s.range] += eta_sample_covered (&s);
          t->kind_within[i][s.range] += fabs (error) <= 0.25;
          t->kind_error[i][s.range] += log (s.estimate_s / s.actual_s);
        }
      if (eta_sample_covered (&s))
        t->covered[i]++;
      else
        g_ptr_array_add (t->worst[i], g_strdup_printf ("%s: %.1f s left, range %.1f–%.1f, middle %.1f",
                                                       what, s.actual_s, s.low_s, s.high_s, s.estimate_s));
      if (list)
        printf ("%.0f %%\t%s\terror %+.0f %%\trange %.2f–%.2f\tfirst %+.0f %% (%.2f–%.2f)\tsecond %+.0f %% (%.2f–%.2f)\t%s\n",
                100 * checkpoint (i), s.range >= 0 ? _duel_run_eta_range_name (s.range) : "-", 100 * error,
                s.low_s / s.actual_s, s.high_s / s.actual_s,
                s.has_passes ? 100 * (s.passes.first_s / s.actual_first_s - 1) : NAN,
                s.has_passes ? s.passes.first_low_s / s.actual_first_s : NAN,
                s.has_passes ? s.passes.first_high_s / s.actual_first_s : NAN,
                s.has_passes ? 100 * (s.passes.second_s / s.actual_second_s - 1) : NAN,
                s.has_passes ? s.passes.second_low_s / s.actual_second_s : NAN,
                s.has_passes ? s.passes.second_high_s / s.actual_second_s : NAN, what);
      if (s.has_passes && !s.passes.in_second && s.actual_first_s > 0)
        {
          double e1 = (s.passes.first_s - s.actual_first_s) / s.actual_first_s;

          t->first_n[i]++;
          t->first_within[i] += fabs (e1) <= 0.15;
          t->first_covered[i] += holds (s.passes.first_low_s, s.actual_first_s, s.passes.first_high_s);
        }
      if (s.has_passes && s.actual_second_s > 0)
        {
          t->second_n[i]++;
          t->second_covered[i] += holds (s.passes.second_low_s, s.actual_second_s, s.passes.second_high_s);
        }
    }
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
quantile_of (GArray *values,
             double  q)
{
  if (values->len == 0)
    return NAN;
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, (guint) floor (q * (values->len - 1) + 0.5));
}

static double
worst_abs (GArray *values)
{
  double worst = 0;

  for (guint i = 0; i < values->len; i++)
    worst = MAX (worst, fabs (g_array_index (values, double, i)));
  return worst;
}

static double
share (guint part,
       guint whole)
{
  return whole > 0 ? 100.0 * part / whole : NAN;
}

static void
tally_print_kinds (Tally *t)
{
  printf ("\nBy what the run had shown (runs: coverage, middle within ±25 %%, its mean error in logs)\n\n");
  for (guint i = 0; i < N_CHECKPOINTS; i++)
    {
      printf ("%2.0f %%:", 100 * checkpoint (i));
      for (guint r = 0; r < DUEL_RUN_ETA_N_RANGES; r++)
        if (t->kind_n[i][r] > 0)
          printf ("  %s %u: %.0f %%, %.0f %%, %+.0f %%;", _duel_run_eta_range_name (r), t->kind_n[i][r],
                  share (t->kind_covered[i][r], t->kind_n[i][r]), share (t->kind_within[i][r], t->kind_n[i][r]),
                  100 * expm1 (t->kind_error[i][r] / t->kind_n[i][r]));
      printf ("\n");
    }
}

static void
tally_print (Tally *t,
             guint  n_worst)
{
  printf ("\n%s\n\n", t->name);
  printf ("| progress | runs | C (range holds) | W median | W p90 | M (±25 %%) | E median | E worst | F (first ±15 %%) | Fc | S |\n");
  printf ("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (guint i = 0; i < N_CHECKPOINTS; i++)
    printf ("| %2.0f %% | %u | %.1f %% | %.2f | %.2f | %.1f %% | %+.0f %% | %.0f %% | %.1f %% (%u) | %.1f %% | %.1f %% |\n",
            100 * checkpoint (i), t->n[i], share (t->covered[i], t->n[i]),
            quantile_of (t->widths[i], 0.5), quantile_of (t->widths[i], 0.9),
            share (t->within[i], t->n[i]), 100 * quantile_of (t->errors[i], 0.5), 100 * worst_abs (t->errors[i]),
            share (t->first_within[i], t->first_n[i]), t->first_n[i], share (t->first_covered[i], t->first_n[i]),
            share (t->second_covered[i], t->second_n[i]));
  for (guint i = 0; i < N_CHECKPOINTS && n_worst > 0; i++)
    for (guint j = 0; j < MIN (n_worst, t->worst[i]->len); j++)
      printf ("  missed at %.0f %%: %s\n", 100 * checkpoint (i), (char *) g_ptr_array_index (t->worst[i], j));
}

int
main (int    argc,
      char **argv)
{
  gint n_drives = 240, n_shapes = 300, n_worst = 0;
  gint64 first_seed = 2000001;
  gboolean list = FALSE, kinds = FALSE;
  GOptionEntry entries[] = {
    { "drives", 0, 0, G_OPTION_ARG_INT, &n_drives, "Random drives of the model (240)", "N" },
    { "shapes", 0, 0, G_OPTION_ARG_INT, &n_shapes, "Generated shapes (300)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &first_seed, "The first seed (2000001)", "S" },
    { "worst", 0, 0, G_OPTION_ARG_INT, &n_worst, "List this many misses a point", "N" },
    { "list", 0, 0, G_OPTION_ARG_NONE, &list, "One line a run at each point", NULL },
    { "kinds", 0, 0, G_OPTION_ARG_NONE, &kinds, "Coverage and errors by what the run had shown", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  Tally drives, shapes;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || n_drives < 0 || n_shapes < 0)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "eta-drives: bad count");
      return 2;
    }
  tally_init (&drives, "Random drives of the model, the write-saturation preset (probe, discard, 2x fill)");
  tally_init (&shapes, "Generated shapes, a plain 2x random write (no probe)");

  for (gint64 seed = first_seed; seed < first_seed + n_drives; seed++)
    {
      SsdConfig cfg;
      SsdVirtualFill run;
      DuelProbeResult probe;
      guint interval_ms;
      char what[400];
      g_autofree char *name = NULL;
      g_autoptr(GArray) samples = NULL;
      EtaFill fill;

      ssd_wide_drive (seed, &cfg, &interval_ms, what, sizeof what);
      ssd_virtual_fill_run_probed (&cfg, 32, 2.0, interval_ms, PROBE_MIN_MS, DISCARD_MS, seed, &probe, &run);
      fill = (EtaFill) { run.series, run.n_pages * SSD_PAGE_SIZE, 2, interval_ms, TRUE, &probe, DISCARD_MS / 1e3 };
      samples = eta_replay_fill (&fill);
      name = g_strdup_printf ("drive %" G_GINT64_FORMAT " (%s; probe %" G_GUINT64_FORMAT " ms%s)", seed, what,
                              probe.runtime_ms, probe.fell ? ", saw a fall" : "");
      tally_add (&drives, samples, name, list);
      ssd_virtual_fill_clear (&run);
    }
  for (gint64 seed = first_seed; seed < first_seed + n_shapes; seed++)
    {
      ShapeTruth truth;
      g_autoptr(DuelSeries) series = shape_generate (seed, FALSE, 1000, 20000, &truth);
      EtaFill fill = { series, truth.span_bytes, 2, (guint) truth.interval_ms, TRUE, NULL, -1 };
      g_autoptr(GArray) samples = eta_replay_fill (&fill);
      g_autofree char *name = g_strdup_printf ("shape %" G_GINT64_FORMAT " (%s)", seed, truth.description);

      tally_add (&shapes, samples, name, list);
    }
  tally_print (&drives, n_worst);
  if (kinds)
    tally_print_kinds (&drives);
  tally_print (&shapes, n_worst);
  if (kinds)
    tally_print_kinds (&shapes);
  tally_clear (&drives);
  tally_clear (&shapes);
  return 0;
}
