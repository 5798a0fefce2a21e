/* duel-workload-option.c — the workload's options in one table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "duel-error.h"
#include "duel-workload-option.h"

typedef struct
{
  DuelWorkloadOption public;
  gsize              offset;        /* the field in DuelWorkload */
  gsize              size;          /* its size: 4 or 8 bytes */
  gboolean           fio_plain_ms;  /* fio takes whole ms (log_avg_msec), not a time with a unit */
} OptionEntry;

G_STATIC_ASSERT (sizeof (guint) == sizeof (guint32));

#define FIELD(name) G_STRUCT_OFFSET (DuelWorkload, name), sizeof (((DuelWorkload *) NULL)->name)

/* In DuelWorkloadOptionId's order. The ranges are what the engine can run:
 * a 64 MiB buffer per slot, 4096 slots per ring, 64 rings. */
static const OptionEntry options[DUEL_N_WORKLOAD_OPTIONS] = {
  { { DUEL_WORKLOAD_OPTION_BLOCK_SIZE, "bs", "blocksize", "bs", "bs",
      DUEL_WORKLOAD_OPTION_KIND_SIZE, 1, DUEL_WORKLOAD_MAX_BLOCK_SIZE, N_("block size") },
    FIELD (block_size), FALSE },
  { { DUEL_WORKLOAD_OPTION_QUEUE_DEPTH, "iodepth", NULL, "iodepth", "iodepth",
      DUEL_WORKLOAD_OPTION_KIND_COUNT, 1, DUEL_WORKLOAD_MAX_QUEUE_DEPTH, N_("queue depth") },
    FIELD (queue_depth), FALSE },
  { { DUEL_WORKLOAD_OPTION_NUMJOBS, "numjobs", NULL, "numjobs", "numjobs",
      DUEL_WORKLOAD_OPTION_KIND_COUNT, 1, DUEL_WORKLOAD_MAX_NUMJOBS, N_("number of jobs") },
    FIELD (numjobs), FALSE },
  { { DUEL_WORKLOAD_OPTION_READ_PERCENT, "rwmixread", NULL, "rwmixread", "rwmixread",
      DUEL_WORKLOAD_OPTION_KIND_PERCENT, 0, 100, N_("read percentage") },
    FIELD (read_percent), FALSE },
  /* 0: no time limit. The CLI takes seconds with decimals (--runtime 0.5)
   * and checks the milliseconds here. */
  { { DUEL_WORKLOAD_OPTION_RUNTIME, "runtime", "timeout", NULL, "runtime_ms",
      DUEL_WORKLOAD_OPTION_KIND_TIME, 0, DUEL_WORKLOAD_MAX_RUNTIME_MS, N_("runtime") },
    FIELD (runtime_ms), FALSE },
  { { DUEL_WORKLOAD_OPTION_INTERVAL, "log_avg_msec", NULL, "interval-ms", "interval_ms",
      DUEL_WORKLOAD_OPTION_KIND_TIME, DUEL_WORKLOAD_MIN_INTERVAL_MS, DUEL_WORKLOAD_MAX_INTERVAL_MS,
      N_("interval") },
    FIELD (interval_ms), TRUE },
  { { DUEL_WORKLOAD_OPTION_SEED, "randseed", NULL, "seed", "seed",
      DUEL_WORKLOAD_OPTION_KIND_COUNT, 0, G_MAXUINT64, N_("seed") },
    FIELD (seed), FALSE },
};

static const OptionEntry *
entry_of (const DuelWorkloadOption *option)
{
  g_assert (option != NULL && option->id < DUEL_N_WORKLOAD_OPTIONS);
  return &options[option->id];
}

const DuelWorkloadOption *
duel_workload_option_get (DuelWorkloadOptionId id)
{
  g_return_val_if_fail (id < DUEL_N_WORKLOAD_OPTIONS, NULL);
  return &options[id].public;
}

const DuelWorkloadOption *
duel_workload_option_find_fio (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      if (strcmp (options[i].public.fio_name, name) == 0 ||
          g_strcmp0 (options[i].public.fio_alias, name) == 0)
        return &options[i].public;
    }
  return NULL;
}

guint64
duel_workload_option_read (const DuelWorkloadOption *option,
                           const DuelWorkload       *workload)
{
  const OptionEntry *e = entry_of (option);
  const guint8 *field = (const guint8 *) workload + e->offset;

  if (e->size == sizeof (guint64))
    return *(const guint64 *) (gconstpointer) field;
  return *(const guint32 *) (gconstpointer) field;
}

/* A value as the range message shows it: "64 MiB", "4096", "50 %", "100 ms". */
static char *
format_value (const DuelWorkloadOption *option,
              guint64                   value)
{
  switch (option->kind)
    {
    case DUEL_WORKLOAD_OPTION_KIND_SIZE:
      if (value >= 1024 * 1024 && value % (1024 * 1024) == 0)
        return g_strdup_printf ("%" G_GUINT64_FORMAT " MiB", value / (1024 * 1024));
      if (value >= 1024 && value % 1024 == 0)
        return g_strdup_printf ("%" G_GUINT64_FORMAT " KiB", value / 1024);
      return g_strdup_printf ("%" G_GUINT64_FORMAT " B", value);
    case DUEL_WORKLOAD_OPTION_KIND_PERCENT:
      return g_strdup_printf ("%" G_GUINT64_FORMAT " %%", value);
    case DUEL_WORKLOAD_OPTION_KIND_TIME:
      return g_strdup_printf ("%" G_GUINT64_FORMAT " ms", value);
    case DUEL_WORKLOAD_OPTION_KIND_COUNT:
    default:
      return g_strdup_printf ("%" G_GUINT64_FORMAT, value);
    }
}

gboolean
duel_workload_option_check (const DuelWorkloadOption *option,
                            guint64                   value,
                            GError                  **error)
{
  g_autofree char *lo = NULL, *hi = NULL, *given = NULL;

  g_return_val_if_fail (option != NULL, FALSE);

  if (value >= option->min && value <= option->max)
    return TRUE;
  lo = format_value (option, option->min);
  hi = format_value (option, option->max);
  given = format_value (option, value);
  /* TRANSLATORS: "The queue depth must be between 1 and 4096, not 0." */
  g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
               _("The %s must be between %s and %s, not %s."), _(option->label), lo, hi, given);
  return FALSE;
}

void
duel_workload_option_store (const DuelWorkloadOption *option,
                            DuelWorkload             *workload,
                            guint64                   value)
{
  const OptionEntry *e = entry_of (option);
  guint8 *field = (guint8 *) workload + e->offset;

  if (e->size == sizeof (guint64))
    *(guint64 *) (gpointer) field = value;
  else
    *(guint32 *) (gpointer) field = (guint32) MIN (value, G_MAXUINT32);
}

gboolean
duel_workload_option_write (const DuelWorkloadOption *option,
                            DuelWorkload             *workload,
                            guint64                   value,
                            GError                  **error)
{
  g_return_val_if_fail (workload != NULL, FALSE);

  if (!duel_workload_option_check (option, value, error))
    return FALSE;
  duel_workload_option_store (option, workload, value);
  return TRUE;
}

static gboolean
parse_whole (const char *text,
             guint64    *out_value)
{
  /* No sign, no spaces, no "0x": what a person means by a count. */
  if (text == NULL || !g_ascii_isdigit (text[0]))
    return FALSE;
  return g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, out_value, NULL);
}

gboolean
duel_workload_option_parse_cli (const DuelWorkloadOption *option,
                                const char               *text,
                                DuelWorkload             *workload,
                                GError                  **error)
{
  guint64 value = 0;

  g_return_val_if_fail (option != NULL && text != NULL, FALSE);

  if (option->kind == DUEL_WORKLOAD_OPTION_KIND_SIZE)
    {
      if (!duel_parse_size (text, &value, error))
        return FALSE;
    }
  else if (!parse_whole (text, &value))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not a whole number of 0 or more."), text);
      return FALSE;
    }
  return duel_workload_option_write (option, workload, value, error);
}

gboolean
duel_workload_option_parse_fio (const DuelWorkloadOption *option,
                                const char               *text,
                                guint64                  *out_value,
                                GError                  **error)
{
  const OptionEntry *e = entry_of (option);
  gboolean ok;

  g_return_val_if_fail (text != NULL && out_value != NULL, FALSE);

  switch (option->kind)
    {
    case DUEL_WORKLOAD_OPTION_KIND_SIZE:
      ok = duel_parse_fio_size (text, out_value);
      break;
    case DUEL_WORKLOAD_OPTION_KIND_TIME:
      ok = e->fio_plain_ms ? parse_whole (text, out_value) : duel_parse_fio_time_ms (text, out_value);
      break;
    case DUEL_WORKLOAD_OPTION_KIND_COUNT:
    case DUEL_WORKLOAD_OPTION_KIND_PERCENT:
    default:
      ok = parse_whole (text, out_value);
      break;
    }
  if (!ok)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("fio’s %s=%s is not a value Drive Duel can read."), option->fio_name, text);
      return FALSE;
    }
  return duel_workload_option_check (option, *out_value, error);
}

char *
duel_workload_option_to_fio (const DuelWorkloadOption *option,
                             guint64                   value)
{
  const OptionEntry *e = entry_of (option);

  if (option->kind == DUEL_WORKLOAD_OPTION_KIND_TIME && !e->fio_plain_ms)
    return g_strdup_printf ("%s=%" G_GUINT64_FORMAT "ms", option->fio_name, value);
  return g_strdup_printf ("%s=%" G_GUINT64_FORMAT, option->fio_name, value);
}

/* fio sizes: "4k", "4096", "1m"; the first of "4k,8k" (read,write) or "4k-16k". */
gboolean
duel_parse_fio_size (const char *text,
                     guint64    *out_bytes)
{
  g_autofree char *first = NULL;
  char *cut;

  if (text == NULL || *text == '\0' || strchr (text, '%') != NULL)
    return FALSE;
  first = g_strdup (text);
  cut = strpbrk (first, ",:-");
  if (cut != NULL)
    *cut = '\0';
  g_strstrip (first);
  if (*first == '\0')
    return FALSE;
  return duel_parse_size (first, out_bytes, NULL);
}

/* fio times: a plain number is seconds; "us", "ms", "s", "m", "h", "d" suffixes. */
gboolean
duel_parse_fio_time_ms (const char *text,
                        guint64    *out_ms)
{
  static const struct { const char *suffix; double ms; } units[] = {
    { "", 1e3 }, { "us", 1e-3 }, { "ms", 1 }, { "s", 1e3 }, { "m", 60e3 }, { "h", 3600e3 }, { "d", 86400e3 },
  };
  char *end = NULL;
  double value;

  if (text == NULL || *text == '\0')
    return FALSE;
  value = g_ascii_strtod (text, &end);
  if (end == text || !isfinite (value) || value < 0)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      if (g_ascii_strcasecmp (end, units[i].suffix) == 0)
        {
          if (value * units[i].ms >= 9.2e18)
            return FALSE;
          *out_ms = (guint64) (value * units[i].ms);
          return TRUE;
        }
    }
  return FALSE;
}
