/* duel-preset-private.h — what the preset's plan (duel-preset.c) reads of
 * the catalogue of presets by name (duel-preset-catalog.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-preset.h"
#include "review/duel-review-test.h"

G_BEGIN_DECLS

/* Review tests at most (duel_review_tests_get_all()): the plan keeps a
 * runtime and rounds for each. */
#define DUEL_PRESET_MAX_REVIEW_TESTS 16

/* A preset is a list of review tests (src/core/review/), run in order. */
typedef struct
{
  const char *name;
  const char *title;           /* translatable, for the preset list */
  const char *description;     /* translatable; NULL: the one test's own */
  const char *tests[6];        /* review test ids, NULL-terminated */
  gboolean    quick;
} DuelPresetInfo;

/* The preset named @name, NULL when there is none. */
const DuelPresetInfo *_duel_preset_find          (const char           *name);
/* The first test of preset @info that rests the drive (recovery after
 * idle), NULL when none does. */
const DuelReviewTest *_duel_preset_resting_test  (const DuelPresetInfo *info);
/* The test of the preset whose workload the person chooses (the custom
 * test), or NULL. */
const DuelReviewTest *_duel_preset_chosen_test   (const DuelPresetInfo *info);
/* Whether a test of @info has a matrix cell of @block_size (0: any) and
 * @read_percent (G_MAXUINT: any). */
gboolean              _duel_preset_matrix_has    (const DuelPresetInfo *info,
                                                  guint32               block_size,
                                                  guint                 read_percent);

G_END_DECLS
