/* duel-preset-by-test.c — a plan's estimate, test by test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-preset.h"
#include "duel-text.h"

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

GStrv
duel_preset_describe_estimate_by_test (DuelPreset               *self,
                                       const DuelPresetEstimate *estimate)
{
  DuelPresetTestEstimate parts[32];
  guint n;
  GPtrArray *lines;
  gboolean any_idle = FALSE;

  g_return_val_if_fail (DUEL_IS_PRESET (self), NULL);
  g_return_val_if_fail (estimate != NULL, NULL);

  n = MIN (duel_preset_estimate_by_test (self, estimate, parts, G_N_ELEMENTS (parts)), G_N_ELEMENTS (parts));
  for (guint t = 0; t < n; t++)
    any_idle |= parts[t].idle_seconds > 0;
  if (n < 2 && !any_idle)
    return NULL;
  lines = g_ptr_array_new ();
  for (guint t = 0; t < n; t++)
    {
      g_autofree char *length = duel_text_format_duration (parts[t].seconds);
      const char *title = parts[t].test != NULL ? duel_review_test_get_title (parts[t].test) : "";

      if (parts[t].idle_seconds > 0)
        {
          g_autofree char *rest = duel_text_format_duration (parts[t].idle_seconds);

          /* TRANSLATORS: a test's part of the estimate, then how much of it the drive rests */
          g_ptr_array_add (lines, g_strdup_printf (_("%s: %s, %s of it idle"), title, length, rest));
        }
      else
        /* TRANSLATORS: a test's part of the estimate */
        g_ptr_array_add (lines, g_strdup_printf (_("%s: %s"), title, length));
    }
  g_ptr_array_add (lines, NULL);
  return (GStrv) g_ptr_array_free (lines, FALSE);
}
