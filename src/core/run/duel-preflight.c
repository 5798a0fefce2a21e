/* duel-preflight.c — checks made before a run writes its first byte
 *
 * A destructive run that cannot keep its result throws hours away: the
 * result's folder is checked the way the save will use it (a temporary file
 * beside the result, written, synced and renamed), and for room, before the
 * target is touched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "duel-error.h"
#include "duel-journal-private.h"
#include "duel-preflight.h"
#include "duel-result.h"

/* The room a result of @runtime_ms at @interval_ms rows needs, twice over
 * (the atomic save's two copies): the histograms and header, and a row of
 * every column at most 256 bytes. Unknown length (0): the long-run bound. */
guint64
duel_preflight_result_room (guint64 runtime_ms,
                            guint   interval_ms)
{
  guint64 rows;

  if (runtime_ms == 0 || interval_ms == 0)
    return DUEL_PREFLIGHT_RESULT_ROOM;
  rows = runtime_ms / interval_ms + 1;
  return MIN ((guint64) DUEL_PREFLIGHT_RESULT_ROOM, 2 * (512 * 1024 + rows * 256));
}

gboolean
duel_preflight_output (const char  *path,
                       guint64      room_bytes,
                       GError     **error)
{
  g_autofree char *target = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *probe = NULL;
  g_autoptr(GError) local_error = NULL;
  struct statvfs vfs;
  GStatBuf st;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (*path == '\0')
    {
      g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                           _("The result file has an empty name."));
      return FALSE;
    }
  /* Where the save will write (never over a device node or a folder).
   * Refusals from here on are about the files, not the options (the CLI's
   * exit code 1, not 2). */
  target = duel_result_save_path (path, &local_error);
  if (target == NULL)
    {
      g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_REFUSED, local_error->message);
      return FALSE;
    }
  dir = g_path_get_dirname (target);
  if (g_stat (dir, &st) != 0 || !S_ISDIR (st.st_mode))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                   _("The folder %s for the result does not exist."), dir);
      return FALSE;
    }

  /* Exactly what the save does, on a file of its own. */
  probe = g_strdup_printf ("%s.preflight-%d", target, (int) getpid ());
  if (!g_file_set_contents_full (probe, "{}\n", -1,
                                 G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                 0600, &local_error))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                   _("The result cannot be saved in %s: %s"), dir, local_error->message);
      return FALSE;
    }
  g_unlink (probe);

  if (statvfs (dir, &vfs) == 0 && (guint64) vfs.f_bavail * vfs.f_frsize < room_bytes)
    {
      g_autofree char *free_text = g_format_size_full ((guint64) vfs.f_bavail * vfs.f_frsize,
                                                       G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *room_text = g_format_size_full (room_bytes, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                   _("Only %s are free in %s; the result may need %s."),
                   free_text, dir, room_text);
      return FALSE;
    }
  return TRUE;
}

GStrv
duel_preflight_output_files (const char *save_path)
{
  GPtrArray *files;
  g_autofree char *staging = NULL;

  g_return_val_if_fail (save_path != NULL, NULL);

  staging = g_strconcat (save_path, DUEL_PREFLIGHT_STAGING_SUFFIX, NULL);
  files = g_ptr_array_new ();
  g_ptr_array_add (files, g_strdup (save_path));
  g_ptr_array_add (files, _duel_journal_path_for (save_path));
  g_ptr_array_add (files, _duel_journal_path_for (staging));
  g_ptr_array_add (files, g_steal_pointer (&staging));
  g_ptr_array_add (files, g_strconcat (save_path, DUEL_PREFLIGHT_LOCK_SUFFIX, NULL));
  g_ptr_array_add (files, NULL);
  return (GStrv) g_ptr_array_free (files, FALSE);
}

struct _DuelOutputLock
{
  char *path;
  int   fd;
};

DuelOutputLock *
duel_output_lock_acquire (const char  *result_path,
                          GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *save_path = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (result_path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  save_path = duel_result_save_path (result_path, &local_error);
  if (save_path == NULL)
    {
      g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_REFUSED, local_error->message);
      return NULL;
    }
  path = g_strconcat (save_path, DUEL_PREFLIGHT_LOCK_SUFFIX, NULL);

  /* The holder removes the file before it lets go: a lock taken on a file
   * that is no longer at @path is taken again on the new one. */
  for (guint attempt = 0; attempt < 16; attempt++)
    {
      struct stat fd_st, path_st;
      int fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
      int saved_errno = errno;

      if (fd < 0)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                       _("The result file “%s” cannot be locked: %s"), result_path, g_strerror (saved_errno));
          return NULL;
        }
      if (flock (fd, LOCK_EX | LOCK_NB) != 0)
        {
          saved_errno = errno;
          close (fd);
          if (saved_errno == EWOULDBLOCK)
            g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                         _("Another run is writing its result to “%s”; give this one another name."),
                         result_path);
          else
            g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                         _("The result file “%s” cannot be locked: %s"), result_path, g_strerror (saved_errno));
          return NULL;
        }
      if (fstat (fd, &fd_st) == 0 && stat (path, &path_st) == 0 &&
          fd_st.st_dev == path_st.st_dev && fd_st.st_ino == path_st.st_ino)
        {
          DuelOutputLock *lock = g_new0 (DuelOutputLock, 1);

          lock->path = g_steal_pointer (&path);
          lock->fd = fd;
          return lock;
        }
      close (fd);
    }
  g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
               _("Another run is writing its result to “%s”; give this one another name."), result_path);
  return NULL;
}

void
duel_output_lock_release (DuelOutputLock *lock)
{
  if (lock == NULL)
    return;
  /* Removed while still held, so nobody locks a file about to vanish. */
  g_unlink (lock->path);
  close (lock->fd);
  g_free (lock->path);
  g_free (lock);
}
