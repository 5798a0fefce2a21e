/* duel-export-dialog.h — charts and tables to files: formats, size, scale, style
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "duel-chart-export.h"
#include "analysis/duel-comparison.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_EXPORT_DIALOG (duel_export_dialog_get_type ())

G_DECLARE_FINAL_TYPE (DuelExportDialog, duel_export_dialog, DUEL, EXPORT_DIALOG, AdwWindow)

DuelExportDialog       *duel_export_dialog_new         (GtkWindow              *parent,
                                                        DuelComparison         *comparison,
                                                        GSettings              *settings);
const char             *duel_export_dialog_get_folder  (DuelExportDialog       *self);
void                    duel_export_dialog_set_folder  (DuelExportDialog       *self,
                                                        const char             *folder);
DuelChartExportFormats  duel_export_dialog_get_formats (DuelExportDialog       *self);
void                    duel_export_dialog_set_formats (DuelExportDialog       *self,
                                                        DuelChartExportFormats  formats);
/* What the Export button does; "done" is emitted when the files are written. */
void                    duel_export_dialog_export      (DuelExportDialog       *self);
/* The paths written by the last export. */
GPtrArray              *duel_export_dialog_get_files   (DuelExportDialog       *self);

G_END_DECLS
