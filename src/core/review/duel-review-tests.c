/* duel-review-tests.c — the list of review tests, and a record's name looked up in it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-review-test-private.h"

static const DuelReviewTest * const all_tests[] = {
  &_duel_review_test_write_saturation,
  &_duel_review_test_consistency,
  &_duel_review_test_qos,
  &_duel_review_test_standard,
  &_duel_review_test_crystaldiskmark,
  &_duel_review_test_crystaldiskmark_nvme,
  &_duel_review_test_custom,
  &_duel_review_test_pts_iops,
  &_duel_review_test_pts_throughput_1m, &_duel_review_test_pts_throughput_128k,
  &_duel_review_test_pts_latency,
  &_duel_review_test_sequential_write,
  NULL,
};

const DuelReviewTest * const *
duel_review_tests_get_all (void)
{
  return all_tests;
}

const DuelReviewTest *
duel_review_test_find (const char *id)
{
  if (id == NULL)
    return NULL;
  for (guint i = 0; all_tests[i] != NULL; i++)
    if (g_strcmp0 (all_tests[i]->id, id) == 0)
      return all_tests[i];
  return NULL;
}

const char *
duel_review_test_get_title (const DuelReviewTest *test)
{
  g_return_val_if_fail (test != NULL, NULL);

  return g_dgettext (GETTEXT_PACKAGE, test->title);
}

const char *
duel_review_test_get_description (const DuelReviewTest *test)
{
  g_return_val_if_fail (test != NULL, NULL);

  return g_dgettext (GETTEXT_PACKAGE, test->description);
}

gboolean
duel_review_test_find_step (const char            *record_name,
                            const DuelReviewTest **out_test,
                            const DuelReviewStep **out_step)
{
  if (record_name == NULL)
    return FALSE;
  for (guint i = 0; all_tests[i] != NULL; i++)
    for (guint s = 0; s < all_tests[i]->n_steps; s++)
      if (g_strcmp0 (all_tests[i]->steps[s].name, record_name) == 0)
        {
          if (out_test != NULL)
            *out_test = all_tests[i];
          if (out_step != NULL)
            *out_step = &all_tests[i]->steps[s];
          return TRUE;
        }
  return FALSE;
}

/* "4 KiB random 65/35 read/write", as the step's workload reads. */
static char *
describe_step_access (const DuelReviewStep *step)
{
  DuelWorkload workload;

  duel_workload_init (&workload);
  workload.pattern = step->pattern;
  workload.block_size = step->block_size;
  workload.read_percent = step->read_percent;
  return duel_workload_describe_access (&workload);
}

char *
duel_review_describe_record (const char *record_name)
{
  const DuelReviewTest *test;
  const DuelReviewStep *step;

  g_return_val_if_fail (record_name != NULL, NULL);

  if (!duel_review_test_find_step (record_name, &test, &step))
    return g_strdup (record_name);
  if (step->title == NULL && test->titles_from_workload)
    {
      g_autofree char *access = describe_step_access (step);

      return g_strdup_printf (_("%s: %s"), duel_review_test_get_title (test), access);
    }
  if (step->title == NULL)
    return g_strdup (duel_review_test_get_title (test));
  /* Translators: a review test and one of its steps: "Quality of service: 4K random read QD1" */
  return g_strdup_printf (_("%s: %s"), duel_review_test_get_title (test),
                          g_dgettext (GETTEXT_PACKAGE, step->title));
}

DuelLiveView
duel_review_live_view_for_record (const char *record_name)
{
  const DuelReviewStep *step;

  if (g_strcmp0 (record_name, DUEL_REVIEW_TRIM_NAME) == 0)
    return DUEL_LIVE_VIEW_NONE;
  if (duel_review_test_find_step (record_name, NULL, &step))
    return step->live_view;
  return DUEL_LIVE_VIEW_INTERVALS;
}
