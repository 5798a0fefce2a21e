/* driveduel-cli.c — the headless front end: one subcommand per job
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "duel-cli.h"
#include "duel-system.h"

typedef struct
{
  const char *name;
  int       (*func) (int argc, char **argv);
  const char *summary;   /* translatable */
} DuelCliCommand;

static const DuelCliCommand commands[] = {
  { "run", duel_cli_run, N_("Run a workload or a review preset on a file or a block device") },
  { "analyze", duel_cli_analyze, N_("Recompute and print the summary figures of a result file") },
  { "list", duel_cli_list, N_("List the block devices with their model, size and use") },
  { "info", duel_cli_info, N_("Show a drive's identity, interface link and health") },
  { "compare", duel_cli_compare, N_("Compare two to four result files: charts, a PDF report, CSV and Markdown") },
  { "report", duel_cli_report, N_("Charts, a PDF report, CSV and Markdown for one result file") },
  { "import", duel_cli_import, N_("Turn fio JSON output (json+) into a result file") },
};

static void
print_help (FILE *stream)
{
  fprintf (stream, "%s\n", _("Usage: driveduel-cli COMMAND [OPTIONS…]"));
  fprintf (stream, "\n%s\n", _("Compare drives the way reviewers do: fill them, mix reads and writes, and chart the result."));
  fprintf (stream, "\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (stream, "\n%s\n", _("Run “driveduel-cli COMMAND --help” for the options of a command."));
}

int
main (int    argc,
      char **argv)
{
  const char *localedir = g_getenv ("DRIVEDUEL_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname ("driveduel-cli");
  /* Out of threads or memory inside GLib: one sentence and exit 1, not an abort. */
  duel_system_install_fatal_handler ("driveduel-cli");

  if (argc < 2)
    {
      print_help (stderr);
      return DUEL_CLI_EXIT_USAGE;
    }

  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_help (stdout);
      return DUEL_CLI_EXIT_OK;
    }

  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("driveduel-cli %s\n", PACKAGE_VERSION);
      return DUEL_CLI_EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      if (strcmp (argv[1], commands[i].name) == 0)
        {
          g_autofree char *prgname = g_strdup_printf ("driveduel-cli %s", commands[i].name);

          /* So each command's --help reads "driveduel-cli run [OPTION…]". */
          g_set_prgname (prgname);
          return commands[i].func (argc - 1, argv + 1);
        }
    }

  fprintf (stderr, _("driveduel-cli: unknown command “%s”; run “driveduel-cli --help” for the list."), argv[1]);
  fputc ('\n', stderr);
  return DUEL_CLI_EXIT_USAGE;
}
