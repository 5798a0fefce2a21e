/* duel-target-lock.c — one run at a time on a target
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "duel-error.h"
#include "duel-target-lock.h"

/* A run killed a moment ago holds its target until its ring lets go of
 * it: io_uring's exit work drops the ring's files once their I/O is done
 * (50 ms or more). A new run waits that long, not longer. */
#define RELEASE_WAIT_US  (10 * G_USEC_PER_SEC)
#define RELEASE_POLL_US  (20 * 1000)
/* A lock whose holder /proc/locks no longer lists was let go between the
 * two looks (or is held from another PID namespace): looked at again this
 * many times, RELEASE_POLL_US apart, before the run is refused. */
#define UNSEEN_HOLDER_TRIES 5

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

/* Whether process @pid has ended: gone, or a zombie. */
static gboolean
process_ended (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *stat = NULL;
  const char *paren;

  if (kill (pid, 0) != 0 && errno == ESRCH)
    return TRUE;
  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return TRUE;
  paren = strrchr (stat, ')');
  return paren != NULL && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X');
}

/* Waits while the lock on the file of @st is held by a process that has
 * ended, at most RELEASE_WAIT_US; the holder's pid then, 0 when none. */
static int
wait_for_ended_holder (const struct stat *st)
{
  int pid = lock_holder (st);

  for (gint64 waited = 0; pid > 0 && process_ended (pid) && waited < RELEASE_WAIT_US; waited += RELEASE_POLL_US)
    {
      g_usleep (RELEASE_POLL_US);
      pid = lock_holder (st);
    }
  return pid;
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
  if (pid > 0 && process_ended (pid))
    /* TRANSLATORS: the target, then the process id of a run that has ended */
    return g_strdup_printf (_("“%s” is still held for a Drive Duel run that has ended (pid %d): the kernel lets "
                              "go of it once that run’s last I/O is done."), display, pid);
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
  int pid;

  g_return_val_if_fail (fd >= 0, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (guint unseen = 0;;)
    {
      if (flock (fd, LOCK_EX | LOCK_NB) == 0)
        return TRUE;
      saved_errno = errno;
      /* A filesystem without locks cannot be guarded: the run goes on. */
      if (saved_errno != EWOULDBLOCK)
        {
          g_debug ("Cannot lock %s: %s", path, g_strerror (saved_errno));
          return TRUE;
        }
      if (fstat (fd, &st) != 0)
        {
          pid = 0;
          break;
        }
      /* Held by a run that ended (killed a moment ago)? Then it is free soon. */
      pid = lock_holder (&st);
      if (pid == 0)
        {
          /* Let go since flock() looked (a killed run's ring, just now)? */
          if (++unseen >= UNSEEN_HOLDER_TRIES)
            break;
          g_usleep (RELEASE_POLL_US);
          continue;
        }
      if (!process_ended (pid))
        break;
      pid = wait_for_ended_holder (&st);
      if (pid != 0)
        break;
    }
  display = g_filename_display_name (path);
  sentence = in_use_sentence (display, pid);
  g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_REFUSED, sentence);
  return FALSE;
}

gboolean
duel_target_lock_wait_for_ended_run (const char *path)
{
  struct stat st;
  int pid;

  g_return_val_if_fail (path != NULL, FALSE);

  if (stat (path, &st) != 0)
    return FALSE;
  /* No lock to see: a killed run's ring lets go of its lock a moment
   * before its claim on the device (both as it drops the file); the
   * caller looks once more, a poll later. */
  pid = lock_holder (&st);
  if (pid == 0)
    {
      g_usleep (RELEASE_POLL_US);
      return TRUE;
    }
  if (!process_ended (pid))
    return FALSE;
  return wait_for_ended_holder (&st) == 0;
}

char *
duel_target_lock_describe_holder (const char *path)
{
  g_autofree char *display = NULL;
  struct stat st;
  int pid;

  g_return_val_if_fail (path != NULL, NULL);

  if (stat (path, &st) != 0 || (pid = lock_holder (&st)) == 0 || (!is_drive_duel (pid) && !process_ended (pid)))
    return NULL;
  display = g_filename_display_name (path);
  return in_use_sentence (display, pid);
}

gboolean
duel_target_lock_is_held (const char *path)
{
  struct stat st;
  int pid;

  g_return_val_if_fail (path != NULL, FALSE);

  return stat (path, &st) == 0 && (pid = lock_holder (&st)) != 0 && !process_ended (pid);
}
