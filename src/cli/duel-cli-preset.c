/* duel-cli-preset.c — `driveduel-cli run --preset NAME`: the review's test scripts
 *
 * The options become a DuelPreset run by a DuelRun, which does the rest:
 * preflight, safety, a short probe for the estimate, checkpoints, the final
 * save. This file prints what the run reports, in the main loop, which also
 * turns SIGINT and SIGTERM into a stop.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/duel-cdm-grid.h"
#include "duel-cli.h"
#include "analysis/duel-rounds.h"
#include "duel-cli-figures.h"
#include "analysis/duel-comparison.h"
#include "duel-error.h"
#include "run/duel-preset.h"
#include "run/duel-probe.h"
#include "device/duel-safety.h"
#include "duel-size.h"
#include "engine/duel-workload-option.h"
#include "duel-text.h"



typedef struct
{
  DuelRun         *run;
  DuelCliProgress *progress;
  int              progress_percent;
  double           probe_s;
  gboolean         announced;
} PresetView;

static void
print_estimate (const DuelPresetEstimate *estimate)
{
  g_autofree char *total = duel_text_format_duration (estimate->total_seconds);
  g_autofree char *timed = duel_text_format_duration (estimate->timed_seconds);

  if (estimate->fill_bytes > 0)
    {
      g_autofree char *fill = duel_text_format_duration (estimate->fill_seconds);
      g_autofree char *fill_size = g_format_size (estimate->fill_bytes);

      if (isfinite (estimate->probe_write_iops))
        {
          /* TRANSLATORS: the estimate printed before a preset runs */
          printf (_("Estimated duration: at least %s — writing %s at the %.0f IOPS of a %.0f s probe takes %s "
                    "(a drive slows down as it fills, so a real 2x fill of a large drive takes hours), "
                    "plus %s of timed tests.\n"),
                  total, fill_size, estimate->probe_write_iops, estimate->probe_ms / 1e3, fill, timed);
          if (estimate->probe_fall_bytes > 0)
            {
              g_autofree char *cache = g_format_size (estimate->probe_fall_bytes);

              /* TRANSLATORS: after the estimate; %s is a size such as "51.0 MB" */
              printf (_("The probe's write rate fell to %.0f IOPS after %s: a write cache of about that size ran out.\n"),
                      estimate->probe_end_write_iops, cache);
            }
        }
      else
        printf (_("Estimated duration: %s of timed tests plus writing %s (no probe was run).\n"),
                timed, fill_size);
    }
  else
    printf (_("Estimated duration: %s.\n"), total);
  fflush (stdout);
}

/* Each test's part of the estimate, before it starts, where the preset
 * runs more than one or rests the drive: "  Recovery after idle: 37 min
 * 10 s, 35 min 00 s of it idle". A fill's part is the estimate's lower
 * bound, as the total's is. */
static void
print_estimate_by_test (DuelPreset               *preset,
                        const DuelPresetEstimate *estimate)
{
  g_auto(GStrv) lines = duel_preset_describe_estimate_by_test (preset, estimate);

  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    printf ("  %s\n", lines[i]);
  fflush (stdout);
}

/* The step as people call it: "Quality of service: 4K random read QD1". */
static char *
step_title (const DuelPresetStep *step)
{
  if (step->kind == DUEL_PRESET_STEP_DISCARD)
    return g_strdup (_("Trim"));
  return duel_review_describe_record (step->name);
}

static char *
describe_step (const DuelPresetStep *step)
{
  const DuelWorkload *w = &step->workload;
  g_autofree char *access = NULL;
  g_autofree char *stop = NULL;

  if (step->kind == DUEL_PRESET_STEP_DISCARD)
    return g_strdup (_("discard the span (TRIM / punch hole)"));
  if (step->kind == DUEL_PRESET_STEP_IDLE)
    {
      g_autofree char *length = duel_text_format_duration (step->idle_ms / 1e3);

      /* TRANSLATORS: e.g. "no I/O for 5 min 00 s while the drive recovers; the next step measures what came back" */
      return g_strdup_printf (_("no I/O for %s while the drive recovers; the next step measures what came back"), length);
    }

  /* The window's words ("4 KiB random write"), not fio's. */
  access = duel_workload_describe_access (w);
  if (w->size_multiple > 0 && w->runtime_ms > 0)
    stop = g_strdup_printf (_("until %gx the span is written or %.0f s"), w->size_multiple, w->runtime_ms / 1e3);
  else if (w->size_multiple > 0)
    stop = g_strdup_printf (_("until %gx the span is written"), w->size_multiple);
  else if (w->runtime_ms < 1000)
    /* TRANSLATORS: a test's length under a second */
    stop = g_strdup_printf (_("for %" PRIu64 " ms"), w->runtime_ms);
  else
    stop = g_strdup_printf (_("for %.0f s"), w->runtime_ms / 1e3);

  if (w->numjobs > 1)
    /* TRANSLATORS: e.g. "4 KiB random read, QD32 in each of 16 jobs, for 5 s" */
    return g_strdup_printf (_("%s, QD%u in each of %u jobs, %s"), access, w->queue_depth, w->numjobs, stop);
  /* TRANSLATORS: e.g. "4 KiB random 50/50 read/write, QD32, for 60 s" */
  return g_strdup_printf (_("%s, QD%u, %s"), access, w->queue_depth, stop);
}

/* The plan once the target is open, the probe, the estimate: each printed
 * once, as the run's state passes them. */
static void
state_cb (DuelRun    *run,
          GParamSpec *pspec,
          PresetView *view)
{
  DuelPreset *preset = duel_run_get_preset (run);
  DuelRunState state = duel_run_get_state (run);
  DuelPresetEstimate estimate;

  if (!view->announced && (state == DUEL_RUN_STATE_PROBING || state == DUEL_RUN_STATE_RUNNING))
    {
      g_autofree char *size = g_format_size_full (duel_run_get_status (run)->target_size, G_FORMAT_SIZE_IEC_UNITS);

      view->announced = TRUE;
      /* TRANSLATORS: preset name, target path, its size, the number of steps */
      printf (g_dngettext (GETTEXT_PACKAGE, "Preset %s on %s (%s): %u step.\n", "Preset %s on %s (%s): %u steps.\n",
                           duel_preset_get_n_steps (preset)),
              duel_preset_get_name (preset), duel_run_get_target_path (run), size, duel_preset_get_n_steps (preset));
    }
  if (state == DUEL_RUN_STATE_PROBING)
    /* TRANSLATORS: the probe's shortest and longest length in seconds */
    printf (_("Probing the write speed for %.0f to %.0f s to estimate the duration…\n"),
            view->probe_s, duel_probe_longest_ms ((guint64) llround (view->probe_s * 1000.0)) / 1e3);
  if (state == DUEL_RUN_STATE_RUNNING && duel_run_get_estimate (run, &estimate))
    {
      print_estimate (&estimate);
      print_estimate_by_test (preset, &estimate);
    }
  fflush (stdout);
}

static void
step_started_cb (DuelRun    *run,
                 guint       index,
                 guint       n_steps,
                 const char *name,
                 double      fraction_done,
                 PresetView *view)
{
  const DuelPresetStep *step = duel_preset_get_step (duel_run_get_preset (run), index);
  g_autofree char *what = describe_step (step);
  g_autofree char *title = step_title (step);

  g_clear_pointer (&view->progress, duel_cli_progress_free);
  if (step->round > 0)
    /* TRANSLATORS: step number, steps, % done, the test's title, its round, the most rounds, what it does */
    /* The test's title, not the cell's: what the cell does follows. */
    printf (_("[%u/%u, %d %%] %s, round %u of at most %u: %s\n"), index + 1, n_steps,
            (int) floor (fraction_done * 100.0), step->test != NULL ? _(step->test->title) : title,
            step->round, step->max_rounds, what);
  else if (step->passes > 1)
    /* TRANSLATORS: step number, steps, % done, the test's title, its pass, passes, what it does */
    printf (_("[%u/%u, %d %%] %s, pass %u of %u: %s\n"), index + 1, n_steps, (int) floor (fraction_done * 100.0),
            title, step->pass, step->passes, what);
  else
    printf (_("[%u/%u, %d %%] %s: %s\n"), index + 1, n_steps, (int) floor (fraction_done * 100.0),
            title, what);
  fflush (stdout);
}

static void
progress_cb (DuelRun    *run,
             PresetView *view)
{
  const DuelRunStatus *status = duel_run_get_status (run);
  int percent = (int) floor (status->fraction_done * 100.0);

  if (status->state != DUEL_RUN_STATE_RUNNING || status->test_name == NULL ||
      g_strcmp0 (status->test_name, DUEL_REVIEW_TRIM_NAME) == 0)
    return;

  /* The label carries the whole preset's progress; rebuild it when that moves. */
  if (view->progress == NULL || percent != view->progress_percent)
    {
      g_autofree char *title = duel_review_describe_record (status->test_name);
      g_autofree char *label = g_strdup_printf ("[%u/%u, %d %%] %s", status->test_index + 1,
                                                status->n_tests, percent, title);

      g_clear_pointer (&view->progress, duel_cli_progress_free);
      view->progress = duel_cli_progress_new (label);
      view->progress_percent = percent;
    }
  duel_cli_progress_set_eta (view->progress, status);
  duel_cli_progress_update (view->progress, &status->engine);
}

/* --block-sizes: "4k,128k,512". */
static gboolean
parse_block_sizes (const char         *text,
                   DuelPresetOptions  *options,
                   char              **out_message)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *ignored = NULL;
      guint64 size = 0;

      if (options->n_matrix_block_sizes == DUEL_PRESET_MAX_MATRIX)
        {
          *out_message = g_strdup_printf (_("--block-sizes takes at most %u sizes."), DUEL_PRESET_MAX_MATRIX);
          return FALSE;
        }
      if (!duel_cli_parse_span (g_strstrip (parts[i]), &size, &ignored) || size > G_MAXUINT32)
        {
          *out_message = g_strdup_printf (_("--block-sizes takes sizes such as 4k or 512, comma-separated, not “%s”."),
                                          text);
          return FALSE;
        }
      options->matrix_block_sizes[options->n_matrix_block_sizes++] = (guint32) size;
    }
  return TRUE;
}

/* --mixes: read percentages, "100,65,0". */
static gboolean
parse_mixes (const char         *text,
             DuelPresetOptions  *options,
             char              **out_message)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint64 percent = 0;

      if (options->n_matrix_read_percents == DUEL_PRESET_MAX_MATRIX)
        {
          *out_message = g_strdup_printf (_("--mixes takes at most %u mixes."), DUEL_PRESET_MAX_MATRIX);
          return FALSE;
        }
      if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 0, 100, &percent, NULL))
        {
          *out_message = g_strdup_printf (_("--mixes takes read percentages from 0 to 100, comma-separated, not “%s”."),
                                          text);
          return FALSE;
        }
      options->matrix_read_percents[options->n_matrix_read_percents++] = (guint) percent;
    }
  return TRUE;
}

static void
print_all_figures (DuelResult *result)
{
  GPtrArray *tests = duel_result_get_tests (result);

  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      g_autoptr(DuelSummary) summary = NULL;

      /* A round's cells are told by the matrix (duel_cli_print_rounds()). */
      if (duel_rounds_record_in_round (record))
        continue;
      summary = duel_analysis_resummarize (record, NULL, NULL);

      if (summary != NULL)
        {
          duel_cli_print_figures (record, summary, NULL);
          duel_cli_print_ceiling_notes (result, record, summary);
        }
    }
}

/* Tests run in passes, as CrystalDiskMark reports them: the best pass,
 * with the mean and the spread beside it, from the comparison's rows. The
 * CrystalDiskMark set's own steps are left to its grid, which says the same. */
static void
print_passes (DuelResult *result)
{
  g_autoptr(DuelComparison) comparison = duel_comparison_new (result, NULL, NULL);
  const char *test = NULL;
  gboolean any = FALSE;

  if (comparison == NULL)
    return;
  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, i);
      g_autofree char *words = NULL;

      if (row->kind != DUEL_COMPARISON_ROW_FIGURE || row->n_passes[0] < 2 || duel_cdm_grid_has_step (row->test))
        continue;
      if (!any)
        /* TRANSLATORS: heading of the summary of tests run in passes */
        printf ("\n%s\n", _("Best pass of each test run in passes:"));
      any = TRUE;
      if (g_strcmp0 (test, row->test) != 0)
        {
          test = row->test;
          /* TRANSLATORS: a test's title and how many passes it ran */
          printf (g_dngettext (GETTEXT_PACKAGE, "%s (%u pass)\n", "%s (%u passes)\n", row->n_passes[0]),
                  duel_comparison_get_section_title (comparison, test), row->n_passes[0]);
        }
      words = duel_comparison_row_format_passes (row, 0);
      printf ("  %-40s %s\n", row->label, words);
    }
}

int
duel_cli_run_preset (int    argc,
                     char **argv)
{
  g_autofree char *preset_name = NULL;
  g_autofree char *span = NULL;
  g_autofree char *output = NULL;
  g_autofree char *result_path = NULL;
  g_autofree char *unkept = NULL;
  g_autofree char *name = NULL;
  g_autofree char *target_path = NULL;
  g_autofree char *description = NULL;
  g_auto(GStrv) rest = NULL;
  g_autofree char *capacity_multiple_text = NULL, *runtime = NULL, *round = NULL, *probe = NULL;
  g_autofree char *passes = NULL, *rounds = NULL, *block_sizes = NULL, *mixes = NULL;
  g_autofree char *data_limit = NULL, *slope_limit = NULL, *idle = NULL;
  double data_limit_value = 0, slope_limit_value = 0;
  g_autofree char *preset_help = NULL;
  g_autofree char *message = NULL;
  double capacity_multiple = 0, runtime_s = 0, round_s = 0, probe_s = DUEL_RUN_DEFAULT_PROBE_MS / 1e3;
  g_autofree char *interval_ms = NULL;
  gboolean no_trim = FALSE, destructive = FALSE, wipe_signatures = FALSE, overwrite_output = FALSE, no_history = FALSE;
  GOptionEntry entries[] = {
    { "preset", 0, 0, G_OPTION_ARG_STRING, &preset_name, NULL, "NAME" },
    { "capacity-multiple", 0, 0, G_OPTION_ARG_STRING, &capacity_multiple_text, N_("Write saturation: write this many times the span (default 2)"), "N" },
    { "span", 0, 0, G_OPTION_ARG_STRING, &span, N_("Use this many bytes from the start of the target (default: all of it; quick and CrystalDiskMark: at most 1 GiB)"), "BYTES" },
    { "runtime", 0, 0, G_OPTION_ARG_STRING, &runtime, N_("Length of every timed test in seconds (read score, consistency, each QoS, standard and CrystalDiskMark test)"), "SECONDS" },
    { "passes", 0, 0, G_OPTION_ARG_STRING, &passes, N_("Run every timed test this many times, 1 to 100, each pass a test of its own; the comparison keeps the best (default: the preset’s, 1; CrystalDiskMark 5)"), "N" },
    { "round", 0, 0, G_OPTION_ARG_STRING, &round, N_("Steady-state round length in seconds (default 60)"), "SECONDS" },
    { "rounds", 0, 0, G_OPTION_ARG_STRING, &rounds, N_("SNIA tests: run at most this many rounds to steady state (default 25)"), "N" },
    { "data-limit", 0, 0, G_OPTION_ARG_STRING, &data_limit, N_("SNIA tests: steady when the last rounds’ range is at most this share of their mean (default 0.2)"), "SHARE" },
    { "slope-limit", 0, 0, G_OPTION_ARG_STRING, &slope_limit, N_("SNIA tests: steady when their fitted line moves by at most this share of their mean (default 0.1)"), "SHARE" },
    { "block-sizes", 0, 0, G_OPTION_ARG_STRING, &block_sizes, N_("SNIA tests: run only these block sizes of the matrix, comma-separated (e.g. 4k,128k)"), "LIST" },
    { "mixes", 0, 0, G_OPTION_ARG_STRING, &mixes, N_("SNIA tests: run only these read/write mixes of the matrix, as read percentages, comma-separated (e.g. 100,65,0)"), "LIST" },
    { "idle", 0, 0, G_OPTION_ARG_STRING, &idle, N_("Recovery after idle: the idle periods, each followed by a burst of writes, comma-separated, with s, m or h (default 5m,30m)"), "LIST" },
    { "interval-ms", 0, 0, G_OPTION_ARG_STRING, &interval_ms, N_("Time-series interval in milliseconds (default 1000)"), "MS" },
    { "no-trim", 0, 0, G_OPTION_ARG_NONE, &no_trim, N_("Do not discard the span before the write saturation"), NULL },
    { "probe", 0, 0, G_OPTION_ARG_STRING, &probe, N_("Shortest 4K random write used to estimate the duration, in seconds; it runs on up to 20 s while the write rate has not fallen (default 2, 0 skips)"), "SECONDS" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the result file here (JSON), checkpointed during the run"), "FILE" },
    { "overwrite-output", 0, 0, G_OPTION_ARG_NONE, &overwrite_output, N_("Let the result replace an existing file that is not a Drive Duel result"), NULL },
    { "no-history", 0, 0, G_OPTION_ARG_NONE, &no_history, N_("Without --output, keep no result file (by default it joins the history the app lists)"), NULL },
    { "name", 0, 0, G_OPTION_ARG_STRING, &name, N_("Name shown for this drive in comparisons"), "NAME" },
    { "destructive", 0, 0, G_OPTION_ARG_NONE, &destructive, N_("Allow writing to a block device, or to a file holding data Drive Duel did not write, destroying its data"), NULL },
    { "wipe-signatures", 0, 0, G_OPTION_ARG_NONE, &wipe_signatures, N_("With --destructive, also allow it when the target holds a filesystem, RAID member or partition table"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelRun) run = NULL;
  DuelPresetOptions options;
  PresetView view = { 0 };
  gboolean ok;
  int exit_code;
  GString *names;

  names = g_string_new (NULL);
  for (const char * const *n = duel_preset_get_names (); *n != NULL; n++)
    g_string_append_printf (names, "  %-21s %s\n", *n, duel_preset_describe (*n));
  {
    g_autofree char *list = g_strjoinv (", ", (char **) duel_preset_get_names ());

    /* TRANSLATORS: --preset's help; %s lists the preset names */
    preset_help = g_strdup_printf (_("The preset to run: %s"), list);
    entries[0].description = preset_help;
  }
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
  if (span != NULL && (!duel_cli_parse_span (span, &options.span_bytes, &message) ||
                       !duel_cli_check_aligned ("--span", options.span_bytes, &message)))
    return duel_cli_usage_error (context, "%s", message);
  /* Unset, each stays 0: the preset's own default. */
  if ((capacity_multiple_text != NULL &&
       !duel_cli_parse_number ("--capacity-multiple", capacity_multiple_text, 0, 100, FALSE,
                               &capacity_multiple, &message)) ||
      (runtime != NULL && !duel_cli_parse_number ("--runtime", runtime, 0, 1e7, FALSE, &runtime_s, &message)) ||
      (round != NULL && !duel_cli_parse_number ("--round", round, 0, 86400, FALSE, &round_s, &message)) ||
      (probe != NULL && !duel_cli_parse_number ("--probe", probe, 0, 600, TRUE, &probe_s, &message)) ||
      (data_limit != NULL && !duel_cli_parse_number ("--data-limit", data_limit, 0, 10, FALSE, &data_limit_value, &message)) ||
      (slope_limit != NULL && !duel_cli_parse_number ("--slope-limit", slope_limit, 0, 10, FALSE, &slope_limit_value, &message)))
    return duel_cli_usage_error (context, "%s", message);
  if (passes != NULL)
    {
      guint64 n = 0;

      /* A whole number: "2.5" passes, "x" or "0" are refused in one sentence. */
      if (!g_ascii_string_to_unsigned (passes, 10, 1, DUEL_PRESET_MAX_PASSES, &n, NULL))
        return duel_cli_usage_error (context, _("--passes takes a whole number from 1 to %u, not “%s”."),
                                     DUEL_PRESET_MAX_PASSES, passes);
      options.passes = (guint) n;
    }
  if (rounds != NULL)
    {
      guint64 n = 0;

      if (!g_ascii_string_to_unsigned (rounds, 10, 1, DUEL_PRESET_MAX_ROUNDS, &n, NULL))
        return duel_cli_usage_error (context, _("--rounds takes a whole number from 1 to %u, not “%s”."),
                                     DUEL_PRESET_MAX_ROUNDS, rounds);
      options.max_rounds = (guint) n;
    }
  if (block_sizes != NULL && !parse_block_sizes (block_sizes, &options, &message))
    return duel_cli_usage_error (context, "%s", message);
  if (mixes != NULL && !parse_mixes (mixes, &options, &message))
    return duel_cli_usage_error (context, "%s", message);
  if (idle != NULL && !duel_preset_parse_idle (idle, &options, &error))
    return duel_cli_usage_error (context, "--idle: %s", error->message);
  options.data_limit = data_limit_value;
  options.slope_limit = slope_limit_value;
  options.capacity_multiple = capacity_multiple;
  options.runtime_ms = (guint64) llround (runtime_s * 1000.0);
  options.round_ms = (guint64) llround (round_s * 1000.0);
  if ((runtime != NULL && options.runtime_ms == 0) || (round != NULL && options.round_ms == 0))
    return duel_cli_usage_error (context, _("--runtime and --round must be at least 1 ms."));
  if (interval_ms != NULL)
    {
      const DuelWorkloadOption *option = duel_workload_option_get (DUEL_WORKLOAD_OPTION_INTERVAL);
      DuelWorkload scratch;

      duel_workload_init (&scratch);
      if (!duel_workload_option_parse_cli (option, interval_ms, &scratch, &error))
        return duel_cli_usage_error (context, "--%s: %s", option->cli_name, error->message);
      options.interval_ms = scratch.interval_ms;
    }
  options.no_trim = no_trim;

  /* The CLI's own run is the custom test, with every fio option. */
  if (duel_preset_name_has_chosen_workload (preset_name))
    return duel_cli_usage_error (context, "%s",
                                 _("The custom test is a plain run here: run without --preset, with "
                                   "--rw, --bs, --iodepth, --numjobs and --runtime."));
  preset = duel_preset_new (preset_name, &options, &error);
  if (preset == NULL)
    return duel_cli_usage_error (context, "%s", error->message);

  if (!duel_cli_target_args_ok (rest, &message))
    return duel_cli_usage_error (context, "%s", message);
  if (!duel_cli_output_arg_ok (output, &message))
    return duel_cli_usage_error (context, "%s", message);
  target_path = duel_cli_target_path (rest);
  result_path = duel_cli_result_path (output, no_history, name, target_path, &unkept);

  /* Every preset writes: mounted, held, busy or system disks are refused,
   * a block device needs --destructive, an image with a signature
   * --wipe-signatures; the result must be keepable. All before the first
   * byte reaches the target. A file target is created or extended to cover
   * the span, never shrunk. */
  run = duel_run_new (target_path);
  duel_run_set_output (run, result_path);
  duel_cli_say_unkept (run, g_steal_pointer (&unkept));
  duel_run_set_output_overwrite (run, overwrite_output);
  duel_run_set_name (run, name);
  duel_run_set_safety (run,
                       (destructive ? DUEL_SAFETY_DESTRUCTIVE : 0) |
                       (wipe_signatures ? DUEL_SAFETY_WIPE_SIGNATURES : 0),
                       options.span_bytes);
  duel_run_set_preset (run, preset);
  duel_run_set_probe_ms (run, (guint64) llround (probe_s * 1000.0));

  view.run = run;
  view.progress_percent = -1;
  view.probe_s = probe_s;
  g_signal_connect (run, "notify::state", G_CALLBACK (state_cb), &view);
  g_signal_connect (run, "step-started", G_CALLBACK (step_started_cb), &view);
  g_signal_connect (run, "progress", G_CALLBACK (progress_cb), &view);

  ok = duel_cli_run_and_wait (run, &error);
  g_clear_pointer (&view.progress, duel_cli_progress_free);
  g_signal_handlers_disconnect_by_data (run, &view);

  if (duel_run_get_result (run) == NULL && !view.announced)
    {
      /* Refused before the first byte: nothing was measured. */
      duel_cli_print_error (error);
      return duel_cli_exit_code_refused (error);
    }

  if (duel_run_get_result (run) != NULL)
    {
      print_all_figures (duel_run_get_result (run));
      print_passes (duel_run_get_result (run));
      duel_cli_print_cdm_grid (duel_run_get_result (run));
      duel_cli_print_rounds (duel_run_get_result (run));
    }
  duel_cli_print_history_note (run, output);
  exit_code = duel_cli_conclude_run (run, ok, error);
  return exit_code;
}
