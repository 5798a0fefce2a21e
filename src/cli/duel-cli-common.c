/* duel-cli-common.c — what the commands share: errors, progress line, summaries, target arguments
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <signal.h>

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <linux/magic.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "duel-cli.h"
#include "duel-error.h"
#include "device/duel-filesystem-note.h"
#include "duel-number.h"
#include "duel-text.h"
#include "result/duel-history-folder.h"
#include "review/duel-review-test.h"

void
duel_cli_print_error (const GError *error)
{
  /* Messages may quote a file, a device or a drive's own strings: one line,
   * no terminal controls, whatever they hold. */
  g_autofree char *line = duel_text_escape (error ? error->message : _("unknown error"));

  fprintf (stderr, "driveduel-cli: %s\n", line);
}

int
duel_cli_usage_error (GOptionContext *context,
                      const char     *format,
                      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  fprintf (stderr, "driveduel-cli: %s\n", message);
  if (context != NULL)
    fprintf (stderr, "%s\n", _("Run with --help for the options."));
  return DUEL_CLI_EXIT_USAGE;
}

/* A number of seconds (or any real quantity) given as text: finite, in
 * [min, max], and above 0 unless @zero_ok. GOptionContext's own double
 * parser takes "nan" and "inf", and a default of 0 cannot tell "not given"
 * from "0", so these options are read as strings. On error, @out_message
 * gets one sentence naming the option and the accepted range. */
gboolean
duel_cli_parse_number (const char  *option,
                       const char  *text,
                       double       min,
                       double       max,
                       gboolean     zero_ok,
                       double      *out,
                       char       **out_message)
{
  char *end = NULL;
  double value;

  g_return_val_if_fail (option != NULL && out != NULL && out_message != NULL, FALSE);

  value = text != NULL ? g_ascii_strtod (text, &end) : NAN;
  if (text == NULL || end == text || *end != '\0' || !isfinite (value) ||
      value < min || value > max || (!zero_ok && value == 0))
    {
      if (zero_ok)
        /* TRANSLATORS: an option (--probe), the lowest and the highest
         * accepted value, what was given */
        *out_message = g_strdup_printf (_("%s takes a number from %.10g to %.10g, not “%s”."),
                                        option, min, max, text ? text : "");
      else
        /* TRANSLATORS: an option (--runtime), the highest accepted value,
         * what was given */
        *out_message = g_strdup_printf (_("%s takes a number above 0, up to %.10g, not “%s”."),
                                        option, max, text ? text : "");
      return FALSE;
    }
  *out = value;
  return TRUE;
}

struct _DuelCliProgress
{
  char    *label;
  gboolean enabled;     /* stdout is a terminal */
  gboolean drawn;       /* a line is on screen and needs clearing */
  guint    n_lines;     /* ... and how many: the time left and a fill's passes under it */
  gint64   last_draw_us;
  char    *left;         /* the whole run's time left (duel_run_format_time_left()); NULL unknown */
  gboolean ranged;       /* ... shown as a range */
  char   **passes;       /* a fill's two passes (duel_run_format_pass_parts()); NULL: none */
};

DuelCliProgress *
duel_cli_progress_new (const char *label)
{
  DuelCliProgress *progress = g_new0 (DuelCliProgress, 1);

  progress->label = g_strdup (label);
  progress->enabled = isatty (STDOUT_FILENO);
  return progress;
}

void
duel_cli_progress_free (DuelCliProgress *progress)
{
  if (progress == NULL)
    return;
  duel_cli_progress_finish (progress);
  g_free (progress->left);
  g_strfreev (progress->passes);
  g_free (progress->label);
  g_free (progress);
}

/* What a range of the time left means is said once a process: a preset
 * makes a progress line anew whenever its label changes. */
static gboolean time_left_noted;

/* The terminal's width in columns; 80 when it does not say. */
static guint
terminal_columns (void)
{
  struct winsize size;

  if (ioctl (STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return size.ws_col;
  return 80;
}

/* Columns @c takes on a terminal: a wide character, as in zh_TW, two. */
static guint
char_columns (gunichar c)
{
  return g_unichar_iszerowidth (c) ? 0 : g_unichar_iswide (c) ? 2 : 1;
}

static guint
text_columns (const char *text)
{
  guint used = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    used += char_columns (g_utf8_get_char (p));
  return used;
}

/* @text cut to @columns on screen, ending in "…" where cut: a line that
 * wrapped could not be redrawn in place. */
static char *
fit_columns (const char *text,
             guint       columns)
{
  guint used = 0;
  const char *p;

  for (p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      guint w = char_columns (g_utf8_get_char (p));

      if (used + w > columns)
        break;
      used += w;
    }
  if (*p == '\0')
    return g_strdup (text);
  /* Room for the ellipsis: back off one character. */
  if (p > text)
    p = g_utf8_prev_char (p);
  {
    g_autofree char *head = g_strndup (text, p - text);

    return g_strconcat (head, "…", NULL);
  }
}

/* Clears what the progress drew, from its last line up to its first. */
static void
progress_clear (DuelCliProgress *progress)
{
  fputs ("\r\033[K", stdout);
  for (guint i = 1; i < progress->n_lines; i++)
    fputs ("\033[1A\r\033[K", stdout);
  progress->n_lines = 0;
}

/* Draws @line, cut to @columns, on a line of its own after the first. */
static void
progress_line (DuelCliProgress *progress,
               const char      *line,
               guint            columns)
{
  g_autofree char *fitted = fit_columns (line, columns);

  if (progress->n_lines > 0)
    fputc ('\n', stdout);
  fputs (fitted, stdout);
  progress->n_lines++;
}

void
duel_cli_progress_update (DuelCliProgress    *progress,
                          const DuelProgress *snapshot)
{
  g_autofree char *line = NULL;
  g_autofree char *left_line = NULL;
  guint columns;
  gint64 now = g_get_monotonic_time ();
  double elapsed_s;
  char percent[16];

  if (progress == NULL || !progress->enabled)
    return;
  /* The engine calls often; a terminal needs a few redraws a second. */
  if (progress->drawn && now - progress->last_draw_us < 200 * G_TIME_SPAN_MILLISECOND)
    return;
  progress->last_draw_us = now;

  elapsed_s = snapshot->elapsed_ns / 1e9;
  if (snapshot->fraction_done >= 0)
    g_snprintf (percent, sizeof percent, "%5.1f %%", 100.0 * snapshot->fraction_done);
  else
    g_strlcpy (percent, "  –", sizeof percent);

  /* TRANSLATORS: the live progress line: label, elapsed seconds, % done, IOPS, MB/s */
  line = g_strdup_printf (_("%s  %6.1f s  %s  %10.0f IOPS  %9.1f MB/s"),
                          progress->label ? progress->label : "",
                          elapsed_s, percent,
                          snapshot->interval_iops,
                          snapshot->interval_bytes_per_second / 1e6);
  /* One column short of the width: a full line moves some terminals to
   * the next, and a line that wrapped could not be redrawn in place. */
  columns = MAX (terminal_columns (), 20) - 1;
  if (progress->left != NULL)
    {
      g_autofree char *with_left = NULL;

      /* TRANSLATORS: the progress line followed by the run's time left, e.g.
       * "… 12:30 left" or "… 25–70 min left" */
      with_left = g_strdup_printf (_("%s  %s left"), line, progress->left);
      /* Where it does not fit, the time left gets a line of its own. */
      if (text_columns (with_left) <= columns)
        {
          g_free (line);
          line = g_steal_pointer (&with_left);
        }
      else
        /* TRANSLATORS: the run's time left on a line of its own, e.g. "25–70 min left" */
        left_line = g_strdup_printf (_("%s left"), progress->left);
    }
  if (progress->drawn)
    progress_clear (progress);
  /* Once, above the lines: what the ranges mean. */
  if (!time_left_noted && (progress->ranged || progress->passes != NULL))
    {
      fprintf (stdout, "%s\n", duel_run_time_left_note ());
      time_left_noted = TRUE;
    }
  progress_line (progress, line, columns);
  if (left_line != NULL)
    {
      g_autofree char *indented = g_strconcat ("  ", left_line, NULL);

      progress_line (progress, indented, columns);
    }
  for (guint i = 0; progress->passes != NULL && progress->passes[i] != NULL; i++)
    {
      g_autofree char *indented = g_strconcat ("  ", progress->passes[i], NULL);

      progress_line (progress, indented, columns);
    }
  fflush (stdout);
  progress->drawn = TRUE;
}

void
duel_cli_progress_set_eta (DuelCliProgress     *progress,
                           const DuelRunStatus *status)
{
  if (progress == NULL)
    return;
  g_free (progress->left);
  g_clear_pointer (&progress->passes, g_strfreev);
  progress->left = status->eta_seconds >= 0
    ? duel_run_format_time_left (status->eta_low_s, status->eta_s, status->eta_high_s) : NULL;
  progress->ranged = progress->left != NULL && isfinite (status->eta_low_s) && isfinite (status->eta_high_s) &&
                     status->eta_high_s >= DUEL_RUN_ETA_NARROW * MAX (status->eta_low_s, 0.05);
  if (progress->left != NULL && status->has_passes)
    progress->passes = duel_run_format_pass_parts (&status->passes);
}

void
duel_cli_progress_finish (DuelCliProgress *progress)
{
  if (progress == NULL || !progress->drawn)
    return;
  progress_clear (progress);
  fflush (stdout);
  progress->drawn = FALSE;
}

static void
print_latency_line (const DuelHistogram *hist,
                    DuelLatencyKind      kind)
{
  static const double percentiles[] = { 99, 99.9, 99.99 };
  GString *line = g_string_new (NULL);

  if (kind == DUEL_LATENCY_COMPLETION)
    /* TRANSLATORS: fio's completion latency (clat), which leaves the submission out, in microseconds */
    g_string_append_printf (line, _("    completion latency µs: mean %.1f, min %.1f, max %.1f"),
                            duel_histogram_mean_ns (hist) / 1e3,
                            hist->min_ns / 1e3, hist->max_ns / 1e3);
  else
    /* TRANSLATORS: latency figures in microseconds */
    g_string_append_printf (line, _("    latency µs: mean %.1f, min %.1f, max %.1f"),
                            duel_histogram_mean_ns (hist) / 1e3,
                            hist->min_ns / 1e3, hist->max_ns / 1e3);
  for (guint i = 0; i < G_N_ELEMENTS (percentiles); i++)
    {
      if (hist->count >= duel_histogram_min_samples_for (percentiles[i]))
        g_string_append_printf (line, ", %g %% %.1f", percentiles[i],
                                duel_histogram_percentile_ns (hist, percentiles[i]) / 1e3);
      else
        /* TRANSLATORS: a percentile that the sample count cannot support */
        g_string_append_printf (line, _(", %g %% (too few samples)"), percentiles[i]);
    }
  printf ("%s\n", line->str);
  g_string_free (line, TRUE);
}

void
duel_cli_print_test_summary (const DuelTestRecord *record)
{
  static const char *direction_names[] = { N_("read"), N_("write") };
  g_autofree char *access = NULL;
  g_autofree char *jobs = NULL;
  g_autofree char *title = NULL;

  g_return_if_fail (record != NULL);

  title = duel_review_describe_record (record->name);
  /* The window's words ("4 KiB random 70/30 read/write"), not fio's. */
  access = duel_workload_describe_access (&record->workload);
  if (record->workload.numjobs > 1)
    /* TRANSLATORS: after the queue depth: jobs at once, each with that depth */
    jobs = g_strdup_printf (_(" × %u jobs"), record->workload.numjobs);

  /* TRANSLATORS: name (access, e.g. "4 KiB random write", queue depth, jobs): seconds, status */
  printf (_("%s (%s, queue depth %u%s): %.1f s, %s\n"),
          title,
          access,
          record->workload.queue_depth,
          jobs ? jobs : "",
          record->runtime_ns / 1e9,
          duel_test_status_describe (record->status));

  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      guint64 ops = duel_test_record_get_ops (record, d);

      if (ops == 0)
        continue;
      /* TRANSLATORS: "  read: 1234 IOPS, 5.1 MB/s (… I/Os, … bytes)" */
      printf (_("  %s: %.0f IOPS, %.1f MB/s (%" PRIu64 " I/Os, %" PRIu64 " bytes)\n"),
              _(direction_names[d]),
              duel_test_record_get_iops (record, d),
              duel_test_record_get_bytes_per_second (record, d) / 1e6,
              ops, duel_test_record_get_bytes (record, d));
      if (record->latency[d] != NULL)
        print_latency_line (record->latency[d], record->latency_kind);
    }
}

typedef struct
{
  DuelRun          *run;
  GMainLoop        *loop;
  gboolean          ok;
  GError           *error;
  GCancellable     *check_cancellable;
  DuelSafetyReport *report;
  gboolean          stopping;     /* a first signal stopped the run */
  gboolean          gave_up;      /* a second one: no more waiting for the device */
  gboolean          told_wait;    /* what the stop waits for was said */
  guint             drain_watch;
  dev_t             fuse_dev;     /* the target's FUSE connection, 0 when not on FUSE */
} RunWait;

static void
checked_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  RunWait *wait = user_data;

  wait->report = duel_run_check_finish (DUEL_RUN (object), result, &wait->error);
  g_main_loop_quit (wait->loop);
}

static void
run_done_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  RunWait *wait = user_data;

  wait->ok = duel_run_run_finish (DUEL_RUN (object), result, &wait->error);
  g_main_loop_quit (wait->loop);
}

/* Seconds without an answer from the device after which a stop says what
 * it waits for: a device that answers drains within a second. */
#define DRAIN_SAY_AFTER_S 2.0

/* While stopping: a device that does not answer is said once, with the way
 * out. */
static gboolean
drain_watch_cb (gpointer user_data)
{
  RunWait *wait = user_data;
  double unanswered_s = 0;
  guint in_flight = 0;

  if (wait->gave_up || !duel_run_get_drain (wait->run, &in_flight, &unanswered_s) ||
      unanswered_s < DRAIN_SAY_AFTER_S)
    return G_SOURCE_CONTINUE;
  g_printerr (g_dngettext (GETTEXT_PACKAGE,
                           /* TRANSLATORS: I/Os in flight, seconds without an answer */
                           "driveduel-cli: the device has not answered %u I/O for %.0f s; press Ctrl-C again to "
                           "stop without waiting for it (what was measured is kept).\n",
                           "driveduel-cli: the device has not answered %u I/Os for %.0f s; press Ctrl-C again to "
                           "stop without waiting for them (what was measured is kept).\n", in_flight),
              in_flight, floor (unanswered_s));
  wait->told_wait = TRUE;
  wait->drain_watch = 0;
  return G_SOURCE_REMOVE;
}

/* The FUSE connection @path is on (its filesystem's device number, which
 * names its folder in /sys/fs/fuse/connections as the kernel encodes it:
 * major << 20 | minor), 0 when not on FUSE. */
static dev_t
fuse_connection (const char *path)
{
  struct statfs sfs;
  struct stat st;

  if (statfs (path, &sfs) != 0 || sfs.f_type != FUSE_SUPER_MAGIC || stat (path, &st) != 0)
    return 0;
  return st.st_dev;
}

static gboolean
signal_cb (gpointer user_data)
{
  RunWait *wait = user_data;

  /* Before the run: the check (UDisks, polkit) is abandoned. */
  if (wait->report == NULL && wait->error == NULL && !duel_run_is_running (wait->run))
    {
      g_cancellable_cancel (wait->check_cancellable);
      return G_SOURCE_CONTINUE;
    }
  if (!wait->stopping)
    {
      wait->stopping = TRUE;
      g_printerr ("\n%s\n", _("driveduel-cli: stopping; the I/O in flight is drained and what was measured is kept."));
      duel_run_cancel (wait->run);
      wait->drain_watch = g_timeout_add (250, drain_watch_cb, wait);
      return G_SOURCE_CONTINUE;
    }
  /* Again: the I/O the device has not answered is left to the kernel. */
  if (!wait->gave_up)
    {
      wait->gave_up = TRUE;
      g_printerr ("%s\n", _("driveduel-cli: stopping without waiting for the device; what was measured is kept, "
                             "and the kernel ends the I/O still in flight when the device answers."));
      duel_run_give_up (wait->run);
    }
  return G_SOURCE_CONTINUE;
}

static void
warning_cb (DuelRun    *run,
            const char *message,
            gpointer    user_data)
{
  g_autofree char *line = duel_text_escape (message);

  g_printerr ("driveduel-cli: %s\n", line);
}

gboolean
duel_cli_run_and_wait (DuelRun  *run,
                       GError  **error)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  RunWait wait = { run, loop, FALSE, NULL, NULL, NULL, FALSE, FALSE, FALSE, 0 };
  guint sigint_id, sigterm_id, sighup_id;
  gulong warning_id;

  /* The signal sources exist before the run can be interrupted. */
  sigint_id = g_unix_signal_add (SIGINT, signal_cb, &wait);
  sigterm_id = g_unix_signal_add (SIGTERM, signal_cb, &wait);
  /* A dropped SSH session: stopped as by SIGTERM, the result kept, not
   * killed with it "running"; its closed terminal must not kill it either. */
  sighup_id = g_unix_signal_add (SIGHUP, signal_cb, &wait);
  signal (SIGPIPE, SIG_IGN);
  warning_id = g_signal_connect (run, "warning", G_CALLBACK (warning_cb), NULL);

  /* The rules first, with the consent the options gave: what the app asks
   * the person, the command line was told. */
  wait.check_cancellable = g_cancellable_new ();
  duel_run_check_async (run, wait.check_cancellable, checked_cb, &wait);
  g_main_loop_run (loop);
  if (wait.report != NULL && wait.report->verdict != DUEL_SAFETY_ALLOWED)
    wait.error = g_error_new_literal (DUEL_ERROR, DUEL_ERROR_REFUSED, wait.report->reason);
  else if (wait.error == NULL && g_cancellable_is_cancelled (wait.check_cancellable))
    wait.error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                      _("Stopped before the run started; nothing was written."));
  if (wait.error == NULL)
    {
      /* A file on tmpfs, NFS, ZFS…: what the figures will measure, first. */
      g_autofree char *note = duel_filesystem_note_for_path (duel_run_get_target_path (run));

      if (note != NULL)
        g_printerr ("driveduel-cli: %s\n", note);
      /* Asked now: once its server stops answering, nothing on FUSE can be. */
      wait.fuse_dev = fuse_connection (duel_run_get_target_path (run));
      duel_run_run_async (run, NULL, run_done_cb, &wait);
      g_main_loop_run (loop);
      /* This process closes the file when it exits, and FUSE's close waits
       * for the server that left the I/O unanswered. */
      if (wait.fuse_dev != 0 && duel_run_get_abandoned (run) > 0)
        {
          g_autofree char *display = g_filename_display_name (duel_run_get_target_path (run));

          /* TRANSLATORS: the target, then the number of its FUSE connection */
          g_printerr (_("driveduel-cli: “%s” is served through FUSE by a server that does not answer: this process "
                        "ends only once it answers, or once its connection is aborted "
                        "(/sys/fs/fuse/connections/%u/abort).\n"),
                      display, (guint) (major (wait.fuse_dev) << 20 | minor (wait.fuse_dev)));
        }
    }
  g_clear_object (&wait.check_cancellable);
  g_clear_pointer (&wait.report, duel_safety_report_free);

  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  g_source_remove (sighup_id);
  if (wait.drain_watch != 0)
    g_source_remove (wait.drain_watch);
  g_signal_handler_disconnect (run, warning_id);
  if (!wait.ok)
    g_propagate_error (error, wait.error);
  return wait.ok;
}

int
duel_cli_conclude_run (DuelRun      *run,
                       gboolean      ok,
                       const GError *run_error)
{
  const GError *save_error = duel_run_get_save_error (run);
  const char *output = duel_run_get_result_path (run);
  gboolean same = !ok && save_error != NULL &&
                  (run_error == save_error ||
                   (run_error->domain == save_error->domain && run_error->code == save_error->code &&
                    g_strcmp0 (run_error->message, save_error->message) == 0));

  /* The run's own error first: on a full disk the save fails too, and the
   * reason the run stopped matters more. */
  if (!ok && !same)
    {
      if (g_error_matches (run_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_printerr ("%s\n", _("driveduel-cli: the run was cancelled; the partial result is kept."));
      else
        duel_cli_print_error (run_error);
    }
  if (save_error != NULL)
    {
      duel_cli_print_error (save_error);
      /* A run stopped by a failed checkpoint said what is kept. */
      if (!same && duel_run_get_state (run) != DUEL_RUN_STATE_FINISHED && output != NULL)
        g_printerr (_("driveduel-cli: the last checkpoint of %s, if any, is kept.\n"), output);
    }

  return ok ? DUEL_CLI_EXIT_OK : DUEL_CLI_EXIT_FAILED;
}

/* A run refused before anything was written: 2 when its options do not
 * fit the target (a block size its blocks do not divide, a size that
 * rounds to nothing), 1 for everything else (safety, the result's file). */
int
duel_cli_exit_code_refused (const GError *error)
{
  return g_error_matches (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT) ? DUEL_CLI_EXIT_USAGE
                                                                         : DUEL_CLI_EXIT_FAILED;
}

/* What `run` and `run --preset` share about their target. */

/* The target given on the command line, or the scratch file in the user's
 * cache, whose folder is made here. */
char *
duel_cli_target_path (GStrv rest)
{
  g_autofree char *dir = NULL;

  if (rest != NULL && rest[0] != NULL)
    return g_strdup (rest[0]);

  dir = g_build_filename (g_get_user_cache_dir (), "driveduel", NULL);
  g_mkdir_with_parents (dir, 0700);
  return g_build_filename (dir, "scratch.img", NULL);
}

/* --span: a size above 0 (leaving it out means the whole target). Else
 * FALSE with one sentence in @out_message. */
gboolean
duel_cli_parse_span (const char  *text,
                     guint64     *out,
                     char       **out_message)
{
  g_autoptr(GError) error = NULL;

  if (!duel_parse_size (text, out, &error))
    {
      *out_message = g_strdup_printf ("--span: %s", error->message);
      return FALSE;
    }
  if (*out == 0)
    {
      *out_message = g_strdup (_("--span must be more than 0; leave it out to use the whole target."));
      return FALSE;
    }
  return TRUE;
}

/* A size that the target's blocks must divide (--bs, --offset, --span):
 * before the target is known, a multiple of the smallest block any drive
 * has. Else FALSE with one sentence naming @option in @out_message. */
gboolean
duel_cli_check_aligned (const char  *option,
                        guint64      value,
                        char       **out_message)
{
  if (value % DUEL_WORKLOAD_MIN_LOGICAL_BLOCK_SIZE == 0)
    return TRUE;
  /* TRANSLATORS: an option (--bs), its value in bytes, the smallest block size */
  *out_message = g_strdup_printf (_("%s: %" PRIu64 " bytes is not a multiple of %u bytes, the smallest block of any drive."),
                                  option, value, DUEL_WORKLOAD_MIN_LOGICAL_BLOCK_SIZE);
  return FALSE;
}

/* The targets left on a run's command line: none (the scratch file) or one,
 * with a name. Else FALSE with one sentence in @out_message. */
gboolean
duel_cli_target_args_ok (GStrv   rest,
                         char  **out_message)
{
  if (rest != NULL && g_strv_length (rest) > 1)
    {
      *out_message = g_strdup_printf (_("Give one target, not %u."), g_strv_length (rest));
      return FALSE;
    }
  if (rest != NULL && rest[0] != NULL && rest[0][0] == '\0')
    {
      *out_message = g_strdup (_("The target is an empty name; give a file or a device."));
      return FALSE;
    }
  return TRUE;
}

/* --output, when given, names a file. Else FALSE with one sentence. */
gboolean
duel_cli_output_arg_ok (const char  *output,
                        char       **out_message)
{
  if (output != NULL && *output == '\0')
    {
      *out_message = g_strdup (_("--output is an empty name; give a file for the result."));
      return FALSE;
    }
  return TRUE;
}

char *
duel_cli_result_path (const char  *output,
                      gboolean     no_history,
                      const char  *name,
                      const char  *target_path,
                      char       **out_unkept)
{
  g_autofree char *folder = NULL;
  g_autofree char *base = NULL;
  g_autoptr(GError) error = NULL;
  char *path;

  *out_unkept = NULL;
  if (output != NULL || no_history)
    return g_strdup (output);
  folder = duel_history_folder_get_default ();
  base = g_path_get_basename (target_path);
  path = duel_history_folder_new_path (folder, name != NULL ? name : base, &error);
  if (path == NULL)
    {
      g_autofree char *why = g_strdup (error->message);
      gsize length = strlen (why);

      /* One sentence: the reason inside it, without its own full stop. */
      if (length > 0 && why[length - 1] == '.')
        why[length - 1] = '\0';
      /* TRANSLATORS: %s is why the history folder cannot be used, e.g.
       * “Could not create the history folder /x: Permission denied”. */
      *out_unkept = g_strdup_printf (_("driveduel-cli: the result will not be kept (%s); give a file with --output to keep it."),
                                     why);
    }
  return path;
}

/* Says @sentence once, when the run starts measuring: a run refused before
 * that keeps nothing anyway, and says only why it was refused. */
static void
unkept_state_cb (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    user_data)
{
  char **sentence = user_data;
  DuelRunState state = duel_run_get_state (DUEL_RUN (object));

  if (*sentence != NULL && (state == DUEL_RUN_STATE_PROBING || state == DUEL_RUN_STATE_RUNNING))
    {
      g_printerr ("%s\n", *sentence);
      g_clear_pointer (sentence, g_free);
    }
}

static void
free_sentence (gpointer  data,
               GClosure *closure)
{
  char **sentence = data;

  g_free (*sentence);
  g_free (sentence);
}

void
duel_cli_say_unkept (DuelRun *run,
                     char    *sentence)
{
  char **box;

  if (sentence == NULL)
    return;
  box = g_new (char *, 1);
  *box = sentence;
  g_signal_connect_data (run, "notify::state", G_CALLBACK (unkept_state_cb), box, free_sentence, 0);
}

void
duel_cli_print_history_note (DuelRun    *run,
                             const char *output)
{
  const char *path = duel_run_get_result_path (run);

  if (output != NULL || path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return;
  /* TRANSLATORS: %s is the result file's path. */
  g_print (_("The result is kept in the history the app lists: %s\n"), path);
}

gboolean
duel_cli_set_units (const char  *text,
                    char       **out_message)
{
  DuelRateUnit unit;

  if (text == NULL)
    return TRUE;
  if (!duel_rate_unit_from_nick (text, &unit))
    {
      *out_message = g_strdup_printf (_("--units must be mb (MB/s), mib (MiB/s) or gb (GB/s), not “%s”."), text);
      return FALSE;
    }
  duel_set_rate_unit (unit);
  return TRUE;
}
