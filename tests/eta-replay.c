/* eta-replay.c — the time-left estimate of recorded runs against their truth
 *
 *   eta-replay [--no-probe] [--flash yes|no] [--baseline] [--curve] RESULT.json…
 *
 * Prints, per file, the error of the time left's middle ((estimate −
 * actual) / actual) at 10, 50 and 90 % progress and the worst over 10–90 %,
 * then the range at the same points as low and high over the truth (the
 * range holds it when low <= 1 <= high); --curve prints every instant
 * (progress, time, estimate, low, high, actual, error) instead; with
 * --baseline the estimate is elapsed x (1 - f) / f (the app's rule before
 * DuelRunEta) on the same progress f. Exit 1
 * when a file cannot be replayed. See eta-replay-core.h and docs/eta.md.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>

#include "eta-replay-core.h"

static void
print_error (double error)
{
  if (isnan (error))
    printf ("  %7s", "-");
  else
    printf ("  %+6.0f%%", error * 100);
}

int
main (int    argc,
      char **argv)
{
  gboolean no_probe = FALSE, curve = FALSE, baseline = FALSE;
  g_autofree char *flash = NULL;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "no-probe", 0, 0, G_OPTION_ARG_NONE, &no_probe, "Replay as if no probe had run", NULL },
    { "flash", 0, 0, G_OPTION_ARG_STRING, &flash, "Treat the target as flash (yes) or not (no); default: from the device", "yes|no" },
    { "curve", 0, 0, G_OPTION_ARG_NONE, &curve, "Print every instant", NULL },
    { "baseline", 0, 0, G_OPTION_ARG_NONE, &baseline, "Score elapsed x (1 - f) / f on the same progress instead", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("RESULT.json…");
  g_autoptr(GError) error = NULL;
  EtaReplayOptions options;
  int status = 0;

  setlocale (LC_ALL, "C");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || files == NULL)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "eta-replay: no result file");
      return 2;
    }
  eta_replay_options_init (&options);
  options.use_probe = !no_probe;
  if (flash != NULL)
    options.flash = g_strcmp0 (flash, "yes") == 0 ? 1 : 0;

  if (!curve)
    printf ("%-40s  %7s  %7s  %7s  %7s  %8s  %-11s  %-11s  %-11s\n", "run", "@10%", "@50%", "@90%", "worst", "total s",
            "range @10%", "range @50%", "range @90%");
  for (guint f = 0; files[f] != NULL; f++)
    {
      g_autoptr(DuelResult) result = duel_result_load (files[f], &error);
      g_autoptr(GArray) samples = NULL;
      g_autofree char *name = g_path_get_basename (files[f]);
      const double points[] = { 0.1, 0.5, 0.9 };

      if (result != NULL)
        samples = eta_replay (result, &options, &error);
      /* The rule the app had: the elapsed time scaled by the progress. */
      for (guint i = 0; baseline && samples != NULL && i < samples->len; i++)
        {
          EtaSample *s = &g_array_index (samples, EtaSample, i);

          s->estimate_s = s->fraction > 0 ? s->at_s * (1 - s->fraction) / s->fraction : NAN;
        }
      if (samples == NULL)
        {
          g_printerr ("%s: %s\n", files[f], error->message);
          g_clear_error (&error);
          status = 1;
          continue;
        }
      if (curve)
        {
          printf ("# %s\n# fraction  at_s  estimate_s  low_s  high_s  actual_s  error\n", name);
          for (guint i = 0; i < samples->len; i++)
            {
              const EtaSample *s = &g_array_index (samples, EtaSample, i);

              printf ("%.4f  %.2f  %.2f  %.2f  %.2f  %.2f  %+.3f\n",
                      s->fraction, s->at_s, s->estimate_s, s->low_s, s->high_s, s->actual_s, eta_sample_error (s));
            }
          continue;
        }
      printf ("%-40s", name);
      for (guint p = 0; p < G_N_ELEMENTS (points); p++)
        {
          EtaSample sample;

          print_error (eta_replay_at (samples, points[p], &sample) ? eta_sample_error (&sample) : NAN);
        }
      print_error (eta_replay_worst (samples, 0.1, 0.9));
      printf ("  %8.1f", samples->len > 0 ? g_array_index (samples, EtaSample, 0).actual_s : 0);
      for (guint p = 0; p < G_N_ELEMENTS (points); p++)
        {
          EtaSample sample;

          if (baseline || !eta_replay_at (samples, points[p], &sample) || !(sample.actual_s > 0) ||
              !isfinite (sample.low_s))
            printf ("  %-11s", "-");
          else
            printf ("  %4.2f-%-6.2f", sample.low_s / sample.actual_s, sample.high_s / sample.actual_s);
        }
      printf ("\n");
    }
  return status;
}
