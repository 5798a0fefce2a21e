/* duel-history-folder.h — where runs are kept when nobody names a file
 *
 * The app keeps every run in a history folder and lists it; a run of the
 * CLI without --output joins the same folder, so that the app shows it and
 * nothing measured is thrown away. One naming for both: the time the run
 * starts and a slug of the drive's name.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* $XDG_DATA_HOME/driveduel/history. */
char *duel_history_folder_get_default (void);

/* A new, unused file name in @directory for a run that starts now, named
 * after @hint (a drive's name; "run" when it has no letter or digit);
 * creates the folder (0700). NULL with one sentence when it cannot. */
char *duel_history_folder_new_path    (const char  *directory,
                                       const char  *hint,
                                       GError     **error);

G_END_DECLS
