/* test-run-plan.h — a plan's steps run on an open target, as DuelRun's worker runs them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "run/duel-run-steps.h"

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
