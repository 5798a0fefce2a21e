/* duel-target-lock.c — one run at a time on a target
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "duel-error.h"
#include "duel-target-lock.h"

/* The process holding a flock on the file of @st, from /proc/locks
 * ("1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF", the device in hex);
 * 0 when it is not there (another PID namespace) or unknown. */
static int
lock_holder (const struct stat *st)
{
  g_autofree char *locks = NULL;
  g_autofree char *file = g_strdup_printf ("%02x:%02x:%" G_GUINT64_FORMAT,
                                           major (st->st_dev), minor (st->st_dev), (guint64) st->st_ino);
  int pid = 0;

  if (!g_file_get_contents ("/proc/locks", &locks, NULL, NULL))
    return 0;
  for (char *line = locks; line != NULL && *line != '\0' && pid == 0;)
    {
      char kind[16], where[64];
      int holder;

      /* Waiters ("1: -> FLOCK …") hold nothing and do not match. */
      if (sscanf (line, "%*d: %15s %*s %*s %d %63s", kind, &holder, where) == 3 &&
          strcmp (kind, "FLOCK") == 0 && strcmp (where, file) == 0)
        pid = holder;
      line = strchr (line, '\n');
      if (line != NULL)
        line++;
    }
  return pid > 0 ? pid : 0;
}

/* Whether process @pid is Drive Duel (driveduel-cli or the app). */
static gboolean
is_drive_duel (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/comm", pid);
  g_autofree char *comm = NULL;

  return g_file_get_contents (path, &comm, NULL, NULL) && g_str_has_prefix (comm, "driveduel");
}

/* The refusal for @display, whose file @st is locked by @pid (0: unknown). */
static char *
in_use_sentence (const char *display,
                 int         pid)
{
  if (pid > 0 && !is_drive_duel (pid))
    /* TRANSLATORS: the target, then the process id of the program that locked it */
    return g_strdup_printf (_("“%s” is locked by another program (pid %d); wait for it to finish or stop it."),
                            display, pid);
  if (pid > 0)
    /* TRANSLATORS: the target, then the process id of the other run */
    return g_strdup_printf (_("“%s” is in use by another Drive Duel run (pid %d); wait for it to finish or stop it."),
                            display, pid);
  return g_strdup_printf (_("“%s” is in use by another Drive Duel run; wait for it to finish or stop it."), display);
}

gboolean
duel_target_lock_fd (int          fd,
                     const char  *path,
                     GError     **error)
{
  g_autofree char *display = NULL;
  g_autofree char *sentence = NULL;
  struct stat st;
  int saved_errno;

  g_return_val_if_fail (fd >= 0, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (flock (fd, LOCK_EX | LOCK_NB) == 0)
    return TRUE;
  saved_errno = errno;
  /* A filesystem without locks cannot be guarded: the run goes on. */
  if (saved_errno != EWOULDBLOCK)
    {
      g_debug ("Cannot lock %s: %s", path, g_strerror (saved_errno));
      return TRUE;
    }
  display = g_filename_display_name (path);
  sentence = in_use_sentence (display, fstat (fd, &st) == 0 ? lock_holder (&st) : 0);
  g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_REFUSED, sentence);
  return FALSE;
}

char *
duel_target_lock_describe_holder (const char *path)
{
  g_autofree char *display = NULL;
  struct stat st;
  int pid;

  g_return_val_if_fail (path != NULL, NULL);

  if (stat (path, &st) != 0 || (pid = lock_holder (&st)) == 0 || !is_drive_duel (pid))
    return NULL;
  display = g_filename_display_name (path);
  return in_use_sentence (display, pid);
}
