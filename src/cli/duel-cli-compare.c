/* duel-cli-compare.c — `compare`, `report` and `import`: results into articles
 *
 *   driveduel-cli compare A.json B.json [C.json [D.json]] --output-dir DIR
 *                 [--format …] [--width W --height H --scale S] [--style light|dark]
 *                 [--units mb|mib|gb] [--overwrite-output]
 *   driveduel-cli report RESULT.json --output-dir DIR [same options]
 *   driveduel-cli import FIO.json [--iops-log FILE] --output RESULT.json [--overwrite-output]
 *
 * Exit codes: 0 done, 1 a file could not be read, was not valid or could not
 * be written, 2 bad options.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <sys/stat.h>

#include "duel-chart-export.h"
#include "duel-cli.h"
#include "analysis/duel-comparison.h"
#include "duel-error.h"
#include "duel-file-writer.h"
#include "fio/duel-fio-import.h"

typedef struct
{
  char   *output_dir;
  char   *formats;
  char   *style;
  char   *units;
  double  width;
  double  height;
  double  scale;
  char  **files;
  gboolean overwrite;
} ExportArgs;

static void
export_args_clear (ExportArgs *args)
{
  g_clear_pointer (&args->output_dir, g_free);
  g_clear_pointer (&args->formats, g_free);
  g_clear_pointer (&args->style, g_free);
  g_clear_pointer (&args->units, g_free);
  g_clear_pointer (&args->files, g_strfreev);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ExportArgs, export_args_clear)

static int
run_export (const char *command,
            guint       n_files,
            const char *usage,
            int         argc,
            char      **argv)
{
  g_auto(ExportArgs) args = { .width = 1200, .height = 675, .scale = 2 };
  GOptionEntry entries[] = {
    { "output-dir", 'o', 0, G_OPTION_ARG_FILENAME, &args.output_dir, N_("Write the charts and reports into this folder"), "DIR" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &args.formats, N_("What to write: png, svg, pdf, csv, md, fio, comma-separated (default: all)"), "LIST" },
    { "width", 0, 0, G_OPTION_ARG_DOUBLE, &args.width, N_("Chart width in pixels at scale 1 (default 1200)"), "W" },
    { "height", 0, 0, G_OPTION_ARG_DOUBLE, &args.height, N_("Chart height in pixels at scale 1 (default 675)"), "H" },
    { "scale", 0, 0, G_OPTION_ARG_DOUBLE, &args.scale, N_("PNG pixels per unit, e.g. 2 for high-density screens (default 2)"), "S" },
    { "style", 0, 0, G_OPTION_ARG_STRING, &args.style, N_("Chart style: light (for articles) or dark (default light)"), "STYLE" },
    { "units", 0, 0, G_OPTION_ARG_STRING, &args.units, N_("Rates in mb (MB/s, the default), mib (MiB/s) or gb (GB/s)"), "UNIT" },
    { "overwrite-output", 0, 0, G_OPTION_ARG_NONE, &args.overwrite, N_("Let the export replace files in the folder that Drive Duel did not write"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &args.files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GPtrArray) written = g_ptr_array_new_with_free_func (g_free);
  DuelChartExportOptions options;
  g_auto(GStrv) warnings = NULL;
  g_autofree char *message = NULL;
  guint given;

  context = g_option_context_new (usage);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Writes every chart as PNG and SVG (with its data as CSV), one PDF report,\n"
      "the summary as CSV and Markdown, and a fio job file per result."));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return duel_cli_usage_error (context, "%s", error->message);

  given = args.files ? g_strv_length (args.files) : 0;
  if (n_files == 1 && given != 1)
    return duel_cli_usage_error (context, _("%s needs one result file, not %u."), command, given);
  if (n_files > 1 && (given < 2 || given > DUEL_COMPARISON_MAX_DRIVES))
    return duel_cli_usage_error (context, _("%s needs two to %u result files, not %u."), command,
                                 DUEL_COMPARISON_MAX_DRIVES, given);
  if (args.output_dir == NULL)
    return duel_cli_usage_error (context, _("%s needs --output-dir."), command);

  duel_chart_export_options_init (&options);
  if (args.formats != NULL && !duel_chart_export_parse_formats (args.formats, &options.formats, &error))
    return duel_cli_usage_error (context, "--format: %s", error->message);
  if (args.style != NULL && !duel_chart_theme_from_string (args.style, &options.theme))
    return duel_cli_usage_error (context, _("--style must be light or dark, not “%s”."), args.style);
  if (!duel_cli_set_units (args.units, &message))
    return duel_cli_usage_error (context, "%s", message);
  if (!(args.width >= 16 && args.width <= 16384) || !(args.height >= 16 && args.height <= 16384))
    return duel_cli_usage_error (context, _("--width and --height must be between 16 and 16384."));
  if (!(args.scale > 0 && args.scale <= 8))
    return duel_cli_usage_error (context, _("--scale must be more than 0 and at most 8."));
  options.width = args.width;
  options.height = args.height;
  options.scale = args.scale;
  options.write_flags = DUEL_WRITE_HINT_OVERWRITE | (args.overwrite ? DUEL_WRITE_REPLACE_ANY : 0);

  comparison = duel_comparison_new_for_pathv ((const char * const *) args.files, given, &error);
  if (comparison == NULL)
    {
      duel_cli_print_error (error);
      return DUEL_CLI_EXIT_FAILED;
    }

  /* Grouped by cause, as the window's banner: one line for the tests a
   * drive did not run, not one per test. */
  warnings = duel_comparison_dup_warning_lines (comparison);
  for (guint i = 0; warnings[i] != NULL; i++)
    g_printerr (_("driveduel-cli: warning: %s\n"), warnings[i]);

  if (!duel_chart_export_all (comparison, args.output_dir, &options, written, &error))
    {
      duel_cli_print_error (error);
      return DUEL_CLI_EXIT_FAILED;
    }

  for (guint i = 0; i < written->len; i++)
    {
      g_autofree char *display = g_filename_display_name (g_ptr_array_index (written, i));
      printf ("%s\n", display);
    }
  return DUEL_CLI_EXIT_OK;
}

int
duel_cli_compare (int    argc,
                  char **argv)
{
  return run_export ("compare", DUEL_COMPARISON_MAX_DRIVES,
                     _("A.json B.json [C.json [D.json]] — compare two to four drives: charts, report, tables"), argc, argv);
}

int
duel_cli_report (int    argc,
                 char **argv)
{
  return run_export ("report", 1, _("RESULT.json — charts, report and tables for one drive"), argc, argv);
}

/* Whether @name in @folder (@output) is neither the fio output nor its IOPS
 * log, by name or as the same file (a hard or symbolic link). */
static gboolean
output_is_not_input (DuelFolder  *folder,
                     const char  *name,
                     const char  *output,
                     const char  *input,
                     const char  *iops_log,
                     GError     **error)
{
  const char *inputs[] = { input, iops_log };
  struct stat out_st, in_st;

  if (duel_folder_stat (folder, name, &out_st) != 0)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    if (inputs[i] != NULL && stat (inputs[i], &in_st) == 0 &&
        in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino)
      {
        g_autofree char *display = g_filename_display_name (output);

        /* TRANSLATORS: the file given to --output */
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                     _("“%s” is the file being imported; write the result to a file of its own."), display);
        return FALSE;
      }
  return TRUE;
}

int
duel_cli_import (int    argc,
                 char **argv)
{
  g_autofree char *iops_log = NULL;
  g_autofree char *output = NULL;
  g_autofree char *name = NULL;
  g_auto(GStrv) files = NULL;
  gboolean overwrite = FALSE;
  GOptionEntry entries[] = {
    { "iops-log", 0, 0, G_OPTION_ARG_FILENAME, &iops_log, N_("fio's IOPS log of the job (--write_iops_log with --log_avg_msec)"), "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the result file here"), "RESULT.json" },
    { "name", 0, 0, G_OPTION_ARG_STRING, &name, N_("Name shown for this drive in comparisons"), "NAME" },
    { "overwrite-output", 0, 0, G_OPTION_ARG_NONE, &overwrite, N_("Let the result replace an existing file that is not a Drive Duel result"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(DuelFolder) folder = NULL;
  g_autofree char *output_name = NULL;
  DuelWriteFlags flags = DUEL_WRITE_REPLACE_RESULT | DUEL_WRITE_REPLACE_EMPTY | DUEL_WRITE_HINT_OVERWRITE;
  GPtrArray *tests;

  context = g_option_context_new (_("FIO.json — turn fio’s --output-format=json+ output into a result file"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return duel_cli_usage_error (context, "%s", error->message);
  if (files == NULL || g_strv_length (files) != 1)
    return duel_cli_usage_error (context, _("import needs one fio JSON file, not %u."),
                                 files ? g_strv_length (files) : 0);
  if (output == NULL)
    return duel_cli_usage_error (context, _("import needs --output."));
  if (*output == '\0')
    return duel_cli_usage_error (context, _("--output needs a file name."));
  if (overwrite)
    flags |= DUEL_WRITE_REPLACE_ANY;

  /* Where the result goes is checked before the work: by the writer's
   * rules, and never onto what is read (the fio output or its log). */
  folder = duel_folder_open_for_file (output, &output_name, &error);
  if (folder == NULL || !duel_file_writer_check_in (folder, output_name, flags, &error) ||
      !output_is_not_input (folder, output_name, output, files[0], iops_log, &error))
    {
      duel_cli_print_error (error);
      return DUEL_CLI_EXIT_FAILED;
    }

  result = duel_fio_import_file (files[0], iops_log, &error);
  if (result == NULL)
    {
      duel_cli_print_error (error);
      return DUEL_CLI_EXIT_FAILED;
    }
  if (name != NULL)
    duel_result_set_name (result, name);
  if (!duel_result_save_in (result, folder, output_name, flags, &error))
    {
      duel_cli_print_error (error);
      return DUEL_CLI_EXIT_FAILED;
    }

  tests = duel_result_get_tests (result);
  for (guint i = 0; i < tests->len; i++)
    duel_cli_print_test_summary (g_ptr_array_index (tests, i));
  return DUEL_CLI_EXIT_OK;
}
