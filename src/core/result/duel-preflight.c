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
#include "duel-file-writer.h"
#include "duel-folder-lock.h"
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
duel_preflight_output (DuelFolder  *folder,
                       guint64      room_bytes,
                       GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *display = NULL;
  struct statvfs vfs;

  g_return_val_if_fail (folder != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  display = g_filename_display_name (duel_folder_get_path (folder));
  /* Exactly what the save does, on a file of its own. Refusals from here
   * on are about the files, not the options (the CLI's exit code 1). */
  if (!duel_file_writer_probe (folder, &local_error))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                   _("The result cannot be saved in %s: %s"), display, local_error->message);
      return FALSE;
    }

  if (fstatvfs (duel_folder_get_fd (folder), &vfs) == 0 && (guint64) vfs.f_bavail * vfs.f_frsize < room_bytes)
    {
      g_autofree char *free_text = g_format_size_full ((guint64) vfs.f_bavail * vfs.f_frsize,
                                                       G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *room_text = g_format_size_full (room_bytes, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                   _("Only %s are free in %s; the result may need %s."),
                   free_text, display, room_text);
      return FALSE;
    }
  return TRUE;
}

GStrv
duel_preflight_output_names (const char *name)
{
  GPtrArray *names;

  g_return_val_if_fail (name != NULL, NULL);

  names = g_ptr_array_new ();
  g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_add (names, _duel_journal_path_for (name));
  g_ptr_array_add (names, g_strconcat (name, DUEL_PREFLIGHT_LOCK_SUFFIX, NULL));
  g_ptr_array_add (names, NULL);
  return (GStrv) g_ptr_array_free (names, FALSE);
}

struct _DuelOutputLock
{
  DuelFolder *folder;
  char       *name;
  int         fd;
};

DuelOutputLock *
duel_output_lock_acquire (DuelFolder  *folder,
                          const char  *name,
                          const char  *result_path,
                          GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *lock_name = NULL;
  DuelOutputLock *lock;
  int fd;

  g_return_val_if_fail (folder != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (result_path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  lock_name = g_strconcat (name, DUEL_PREFLIGHT_LOCK_SUFFIX, NULL);
  fd = duel_folder_lock (folder, lock_name, &local_error);
  if (fd < 0)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_BUSY))
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                     _("Another run is writing its result to “%s”; give this one another name."), result_path);
      else
        /* TRANSLATORS: the result file, then the reason */
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                     _("The result file “%s” cannot be locked: %s"), result_path, local_error->message);
      return NULL;
    }
  lock = g_new0 (DuelOutputLock, 1);
  lock->folder = duel_folder_ref (folder);
  lock->name = g_steal_pointer (&lock_name);
  lock->fd = fd;
  return lock;
}

void
duel_output_lock_release (DuelOutputLock *lock)
{
  if (lock == NULL)
    return;
  duel_folder_unlock (lock->folder, lock->name, lock->fd);
  duel_folder_unref (lock->folder);
  g_free (lock->name);
  g_free (lock);
}
