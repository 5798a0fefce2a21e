/* duel-file-writer.h — the one way Drive Duel writes a file
 *
 * Results, journals, exports (PNG, SVG, PDF, CSV, Markdown, fio jobs),
 * imports, screenshots and the app's history all go through here, under
 * one set of rules:
 *
 * - the name is looked up in a folder opened once (duel-folder.h), never
 *   through a link: a symbolic link at the name is refused, and a hard
 *   link is never written through (a file is replaced by a rename, so
 *   another name of the old file keeps its bytes);
 * - the new file is written beside the name as an unnamed file
 *   (O_TMPFILE), or where the filesystem has none as a temporary file of
 *   Drive Duel's own (duel_folder_temporary_name()), synced, then put in
 *   place at once: linked where the name is free, renamed over it where it
 *   may be replaced. Nothing is ever half written under the name;
 * - an existing file is replaced only if the rules allow it (the flags):
 *   a file of the same kind that Drive Duel writes (recognised by its
 *   first bytes), one Drive Duel made and nobody changed since
 *   (duel-made-files.h, whose writers pass its record here), an empty one, or any file when the person said
 *   so; anything else is refused with one sentence, before anything is
 *   written, and checked again when the file is put in place.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "duel-folder.h"

G_BEGIN_DECLS

typedef enum
{
  DUEL_WRITE_NEW              = 0,       /* only where the name is free */
  DUEL_WRITE_REPLACE_EMPTY    = 1 << 0,  /* an empty regular file */
  DUEL_WRITE_REPLACE_RESULT   = 1 << 1,  /* a Drive Duel result, by its first bytes */
  DUEL_WRITE_REPLACE_JOURNAL  = 1 << 2,  /* a Drive Duel journal, by its first line */
  DUEL_WRITE_REPLACE_MADE     = 1 << 3,  /* a file Drive Duel made, unchanged since */
  DUEL_WRITE_REPLACE_RECORD   = 1 << 4,  /* the record of made files itself */
  DUEL_WRITE_REPLACE_ANY      = 1 << 5,  /* any regular file: the person agreed */
  DUEL_WRITE_RECORD_MADE      = 1 << 6,  /* once in place, recorded as made (duel-made-files.h) */
  DUEL_WRITE_HINT_OVERWRITE   = 1 << 7,  /* a refusal names --overwrite-output */
} DuelWriteFlags;

typedef struct _DuelFileWriter DuelFileWriter;

/* The record of the files Drive Duel made (duel-made-files.h), as the
 * flags DUEL_WRITE_REPLACE_MADE and DUEL_WRITE_RECORD_MADE consult it:
 * whether the file open on @fd is one Drive Duel made and nobody changed
 * since, and noting one just put in place. That record sits above this
 * writer (it writes itself through it) and passes itself in through its
 * own writers; a writer made here without it refuses those flags. */
typedef struct
{
  gboolean (*is_unchanged) (int fd);
  void     (*record)       (int fd);
} DuelMadeFilesRecord;

/* Checks @name in @folder against @flags and opens the new file beside
 * it; nothing appears at @name before duel_file_writer_commit(). NULL and
 * one sentence when the rules refuse (DUEL_ERROR_EXISTS for a file in the
 * way, DUEL_ERROR_REFUSED for a link or another kind of file,
 * DUEL_ERROR_INVALID_ARGUMENT for a bad name) or the folder cannot be
 * written (G_IO_ERROR_*). */
DuelFileWriter *duel_file_writer_new_in     (DuelFolder      *folder,
                                             const char      *name,
                                             DuelWriteFlags   flags,
                                             GError         **error);
/* The same, consulting @made for the _MADE flags (NULL: none of them). */
DuelFileWriter *duel_file_writer_new_for    (DuelFolder                *folder,
                                             const char                *name,
                                             DuelWriteFlags             flags,
                                             const DuelMadeFilesRecord *made,
                                             GError                   **error);
/* The same for the file @path (its folder opened here). */
DuelFileWriter *duel_file_writer_new        (const char      *path,
                                             DuelWriteFlags   flags,
                                             GError         **error);
/* Whether @name could be written under @flags now; writes nothing. */
gboolean        duel_file_writer_check_in   (DuelFolder      *folder,
                                             const char      *name,
                                             DuelWriteFlags   flags,
                                             GError         **error);
gboolean        duel_file_writer_check_for  (DuelFolder                *folder,
                                             const char                *name,
                                             DuelWriteFlags             flags,
                                             const DuelMadeFilesRecord *made,
                                             GError                   **error);
gboolean        duel_file_writer_check      (const char      *path,
                                             DuelWriteFlags   flags,
                                             GError         **error);
/* The new file's descriptor (read and write), for a library that writes
 * to a descriptor; duel_file_writer_write() is the usual way. */
int             duel_file_writer_get_fd     (DuelFileWriter  *self);
/* The whole of @data, or FALSE and one sentence naming the file. */
gboolean        duel_file_writer_write      (DuelFileWriter  *self,
                                             const void      *data,
                                             gsize            length,
                                             GError         **error);
/* Syncs the file and puts it at its name: linked where the name is free,
 * renamed over a file the rules (checked again now) let it replace; then
 * syncs the folder. After it the descriptor is the file at the name. */
gboolean        duel_file_writer_commit     (DuelFileWriter  *self,
                                             GError         **error);
/* After a commit: the descriptor, which the writer then no longer closes
 * (a journal appends to it). */
int             duel_file_writer_steal_fd   (DuelFileWriter  *self);
/* Frees the writer; a file not committed is discarded. */
void            duel_file_writer_free       (DuelFileWriter  *self);

/* The whole file in one call: new, write, commit. */
gboolean        duel_file_write_contents    (const char      *path,
                                             const void      *data,
                                             gsize            length,
                                             DuelWriteFlags   flags,
                                             GError         **error);
gboolean        duel_file_write_contents_in (DuelFolder      *folder,
                                             const char      *name,
                                             const void      *data,
                                             gsize            length,
                                             DuelWriteFlags   flags,
                                             GError         **error);
/* What a save does, on a file of its own that never gets a lasting name:
 * created, written, synced, named and removed. FALSE with the reason when
 * the folder cannot take it. */
gboolean        duel_file_writer_probe      (DuelFolder      *folder,
                                             GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelFileWriter, duel_file_writer_free)

G_END_DECLS
