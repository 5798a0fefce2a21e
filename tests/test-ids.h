/* test-ids.h — does a text people read hold a test id?
 *
 * Record names ("qos-read-qd1"), review test ids ("write-saturation") and
 * preset names are keys in files and options, never words. An id is found
 * as it is or as a tail of it that still has a hyphen: titles once printed
 * "Quality of service: read-qd1". Ids that are plain words ("consistency",
 * "qos", "standard", "review", "quick") cannot be told from the words
 * around them and are left out; every other id holds a hyphen.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "run/duel-preset.h"
#include "review/duel-review-test.h"

/* The tail of @id that @text holds, or NULL. */
static inline const char *
test_ids_found_tail (const char *text,
                     const char *id)
{
  for (const char *tail = id; tail != NULL; tail = strchr (tail, '-') ? strchr (tail, '-') + 1 : NULL)
    if (strchr (tail, '-') != NULL && strstr (text, tail) != NULL)
      return tail;
  return NULL;
}

/* Whether @text holds any id of the descriptors or the presets; @out_id
 * and @out_tail say which, and as what. */
static inline gboolean
test_ids_in_text (const char  *text,
                  const char **out_id,
                  const char **out_tail)
{
  const DuelReviewTest * const *all = duel_review_tests_get_all ();
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();

  if (text == NULL)
    return FALSE;
  for (guint i = 0; all[i] != NULL; i++)
    {
      g_ptr_array_add (ids, (gpointer) all[i]->id);
      for (guint s = 0; s < all[i]->n_steps; s++)
        g_ptr_array_add (ids, (gpointer) all[i]->steps[s].name);
    }
  for (const char * const *n = duel_preset_get_names (); *n != NULL; n++)
    g_ptr_array_add (ids, (gpointer) *n);

  for (guint i = 0; i < ids->len; i++)
    {
      const char *tail = test_ids_found_tail (text, g_ptr_array_index (ids, i));

      if (tail != NULL)
        {
          *out_id = g_ptr_array_index (ids, i);
          *out_tail = tail;
          return TRUE;
        }
    }
  return FALSE;
}
