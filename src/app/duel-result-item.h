/* duel-result-item.h — one result file the app knows of: history, reference or opened
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "result/duel-result.h"
#include "duel-types.h"

G_BEGIN_DECLS

typedef enum
{
  DUEL_RESULT_ORIGIN_HISTORY,
  DUEL_RESULT_ORIGIN_REFERENCE,
  DUEL_RESULT_ORIGIN_FILE,
} DuelResultOrigin;

#define DUEL_TYPE_RESULT_ORIGIN (duel_result_origin_get_type ())
#define DUEL_TYPE_RESULT_ITEM (duel_result_item_get_type ())

GType duel_result_origin_get_type (void) G_GNUC_CONST;

G_DECLARE_FINAL_TYPE (DuelResultItem, duel_result_item, DUEL, RESULT_ITEM, GObject)

DuelResultItem   *duel_result_item_new          (GFile            *file,
                                                 DuelResultOrigin  origin,
                                                 DuelResult       *result);
GFile            *duel_result_item_get_file     (DuelResultItem   *self);
DuelResultOrigin  duel_result_item_get_origin   (DuelResultItem   *self);
DuelResult       *duel_result_item_get_result   (DuelResultItem   *self);
void              duel_result_item_set_result   (DuelResultItem   *self,
                                                 DuelResult       *result);
/* The result's name, e.g. "Intel SSD 750 400 GB". */
const char       *duel_result_item_get_title    (DuelResultItem   *self);
/* What, when and how: "Reference · 2 tests", "12 Mar 2024 14:02 · /dev/nvme0n1 · cancelled". */
const char       *duel_result_item_get_subtitle (DuelResultItem   *self);
/* "start 112,540 IOPS · plateau 17,660 IOPS · …"; NULL without figures. */
const char       *duel_result_item_get_figures  (DuelResultItem   *self);
/* The title with its origin, for drop-downs: "Intel SSD 750 (reference)". */
const char       *duel_result_item_get_label    (DuelResultItem   *self);
GDateTime        *duel_result_item_get_created  (DuelResultItem   *self);
/* Whether the result is a checkpoint another process is writing now (a run
 * of the CLI holding its lock): it says "running", not "interrupted". */
gboolean          duel_result_item_is_running   (DuelResultItem   *self);
/* Re-reads title and subtitle after the result changed (e.g. a rename). */
void              duel_result_item_refresh      (DuelResultItem   *self);

/* Loads @file in a worker thread. */
void              duel_result_item_load_async   (GFile              *file,
                                                 DuelResultOrigin    origin,
                                                 GCancellable       *cancellable,
                                                 GAsyncReadyCallback callback,
                                                 gpointer            user_data);
DuelResultItem   *duel_result_item_load_finish  (GAsyncResult       *result,
                                                 GError            **error);

G_END_DECLS
