/* duel-result-writer.c — a result as the file's JSON text, saved atomically
 *
 * The tree of everything but the series, whose columns are spliced into
 * the generated text straight from the rows, and the save through the one
 * file writer (duel-file-writer.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "duel-error.h"
#include "duel-file-writer.h"
#include "duel-json.h"
#include "duel-result-internal.h"
#include "duel-result-private.h"
#include "duel-result.h"

/* Percentiles written to the file; readers recompute others from the bins. */
static const struct {
  const char *key;
  double      value;
} stored_percentiles[] = {
  { "50",     50.0 },
  { "90",     90.0 },
  { "99",     99.0 },
  { "99.9",   99.9 },
  { "99.99",  99.99 },
  { "99.999", 99.999 },
};

const char * const _duel_result_direction_names[DUEL_N_DIRECTIONS] = { "read", "write" };

const char * const _duel_result_column_names[N_COLUMNS] = {
  "t_ms", "read_ops", "write_ops", "read_bytes", "write_bytes",
  "read_lat_max_ns", "write_lat_max_ns", "temperature_c",
};

static void
set_uint (JsonObject *object,
          const char *name,
          guint64     value)
{
  /* JSON integers are int64 in json-glib; nothing we count gets near 2^63. */
  json_object_set_int_member (object, name, (gint64) MIN (value, (guint64) G_MAXINT64));
}

/* Saving: the series columns are the only part of a result that grows with
 * the run, one value per interval. Built as JSON nodes they would cost
 * ~1 kB per row at every checkpoint; instead each column is a placeholder
 * string in the tree, replaced in the generated text by the column written
 * straight from the rows, one line per column. The placeholder carries a
 * random nonce, so no string of the result's own can be taken for one. */
typedef struct
{
  guint64    nonce;
  char      *prefix;   /* the placeholder as generated: "\u0001duel-series-NONCE: */
  GPtrArray *series;   /* (element-type DuelSeries) (not owned), by test index */
  GPtrArray *records;  /* (element-type DuelTestRecord) (not owned), by test index: the bins */
} SeriesSplice;

/* A placeholder's "column" for the bins of direction d. */
#define SPLICE_BINS(d) (N_COLUMNS + (d))

static gboolean
hist_has_bins (const DuelHistogram *hist)
{
  for (guint i = 0; i < DUEL_HISTOGRAM_N_BUCKETS; i++)
    if (hist->buckets[i] != 0)
      return TRUE;
  return FALSE;
}

/* A histogram's bins go the way of the series columns: a placeholder for
 * them in the tree (a bin as JSON nodes takes ~300 bytes, and a result of
 * many tests holds thousands), replaced in the text by one line of pairs.
 * A histogram without bins keeps its empty array. */
static JsonObject *
histogram_to_json (SeriesSplice        *splice,
                   const DuelHistogram *hist,
                   guint                test_index,
                   DuelDirection        direction)
{
  JsonObject *lat = json_object_new ();
  JsonObject *percentiles = json_object_new ();

  set_uint (lat, "samples", hist->count);
  set_uint (lat, "min", hist->count ? hist->min_ns : 0);
  set_uint (lat, "max", hist->count ? hist->max_ns : 0);
  duel_json_set_double_or_null (lat, "mean", duel_histogram_mean_ns (hist));
  duel_json_set_double_or_null (lat, "stddev", duel_histogram_stddev_ns (hist));
  set_uint (lat, "sum", hist->sum_ns);
  duel_json_set_double_or_null (lat, "sum_sq", hist->sum_sq_ns);

  /* A percentile from too few samples is just the largest one: leave it out. */
  for (guint i = 0; i < G_N_ELEMENTS (stored_percentiles); i++)
    {
      if (hist->count == 0 ||
          hist->count < duel_histogram_min_samples_for (stored_percentiles[i].value))
        continue;
      set_uint (percentiles, stored_percentiles[i].key,
                duel_histogram_percentile_ns (hist, stored_percentiles[i].value));
    }
  json_object_set_object_member (lat, "percentiles", percentiles);

  if (hist_has_bins (hist))
    {
      g_autofree char *placeholder = g_strdup_printf ("\001duel-series-%016" G_GINT64_MODIFIER "x:%u:%u",
                                                      splice->nonce, test_index, SPLICE_BINS (direction));

      json_object_set_string_member (lat, "bins", placeholder);
    }
  else
    json_object_set_array_member (lat, "bins", json_array_new ());
  return lat;
}

static void
append_bins (GString             *out,
             const DuelHistogram *hist)
{
  gboolean first = TRUE;

  g_string_append_c (out, '[');
  for (guint i = 0; i < DUEL_HISTOGRAM_N_BUCKETS; i++)
    {
      if (hist->buckets[i] == 0)
        continue;
      g_string_append_printf (out, "%s[%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "]", first ? "" : ",",
                              duel_histogram_bucket_lower_ns (i), MIN (hist->buckets[i], (guint64) G_MAXINT64));
      first = FALSE;
    }
  g_string_append_c (out, ']');
}


static gboolean
series_has_temperature (const DuelSeries *series)
{
  guint n = duel_series_get_length (series);
  const DuelSeriesRow *rows = duel_series_get_rows (series);

  for (guint i = 0; i < n; i++)
    if (isfinite (rows[i].temperature_c))
      return TRUE;
  return FALSE;
}

/* The series of test @test_index as placeholders; the series is noted in
 * @splice for splice_series(). */
static JsonObject *
series_to_placeholders (SeriesSplice         *splice,
                        const DuelTestRecord *record,
                        const DuelSeries     *series,
                        guint                 test_index)
{
  JsonObject *object = json_object_new ();
  guint n_columns = series_has_temperature (series) ? N_COLUMNS : N_INT_COLUMNS;

  g_ptr_array_add (splice->series, (gpointer) series);
  g_ptr_array_add (splice->records, (gpointer) record);
  set_uint (object, "rows", duel_series_get_length (series));
  for (guint c = 0; c < n_columns; c++)
    {
      g_autofree char *placeholder = g_strdup_printf ("\001duel-series-%016" G_GINT64_MODIFIER "x:%u:%u",
                                                      splice->nonce, test_index, c);
      json_object_set_string_member (object, _duel_result_column_names[c], placeholder);
    }
  return object;
}

static void
append_series_column (GString          *out,
                      const DuelSeries *series,
                      guint             column)
{
  guint n = duel_series_get_length (series);
  const DuelSeriesRow *rows = duel_series_get_rows (series);

  g_string_append_c (out, '[');
  for (guint i = 0; i < n; i++)
    {
      DuelSeriesRow row = rows[i];

      if (i > 0)
        g_string_append_c (out, ',');
      if (column == COLUMN_TEMPERATURE)
        {
          char buffer[G_ASCII_DTOSTR_BUF_SIZE];

          if (isfinite (row.temperature_c))
            g_string_append (out, g_ascii_dtostr (buffer, sizeof buffer, row.temperature_c));
          else
            g_string_append (out, "null");
        }
      else
        g_string_append_printf (out, "%" G_GUINT64_FORMAT,
                                MIN (*_duel_result_row_field (&row, (Column) column), (guint64) G_MAXINT64));
    }
  g_string_append_c (out, ']');
}

/* Replaces every placeholder in @text by its column. */
static GString *
splice_series (const char         *text,
               gsize               length,
               const SeriesSplice *splice)
{
  gsize extra = 0;
  GString *out;
  const char *p = text, *end = text + length;
  gsize prefix_length = strlen (splice->prefix);

  for (guint t = 0; t < splice->series->len; t++)
    extra += (gsize) duel_series_get_length (g_ptr_array_index (splice->series, t)) * 8 * 16;
  /* A bin is at most 2 × 19 digits and 4 more. */
  for (guint t = 0; t < splice->records->len; t++)
    {
      const DuelTestRecord *record = g_ptr_array_index (splice->records, t);

      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        for (guint i = 0; record->latency[d] != NULL && i < DUEL_HISTOGRAM_N_BUCKETS; i++)
          extra += record->latency[d]->buckets[i] != 0 ? 16 : 0;
    }
  out = g_string_sized_new (length + extra);

  while (p < end)
    {
      const char *hit = g_strstr_len (p, end - p, splice->prefix);
      guint test_index, column;
      char *after;

      if (hit == NULL)
        {
          g_string_append_len (out, p, end - p);
          break;
        }
      g_string_append_len (out, p, hit - p);
      /* "\u0001duel-series-NONCE:TEST:COLUMN" — our own text, so well formed. */
      test_index = (guint) g_ascii_strtoull (hit + prefix_length, &after, 10);
      g_assert (*after == ':');
      column = (guint) g_ascii_strtoull (after + 1, &after, 10);
      g_assert (*after == '"' && test_index < splice->series->len && column < SPLICE_BINS (DUEL_N_DIRECTIONS));
      if (column >= N_COLUMNS)
        {
          const DuelTestRecord *record = g_ptr_array_index (splice->records, test_index);

          append_bins (out, record->latency[column - N_COLUMNS]);
        }
      else
        append_series_column (out, g_ptr_array_index (splice->series, test_index), column);
      p = after + 1;
    }
  return out;
}

static void
set_date_or_null (JsonObject *object,
                  const char *name,
                  GDateTime  *date)
{
  g_autoptr(GDateTime) utc = NULL;
  g_autofree char *text = NULL;

  if (date == NULL)
    {
      json_object_set_null_member (object, name);
      return;
    }
  utc = g_date_time_to_utc (date);
  text = g_date_time_format_iso8601 (utc);
  json_object_set_string_member (object, name, text ? text : "");
}

/* What a test is, as against what it measured: a journal's "test" line
 * holds this much, the file's test object begins with it. */
static JsonObject *
test_header_to_json (const DuelTestRecord *record)
{
  JsonObject *test = json_object_new ();
  JsonObject *params;
  JsonNode *workload;

  json_object_set_string_member (test, "name", record->name ? record->name : "");
  if (record->preset != NULL)
    json_object_set_string_member (test, "preset", record->preset);
  else
    json_object_set_null_member (test, "preset");
  json_object_set_string_member (test, "status", duel_test_status_to_string (record->status));
  if (record->error_message != NULL)
    json_object_set_string_member (test, "error", record->error_message);
  set_date_or_null (test, "started", record->started);
  /* Only when it is not the engine's own total latency: older readers and
   * files without it mean total. */
  if (record->latency_kind != DUEL_LATENCY_TOTAL)
    json_object_set_string_member (test, "latency_kind", duel_latency_kind_to_string (record->latency_kind));

  workload = duel_workload_to_json (&record->workload);
  params = json_node_dup_object (workload);
  json_node_unref (workload);
  set_uint (params, "span_offset", record->span_offset);
  set_uint (params, "span_bytes", record->span_length);
  set_uint (params, "byte_limit", record->byte_limit);
  json_object_set_boolean_member (params, "trimmed", record->trimmed);
  json_object_set_object_member (test, "params", params);

  set_uint (test, "interval_ms", record->workload.interval_ms);

  /* Only when the process was paused: files without it never were. */
  if (duel_test_record_get_n_pauses (record) > 0)
    {
      JsonArray *pauses = json_array_new ();

      for (guint i = 0; i < duel_test_record_get_n_pauses (record); i++)
        {
          const DuelPause *pause = duel_test_record_get_pause (record, i);
          JsonObject *object = json_object_new ();

          set_uint (object, "at_ms", pause->at_ms);
          set_uint (object, "row", pause->row);
          set_uint (object, "rows", pause->rows);
          json_object_set_double_member (object, "fraction", CLAMP (pause->fraction, 0, 1));
          set_uint (object, "length_ns", pause->length_ns);
          set_uint (object, "latencies_left_out", pause->latencies_left_out);
          json_array_add_object_element (pauses, object);
        }
      json_object_set_array_member (test, "pauses", pauses);
    }
  return test;
}

static JsonObject *
test_to_json (DuelTestRecord *record,
              SeriesSplice   *splice,
              guint           test_index)
{
  JsonObject *test = test_header_to_json (record);
  JsonObject *totals;

  set_uint (test, "runtime_ns", record->runtime_ns);
  json_object_set_object_member (test, "series", series_to_placeholders (splice, record, record->series, test_index));

  totals = json_object_new ();
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      JsonObject *dir = json_object_new ();
      DuelHistogram empty;

      set_uint (dir, "ops", duel_test_record_get_ops (record, d));
      set_uint (dir, "bytes", duel_test_record_get_bytes (record, d));
      set_uint (dir, "runtime_ns", record->runtime_ns);
      duel_json_set_double_or_null (dir, "iops", duel_test_record_get_iops (record, d));
      duel_json_set_double_or_null (dir, "bw_bytes_per_sec", duel_test_record_get_bytes_per_second (record, d));
      if (record->latency[d] != NULL)
        json_object_set_object_member (dir, "lat_ns", histogram_to_json (splice, record->latency[d], test_index, d));
      else
        {
          duel_histogram_init (&empty);
          json_object_set_object_member (dir, "lat_ns", histogram_to_json (splice, &empty, test_index, d));
        }
      json_object_set_object_member (totals, _duel_result_direction_names[d], dir);
    }
  json_object_set_object_member (test, "totals", totals);

  if (record->summary != NULL)
    json_object_set_object_member (test, "summary", duel_json_object_copy_writable (record->summary));

  return test;
}

static JsonNode *
result_to_json (DuelResult   *self,
                SeriesSplice *splice)
{
  JsonObject *root, *tool, *target;
  JsonArray *tests;
  JsonNode *node;

  root = json_object_new ();
  json_object_set_string_member (root, "format", DUEL_RESULT_FORMAT);
  json_object_set_int_member (root, "version", DUEL_RESULT_VERSION);

  tool = json_object_new ();
  json_object_set_string_member (tool, "name", self->tool_name);
  json_object_set_string_member (tool, "version", self->tool_version);
  json_object_set_object_member (root, "tool", tool);

  set_date_or_null (root, "created", self->created);
  if (self->name != NULL)
    json_object_set_string_member (root, "name", self->name);
  json_object_set_boolean_member (root, "published", self->published);
  if (self->journal_id != NULL)
    json_object_set_string_member (root, "journal_id", self->journal_id);

  target = json_object_new ();
  json_object_set_string_member (target, "path", self->target.path ? self->target.path : "");
  json_object_set_string_member (target, "kind",
                                 self->target.kind == DUEL_TARGET_KIND_BLOCK ? "block" : "file");
  set_uint (target, "size_bytes", self->target.size_bytes);
  set_uint (target, "logical_block_size", self->target.logical_block_size);
  set_uint (target, "physical_block_size", self->target.physical_block_size);
  json_object_set_object_member (root, "target", target);

  if (self->device != NULL)
    json_object_set_object_member (root, "device", duel_json_object_copy_writable (self->device));
  if (self->rated != NULL)
    json_object_set_object_member (root, "rated", duel_json_object_copy_writable (self->rated));

  tests = json_array_sized_new (self->tests->len);
  for (guint i = 0; i < self->tests->len; i++)
    json_array_add_object_element (tests, test_to_json (g_ptr_array_index (self->tests, i), splice, i));
  json_object_set_array_member (root, "tests", tests);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, root);
  return node;
}

/* The text of the result file: the tree pretty-printed, with the series
 * columns spliced in. */
GString *
_duel_result_to_text (DuelResult *self)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new ();
  g_autoptr(GPtrArray) records = g_ptr_array_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  g_autofree char *data = NULL;
  g_autofree char *prefix = NULL;
  gsize length = 0;
  SeriesSplice splice = { 0, NULL, series, records };

  splice.nonce = ((guint64) g_random_int () << 32) | g_random_int ();
  splice.prefix = prefix = g_strdup_printf ("\"\\u0001duel-series-%016" G_GINT64_MODIFIER "x:", splice.nonce);
  root = result_to_json (self, &splice);
  generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);
  data = json_generator_to_data (generator, &length);
  g_clear_pointer (&root, json_node_unref);
  return splice_series (data, length, &splice);
}

/* The tree of exactly what duel_result_save() writes. */
JsonNode *
duel_result_to_json (DuelResult *self)
{
  g_autoptr(GString) text = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  text = _duel_result_to_text (self);
  node = json_from_string (text->str, &error);
  if (node == NULL)
    g_critical ("A result's own text does not parse: %s", error->message);
  return node;
}

gboolean
duel_result_save_in (DuelResult      *self,
                     DuelFolder      *folder,
                     const char      *name,
                     DuelWriteFlags   flags,
                     GError         **error)
{
  g_autoptr(DuelFileWriter) writer = NULL;
  g_autoptr(GString) text = NULL;

  g_return_val_if_fail (DUEL_IS_RESULT (self), FALSE);
  g_return_val_if_fail (folder != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* The rules first: a refusal costs no text. */
  writer = duel_file_writer_new_in (folder, name, flags, error);
  if (writer == NULL)
    return FALSE;
  text = _duel_result_to_text (self);
  /* A new file beside the name, synced, then in place at once: a crash
   * leaves the old file or the new one, never half of one. */
  return duel_file_writer_write (writer, text->str, text->len, error) &&
         duel_file_writer_commit (writer, error);
}

gboolean
duel_result_save (DuelResult  *self,
                  const char  *path,
                  GError     **error)
{
  g_autoptr(DuelFolder) folder = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (DUEL_IS_RESULT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  folder = duel_folder_open_for_file (path, &name, error);
  return folder != NULL &&
         duel_result_save_in (self, folder, name, DUEL_WRITE_REPLACE_RESULT | DUEL_WRITE_REPLACE_EMPTY, error);
}

/* ------------------------------------------------------------------------ */
/* For the checkpointer's journal (duel-result-private.h)                   */

JsonObject *
_duel_result_copy_json_object (JsonObject *object)
{
  g_return_val_if_fail (object != NULL, NULL);

  return duel_json_object_copy_writable (object);
}

JsonObject *
_duel_result_test_header_to_json (const DuelTestRecord *record)
{
  JsonObject *test;

  g_return_val_if_fail (record != NULL, NULL);

  test = test_header_to_json (record);
  if (record->summary != NULL)
    json_object_set_object_member (test, "summary", duel_json_object_copy_writable (record->summary));
  return test;
}
