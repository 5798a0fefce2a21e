/* test-run-plan.h — a plan's steps run on an open target, as DuelRun's worker runs them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib/gstdio.h>

#include "run/duel-run-steps.h"

/* A scratch file target of @size bytes named @name in the test's cache
 * folder; nothing to clean up if the test dies: the open target keeps the
 * file, which is already unlinked. */
static inline DuelTarget *
test_open_scratch (const char *name,
                   guint64     size)
{
  g_autofree char *path = g_build_filename (g_get_user_cache_dir (), name, NULL);
  g_autoptr(GError) error = NULL;
  DuelTarget *target;

  g_mkdir_with_parents (g_get_user_cache_dir (), 0700);
  target = duel_target_open (path, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_CREATE, size, &error);
  g_assert_no_error (error);
  g_unlink (path);
  return target;
}

/* @checkpoint with @user_data: called as the worker's is (NULL: none). */
static inline gboolean
test_run_plan (DuelPreset                 *plan,
               DuelTarget                 *target,
               DuelResult                 *result,
               DuelRunStepsCheckpointFunc  checkpoint,
               gpointer                    user_data,
               GError                    **error)
{
  g_autoptr(DuelRunSteps) steps = duel_run_steps_new (plan);

  duel_run_steps_set_callbacks (steps, NULL, checkpoint, user_data);
  return duel_run_steps_run (steps, target, result, NULL, error);
}
