/* duel-cli-preset.c — `driveduel-cli run --preset NAME`: the review's test scripts
 *
 * Like the plain run, the preset runs in a worker thread so that the main
 * loop can turn SIGINT and SIGTERM into a cancel. Before the first step a
 * short probe estimates how long the whole preset takes; the result file is
 * saved atomically every few seconds and after every test, so a killed run
 * keeps what it measured.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "duel-cli.h"
#include "duel-preflight.h"
#include "duel-cli-figures.h"
#include "duel-error.h"
#include "duel-preset.h"
#include "duel-run-context.h"
#include "duel-safety.h"

#define CHECKPOINT_INTERVAL_US (2 * G_TIME_SPAN_SECOND)
#define DEFAULT_PROBE_S        2.0


typedef struct
{
  DuelRunContext  *run_context;
  DuelPreset      *preset;
  DuelTarget      *target;
  DuelResult      *result;
  const char      *output;
  GCancellable    *cancellable;
  guint64          probe_ms;
  DuelCliProgress *progress;
  int              progress_percent;
  gint64           last_checkpoint_us;
  gboolean         checkpoint_failed;
  gboolean         ok;
  GError          *error;
} PresetJob;

static char *
format_duration (double seconds)
{
  guint64 s;

  if (!isfinite (seconds))
    return g_strdup ("?");
  s = (guint64) llround (seconds);
  if (s >= 3600)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " h %02" G_GUINT64_FORMAT " min", s / 3600, (s % 3600) / 60);
  if (s >= 60)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " min %02" G_GUINT64_FORMAT " s", s / 60, s % 60);
  return g_strdup_printf ("%" G_GUINT64_FORMAT " s", s);
}

static void
print_estimate (const DuelPresetEstimate *estimate)
{
  g_autofree char *total = format_duration (estimate->total_seconds);
  g_autofree char *timed = format_duration (estimate->timed_seconds);

  if (estimate->fill_bytes > 0)
    {
      g_autofree char *fill = format_duration (estimate->fill_seconds);
      g_autofree char *fill_size = g_format_size (estimate->fill_bytes);

      if (isfinite (estimate->probe_write_iops))
        /* TRANSLATORS: the estimate printed before a preset runs */
        printf (_("Estimated duration: at least %s — writing %s at the %.0f IOPS of a %.0f s probe takes %s "
                  "(a drive slows down as it fills, so a real 2x fill of a large drive takes hours), "
                  "plus %s of timed tests.\n"),
                total, fill_size, estimate->probe_write_iops, estimate->probe_ms / 1e3, fill, timed);
      else
        printf (_("Estimated duration: %s of timed tests plus writing %s (no probe was run).\n"),
                timed, fill_size);
    }
  else
    printf (_("Estimated duration: %s.\n"), total);
  fflush (stdout);
}

static char *
describe_step (const DuelPresetStep *step)
{
  const DuelWorkload *w = &step->workload;
  g_autofree char *bs = NULL;
  g_autofree char *mix = NULL;
  g_autofree char *stop = NULL;

  if (step->kind == DUEL_PRESET_STEP_DISCARD)
    return g_strdup (_("discard the span (TRIM / punch hole)"));

  bs = g_format_size_full (w->block_size, G_FORMAT_SIZE_IEC_UNITS);
  if (w->read_percent > 0 && w->read_percent < 100)
    mix = g_strdup_printf (_(" %u %% read"), w->read_percent);
  if (w->size_multiple > 0 && w->runtime_ms > 0)
    stop = g_strdup_printf (_("until %gx the span is written or %.0f s"), w->size_multiple, w->runtime_ms / 1e3);
  else if (w->size_multiple > 0)
    stop = g_strdup_printf (_("until %gx the span is written"), w->size_multiple);
  else
    stop = g_strdup_printf (_("for %.0f s"), w->runtime_ms / 1e3);

  /* TRANSLATORS: e.g. "randrw 50 % read, 4.0 KiB, QD32, for 60 s" */
  return g_strdup_printf (_("%s%s, %s, QD%u, %s"), duel_workload_get_rw_name (w), mix ? mix : "",
                          bs, w->queue_depth, stop);
}

static void
progress_cb (const DuelPresetProgress *progress,
             DuelTestRecord           *record,
             gpointer                  user_data)
{
  PresetJob *job = user_data;
  int percent = (int) floor (progress->fraction_done * 100.0);

  if (record != NULL && progress->engine != NULL && progress->engine->interval_closed)
    duel_run_context_annotate (job->run_context, record);

  if (progress->engine == NULL)
    {
      g_clear_pointer (&job->progress, duel_cli_progress_free);
      if (!progress->step_done)
        {
          g_autofree char *what = describe_step (progress->step);

          printf (_("[%u/%u, %d %%] %s: %s\n"), progress->step_index + 1, progress->n_steps,
                  percent, progress->step->name, what);
          fflush (stdout);
        }
      return;
    }

  /* The label carries the whole preset's progress; rebuild it when that moves. */
  if (job->progress == NULL || percent != job->progress_percent)
    {
      g_autofree char *label = g_strdup_printf ("[%u/%u, %d %%] %s", progress->step_index + 1,
                                                progress->n_steps, percent, progress->step->name);

      g_clear_pointer (&job->progress, duel_cli_progress_free);
      job->progress = duel_cli_progress_new (label);
      job->progress_percent = percent;
    }
  duel_cli_progress_update (job->progress, progress->engine);
}

static void
save_checkpoint (PresetJob *job)
{
  g_autoptr(GError) error = NULL;

  if (job->output == NULL)
    return;
  if (!duel_result_save (job->result, job->output, &error) && !job->checkpoint_failed)
    {
      /* Once: the run goes on, and the final save reports again. */
      job->checkpoint_failed = TRUE;
      g_printerr (_("driveduel-cli: could not checkpoint the result: %s\n"), error->message);
    }
}

static void
checkpoint_cb (DuelResult *result,
               gboolean    test_finished,
               gpointer    user_data)
{
  PresetJob *job = user_data;
  gint64 now = g_get_monotonic_time ();

  if (test_finished || now - job->last_checkpoint_us >= CHECKPOINT_INTERVAL_US)
    {
      job->last_checkpoint_us = now;
      save_checkpoint (job);
    }
}

static gpointer
run_thread (gpointer user_data)
{
  PresetJob *job = user_data;
  DuelPresetEstimate estimate;

  job->last_checkpoint_us = g_get_monotonic_time ();
  if (job->probe_ms > 0 && duel_preset_get_n_steps (job->preset) > 0)
    {
      for (guint i = 0; i < duel_preset_get_n_steps (job->preset); i++)
        {
          if (g_strcmp0 (duel_preset_get_step (job->preset, i)->name, DUEL_TEST_WSAT_FILL) == 0)
            {
              printf (_("Probing the write speed for %.0f s to estimate the duration…\n"), job->probe_ms / 1e3);
              fflush (stdout);
              break;
            }
        }
    }
  job->ok = duel_preset_estimate (job->preset, job->target, job->probe_ms,
                                  job->cancellable, &estimate, &job->error);
  if (job->ok)
    {
      print_estimate (&estimate);
      job->ok = duel_preset_run (job->preset, job->target, job->result,
                                 job->cancellable, &job->error);
    }
  g_clear_pointer (&job->progress, duel_cli_progress_free);
  return NULL;
}

static void
print_all_figures (DuelResult *result)
{
  GPtrArray *tests = duel_result_get_tests (result);

  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      g_autoptr(DuelSummary) summary = duel_analysis_resummarize (record, NULL, NULL);

      if (summary != NULL)
        duel_cli_print_figures (record, summary);
    }
}

int
duel_cli_run_preset (int    argc,
                     char **argv)
{
  g_autofree char *preset_name = NULL;
  g_autofree char *span = NULL;
  g_autofree char *output = NULL;
  g_autofree char *name = NULL;
  g_autofree char *target_path = NULL;
  g_autofree char *description = NULL;
  g_auto(GStrv) rest = NULL;
  g_autofree char *capacity_multiple_text = NULL, *runtime = NULL, *round = NULL, *probe = NULL;
  g_autofree char *message = NULL;
  double capacity_multiple = 0, runtime_s = 0, round_s = 0, probe_s = DEFAULT_PROBE_S;
  int interval_ms = G_MININT;   /* not given */
  gboolean no_trim = FALSE, destructive = FALSE, wipe_signatures = FALSE;
  GOptionEntry entries[] = {
    { "preset", 0, 0, G_OPTION_ARG_STRING, &preset_name, N_("write-saturation, consistency, qos, standard, review or quick"), "NAME" },
    { "capacity-multiple", 0, 0, G_OPTION_ARG_STRING, &capacity_multiple_text, N_("Write saturation: write this many times the span (default 2)"), "N" },
    { "span", 0, 0, G_OPTION_ARG_STRING, &span, N_("Use this many bytes from the start of the target (default: all of it; quick: at most 1 GiB)"), "BYTES" },
    { "runtime", 0, 0, G_OPTION_ARG_STRING, &runtime, N_("Length of every timed test in seconds (read score, consistency, each QoS and standard test)"), "SECONDS" },
    { "round", 0, 0, G_OPTION_ARG_STRING, &round, N_("Steady-state round length in seconds (default 60)"), "SECONDS" },
    { "interval-ms", 0, 0, G_OPTION_ARG_INT, &interval_ms, N_("Time-series interval in milliseconds (default 1000)"), "MS" },
    { "no-trim", 0, 0, G_OPTION_ARG_NONE, &no_trim, N_("Do not discard the span before the write saturation"), NULL },
    { "probe", 0, 0, G_OPTION_ARG_STRING, &probe, N_("Seconds of 4K random write used to estimate the duration (default 2, 0 skips)"), "SECONDS" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the result file here (JSON), checkpointed during the run"), "FILE" },
    { "name", 0, 0, G_OPTION_ARG_STRING, &name, N_("Name shown for this drive in comparisons"), "NAME" },
    { "destructive", 0, 0, G_OPTION_ARG_NONE, &destructive, N_("Allow writing to a block device, or to a file holding data Drive Duel did not write, destroying its data"), NULL },
    { "wipe-signatures", 0, 0, G_OPTION_ARG_NONE, &wipe_signatures, N_("Also allow overwriting a target that holds a filesystem, RAID member or partition table"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelRunContext) run_context = NULL;
  DuelTarget *target;
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  DuelPresetOptions options;
  PresetJob job = { 0 };
  int exit_code;
  GString *names;

  names = g_string_new (NULL);
  for (const char * const *n = duel_preset_get_names (); *n != NULL; n++)
    g_string_append_printf (names, "  %-17s %s\n", *n, duel_preset_describe (*n));
  description = g_strdup_printf (_("Presets:\n%s\n"
                                   "Sizes take k, m, g and t suffixes (powers of 1024). A missing file target is\n"
                                   "created at --span or 1 GiB. Writing to a block device needs --destructive."),
                                 names->str);
  g_string_free (names, TRUE);

  context = g_option_context_new (_("--preset NAME [TARGET] — run one of the review’s test scripts"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context, description);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return duel_cli_usage_error (context, "%s", error->message);

  if (preset_name == NULL || preset_name[0] == '\0')
    return duel_cli_usage_error (context, _("--preset needs a name."));

  duel_preset_options_init (&options);
  if (span != NULL && !duel_cli_parse_span (span, &options.span_bytes, &message))
    return duel_cli_usage_error (context, "%s", message);
  /* Unset, each stays 0: the preset's own default. */
  if ((capacity_multiple_text != NULL &&
       !duel_cli_parse_number ("--capacity-multiple", capacity_multiple_text, 0, 100, FALSE,
                               &capacity_multiple, &message)) ||
      (runtime != NULL && !duel_cli_parse_number ("--runtime", runtime, 0, 1e7, FALSE, &runtime_s, &message)) ||
      (round != NULL && !duel_cli_parse_number ("--round", round, 0, 86400, FALSE, &round_s, &message)) ||
      (probe != NULL && !duel_cli_parse_number ("--probe", probe, 0, 600, TRUE, &probe_s, &message)))
    return duel_cli_usage_error (context, "%s", message);
  options.capacity_multiple = capacity_multiple;
  options.runtime_ms = (guint64) llround (runtime_s * 1000.0);
  options.round_ms = (guint64) llround (round_s * 1000.0);
  if ((runtime != NULL && options.runtime_ms == 0) || (round != NULL && options.round_ms == 0))
    return duel_cli_usage_error (context, _("--runtime and --round must be at least 1 ms."));
  if (interval_ms != G_MININT &&
      (interval_ms < (int) DUEL_WORKLOAD_MIN_INTERVAL_MS || interval_ms > (int) DUEL_WORKLOAD_MAX_INTERVAL_MS))
    return duel_cli_usage_error (context, _("--interval-ms must be between %u and %u."),
                                 DUEL_WORKLOAD_MIN_INTERVAL_MS, DUEL_WORKLOAD_MAX_INTERVAL_MS);
  options.interval_ms = interval_ms != G_MININT ? (guint) interval_ms : 0;
  options.no_trim = no_trim;

  preset = duel_preset_new (preset_name, &options, &error);
  if (preset == NULL)
    return duel_cli_usage_error (context, "%s", error->message);

  if (!duel_cli_target_args_ok (rest, &message))
    return duel_cli_usage_error (context, "%s", message);
  target_path = duel_cli_target_path (rest);
  /* The result must be keepable before the target is touched. */
  if (output != NULL && !duel_preflight_output (output, DUEL_PREFLIGHT_RESULT_ROOM, &error))
    {
      duel_cli_print_error (error);
      return DUEL_CLI_EXIT_FAILED;
    }

  /* Every preset writes: mounted, held, busy or system disks are refused,
   * a block device needs --destructive, an image with a signature
   * --wipe-signatures. A file target is created or extended to cover the
   * span, never shrunk. */
  run_context = duel_run_context_new (target_path, TRUE,
                                      (destructive ? DUEL_SAFETY_DESTRUCTIVE : 0) |
                                      (wipe_signatures ? DUEL_SAFETY_WIPE_SIGNATURES : 0),
                                      options.span_bytes, &error);
  if (run_context == NULL)
    {
      duel_cli_print_error (error);
      return DUEL_CLI_EXIT_FAILED;
    }
  target = duel_run_context_get_target (run_context);

  /* Check the plan against the target before any I/O. */
  if (!duel_preset_prepare (preset, target, &error))
    {
      duel_cli_print_error (error);
      return DUEL_CLI_EXIT_FAILED;
    }

  result = duel_result_new ();
  duel_run_context_fill_result (run_context, result);
  if (name != NULL)
    duel_result_set_name (result, name);

  {
    g_autofree char *size = g_format_size_full (duel_target_get_size (target), G_FORMAT_SIZE_IEC_UNITS);

    /* TRANSLATORS: preset name, target path, its size, the number of steps */
    printf (_("Preset %s on %s (%s): %u steps.\n"), duel_preset_get_name (preset),
            target_path, size, duel_preset_get_n_steps (preset));
    fflush (stdout);
  }

  cancellable = g_cancellable_new ();

  job.run_context = run_context;
  job.preset = preset;
  job.target = target;
  job.result = result;
  job.output = output;
  job.cancellable = cancellable;
  job.probe_ms = (guint64) llround (probe_s * 1000.0);
  job.progress_percent = -1;

  duel_preset_set_progress_func (preset, progress_cb, &job, NULL);
  duel_preset_set_checkpoint_func (preset, checkpoint_cb, &job, NULL);

  duel_run_context_start (run_context);
  duel_cli_run_worker (run_thread, &job, cancellable);
  duel_run_context_finish (run_context, result);

  duel_preset_set_progress_func (preset, NULL, NULL, NULL);
  duel_preset_set_checkpoint_func (preset, NULL, NULL, NULL);

  print_all_figures (result);
  exit_code = duel_cli_conclude_run (result, output, job.ok, job.error);
  g_clear_error (&job.error);
  return exit_code;
}
