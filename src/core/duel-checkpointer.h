/* duel-checkpointer.h — keeps a running result on disk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "duel-result.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 n_checkpoints;
  guint64 n_compactions;
  guint64 longest_update_ns;
  guint64 total_update_ns;
} DuelCheckpointerStats;

#define DUEL_TYPE_CHECKPOINTER (duel_checkpointer_get_type ())

G_DECLARE_FINAL_TYPE (DuelCheckpointer, duel_checkpointer, DUEL, CHECKPOINTER, GObject)

DuelCheckpointer *duel_checkpointer_new       (const char            *result_path);
gboolean          duel_checkpointer_start     (DuelCheckpointer      *self,
                                               DuelResult            *result,
                                               GError               **error);
void              duel_checkpointer_update    (DuelCheckpointer      *self,
                                               DuelResult            *result,
                                               gboolean               test_finished);
gboolean          duel_checkpointer_finish    (DuelCheckpointer      *self,
                                               DuelResult            *result,
                                               GError               **error);
void              duel_checkpointer_get_stats (DuelCheckpointer      *self,
                                               DuelCheckpointerStats *out);

G_END_DECLS
