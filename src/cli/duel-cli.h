/* duel-cli.h — the commands of driveduel-cli and what they share
 *
 * Each command parses its own options (GOptionContext) and returns the
 * process exit code: 0 success, 1 the work failed, 2 bad usage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "engine/duel-engine.h"
#include "result/duel-result.h"
#include "run/duel-run.h"

G_BEGIN_DECLS

#define DUEL_CLI_EXIT_OK      0
#define DUEL_CLI_EXIT_FAILED  1
#define DUEL_CLI_EXIT_USAGE   2

/* duel-cli-run.c (lead): a plain run; hands over to the preset runner when
 * --preset is among the arguments. */
int  duel_cli_run          (int argc, char **argv);
/* duel-cli-preset.c (review scripts): run --preset NAME [...] TARGET */
int  duel_cli_run_preset   (int argc, char **argv);
/* duel-cli-analyze.c (review scripts): analyze RESULT.json */
int  duel_cli_analyze      (int argc, char **argv);
/* duel-cli-info.c (devices): list, info TARGET [--json] */
int  duel_cli_list         (int argc, char **argv);
int  duel_cli_info         (int argc, char **argv);
/* duel-cli-compare.c (charts): compare A B, report R, import FIO.json */
int  duel_cli_compare      (int argc, char **argv);
int  duel_cli_report       (int argc, char **argv);
int  duel_cli_import       (int argc, char **argv);

/* duel-cli-run.c (lead): the target among the remaining arguments, or the
 * scratch file in the user's cache directory (its folder made). */
char *duel_cli_target_path (GStrv rest);
gboolean duel_cli_target_args_ok (GStrv rest, char **out_message);
gboolean duel_cli_output_arg_ok (const char *output, char **out_message);
/* Where a run keeps its result: @output, or without it a new file in the
 * history the app lists (duel-history-folder.h), named after @name or the
 * target's file name; NULL with @no_history, or when the history folder
 * cannot be made: then @out_unkept holds the sentence that says so, for
 * duel_cli_say_unkept(). */
char *duel_cli_result_path (const char  *output,
                            gboolean     no_history,
                            const char  *name,
                            const char  *target_path,
                            char       **out_unkept);
/* Says @sentence (taken; NULL: nothing) on stderr when @run starts measuring. */
void duel_cli_say_unkept (DuelRun *run, char *sentence);
/* After a run kept in the history (no @output): says where. */
void duel_cli_print_history_note (DuelRun *run, const char *output);
gboolean duel_cli_parse_span (const char *text, guint64 *out, char **out_message);
gboolean duel_cli_check_aligned (const char *option, guint64 value, char **out_message);

/* duel-cli-common.c (lead) */
void duel_cli_print_error        (const GError *error);
gboolean duel_cli_parse_number   (const char  *option,
                                  const char  *text,
                                  double       min,
                                  double       max,
                                  gboolean     zero_ok,
                                  double      *out,
                                  char       **out_message);
/* --units: sets the process's rate unit from "mb", "mib" or "gb"; FALSE
 * (with the sentence to print in @out_message) for anything else. */
gboolean duel_cli_set_units     (const char  *text,
                                 char       **out_message);
int  duel_cli_usage_error        (GOptionContext *context,
                                  const char     *format,
                                  ...) G_GNUC_PRINTF (2, 3);
/* A live one-line progress on a terminal; silent when stdout is not a tty. */
typedef struct _DuelCliProgress DuelCliProgress;
DuelCliProgress *duel_cli_progress_new   (const char *label);
void             duel_cli_progress_free  (DuelCliProgress *progress);
void             duel_cli_progress_update(DuelCliProgress    *progress,
                                          const DuelProgress *snapshot);
void             duel_cli_progress_finish(DuelCliProgress *progress);
/* The whole run's time left, shown on the next update; -1 hides it. */
void             duel_cli_progress_set_eta(DuelCliProgress     *progress,
                                           const DuelRunStatus *status);
/* Runs @run to its end while the main loop turns SIGINT and SIGTERM into
 * duel_run_cancel(); FALSE with the run's error. */
gboolean duel_cli_run_and_wait   (DuelRun        *run,
                                  GError        **error);
/* After a run: reports the run's error and the final save's, and returns
 * the exit code. A cancelled or failed run has still saved its result. */
int  duel_cli_conclude_run       (DuelRun        *run,
                                  gboolean        ok,
                                  const GError   *run_error);
/* The exit code of a run refused before its first byte (no result). */
int  duel_cli_exit_code_refused  (const GError   *error);
/* The human summary of one test: IOPS, MB/s, latency mean and 99/99.9/99.99 %. */
void duel_cli_print_test_summary (const DuelTestRecord *record);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelCliProgress, duel_cli_progress_free)

G_END_DECLS
