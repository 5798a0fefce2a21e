/* duel-application.h — the Drive Duel application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "duel-history.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_APPLICATION (duel_application_get_type ())

G_DECLARE_FINAL_TYPE (DuelApplication, duel_application, DUEL, APPLICATION, AdwApplication)

DuelApplication *duel_application_new             (GApplicationFlags  extra_flags);
GSettings       *duel_application_get_settings    (DuelApplication   *self);
DuelHistory     *duel_application_get_history     (DuelApplication   *self);
/* The folder of the bundled reference results: $DRIVEDUEL_DATADIR/reference
 * for uninstalled runs, else PKGDATADIR/reference. */
char            *duel_application_get_reference_dir (void);
/* TRUE when the settings schema (APP_ID) can be found, as g_settings_new()
 * needs it (it aborts otherwise); FALSE with one sentence for stderr. Reads
 * no display. */
gboolean         duel_application_check_schema     (char             **out_message);
/* Where the user ran the app from when `meson devenv -C BUILDDIR driveduel …`
 * started it in BUILDDIR: @pwd (the shell's $PWD, which meson passes on
 * unchanged), when @build_root (the devenv's DRIVEDUEL_DEVENV_BUILD_ROOT) is
 * the current folder and @pwd another existing folder. NULL otherwise: the
 * current folder is the user's. */
char            *duel_application_get_devenv_launch_dir (const char *build_root,
                                                         const char *pwd);
/* Holds off suspend while a run is going; nests. */
void             duel_application_inhibit_suspend  (DuelApplication   *self,
                                                    GtkWindow         *window,
                                                    const char        *reason);
void             duel_application_uninhibit_suspend(DuelApplication   *self);
gboolean         duel_application_is_inhibited     (DuelApplication   *self);

G_END_DECLS
