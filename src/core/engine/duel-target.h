/* duel-target.h — a regular file or a block device, opened with O_DIRECT
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define DUEL_TYPE_TARGET (duel_target_get_type ())

/* A file target Drive Duel opens for writing is recorded as made by it
 * (duel-made-files.h), as it was when the run let go of it. While it still
 * matches, the file holds nothing but what Drive Duel wrote, so writing it
 * again needs no consent (duel-safety.c); a file changed by anything else
 * since (its change time moved) no longer matches. */
typedef enum
{
  DUEL_TARGET_MARK_NONE,      /* never written by Drive Duel (or no xattrs here) */
  DUEL_TARGET_MARK_MATCHES,   /* as Drive Duel left it (or a run was cut short) */
  DUEL_TARGET_MARK_STALE,     /* changed since, or an old mark that cannot tell */
} DuelTargetMark;

G_DECLARE_FINAL_TYPE (DuelTarget, duel_target, DUEL, TARGET, GObject)

typedef enum
{
  DUEL_TARGET_KIND_FILE,
  DUEL_TARGET_KIND_BLOCK,
} DuelTargetKind;

typedef enum
{
  DUEL_TARGET_OPEN_READ      = 0,
  DUEL_TARGET_OPEN_WRITE     = 1 << 0,  /* the run writes */
  DUEL_TARGET_OPEN_CREATE    = 1 << 1,  /* files only: create or extend to create_size */
  DUEL_TARGET_OPEN_EXCLUSIVE = 1 << 2,  /* block devices: O_EXCL for the whole run */
  DUEL_TARGET_OPEN_LOCK      = 1 << 3,  /* one run at a time: duel_target_lock_fd() before anything is written */
} DuelTargetOpenFlags;

/* A block device this process may not open (EACCES, EPERM) is opened
 * through UDisks2 instead (duel-udisks.h), with the same access and flags:
 * polkit decides, and may ask. */
DuelTarget     *duel_target_open                   (const char           *path,
                                                    DuelTargetOpenFlags   flags,
                                                    guint64               create_size,
                                                    GError              **error);
/* Whether what the caller will do fits a target of @size bytes (what a file
 * will be once extended) in @logical_block_size-byte blocks: FALSE with one
 * sentence otherwise. */
typedef gboolean (*DuelTargetCheckFunc) (guint64     size,
                                         guint32     logical_block_size,
                                         gpointer    user_data,
                                         GError    **error);
/* duel_target_open() that asks @check once the target is open and its
 * geometry known, before anything is written to it: a file is extended only
 * after, a file this call created is removed again on a refusal. */
DuelTarget     *duel_target_open_checked           (const char           *path,
                                                    DuelTargetOpenFlags   flags,
                                                    guint64               create_size,
                                                    DuelTargetCheckFunc   check,
                                                    gpointer              user_data,
                                                    GError              **error);
/* Adopts a block device descriptor opened elsewhere (UDisks' OpenDevice):
 * it must have O_DIRECT, and O_RDWR when @writable. Takes ownership of @fd,
 * even on failure. */
DuelTarget     *duel_target_new_for_fd             (int                   fd,
                                                    const char           *path,
                                                    gboolean              writable,
                                                    GError              **error);
/* A file target opened for writing: records it as made by Drive Duel, as
 * it is now, once nothing more will be written (finalize does it too, but
 * a process may exit before a worker thread drops its last reference). */
void            duel_target_finish_writing         (DuelTarget           *self);
/* Whether the regular file open on @fd is as Drive Duel left it. */
DuelTargetMark  duel_target_check_mark             (int                   fd);
const char     *duel_target_get_path               (DuelTarget           *self);
DuelTargetKind  duel_target_get_kind               (DuelTarget           *self);
const char     *duel_target_kind_to_string         (DuelTargetKind        kind);
int             duel_target_get_fd                 (DuelTarget           *self);
guint64         duel_target_get_size               (DuelTarget           *self);
guint32         duel_target_get_logical_block_size (DuelTarget           *self);
guint32         duel_target_get_physical_block_size(DuelTarget           *self);
gboolean        duel_target_is_writable            (DuelTarget           *self);
/* The size now, read again from the descriptor: tells an I/O error caused
 * by a target shrinking under the run. FALSE when it cannot be read (a
 * FUSE server gone): nothing is known then, not a size of 0. */
gboolean        duel_target_query_current_size     (DuelTarget           *self,
                                                    guint64              *out_size);
/* Bring a range to "empty": BLKDISCARD on a device, a punched hole in a file. */
gboolean        duel_target_discard                (DuelTarget           *self,
                                                    guint64               offset,
                                                    guint64               length,
                                                    GError              **error);

G_END_DECLS
