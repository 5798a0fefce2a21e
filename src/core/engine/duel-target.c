/* duel-target.c — a regular file or a block device, opened with O_DIRECT
 *
 * Block sizes: a block device reports its own (BLKSSZGET, BLKPBSZGET). For a
 * file both are the filesystem's block size (st_blksize when it is a power of
 * two between 512 bytes and 64 KiB, else 4 KiB), raised to the direct I/O
 * offset alignment statx reports. The device's 512 would be accepted by
 * O_DIRECT on most filesystems, but sub-block direct writes are serialised or
 * turned into read-modify-write by ext4, XFS and btrfs, so they would measure
 * the filesystem rather than the drive.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/stat.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "duel-block-node.h"
#include "duel-error.h"
#include "duel-made-files.h"
#include "duel-target-lock.h"
#include "duel-target.h"
#include "duel-udisks.h"

#define FALLBACK_FILE_BLOCK_SIZE 4096u
#define MAX_FILE_BLOCK_SIZE      (64u * 1024)

struct _DuelTarget
{
  GObject         parent_instance;

  char           *path;
  DuelTargetKind  kind;
  int             fd;
  guint64         size;
  guint32         logical_block_size;
  guint32         physical_block_size;
  gboolean        writable;
  gboolean        marking;    /* a file opened for writing: marked again when closed */
};

G_DEFINE_FINAL_TYPE (DuelTarget, duel_target, G_TYPE_OBJECT)

static void
duel_target_finalize (GObject *object)
{
  DuelTarget *self = (DuelTarget *) object;

  duel_target_finish_writing (self);
  if (self->fd >= 0)
    g_close (self->fd, NULL);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (duel_target_parent_class)->finalize (object);
}

static void
duel_target_class_init (DuelTargetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = duel_target_finalize;
}

static void
duel_target_init (DuelTarget *self)
{
  self->fd = -1;
}

/* tmpfs (since 6.6) and ramfs accept O_DIRECT but serve it from memory. */
static gboolean
fs_is_memory_backed (const struct statfs *sfs)
{
  return sfs->f_type == TMPFS_MAGIC || sfs->f_type == RAMFS_MAGIC;
}

static void
set_no_direct_io_error (GError     **error,
                        const char  *path)
{
  g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
               _("“%s” is on a filesystem that does not support direct I/O (O_DIRECT), so results would measure the page cache."),
               path);
}

static void
set_open_error (GError     **error,
                const char  *path,
                int          saved_errno,
                gboolean     block)
{
  switch (saved_errno)
    {
    case EINVAL:
      if (block)
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                     _("“%s” does not support direct I/O (O_DIRECT), so results would measure the page cache."),
                     path);
      else
        set_no_direct_io_error (error, path);
      break;

    case EBUSY:
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("“%s” is in use: it is mounted or held by another program."),
                   path);
      break;

    case EACCES:
    case EPERM:
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("Permission denied opening “%s”."), path);
      break;

    case EROFS:
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("“%s” is read-only and cannot be written."), path);
      break;

    default:
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("Cannot open “%s”: %s"), path, g_strerror (saved_errno));
      break;
    }
}

static guint32
file_block_size (int                fd,
                 const struct stat *st)
{
  guint32 bs = FALLBACK_FILE_BLOCK_SIZE;
  struct statx stx;

  if (st->st_blksize >= 512 && st->st_blksize <= MAX_FILE_BLOCK_SIZE &&
      (st->st_blksize & (st->st_blksize - 1)) == 0)
    bs = st->st_blksize;

  /* Some filesystems need more than their block size for O_DIRECT. */
  memset (&stx, 0, sizeof stx);
  if (statx (fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
      (stx.stx_mask & STATX_DIOALIGN) != 0 &&
      stx.stx_dio_offset_align > bs &&
      (stx.stx_dio_offset_align & (stx.stx_dio_offset_align - 1)) == 0)
    bs = stx.stx_dio_offset_align;

  return bs;
}

static gboolean
extend_file (int          fd,
             const char  *path,
             guint64      from,
             guint64      to,
             GError     **error)
{
  int saved_errno;

  if (fallocate (fd, 0, (off_t) from, (off_t) (to - from)) == 0)
    return TRUE;

  saved_errno = errno;
  /* Filesystems without fallocate get a sparse file: correct, if less real. */
  if ((saved_errno == EOPNOTSUPP || saved_errno == ENOSYS) &&
      ftruncate (fd, (off_t) to) == 0)
    return TRUE;

  if (saved_errno == ENOSPC || saved_errno == EFBIG)
    {
      g_autofree char *size_text = g_format_size_full (to, G_FORMAT_SIZE_IEC_UNITS);

      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("There is not enough space to make “%s” %s large."),
                   path, size_text);
    }
  else
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                 _("Cannot allocate space for “%s”: %s"), path, g_strerror (saved_errno));
  return FALSE;
}

/* Reads size and block sizes from the descriptor just opened (or adopted);
 * changes nothing. */
static gboolean
read_geometry (DuelTarget   *self,
               const char   *path,
               GError      **error)
{
  struct stat st;
  struct statfs sfs;
  int saved_errno;

  /* What was opened is what counts, should the path have changed meanwhile. */
  if (fstat (self->fd, &st) != 0 ||
      (self->kind == DUEL_TARGET_KIND_BLOCK ? !S_ISBLK (st.st_mode) : !S_ISREG (st.st_mode)))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("“%s” changed while it was being opened."), path);
      return FALSE;
    }

  if (self->kind == DUEL_TARGET_KIND_BLOCK)
    {
      guint64 size = 0;
      int logical = 0;
      unsigned int physical = 0;

      if (ioctl (self->fd, BLKGETSIZE64, &size) != 0 ||
          ioctl (self->fd, BLKSSZGET, &logical) != 0 || logical <= 0)
        {
          saved_errno = errno;
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                       _("Cannot read the size of “%s”: %s"), path, g_strerror (saved_errno));
          return FALSE;
        }
      if (ioctl (self->fd, BLKPBSZGET, &physical) != 0 || physical < (unsigned int) logical)
        physical = logical;

      self->size = size;
      self->logical_block_size = logical;
      self->physical_block_size = physical;
    }
  else
    {
      if (fstatfs (self->fd, &sfs) == 0 && fs_is_memory_backed (&sfs))
        {
          set_no_direct_io_error (error, path);
          return FALSE;
        }

      self->size = st.st_size;
      self->logical_block_size = file_block_size (self->fd, &st);
      self->physical_block_size = self->logical_block_size;
    }

  return TRUE;
}

/* A file target Drive Duel writes is recorded as made by it
 * (duel-made-files.h): "writing" with its size from the open, then as it
 * was left (size, modification and change times) from the close. Whatever
 * writes to it after that changes its change time, which cannot be put
 * back, so the file no longer matches: consent is asked again. */
void
duel_target_finish_writing (DuelTarget *self)
{
  g_return_if_fail (DUEL_IS_TARGET (self));

  /* What the file holds now is what Drive Duel left in it. */
  if (self->fd >= 0 && self->marking)
    duel_made_files_record (self->fd);
  self->marking = FALSE;
}

DuelTargetMark
duel_target_check_mark (int fd)
{
  g_return_val_if_fail (fd >= 0, DUEL_TARGET_MARK_NONE);

  switch (duel_made_files_check (fd))
    {
    case DUEL_MADE_MATCHES:
      return DUEL_TARGET_MARK_MATCHES;
    case DUEL_MADE_CHANGED:
      return DUEL_TARGET_MARK_STALE;
    case DUEL_MADE_NONE:
    default:
      return DUEL_TARGET_MARK_NONE;
    }
}

DuelTarget *
duel_target_open (const char           *path,
                  DuelTargetOpenFlags   flags,
                  guint64               create_size,
                  GError              **error)
{
  return duel_target_open_checked (path, flags, create_size, NULL, NULL, error);
}

DuelTarget *
duel_target_open_checked (const char            *path,
                          DuelTargetOpenFlags    flags,
                          guint64                create_size,
                          DuelTargetCheckFunc    check,
                          gpointer               user_data,
                          GError               **error)
{
  g_autoptr(DuelTarget) self = NULL;
  guint64 size;
  gboolean writing = (flags & DUEL_TARGET_OPEN_WRITE) != 0;
  gboolean creating = writing && (flags & DUEL_TARGET_OPEN_CREATE) != 0;
  gboolean created = FALSE;
  struct stat st;
  struct statfs sfs;
  int oflags;
  int saved_errno;
  gboolean hidden = FALSE;

  g_return_val_if_fail (path != NULL && *path != '\0', NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (DUEL_TYPE_TARGET, NULL);
  self->path = g_strdup (path);
  self->writable = writing;

  oflags = O_DIRECT | O_CLOEXEC | (writing ? O_RDWR : O_RDONLY);

  /* Look before opening: opening a FIFO would block, and a refused
   * filesystem must not be left with a new file on it. */
  if (duel_block_node_stat (path, &st, &hidden) != 0)
    {
      g_autofree char *parent = NULL;

      saved_errno = errno;
      if (saved_errno != ENOENT || !creating)
        {
          if (saved_errno == ENOENT)
            g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                         _("“%s” does not exist."), path);
          else
            g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                         _("Cannot examine “%s”: %s"), path, g_strerror (saved_errno));
          return NULL;
        }

      parent = g_path_get_dirname (path);
      if (statfs (parent, &sfs) == 0 && fs_is_memory_backed (&sfs))
        {
          set_no_direct_io_error (error, path);
          return NULL;
        }

      self->kind = DUEL_TARGET_KIND_FILE;
      self->fd = open (path, oflags | O_CREAT | O_EXCL, 0666);
      if (self->fd < 0)
        {
          saved_errno = errno;
          /* The kernel creates the file before it refuses O_DIRECT; with
           * O_EXCL the file is certainly the one this call made. */
          if (saved_errno == EINVAL)
            g_unlink (path);
          set_open_error (error, path, saved_errno, FALSE);
          return NULL;
        }
      created = TRUE;
    }
  else if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("“%s” is a directory, not a file or a block device."), path);
      return NULL;
    }
  else if (S_ISBLK (st.st_mode))
    {
      self->kind = DUEL_TARGET_KIND_BLOCK;
      if (flags & DUEL_TARGET_OPEN_EXCLUSIVE)
        oflags |= O_EXCL;
      /* A sandbox without the node reaches it only through UDisks. */
      self->fd = hidden ? -1 : open (path, oflags);
      saved_errno = errno;
      /* Not this user's to open: UDisks may open it for them, if polkit
       * agrees; its error then says what else would do. */
      if (self->fd < 0 && (hidden || saved_errno == EACCES || saved_errno == EPERM))
        {
          struct stat fd_st;

          self->fd = duel_udisks_open_device (path, writing, oflags & ~O_ACCMODE, NULL, error);
          if (self->fd < 0)
            return NULL;
          if (fstat (self->fd, &fd_st) != 0 || !S_ISBLK (fd_st.st_mode) || fd_st.st_rdev != st.st_rdev)
            {
              g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                           _("“%s” changed while it was being opened."), path);
              return NULL;
            }
        }
      else if (self->fd < 0)
        {
          set_open_error (error, path, saved_errno, TRUE);
          return NULL;
        }
    }
  else if (S_ISREG (st.st_mode))
    {
      self->kind = DUEL_TARGET_KIND_FILE;
      if (statfs (path, &sfs) == 0 && fs_is_memory_backed (&sfs))
        {
          set_no_direct_io_error (error, path);
          return NULL;
        }
      self->fd = open (path, oflags);
      if (self->fd < 0)
        {
          set_open_error (error, path, errno, FALSE);
          return NULL;
        }
    }
  else
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("“%s” is neither a regular file nor a block device."), path);
      return NULL;
    }

  /* Before anything is written, even the made-by mark. A file this call
   * made that another run locked first is that run's now. */
  if ((flags & DUEL_TARGET_OPEN_LOCK) != 0 && !duel_target_lock_fd (self->fd, path, error))
    {
      created = FALSE;
      goto fail;
    }
  if (!read_geometry (self, path, error))
    goto fail;

  /* What the run will do must fit the target before anything is written
   * to it: a file is not extended yet, a new one still empty. */
  size = creating ? MAX (self->size, create_size) : self->size;
  if (check != NULL && size > 0 && !check (size, self->logical_block_size, user_data, error))
    goto fail;
  if (size > self->size)
    {
      if (!extend_file (self->fd, path, self->size, size, error))
        goto fail;
      self->size = size;
    }
  if (self->size == 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("“%s” is empty (0 bytes)."), path);
      goto fail;
    }

  /* Opened for writing, with consent where the file held data: from now on
   * it holds what Drive Duel writes, marked as such until it is closed. */
  if (writing && self->kind == DUEL_TARGET_KIND_FILE)
    {
      duel_made_files_record_writing (self->fd);
      self->marking = TRUE;
    }

  return g_steal_pointer (&self);

fail:
  /* Leave no trace of a file this call created. */
  if (created)
    g_unlink (path);
  return NULL;
}

DuelTarget *
duel_target_new_for_fd (int          fd,
                        const char  *path,
                        gboolean     writable,
                        GError     **error)
{
  g_autoptr(DuelTarget) self = NULL;
  struct stat st;
  int status_flags;

  g_return_val_if_fail (fd >= 0, NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (DUEL_TYPE_TARGET, NULL);
  self->path = g_strdup (path);
  self->writable = writable;
  self->fd = fd;                    /* owned from here on, closed in finalize */
  self->kind = DUEL_TARGET_KIND_BLOCK;

  if (fstat (fd, &st) != 0 || !S_ISBLK (st.st_mode))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("The descriptor given for “%s” is not a block device."), path);
      return NULL;
    }
  /* Results must never measure the page cache. */
  status_flags = fcntl (fd, F_GETFL);
  if (status_flags < 0 || (status_flags & O_DIRECT) == 0 ||
      (writable && (status_flags & O_ACCMODE) != O_RDWR))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("The descriptor given for “%s” was not opened for direct I/O with the access the run needs."),
                   path);
      return NULL;
    }

  if (!read_geometry (self, path, error))
    return NULL;
  if (self->size == 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("“%s” is empty (0 bytes)."), path);
      return NULL;
    }

  return g_steal_pointer (&self);
}

gboolean
duel_target_query_current_size (DuelTarget *self,
                                guint64    *out_size)
{
  struct stat st;
  guint64 size = 0;

  g_return_val_if_fail (DUEL_IS_TARGET (self), FALSE);
  g_return_val_if_fail (out_size != NULL, FALSE);

  *out_size = 0;
  if (self->kind == DUEL_TARGET_KIND_BLOCK)
    {
      if (ioctl (self->fd, BLKGETSIZE64, &size) != 0)
        return FALSE;
      *out_size = size;
      return TRUE;
    }
  if (fstat (self->fd, &st) != 0)
    return FALSE;
  *out_size = (guint64) st.st_size;
  return TRUE;
}

const char *
duel_target_get_path (DuelTarget *self)
{
  g_return_val_if_fail (DUEL_IS_TARGET (self), NULL);

  return self->path;
}

DuelTargetKind
duel_target_get_kind (DuelTarget *self)
{
  g_return_val_if_fail (DUEL_IS_TARGET (self), DUEL_TARGET_KIND_FILE);

  return self->kind;
}

const char *
duel_target_kind_to_string (DuelTargetKind kind)
{
  switch (kind)
    {
    case DUEL_TARGET_KIND_FILE:
      return "file";
    case DUEL_TARGET_KIND_BLOCK:
      return "block";
    default:
      g_return_val_if_reached (NULL);
    }
}

int
duel_target_get_fd (DuelTarget *self)
{
  g_return_val_if_fail (DUEL_IS_TARGET (self), -1);

  return self->fd;
}

guint64
duel_target_get_size (DuelTarget *self)
{
  g_return_val_if_fail (DUEL_IS_TARGET (self), 0);

  return self->size;
}

guint32
duel_target_get_logical_block_size (DuelTarget *self)
{
  g_return_val_if_fail (DUEL_IS_TARGET (self), 0);

  return self->logical_block_size;
}

guint32
duel_target_get_physical_block_size (DuelTarget *self)
{
  g_return_val_if_fail (DUEL_IS_TARGET (self), 0);

  return self->physical_block_size;
}

gboolean
duel_target_is_writable (DuelTarget *self)
{
  g_return_val_if_fail (DUEL_IS_TARGET (self), FALSE);

  return self->writable;
}

gboolean
duel_target_discard (DuelTarget  *self,
                     guint64      offset,
                     guint64      length,
                     GError     **error)
{
  int saved_errno;

  g_return_val_if_fail (DUEL_IS_TARGET (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->writable)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("“%s” was opened read-only, so it cannot be discarded."), self->path);
      return FALSE;
    }
  if (offset > self->size || length > self->size - offset ||
      offset % self->logical_block_size != 0 || length % self->logical_block_size != 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The range to discard (%" PRIu64 " bytes at offset %" PRIu64 ") is not inside “%s” or not aligned to its %u-byte blocks."),
                   length, offset, self->path, self->logical_block_size);
      return FALSE;
    }
  if (length == 0)
    return TRUE;

  if (self->kind == DUEL_TARGET_KIND_BLOCK)
    {
      guint64 range[2] = { offset, length };

      if (ioctl (self->fd, BLKDISCARD, range) == 0)
        return TRUE;
      saved_errno = errno;
      if (saved_errno == EOPNOTSUPP || saved_errno == ENOTTY)
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                     _("“%s” does not support discard (TRIM)."), self->path);
      else
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                     _("Discarding “%s” failed: %s"), self->path, g_strerror (saved_errno));
      return FALSE;
    }

  if (fallocate (self->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                 (off_t) offset, (off_t) length) == 0)
    return TRUE;
  saved_errno = errno;
  if (saved_errno == EOPNOTSUPP || saved_errno == ENOSYS)
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                 _("The filesystem of “%s” cannot punch holes, so the file cannot be discarded."),
                 self->path);
  else
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                 _("Discarding “%s” failed: %s"), self->path, g_strerror (saved_errno));
  return FALSE;
}
