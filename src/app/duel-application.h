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
/* Holds off suspend while a run is going; nests. */
void             duel_application_inhibit_suspend  (DuelApplication   *self,
                                                    GtkWindow         *window,
                                                    const char        *reason);
void             duel_application_uninhibit_suspend(DuelApplication   *self);
gboolean         duel_application_is_inhibited     (DuelApplication   *self);

G_END_DECLS
