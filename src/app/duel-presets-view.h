/* duel-presets-view.h — the review presets, their parameters, and an estimate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "duel-drive-item.h"
#include "run/duel-preset.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_PRESETS_VIEW (duel_presets_view_get_type ())

G_DECLARE_FINAL_TYPE (DuelPresetsView, duel_presets_view, DUEL, PRESETS_VIEW, AdwBin)

void         duel_presets_view_set_settings     (DuelPresetsView         *self,
                                                 GSettings               *settings);
/* The drive the estimate is for. */
void         duel_presets_view_set_drive        (DuelPresetsView         *self,
                                                 DuelDriveItem           *drive);
void         duel_presets_view_set_running      (DuelPresetsView         *self,
                                                 gboolean                 running);
const char  *duel_presets_view_get_preset_name  (DuelPresetsView         *self);
gboolean     duel_presets_view_set_preset_name  (DuelPresetsView         *self,
                                                 const char              *name);
/* "Write Saturation", "Quick Review", … */
const char  *duel_presets_view_get_preset_title (DuelPresetsView         *self);
/* The parameters as shown; 0 means the preset's own default. */
gboolean     duel_presets_view_get_options      (DuelPresetsView         *self,
                                                 DuelPresetOptions       *out_options,
                                                 GError                 **error);
/* Shows @options as duel_presets_view_get_options() reads them back: the
 * span, the fill's multiple and trim, the length, interval and passes, the
 * chosen workload (when its block size is set; one the list lacks is left). */
void         duel_presets_view_set_options      (DuelPresetsView         *self,
                                                 const DuelPresetOptions *options);
DuelPreset  *duel_presets_view_create_preset    (DuelPresetsView         *self,
                                                 GError                 **error);
/* The estimate's text, e.g. "About 1 h 10 min: …". */
const char  *duel_presets_view_get_estimate     (DuelPresetsView         *self);
/* A read/write mix of a test matrix in words: "65 % reads, 35 % writes". */
char        *duel_preset_mix_text               (guint                    read_percent);
/* A translated title for a preset name. */
const char  *duel_preset_title                  (const char              *name);

G_END_DECLS
