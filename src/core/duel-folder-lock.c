/* duel-folder-lock.c — a lock file in a folder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <sys/file.h>
#include <unistd.h>

#include "duel-error.h"
#include "duel-file-writer.h"
#include "duel-folder-lock.h"
#include "duel-formats.h"

/* Does the file open on @fd hold a lock file's line and nothing else? */
static gboolean
is_lock_file (int fd)
{
  char head[64];
  ssize_t length = pread (fd, head, sizeof head - 1, 0);

  if (length < 0)
    return FALSE;
  head[length] = '\0';
  return g_str_has_prefix (head, DUEL_LOCK_FORMAT "\n") && length < (ssize_t) sizeof head - 1;
}

int
duel_folder_lock (DuelFolder  *self,
                  const char  *name,
                  GError     **error)
{
  g_autofree char *display = NULL;

  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);
  g_return_val_if_fail (error == NULL || *error == NULL, -1);

  display = duel_folder_dup_display (self, name);

  /* The holder removes the file before it lets go: a lock taken on a file
   * that is no longer at the name is taken again on the new one. */
  for (guint attempt = 0; attempt < 16; attempt++)
    {
      g_autoptr(GError) local_error = NULL;
      struct stat fd_st, name_st;
      int fd;

      fd = openat (duel_folder_get_fd (self), name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
      if (fd < 0 && errno == ENOENT)
        {
          /* A new one, made whole before it has the name. */
          if (!duel_file_write_contents_in (self, name, DUEL_LOCK_FORMAT "\n", sizeof DUEL_LOCK_FORMAT,
                                            DUEL_WRITE_NEW, &local_error))
            {
              if (g_error_matches (local_error, DUEL_ERROR, DUEL_ERROR_EXISTS))
                continue;   /* another run made it first */
              g_propagate_error (error, g_steal_pointer (&local_error));
              return -1;
            }
          continue;
        }
      if (fd < 0)
        {
          int saved_errno = errno;

          if (saved_errno == ELOOP)
            g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                         _("“%s” is a symbolic link, not Drive Duel’s lock; it was left as it is."), display);
          else
            g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                         _("Cannot open the lock “%s”: %s"), display, g_strerror (saved_errno));
          return -1;
        }
      if (fstat (fd, &fd_st) != 0 || !S_ISREG (fd_st.st_mode) || !is_lock_file (fd))
        {
          close (fd);
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                       _("“%s” exists and is not Drive Duel’s lock; it was left as it is."), display);
          return -1;
        }
      if (flock (fd, LOCK_EX | LOCK_NB) != 0)
        {
          int saved_errno = errno;

          close (fd);
          if (saved_errno == EWOULDBLOCK)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("“%s” is locked by another process."), display);
          else
            g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                         _("Cannot lock “%s”: %s"), display, g_strerror (saved_errno));
          return -1;
        }
      if (duel_folder_stat (self, name, &name_st) == 0 &&
          fd_st.st_dev == name_st.st_dev && fd_st.st_ino == name_st.st_ino)
        return fd;
      close (fd);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("“%s” is locked by another process."), display);
  return -1;
}

void
duel_folder_unlock (DuelFolder *self,
                    const char *name,
                    int         fd)
{
  struct stat st;

  g_return_if_fail (self != NULL);
  g_return_if_fail (name != NULL);

  if (fd < 0)
    return;
  /* Removed while still held, so nobody locks a file about to vanish. */
  if (fstat (fd, &st) == 0)
    duel_folder_unlink_same (self, name, &st);
  close (fd);
}
