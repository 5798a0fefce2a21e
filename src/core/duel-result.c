/* duel-result.c — the result file: building, saving atomically, loading with validation
 *
 * The loader treats its input as hostile (a fuzzer is pointed at it): every
 * node's type is checked before use, integers are range-checked, nothing is
 * allocated from a declared length, and the text is pre-scanned for what
 * json-glib 1.6 handles badly (deep nesting overflows its recursive parser,
 * integers beyond 64 bits wrap silently).
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
#include "duel-journal-private.h"
#include "duel-result-private.h"
#include "duel-result.h"
#include "duel-series-columns-private.h"
#include "duel-text.h"

#define TOOL_NAME "driveduel"

/* Deeper documents are refused before json-glib's recursive parser sees them. */
#define MAX_NESTING 256
/* A day of 100 ms rows is ~100 MB of JSON; far larger files are not results. */
#define MAX_FILE_SIZE (G_GUINT64_CONSTANT (2) << 30)

struct _DuelResult
{
  GObject         parent_instance;

  char           *name;
  char           *derived_name;    /* cache behind duel_result_get_name() */
  char           *tool_name;
  char           *tool_version;
  GDateTime      *created;
  gboolean        published;
  DuelTargetInfo  target;
  JsonObject     *device;
  JsonObject     *rated;
  char           *journal_id;      /* the journal that extends the file; NULL: none */
  GPtrArray      *tests;           /* DuelTestRecord */
};

G_DEFINE_FINAL_TYPE (DuelResult, duel_result, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_PUBLISHED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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

static const char * const direction_names[DUEL_N_DIRECTIONS] = { "read", "write" };

void
duel_target_info_clear (DuelTargetInfo *info)
{
  g_return_if_fail (info != NULL);

  g_clear_pointer (&info->path, g_free);
  info->kind = DUEL_TARGET_KIND_FILE;
  info->size_bytes = 0;
  info->logical_block_size = 0;
  info->physical_block_size = 0;
}

static void
duel_result_finalize (GObject *object)
{
  DuelResult *self = (DuelResult *) object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->derived_name, g_free);
  g_clear_pointer (&self->tool_name, g_free);
  g_clear_pointer (&self->tool_version, g_free);
  g_clear_pointer (&self->created, g_date_time_unref);
  duel_target_info_clear (&self->target);
  g_clear_pointer (&self->device, json_object_unref);
  g_clear_pointer (&self->rated, json_object_unref);
  g_clear_pointer (&self->journal_id, g_free);
  g_clear_pointer (&self->tests, g_ptr_array_unref);

  G_OBJECT_CLASS (duel_result_parent_class)->finalize (object);
}

static void
duel_result_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  DuelResult *self = DUEL_RESULT (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, duel_result_get_name (self));
      break;

    case PROP_PUBLISHED:
      g_value_set_boolean (value, self->published);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_result_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  DuelResult *self = DUEL_RESULT (object);

  switch (prop_id)
    {
    case PROP_NAME:
      duel_result_set_name (self, g_value_get_string (value));
      break;

    case PROP_PUBLISHED:
      duel_result_set_published (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_result_class_init (DuelResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = duel_result_finalize;
  object_class->get_property = duel_result_get_property;
  object_class->set_property = duel_result_set_property;

  /* Reads back the display name: the set one, else a derived one. */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_PUBLISHED] =
    g_param_spec_boolean ("published", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_result_init (DuelResult *self)
{
  self->tool_name = g_strdup (TOOL_NAME);
  self->tool_version = g_strdup (PACKAGE_VERSION);
  self->created = g_date_time_new_now_utc ();
  self->tests = g_ptr_array_new_with_free_func ((GDestroyNotify) duel_test_record_unref);
}

DuelResult *
duel_result_new (void)
{
  return g_object_new (DUEL_TYPE_RESULT, NULL);
}

/* ------------------------------------------------------------------------ */
/* Accessors                                                                */

const DuelTargetInfo *
duel_result_get_target (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return &self->target;
}

void
duel_result_set_target (DuelResult           *self,
                        const DuelTargetInfo *info)
{
  g_autofree char *path = NULL;

  g_return_if_fail (DUEL_IS_RESULT (self));
  g_return_if_fail (info != NULL);

  path = g_strdup (info->path);
  duel_target_info_clear (&self->target);
  self->target = *info;
  self->target.path = g_steal_pointer (&path);
  g_clear_pointer (&self->derived_name, g_free);
  if (self->name == NULL || self->name[0] == '\0')
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

void
duel_result_set_target_from (DuelResult *self,
                             DuelTarget *target)
{
  DuelTargetInfo info;

  g_return_if_fail (DUEL_IS_RESULT (self));
  g_return_if_fail (DUEL_IS_TARGET (target));

  info = (DuelTargetInfo) {
    .path = (char *) duel_target_get_path (target),
    .kind = duel_target_get_kind (target),
    .size_bytes = duel_target_get_size (target),
    .logical_block_size = duel_target_get_logical_block_size (target),
    .physical_block_size = duel_target_get_physical_block_size (target),
  };
  duel_result_set_target (self, &info);
}

const char *
duel_result_get_tool_name (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->tool_name;
}

const char *
duel_result_get_tool_version (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->tool_version;
}

void
duel_result_set_tool (DuelResult *self,
                      const char *name,
                      const char *version)
{
  g_return_if_fail (DUEL_IS_RESULT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (version != NULL);

  g_free (self->tool_name);
  self->tool_name = g_strdup (name);
  g_free (self->tool_version);
  self->tool_version = g_strdup (version);
}

GDateTime *
duel_result_get_created (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->created;
}

void
duel_result_set_created (DuelResult *self,
                         GDateTime  *created)
{
  g_return_if_fail (DUEL_IS_RESULT (self));
  g_return_if_fail (created != NULL);

  g_clear_pointer (&self->created, g_date_time_unref);
  self->created = g_date_time_to_utc (created);
}

static const char *
device_model (DuelResult *self)
{
  JsonNode *node;

  if (self->device == NULL)
    return NULL;
  node = json_object_get_member (self->device, "model");
  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

const char *
duel_result_get_name (DuelResult *self)
{
  const char *model;

  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  if (self->name != NULL && self->name[0] != '\0')
    return self->name;

  if (self->derived_name == NULL)
    {
      model = device_model (self);
      if (model != NULL)
        {
          /* NVMe model strings are space-padded. */
          self->derived_name = g_strstrip (g_strdup (model));
        }
      if ((self->derived_name == NULL || self->derived_name[0] == '\0') &&
          self->target.path != NULL && self->target.path[0] != '\0')
        {
          g_free (self->derived_name);
          self->derived_name = g_path_get_basename (self->target.path);
        }
      if (self->derived_name == NULL)
        self->derived_name = g_strdup ("");
    }

  return self->derived_name;
}

void
duel_result_set_name (DuelResult *self,
                      const char *name)
{
  g_return_if_fail (DUEL_IS_RESULT (self));

  if (g_strcmp0 (self->name, name) == 0)
    return;
  g_free (self->name);
  self->name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

JsonObject *
duel_result_get_device (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->device;
}

void
duel_result_set_device (DuelResult *self,
                        JsonObject *device)
{
  g_return_if_fail (DUEL_IS_RESULT (self));

  if (device == self->device)
    return;
  if (device != NULL)
    json_object_ref (device);
  g_clear_pointer (&self->device, json_object_unref);
  self->device = device;
  g_clear_pointer (&self->derived_name, g_free);
  if (self->name == NULL || self->name[0] == '\0')
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

JsonObject *
duel_result_get_rated (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->rated;
}

void
duel_result_set_rated (DuelResult *self,
                       JsonObject *rated)
{
  g_return_if_fail (DUEL_IS_RESULT (self));

  if (rated == self->rated)
    return;
  if (rated != NULL)
    json_object_ref (rated);
  g_clear_pointer (&self->rated, json_object_unref);
  self->rated = rated;
}

gboolean
duel_result_is_published (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), FALSE);

  return self->published;
}

void
duel_result_set_published (DuelResult *self,
                           gboolean    published)
{
  g_return_if_fail (DUEL_IS_RESULT (self));

  published = !!published;
  if (self->published == published)
    return;
  self->published = published;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PUBLISHED]);
}

const char *
duel_result_get_journal_id (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->journal_id;
}

void
duel_result_set_journal_id (DuelResult *self,
                            const char *journal_id)
{
  g_return_if_fail (DUEL_IS_RESULT (self));

  if (g_strcmp0 (self->journal_id, journal_id) == 0)
    return;
  g_free (self->journal_id);
  self->journal_id = g_strdup (journal_id);
}

GPtrArray *
duel_result_get_tests (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->tests;
}

void
duel_result_add_test (DuelResult     *self,
                      DuelTestRecord *record)
{
  g_return_if_fail (DUEL_IS_RESULT (self));
  g_return_if_fail (record != NULL);

  g_ptr_array_add (self->tests, duel_test_record_ref (record));
}

DuelTestRecord *
duel_result_find_test (DuelResult *self,
                       const char *name)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < self->tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (self->tests, i);

      if (g_strcmp0 (record->name, name) == 0)
        return record;
    }
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                  */

static void
set_uint (JsonObject *object,
          const char *name,
          guint64     value)
{
  /* JSON integers are int64 in json-glib; nothing we count gets near 2^63. */
  json_object_set_int_member (object, name, (gint64) MIN (value, (guint64) G_MAXINT64));
}

/* A double JSON can carry: the generator would print "nan", which no
 * parser reads back, so non-finite values become null. */
static void
set_double_or_null (JsonObject *object,
                    const char *name,
                    double      value)
{
  if (isfinite (value))
    json_object_set_double_member (object, name, value);
  else
    json_object_set_null_member (object, name);
}

/* A deep copy of free-form data (device, rated, details) with non-finite
 * numbers replaced by null, so the file always parses. */
static JsonNode *
copy_sanitized (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *from = json_node_get_object (node);
        JsonObject *to = json_object_new ();
        JsonNode *copy = json_node_new (JSON_NODE_OBJECT);
        JsonObjectIter iter;
        const char *member;
        JsonNode *value;

        json_object_iter_init_ordered (&iter, from);
        while (json_object_iter_next_ordered (&iter, &member, &value))
          json_object_set_member (to, member, copy_sanitized (value));
        json_node_take_object (copy, to);
        return copy;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *from = json_node_get_array (node);
        guint n = json_array_get_length (from);
        JsonArray *to = json_array_sized_new (n);
        JsonNode *copy = json_node_new (JSON_NODE_ARRAY);

        for (guint i = 0; i < n; i++)
          json_array_add_element (to, copy_sanitized (json_array_get_element (from, i)));
        json_node_take_array (copy, to);
        return copy;
      }

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_DOUBLE &&
          !isfinite (json_node_get_double (node)))
        return json_node_new (JSON_NODE_NULL);
      return json_node_copy (node);

    case JSON_NODE_NULL:
    default:
      return json_node_new (JSON_NODE_NULL);
    }
}

static JsonObject *
copy_sanitized_object (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) copy = NULL;

  json_node_set_object (node, object);
  copy = copy_sanitized (node);
  return json_node_dup_object (copy);
}

static JsonObject *
histogram_to_json (const DuelHistogram *hist)
{
  JsonObject *lat = json_object_new ();
  JsonObject *percentiles = json_object_new ();
  JsonArray *bins = json_array_new ();

  set_uint (lat, "samples", hist->count);
  set_uint (lat, "min", hist->count ? hist->min_ns : 0);
  set_uint (lat, "max", hist->count ? hist->max_ns : 0);
  set_double_or_null (lat, "mean", duel_histogram_mean_ns (hist));
  set_double_or_null (lat, "stddev", duel_histogram_stddev_ns (hist));
  set_uint (lat, "sum", hist->sum_ns);
  set_double_or_null (lat, "sum_sq", hist->sum_sq_ns);

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

  for (guint i = 0; i < DUEL_HISTOGRAM_N_BUCKETS; i++)
    {
      JsonArray *bin;

      if (hist->buckets[i] == 0)
        continue;
      bin = json_array_sized_new (2);
      json_array_add_int_element (bin, (gint64) duel_histogram_bucket_lower_ns (i));
      json_array_add_int_element (bin, (gint64) MIN (hist->buckets[i], (guint64) G_MAXINT64));
      json_array_add_array_element (bins, bin);
    }
  json_object_set_array_member (lat, "bins", bins);

  return lat;
}

/* The series' columns, as the file names them. */
typedef enum
{
  COLUMN_T_MS,
  COLUMN_READ_OPS,
  COLUMN_WRITE_OPS,
  COLUMN_READ_BYTES,
  COLUMN_WRITE_BYTES,
  COLUMN_READ_LAT_MAX,
  COLUMN_WRITE_LAT_MAX,
  N_INT_COLUMNS
} Column;

/* The temperature column, a double or null, follows the integer ones. */
#define COLUMN_TEMPERATURE N_INT_COLUMNS
#define N_COLUMNS (N_INT_COLUMNS + 1)

static const char * const column_names[N_COLUMNS] = {
  "t_ms", "read_ops", "write_ops", "read_bytes", "write_bytes",
  "read_lat_max_ns", "write_lat_max_ns", "temperature_c",
};

static guint64 *
row_field (DuelSeriesRow *row,
           Column         column)
{
  switch (column)
    {
    case COLUMN_T_MS:          return &row->t_ms;
    case COLUMN_READ_OPS:      return &row->ops[DUEL_DIRECTION_READ];
    case COLUMN_WRITE_OPS:     return &row->ops[DUEL_DIRECTION_WRITE];
    case COLUMN_READ_BYTES:    return &row->bytes[DUEL_DIRECTION_READ];
    case COLUMN_WRITE_BYTES:   return &row->bytes[DUEL_DIRECTION_WRITE];
    case COLUMN_READ_LAT_MAX:  return &row->lat_max_ns[DUEL_DIRECTION_READ];
    case COLUMN_WRITE_LAT_MAX: return &row->lat_max_ns[DUEL_DIRECTION_WRITE];
    case N_INT_COLUMNS:
    default:
      g_assert_not_reached ();
    }
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
} SeriesSplice;

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
series_to_placeholders (SeriesSplice     *splice,
                        const DuelSeries *series,
                        guint             test_index)
{
  JsonObject *object = json_object_new ();
  guint n_columns = series_has_temperature (series) ? N_COLUMNS : N_INT_COLUMNS;

  g_ptr_array_add (splice->series, (gpointer) series);
  set_uint (object, "rows", duel_series_get_length (series));
  for (guint c = 0; c < n_columns; c++)
    {
      g_autofree char *placeholder = g_strdup_printf ("\001duel-series-%016" G_GINT64_MODIFIER "x:%u:%u",
                                                      splice->nonce, test_index, c);
      json_object_set_string_member (object, column_names[c], placeholder);
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
                                MIN (*row_field (&row, (Column) column), (guint64) G_MAXINT64));
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
      g_assert (*after == '"' && test_index < splice->series->len && column < N_COLUMNS);
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

  workload = duel_workload_to_json (&record->workload);
  params = json_node_dup_object (workload);
  json_node_unref (workload);
  set_uint (params, "span_offset", record->span_offset);
  set_uint (params, "span_bytes", record->span_length);
  set_uint (params, "byte_limit", record->byte_limit);
  json_object_set_boolean_member (params, "trimmed", record->trimmed);
  json_object_set_object_member (test, "params", params);

  set_uint (test, "interval_ms", record->workload.interval_ms);
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
  json_object_set_object_member (test, "series", series_to_placeholders (splice, record->series, test_index));

  totals = json_object_new ();
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      JsonObject *dir = json_object_new ();
      DuelHistogram empty;

      set_uint (dir, "ops", duel_test_record_get_ops (record, d));
      set_uint (dir, "bytes", duel_test_record_get_bytes (record, d));
      set_uint (dir, "runtime_ns", record->runtime_ns);
      set_double_or_null (dir, "iops", duel_test_record_get_iops (record, d));
      set_double_or_null (dir, "bw_bytes_per_sec", duel_test_record_get_bytes_per_second (record, d));
      if (record->latency[d] != NULL)
        json_object_set_object_member (dir, "lat_ns", histogram_to_json (record->latency[d]));
      else
        {
          duel_histogram_init (&empty);
          json_object_set_object_member (dir, "lat_ns", histogram_to_json (&empty));
        }
      json_object_set_object_member (totals, direction_names[d], dir);
    }
  json_object_set_object_member (test, "totals", totals);

  if (record->summary != NULL)
    json_object_set_object_member (test, "summary", copy_sanitized_object (record->summary));

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
    json_object_set_object_member (root, "device", copy_sanitized_object (self->device));
  if (self->rated != NULL)
    json_object_set_object_member (root, "rated", copy_sanitized_object (self->rated));

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
static GString *
result_to_text (DuelResult *self)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  g_autofree char *data = NULL;
  g_autofree char *prefix = NULL;
  gsize length = 0;
  SeriesSplice splice = { 0, NULL, series };

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

  text = result_to_text (self);
  node = json_from_string (text->str, &error);
  if (node == NULL)
    g_critical ("A result's own text does not parse: %s", error->message);
  return node;
}

/* Where a save to @path writes: @path itself, or the file a symlink at
 * @path points to (the link is followed, not replaced). The save renames a
 * new file over it, so it must never be a device node such as /dev/null or
 * a folder: NULL and an error then. */
char *
duel_result_save_path (const char  *path,
                       GError     **error)
{
  g_autofree char *resolved = NULL;
  GStatBuf st;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_lstat (path, &st) != 0)
    return g_strdup (path);
  if (S_ISLNK (st.st_mode))
    {
      resolved = realpath (path, NULL);
      if (resolved == NULL || g_stat (resolved, &st) != 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       _("%s: the link cannot be followed: %s"), path, g_strerror (saved_errno));
          return NULL;
        }
      path = resolved;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("%s is not a regular file; a result can only be saved to a file."), path);
      return NULL;
    }
  return g_strdup (path);
}

gboolean
duel_result_save (DuelResult  *self,
                  const char  *path,
                  GError     **error)
{
  g_autoptr(GString) text = NULL;
  g_autofree char *target = NULL;

  g_return_val_if_fail (DUEL_IS_RESULT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  target = duel_result_save_path (path, error);
  if (target == NULL)
    return FALSE;

  text = result_to_text (self);

  /* A temporary file beside the target, fsync, rename: a crash leaves the
   * old file or the new one, never half of one. */
  return g_file_set_contents_full (target, text->str, (gssize) text->len,
                                   G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                   0666, error);
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                  */

typedef struct
{
  const char        *source;
  GError           **error;
  DuelSeriesColumns *columns;   /* the series columns taken from the text, or NULL */
} Loader;

static gboolean fail (Loader     *loader,
                      const char *format,
                      ...) G_GNUC_PRINTF (2, 3);

/* Always returns FALSE, so callers can `return fail (...)`. */
static gboolean
fail (Loader     *loader,
      const char *format,
      ...)
{
  g_autofree char *message = NULL;
  g_autofree char *line = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Names and excerpts from the file: one line, no terminal controls. */
  line = duel_text_escape (message);

  if (loader->source != NULL)
    g_set_error (loader->error, DUEL_ERROR, DUEL_ERROR_FORMAT, "%s: %s", loader->source, line);
  else
    g_set_error_literal (loader->error, DUEL_ERROR, DUEL_ERROR_FORMAT, line);
  return FALSE;
}

static char *
field_name (const char *prefix,
            const char *name)
{
  if (prefix == NULL || prefix[0] == '\0')
    return g_strdup (name);
  return g_strconcat (prefix, ".", name, NULL);
}

static const char *
describe_node (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT: return _("an object");
    case JSON_NODE_ARRAY:  return _("an array");
    case JSON_NODE_NULL:   return _("null");
    case JSON_NODE_VALUE:
    default:
      break;
    }
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:  return _("a string");
    case G_TYPE_BOOLEAN: return _("true or false");
    case G_TYPE_INT64:   return _("an integer");
    case G_TYPE_DOUBLE:  return _("a number with a fraction");
    default:             return _("an unknown value");
    }
}

static gboolean
wrong_type (Loader     *loader,
            const char *field,
            const char *expected,
            JsonNode   *node)
{
  return fail (loader, _("%s should be %s, not %s."), field, expected, describe_node (node));
}

static gboolean
is_integer (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64;
}

static gboolean
is_number (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) &&
         (json_node_get_value_type (node) == G_TYPE_INT64 ||
          json_node_get_value_type (node) == G_TYPE_DOUBLE);
}

/* An integer in 0..max; @field names it in errors. */
static gboolean
check_uint_node (Loader     *loader,
                 JsonNode   *node,
                 const char *field,
                 guint64     max,
                 guint64    *out)
{
  gint64 value;

  if (!is_integer (node))
    return wrong_type (loader, field, _("an integer"), node);
  value = json_node_get_int (node);
  if (value < 0)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, value);
      return fail (loader, _("%s is %s, but it cannot be negative."), field, text);
    }
  if ((guint64) value > max)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, value);
      g_autofree char *limit = g_strdup_printf ("%" G_GUINT64_FORMAT, max);
      return fail (loader, _("%s is %s, more than the largest allowed value %s."), field, text, limit);
    }
  *out = (guint64) value;
  return TRUE;
}

/* Returns the member, or NULL after setting an error if it is required and
 * missing. An absent optional member returns NULL without an error. JSON
 * null counts as absent for optional members. */
static JsonNode *
get_member (Loader     *loader,
            JsonObject *object,
            const char *prefix,
            const char *name,
            gboolean    required,
            gboolean   *failed)
{
  JsonNode *node = json_object_get_member (object, name);

  *failed = FALSE;
  if (node != NULL && !required && JSON_NODE_HOLDS_NULL (node))
    node = NULL;
  if (node == NULL && required)
    {
      g_autofree char *field = field_name (prefix, name);
      *failed = TRUE;
      fail (loader, _("%s is missing."), field);
    }
  return node;
}

static gboolean
get_uint (Loader     *loader,
          JsonObject *object,
          const char *prefix,
          const char *name,
          gboolean    required,
          guint64     max,
          guint64    *out)
{
  g_autofree char *field = NULL;
  gboolean failed;
  JsonNode *node = get_member (loader, object, prefix, name, required, &failed);

  if (node == NULL)
    return !failed;
  field = field_name (prefix, name);
  return check_uint_node (loader, node, field, max, out);
}

static gboolean
get_double (Loader     *loader,
            JsonObject *object,
            const char *prefix,
            const char *name,
            gboolean    required,
            double     *out)
{
  g_autofree char *field = NULL;
  gboolean failed;
  JsonNode *node = get_member (loader, object, prefix, name, required, &failed);
  double value;

  if (node == NULL)
    return !failed;
  field = field_name (prefix, name);
  if (!is_number (node))
    return wrong_type (loader, field, _("a number"), node);
  value = json_node_get_double (node);
  if (!isfinite (value))
    return fail (loader, _("%s is not a finite number."), field);
  *out = value;
  return TRUE;
}

static gboolean
get_string (Loader      *loader,
            JsonObject  *object,
            const char  *prefix,
            const char  *name,
            gboolean     required,
            const char **out)
{
  g_autofree char *field = NULL;
  gboolean failed;
  JsonNode *node = get_member (loader, object, prefix, name, required, &failed);

  if (node == NULL)
    return !failed;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      field = field_name (prefix, name);
      return wrong_type (loader, field, _("a string"), node);
    }
  /* json-glib lets "\ud800" escapes through as invalid UTF-8. */
  if (!g_utf8_validate (json_node_get_string (node), -1, NULL))
    {
      field = field_name (prefix, name);
      return fail (loader, _("%s is not valid UTF-8 text."), field);
    }
  *out = json_node_get_string (node);
  return TRUE;
}

static gboolean
get_bool (Loader     *loader,
          JsonObject *object,
          const char *prefix,
          const char *name,
          gboolean    required,
          gboolean   *out)
{
  g_autofree char *field = NULL;
  gboolean failed;
  JsonNode *node = get_member (loader, object, prefix, name, required, &failed);

  if (node == NULL)
    return !failed;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      field = field_name (prefix, name);
      return wrong_type (loader, field, _("true or false"), node);
    }
  *out = json_node_get_boolean (node);
  return TRUE;
}

static gboolean
get_object (Loader      *loader,
            JsonObject  *object,
            const char  *prefix,
            const char  *name,
            gboolean     required,
            JsonObject **out)
{
  g_autofree char *field = NULL;
  gboolean failed;
  JsonNode *node = get_member (loader, object, prefix, name, required, &failed);

  if (node == NULL)
    return !failed;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      field = field_name (prefix, name);
      return wrong_type (loader, field, _("an object"), node);
    }
  *out = json_node_get_object (node);
  return TRUE;
}

static gboolean
get_array (Loader      *loader,
           JsonObject  *object,
           const char  *prefix,
           const char  *name,
           gboolean     required,
           JsonArray  **out)
{
  g_autofree char *field = NULL;
  gboolean failed;
  JsonNode *node = get_member (loader, object, prefix, name, required, &failed);

  if (node == NULL)
    return !failed;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      field = field_name (prefix, name);
      return wrong_type (loader, field, _("an array"), node);
    }
  *out = json_node_get_array (node);
  return TRUE;
}

/* ISO 8601; a missing zone means UTC. Returned in UTC. */
static gboolean
get_date (Loader      *loader,
          JsonObject  *object,
          const char  *prefix,
          const char  *name,
          gboolean     required,
          GDateTime  **out)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) date = NULL;
  const char *text = NULL;

  if (!get_string (loader, object, prefix, name, required, &text))
    return FALSE;
  if (text == NULL)
    return TRUE;
  date = g_date_time_new_from_iso8601 (text, utc);
  if (date == NULL)
    {
      g_autofree char *field = field_name (prefix, name);
      return fail (loader, _("%s (“%s”) is not an ISO 8601 date and time."), field, text);
    }
  *out = g_date_time_to_utc (date);
  return TRUE;
}

static gboolean
load_target (Loader         *loader,
             JsonObject     *object,
             DuelTargetInfo *info)
{
  const char *path = NULL, *kind = NULL;
  guint64 size = 0, logical = 0, physical = 0;

  if (!get_string (loader, object, "target", "path", TRUE, &path) ||
      !get_string (loader, object, "target", "kind", TRUE, &kind) ||
      !get_uint (loader, object, "target", "size_bytes", TRUE, G_MAXINT64, &size) ||
      !get_uint (loader, object, "target", "logical_block_size", TRUE, G_MAXUINT32, &logical) ||
      !get_uint (loader, object, "target", "physical_block_size", TRUE, G_MAXUINT32, &physical))
    return FALSE;

  if (g_strcmp0 (kind, "file") == 0)
    info->kind = DUEL_TARGET_KIND_FILE;
  else if (g_strcmp0 (kind, "block") == 0)
    info->kind = DUEL_TARGET_KIND_BLOCK;
  else
    return fail (loader, _("target.kind is “%s”; it should be “file” or “block”."), kind);

  /* 0 means unknown (a published reference); otherwise a power of two. */
  if (logical != 0 && (logical & (logical - 1)) != 0)
    return fail (loader, _("target.logical_block_size (%u bytes) is not a power of two."), (guint) logical);
  if (physical != 0 && (physical & (physical - 1)) != 0)
    return fail (loader, _("target.physical_block_size (%u bytes) is not a power of two."), (guint) physical);

  info->path = g_strdup (path);
  info->size_bytes = size;
  info->logical_block_size = (guint32) logical;
  info->physical_block_size = (guint32) physical;
  return TRUE;
}

static gboolean check_histogram_totals (Loader        *loader,
                                        const char    *prefix,
                                        DuelHistogram *hist,
                                        guint64        samples,
                                        guint64        total,
                                        int            first,
                                        int            last,
                                        guint64        min,
                                        guint64        max,
                                        guint64        sum,
                                        double         sum_sq);

/* Histograms come back bucket for bucket; min, max and sums from the stored
 * fields, so statistics are exactly those of the run. */
static gboolean
load_histogram (Loader        *loader,
                JsonObject    *lat,
                const char    *prefix,
                DuelHistogram *hist)
{
  JsonArray *bins = NULL;
  JsonObject *percentiles = NULL;
  guint64 samples = 0, min = 0, max = 0, sum = 0, total = 0;
  double sum_sq = 0, ignored;
  guint n_bins;
  int first = -1, last = -1, previous = -1;

  duel_histogram_init (hist);

  if (!get_uint (loader, lat, prefix, "samples", TRUE, G_MAXINT64, &samples) ||
      !get_uint (loader, lat, prefix, "min", TRUE, G_MAXINT64, &min) ||
      !get_uint (loader, lat, prefix, "max", TRUE, G_MAXINT64, &max) ||
      !get_uint (loader, lat, prefix, "sum", TRUE, G_MAXINT64, &sum) ||
      !get_double (loader, lat, prefix, "sum_sq", TRUE, &sum_sq) ||
      !get_array (loader, lat, prefix, "bins", TRUE, &bins) ||
      /* Informational: recomputed from the bins, but typed. */
      !get_double (loader, lat, prefix, "mean", FALSE, &ignored) ||
      !get_double (loader, lat, prefix, "stddev", FALSE, &ignored) ||
      !get_object (loader, lat, prefix, "percentiles", FALSE, &percentiles))
    return FALSE;

  if (percentiles != NULL)
    {
      JsonObjectIter iter;
      const char *key;
      JsonNode *value;

      json_object_iter_init (&iter, percentiles);
      while (json_object_iter_next (&iter, &key, &value))
        {
          if (!is_number (value))
            {
              g_autofree char *field = g_strdup_printf ("%s.percentiles.%s", prefix, key);
              return wrong_type (loader, field, _("a number"), value);
            }
        }
    }

  n_bins = json_array_get_length (bins);
  for (guint i = 0; i < n_bins; i++)
    {
      JsonNode *node = json_array_get_element (bins, i);
      g_autofree char *field = g_strdup_printf ("%s.bins[%u]", prefix, i);
      JsonArray *pair;
      guint64 lower, count;
      guint index;

      if (!JSON_NODE_HOLDS_ARRAY (node))
        return wrong_type (loader, field, _("a [lower_ns, count] pair"), node);
      pair = json_node_get_array (node);
      if (json_array_get_length (pair) != 2)
        return fail (loader, _("%s has %u values; a bin is a [lower_ns, count] pair."),
                     field, json_array_get_length (pair));
      if (!check_uint_node (loader, json_array_get_element (pair, 0), field, G_MAXINT64, &lower) ||
          !check_uint_node (loader, json_array_get_element (pair, 1), field, G_MAXINT64, &count))
        return FALSE;

      index = duel_histogram_bucket_index (lower);
      if (lower > duel_histogram_bucket_lower_ns (DUEL_HISTOGRAM_N_BUCKETS - 1))
        {
          g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, lower);
          return fail (loader, _("%s starts at %s ns, beyond the histogram’s range."), field, text);
        }
      if (duel_histogram_bucket_lower_ns (index) != lower)
        {
          g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, lower);
          return fail (loader, _("%s starts at %s ns, which is not a bucket boundary."), field, text);
        }
      if ((int) index <= previous)
        return fail (loader, _("%s is out of order: bins must be sorted by latency, each once."), field);
      previous = (int) index;
      if (count == 0)
        continue;
      if (total + count < total || total + count > G_MAXINT64)
        return fail (loader, _("%s makes the sample count overflow."), field);

      hist->buckets[index] = count;
      total += count;
      if (first < 0)
        first = (int) index;
      last = (int) index;
    }

  return check_histogram_totals (loader, prefix, hist, samples, total, first, last, min, max, sum, sum_sq);
}

/* What a histogram's totals must say of its bins: @total, @first and @last
 * come from the bins in @hist; the totals are stored in it when they fit. */
static gboolean
check_histogram_totals (Loader        *loader,
                        const char    *prefix,
                        DuelHistogram *hist,
                        guint64        samples,
                        guint64        total,
                        int            first,
                        int            last,
                        guint64        min,
                        guint64        max,
                        guint64        sum,
                        double         sum_sq)
{
  if (total != samples)
    {
      g_autofree char *a = g_strdup_printf ("%" G_GUINT64_FORMAT, samples);
      g_autofree char *b = g_strdup_printf ("%" G_GUINT64_FORMAT, total);
      return fail (loader, _("%s.samples is %s but the bins add up to %s."), prefix, a, b);
    }

  if (total > 0)
    {
      guint64 low;

      if (min > max)
        return fail (loader, _("%s.min is larger than %s.max."), prefix, prefix);
      if (duel_histogram_bucket_index (min) != (guint) first)
        return fail (loader, _("%s.min is not in the first non-empty bin."), prefix);
      if (duel_histogram_bucket_index (max) != (guint) last)
        return fail (loader, _("%s.max is not in the last non-empty bin."), prefix);
      /* min·n <= sum <= max·n; an overflowing bound is no bound. */
      if (__builtin_mul_overflow (min, total, &low) || sum < low)
        return fail (loader, _("%s.sum is smaller than %s.min times the sample count."), prefix, prefix);
      if (!__builtin_mul_overflow (max, total, &low) && sum > low)
        return fail (loader, _("%s.sum is larger than %s.max times the sample count."), prefix, prefix);
      if (sum_sq < 0)
        return fail (loader, _("%s.sum_sq cannot be negative."), prefix);
    }
  else if (min != 0 || max != 0 || sum != 0 || sum_sq != 0)
    return fail (loader, _("%s has no samples but a non-zero min, max or sum."), prefix);

  hist->count = total;
  hist->min_ns = min;
  hist->max_ns = max;
  hist->sum_ns = sum;
  hist->sum_sq_ns = sum_sq;
  return TRUE;
}

/* One column of tests[@test].series: taken from the text (@values) or in
 * the tree (@array), where a taken column is null. */
typedef struct
{
  const guint64 *values;
  const double  *doubles;
  JsonArray     *array;
  gsize          n;
} SeriesColumn;

static gboolean
get_series_column (Loader       *loader,
                   JsonObject   *object,
                   const char   *prefix,
                   guint         test,
                   guint         column,
                   gboolean      required,
                   SeriesColumn *out)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, column_names[column]) : NULL;

  memset (out, 0, sizeof *out);
  if (node != NULL && JSON_NODE_HOLDS_NULL (node))
    {
      if (column == COLUMN_TEMPERATURE)
        out->doubles = _duel_series_columns_get_double (loader->columns, test, column, &out->n);
      else
        out->values = _duel_series_columns_get_uint (loader->columns, test, column, &out->n);
      if (out->values != NULL || out->doubles != NULL)
        return TRUE;
    }
  if (!get_array (loader, object, prefix, column_names[column], required, &out->array))
    return FALSE;
  out->n = out->array != NULL ? json_array_get_length (out->array) : 0;
  return TRUE;
}

static gboolean
load_series (Loader     *loader,
             JsonObject *object,
             const char *prefix,
             guint       test,
             DuelSeries *series)
{
  SeriesColumn columns[N_INT_COLUMNS];
  SeriesColumn temperature;
  guint64 declared = 0;
  gboolean has_declared;
  guint n;
  guint64 sum_ops[DUEL_N_DIRECTIONS] = { 0, }, sum_bytes[DUEL_N_DIRECTIONS] = { 0, };

  for (guint c = 0; c < N_INT_COLUMNS; c++)
    if (!get_series_column (loader, object, prefix, test, c, TRUE, &columns[c]))
      return FALSE;
  if (!get_series_column (loader, object, prefix, test, COLUMN_TEMPERATURE, FALSE, &temperature))
    return FALSE;

  if (columns[COLUMN_T_MS].n > G_MAXUINT)
    return fail (loader, _("%s has more rows than a result can hold."), prefix);
  n = (guint) columns[COLUMN_T_MS].n;
  has_declared = json_object_get_member (object, "rows") != NULL;
  if (has_declared && !get_uint (loader, object, prefix, "rows", TRUE, G_MAXINT64, &declared))
    return FALSE;
  /* The declared count is only compared, never used to allocate. */
  if (has_declared && declared != n)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, declared);
      return fail (loader, _("%s declares %s rows but t_ms has %u values."), prefix, text, n);
    }
  for (guint c = 1; c < N_INT_COLUMNS; c++)
    if (columns[c].n != n)
      return fail (loader, _("%s.%s has %u values but t_ms has %u."),
                   prefix, column_names[c], (guint) MIN (columns[c].n, G_MAXUINT), n);
  if ((temperature.array != NULL || temperature.doubles != NULL) && temperature.n != n)
    return fail (loader, _("%s.%s has %u values but t_ms has %u."),
                 prefix, "temperature_c", (guint) MIN (temperature.n, G_MAXUINT), n);

  /* Columns in the tree: every value an integer 0 to 2^63-1, column by
   * column (taken columns hold nothing else). */
  for (guint c = 0; c < N_INT_COLUMNS; c++)
    for (guint i = 0; columns[c].array != NULL && i < n; i++)
      {
        JsonNode *node = json_array_get_element (columns[c].array, i);

        if (G_UNLIKELY (!is_integer (node) || json_node_get_int (node) < 0))
          {
            g_autofree char *where = g_strdup_printf ("%s.%s[%u]", prefix, column_names[c], i);
            guint64 ignored;

            return check_uint_node (loader, node, where, G_MAXINT64, &ignored);
          }
      }

  duel_series_reserve (series, n);
  for (guint i = 0; i < n; i++)
    {
      DuelSeriesRow row;

      for (guint c = 0; c < N_INT_COLUMNS; c++)
        *row_field (&row, (Column) c) = columns[c].values != NULL
          ? columns[c].values[i] : (guint64) json_node_get_int (json_array_get_element (columns[c].array, i));

      if (i > 0 && row.t_ms <= duel_series_get_row (series, i - 1)->t_ms)
        return fail (loader, _("%s.t_ms[%u] does not come after t_ms[%u]: times must increase."),
                     prefix, i, i - 1);
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          guint64 max_bytes;

          /* No I/O moves more than the largest block: catches swapped or
           * mis-scaled columns. */
          if (__builtin_mul_overflow (row.ops[d], (guint64) DUEL_WORKLOAD_MAX_BLOCK_SIZE, &max_bytes))
            max_bytes = G_MAXUINT64;
          if (row.bytes[d] > max_bytes)
            return fail (loader, _("%s.%s[%u] is more than 64 MiB per operation in %s."),
                         prefix, column_names[d == DUEL_DIRECTION_READ ? COLUMN_READ_BYTES : COLUMN_WRITE_BYTES],
                         i, column_names[d == DUEL_DIRECTION_READ ? COLUMN_READ_OPS : COLUMN_WRITE_OPS]);
          if (__builtin_add_overflow (sum_ops[d], row.ops[d], &sum_ops[d]) ||
              __builtin_add_overflow (sum_bytes[d], row.bytes[d], &sum_bytes[d]))
            return fail (loader, _("%s adds up to more than 2^64 operations or bytes."), prefix);
        }

      row.temperature_c = NAN;
      if (temperature.doubles != NULL)
        row.temperature_c = temperature.doubles[i];
      else if (temperature.array != NULL)
        {
          JsonNode *node = json_array_get_element (temperature.array, i);

          if (!JSON_NODE_HOLDS_NULL (node))
            {
              if (!is_number (node))
                {
                  g_autofree char *where = g_strdup_printf ("%s.temperature_c[%u]", prefix, i);
                  return wrong_type (loader, where, _("a number or null"), node);
                }
              row.temperature_c = json_node_get_double (node);
            }
        }
      /* JSON has no NaN: a taken column's NaN is a null. */
      if (!isnan (row.temperature_c) && (!isfinite (row.temperature_c) ||
                                         row.temperature_c < -273.15 || row.temperature_c > 1000))
        {
          g_autofree char *where = g_strdup_printf ("%s.temperature_c[%u]", prefix, i);
          return fail (loader, _("%s is not a plausible temperature in °C."), where);
        }
      duel_series_append (series, &row);
    }
  _duel_series_columns_release (loader->columns, test);
  return TRUE;
}

static gboolean
load_summary (Loader     *loader,
              JsonObject *summary,
              const char *prefix)
{
  JsonArray *figures = NULL;
  JsonObject *details = NULL;
  guint n;

  if (!get_array (loader, summary, prefix, "figures", FALSE, &figures) ||
      !get_object (loader, summary, prefix, "details", FALSE, &details))
    return FALSE;
  if (figures == NULL)
    return TRUE;

  n = json_array_get_length (figures);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (figures, i);
      g_autofree char *where = g_strdup_printf ("%s.figures[%u]", prefix, i);
      JsonObject *figure;
      const char *key = NULL, *unit = NULL, *better = NULL;
      JsonNode *value;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return wrong_type (loader, where, _("an object"), node);
      figure = json_node_get_object (node);
      if (!get_string (loader, figure, where, "key", TRUE, &key) ||
          !get_string (loader, figure, where, "unit", TRUE, &unit) ||
          !get_string (loader, figure, where, "better", TRUE, &better))
        return FALSE;
      if (g_strcmp0 (better, "higher") != 0 && g_strcmp0 (better, "lower") != 0 &&
          g_strcmp0 (better, "none") != 0)
        return fail (loader, _("%s.better is “%s”; it should be “higher”, “lower” or “none”."), where, better);
      value = json_object_get_member (figure, "value");
      if (value == NULL)
        return fail (loader, _("%s.value is missing."), where);
      if (!JSON_NODE_HOLDS_NULL (value) && !is_number (value))
        return wrong_type (loader, where, _("a number or null"), value);
      if (!JSON_NODE_HOLDS_NULL (value) && !isfinite (json_node_get_double (value)))
        return fail (loader, _("%s.value is not a finite number."), where);
    }
  return TRUE;
}

/* What a test is (name, status, workload, span, start): a file's test with
 * @out_series non-NULL, where runtime, series and totals are required and
 * returned; a journal's "test" line with @out_series NULL, where they are
 * not looked at. The record's series and histograms are empty. */
static DuelTestRecord *
load_test_header (Loader                *loader,
                  JsonObject            *test,
                  guint                  index,
                  const DuelTargetInfo  *target,
                  guint64               *out_runtime_ns,
                  JsonObject           **out_series,
                  JsonObject           **out_totals,
                  JsonObject           **out_summary)
{
  g_autofree char *prefix = g_strdup_printf ("tests[%u]", index);
  g_autofree char *params_prefix = g_strdup_printf ("tests[%u].params", index);
  g_autoptr(DuelTestRecord) record = NULL;
  g_autoptr(GError) workload_error = NULL;
  JsonObject *params = NULL;
  const char *name = NULL, *preset = NULL, *status = NULL, *error_message = NULL;
  GDateTime *started = NULL;
  DuelWorkload workload;
  guint64 interval_ms = 0;
  guint64 span_offset = 0, span_bytes = 0, byte_limit = 0;
  gboolean trimmed = FALSE;
  gboolean full = out_series != NULL;
  DuelTestStatus test_status;

  if (!get_string (loader, test, prefix, "name", TRUE, &name) ||
      !get_string (loader, test, prefix, "preset", FALSE, &preset) ||
      !get_string (loader, test, prefix, "status", TRUE, &status) ||
      !get_string (loader, test, prefix, "error", FALSE, &error_message) ||
      !get_object (loader, test, prefix, "params", TRUE, &params) ||
      !get_uint (loader, test, prefix, "interval_ms", TRUE, G_MAXUINT32, &interval_ms) ||
      (full && !get_uint (loader, test, prefix, "runtime_ns", TRUE, G_MAXINT64, out_runtime_ns)) ||
      (full && !get_object (loader, test, prefix, "series", TRUE, out_series)) ||
      (full && !get_object (loader, test, prefix, "totals", TRUE, out_totals)) ||
      !get_object (loader, test, prefix, "summary", FALSE, out_summary))
    return NULL;

  if (name[0] == '\0')
    {
      fail (loader, _("%s.name is empty."), prefix);
      return NULL;
    }
  if (!duel_test_status_from_string (status, &test_status))
    {
      fail (loader, _("%s.status is “%s”; it should be pending, running, complete, cancelled or failed."),
            prefix, status);
      return NULL;
    }

  if (!duel_workload_from_json (params, &workload, &workload_error))
    {
      fail (loader, "%s: %s", params_prefix, workload_error->message);
      return NULL;
    }
  if (workload.block_size == 0 || workload.queue_depth == 0)
    {
      fail (loader, _("%s: the block size and the queue depth must be at least 1."), params_prefix);
      return NULL;
    }
  if (!get_uint (loader, params, params_prefix, "span_offset", TRUE, G_MAXINT64, &span_offset) ||
      !get_uint (loader, params, params_prefix, "span_bytes", TRUE, G_MAXINT64, &span_bytes) ||
      !get_uint (loader, params, params_prefix, "byte_limit", TRUE, G_MAXINT64, &byte_limit) ||
      !get_bool (loader, params, params_prefix, "trimmed", TRUE, &trimmed))
    return NULL;

  if (interval_ms < DUEL_WORKLOAD_MIN_INTERVAL_MS || interval_ms > DUEL_WORKLOAD_MAX_INTERVAL_MS)
    {
      fail (loader, _("%s.interval_ms is %u; it should be between %u and %u ms."),
            prefix, (guint) interval_ms, DUEL_WORKLOAD_MIN_INTERVAL_MS, DUEL_WORKLOAD_MAX_INTERVAL_MS);
      return NULL;
    }
  if (interval_ms != workload.interval_ms)
    {
      fail (loader, _("%s.interval_ms is %u but %s.interval_ms is %u."),
            prefix, (guint) interval_ms, params_prefix, workload.interval_ms);
      return NULL;
    }
  if (span_bytes > 0 && target->size_bytes > 0 &&
      (span_offset > target->size_bytes || span_bytes > target->size_bytes - span_offset))
    {
      fail (loader, _("%s: the span reaches past the end of the target."), params_prefix);
      return NULL;
    }

  record = duel_test_record_new (name, &workload);
  record->preset = g_strdup (preset);
  record->status = test_status;
  record->error_message = g_strdup (error_message);
  record->span_offset = span_offset;
  record->span_length = span_bytes;
  record->byte_limit = byte_limit;
  record->trimmed = trimmed;

  if (!get_date (loader, test, prefix, "started", FALSE, &started))
    return NULL;
  record->started = started;

  return g_steal_pointer (&record);
}

static gboolean
load_test_summary (Loader         *loader,
                   JsonObject     *summary,
                   guint           index,
                   DuelTestRecord *record)
{
  g_autofree char *summary_prefix = NULL;

  if (summary == NULL)
    return TRUE;
  summary_prefix = g_strdup_printf ("tests[%u].summary", index);
  if (!load_summary (loader, summary, summary_prefix))
    return FALSE;
  record->summary = copy_sanitized_object (summary);
  return TRUE;
}

static DuelTestRecord *
load_test (Loader               *loader,
           JsonNode             *node,
           guint                 index,
           const DuelTargetInfo *target)
{
  g_autofree char *prefix = g_strdup_printf ("tests[%u]", index);
  g_autofree char *series_prefix = g_strdup_printf ("tests[%u].series", index);
  g_autoptr(DuelTestRecord) record = NULL;
  JsonObject *series = NULL, *totals = NULL, *summary = NULL;
  guint64 runtime_ns = 0;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      wrong_type (loader, prefix, _("an object"), node);
      return NULL;
    }

  record = load_test_header (loader, json_node_get_object (node), index, target,
                             &runtime_ns, &series, &totals, &summary);
  if (record == NULL)
    return NULL;
  record->runtime_ns = runtime_ns;

  if (!load_series (loader, series, series_prefix, index, record->series))
    return NULL;

  /* Runs are timed in ms rows and ns totals: a complete run cannot have rows
   * far past its runtime (catches a column written in the wrong unit). */
  if (record->status == DUEL_TEST_STATUS_COMPLETE && runtime_ns > 0 &&
      duel_series_get_length (record->series) > 0)
    {
      guint n = duel_series_get_length (record->series);
      guint64 last_ms = duel_series_get_row (record->series, n - 1)->t_ms;

      if (last_ms > duel_test_record_latest_row_ms (record))
        {
          g_autofree char *end_text = g_strdup_printf ("%" G_GUINT64_FORMAT, last_ms);
          g_autofree char *runtime_text = g_strdup_printf ("%" G_GUINT64_FORMAT, runtime_ns / 1000000);

          fail (loader, _("%s.t_ms ends at %s ms, long after the runtime of %s ms; a column may be in the wrong unit."),
                series_prefix, end_text, runtime_text);
          return NULL;
        }
    }

  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      g_autofree char *dir_prefix = g_strdup_printf ("%s.totals.%s", prefix, direction_names[d]);
      g_autofree char *lat_prefix = g_strdup_printf ("%s.lat_ns", dir_prefix);
      g_autofree char *totals_prefix = g_strdup_printf ("%s.totals", prefix);
      JsonObject *dir = NULL, *lat = NULL;
      guint64 ops = 0, bytes = 0, dir_runtime = 0;
      double iops = 0, bw = 0;

      if (!get_object (loader, totals, totals_prefix, direction_names[d], TRUE, &dir) ||
          !get_uint (loader, dir, dir_prefix, "ops", TRUE, G_MAXINT64, &ops) ||
          !get_uint (loader, dir, dir_prefix, "bytes", TRUE, G_MAXINT64, &bytes) ||
          !get_uint (loader, dir, dir_prefix, "runtime_ns", TRUE, G_MAXINT64, &dir_runtime) ||
          !get_double (loader, dir, dir_prefix, "iops", TRUE, &iops) ||
          !get_double (loader, dir, dir_prefix, "bw_bytes_per_sec", TRUE, &bw) ||
          !get_object (loader, dir, dir_prefix, "lat_ns", FALSE, &lat))
        return NULL;

      /* Totals are derived from the series; they must say the same. */
      if (ops != duel_test_record_get_ops (record, d))
        {
          g_autofree char *a = g_strdup_printf ("%" G_GUINT64_FORMAT, ops);
          g_autofree char *b = g_strdup_printf ("%" G_GUINT64_FORMAT, duel_test_record_get_ops (record, d));
          fail (loader, _("%s.ops is %s but the series adds up to %s."), dir_prefix, a, b);
          return NULL;
        }
      if (bytes != duel_test_record_get_bytes (record, d))
        {
          g_autofree char *a = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
          g_autofree char *b = g_strdup_printf ("%" G_GUINT64_FORMAT, duel_test_record_get_bytes (record, d));
          fail (loader, _("%s.bytes is %s but the series adds up to %s."), dir_prefix, a, b);
          return NULL;
        }
      if (iops < 0 || bw < 0)
        {
          fail (loader, _("%s has a negative rate."), dir_prefix);
          return NULL;
        }

      if (lat != NULL && !load_histogram (loader, lat, lat_prefix, record->latency[d]))
        return NULL;
    }

  if (!load_test_summary (loader, summary, index, record))
    return NULL;

  return g_steal_pointer (&record);
}

static gboolean
load_root (DuelResult *self,
           Loader     *loader,
           JsonNode   *root)
{
  JsonObject *object, *tool = NULL, *target = NULL, *device = NULL, *rated = NULL;
  JsonArray *tests = NULL;
  JsonNode *node;
  const char *format = NULL, *tool_name = NULL, *tool_version = NULL, *name = NULL;
  const char *journal_id = NULL;
  GDateTime *created = NULL;
  gboolean published = FALSE;
  gint64 version;
  guint n;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return fail (loader, _("this is not a Drive Duel result: the file holds %s, not a JSON object."),
                 root ? describe_node (root) : _("nothing"));
  object = json_node_get_object (root);

  /* Identify the file first, so a foreign file gets one plain sentence. */
  node = json_object_get_member (object, "format");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return fail (loader, _("this is not a Drive Duel result: there is no “format” field."));
  format = json_node_get_string (node);
  if (g_strcmp0 (format, DUEL_RESULT_FORMAT) != 0)
    return fail (loader, _("this is not a Drive Duel result: its format is “%s”."), format);

  node = json_object_get_member (object, "version");
  if (node == NULL)
    return fail (loader, _("%s is missing."), "version");
  if (!is_integer (node))
    return wrong_type (loader, "version", _("an integer"), node);
  version = json_node_get_int (node);
  if (version > DUEL_RESULT_VERSION)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, version);
      return fail (loader, _("this file was written by a newer Drive Duel (format version %s); update Drive Duel to open it."),
                   text);
    }
  if (version < 1)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, version);
      return fail (loader, _("format version %s is not supported."), text);
    }

  if (!get_object (loader, object, "", "tool", TRUE, &tool) ||
      !get_string (loader, tool, "tool", "name", TRUE, &tool_name) ||
      !get_string (loader, tool, "tool", "version", TRUE, &tool_version) ||
      !get_date (loader, object, "", "created", TRUE, &created))
    return FALSE;
  self->created = created;
  g_free (self->tool_name);
  self->tool_name = g_strdup (tool_name);
  g_free (self->tool_version);
  self->tool_version = g_strdup (tool_version);

  if (!get_string (loader, object, "", "name", FALSE, &name) ||
      !get_bool (loader, object, "", "published", FALSE, &published) ||
      !get_object (loader, object, "", "target", TRUE, &target) ||
      !load_target (loader, target, &self->target) ||
      !get_object (loader, object, "", "device", FALSE, &device) ||
      !get_object (loader, object, "", "rated", FALSE, &rated) ||
      !get_array (loader, object, "", "tests", TRUE, &tests) ||
      !get_string (loader, object, "", "journal_id", FALSE, &journal_id))
    return FALSE;

  self->name = g_strdup (name);
  self->journal_id = g_strdup (journal_id);
  self->published = published;
  /* Copies without non-finite numbers (1e999 parses as infinity), so what
   * is in memory is exactly what saving writes. */
  if (device != NULL)
    self->device = copy_sanitized_object (device);
  if (rated != NULL)
    self->rated = copy_sanitized_object (rated);

  n = json_array_get_length (tests);
  if (n > DUEL_RESULT_MAX_TESTS)
    return fail (loader, _("tests has %u entries; at most %u are supported."), n, DUEL_RESULT_MAX_TESTS);
  for (guint i = 0; i < n; i++)
    {
      DuelTestRecord *record = load_test (loader, json_array_get_element (tests, i), i, &self->target);

      if (record == NULL)
        return FALSE;
      g_ptr_array_add (self->tests, record);
    }
  return TRUE;
}

DuelResult *
duel_result_new_from_json (JsonNode    *root,
                           const char  *source_name,
                           GError     **error)
{
  g_autoptr(DuelResult) self = NULL;
  Loader loader = { source_name ? source_name : _("result"), error };

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (DUEL_TYPE_RESULT, NULL);
  g_clear_pointer (&self->created, g_date_time_unref);
  if (!load_root (self, &loader, root))
    return NULL;
  return g_steal_pointer (&self);
}

/* Four hex digits at @at, or G_MAXUINT. */
static guint
hex4 (const char *data,
      gsize       length,
      gsize       at)
{
  guint value = 0;

  if (at + 4 > length)
    return G_MAXUINT;
  for (gsize k = at; k < at + 4; k++)
    {
      int digit = g_ascii_xdigit_value (data[k]);

      if (digit < 0)
        return G_MAXUINT;
      value = value * 16 + (guint) digit;
    }
  return value;
}

/* What json-glib 1.6 gets wrong on hostile input, checked on the raw text:
 * nesting deep enough to overflow its recursive descent, and integers
 * outside int64, which it wraps around without an error. */
gboolean
duel_json_prescan (const char  *data,
                   gsize        length,
                   const char **out_problem)
{
  guint depth = 0;
  guint top_level_values = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\' && i + 1 < length && data[i + 1] == 'u')
            {
              guint unit = hex4 (data, length, i + 2);

              /* JSON wants four hex digits; json-glib 1.6 reads a shorter
               * escape as another code unit (swallowing the character
               * after it) and leaks the string when that unit is a
               * surrogate without its pair. */
              if (unit == G_MAXUINT)
                goto bad_escape;
              /* A lone surrogate becomes invalid UTF-8 in json-glib. */
              if (unit >= 0xdc00 && unit <= 0xdfff)
                goto bad_escape;
              if (unit >= 0xd800 && unit <= 0xdbff)
                {
                  guint low = (i + 7 < length && data[i + 6] == '\\' && data[i + 7] == 'u')
                              ? hex4 (data, length, i + 8) : G_MAXUINT;

                  if (low < 0xdc00 || low > 0xdfff)
                    goto bad_escape;
                  i += 6; /* the low half is part of this character */
                }
              i += 5;
            }
          else if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }

      /* json-glib 1.6 leaks what it parsed when more follows the first
       * value: allow exactly one value at the top level. */
      if (depth == 0 && !g_ascii_isspace (c) && ++top_level_values > 1)
        {
          *out_problem = _("it holds more than one JSON value");
          return FALSE;
        }

      switch (c)
        {
        case '"':
          in_string = TRUE;
          break;

        case '[':
        case '{':
          if (++depth > MAX_NESTING)
            {
              *out_problem = _("it is nested too deeply");
              return FALSE;
            }
          break;

        case ']':
        case '}':
          if (depth > 0)
            depth--;
          break;

        case '-':
        case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
          {
            gsize start = i, digits = 0;
            gboolean fraction = FALSE;
            char buffer[32];
            gint64 ignored;

            if (data[i] == '-')
              i++;
            while (i < length && g_ascii_isdigit (data[i]))
              i++, digits++;
            while (i < length && (data[i] == '.' || data[i] == 'e' || data[i] == 'E' ||
                                  data[i] == '+' || data[i] == '-' || g_ascii_isdigit (data[i])))
              i++, fraction = TRUE;
            if (!fraction && digits > 0)
              {
                gsize len = i - start;

                if (len >= sizeof buffer)
                  goto too_large;
                memcpy (buffer, data + start, len);
                buffer[len] = '\0';
                if (!g_ascii_string_to_signed (buffer, 10, G_MININT64, G_MAXINT64, &ignored, NULL))
                  goto too_large;
              }
            i--;
          }
          break;

        default:
          break;
        }
    }
  return TRUE;

too_large:
  *out_problem = _("it holds an integer too large for 64 bits");
  return FALSE;

bad_escape:
  *out_problem = _("it holds a \\u escape that is not a valid character");
  return FALSE;
}

/* Loads @data; with @source NULL the messages name no file. With
 * @owned_data (the same text, the caller's to free) the text is freed as
 * soon as the series columns have been taken out of it. */
static DuelResult *
load_data (const char  *data,
           gsize        length,
           char       **owned_data,
           gboolean     take_columns,
           const char  *source,
           GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(DuelResult) self = NULL;
  g_autoptr(DuelSeriesColumns) columns = NULL;
  g_autofree char *rest = NULL;
  gsize rest_length = 0;
  Loader loader = { source, error, NULL };
  const char *problem = NULL;

  if (length == 0)
    {
      fail (&loader, _("the file is empty."));
      return NULL;
    }
  if (length > MAX_FILE_SIZE)
    {
      fail (&loader, _("the file is larger than 2 GiB, too large to be a Drive Duel result."));
      return NULL;
    }
  /* Also refuses NUL bytes, so binary files stop here. */
  if (!g_utf8_validate_len (data, length, NULL))
    {
      fail (&loader, _("this is not a Drive Duel result: the file is not text (UTF-8 JSON)."));
      return NULL;
    }
  if (!duel_json_prescan (data, length, &problem))
    {
      fail (&loader, _("this is not a Drive Duel result: %s."), problem);
      return NULL;
    }

  /* The series, nearly all of a long run's file, go straight into typed
   * columns; json-glib parses the rest. */
  if (take_columns)
    columns = _duel_series_columns_extract (data, length, column_names, N_COLUMNS, COLUMN_TEMPERATURE,
                                            &rest, &rest_length);
  loader.columns = columns;

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, columns != NULL ? rest : data,
                                   (gssize) (columns != NULL ? rest_length : length), &local_error))
    {
      /* Where the text is broken is said of the file as it is: json-glib
       * reads it whole for the message. */
      if (columns != NULL)
        {
          g_autoptr(JsonParser) whole = json_parser_new ();

          g_clear_error (&local_error);
          json_parser_load_from_data (whole, data, (gssize) length, &local_error);
        }
      fail (&loader, _("this is not valid JSON (%s); the file may be truncated or damaged."),
            local_error != NULL ? local_error->message : "?");
      return NULL;
    }
  g_clear_pointer (&rest, g_free);
  if (columns != NULL && owned_data != NULL)
    g_clear_pointer (owned_data, g_free);

  /* Names and strings from the file are shown everywhere: escaped once. */
  if (json_parser_get_root (parser) != NULL)
    duel_text_make_printable (json_parser_get_root (parser));
  self = g_object_new (DUEL_TYPE_RESULT, NULL);
  g_clear_pointer (&self->created, g_date_time_unref);
  if (!load_root (self, &loader, json_parser_get_root (parser)))
    return NULL;
  return g_steal_pointer (&self);
}

DuelResult *
duel_result_load_from_data (const char  *data,
                            gsize        length,
                            const char  *source_name,
                            GError     **error)
{
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return load_data (data, length, NULL, TRUE, source_name ? source_name : _("result"), error);
}

/* The loader's rules are the contract for every result: a writer that is
 * not the engine (an importer) checks with the loader itself rather than
 * restating its rules. */
gboolean
duel_result_check_loadable (DuelResult  *self,
                            GError     **error)
{
  g_autoptr(GString) text = NULL;
  g_autoptr(DuelResult) again = NULL;

  g_return_val_if_fail (DUEL_IS_RESULT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  text = result_to_text (self);
  again = load_data (text->str, text->len, NULL, TRUE, NULL, error);
  return again != NULL;
}

/* A journal beside the file (a run that was checkpointing when it stopped)
 * is folded in when it names the file's journal_id. The folded result no
 * longer needs that journal: a save of it must not name it again. */
static void
fold_journal (DuelResult *self,
              const char *path)
{
  g_autofree char *target = NULL;
  g_autofree char *journal = NULL;
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;
  GStatBuf st;

  target = duel_result_save_path (path, NULL);
  if (target == NULL)
    return;
  journal = _duel_journal_path_for (target);
  if (g_stat (journal, &st) != 0 || !S_ISREG (st.st_mode) || (guint64) st.st_size > MAX_FILE_SIZE)
    return;
  if (!g_file_get_contents (journal, &data, &length, &error))
    {
      g_debug ("Not folding %s: %s", journal, error->message);
      return;
    }
  if (_duel_journal_fold_data (self, data, length, NULL))
    g_clear_pointer (&self->journal_id, g_free);
}

DuelResult *
duel_result_load (const char  *path,
                  GError     **error)
{
  g_autoptr(DuelResult) result = NULL;
  g_autofree char *display = NULL;
  g_autofree char *data = NULL;
  GStatBuf st;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  display = g_filename_display_name (path);

  /* Refuse before reading a huge file into memory. */
  if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode) && (guint64) st.st_size > MAX_FILE_SIZE)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("%s: the file is larger than 2 GiB, too large to be a Drive Duel result."), display);
      return NULL;
    }
  if (!g_file_get_contents (path, &data, &length, error))
    return NULL;

  result = load_data (data, length, &data, TRUE, display, error);
  if (result != NULL && result->journal_id != NULL)
    fold_journal (result, path);
  return g_steal_pointer (&result);
}

DuelResult *
_duel_result_load_from_data_in_tree (const char  *data,
                                     gsize        length,
                                     const char  *source_name,
                                     GError     **error)
{
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return load_data (data, length, NULL, FALSE, source_name ? source_name : _("result"), error);
}

const char * const *
_duel_result_series_column_names (guint *out_n,
                                  guint *out_double_column)
{
  *out_n = N_COLUMNS;
  *out_double_column = COLUMN_TEMPERATURE;
  return column_names;
}

/* ------------------------------------------------------------------------ */
/* For the checkpointer's journal (duel-result-private.h)                   */

static DuelTestRecord *
copy_record (const DuelTestRecord *from)
{
  DuelTestRecord *copy = duel_test_record_new (from->name != NULL ? from->name : "", &from->workload);

  copy->preset = g_strdup (from->preset);
  copy->span_offset = from->span_offset;
  copy->span_length = from->span_length;
  copy->byte_limit = from->byte_limit;
  copy->trimmed = from->trimmed;
  copy->started = from->started != NULL ? g_date_time_ref (from->started) : NULL;
  copy->runtime_ns = from->runtime_ns;
  copy->status = from->status;
  copy->error_message = g_strdup (from->error_message);
  if (from->series != NULL)
    {
      duel_series_free (copy->series);
      copy->series = duel_series_copy (from->series);
    }
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    if (from->latency[d] != NULL)
      memcpy (copy->latency[d], from->latency[d], sizeof (DuelHistogram));
  if (from->summary != NULL)
    copy->summary = copy_sanitized_object (from->summary);
  return copy;
}

DuelResult *
_duel_result_copy (DuelResult *self)
{
  DuelResult *copy;

  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  copy = g_object_new (DUEL_TYPE_RESULT, NULL);
  copy->name = g_strdup (self->name);
  duel_result_set_tool (copy, self->tool_name, self->tool_version);
  if (self->created != NULL)
    duel_result_set_created (copy, self->created);
  copy->published = self->published;
  duel_result_set_target (copy, &self->target);
  if (self->device != NULL)
    copy->device = copy_sanitized_object (self->device);
  if (self->rated != NULL)
    copy->rated = copy_sanitized_object (self->rated);
  copy->journal_id = g_strdup (self->journal_id);
  for (guint i = 0; i < self->tests->len; i++)
    g_ptr_array_add (copy->tests, copy_record (g_ptr_array_index (self->tests, i)));
  return copy;
}

JsonObject *
_duel_result_copy_json_object (JsonObject *object)
{
  g_return_val_if_fail (object != NULL, NULL);

  return copy_sanitized_object (object);
}

JsonObject *
_duel_result_test_header_to_json (const DuelTestRecord *record)
{
  JsonObject *test;

  g_return_val_if_fail (record != NULL, NULL);

  test = test_header_to_json (record);
  if (record->summary != NULL)
    json_object_set_object_member (test, "summary", copy_sanitized_object (record->summary));
  return test;
}

DuelTestRecord *
_duel_result_test_header_from_json (JsonObject           *test,
                                    guint                 index,
                                    const DuelTargetInfo *target,
                                    GError              **error)
{
  g_autoptr(DuelTestRecord) record = NULL;
  Loader loader = { NULL, error };
  JsonObject *summary = NULL;

  g_return_val_if_fail (test != NULL, NULL);
  g_return_val_if_fail (target != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  record = load_test_header (&loader, test, index, target, NULL, NULL, NULL, &summary);
  if (record == NULL || !load_test_summary (&loader, summary, index, record))
    return NULL;
  return g_steal_pointer (&record);
}

gboolean
_duel_result_check_histogram (DuelHistogram  *hist,
                              const char     *prefix,
                              GError        **error)
{
  Loader loader = { NULL, error };
  guint64 total = 0;
  int first = -1, last = -1;

  g_return_val_if_fail (hist != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  for (guint i = 0; i < DUEL_HISTOGRAM_N_BUCKETS; i++)
    {
      if (hist->buckets[i] == 0)
        continue;
      if (total + hist->buckets[i] < total || total + hist->buckets[i] > G_MAXINT64)
        return fail (&loader, _("%s makes the sample count overflow."), prefix);
      total += hist->buckets[i];
      if (first < 0)
        first = (int) i;
      last = (int) i;
    }
  if (!isfinite (hist->sum_sq_ns))
    {
      g_autofree char *field = g_strdup_printf ("%s.sum_sq", prefix);
      return fail (&loader, _("%s is not a finite number."), field);
    }
  return check_histogram_totals (&loader, prefix, hist, hist->count, total, first, last,
                                 hist->min_ns, hist->max_ns, hist->sum_ns, hist->sum_sq_ns);
}
