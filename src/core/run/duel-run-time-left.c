/* duel-run-time-left.c — the time left as the app and the CLI show it
 *
 * A range while the estimate is wide ("25–70 min", its low end rounded
 * down and its high end up, so the range still holds what it held), the
 * middle once it is narrow (DUEL_RUN_ETA_NARROW). Pure: no run needed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-number.h"
#include "duel-run.h"

/* Units of the time left, by size: tenths of seconds, seconds, minutes,
 * hours. */
typedef enum
{
  UNIT_TENTHS,
  UNIT_SECONDS,
  UNIT_MINUTES,
  UNIT_HOURS,
} TimeUnit;

static TimeUnit
unit_of (double seconds)
{
  if (seconds < 10)
    return UNIT_TENTHS;
  if (seconds < 100)
    return UNIT_SECONDS;
  if (seconds < 100 * 60)
    return UNIT_MINUTES;
  return UNIT_HOURS;
}

/* @seconds in @unit, rounded down (@up FALSE) or up: a range so rounded
 * still holds what it held. */
static char *
format_in_unit (double   seconds,
                TimeUnit unit,
                gboolean up)
{
  double (*round_fn) (double) = up ? ceil : floor;

  switch (unit)
    {
    case UNIT_TENTHS:
      return duel_number_format (round_fn (seconds * 10) / 10, 1);
    case UNIT_SECONDS:
      return duel_number_format (round_fn (seconds), 0);
    case UNIT_MINUTES:
      return duel_number_format (round_fn (seconds / 60), 0);
    case UNIT_HOURS:
    default:
      /* Tenths of an hour below ten hours. */
      if (seconds < 10 * 3600)
        return duel_number_format (round_fn (seconds / 360) / 10, 1);
      return duel_number_format (round_fn (seconds / 3600), 0);
    }
}

static char *
with_unit (const char *number,
           TimeUnit    unit)
{
  switch (unit)
    {
    case UNIT_TENTHS:
    case UNIT_SECONDS:
      /* Translators: a time left in seconds, e.g. "3.4 s" or "40 s" */
      return g_strdup_printf (C_("time left", "%s s"), number);
    case UNIT_MINUTES:
      /* Translators: a time left in minutes, e.g. "25 min" */
      return g_strdup_printf (C_("time left", "%s min"), number);
    case UNIT_HOURS:
    default:
      /* Translators: a time left in hours, e.g. "2.5 h" */
      return g_strdup_printf (C_("time left", "%s h"), number);
    }
}

static char *
range_in_unit (const char *low,
               const char *high,
               TimeUnit    unit)
{
  switch (unit)
    {
    case UNIT_TENTHS:
    case UNIT_SECONDS:
      /* Translators: a range of the time left in seconds, e.g. "3–40 s" */
      return g_strdup_printf (C_("time left", "%s–%s s"), low, high);
    case UNIT_MINUTES:
      /* Translators: a range of the time left in minutes, e.g. "25–70 min" */
      return g_strdup_printf (C_("time left", "%s–%s min"), low, high);
    case UNIT_HOURS:
    default:
      /* Translators: a range of the time left in hours, e.g. "1.5–4.2 h" */
      return g_strdup_printf (C_("time left", "%s–%s h"), low, high);
    }
}

char *
duel_run_format_time_left (double low_s,
                           double middle_s,
                           double high_s)
{
  if (!isfinite (middle_s))
    return NULL;
  if (isfinite (low_s) && isfinite (high_s) && high_s >= DUEL_RUN_ETA_NARROW * MAX (low_s, 0.05))
    {
      TimeUnit low_unit = unit_of (low_s), high_unit = unit_of (high_s);
      g_autofree char *low = NULL;
      g_autofree char *high = NULL;

      /* One unit for both ends where the low end reads well in the high's. */
      if (low_unit != high_unit && high_unit != UNIT_HOURS && low_s >= 60)
        low_unit = high_unit;
      low = format_in_unit (low_s, low_unit, FALSE);
      high = format_in_unit (high_s, high_unit, TRUE);
      /* Seconds with tenths and without are one unit: "0.4–11 s". */
      if (low_unit == high_unit || (low_unit == UNIT_TENTHS && high_unit == UNIT_SECONDS))
        return range_in_unit (low, high, high_unit);
      {
        g_autofree char *low_text = with_unit (low, low_unit);
        g_autofree char *high_text = with_unit (high, high_unit);

        /* Translators: a range of the time left in different units, e.g. "40 s – 12 min" */
        return g_strdup_printf (C_("time left", "%s – %s"), low_text, high_text);
      }
    }
  if (middle_s < 1)
    /* Translators: the time left when it is less than a second, followed by "left" */
    return g_strdup (_("under a second"));
  if (middle_s < 10)
    {
      g_autofree char *number = duel_number_format (round (middle_s * 10) / 10, 1);

      return with_unit (number, UNIT_TENTHS);
    }
  {
    gint64 s = llround (middle_s);

    if (s >= 3600)
      return g_strdup_printf ("%" G_GINT64_FORMAT ":%02" G_GINT64_FORMAT ":%02" G_GINT64_FORMAT,
                              s / 3600, (s % 3600) / 60, s % 60);
    return g_strdup_printf ("%" G_GINT64_FORMAT ":%02" G_GINT64_FORMAT, s / 60, s % 60);
  }
}

/* A pass is shown by its middle and how far either way while its range is
 * within this share of it; by its range beyond. */
#define PASS_NARROW 0.25

/* How far either way @low..@high reaches around @middle, in whole per
 * cent rounded up to a step of 5 (5 at least); 0 when wider than
 * PASS_NARROW, unknown, or under a second (said so, nothing more). */
static guint
pass_spread_pct (double low,
                 double middle,
                 double high)
{
  double spread;

  if (!isfinite (low) || !isfinite (middle) || !isfinite (high) || middle < 1)
    return 0;
  spread = MAX (middle - low, high - middle) / middle;
  if (spread > PASS_NARROW)
    return 0;
  return MAX (5 * (guint) ceil (spread * 20 - 1e-9), 5);
}

/* A pass's time: its middle when narrow (and @out_pct how far either
 * way) or under a second, else its range (@out_wide TRUE: why it is wide
 * can be said). */
static char *
pass_time (double    low,
           double    middle,
           double    high,
           guint    *out_pct,
           gboolean *out_wide)
{
  *out_pct = pass_spread_pct (low, middle, high);
  *out_wide = *out_pct == 0 && middle >= 1;
  if (!*out_wide)
    return duel_run_format_time_left (middle, middle, middle);
  return duel_run_format_time_left (low, middle, high);
}

char **
duel_run_format_pass_parts (const DuelRunEtaPasses *passes)
{
  GPtrArray *parts;
  g_autofree char *second = NULL;
  guint second_pct;
  gboolean second_wide;

  g_return_val_if_fail (passes != NULL, NULL);

  if (!isfinite (passes->second_s) || !isfinite (passes->first_s))
    return NULL;
  parts = g_ptr_array_new ();
  second = pass_time (passes->second_low_s, passes->second_s, passes->second_high_s, &second_pct, &second_wide);
  if (passes->in_second)
    {
      if (second_pct > 0)
        /* Translators: a fill's second pass, measured: "Second pass: 4:10 left (±10 %)" */
        g_ptr_array_add (parts, g_strdup_printf (_("Second pass: %s left (±%u %%)"), second, second_pct));
      else if (passes->gc_pending && second_wide)
        /* Translators: a fill's second pass before the drive shows its garbage collection:
         * "Second pass: 3–12 min left, known once garbage collection starts" */
        g_ptr_array_add (parts, g_strdup_printf (_("Second pass: %s left, known once garbage collection starts"),
                                                 second));
      else
        /* Translators: a fill's second pass: "Second pass: 3–5 min left" */
        g_ptr_array_add (parts, g_strdup_printf (_("Second pass: %s left"), second));
    }
  else
    {
      guint first_pct;
      gboolean first_wide;
      g_autofree char *first = pass_time (passes->first_low_s, passes->first_s, passes->first_high_s, &first_pct,
                                          &first_wide);

      if (first_pct > 0)
        /* Translators: a fill's first pass, measured: "First pass: 4:00 left (±10 %)" */
        g_ptr_array_add (parts, g_strdup_printf (_("First pass: %s left (±%u %%)"), first, first_pct));
      else if (passes->first_open && first_wide)
        /* Translators: a fill's first pass before a write cache has run out:
         * "First pass: 4–11 min left, wider while a write cache may still run out" */
        g_ptr_array_add (parts, g_strdup_printf (_("First pass: %s left, wider while a write cache may still run out"),
                                                 first));
      else
        /* Translators: a fill's first pass: "First pass: 4–5 min left" */
        g_ptr_array_add (parts, g_strdup_printf (_("First pass: %s left"), first));

      if (second_pct > 0)
        /* Translators: after the first pass, the second: "after it, the second pass: 4:10 (±10 %)" */
        g_ptr_array_add (parts, g_strdup_printf (_("after it, the second pass: %s (±%u %%)"), second, second_pct));
      else if (passes->gc_pending && second_wide)
        /* Translators: after the first pass, the second, before the drive shows its garbage
         * collection: "after it, the second pass: 3–12 min, known once garbage collection starts" */
        g_ptr_array_add (parts, g_strdup_printf (_("after it, the second pass: %s, known once garbage collection starts"),
                                                 second));
      else
        /* Translators: after the first pass, the second: "after it, the second pass: 3–5 min" */
        g_ptr_array_add (parts, g_strdup_printf (_("after it, the second pass: %s"), second));
    }
  g_ptr_array_add (parts, NULL);
  return (char **) g_ptr_array_free (parts, FALSE);
}

char *
duel_run_format_passes (const DuelRunEtaPasses *passes)
{
  g_auto(GStrv) parts = duel_run_format_pass_parts (passes);

  if (parts == NULL)
    return NULL;
  if (parts[1] == NULL)
    return g_strdup (parts[0]);
  /* Translators: the first pass and the second, joined: "First pass: …; after it, the second pass: …" */
  return g_strdup_printf (_("%s; %s"), parts[0], parts[1]);
}

const char *
duel_run_time_left_note (void)
{
  /* Translators: said beside the time left while it is a range */
  return _("Each range of the time left holds the real time in 8 runs of 10.");
}
