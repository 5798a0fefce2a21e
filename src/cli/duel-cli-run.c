/* duel-cli-run.c — `driveduel-cli run`: one workload, fio's option names
 *
 * The options become one workload of a DuelRun, which does the rest:
 * preflight, safety, checkpoints, the final save. The main loop prints its
 * progress and turns SIGINT and SIGTERM into a stop.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/duel-block-node.h"
#include "duel-cli.h"
#include "duel-cli-figures.h"
#include "duel-error.h"
#include "run/duel-preset.h"
#include "engine/duel-workload-option.h"

static void
progress_cb (DuelRun         *run,
             DuelCliProgress *progress)
{
  duel_cli_progress_set_eta (progress, duel_run_get_status (run));
  duel_cli_progress_update (progress, &duel_run_get_status (run)->engine);
}

static gboolean
has_preset_argument (int    argc,
                     char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0)
        break;
      if (strcmp (argv[i], "--preset") == 0 || g_str_has_prefix (argv[i], "--preset="))
        return TRUE;
    }
  return FALSE;
}

int
duel_cli_run (int    argc,
              char **argv)
{
  g_autofree char *rw = NULL;
  g_autofree char *bs = NULL;
  g_autofree char *size = NULL;
  g_autofree char *span = NULL;
  g_autofree char *offset = NULL;
  g_autofree char *output = NULL;
  g_autofree char *result_path = NULL;
  g_autofree char *unkept = NULL;
  g_autofree char *name = NULL;
  g_autofree char *target_path = NULL;
  g_autofree char *runtime = NULL;
  g_autofree char *numjobs = NULL;
  g_autofree char *iodepth = NULL;
  g_autofree char *rwmixread = NULL;
  g_autofree char *interval_ms = NULL;
  g_autofree char *seed = NULL;
  g_autofree char *message = NULL;
  g_autofree char *description = NULL;
  g_auto(GStrv) rest = NULL;
  struct stat target_st;
  double runtime_s = 0;
  gboolean destructive = FALSE, wipe_signatures = FALSE, overwrite_output = FALSE, no_history = FALSE;
  GOptionEntry entries[] = {
    { "rw", 0, 0, G_OPTION_ARG_STRING, &rw, N_("Access pattern: randread, randwrite, randrw, read, write or rw (default randread)"), "PATTERN" },
    { "bs", 0, 0, G_OPTION_ARG_STRING, &bs, N_("Block size, e.g. 4k (default 4k)"), "SIZE" },
    { "iodepth", 0, 0, G_OPTION_ARG_STRING, &iodepth, N_("Queue depth (default 32)"), "N" },
    { "numjobs", 0, 0, G_OPTION_ARG_STRING, &numjobs, N_("Jobs at once, each with its own queue of --iodepth I/Os; one result for them all (default 1)"), "N" },
    { "rwmixread", 0, 0, G_OPTION_ARG_STRING, &rwmixread, N_("Read percentage of a mixed pattern (default 50)"), "PERCENT" },
    { "runtime", 0, 0, G_OPTION_ARG_STRING, &runtime, N_("Stop after this many seconds"), "SECONDS" },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, N_("Stop after transferring this much: bytes, or a multiple of the span such as 2x"), "BYTES|Nx" },
    { "span", 0, 0, G_OPTION_ARG_STRING, &span, N_("Length of the region used (default: to the end of the target)"), "BYTES" },
    { "offset", 0, 0, G_OPTION_ARG_STRING, &offset, N_("Start of the region used (default 0)"), "BYTES" },
    { "interval-ms", 0, 0, G_OPTION_ARG_STRING, &interval_ms, N_("Time-series interval in milliseconds (default 1000, at least 100)"), "MS" },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &seed, N_("Seed of the random offsets (default: fixed, recorded in the result)"), "N" },
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
  g_autoptr(DuelRun) run = NULL;
  DuelSafetyFlags safety_flags = DUEL_SAFETY_FLAGS_NONE;
  g_autoptr(DuelCliProgress) progress = NULL;
  DuelWorkload workload;
  gboolean ok;
  int exit_code;

  if (has_preset_argument (argc, argv))
    return duel_cli_run_preset (argc, argv);

  /* --preset hands the run to duel-cli-preset.c, whose options are its own:
   * say so here, or `run --help` never mentions them. */
  {
    g_autoptr(GString) names = g_string_new ("  ");
    g_autofree char *presets = NULL;
    guint column = 2;

    for (const char * const *n = duel_preset_get_names (); *n != NULL; n++)
      {
        guint length = strlen (*n) + (n[1] != NULL ? 1 : 0);

        if (column > 2 && column + 1 + length > 78)
          {
            g_string_append (names, "\n  ");
            column = 2;
          }
        else if (column > 2)
          {
            g_string_append_c (names, ' ');
            column++;
          }
        g_string_append_printf (names, "%s%s", *n, n[1] != NULL ? "," : "");
        column += length;
      }
    presets = g_strdup_printf (
      /* TRANSLATORS: `driveduel-cli run --help`; %s lists the preset names,
       * one indented line or more. Keep the option names and the command
       * as they are. */
      _("--preset NAME runs one of the review’s test scripts instead. NAME is one of:\n"
        "%s\n"
        "A preset run takes options of its own, among them --round SECONDS (steady-state\n"
        "round), --probe SECONDS (duration estimate), --passes N, --capacity-multiple N\n"
        "and --no-trim; “driveduel-cli run --preset NAME --help” lists them all."),
      names->str);
    description = g_strconcat (_("Without TARGET, a 1 GiB scratch file in your cache directory is used.\n"
                                 "Sizes take k, m, g and t suffixes (powers of 1024). Writing to a block device\n"
                                 "needs --destructive and is refused when the device is mounted or in use."),
                               "\n\n", presets, NULL);
  }

  context = g_option_context_new (_("[TARGET] — run one workload on a file or a block device"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context, description);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return duel_cli_usage_error (context, "%s", error->message);

  duel_workload_init (&workload);
  if (rw != NULL && !duel_workload_set_rw_name (&workload, rw, &error))
    return duel_cli_usage_error (context, "%s", error->message);
  {
    /* Names, syntax and ranges from the workload's option table. */
    const struct { DuelWorkloadOptionId id; const char *text; } given[] = {
      { DUEL_WORKLOAD_OPTION_BLOCK_SIZE, bs },
      { DUEL_WORKLOAD_OPTION_QUEUE_DEPTH, iodepth },
      { DUEL_WORKLOAD_OPTION_NUMJOBS, numjobs },
      { DUEL_WORKLOAD_OPTION_INTERVAL, interval_ms },
      { DUEL_WORKLOAD_OPTION_SEED, seed },
    };

    for (guint i = 0; i < G_N_ELEMENTS (given); i++)
      {
        const DuelWorkloadOption *option = duel_workload_option_get (given[i].id);

        if (given[i].text != NULL && !duel_workload_option_parse_cli (option, given[i].text, &workload, &error))
          return duel_cli_usage_error (context, "--%s: %s", option->cli_name, error->message);
      }
  }
  if (rwmixread != NULL)
    {
      const DuelWorkloadOption *option = duel_workload_option_get (DUEL_WORKLOAD_OPTION_READ_PERCENT);
      DuelWorkload mix = workload;

      if (!duel_workload_option_parse_cli (option, rwmixread, &mix, &error))
        return duel_cli_usage_error (context, "--%s: %s", option->cli_name, error->message);
      if (!duel_workload_is_mixed (&workload))
        {
          if (rw != NULL && strstr (rw, "rw") == NULL)
            return duel_cli_usage_error (context, _("--rwmixread only applies to --rw randrw or rw."));
          /* --rwmixread alone implies a mixed random run, as in fio. */
        }
      workload.read_percent = mix.read_percent;
    }
  if (runtime != NULL && !duel_cli_parse_number ("--runtime", runtime, 0, 1e9, FALSE, &runtime_s, &message))
    return duel_cli_usage_error (context, "%s", message);
  workload.runtime_ms = (guint64) (runtime_s * 1000.0 + 0.5);
  if (runtime != NULL && workload.runtime_ms == 0)
    return duel_cli_usage_error (context, _("--runtime must be at least 1 ms."));
  if (!duel_workload_option_check (duel_workload_option_get (DUEL_WORKLOAD_OPTION_RUNTIME), workload.runtime_ms, &error))
    return duel_cli_usage_error (context, "--runtime: %s", error->message);
  if (size != NULL && !duel_parse_size_or_multiple (size, &workload.size_bytes, &workload.size_multiple, &error))
    return duel_cli_usage_error (context, "--size: %s", error->message);
  if (size != NULL && workload.size_bytes == 0 && workload.size_multiple == 0)
    return duel_cli_usage_error (context, _("--size must be more than 0 (bytes, or a multiple such as 2x)."));
  if (span != NULL && !duel_cli_parse_span (span, &workload.span_length, &message))
    return duel_cli_usage_error (context, "%s", message);
  if (offset != NULL && !duel_parse_size (offset, &workload.span_offset, &error))
    return duel_cli_usage_error (context, "--offset: %s", error->message);
  if (workload.runtime_ms == 0 && workload.size_bytes == 0 && workload.size_multiple == 0)
    workload.size_multiple = 1;   /* like fio: one pass over the span */
  if (!duel_workload_validate (&workload, &error))
    return duel_cli_usage_error (context, "%s", error->message);
  /* What no target can take is refused now; the rest against the target's
   * own blocks once it is open, before anything is written (exit 2 too). */
  if (!duel_cli_check_aligned ("--bs", workload.block_size, &message) ||
      !duel_cli_check_aligned ("--offset", workload.span_offset, &message) ||
      !duel_cli_check_aligned ("--span", workload.span_length, &message))
    return duel_cli_usage_error (context, "%s", message);
  if (workload.size_bytes > 0 && workload.size_bytes < workload.block_size)
    return duel_cli_usage_error (context, _("--size: %" PRIu64 " bytes is less than one block of %u bytes."),
                                 workload.size_bytes, workload.block_size);
  /* With the span known, so is the byte limit: one that rounds to less
   * than a block (--size 1e-9x) would otherwise mean no limit at all. */
  if (workload.span_length > 0 &&
      !duel_workload_resolve (&workload, workload.span_offset + workload.span_length,
                              DUEL_WORKLOAD_MIN_LOGICAL_BLOCK_SIZE, NULL, NULL, NULL, &error))
    return duel_cli_usage_error (context, "%s", error->message);

  if (!duel_cli_target_args_ok (rest, &message))
    return duel_cli_usage_error (context, "%s", message);
  if (!duel_cli_output_arg_ok (output, &message))
    return duel_cli_usage_error (context, "%s", message);
  target_path = duel_cli_target_path (rest);
  result_path = duel_cli_result_path (output, no_history, name, target_path, &unkept);

  if (destructive)
    safety_flags |= DUEL_SAFETY_DESTRUCTIVE;
  if (wipe_signatures)
    safety_flags |= DUEL_SAFETY_WIPE_SIGNATURES;

  /* The run checks that the result can be kept and that the target may be
   * written before the first byte reaches it. A file target is created or
   * extended to cover the span, never shrunk. */
  run = duel_run_new (target_path);
  duel_run_set_output (run, result_path);
  duel_cli_say_unkept (run, g_steal_pointer (&unkept));
  duel_run_set_output_overwrite (run, overwrite_output);
  duel_run_set_name (run, name);
  duel_run_set_safety (run, safety_flags,
                       workload.span_length > 0 ? workload.span_offset + workload.span_length : 0);
  duel_run_add_workload (run, duel_workload_get_rw_name (&workload), &workload);

  progress = duel_cli_progress_new (duel_workload_get_rw_name (&workload));
  g_signal_connect (run, "progress", G_CALLBACK (progress_cb), progress);
  ok = duel_cli_run_and_wait (run, &error);
  duel_cli_progress_finish (progress);

  if (duel_run_get_result (run) == NULL)
    {
      /* Refused or failed before the first test started: nothing was measured. */
      duel_cli_print_error (error);
      /* A read run cannot make its scratch file: it would read nothing real. */
      if ((rest == NULL || rest[0] == NULL) && !duel_workload_writes (&workload) &&
          duel_block_node_stat (target_path, &target_st, NULL) != 0)
        g_printerr (_("driveduel-cli: a read run needs data to read; write the scratch file first "
                      "(driveduel-cli run --rw write --bs 1m --size 1x), or give a target.\n"));
      return duel_cli_exit_code_refused (error);
    }

  duel_cli_print_test_summary (g_ptr_array_index (duel_result_get_tests (duel_run_get_result (run)), 0));
  {
    g_autofree char *paused = duel_test_record_dup_pause_note (g_ptr_array_index (duel_result_get_tests (duel_run_get_result (run)), 0));

    /* Under its summary, as analyze says it (a SIGSTOP, a suspend). */
    if (paused != NULL)
      printf ("  %s\n", paused);
  }
  duel_cli_print_ceiling_notes (duel_run_get_result (run),
                                g_ptr_array_index (duel_result_get_tests (duel_run_get_result (run)), 0), NULL);
  duel_cli_print_history_note (run, output);
  exit_code = duel_cli_conclude_run (run, ok, error);
  return exit_code;
}
