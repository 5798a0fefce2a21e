/* duel-checkpointer-private.h — knobs for tests and the benchmark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-checkpointer.h"

G_BEGIN_DECLS

/* Before start: how often histograms are taken and the journal synced
 * (default 2 s); 0 means at every update and every pass. */
void _duel_checkpointer_set_period           (DuelCheckpointer *self,
                                              guint64           period_ns);
/* Before start: compact when the journal grows past exactly @bytes (by
 * default past max(1 MiB, the last full save's size)). */
void _duel_checkpointer_set_compact_threshold (DuelCheckpointer *self,
                                               guint64           bytes);
/* Waits until the writer has written what every update() so far handed over. */
void _duel_checkpointer_flush                (DuelCheckpointer *self);

G_END_DECLS
