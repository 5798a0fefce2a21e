/* duel-cli-rounds.c — a test run in rounds (SNIA PTS): its steady state and its matrix, as text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "duel-cli-figures.h"
#include "duel-number.h"
#include "analysis/duel-rounds.h"
#include "review/duel-review-test.h"

/* The read/write mixes and block sizes that ran, in the order they ran
 * (SNIA's: mixes from all reads to all writes, block sizes largest first). */
static void
collect_axes (const DuelRoundsReport *report,
              GArray                 *sizes,
              GArray                 *mixes)
{
  for (guint i = 0; i < report->cells->len; i++)
    {
      const DuelRoundsCell *cell = g_ptr_array_index (report->cells, i);
      gboolean seen_size = FALSE, seen_mix = FALSE;

      for (guint s = 0; s < sizes->len; s++)
        seen_size |= g_array_index (sizes, guint32, s) == cell->block_size;
      for (guint m = 0; m < mixes->len; m++)
        seen_mix |= g_array_index (mixes, guint, m) == cell->read_percent;
      if (!seen_size)
        g_array_append_val (sizes, cell->block_size);
      if (!seen_mix)
        g_array_append_val (mixes, cell->read_percent);
    }
}

/* A matrix's figures as tables: what the test tracks first, then the
 * rest that tells its cells apart. */
typedef struct
{
  const char *key;
  const char *unit;
  int         decimals;
  const char *heading;   /* translatable */
  gboolean    longest;   /* the longest of the window's rounds, not their mean */
} Table;

static const Table tables[] = {
  { "iops", "IOPS", 0, N_("IOPS"), FALSE },
  { "mbps", "MB/s", 1, N_("MB/s"), FALSE },
  { "latency_mean_us", "µs", 1, N_("Mean latency in µs"), FALSE },
  /* xgettext:no-c-format */
  { "latency_p9999_us", "µs", 1, N_("99.99 % latency in µs"), FALSE },
  { "latency_max_us", "µs", 1, N_("Longest latency in µs"), TRUE },
};

static const Table *
find_table (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    if (g_strcmp0 (tables[i].key, key) == 0)
      return &tables[i];
  return &tables[0];
}

static double
cell_value (const DuelRoundsCell *cell,
            const char           *key)
{
  if (cell == NULL)
    return NAN;
  if (g_str_equal (key, "mbps"))
    return cell->mbps;
  if (g_str_equal (key, "latency_mean_us"))
    return cell->latency_mean_us;
  if (g_str_equal (key, "latency_p9999_us"))
    return cell->latency_p9999_us;
  if (g_str_equal (key, "latency_max_us"))
    return cell->latency_max_us;
  return cell->iops;
}

static void
print_verdict (const DuelRoundsReport *report,
               const char             *title)
{
  const DuelSteadyStateWindow *w = &report->measured;
  const Table *table = find_table (report->tracked_key);
  g_autofree char *mean = duel_number_format (w->mean, table->decimals);
  g_autofree char *range = duel_number_format (w->data_excursion, table->decimals);
  g_autofree char *range_limit = duel_number_format (w->data_limit, table->decimals);
  g_autofree char *slope = duel_number_format (w->slope_excursion, table->decimals);
  g_autofree char *slope_limit = duel_number_format (w->slope_limit, table->decimals);
  g_autofree char *tracked = duel_review_describe_record (report->tracked_step);
  guint first = w->first_round, last = w->first_round + MAX (w->n, 1) - 1;

  if (report->steady)
    /* TRANSLATORS: the test's title, the round it was steady in, the window's first and last round, the most rounds */
    printf (_("%s: steady state reached in round %u (rounds %u–%u; at most %u).\n"),
            title, report->steady_round, first, last, report->max_rounds);
  else if (report->n_rounds >= report->max_rounds)
    /* TRANSLATORS: the test's title, the rounds it ran, which were the most it may run */
    printf (g_dngettext (GETTEXT_PACKAGE,
                         "%s: steady state not reached in %u round, the most it may run; the figures are the last rounds’, not a steady state’s.\n",
                         "%s: steady state not reached in %u rounds, the most it may run; the figures are the last rounds’, not a steady state’s.\n",
                         report->n_rounds),
            title, report->n_rounds);
  else
    /* TRANSLATORS: the test's title, the rounds it ran before it was stopped */
    printf (g_dngettext (GETTEXT_PACKAGE,
                         "%s: stopped after %u round, before a steady state; the figures are the last rounds’.\n",
                         "%s: stopped after %u rounds, before a steady state; the figures are the last rounds’.\n",
                         report->n_rounds),
            title, report->n_rounds);
  if (duel_rounds_describe_purge (report->purge_method) != NULL)
    /* TRANSLATORS: how the span was emptied before the test ("an NVMe format with user data erase") */
    printf (_("  Purge before it: %s.\n"), duel_rounds_describe_purge (report->purge_method));
  if (report->purge_refused != NULL)
    /* TRANSLATORS: the drive's answer to the format it refused */
    printf (_("  The drive refused the format (%s); the trim stood in for it.\n"), report->purge_refused);
  if (!w->complete)
    return;
  /* TRANSLATORS: the tracked cell ("SNIA IOPS: 4 KiB random write"), rounds, mean, range and its limit,
   * the fitted line's change and its limit, each with its unit (IOPS, MB/s, µs) */
  printf (_("  %s in rounds %u–%u: mean %s %s; range %s %s (limit %s, %.0f %%); fitted line moves %s %s (limit %s, %.0f %%).\n"),
          tracked, first, last, mean, table->unit, range, table->unit, range_limit, report->data_limit * 100,
          slope, table->unit, slope_limit, report->slope_limit * 100);
}

/* @text right-aligned in @width characters (not bytes: "–" and "µ" are two). */
static void
print_right (const char *text,
             guint       width)
{
  glong length = g_utf8_strlen (text, -1);

  printf (" %*s%s", length < (glong) width ? (int) (width - length) : 0, "", text);
}

static void
print_table (const DuelRoundsReport *report,
             const Table            *table,
             GArray                 *sizes,
             GArray                 *mixes,
             guint                   first,
             guint                   last)
{
  if (table->longest)
    /* TRANSLATORS: a figure ("Longest latency in µs"), then the rounds */
    printf (_("%s, the longest in rounds %u–%u (rows: block size; columns: read/write mix):"),
            g_dgettext (GETTEXT_PACKAGE, table->heading), first, last);
  else
    /* TRANSLATORS: a figure ("IOPS"), then the rounds */
    printf (_("%s, the mean of rounds %u–%u (rows: block size; columns: read/write mix):"),
            g_dgettext (GETTEXT_PACKAGE, table->heading), first, last);
  printf ("\n  %-8s", "");
  for (guint m = 0; m < mixes->len; m++)
    {
      guint read = g_array_index (mixes, guint, m);
      g_autofree char *mix = g_strdup_printf ("%u/%u", read, 100 - read);

      print_right (mix, 12);
    }
  printf ("\n");
  for (guint s = 0; s < sizes->len; s++)
    {
      guint32 size = g_array_index (sizes, guint32, s);
      g_autofree char *size_text = duel_workload_format_block_size (size);

      printf ("  %-8s", size_text);
      for (guint m = 0; m < mixes->len; m++)
        {
          const DuelRoundsCell *cell = duel_rounds_report_find_cell (report, size, g_array_index (mixes, guint, m));
          g_autofree char *value = duel_number_format (cell_value (cell, table->key), table->decimals);

          print_right (value, 12);
        }
      printf ("\n");
    }
}

static void
print_section (DuelResult *result,
               const char *section)
{
  g_autoptr(DuelRoundsReport) report = duel_rounds_report_new (result, section);
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) mixes = g_array_new (FALSE, FALSE, sizeof (guint));
  const DuelReviewTest *test;
  const char *title;
  guint first, last;

  if (report == NULL)
    return;
  test = duel_review_test_find (report->section);
  title = test != NULL ? duel_review_test_get_title (test) : report->section;
  printf ("\n");
  print_verdict (report, title);

  collect_axes (report, sizes, mixes);
  first = report->measured.first_round;
  last = first + MAX (report->measured.n, 1) - 1;
  /* Latency tests: the three latencies; the others: their figure and IOPS. */
  if (g_str_has_prefix (report->tracked_key, "latency_"))
    {
      print_table (report, find_table ("latency_mean_us"), sizes, mixes, first, last);
      print_table (report, find_table ("latency_p9999_us"), sizes, mixes, first, last);
      print_table (report, find_table ("latency_max_us"), sizes, mixes, first, last);
    }
  else
    {
      print_table (report, find_table (report->tracked_key), sizes, mixes, first, last);
      if (!g_str_equal (report->tracked_key, "iops"))
        print_table (report, find_table ("iops"), sizes, mixes, first, last);
    }
}

void
duel_cli_print_rounds (DuelResult *result)
{
  g_auto(GStrv) sections = duel_rounds_list_sections (result);

  for (guint i = 0; sections[i] != NULL; i++)
    print_section (result, sections[i]);
}
