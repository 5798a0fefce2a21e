/* duel-types.h — forward declarations of the application's types
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _DuelApplication        DuelApplication;
typedef struct _DuelCdmView            DuelCdmView;
typedef struct _DuelChartView          DuelChartView;
typedef struct _DuelComparisonView     DuelComparisonView;
typedef struct _DuelConfirmDialog      DuelConfirmDialog;
typedef struct _DuelDriveItem          DuelDriveItem;
typedef struct _DuelDrivesView         DuelDrivesView;
typedef struct _DuelExportDialog       DuelExportDialog;
typedef struct _DuelHistory            DuelHistory;
typedef struct _DuelHistoryView        DuelHistoryView;
typedef struct _DuelPreferencesWindow  DuelPreferencesWindow;
typedef struct _DuelPresetsView        DuelPresetsView;
typedef struct _DuelResultItem         DuelResultItem;
typedef struct _DuelRunView            DuelRunView;
typedef struct _DuelWindow             DuelWindow;

G_END_DECLS
