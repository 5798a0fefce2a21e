/* duel-made-files.h — which files Drive Duel made, as it left them
 *
 * A file Drive Duel wrote (a file target after a run, an exported chart or
 * report) may be written again without asking while it holds nothing but
 * what Drive Duel put there. That is known from a record kept in the
 * user's state folder ($XDG_STATE_HOME/driveduel/made-files): each file by
 * its device, inode and birth time (so a new file given a recorded file's
 * inode is not taken for it), with its size, modification time and change
 * time (ctime) when Drive Duel let go of it. Whatever changes a file after that
 * changes its ctime, which nobody can set back (touch -d sets the
 * modification time, not the ctime), so an edit anywhere in it, with its
 * modification time put back or not, no longer matches.
 *
 * A file Drive Duel is still writing (a run in progress, or a run that was
 * killed) is recorded as "writing" with its size alone.
 *
 * Best effort: a record that cannot be written or read means the person is
 * asked again, never that a file is taken for Drive Duel's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "duel-file-writer.h"

G_BEGIN_DECLS

typedef enum
{
  DUEL_MADE_NONE,      /* not a file Drive Duel made (or no record of it) */
  DUEL_MADE_MATCHES,   /* as Drive Duel left it, or a run on it was cut short */
  DUEL_MADE_CHANGED,   /* Drive Duel made it, and it changed since */
} DuelMadeState;

/* The file open on @fd holds what Drive Duel left in it now. */
void           duel_made_files_record          (int fd);
/* Drive Duel is about to write the file open on @fd: until a later
 * duel_made_files_record(), only its size says it is untouched. */
void           duel_made_files_record_writing  (int fd);
DuelMadeState  duel_made_files_check           (int fd);
/* The writers of duel-file-writer.h with this record consulted, for the
 * flags DUEL_WRITE_REPLACE_MADE and DUEL_WRITE_RECORD_MADE (exports,
 * screenshots, fio job files): the same rules, the same sentences. */
DuelFileWriter *duel_made_files_writer_new_in  (DuelFolder      *folder,
                                                const char      *name,
                                                DuelWriteFlags   flags,
                                                GError         **error);
DuelFileWriter *duel_made_files_writer_new     (const char      *path,
                                                DuelWriteFlags   flags,
                                                GError         **error);
gboolean       duel_made_files_check_name_in   (DuelFolder      *folder,
                                                const char      *name,
                                                DuelWriteFlags   flags,
                                                GError         **error);
/* The whole file in one call: new, write, commit. */
gboolean       duel_made_files_write_contents  (const char      *path,
                                                const void      *data,
                                                gsize            length,
                                                DuelWriteFlags   flags,
                                                GError         **error);
/* Where the record is kept (for tests and docs). */
char          *duel_made_files_dup_path        (void);

G_END_DECLS
