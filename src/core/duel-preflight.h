/* duel-preflight.h — checks made before a run writes its first byte
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Room a result file may need at the end of a run of unknown length (a 2x
 * fill of a large drive makes about 10^5 rows at 1 s), with the old copy
 * that the atomic save keeps until the rename. */
#define DUEL_PREFLIGHT_RESULT_ROOM (64 * 1024 * 1024)

guint64  duel_preflight_result_room (guint64      runtime_ms,
                                     guint        interval_ms);
gboolean duel_preflight_output (const char  *path,
                                guint64      room_bytes,
                                GError     **error);

G_END_DECLS
