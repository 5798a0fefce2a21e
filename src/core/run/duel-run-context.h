/* duel-run-context.h — what surrounds every run: safety, target, identity, health
 *
 * The CLI's plain run, the preset runner and the GUI prepare a run the same
 * way: check the write is allowed, open the target (exclusively for a device
 * write), describe the device and take a health snapshot, poll its
 * temperature during the run, and add the health deltas to the result after.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "device/duel-device-thermometer.h"
#include "result/duel-result.h"
#include "device/duel-safety.h"
#include "engine/duel-target.h"
#include "engine/duel-test-record.h"

G_BEGIN_DECLS

#define DUEL_TYPE_RUN_CONTEXT (duel_run_context_get_type ())

G_DECLARE_FINAL_TYPE (DuelRunContext, duel_run_context, DUEL, RUN_CONTEXT, GObject)

/* A file target that does not exist yet is created at this size when the
 * caller gives none. */
#define DUEL_RUN_CONTEXT_DEFAULT_FILE_SIZE (G_GUINT64_CONSTANT (1) << 30)

/* @writes: the run writes (a device then needs DUEL_SAFETY_DESTRUCTIVE).
 * @file_size: for a file target, create or extend it to this size (0: keep
 * an existing file's size, or the default for a new one). Refuses before any
 * I/O, with the safety layer's message. */
DuelRunContext *duel_run_context_new             (const char       *path,
                                                  gboolean          writes,
                                                  DuelSafetyFlags   safety_flags,
                                                  guint64           file_size,
                                                  GError          **error);
/* The same in two steps, so that the caller can check more between them
 * (the result's path) and what it will do against the target's geometry:
 * the safety layer's refusals, which write nothing; TRUE with
 * *@out_check_fd set when the device may only be opened through UDisks,
 * whose descriptor the open then checks again. */
gboolean        duel_run_context_check           (const char       *path,
                                                  gboolean          writes,
                                                  DuelSafetyFlags   safety_flags,
                                                  gboolean         *out_check_fd,
                                                  GError          **error);
/* Then the open, asking @check before anything is written to the target
 * (duel_target_open_checked()). */
DuelRunContext *duel_run_context_open            (const char           *path,
                                                  gboolean              writes,
                                                  DuelSafetyFlags       safety_flags,
                                                  guint64               file_size,
                                                  gboolean              check_fd,
                                                  DuelTargetCheckFunc   check,
                                                  gpointer              check_data,
                                                  GError              **error);
/* For a target the caller opened itself (the GUI, after its confirmations,
 * or on a descriptor from UDisks): identity, health and temperature only.
 * @thermometer: one the caller already made, or NULL to make one here. */
DuelRunContext *duel_run_context_new_for_target  (DuelTarget            *target,
                                                  DuelDeviceThermometer *thermometer);
DuelTarget     *duel_run_context_get_target      (DuelRunContext   *self);
/* The device object for the result (identity, link, health before). */
JsonObject     *duel_run_context_get_device      (DuelRunContext   *self);
/* Starts the temperature polling; cheap to read from then on. FALSE when
 * its thread cannot start. */
gboolean        duel_run_context_start           (DuelRunContext   *self,
                                                  GError          **error);
/* From the engine thread when an interval closes: stamps the newest series
 * row with the latest polled temperature. Never waits on the drive. */
void            duel_run_context_annotate        (DuelRunContext   *self,
                                                  DuelTestRecord   *record);
/* Stops polling, takes the "after" snapshot, and stores target and device
 * (with health_before/after/delta) in @result. */
void            duel_run_context_finish          (DuelRunContext   *self,
                                                  DuelResult       *result);
/* Target and device as they are now, e.g. for checkpoints before finish. */
void            duel_run_context_fill_result     (DuelRunContext   *self,
                                                  DuelResult       *result);

G_END_DECLS
