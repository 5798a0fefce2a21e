/* duel-made-files.c — which files Drive Duel made, as it left them
 *
 * The record is a text file: a header line, then one line per event,
 * newest last:
 *
 *   driveduel-made-files 1
 *   done DEV INO BIRTH SIZE MTIME CTIME
 *   writing DEV INO BIRTH SIZE
 *
 * (times as SECONDS.NANOSECONDS; BIRTH "-" where the filesystem keeps none)
 *
 * Writers append a line (O_APPEND, one write) under a shared flock; when
 * the file has grown past COMPACT_BYTES, one of them rewrites it under an
 * exclusive flock, keeping the newest line of each file, at most
 * KEEP_FILES of them, and renames it into place. An appender that finds
 * the name holding another file than the one it locked starts again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "duel-error.h"
#include "duel-file-writer.h"
#include "duel-folder.h"
#include "duel-formats.h"
#include "duel-made-files.h"

#define RECORD_NAME     "made-files"
#define RECORD_VERSION  1
#define COMPACT_BYTES   (256 * 1024)
#define KEEP_FILES      2048
/* Larger than any record this code writes: a file past it is not read. */
#define MAX_READ_BYTES  (4 * 1024 * 1024)

static char *
record_folder (void)
{
  return g_build_filename (g_get_user_state_dir (), "driveduel", NULL);
}

char *
duel_made_files_dup_path (void)
{
  g_autofree char *folder = record_folder ();

  return g_build_filename (folder, RECORD_NAME, NULL);
}

static DuelFolder *
open_record_folder (gboolean create)
{
  g_autofree char *path = record_folder ();
  g_autoptr(GError) error = NULL;
  DuelFolder *folder;

  if (create && g_mkdir_with_parents (path, 0700) != 0)
    {
      g_debug ("No record of made files: cannot create %s: %s", path, g_strerror (errno));
      return NULL;
    }
  folder = duel_folder_open (path, &error);
  if (folder == NULL && create)
    g_debug ("No record of made files: %s", error->message);
  return folder;
}

static gboolean
same_file (const struct stat *a,
           const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The whole record, read from @fd; NULL when it is not one. */
static char *
read_record (int fd)
{
  struct stat st;
  g_autofree char *text = NULL;
  gsize done = 0;

  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size > MAX_READ_BYTES)
    return NULL;
  text = g_malloc ((gsize) st.st_size + 1);
  while (done < (gsize) st.st_size)
    {
      ssize_t n = pread (fd, text + done, (gsize) st.st_size - done, (off_t) done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      done += (gsize) n;
    }
  text[done] = '\0';
  if (!g_str_has_prefix (text, DUEL_MADE_FILES_FORMAT " "))
    return NULL;
  return g_steal_pointer (&text);
}

static char *
key_of (const char *line)
{
  g_auto(GStrv) fields = g_strsplit (line, " ", 4);

  if (g_strv_length (fields) < 3)
    return NULL;
  return g_strdup_printf ("%s %s", fields[1], fields[2]);
}

/* The record rewritten with the newest line of each file, oldest first. */
static void
compact (DuelFolder *folder)
{
  g_autoptr(GHashTable) newest = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) keep = g_ptr_array_new ();
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  struct stat fd_st, name_st;
  int fd;

  fd = openat (duel_folder_get_fd (folder), RECORD_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return;
  if (flock (fd, LOCK_EX) != 0 || fstat (fd, &fd_st) != 0 ||
      duel_folder_stat (folder, RECORD_NAME, &name_st) != 0 || !same_file (&fd_st, &name_st) ||
      fd_st.st_size <= COMPACT_BYTES || (text = read_record (fd)) == NULL)
    {
      close (fd);
      return;
    }

  lines = g_strsplit (text, "\n", -1);
  /* Newest first, each file once, then reversed. */
  for (guint n = g_strv_length (lines); n > 1 && keep->len < KEEP_FILES; n--)
    {
      char *line = lines[n - 1];
      char *key = key_of (line);

      if (key == NULL || g_hash_table_contains (newest, key))
        {
          g_free (key);
          continue;
        }
      g_hash_table_add (newest, key);
      g_ptr_array_add (keep, line);
    }
  g_string_append_printf (out, DUEL_MADE_FILES_FORMAT " %d\n", RECORD_VERSION);
  for (guint i = keep->len; i > 0; i--)
    g_string_append_printf (out, "%s\n", (const char *) g_ptr_array_index (keep, i - 1));
  if (!duel_file_write_contents_in (folder, RECORD_NAME, out->str, out->len, DUEL_WRITE_REPLACE_RECORD, &error))
    g_debug ("Could not compact the record of made files: %s", error->message);
  close (fd);
}

static void
append_line (const char *line)
{
  g_autoptr(DuelFolder) folder = open_record_folder (TRUE);
  g_autofree char *header = g_strdup_printf (DUEL_MADE_FILES_FORMAT " %d\n", RECORD_VERSION);

  if (folder == NULL)
    return;
  for (guint attempt = 0; attempt < 8; attempt++)
    {
      g_autoptr(GError) error = NULL;
      struct stat fd_st, name_st;
      gboolean written;
      char head[64];
      ssize_t n;
      int fd;

      fd = openat (duel_folder_get_fd (folder), RECORD_NAME, O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0 && errno == ENOENT)
        {
          if (!duel_file_write_contents_in (folder, RECORD_NAME, header, strlen (header), DUEL_WRITE_NEW, &error) &&
              !g_error_matches (error, DUEL_ERROR, DUEL_ERROR_EXISTS))
            {
              g_debug ("Could not start the record of made files: %s", error->message);
              return;
            }
          continue;
        }
      if (fd < 0)
        {
          g_debug ("Could not open the record of made files: %s", g_strerror (errno));
          return;
        }
      n = pread (fd, head, sizeof head - 1, 0);
      head[MAX (n, 0)] = '\0';
      if (fstat (fd, &fd_st) != 0 || !S_ISREG (fd_st.st_mode) ||
          !g_str_has_prefix (head, DUEL_MADE_FILES_FORMAT " "))
        {
          g_debug ("The record of made files is not one; nothing recorded");
          close (fd);
          return;
        }
      /* Shared with other appenders, apart from a compaction. */
      if (flock (fd, LOCK_SH) != 0 ||
          duel_folder_stat (folder, RECORD_NAME, &name_st) != 0 || !same_file (&fd_st, &name_st))
        {
          close (fd);
          continue;
        }
      written = write (fd, line, strlen (line)) == (ssize_t) strlen (line);
      if (!written)
        g_debug ("Could not add to the record of made files: %s", g_strerror (errno));
      fstat (fd, &fd_st);
      close (fd);
      if (fd_st.st_size > COMPACT_BYTES)
        compact (folder);
      return;
    }
}

/* What tells one file from another and a file from itself changed: its
 * device and inode; its birth time (statx), so that a new file given an
 * inode a recorded one had is not taken for it; its size, modification
 * and change times. */
typedef struct
{
  guint64 dev;
  guint64 ino;
  char    birth[48];     /* "S.NNNNNNNNN", or "-" where the filesystem has none */
  gint64  size;
  char    mtime[48];
  char    ctime[48];
} Identity;

static gboolean
identify (int       fd,
          Identity *out)
{
  struct statx stx;

  if (statx (fd, "", AT_EMPTY_PATH | AT_STATX_SYNC_AS_STAT,
             STATX_TYPE | STATX_INO | STATX_SIZE | STATX_MTIME | STATX_CTIME | STATX_BTIME, &stx) != 0 ||
      !S_ISREG (stx.stx_mode))
    return FALSE;
  out->dev = ((guint64) stx.stx_dev_major << 32) | stx.stx_dev_minor;
  out->ino = stx.stx_ino;
  out->size = (gint64) stx.stx_size;
  if (stx.stx_mask & STATX_BTIME)
    g_snprintf (out->birth, sizeof out->birth, "%" PRId64 ".%09u", (gint64) stx.stx_btime.tv_sec, stx.stx_btime.tv_nsec);
  else
    g_strlcpy (out->birth, "-", sizeof out->birth);
  g_snprintf (out->mtime, sizeof out->mtime, "%" PRId64 ".%09u", (gint64) stx.stx_mtime.tv_sec, stx.stx_mtime.tv_nsec);
  g_snprintf (out->ctime, sizeof out->ctime, "%" PRId64 ".%09u", (gint64) stx.stx_ctime.tv_sec, stx.stx_ctime.tv_nsec);
  return TRUE;
}

/* "done DEV INO BIRTH SIZE MTIME CTIME" */
static char *
done_line (const Identity *id)
{
  return g_strdup_printf ("done %" PRIu64 " %" PRIu64 " %s %" PRId64 " %s %s\n",
                          id->dev, id->ino, id->birth, id->size, id->mtime, id->ctime);
}

/* "writing DEV INO BIRTH SIZE" */
static char *
writing_line (const Identity *id)
{
  return g_strdup_printf ("writing %" PRIu64 " %" PRIu64 " %s %" PRId64 "\n", id->dev, id->ino, id->birth, id->size);
}

void
duel_made_files_record (int fd)
{
  g_autofree char *line = NULL;
  Identity id;

  g_return_if_fail (fd >= 0);

  if (!identify (fd, &id))
    return;
  line = done_line (&id);
  append_line (line);
}

void
duel_made_files_record_writing (int fd)
{
  g_autofree char *line = NULL;
  Identity id;

  g_return_if_fail (fd >= 0);

  if (!identify (fd, &id))
    return;
  line = writing_line (&id);
  append_line (line);
}

DuelMadeState
duel_made_files_check (int fd)
{
  g_autoptr(DuelFolder) folder = NULL;
  g_autofree char *text = NULL;
  g_autofree char *key = NULL;
  g_autofree char *done = NULL;
  g_autofree char *writing = NULL;
  g_auto(GStrv) fields = NULL;
  const char *line = NULL;
  Identity id;
  int record_fd;

  g_return_val_if_fail (fd >= 0, DUEL_MADE_NONE);

  if (!identify (fd, &id))
    return DUEL_MADE_NONE;
  folder = open_record_folder (FALSE);
  if (folder == NULL)
    return DUEL_MADE_NONE;
  record_fd = openat (duel_folder_get_fd (folder), RECORD_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (record_fd < 0)
    return DUEL_MADE_NONE;
  text = read_record (record_fd);
  close (record_fd);
  if (text == NULL)
    return DUEL_MADE_NONE;

  /* The newest line of this inode is what Drive Duel last knew of it. */
  key = g_strdup_printf (" %" PRIu64 " %" PRIu64 " ", id.dev, id.ino);
  for (const char *at = text; (at = strstr (at, key)) != NULL; at++)
    {
      const char *start = at;

      while (start > text && start[-1] != '\n')
        start--;
      if (start + strcspn (start, " ") == at)
        line = start;
    }
  if (line == NULL)
    return DUEL_MADE_NONE;

  /* Born at another time: another file, now at an inode a recorded one
   * had. Nothing is known of it. */
  {
    g_autofree char *first = g_strndup (line, strcspn (line, "\n"));

    fields = g_strsplit (first, " ", 5);
  }
  if (g_strv_length (fields) < 4 ||
      (!g_str_equal (fields[3], "-") && !g_str_equal (id.birth, "-") && !g_str_equal (fields[3], id.birth)))
    return DUEL_MADE_NONE;

  done = done_line (&id);
  writing = writing_line (&id);
  if (strncmp (line, done, strlen (done)) == 0 || strncmp (line, writing, strlen (writing)) == 0)
    return DUEL_MADE_MATCHES;
  return DUEL_MADE_CHANGED;
}

/* ---- The writers that consult the record -------------------------------------- */

static gboolean
is_unchanged (int fd)
{
  return duel_made_files_check (fd) == DUEL_MADE_MATCHES;
}

static const DuelMadeFilesRecord the_record = {
  .is_unchanged = is_unchanged,
  .record = duel_made_files_record,
};

DuelFileWriter *
duel_made_files_writer_new_in (DuelFolder      *folder,
                               const char      *name,
                               DuelWriteFlags   flags,
                               GError         **error)
{
  return duel_file_writer_new_for (folder, name, flags, &the_record, error);
}

DuelFileWriter *
duel_made_files_writer_new (const char      *path,
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
  return duel_made_files_writer_new_in (folder, name, flags, error);
}

gboolean
duel_made_files_check_name_in (DuelFolder      *folder,
                               const char      *name,
                               DuelWriteFlags   flags,
                               GError         **error)
{
  return duel_file_writer_check_for (folder, name, flags, &the_record, error);
}

gboolean
duel_made_files_write_contents (const char      *path,
                                const void      *data,
                                gsize            length,
                                DuelWriteFlags   flags,
                                GError         **error)
{
  g_autoptr(DuelFileWriter) writer = duel_made_files_writer_new (path, flags, error);

  return writer != NULL &&
         duel_file_writer_write (writer, data, length, error) &&
         duel_file_writer_commit (writer, error);
}
