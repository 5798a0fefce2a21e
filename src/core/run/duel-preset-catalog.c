/* duel-preset-catalog.c — the presets by name: the review's tests, each a
 * preset of its own, and the bundles of several; what a preset of a name
 * fills, rests, probes and lets a person choose, before any plan is made
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "duel-error.h"
#include "duel-preset-private.h"
#include "engine/duel-workload-option.h"

/* The review's presets of more than one test; every review test is also
 * a preset of its own (its id, its preset title), listed after it in the
 * review's order, and a bundle (these, or one a test ends: its
 * ends_bundle) right after the last of its tests. */
static const DuelPresetInfo bundles[] = {
  { "review", N_("Full Review"), N_("The whole review: write saturation, consistency, QoS and the standard set"),
    { "write-saturation", "consistency", "qos", "standard" }, FALSE },
  { "quick", N_("Quick Review"), N_("The whole review scaled to finish within two minutes on a 1 GiB file"),
    { "write-saturation", "consistency", "qos", "standard" }, TRUE },
  /* What today's reviews lead with: the cache and the recovery after idle,
   * then the review's consistency and QoS on the drive they left. */
  { "modern-review", N_("Modern Review"),
    N_("Sustained sequential write, recovery after idle, performance consistency and QoS"),
    { "sequential-write", "recovery", "consistency", "qos" }, FALSE },
};

typedef struct
{
  DuelPresetInfo  infos[2 * DUEL_PRESET_MAX_REVIEW_TESTS + G_N_ELEMENTS (bundles)];
  const char     *names[2 * DUEL_PRESET_MAX_REVIEW_TESTS + G_N_ELEMENTS (bundles) + 1];
  guint           n;
} PresetList;

static void
add_bundles_ending_with (PresetList *list,
                         const char *test_id)
{
  for (guint b = 0; b < G_N_ELEMENTS (bundles); b++)
    {
      guint last = 0;

      while (bundles[b].tests[last + 1] != NULL)
        last++;
      if (g_strcmp0 (bundles[b].tests[last], test_id) == 0)
        list->infos[list->n++] = bundles[b];
    }
}

static const PresetList *
get_presets (void)
{
  static PresetList list;
  static gsize done;

  if (g_once_init_enter (&done))
    {
      const DuelReviewTest * const *all = duel_review_tests_get_all ();

      for (guint i = 0; all[i] != NULL; i++)
        {
          g_assert (i < DUEL_PRESET_MAX_REVIEW_TESTS);
          list.infos[list.n++] = (DuelPresetInfo) {
            .name = all[i]->id,
            .title = all[i]->preset_title,
            .tests = { all[i]->id },
          };
          add_bundles_ending_with (&list, all[i]->id);
          if (all[i]->ends_bundle != NULL)
            {
              const DuelReviewBundle *bundle = all[i]->ends_bundle;
              DuelPresetInfo *info = &list.infos[list.n++];

              *info = (DuelPresetInfo) {
                .name = bundle->name,
                .title = bundle->title,
                .description = bundle->description,
              };
              G_STATIC_ASSERT (G_N_ELEMENTS (bundle->tests) == G_N_ELEMENTS (info->tests));
              memcpy (info->tests, bundle->tests, sizeof info->tests);
            }
        }
      for (guint i = 0; i < list.n; i++)
        list.names[i] = list.infos[i].name;
      g_once_init_leave (&done, 1);
    }
  return &list;
}

const char * const *
duel_preset_get_names (void)
{
  return get_presets ()->names;
}

const DuelPresetInfo *
_duel_preset_find (const char *name)
{
  const PresetList *list = get_presets ();

  for (guint i = 0; i < list->n; i++)
    {
      if (g_strcmp0 (list->infos[i].name, name) == 0)
        return &list->infos[i];
    }
  return NULL;
}

const char *
duel_preset_describe (const char *name)
{
  const DuelPresetInfo *info = _duel_preset_find (name);

  if (info == NULL)
    return NULL;
  if (info->description == NULL)
    return duel_review_test_get_description (duel_review_test_find (info->tests[0]));
  return g_dgettext (GETTEXT_PACKAGE, info->description);
}

static gboolean preset_fills (const char *name,
                              gboolean    random_only);

gboolean
duel_preset_name_probes (const char *name)
{
  return preset_fills (name, TRUE);
}

const char *
duel_preset_get_title_for_name (const char *name)
{
  const DuelPresetInfo *info = _duel_preset_find (name);

  return info != NULL ? g_dgettext (GETTEXT_PACKAGE, info->title) : name;
}

/* Whether a test of preset @name fills the drive (@random_only: with
 * random writes, which a probe foretells). */
static gboolean
preset_fills (const char *name,
              gboolean    random_only)
{
  const DuelPresetInfo *info = _duel_preset_find (name);

  for (guint t = 0; info != NULL && info->tests[t] != NULL; t++)
    {
      const DuelReviewTest *test = duel_review_test_find (info->tests[t]);

      for (guint s = 0; s < test->n_steps; s++)
        if (test->steps[s].fill && (!random_only || test->steps[s].pattern == DUEL_PATTERN_RANDOM))
          return TRUE;
    }
  return FALSE;
}

gboolean
duel_preset_name_has_fill (const char *name)
{
  return preset_fills (name, FALSE);
}

const DuelReviewTest *
_duel_preset_resting_test (const DuelPresetInfo *info)
{
  for (guint t = 0; info->tests[t] != NULL; t++)
    {
      const DuelReviewTest *test = duel_review_test_find (info->tests[t]);

      if (test->idle_ms[0] > 0)
        return test;
    }
  return NULL;
}

gboolean
duel_preset_name_get_idle (const char *name,
                           guint64     out_idle_ms[DUEL_REVIEW_MAX_IDLE])
{
  const DuelPresetInfo *info = _duel_preset_find (name);
  const DuelReviewTest *test = info != NULL ? _duel_preset_resting_test (info) : NULL;

  memset (out_idle_ms, 0, DUEL_REVIEW_MAX_IDLE * sizeof (guint64));
  if (test == NULL)
    return FALSE;
  memcpy (out_idle_ms, info->quick ? test->quick_idle_ms : test->idle_ms, DUEL_REVIEW_MAX_IDLE * sizeof (guint64));
  return TRUE;
}

gboolean
duel_preset_parse_idle (const char         *text,
                        DuelPresetOptions  *options,
                        GError            **error)
{
  g_auto(GStrv) parts = NULL;
  guint n = 0;
  guint64 idle_ms[DUEL_REVIEW_MAX_IDLE] = { 0 };

  g_return_val_if_fail (text != NULL && options != NULL, FALSE);

  parts = g_strsplit (text, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint64 value = 0;

      /* fio's times, as --runtime takes them: seconds unless a unit says
       * otherwise. */
      if (!duel_parse_fio_time_ms (g_strstrip (parts[i]), &value) ||
          !(value >= DUEL_PRESET_MIN_IDLE_MS && value <= DUEL_PRESET_MAX_IDLE_MS))
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                       _("Idle periods are times from %.1f s to %.0f h such as 5m, 30m (s, m or h), "
                         "comma-separated, not “%s”."),
                       DUEL_PRESET_MIN_IDLE_MS / 1e3, DUEL_PRESET_MAX_IDLE_MS / 3.6e6, text);
          return FALSE;
        }
      if (n == DUEL_REVIEW_MAX_IDLE)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                       _("At most %u idle periods can be given, not %u."), DUEL_REVIEW_MAX_IDLE,
                       g_strv_length (parts));
          return FALSE;
        }
      idle_ms[n++] = value;
    }
  options->n_idle = n;
  memcpy (options->idle_ms, idle_ms, sizeof idle_ms);
  return TRUE;
}

char *
duel_preset_format_idle (const guint64 *idle_ms,
                         guint          n_idle)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < n_idle && idle_ms[i] > 0; i++)
    {
      guint64 ms = idle_ms[i];

      if (text->len > 0)
        g_string_append (text, ", ");
      if (ms % 3600000 == 0)
        g_string_append_printf (text, "%" G_GUINT64_FORMAT "h", ms / 3600000);
      else if (ms % 60000 == 0)
        g_string_append_printf (text, "%" G_GUINT64_FORMAT "m", ms / 60000);
      else if (ms % 1000 == 0)
        g_string_append_printf (text, "%" G_GUINT64_FORMAT "s", ms / 1000);
      else
        {
          char number[G_ASCII_DTOSTR_BUF_SIZE];

          g_string_append_printf (text, "%ss", g_ascii_formatd (number, sizeof number, "%g", ms / 1e3));
        }
    }
  return g_string_free (text, FALSE);
}

const DuelReviewTest *
_duel_preset_chosen_test (const DuelPresetInfo *info)
{
  for (guint t = 0; info->tests[t] != NULL; t++)
    {
      const DuelReviewTest *test = duel_review_test_find (info->tests[t]);

      for (guint s = 0; s < test->n_steps; s++)
        if (test->steps[s].chosen)
          return test;
    }
  return NULL;
}

gboolean
duel_preset_name_has_chosen_workload (const char *name)
{
  const DuelPresetInfo *info = _duel_preset_find (name);

  return info != NULL && _duel_preset_chosen_test (info) != NULL;
}

gboolean
_duel_preset_matrix_has (const DuelPresetInfo *info,
                         guint32               block_size,
                         guint                 read_percent)
{
  for (guint t = 0; info->tests[t] != NULL; t++)
    {
      const DuelReviewTest *test = duel_review_test_find (info->tests[t]);

      for (guint s = 0; test->rounds != NULL && s < test->n_steps; s++)
        if (!test->steps[s].fill &&
            (block_size == 0 || test->steps[s].block_size == block_size) &&
            (read_percent == G_MAXUINT || test->steps[s].read_percent == read_percent))
          return TRUE;
    }
  return FALSE;
}

const DuelReviewRounds *
duel_preset_name_get_rounds (const char *name)
{
  const DuelPresetInfo *info = _duel_preset_find (name);
  const DuelReviewRounds *rounds = NULL;

  for (guint t = 0; info != NULL && info->tests[t] != NULL; t++)
    if (duel_review_test_find (info->tests[t])->rounds != NULL)
      rounds = duel_review_test_find (info->tests[t])->rounds;
  return rounds;
}

static void
append_once (GArray *array,
             guint   value)
{
  for (guint i = 0; i < array->len; i++)
    if (g_array_index (array, guint, i) == value)
      return;
  g_array_append_val (array, value);
}

gboolean
duel_preset_name_get_matrix (const char  *name,
                             GArray     **out_block_sizes,
                             GArray     **out_read_percents)
{
  const DuelPresetInfo *info = _duel_preset_find (name);
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) mixes = g_array_new (FALSE, FALSE, sizeof (guint));

  G_STATIC_ASSERT (sizeof (guint32) == sizeof (guint));
  g_return_val_if_fail (out_block_sizes != NULL && out_read_percents != NULL, FALSE);

  for (guint t = 0; info != NULL && info->tests[t] != NULL; t++)
    {
      const DuelReviewTest *test = duel_review_test_find (info->tests[t]);

      for (guint s = 0; test->rounds != NULL && s < test->n_steps; s++)
        if (!test->steps[s].fill)
          {
            append_once (sizes, test->steps[s].block_size);
            append_once (mixes, test->steps[s].read_percent);
          }
    }
  *out_block_sizes = g_steal_pointer (&sizes);
  *out_read_percents = g_steal_pointer (&mixes);
  return (*out_block_sizes)->len > 0;
}
