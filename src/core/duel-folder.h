/* duel-folder.h — a folder opened once, where Drive Duel's files are written
 *
 * Every file Drive Duel writes is named inside a folder it holds open: the
 * folder's path is resolved once, by the kernel (so fs.protected_symlinks
 * and the like apply to links in it), and every later name is looked up
 * in that folder without following a link. A path changed meanwhile (the
 * folder renamed or removed, a link planted in its place) cannot send a
 * write anywhere else.
 *
 * The file writer (duel-file-writer.h) creates and replaces files in it;
 * this holds what the writers share: names, renames, and the temporary
 * files a killed writer leaves behind. A lock file in it is
 * duel-folder-lock.h's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <sys/stat.h>

G_BEGIN_DECLS

typedef struct _DuelFolder DuelFolder;

/* The folder that holds @path, and in @out_name its last component, which
 * must be a name (not empty, ".", ".." or ending in "/"). FALSE with one
 * sentence when the folder does not exist or cannot be opened. */
DuelFolder *duel_folder_open_for_file (const char   *path,
                                       char        **out_name,
                                       GError      **error);
/* The folder at @path itself. */
DuelFolder *duel_folder_open          (const char   *path,
                                       GError      **error);
DuelFolder *duel_folder_ref           (DuelFolder   *self);
void        duel_folder_unref         (DuelFolder   *self);
int         duel_folder_get_fd        (DuelFolder   *self);
/* The path it was opened with, for sentences. */
const char *duel_folder_get_path      (DuelFolder   *self);
/* "FOLDER/NAME" for sentences (the path given, not a resolved one). */
char       *duel_folder_dup_display   (DuelFolder   *self,
                                       const char   *name);
/* Whether the folder was removed since it was opened (nothing written in
 * it can be found again). */
gboolean    duel_folder_is_removed    (DuelFolder   *self);
/* fstatat() without following a link: 0, or -1 with errno. */
int         duel_folder_stat          (DuelFolder   *self,
                                       const char   *name,
                                       struct stat  *out_st);
/* The regular file @name, opened for reading without following a link;
 * -1 with errno otherwise (ELOOP for a link, EISDIR, EINVAL for another
 * kind of file). @out_st gets what was opened. */
int         duel_folder_open_regular  (DuelFolder   *self,
                                       const char   *name,
                                       struct stat  *out_st);
/* Renames @from to @to in the folder. With @replace FALSE, an existing @to
 * is an error (G_IO_ERROR_EXISTS), checked atomically where the
 * filesystem allows (renameat2 RENAME_NOREPLACE, else link and unlink). */
gboolean    duel_folder_rename        (DuelFolder   *self,
                                       const char   *from,
                                       const char   *to,
                                       gboolean      replace,
                                       GError      **error);
/* Removes @name only while it is still the file @expected describes
 * (its device and inode): a name someone else took meanwhile is left. */
gboolean    duel_folder_unlink_same   (DuelFolder        *self,
                                       const char        *name,
                                       const struct stat *expected);
/* fsync of the folder, so that a rename in it is durable; best effort. */
void        duel_folder_sync          (DuelFolder   *self);

/* The name of a temporary file for @name: "." + @name (cut to fit) + "." +
 * 16 random characters + ".driveduel-tmp". A writer holds an flock on its
 * temporary file for as long as it exists; one nobody holds is left over
 * from a killed writer. */
char       *duel_folder_temporary_name (const char  *name);
gboolean    duel_folder_is_temporary_name (const char *name);
/* Removes this user's temporary files (duel_folder_temporary_name()) in
 * the folder that no live process holds and that are plainly Drive Duel's
 * (empty, or a result or journal by their first bytes). Returns how many. */
guint       duel_folder_remove_stale_temporaries (DuelFolder *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelFolder, duel_folder_unref)

G_END_DECLS
