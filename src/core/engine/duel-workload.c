/* duel-workload.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "duel-error.h"
#include "duel-json.h"
#include "duel-workload.h"
#include "duel-workload-option.h"

void
duel_workload_init (DuelWorkload *workload)
{
  g_return_if_fail (workload != NULL);

  *workload = (DuelWorkload) {
    .block_size = 4096,
    .queue_depth = 32,
    .numjobs = 1,
    .read_percent = 100,
    .pattern = DUEL_PATTERN_RANDOM,
    .interval_ms = DUEL_WORKLOAD_DEFAULT_INTERVAL_MS,
    .seed = 0x5eed,
  };
}

gboolean
duel_workload_writes (const DuelWorkload *workload)
{
  return workload->read_percent < 100;
}

gboolean
duel_workload_reads (const DuelWorkload *workload)
{
  return workload->read_percent > 0;
}

gboolean
duel_workload_is_mixed (const DuelWorkload *workload)
{
  return duel_workload_reads (workload) && duel_workload_writes (workload);
}

gboolean
duel_workload_validate (const DuelWorkload  *workload,
                        GError             **error)
{
  g_return_val_if_fail (workload != NULL, FALSE);

  /* The ranges are the option table's, as the CLI and the fio import see them. */
  static const DuelWorkloadOptionId checked[] = {
    DUEL_WORKLOAD_OPTION_BLOCK_SIZE, DUEL_WORKLOAD_OPTION_QUEUE_DEPTH, DUEL_WORKLOAD_OPTION_NUMJOBS,
    DUEL_WORKLOAD_OPTION_READ_PERCENT, DUEL_WORKLOAD_OPTION_INTERVAL, DUEL_WORKLOAD_OPTION_RUNTIME,
  };

  for (guint i = 0; i < G_N_ELEMENTS (checked); i++)
    {
      const DuelWorkloadOption *option = duel_workload_option_get (checked[i]);

      if (!duel_workload_option_check (option, duel_workload_option_read (option, workload), error))
        return FALSE;
    }
  if (!(workload->size_multiple >= 0) || !isfinite (workload->size_multiple))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The size multiple must be a positive number."));
      return FALSE;
    }
  if (workload->runtime_ms == 0 && workload->size_bytes == 0 && workload->size_multiple == 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("A run needs a stop rule: a runtime, a size, or both."));
      return FALSE;
    }
  return TRUE;
}

const char *
duel_workload_get_rw_name (const DuelWorkload *workload)
{
  gboolean random = workload->pattern == DUEL_PATTERN_RANDOM;

  if (workload->read_percent == 100)
    return random ? "randread" : "read";
  if (workload->read_percent == 0)
    return random ? "randwrite" : "write";
  return random ? "randrw" : "rw";
}

gboolean
duel_workload_set_rw_name (DuelWorkload  *workload,
                           const char    *rw,
                           GError       **error)
{
  static const struct {
    const char *name;
    DuelPattern pattern;
    int read_percent;      /* -1: keep the mix already set */
  } names[] = {
    { "randread",  DUEL_PATTERN_RANDOM,     100 },
    { "randwrite", DUEL_PATTERN_RANDOM,     0 },
    { "randrw",    DUEL_PATTERN_RANDOM,     -1 },
    { "read",      DUEL_PATTERN_SEQUENTIAL, 100 },
    { "write",     DUEL_PATTERN_SEQUENTIAL, 0 },
    { "rw",        DUEL_PATTERN_SEQUENTIAL, -1 },
    { "readwrite", DUEL_PATTERN_SEQUENTIAL, -1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      if (g_strcmp0 (rw, names[i].name) != 0)
        continue;
      workload->pattern = names[i].pattern;
      if (names[i].read_percent >= 0)
        workload->read_percent = names[i].read_percent;
      else if (!duel_workload_is_mixed (workload))
        workload->read_percent = 50;
      return TRUE;
    }

  g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
               _("Unknown access pattern “%s”: use randread, randwrite, randrw, read, write or rw."),
               rw ? rw : "");
  return FALSE;
}

gboolean
duel_workload_resolve (const DuelWorkload  *workload,
                       guint64              target_size,
                       guint32              logical_block_size,
                       guint64             *out_span_offset,
                       guint64             *out_span_length,
                       guint64             *out_byte_limit,
                       GError             **error)
{
  guint64 span_length, limit = 0;

  g_return_val_if_fail (workload != NULL, FALSE);
  g_return_val_if_fail (logical_block_size > 0, FALSE);

  if (!duel_workload_validate (workload, error))
    return FALSE;

  if (workload->block_size % logical_block_size != 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The block size (%u bytes) is not a multiple of the target’s logical block size (%u bytes)."),
                   workload->block_size, logical_block_size);
      return FALSE;
    }
  if (workload->span_offset % logical_block_size != 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The offset (%" PRIu64 " bytes) is not a multiple of the target’s logical block size (%u bytes)."),
                   workload->span_offset, logical_block_size);
      return FALSE;
    }
  if (workload->span_offset >= target_size)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The offset (%" PRIu64 " bytes) is beyond the end of the target (%" PRIu64 " bytes)."),
                   workload->span_offset, target_size);
      return FALSE;
    }

  span_length = workload->span_length;
  if (span_length == 0)
    span_length = target_size - workload->span_offset;
  if (span_length > target_size - workload->span_offset)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The span (%" PRIu64 " bytes from offset %" PRIu64 ") reaches past the end of the target (%" PRIu64 " bytes)."),
                   span_length, workload->span_offset, target_size);
      return FALSE;
    }
  /* The whole span is used: I/Os never straddle its end. */
  span_length -= span_length % workload->block_size;
  if (span_length == 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The span is smaller than one block of %u bytes."),
                   workload->block_size);
      return FALSE;
    }

  if (workload->size_multiple > 0)
    {
      double bytes = workload->size_multiple * (double) span_length;

      /* llround() of anything past 2^63 is undefined. */
      if (bytes >= 9223372036854775808.0)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                       _("The size to transfer (%g times the span) is too large."),
                       workload->size_multiple);
          return FALSE;
        }
      /* A limit of 0 would mean none at all: an endless run. */
      limit = (guint64) llround (bytes);
      if (limit < workload->block_size)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                       _("The size to transfer (%g times the span of %" PRIu64 " bytes) is smaller than one block of %u bytes."),
                       workload->size_multiple, span_length, workload->block_size);
          return FALSE;
        }
    }
  if (workload->size_bytes > 0)
    limit = limit > 0 ? MIN (limit, workload->size_bytes) : workload->size_bytes;
  if (limit > 0)
    {
      limit -= limit % workload->block_size;
      if (limit == 0)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                       _("The size to transfer is smaller than one block of %u bytes."),
                       workload->block_size);
          return FALSE;
        }
    }

  if (out_span_offset)
    *out_span_offset = workload->span_offset;
  if (out_span_length)
    *out_span_length = span_length;
  if (out_byte_limit)
    *out_byte_limit = limit;
  return TRUE;
}

JsonNode *
duel_workload_to_json (const DuelWorkload *workload)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *seed = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "rw");
  json_builder_add_string_value (builder, duel_workload_get_rw_name (workload));
  json_builder_set_member_name (builder, "bs");
  json_builder_add_int_value (builder, workload->block_size);
  json_builder_set_member_name (builder, "iodepth");
  json_builder_add_int_value (builder, workload->queue_depth);
  json_builder_set_member_name (builder, "numjobs");
  json_builder_add_int_value (builder, workload->numjobs);
  json_builder_set_member_name (builder, "rwmixread");
  json_builder_add_int_value (builder, workload->read_percent);
  json_builder_set_member_name (builder, "offset");
  json_builder_add_int_value (builder, (gint64) workload->span_offset);
  json_builder_set_member_name (builder, "span");
  json_builder_add_int_value (builder, (gint64) workload->span_length);
  json_builder_set_member_name (builder, "runtime_ms");
  json_builder_add_int_value (builder, (gint64) workload->runtime_ms);
  json_builder_set_member_name (builder, "size_bytes");
  json_builder_add_int_value (builder, (gint64) workload->size_bytes);
  json_builder_set_member_name (builder, "size_multiple");
  json_builder_add_double_value (builder, duel_json_writable_double (workload->size_multiple));
  json_builder_set_member_name (builder, "interval_ms");
  json_builder_add_int_value (builder, workload->interval_ms);
  json_builder_set_member_name (builder, "seed");
  /* As a string: JSON readers lose precision on integers above 2^53. */
  seed = g_strdup_printf ("%" G_GUINT64_FORMAT, workload->seed);
  json_builder_add_string_value (builder, seed);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static gboolean
read_uint (JsonObject  *object,
           const char  *name,
           guint64      max,
           guint64     *out,
           GError     **error)
{
  JsonNode *node = json_object_get_member (object, name);
  gint64 value;

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_INT64)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("The workload field “%s” is missing or not an integer."), name);
      return FALSE;
    }
  value = json_node_get_int (node);
  if (value < 0 || (guint64) value > max)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("The workload field “%s” is out of range."), name);
      return FALSE;
    }
  *out = (guint64) value;
  return TRUE;
}

gboolean
duel_workload_from_json (JsonObject    *object,
                         DuelWorkload  *out_workload,
                         GError       **error)
{
  DuelWorkload w;
  guint64 value;
  const char *rw, *seed;
  JsonNode *node;

  g_return_val_if_fail (object != NULL, FALSE);
  g_return_val_if_fail (out_workload != NULL, FALSE);

  duel_workload_init (&w);

  rw = duel_json_get_string (object, "rw");
  if (rw == NULL || !duel_workload_set_rw_name (&w, rw, NULL))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("The workload field “%s” is missing or not valid."), "rw");
      return FALSE;
    }

  {
    static const DuelWorkloadOptionId stored[] = {
      DUEL_WORKLOAD_OPTION_BLOCK_SIZE, DUEL_WORKLOAD_OPTION_QUEUE_DEPTH, DUEL_WORKLOAD_OPTION_NUMJOBS,
      DUEL_WORKLOAD_OPTION_READ_PERCENT, DUEL_WORKLOAD_OPTION_INTERVAL,
    };

    for (guint i = 0; i < G_N_ELEMENTS (stored); i++)
      {
        const DuelWorkloadOption *option = duel_workload_option_get (stored[i]);

        /* Files from before jobs existed ran one. */
        if (option->id == DUEL_WORKLOAD_OPTION_NUMJOBS && !json_object_has_member (object, option->result_key))
          continue;
        if (!read_uint (object, option->result_key, option->max, &value, error))
          return FALSE;
        if (option->id == DUEL_WORKLOAD_OPTION_NUMJOBS && value == 0)
          {
            g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                         _("The workload field “%s” is out of range."), option->result_key);
            return FALSE;
          }
        /* Below the minimum is left to duel_workload_validate(), as the
         * loader has always done. */
        duel_workload_option_store (option, &w, value);
      }
  }
  if (!read_uint (object, "offset", G_MAXINT64, &w.span_offset, error) ||
      !read_uint (object, "span", G_MAXINT64, &w.span_length, error) ||
      !read_uint (object, "runtime_ms", G_MAXINT64, &w.runtime_ms, error) ||
      !read_uint (object, "size_bytes", G_MAXINT64, &w.size_bytes, error))
    return FALSE;

  node = json_object_get_member (object, "size_multiple");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      (json_node_get_value_type (node) == G_TYPE_DOUBLE || json_node_get_value_type (node) == G_TYPE_INT64))
    w.size_multiple = json_node_get_double (node);
  /* "1e999" parses as infinity, which could not even be written back. */
  if (!isfinite (w.size_multiple) || w.size_multiple < 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("The workload field “%s” is out of range."), "size_multiple");
      return FALSE;
    }

  node = json_object_get_member (object, "seed");
  seed = duel_json_get_string (object, "seed");
  if (node != NULL && seed == NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("The workload field “%s” is missing or not valid."), "seed");
      return FALSE;
    }
  if (seed != NULL && !g_ascii_string_to_unsigned (seed, 10, 0, G_MAXUINT64, &w.seed, NULL))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("The workload field “%s” is missing or not valid."), "seed");
      return FALSE;
    }

  *out_workload = w;
  return TRUE;
}

char *
duel_workload_format_block_size (guint32 bytes)
{
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
    return g_strdup_printf ("%u MiB", bytes / (1024 * 1024));
  if (bytes >= 1024 && bytes % 1024 == 0)
    return g_strdup_printf ("%u KiB", bytes / 1024);
  return g_strdup_printf ("%u B", bytes);
}

char *
duel_workload_describe_access (const DuelWorkload *workload)
{
  g_autofree char *bs = NULL;
  g_autofree char *access = NULL;

  g_return_val_if_fail (workload != NULL, NULL);

  bs = duel_workload_format_block_size (workload->block_size);
  access = duel_workload_describe_mix (workload);
  /* Translators: a block size, then the access: "4 KiB random write" */
  return g_strdup_printf (_("%s %s"), bs, access);
}

char *
duel_workload_describe_mix (const DuelWorkload *workload)
{
  char *access;

  g_return_val_if_fail (workload != NULL, NULL);

  if (!duel_workload_writes (workload))
    access = g_strdup (workload->pattern == DUEL_PATTERN_RANDOM ? _("random read") : _("sequential read"));
  else if (!duel_workload_reads (workload))
    access = g_strdup (workload->pattern == DUEL_PATTERN_RANDOM ? _("random write") : _("sequential write"));
  else
    /* Translators: e.g. "random 70/30 read/write" */
    access = g_strdup_printf (workload->pattern == DUEL_PATTERN_RANDOM ? _("random %u/%u read/write")
                                                                         : _("sequential %u/%u read/write"),
                              workload->read_percent, 100 - workload->read_percent);
  return access;
}
