/* duel-preset-by-test.c — a plan's estimate, test by test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "duel-preset.h"

guint
duel_preset_estimate_by_test (DuelPreset               *self,
                              const DuelPresetEstimate *estimate,
                              DuelPresetTestEstimate   *out,
                              guint                     max)
{
  const DuelReviewTest *last = NULL;
  guint n = 0;

  g_return_val_if_fail (DUEL_IS_PRESET (self), 0);
  g_return_val_if_fail (estimate != NULL, 0);
  g_return_val_if_fail (out != NULL || max == 0, 0);

  for (guint i = 0; i < duel_preset_get_n_steps (self); i++)
    {
      const DuelPresetStep *step = duel_preset_get_step (self, i);
      DuelPresetTestEstimate *part;

      /* A test's steps run one after another: a new entry where the test
       * changes. */
      if (n == 0 || step->test != last)
        {
          if (n < max)
            out[n] = (DuelPresetTestEstimate) { .test = step->test };
          n++;
          last = step->test;
        }
      if (n > max)
        continue;
      part = &out[n - 1];
      part->seconds += duel_preset_step_weight (self, step, estimate);
      if (step->kind == DUEL_PRESET_STEP_IDLE)
        part->idle_seconds += step->weight_s;
    }
  return n;
}
