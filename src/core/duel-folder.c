/* duel-folder.c — a folder opened once, where Drive Duel's files are written
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <unistd.h>

#include "duel-error.h"
#include "duel-folder.h"
#include "duel-formats.h"

#define TEMPORARY_SUFFIX      ".driveduel-tmp"
#define TEMPORARY_RANDOM      16
/* Room in a 255-byte name for "." + "." + random + suffix. */
#define TEMPORARY_NAME_BYTES  (255 - 2 - TEMPORARY_RANDOM - (sizeof TEMPORARY_SUFFIX - 1))

struct _DuelFolder
{
  gatomicrefcount  ref_count;
  int              fd;
  gboolean         readable;   /* opened O_RDONLY, not O_PATH: it can be synced */
  char            *path;
};

static DuelFolder *
open_folder (const char  *path,
             const char  *shown,
             GError     **error)
{
  DuelFolder *self;
  struct stat st;
  gboolean readable = TRUE;
  int fd;

  /* The kernel resolves the path, links in it included, as it would for
   * any program: protected_symlinks and permissions apply there. */
  fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 && errno == EACCES)
    {
      /* A folder one may write in but not list. */
      fd = open (path, O_PATH | O_DIRECTORY | O_CLOEXEC);
      readable = FALSE;
    }
  if (fd < 0)
    {
      int saved_errno = errno;
      g_autofree char *display = g_filename_display_name (shown);

      if (saved_errno == ENOENT)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     _("The folder %s does not exist."), display);
      else if (saved_errno == ENOTDIR)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                     _("%s is not a folder."), display);
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                     _("Cannot open the folder %s: %s"), display, g_strerror (saved_errno));
      return NULL;
    }
  if (fstat (fd, &st) != 0 || !S_ISDIR (st.st_mode))
    {
      g_autofree char *display = g_filename_display_name (shown);

      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY, _("%s is not a folder."), display);
      return NULL;
    }

  self = g_new0 (DuelFolder, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->fd = fd;
  self->readable = readable;
  self->path = g_strdup (shown);
  return self;
}

DuelFolder *
duel_folder_open (const char  *path,
                  GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (*path == '\0')
    {
      g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT, _("The folder name is empty."));
      return NULL;
    }
  return open_folder (path, path, error);
}

DuelFolder *
duel_folder_open_for_file (const char  *path,
                           char       **out_name,
                           GError     **error)
{
  g_autofree char *folder = NULL;
  g_autofree char *name = NULL;
  DuelFolder *self;
  gsize length;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (out_name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  length = strlen (path);
  if (length == 0)
    {
      g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT, _("The file name is empty."));
      return NULL;
    }
  name = g_path_get_basename (path);
  if (path[length - 1] == '/' || g_str_equal (name, ".") || g_str_equal (name, "..") ||
      g_str_equal (name, "/"))
    {
      g_autofree char *display = g_filename_display_name (path);

      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("“%s” names a folder; give the name of a file."), display);
      return NULL;
    }
  folder = g_path_get_dirname (path);
  self = open_folder (folder, folder, error);
  if (self == NULL)
    return NULL;
  *out_name = g_steal_pointer (&name);
  return self;
}

DuelFolder *
duel_folder_ref (DuelFolder *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
duel_folder_unref (DuelFolder *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  close (self->fd);
  g_free (self->path);
  g_free (self);
}

int
duel_folder_get_fd (DuelFolder *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->fd;
}

const char *
duel_folder_get_path (DuelFolder *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

char *
duel_folder_dup_display (DuelFolder *self,
                         const char *name)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  path = g_str_equal (self->path, ".") ? g_strdup (name) : g_build_filename (self->path, name, NULL);
  return g_filename_display_name (path);
}

gboolean
duel_folder_is_removed (DuelFolder *self)
{
  struct stat st;

  g_return_val_if_fail (self != NULL, FALSE);

  /* A removed folder has no links left (its "." is gone with it). */
  return fstat (self->fd, &st) == 0 && st.st_nlink == 0;
}

int
duel_folder_stat (DuelFolder  *self,
                  const char  *name,
                  struct stat *out_st)
{
  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  return fstatat (self->fd, name, out_st, AT_SYMLINK_NOFOLLOW);
}

int
duel_folder_open_regular (DuelFolder  *self,
                          const char  *name,
                          struct stat *out_st)
{
  struct stat st;
  int fd;

  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  /* O_NONBLOCK: a FIFO planted at the name must not hang the open. */
  fd = openat (self->fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    return -1;
  if (fstat (fd, &st) != 0)
    {
      int saved_errno = errno;

      close (fd);
      errno = saved_errno;
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      errno = S_ISDIR (st.st_mode) ? EISDIR : EINVAL;
      return -1;
    }
  if (out_st != NULL)
    *out_st = st;
  return fd;
}

static gboolean
same_file (const struct stat *a,
           const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

gboolean
duel_folder_rename (DuelFolder  *self,
                    const char  *from,
                    const char  *to,
                    gboolean     replace,
                    GError     **error)
{
  int saved_errno;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (from != NULL && to != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (replace)
    {
      if (renameat (self->fd, from, self->fd, to) == 0)
        return TRUE;
      saved_errno = errno;
    }
  else
    {
#ifdef RENAME_NOREPLACE
      if (renameat2 (self->fd, from, self->fd, to, RENAME_NOREPLACE) == 0)
        return TRUE;
      saved_errno = errno;
      if (saved_errno == EINVAL || saved_errno == ENOSYS || saved_errno == EOPNOTSUPP)
#endif
        {
          struct stat st;

          /* No atomic no-replace rename here: a link, which fails on an
           * existing name, then the old name goes. */
          if (linkat (self->fd, from, self->fd, to, 0) == 0)
            {
              if (fstatat (self->fd, to, &st, AT_SYMLINK_NOFOLLOW) == 0)
                duel_folder_unlink_same (self, from, &st);
              return TRUE;
            }
          saved_errno = errno;
        }
    }

  {
    g_autofree char *display = duel_folder_dup_display (self, to);

    if (saved_errno == EEXIST)
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("“%s” appeared meanwhile; it was left as it is."), display);
    else
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not put “%s” in place: %s"), display, g_strerror (saved_errno));
  }
  return FALSE;
}

gboolean
duel_folder_unlink_same (DuelFolder        *self,
                         const char        *name,
                         const struct stat *expected)
{
  struct stat st;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (name != NULL && expected != NULL, FALSE);

  /* A window remains between the look and the unlink; what could slip in
   * there loses only this name, never its bytes. */
  if (fstatat (self->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !same_file (&st, expected))
    return FALSE;
  return unlinkat (self->fd, name, 0) == 0;
}

void
duel_folder_sync (DuelFolder *self)
{
  g_return_if_fail (self != NULL);

  if (self->readable && fsync (self->fd) != 0)
    g_debug ("Could not sync the folder %s: %s", self->path, g_strerror (errno));
}

char *
duel_folder_temporary_name (const char *name)
{
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  guint8 random_bytes[TEMPORARY_RANDOM];
  char random_text[TEMPORARY_RANDOM + 1];
  const char *end;
  gsize length;

  g_return_val_if_fail (name != NULL, NULL);

  /* Unguessable: another user cannot plant the name first. */
  if (getrandom (random_bytes, sizeof random_bytes, 0) != (ssize_t) sizeof random_bytes)
    for (guint i = 0; i < TEMPORARY_RANDOM; i++)
      random_bytes[i] = (guint8) g_random_int ();
  for (guint i = 0; i < TEMPORARY_RANDOM; i++)
    random_text[i] = alphabet[random_bytes[i] % (sizeof alphabet - 1)];
  random_text[TEMPORARY_RANDOM] = '\0';

  /* Cut at a character where the name is UTF-8. */
  length = MIN (strlen (name), (gsize) TEMPORARY_NAME_BYTES);
  if (g_utf8_validate (name, -1, NULL))
    while (length > 0 && (name[length] & 0xC0) == 0x80)
      length--;
  end = name + length;
  return g_strdup_printf (".%.*s.%s" TEMPORARY_SUFFIX, (int) (end - name), name, random_text);
}

gboolean
duel_folder_is_temporary_name (const char *name)
{
  gsize length, suffix = sizeof TEMPORARY_SUFFIX - 1;
  const char *random_part;

  g_return_val_if_fail (name != NULL, FALSE);

  length = strlen (name);
  if (name[0] != '.' || length < 2 + TEMPORARY_RANDOM + suffix || !g_str_has_suffix (name, TEMPORARY_SUFFIX))
    return FALSE;
  random_part = name + length - suffix - TEMPORARY_RANDOM;
  if (random_part[-1] != '.')
    return FALSE;
  for (guint i = 0; i < TEMPORARY_RANDOM; i++)
    if (!g_ascii_islower (random_part[i]) && !g_ascii_isdigit (random_part[i]))
      return FALSE;
  return TRUE;
}

guint
duel_folder_remove_stale_temporaries (DuelFolder *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint removed = 0;
  int listing;
  DIR *dir;
  struct dirent *entry;

  g_return_val_if_fail (self != NULL, 0);

  if (!self->readable)
    return 0;
  listing = openat (self->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (listing < 0 || (dir = fdopendir (listing)) == NULL)
    {
      if (listing >= 0)
        close (listing);
      return 0;
    }
  while ((entry = readdir (dir)) != NULL)
    if (duel_folder_is_temporary_name (entry->d_name))
      g_ptr_array_add (names, g_strdup (entry->d_name));
  closedir (dir);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      struct stat st;
      int fd = duel_folder_open_regular (self, name, &st);

      if (fd < 0)
        continue;
      /* Its writer holds an flock for as long as it lives: a lock taken
       * here means nobody writes it any more. Only what is plainly one of
       * ours goes (empty, a result or a journal, this user's): a file of
       * someone else's that happens to have such a name stays. */
      if (st.st_uid == geteuid () && flock (fd, LOCK_EX | LOCK_NB) == 0 &&
          (st.st_size == 0 || duel_file_is_result (fd) || duel_file_is_journal (fd)) &&
          duel_folder_unlink_same (self, name, &st))
        {
          g_debug ("Removed %s/%s, left by a writer that was killed", self->path, name);
          removed++;
        }
      close (fd);
    }
  return removed;
}
