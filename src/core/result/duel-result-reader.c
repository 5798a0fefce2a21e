/* duel-result-reader.c — loading a result file with validation
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

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "duel-error.h"
#include "duel-json.h"
#include "duel-json-shape-private.h"
#include "duel-result-internal.h"
#include "duel-result-private.h"
#include "duel-result.h"
#include "engine/duel-series-private.h"
#include "duel-system.h"
#include "duel-text.h"

/* Loading a file may take this many times its size (docs/result-format.md),
 * and this much however small it is. */
#define MEMORY_FACTOR   3
#define MEMORY_FLOOR    (G_GUINT64_CONSTANT (16) << 20)
#define MEMORY_PER_TEST (G_GUINT64_CONSTANT (64) << 10)

typedef struct
{
  const char  *source;
  GError     **error;
  DuelShaped  *shaped;      /* the series columns and bins taken from the text, or NULL */
  gboolean     check_only;  /* each test is checked and dropped, not kept */
} Loader;

/* ---- the file's shape: what the loader reads (duel-json-shape-private.h) ---- */

/* What is taken under a test's index: the series' rows (a table whose
 * fields are the columns), then the bins by direction. */
#define TAKE_ROWS    0
#define TAKE_BINS(d) (1 + (d))

static const DuelShape keep = { DUEL_SHAPE_KEEP, 0, NULL, NULL, 0, 0, 0, 0 };

#define FIELD(kind, c, member) \
  { (kind), 0, NULL, NULL, TAKE_ROWS, (c), G_STRUCT_OFFSET (DuelSeriesRow, member), sizeof (DuelSeriesRow) }
static const DuelShape column_shapes[N_COLUMNS] = {
  FIELD (DUEL_SHAPE_UINT_FIELD, COLUMN_T_MS, t_ms),
  FIELD (DUEL_SHAPE_UINT_FIELD, COLUMN_READ_OPS, ops[DUEL_DIRECTION_READ]),
  FIELD (DUEL_SHAPE_UINT_FIELD, COLUMN_WRITE_OPS, ops[DUEL_DIRECTION_WRITE]),
  FIELD (DUEL_SHAPE_UINT_FIELD, COLUMN_READ_BYTES, bytes[DUEL_DIRECTION_READ]),
  FIELD (DUEL_SHAPE_UINT_FIELD, COLUMN_WRITE_BYTES, bytes[DUEL_DIRECTION_WRITE]),
  FIELD (DUEL_SHAPE_UINT_FIELD, COLUMN_READ_LAT_MAX, lat_max_ns[DUEL_DIRECTION_READ]),
  FIELD (DUEL_SHAPE_UINT_FIELD, COLUMN_WRITE_LAT_MAX, lat_max_ns[DUEL_DIRECTION_WRITE]),
  FIELD (DUEL_SHAPE_NUMBER_FIELD, COLUMN_TEMPERATURE, temperature_c),
};
#undef FIELD

/* The names are _duel_result_column_names (checked by the result test). */
static const DuelShapeMember series_members[] = {
  { "t_ms", &column_shapes[COLUMN_T_MS] },
  { "read_ops", &column_shapes[COLUMN_READ_OPS] },
  { "write_ops", &column_shapes[COLUMN_WRITE_OPS] },
  { "read_bytes", &column_shapes[COLUMN_READ_BYTES] },
  { "write_bytes", &column_shapes[COLUMN_WRITE_BYTES] },
  { "read_lat_max_ns", &column_shapes[COLUMN_READ_LAT_MAX] },
  { "write_lat_max_ns", &column_shapes[COLUMN_WRITE_LAT_MAX] },
  { "temperature_c", &column_shapes[COLUMN_TEMPERATURE] },
  { "rows", &keep },
  { NULL, NULL }
};

/* Latency histograms, one shape per direction so that their bins are
 * told apart. */
static const DuelShape bins_shapes[DUEL_N_DIRECTIONS] = {
  { DUEL_SHAPE_PAIRS, 0, NULL, NULL, TAKE_BINS (DUEL_DIRECTION_READ) },
  { DUEL_SHAPE_PAIRS, 0, NULL, NULL, TAKE_BINS (DUEL_DIRECTION_WRITE) },
};
#define LAT_MEMBERS(d) { \
  { "samples", &keep }, { "min", &keep }, { "max", &keep }, { "sum", &keep }, \
  { "sum_sq", &keep }, { "mean", &keep }, { "stddev", &keep }, \
  { "percentiles", &keep }, { "bins", &bins_shapes[d] }, { NULL, NULL } }
static const DuelShapeMember lat_read_members[] = LAT_MEMBERS (DUEL_DIRECTION_READ);
static const DuelShapeMember lat_write_members[] = LAT_MEMBERS (DUEL_DIRECTION_WRITE);
#undef LAT_MEMBERS
static const DuelShape lat_shapes[DUEL_N_DIRECTIONS] = {
  { DUEL_SHAPE_OBJECT, 0, lat_read_members, NULL, 0 },
  { DUEL_SHAPE_OBJECT, 0, lat_write_members, NULL, 0 },
};
#define DIRECTION_MEMBERS(d) { \
  { "ops", &keep }, { "bytes", &keep }, { "runtime_ns", &keep }, { "iops", &keep }, \
  { "bw_bytes_per_sec", &keep }, { "lat_ns", &lat_shapes[d] }, { NULL, NULL } }
static const DuelShapeMember read_members[] = DIRECTION_MEMBERS (DUEL_DIRECTION_READ);
static const DuelShapeMember write_members[] = DIRECTION_MEMBERS (DUEL_DIRECTION_WRITE);
#undef DIRECTION_MEMBERS
static const DuelShape direction_shapes[DUEL_N_DIRECTIONS] = {
  { DUEL_SHAPE_OBJECT, 0, read_members, NULL, 0 },
  { DUEL_SHAPE_OBJECT, 0, write_members, NULL, 0 },
};
static const DuelShapeMember totals_members[] = {
  { "read", &direction_shapes[DUEL_DIRECTION_READ] },
  { "write", &direction_shapes[DUEL_DIRECTION_WRITE] },
  { NULL, NULL }
};

static const DuelShape series_shape = { DUEL_SHAPE_OBJECT, 0, series_members, NULL, 0 };
static const DuelShape totals_shape = { DUEL_SHAPE_OBJECT, 0, totals_members, NULL, 0 };
/* params are the workload's (duel_workload_from_json()), whose fields
 * come from its option table: kept whole rather than listed again here. */
static const DuelShapeMember test_members[] = {
  { "name", &keep }, { "preset", &keep }, { "status", &keep }, { "error", &keep },
  { "started", &keep }, { "params", &keep }, { "interval_ms", &keep }, { "runtime_ns", &keep },
  { "series", &series_shape }, { "totals", &totals_shape }, { "summary", &keep },
  { "latency_kind", &keep }, { "pauses", &keep }, { NULL, NULL }
};
static const DuelShape test_shape = { DUEL_SHAPE_OBJECT, 0, test_members, NULL, 0 };
static const DuelShape tests_shape = { DUEL_SHAPE_ARRAY, DUEL_SHAPE_INDEXED, NULL, &test_shape, 0 };

static const DuelShapeMember tool_members[] = {
  { "name", &keep }, { "version", &keep }, { NULL, NULL }
};
static const DuelShapeMember target_members[] = {
  { "path", &keep }, { "kind", &keep }, { "size_bytes", &keep },
  { "logical_block_size", &keep }, { "physical_block_size", &keep }, { NULL, NULL }
};
static const DuelShape tool_shape = { DUEL_SHAPE_OBJECT, 0, tool_members, NULL, 0 };
static const DuelShape target_shape = { DUEL_SHAPE_OBJECT, 0, target_members, NULL, 0 };
static const DuelShapeMember root_members[] = {
  { "format", &keep }, { "version", &keep }, { "tool", &tool_shape }, { "created", &keep },
  { "name", &keep }, { "published", &keep }, { "target", &target_shape },
  { "device", &keep }, { "rated", &keep }, { "tests", &tests_shape },
  { "journal_id", &keep }, { NULL, NULL }
};
static const DuelShape result_shape = { DUEL_SHAPE_OBJECT, 0, root_members, NULL, 0 };

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

/* An integer in 0..max; @field names it in errors. */
static gboolean
check_uint_node (Loader     *loader,
                 JsonNode   *node,
                 const char *field,
                 guint64     max,
                 guint64    *out)
{
  gint64 value;

  if (!duel_json_node_is_integer (node))
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
  if (!duel_json_node_is_number (node))
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
                guint          test,
                DuelDirection  direction,
                DuelHistogram *hist)
{
  JsonArray *bins = NULL;
  JsonObject *percentiles = NULL;
  JsonNode *bins_node = json_object_get_member (lat, "bins");
  const guint64 *pairs = NULL;
  gsize n_pairs = 0;
  guint64 samples = 0, min = 0, max = 0, sum = 0, total = 0;
  double sum_sq = 0, ignored;
  guint n_bins;
  int first = -1, last = -1, previous = -1;

  duel_histogram_init (hist);

  /* Bins taken from the text are [lower, count] pairs of integers
   * already; the checks below are the same for both. */
  if (bins_node != NULL && JSON_NODE_HOLDS_NULL (bins_node))
    pairs = _duel_json_shaped_get_pairs (loader->shaped, test, TAKE_BINS (direction), &n_pairs);
  if (!get_uint (loader, lat, prefix, "samples", TRUE, G_MAXINT64, &samples) ||
      !get_uint (loader, lat, prefix, "min", TRUE, G_MAXINT64, &min) ||
      !get_uint (loader, lat, prefix, "max", TRUE, G_MAXINT64, &max) ||
      !get_uint (loader, lat, prefix, "sum", TRUE, G_MAXINT64, &sum) ||
      !get_double (loader, lat, prefix, "sum_sq", TRUE, &sum_sq) ||
      (pairs == NULL && !get_array (loader, lat, prefix, "bins", TRUE, &bins)) ||
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
          if (!duel_json_node_is_number (value))
            {
              g_autofree char *field = g_strdup_printf ("%s.percentiles.%s", prefix, key);
              return wrong_type (loader, field, _("a number"), value);
            }
        }
    }

  n_bins = pairs != NULL ? (guint) MIN (n_pairs, G_MAXUINT) : json_array_get_length (bins);
  for (guint i = 0; i < n_bins; i++)
    {
      g_autofree char *field = g_strdup_printf ("%s.bins[%u]", prefix, i);
      guint64 lower, count;
      guint index;

      if (pairs != NULL)
        {
          lower = pairs[2 * i];
          count = pairs[2 * i + 1];
        }
      else
        {
          JsonNode *node = json_array_get_element (bins, i);
          JsonArray *pair;

          if (!JSON_NODE_HOLDS_ARRAY (node))
            return wrong_type (loader, field, _("a [lower_ns, count] pair"), node);
          pair = json_node_get_array (node);
          if (json_array_get_length (pair) != 2)
            return fail (loader, _("%s has %u values; a bin is a [lower_ns, count] pair."),
                         field, json_array_get_length (pair));
          if (!check_uint_node (loader, json_array_get_element (pair, 0), field, G_MAXINT64, &lower) ||
              !check_uint_node (loader, json_array_get_element (pair, 1), field, G_MAXINT64, &count))
            return FALSE;
        }

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

/* One column of tests[@test].series: taken from the text into the rows'
 * table (@values or @doubles, every @stride values) or in the tree
 * (@array), where a taken column is null. */
typedef struct
{
  const guint64 *values;
  const double  *doubles;
  gsize          stride;
  JsonArray     *array;
  gsize          n;
  gboolean       in_table;
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
  JsonNode *node = object != NULL ? json_object_get_member (object, _duel_result_column_names[column]) : NULL;

  memset (out, 0, sizeof *out);
  if (node != NULL && JSON_NODE_HOLDS_NULL (node))
    {
      guint32 fields = 0;
      gsize n = 0;
      char *rows = _duel_json_shaped_get_table (loader->shaped, test, TAKE_ROWS, &n, &fields);

      if (rows != NULL && (fields & (1u << column)))
        {
          out->n = n;
          out->stride = sizeof (DuelSeriesRow) / sizeof (guint64);
          out->in_table = TRUE;
          if (column == COLUMN_TEMPERATURE)
            out->doubles = (const double *) (rows + column_shapes[column].offset);
          else
            out->values = (const guint64 *) (rows + column_shapes[column].offset);
          return TRUE;
        }
    }
  if (!get_array (loader, object, prefix, _duel_result_column_names[column], required, &out->array))
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
  gboolean has_declared, whole_table = TRUE;
  DuelSeriesRow *table = NULL;
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
                   prefix, _duel_result_column_names[c], (guint) MIN (columns[c].n, G_MAXUINT), n);
  if ((temperature.array != NULL || temperature.doubles != NULL) && temperature.n != n)
    return fail (loader, _("%s.%s has %u values but t_ms has %u."),
                 prefix, "temperature_c", (guint) MIN (temperature.n, G_MAXUINT), n);

  /* Columns in the tree: every value an integer 0 to 2^63-1, column by
   * column (taken columns hold nothing else). */
  for (guint c = 0; c < N_INT_COLUMNS; c++)
    for (guint i = 0; columns[c].array != NULL && i < n; i++)
      {
        JsonNode *node = json_array_get_element (columns[c].array, i);

        if (G_UNLIKELY (!duel_json_node_is_integer (node) || json_node_get_int (node) < 0))
          {
            g_autofree char *where = g_strdup_printf ("%s.%s[%u]", prefix, _duel_result_column_names[c], i);
            guint64 ignored;

            return check_uint_node (loader, node, where, G_MAXINT64, &ignored);
          }
      }

  /* Every column in the rows taken from the text: they are checked in
   * place and become the series; else rows are made from the columns. */
  for (guint c = 0; c < N_INT_COLUMNS; c++)
    whole_table &= columns[c].in_table;
  whole_table &= temperature.in_table || temperature.array == NULL;
  if (whole_table && n > 0)
    {
      gsize table_n = 0;
      guint32 fields = 0;

      table = _duel_json_shaped_get_table (loader->shaped, test, TAKE_ROWS, &table_n, &fields);
      g_assert (table != NULL && table_n == n);
    }
  else
    duel_series_reserve (series, n);
  for (guint i = 0; i < n; i++)
    {
      DuelSeriesRow row;

      for (guint c = 0; c < N_INT_COLUMNS; c++)
        *_duel_result_row_field (&row, (Column) c) = columns[c].values != NULL
          ? columns[c].values[i * columns[c].stride]
          : (guint64) json_node_get_int (json_array_get_element (columns[c].array, i));

      if (i > 0 && row.t_ms <= (table != NULL ? table[i - 1].t_ms : duel_series_get_row (series, i - 1)->t_ms))
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
                         prefix, _duel_result_column_names[d == DUEL_DIRECTION_READ ? COLUMN_READ_BYTES : COLUMN_WRITE_BYTES],
                         i, _duel_result_column_names[d == DUEL_DIRECTION_READ ? COLUMN_READ_OPS : COLUMN_WRITE_OPS]);
          if (__builtin_add_overflow (sum_ops[d], row.ops[d], &sum_ops[d]) ||
              __builtin_add_overflow (sum_bytes[d], row.bytes[d], &sum_bytes[d]))
            return fail (loader, _("%s adds up to more than 2^64 operations or bytes."), prefix);
        }

      row.temperature_c = NAN;
      if (temperature.doubles != NULL)
        row.temperature_c = temperature.doubles[i * temperature.stride];
      else if (temperature.array != NULL)
        {
          JsonNode *node = json_array_get_element (temperature.array, i);

          if (!JSON_NODE_HOLDS_NULL (node))
            {
              if (!duel_json_node_is_number (node))
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
      if (table != NULL)
        table[i] = row;
      else
        duel_series_append (series, &row);
    }
  if (table != NULL)
    {
      gsize table_n = 0;
      DuelSeriesRow *rows = _duel_json_shaped_steal_table (loader->shaped, test, TAKE_ROWS, &table_n);

      _duel_series_adopt_rows (series, rows, (guint) table_n);
    }
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
      if (!JSON_NODE_HOLDS_NULL (value) && !duel_json_node_is_number (value))
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
/* The pauses of the process during a test (optional; files from before
 * they were recorded have none): at most DUEL_TEST_RECORD_MAX_PAUSES, in
 * row order, each touching at least one row. */
static gboolean
load_pauses (Loader         *loader,
             JsonObject     *test,
             const char     *prefix,
             DuelTestRecord *record)
{
  JsonArray *pauses = NULL;
  guint n;
  guint64 last_row = 0;

  if (!get_array (loader, test, prefix, "pauses", FALSE, &pauses))
    return FALSE;
  if (pauses == NULL)
    return TRUE;
  n = json_array_get_length (pauses);
  if (n > DUEL_TEST_RECORD_MAX_PAUSES)
    return fail (loader, _("%s.pauses has %u entries; at most %u are supported."),
                 prefix, n, DUEL_TEST_RECORD_MAX_PAUSES);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *at = g_strdup_printf ("%s.pauses[%u]", prefix, i);
      JsonNode *node = json_array_get_element (pauses, i);
      JsonObject *object;
      guint64 at_ms = 0, row = 0, rows = 0, length_ns = 0, left_out = 0;
      double fraction = 0;
      DuelPause pause;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return wrong_type (loader, at, _("an object"), node);
      object = json_node_get_object (node);
      if (!get_uint (loader, object, at, "at_ms", TRUE, G_MAXINT64, &at_ms) ||
          !get_uint (loader, object, at, "row", TRUE, G_MAXUINT32, &row) ||
          !get_uint (loader, object, at, "rows", TRUE, G_MAXUINT32, &rows) ||
          !get_double (loader, object, at, "fraction", TRUE, &fraction) ||
          !get_uint (loader, object, at, "length_ns", TRUE, G_MAXINT64, &length_ns) ||
          !get_uint (loader, object, at, "latencies_left_out", TRUE, G_MAXINT64, &left_out))
        return FALSE;
      if (rows == 0 || fraction < 0 || fraction > 1 || row < last_row)
        return fail (loader, _("%s: a pause touches at least one row, at a fraction from 0 to 1, in row order."), at);
      last_row = row;
      pause = (DuelPause) {
        .at_ms = at_ms, .row = (guint) row, .rows = (guint) rows, .fraction = fraction,
        .length_ns = length_ns, .latencies_left_out = left_out,
      };
      duel_test_record_add_pause (record, &pause);
    }
  return TRUE;
}

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
  const char *latency_kind = NULL;
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
      !get_string (loader, test, prefix, "latency_kind", FALSE, &latency_kind) ||
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
  /* Absent (older files) or unknown: Drive Duel's own, total latency. */
  record->latency_kind = duel_latency_kind_from_string (latency_kind);

  if (!get_date (loader, test, prefix, "started", FALSE, &started))
    return NULL;
  record->started = started;

  if (!load_pauses (loader, test, prefix, record))
    return NULL;

  return g_steal_pointer (&record);
}

/* Free-form data (device, rated, a summary) kept from the parsed tree
 * itself, not a copy of it (the tree goes once loaded): non-finite numbers
 * ("1e999" parses as infinity) become null, so what is in memory is
 * exactly what saving writes. */
static void
sanitize_node (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        JsonNode *member;

        json_object_iter_init (&iter, json_node_get_object (node));
        while (json_object_iter_next (&iter, NULL, &member))
          sanitize_node (member);
        break;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        for (guint i = 0; i < json_array_get_length (array); i++)
          sanitize_node (json_array_get_element (array, i));
        break;
      }
    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_DOUBLE && !isfinite (json_node_get_double (node)))
        json_node_init_null (node);
      break;
    case JSON_NODE_NULL:
    default:
      break;
    }
}

static JsonObject *
keep_sanitized_object (JsonObject *object)
{
  JsonObjectIter iter;
  JsonNode *member;

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, NULL, &member))
    sanitize_node (member);
  return json_object_ref (object);
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
  record->summary = keep_sanitized_object (summary);
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

  /* Whatever the status, rows cannot span far more time than they could
   * cover: a crafted file with days between a few rows would take the
   * analysis hours and gigabytes. */
  if (duel_series_get_length (record->series) > 0)
    {
      guint n = duel_series_get_length (record->series);
      guint64 last_ms = duel_series_get_row (record->series, n - 1)->t_ms;

      if (!duel_test_record_rows_span_fits (n, record->workload.interval_ms, last_ms))
        {
          g_autofree char *end_text = g_strdup_printf ("%" G_GUINT64_FORMAT, last_ms);

          fail (loader, g_dngettext (GETTEXT_PACKAGE,
                                     "%s.t_ms ends at %s ms, far more than its %u row of %u ms can span; "
                                     "a column may be in the wrong unit.",
                                     "%s.t_ms ends at %s ms, far more than its %u rows of %u ms can span; "
                                     "a column may be in the wrong unit.", n),
                series_prefix, end_text, n, record->workload.interval_ms);
          return NULL;
        }
    }

  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      g_autofree char *dir_prefix = g_strdup_printf ("%s.totals.%s", prefix, _duel_result_direction_names[d]);
      g_autofree char *lat_prefix = g_strdup_printf ("%s.lat_ns", dir_prefix);
      g_autofree char *totals_prefix = g_strdup_printf ("%s.totals", prefix);
      JsonObject *dir = NULL, *lat = NULL;
      guint64 ops = 0, bytes = 0, dir_runtime = 0;
      double iops = 0, bw = 0;

      if (!get_object (loader, totals, totals_prefix, _duel_result_direction_names[d], TRUE, &dir) ||
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

      if (lat != NULL && !load_histogram (loader, lat, lat_prefix, index, d, record->latency[d]))
        return NULL;
    }
  /* What was taken for the test is in it now. */
  _duel_json_shaped_release (loader->shaped, index);

  if (!load_test_summary (loader, summary, index, record))
    return NULL;

  return g_steal_pointer (&record);
}

/* Reference files written before the review's scores had keys of their own
 * stored them under the measured figures they are not: in a published
 * result, write_iops_mean and read_score_iops are the review's scores
 * (docs/result-format.md), and are renamed unless the test holds the new
 * key already. */
static void
rename_published_scores (DuelTestRecord *record)
{
  static const struct { const char *old_key; const char *new_key; } renamed[] = {
    { "write_iops_mean", "review_write_score_iops" },
    { "read_score_iops", "review_read_score_iops" },
  };
  JsonNode *node = record->summary != NULL ? json_object_get_member (record->summary, "figures") : NULL;
  JsonArray *figures;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return;
  figures = json_node_get_array (node);
  for (guint k = 0; k < G_N_ELEMENTS (renamed); k++)
    {
      JsonObject *old = NULL;
      gboolean has_new = FALSE;

      for (guint i = 0; i < json_array_get_length (figures); i++)
        {
          JsonNode *element = json_array_get_element (figures, i);
          const char *key;

          if (!JSON_NODE_HOLDS_OBJECT (element))
            continue;
          key = duel_json_get_string (json_node_get_object (element), "key");
          if (old == NULL && g_strcmp0 (key, renamed[k].old_key) == 0)
            old = json_node_get_object (element);
          has_new |= g_strcmp0 (key, renamed[k].new_key) == 0;
        }
      if (old != NULL && !has_new)
        json_object_set_string_member (old, "key", renamed[k].new_key);
    }
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
  if (!duel_json_node_is_integer (node))
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
  /* Only a run's own id names a journal (a random UUID, duel-checkpointer.c):
   * anything else never folds one, and is not saved again. */
  if (journal_id != NULL && g_uuid_string_is_valid (journal_id))
    self->journal_id = g_strdup (journal_id);
  else if (journal_id != NULL)
    g_debug ("Ignoring a journal_id that is not a journal's id");
  self->published = published;
  if (device != NULL)
    self->device = keep_sanitized_object (device);
  if (rated != NULL)
    self->rated = keep_sanitized_object (rated);

  n = json_array_get_length (tests);
  if (n > DUEL_RESULT_MAX_TESTS)
    return fail (loader, _("tests has %u entries; at most %u are supported."), n, DUEL_RESULT_MAX_TESTS);
  for (guint i = 0; i < n; i++)
    {
      DuelTestRecord *record = load_test (loader, json_array_get_element (tests, i), i, &self->target);

      if (record == NULL)
        return FALSE;
      /* A check holds one test at a time. */
      if (loader->check_only)
        {
          duel_test_record_unref (record);
          continue;
        }
      /* A fill saved before the falls is brought up to date above the
       * loader, by duel_analysis_update_result(). */
      if (published)
        rename_published_scores (record);
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

guint64
_duel_result_memory_budget (guint64 length,
                            guint64 n_tests)
{
  /* A test in memory has two histograms of fixed size whatever the file
   * holds, and its header, totals and summary as json-glib's objects
   * while it is read, which take more than their text; tests past the
   * limit are refused before any is made. */
  guint64 per_test = sizeof (DuelTestRecord) + 2 * sizeof (DuelHistogram) + MEMORY_PER_TEST;
  guint64 room = duel_system_memory_room ();

  if (n_tests > DUEL_RESULT_MAX_TESTS)
    n_tests = 0;
  /* Nor more than this process may map (ulimit -v): g_malloc() would
   * abort. The text itself is held already. */
  return MIN (MAX (MEMORY_FACTOR * length, MEMORY_FLOOR) + n_tests * per_test, MAX (room, length));
}

gboolean
_duel_result_memory_refusal (guint64      needed,
                             guint64      length,
                             const char  *region,
                             char       **out_message)
{
  g_autofree char *needed_text = NULL;
  g_autofree char *length_text = NULL;
  guint64 room = duel_system_memory_room ();

  needed_text = g_format_size (needed);
  length_text = g_format_size (length);
  if (needed > room)
    {
      g_autofree char *room_text = g_format_size (room);
      g_autofree char *limit_text = g_format_size (duel_system_memory_limit ());

      /* Cut short by the limit, the estimate is of a costlier way to read
       * it: no figure of it. */
      /* TRANSLATORS: memory left, the process's limit (ulimit -v) */
      *out_message = g_strdup_printf (_("reading this file would take more than the %s of memory this process may "
                                        "use under its limit of %s."),
                                      room_text, limit_text);
      return FALSE;
    }
  if (region != NULL && region[0] != '\0')
    *out_message = g_strdup_printf (_("reading this file would take about %s of memory, more than three times its %s; most of it would go to “%s”."),
                                    needed_text, length_text, region);
  else
    *out_message = g_strdup_printf (_("reading this file would take about %s of memory, more than three times its %s."),
                                    needed_text, length_text);
  return FALSE;
}

/* What loading will hold at its peak, from the shape's estimate: while
 * json-glib parses (the text, the rest, the typed arrays, the tree), or
 * while the tests are made (the tree, the typed arrays, the series' rows;
 * the text too when it is the caller's to free). */
static guint64
load_estimate (DuelShaped *shaped,
               gsize       length,
               gboolean    text_freed)
{
  DuelShapeEstimate e;
  guint64 rows = 0, parse, build;
  gsize rest_length = _duel_json_shaped_get_rest_length (shaped);

  _duel_json_shaped_get_estimate (shaped, &e);
  /* Rows not taken whole from the text are made anew, beside the taken
   * columns (the tree's cost is counted already). */
  for (guint64 i = 0; i < MIN (e.n_indexed, DUEL_RESULT_MAX_TESTS); i++)
    {
      guint32 fields = 0;
      gsize n = 0;

      if (_duel_json_shaped_get_table (shaped, (guint) i, TAKE_ROWS, &n, &fields) != NULL &&
          (fields & ((1u << N_INT_COLUMNS) - 1)) != (1u << N_INT_COLUMNS) - 1)
        rows += n;
    }
  parse = length + rest_length + e.taken_bytes + e.tree_bytes;
  build = (text_freed ? 0 : length) + e.tree_bytes + e.taken_bytes + rows * sizeof (DuelSeriesRow);
  return MAX (parse, build);
}

/* Refuses, with one sentence, a file whose load would take more memory
 * than _duel_result_memory_budget() allows, before it is spent. */
static gboolean
check_memory (Loader     *loader,
              DuelShaped *shaped,
              gsize       length,
              gboolean    text_freed)
{
  DuelShapeEstimate e;
  g_autofree char *message = NULL;
  guint64 needed = load_estimate (shaped, length, text_freed);

  _duel_json_shaped_get_estimate (shaped, &e);
  if (needed <= _duel_result_memory_budget (length, e.n_indexed))
    return TRUE;
  _duel_result_memory_refusal (needed, length, e.region, &message);
  return fail (loader, "%s", message);
}

/* Whether json-glib may parse the whole text after all (to name where it
 * is broken) within the same memory. */
static gboolean
whole_text_fits (DuelShaped *shaped,
                 const char *data,
                 gsize       length)
{
  g_autoptr(DuelShaped) whole = _duel_json_shape (data, length, &result_shape, 0);
  DuelShapeEstimate e;

  _duel_json_shaped_get_estimate (whole, &e);
  return 2 * length + e.tree_bytes <= _duel_result_memory_budget (length, e.n_indexed);
}

/* Loads @data; with @source NULL the messages name no file. With
 * @owned_data (the same text, the caller's to free) the text is freed as
 * soon as json-glib has parsed it. */
static DuelResult *
load_data (const char  *data,
           gsize        length,
           char       **owned_data,
           gboolean     take_columns,
           gboolean     check_only,
           const char  *source,
           GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(DuelResult) self = NULL;
  g_autoptr(DuelShaped) shaped = NULL;
  const char *rest = NULL;
  gsize rest_length = 0;
  Loader loader = { source, error, NULL, check_only };
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
  /* Editors on Windows may begin a file with one; JSON has none. */
  if (length >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    {
      fail (&loader, _("the file begins with a byte order mark (U+FEFF), which JSON does not allow; save it without one."));
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

  /* The series and the bins, nearly all of a long run's file, go straight
   * into typed arrays, members no reader knows are cut, and json-glib
   * parses the rest, once its memory is known to be bounded. The tree-only
   * loader (the tests' reference) parses the whole text, but takes the
   * same decision on memory. */
  shaped = _duel_json_shape (data, length, &result_shape, _duel_result_memory_budget (length, 0) - length);
  if (!check_memory (&loader, shaped, length, owned_data != NULL))
    return NULL;
  if (take_columns)
    {
      loader.shaped = shaped;
      rest = _duel_json_shaped_get_rest (shaped, &rest_length);
    }

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, rest != NULL ? rest : data,
                                   (gssize) (rest != NULL ? rest_length : length), &local_error))
    {
      g_autofree char *message = NULL;
      guint64 line, column;

      /* Where the text is broken is said of the file as it is. */
      if (rest != NULL)
        {
          message = _duel_json_shaped_map_error (shaped, data, length, local_error->message);
          if (message == NULL && whole_text_fits (shaped, data, length))
            {
              g_autoptr(JsonParser) whole = json_parser_new ();

              g_clear_error (&local_error);
              json_parser_load_from_data (whole, data, (gssize) length, &local_error);
            }
        }
      if (message == NULL && local_error != NULL)
        message = g_strdup (local_error->message);
      if (duel_json_error_position (message, &line, &column))
        /* TRANSLATORS: where a result file's JSON breaks; json-glib's own
         * wording is English and too long for a notification */
        fail (&loader, _("this is not valid JSON (it breaks at line %u, column %u); the file may be truncated or damaged."),
              (guint) MIN (line, G_MAXUINT), (guint) MIN (column, G_MAXUINT));
      else
        fail (&loader, _("this is not valid JSON (%s); the file may be truncated or damaged."),
              message != NULL ? message : "?");
      return NULL;
    }
  /* The tree holds what it needs. */
  _duel_json_shaped_drop_rest (shaped);
  if (owned_data != NULL)
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

  return load_data (data, length, NULL, TRUE, FALSE, source_name ? source_name : _("result"), error);
}

/* The loader's rules are the contract for every result: a writer that is
 * not the engine (an importer) checks with the loader itself rather than
 * restating its rules. */
gboolean
duel_result_check_loadable (DuelResult  *self,
                            GError     **error)
{
  g_autofree char *text = NULL;
  g_autoptr(DuelResult) again = NULL;
  gsize length;

  g_return_val_if_fail (DUEL_IS_RESULT (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  {
    GString *whole = _duel_result_to_text (self);

    length = whole->len;
    text = g_string_free (whole, FALSE);
  }
  /* The same load, holding one test at a time (an import of thousands of
   * jobs is not held twice), the text freed once parsed. */
  again = load_data (text, length, &text, TRUE, TRUE, NULL, error);
  return again != NULL;
}

DuelResult *
_duel_result_load_from_file_data (char       **data,
                                  gsize        length,
                                  const char  *source_name,
                                  GError     **error)
{
  return load_data (*data, length, data, TRUE, FALSE, source_name, error);
}

DuelResult *
_duel_result_load_from_data_in_tree (const char  *data,
                                     gsize        length,
                                     const char  *source_name,
                                     GError     **error)
{
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return load_data (data, length, NULL, FALSE, FALSE, source_name ? source_name : _("result"), error);
}

const char * const *
_duel_result_series_column_names (guint *out_n,
                                  guint *out_double_column)
{
  *out_n = N_COLUMNS;
  *out_double_column = COLUMN_TEMPERATURE;
  return _duel_result_column_names;
}

const DuelShape *
_duel_result_get_shape (void)
{
  return &result_shape;
}

/* ------------------------------------------------------------------------ */
/* For the checkpointer's journal (duel-result-private.h)                   */

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
