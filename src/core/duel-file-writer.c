/* duel-file-writer.c — the one way Drive Duel writes a file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "duel-error.h"
#include "duel-file-writer.h"
#include "duel-formats.h"

/* A name that keeps being taken between our look and our link (another
 * process racing for it) is given up after this many tries. */
#define MAX_ATTEMPTS 8

typedef enum
{
  NAME_FREE,
  NAME_REPLACEABLE,
} NameState;

struct _DuelFileWriter
{
  DuelFolder     *folder;
  char           *name;
  DuelWriteFlags  flags;
  const DuelMadeFilesRecord *made;  /* NULL without the _MADE flags */
  int             fd;
  gboolean        unnamed;     /* O_TMPFILE: no name of its own until the commit */
  char           *temporary;   /* the name it has meanwhile, if any */
  gboolean        committed;
  gboolean        stolen;
};

/* ---- The rules --------------------------------------------------------------- */

static gboolean
may_replace (int                        fd,
             const struct stat         *st,
             DuelWriteFlags             flags,
             const DuelMadeFilesRecord *made)
{
  if (flags & DUEL_WRITE_REPLACE_ANY)
    return TRUE;
  if ((flags & DUEL_WRITE_REPLACE_EMPTY) && st->st_size == 0)
    return TRUE;
  if ((flags & DUEL_WRITE_REPLACE_RESULT) && duel_file_is_result (fd))
    return TRUE;
  if ((flags & DUEL_WRITE_REPLACE_JOURNAL) && duel_file_is_journal (fd))
    return TRUE;
  if ((flags & DUEL_WRITE_REPLACE_RECORD) && duel_file_is_made_record (fd))
    return TRUE;
  if ((flags & DUEL_WRITE_REPLACE_MADE) && made != NULL && made->is_unchanged (fd))
    return TRUE;
  return FALSE;
}

/* One sentence for a file in the way, naming what could have replaced it. */
static void
set_exists_error (GError         **error,
                  const char      *display,
                  DuelWriteFlags   flags)
{
  gboolean hint = (flags & DUEL_WRITE_HINT_OVERWRITE) != 0;

  if ((flags & DUEL_WRITE_REPLACE_RESULT) && hint)
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_EXISTS,
                 _("“%s” exists and is not a Drive Duel result; give another name, or --overwrite-output to replace it."),
                 display);
  else if (flags & DUEL_WRITE_REPLACE_RESULT)
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_EXISTS,
                 _("“%s” exists and is not a Drive Duel result; it was left as it is."), display);
  else if ((flags & DUEL_WRITE_REPLACE_MADE) && hint)
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_EXISTS,
                 _("“%s” exists, and Drive Duel did not write it or it was changed since; "
                   "give another name, or --overwrite-output to replace it."), display);
  else if (flags & DUEL_WRITE_REPLACE_MADE)
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_EXISTS,
                 _("“%s” exists, and Drive Duel did not write it or it was changed since; "
                   "it was left as it is."), display);
  else if (flags & DUEL_WRITE_REPLACE_JOURNAL)
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_EXISTS,
                 _("“%s” exists and is not a Drive Duel journal; it was left as it is."), display);
  else if (hint)
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_EXISTS,
                 _("“%s” already exists; give another name, or --overwrite-output to replace it."), display);
  else
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_EXISTS,
                 _("“%s” already exists; it was left as it is."), display);
}

static gboolean
valid_name (const char  *name,
            GError     **error)
{
  if (*name == '\0')
    {
      g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT, _("The file name is empty."));
      return FALSE;
    }
  if (strchr (name, '/') != NULL || g_str_equal (name, ".") || g_str_equal (name, ".."))
    {
      g_autofree char *display = g_filename_display_name (name);

      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not a file name."), display);
      return FALSE;
    }
  return TRUE;
}

/* What is at @name now, and whether @flags let a new file take its place. */
static gboolean
check_name (DuelFolder                *folder,
            const char                *name,
            DuelWriteFlags             flags,
            const DuelMadeFilesRecord *made,
            NameState                 *out_state,
            GError                   **error)
{
  g_autofree char *display = NULL;
  struct stat st, opened;
  gboolean allowed;
  int fd;

  if (!valid_name (name, error))
    return FALSE;

  if (duel_folder_stat (folder, name, &st) != 0)
    {
      int saved_errno = errno;

      if (saved_errno == ENOENT)
        {
          *out_state = NAME_FREE;
          return TRUE;
        }
      display = duel_folder_dup_display (folder, name);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot examine “%s”: %s"), display, g_strerror (saved_errno));
      return FALSE;
    }

  display = duel_folder_dup_display (folder, name);
  if (S_ISLNK (st.st_mode))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                   _("“%s” is a symbolic link; Drive Duel does not write through links: "
                     "give the path of the file itself."), display);
      return FALSE;
    }
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                   _("“%s” is a folder; give the name of a file."), display);
      return FALSE;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                   _("“%s” is not a regular file; Drive Duel writes only regular files."), display);
      return FALSE;
    }

  fd = duel_folder_open_regular (folder, name, &opened);
  if (fd < 0)
    {
      int saved_errno = errno;

      /* EACCES: a file one may not read is not one Drive Duel wrote, unless the person said so. */
      if ((flags & DUEL_WRITE_REPLACE_ANY) && saved_errno == EACCES)
        {
          *out_state = NAME_REPLACEABLE;
          return TRUE;
        }
      if (saved_errno == EACCES)
        set_exists_error (error, display, flags);
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                     _("Cannot examine “%s”: %s"), display, g_strerror (saved_errno));
      return FALSE;
    }
  allowed = opened.st_dev == st.st_dev && opened.st_ino == st.st_ino && may_replace (fd, &opened, flags, made);
  close (fd);
  if (!allowed)
    {
      set_exists_error (error, display, flags);
      return FALSE;
    }
  *out_state = NAME_REPLACEABLE;
  return TRUE;
}

gboolean
duel_file_writer_check_for (DuelFolder                *folder,
                            const char                *name,
                            DuelWriteFlags             flags,
                            const DuelMadeFilesRecord *made,
                            GError                   **error)
{
  NameState state;

  g_return_val_if_fail (folder != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (made != NULL || !(flags & (DUEL_WRITE_REPLACE_MADE | DUEL_WRITE_RECORD_MADE)), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return check_name (folder, name, flags, made, &state, error);
}

gboolean
duel_file_writer_check_in (DuelFolder      *folder,
                           const char      *name,
                           DuelWriteFlags   flags,
                           GError         **error)
{
  return duel_file_writer_check_for (folder, name, flags, NULL, error);
}

gboolean
duel_file_writer_check (const char      *path,
                        DuelWriteFlags   flags,
                        GError         **error)
{
  g_autoptr(DuelFolder) folder = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  folder = duel_folder_open_for_file (path, &name, error);
  return folder != NULL && duel_file_writer_check_in (folder, name, flags, error);
}

/* ---- The new file ------------------------------------------------------------ */

/* An unnamed file can be given a name through /proc, or by root directly. */
static gboolean
can_link_unnamed (void)
{
  static gsize answer = 0;

  if (g_once_init_enter (&answer))
    g_once_init_leave (&answer, (geteuid () == 0 || access ("/proc/self/fd", F_OK) == 0) ? 1 : 2);
  return answer == 1;
}

static int
link_unnamed (int         fd,
              DuelFolder *folder,
              const char *name)
{
  char proc_path[64];

  g_snprintf (proc_path, sizeof proc_path, "/proc/self/fd/%d", fd);
  if (linkat (AT_FDCWD, proc_path, duel_folder_get_fd (folder), name, AT_SYMLINK_FOLLOW) == 0)
    return 0;
  if (errno != ENOENT)
    return -1;
  return linkat (fd, "", duel_folder_get_fd (folder), name, AT_EMPTY_PATH);
}

static void
set_folder_error (GError     **error,
                  DuelFolder  *folder,
                  int          saved_errno)
{
  g_autofree char *display = g_filename_display_name (duel_folder_get_path (folder));

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               _("Cannot write in the folder %s: %s"), display, g_strerror (saved_errno));
}

/* The file the data goes to: unnamed where the filesystem has O_TMPFILE,
 * else under a temporary name of our own; locked while it lives. */
static gboolean
open_new_file (DuelFileWriter  *self,
               GError         **error)
{
  int dirfd = duel_folder_get_fd (self->folder);

  if (can_link_unnamed ())
    {
      self->fd = openat (dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
      if (self->fd >= 0)
        self->unnamed = TRUE;
      else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL && errno != ENOENT)
        {
          set_folder_error (error, self->folder, errno);
          return FALSE;
        }
    }
  for (guint attempt = 0; self->fd < 0 && attempt < MAX_ATTEMPTS; attempt++)
    {
      g_free (self->temporary);
      self->temporary = duel_folder_temporary_name (self->name);
      self->fd = openat (dirfd, self->temporary, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
      if (self->fd < 0 && errno != EEXIST)
        {
          set_folder_error (error, self->folder, errno);
          g_clear_pointer (&self->temporary, g_free);
          return FALSE;
        }
    }
  if (self->fd < 0)
    {
      set_folder_error (error, self->folder, EEXIST);
      g_clear_pointer (&self->temporary, g_free);
      return FALSE;
    }
  /* Held until the writer goes: a temporary nobody holds is left over. */
  if (flock (self->fd, LOCK_EX | LOCK_NB) != 0)
    g_debug ("Could not lock the new file for %s: %s", self->name, g_strerror (errno));
  return TRUE;
}

DuelFileWriter *
duel_file_writer_new_for (DuelFolder                *folder,
                          const char                *name,
                          DuelWriteFlags             flags,
                          const DuelMadeFilesRecord *made,
                          GError                   **error)
{
  g_autoptr(DuelFileWriter) self = NULL;
  NameState state;

  g_return_val_if_fail (folder != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (made != NULL || !(flags & (DUEL_WRITE_REPLACE_MADE | DUEL_WRITE_RECORD_MADE)), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_name (folder, name, flags, made, &state, error))
    return NULL;

  self = g_new0 (DuelFileWriter, 1);
  self->folder = duel_folder_ref (folder);
  self->name = g_strdup (name);
  self->flags = flags;
  self->made = made;
  self->fd = -1;
  if (!open_new_file (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

DuelFileWriter *
duel_file_writer_new_in (DuelFolder      *folder,
                         const char      *name,
                         DuelWriteFlags   flags,
                         GError         **error)
{
  return duel_file_writer_new_for (folder, name, flags, NULL, error);
}

DuelFileWriter *
duel_file_writer_new (const char      *path,
                      DuelWriteFlags   flags,
                      GError         **error)
{
  g_autoptr(DuelFolder) folder = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  folder = duel_folder_open_for_file (path, &name, error);
  if (folder == NULL)
    return NULL;
  return duel_file_writer_new_in (folder, name, flags, error);
}

int
duel_file_writer_get_fd (DuelFileWriter *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->fd;
}

static void
set_write_error (DuelFileWriter  *self,
                 int              saved_errno,
                 GError         **error)
{
  g_autofree char *display = duel_folder_dup_display (self->folder, self->name);

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               _("Could not write “%s”: %s"), display, g_strerror (saved_errno));
}

gboolean
duel_file_writer_write (DuelFileWriter  *self,
                        const void      *data,
                        gsize            length,
                        GError         **error)
{
  const char *at = data;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (!self->committed, FALSE);

  while (length > 0)
    {
      ssize_t n = write (self->fd, at, length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          set_write_error (self, n < 0 ? errno : ENOSPC, error);
          return FALSE;
        }
      at += n;
      length -= (gsize) n;
    }
  return TRUE;
}

/* The new file, linked at a fresh temporary name (an unnamed one's first
 * name), ready to be renamed over the old one. */
static gboolean
give_temporary_name (DuelFileWriter  *self,
                     GError         **error)
{
  if (self->temporary != NULL)
    return TRUE;
  for (guint attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
    {
      self->temporary = duel_folder_temporary_name (self->name);
      if (link_unnamed (self->fd, self->folder, self->temporary) == 0)
        return TRUE;
      g_clear_pointer (&self->temporary, g_free);
      if (errno != EEXIST)
        {
          set_folder_error (error, self->folder, errno);
          return FALSE;
        }
    }
  set_folder_error (error, self->folder, EEXIST);
  return FALSE;
}

/* Where the name is free: taken atomically, so a file that appeared
 * meanwhile is never replaced (FALSE, and *@taken FALSE: look again). */
static gboolean
take_free_name (DuelFileWriter  *self,
                gboolean        *taken,
                GError         **error)
{
  g_autoptr(GError) local_error = NULL;

  *taken = FALSE;
  if (self->unnamed && self->temporary == NULL)
    {
      if (link_unnamed (self->fd, self->folder, self->name) == 0)
        return TRUE;
      if (errno == EEXIST)
        {
          *taken = TRUE;
          return FALSE;
        }
      set_folder_error (error, self->folder, errno);
      return FALSE;
    }
  if (duel_folder_rename (self->folder, self->temporary, self->name, FALSE, &local_error))
    {
      g_clear_pointer (&self->temporary, g_free);
      return TRUE;
    }
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_EXISTS))
    *taken = TRUE;
  else
    g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

gboolean
duel_file_writer_commit (DuelFileWriter  *self,
                         GError         **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (!self->committed, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (fsync (self->fd) != 0)
    {
      set_write_error (self, errno, error);
      return FALSE;
    }

  for (guint attempt = 0; ; attempt++)
    {
      NameState state;
      gboolean taken;

      /* Again: what was at the name when the writer opened may have gone,
       * or something else may be there now. */
      if (!check_name (self->folder, self->name, self->flags, self->made, &state, error))
        return FALSE;
      if (state == NAME_FREE)
        {
          if (take_free_name (self, &taken, error))
            break;
          if (!taken)
            return FALSE;
          if (attempt + 1 < MAX_ATTEMPTS)
            continue;
          {
            g_autofree char *display = duel_folder_dup_display (self->folder, self->name);

            set_exists_error (error, display, self->flags);
          }
          return FALSE;
        }
      /* A rename never writes through a link and leaves another name of
       * the old file as it was. */
      if (!give_temporary_name (self, error) ||
          !duel_folder_rename (self->folder, self->temporary, self->name, TRUE, error))
        return FALSE;
      g_clear_pointer (&self->temporary, g_free);
      break;
    }

  duel_folder_sync (self->folder);
  self->committed = TRUE;
  if (self->flags & DUEL_WRITE_RECORD_MADE)
    self->made->record (self->fd);
  return TRUE;
}

int
duel_file_writer_steal_fd (DuelFileWriter *self)
{
  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (self->committed && !self->stolen, -1);

  self->stolen = TRUE;
  return self->fd;
}

void
duel_file_writer_free (DuelFileWriter *self)
{
  if (self == NULL)
    return;
  if (!self->committed && self->temporary != NULL && self->fd >= 0)
    {
      struct stat st;

      if (fstat (self->fd, &st) == 0)
        duel_folder_unlink_same (self->folder, self->temporary, &st);
    }
  if (self->fd >= 0 && !self->stolen)
    close (self->fd);
  g_clear_pointer (&self->folder, duel_folder_unref);
  g_free (self->name);
  g_free (self->temporary);
  g_free (self);
}

gboolean
duel_file_write_contents_in (DuelFolder      *folder,
                             const char      *name,
                             const void      *data,
                             gsize            length,
                             DuelWriteFlags   flags,
                             GError         **error)
{
  g_autoptr(DuelFileWriter) writer = NULL;

  g_return_val_if_fail (folder != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  writer = duel_file_writer_new_in (folder, name, flags, error);
  return writer != NULL &&
         duel_file_writer_write (writer, data, length, error) &&
         duel_file_writer_commit (writer, error);
}

gboolean
duel_file_write_contents (const char      *path,
                          const void      *data,
                          gsize            length,
                          DuelWriteFlags   flags,
                          GError         **error)
{
  g_autoptr(DuelFileWriter) writer = NULL;

  g_return_val_if_fail (path != NULL, FALSE);

  writer = duel_file_writer_new (path, flags, error);
  return writer != NULL &&
         duel_file_writer_write (writer, data, length, error) &&
         duel_file_writer_commit (writer, error);
}

gboolean
duel_file_writer_probe (DuelFolder  *folder,
                        GError     **error)
{
  g_autoptr(DuelFileWriter) self = NULL;
  g_autofree char *second = NULL;
  struct stat st;
  gboolean ok;

  g_return_val_if_fail (folder != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  self = g_new0 (DuelFileWriter, 1);
  self->folder = duel_folder_ref (folder);
  self->name = g_strdup ("probe");
  self->fd = -1;
  if (!open_new_file (self, error) ||
      !duel_file_writer_write (self, "{}\n", 3, error))
    return FALSE;
  if (fsync (self->fd) != 0)
    {
      set_write_error (self, errno, error);
      return FALSE;
    }
  if (!give_temporary_name (self, error))
    return FALSE;
  /* A rename as a save does, to a second name of our own, then gone. */
  second = duel_folder_temporary_name (self->name);
  ok = duel_folder_rename (folder, self->temporary, second, FALSE, error);
  if (ok)
    {
      g_free (self->temporary);
      self->temporary = g_steal_pointer (&second);
    }
  if (fstat (self->fd, &st) == 0)
    duel_folder_unlink_same (folder, self->temporary, &st);
  g_clear_pointer (&self->temporary, g_free);
  return ok;
}
