/* duel-journal.c — the checkpoint journal's lines, written and folded
 *
 * A journal is hostile input like the result file beside it: every line is
 * checked before it changes the result, a test's JSON gets the loader's
 * pre-scan and its own checks (it is in the file's shape), histograms get
 * the loader's rules, and a line is folded only when the result stays
 * loadable.
 * The first line that fails ends the fold: what came before is kept.
 *
 * Why these messages are not translated: they never reach a user; a fold
 * that stops early only shows up in the debug log.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "duel-error.h"
#include "duel-preflight.h"
#include "duel-journal-private.h"
#include "duel-json.h"
#include "duel-json-shape-private.h"
#include "duel-result-private.h"
#include "duel-text.h"

/* Running sums of a test's series, so that checking a row stays O(1). */
typedef struct
{
  gboolean valid;
  guint    rows;
  guint64  ops[DUEL_N_DIRECTIONS];
  guint64  bytes[DUEL_N_DIRECTIONS];
} TestSums;

struct _DuelJournalFold
{
  DuelResult    *result;
  GArray        *sums;                          /* TestSums, by test index */
  DuelHistogram *scratch[DUEL_N_DIRECTIONS];   /* a state's histograms before they are applied */
};

static const char * const direction_names[DUEL_N_DIRECTIONS] = { "read", "write" };

char *
_duel_journal_path_for (const char *save_path)
{
  g_return_val_if_fail (save_path != NULL, NULL);

  return g_strconcat (save_path, DUEL_PREFLIGHT_JOURNAL_SUFFIX, NULL);
}

/* ---- writing ------------------------------------------------------------ */

/* The file clamps its integers to int64 (duel-result.c set_uint); so does
 * the journal, so that both say the same. */
static guint64
clamp64 (guint64 value)
{
  return MIN (value, (guint64) G_MAXINT64);
}

void
_duel_journal_append_header (GString    *out,
                             const char *journal_id)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (journal_id != NULL);

  g_string_append_printf (out, "%s %d %s\n", DUEL_JOURNAL_FORMAT, DUEL_JOURNAL_VERSION, journal_id);
}

void
_duel_journal_append_test (GString              *out,
                           guint                 test,
                           const DuelTestRecord *record)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  g_return_if_fail (out != NULL);
  g_return_if_fail (record != NULL);

  json_node_take_object (node, _duel_result_test_header_to_json (record));
  /* Not pretty: json-glib escapes newlines in strings, so this is one line. */
  text = json_to_string (node, FALSE);
  g_string_append_printf (out, "test %u %s\n", test, text);
}

void
_duel_journal_append_row (GString             *out,
                          guint                test,
                          guint                index,
                          const DuelSeriesRow *row)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (row != NULL);

  g_string_append_printf (out, "row %u %u %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                          " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " ",
                          test, index, clamp64 (row->t_ms),
                          clamp64 (row->ops[DUEL_DIRECTION_READ]), clamp64 (row->ops[DUEL_DIRECTION_WRITE]),
                          clamp64 (row->bytes[DUEL_DIRECTION_READ]), clamp64 (row->bytes[DUEL_DIRECTION_WRITE]),
                          clamp64 (row->lat_max_ns[DUEL_DIRECTION_READ]),
                          clamp64 (row->lat_max_ns[DUEL_DIRECTION_WRITE]));
  if (isfinite (row->temperature_c))
    {
      char buffer[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append (out, g_ascii_dtostr (buffer, sizeof buffer, row->temperature_c));
    }
  else
    g_string_append (out, "null");
  g_string_append_c (out, '\n');
}

/* " samples min max sum sum_sq n_bins lower:count…": the file's "lat_ns"
 * without what is derived (mean, stddev, percentiles), one bin per bucket
 * in use. Text, not JSON: a state comes every period, and reading it must
 * stay cheap next to reading the rows. */
static void
append_histogram (GString             *out,
                  const DuelHistogram *hist)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  guint n_bins = 0;

  for (guint i = 0; i < DUEL_HISTOGRAM_N_BUCKETS; i++)
    n_bins += hist->buckets[i] != 0;
  g_string_append_printf (out, " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " ",
                          clamp64 (hist->count),
                          hist->count ? clamp64 (hist->min_ns) : 0,
                          hist->count ? clamp64 (hist->max_ns) : 0,
                          clamp64 (hist->sum_ns));
  /* A sum of squares that overflowed cannot be saved either: "null" makes
   * the fold refuse the line, as the loader would refuse the file. */
  if (isfinite (hist->sum_sq_ns))
    g_string_append (out, g_ascii_dtostr (buffer, sizeof buffer, hist->sum_sq_ns));
  else
    g_string_append (out, "null");
  g_string_append_printf (out, " %u", n_bins);
  for (guint i = 0; i < DUEL_HISTOGRAM_N_BUCKETS; i++)
    if (hist->buckets[i] != 0)
      g_string_append_printf (out, " %" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT,
                              duel_histogram_bucket_lower_ns (i), clamp64 (hist->buckets[i]));
}

void
_duel_journal_append_state (GString             *out,
                            guint                test,
                            guint                rows,
                            guint64              runtime_ns,
                            DuelTestStatus       status,
                            const DuelHistogram *read,
                            const DuelHistogram *write)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (read != NULL);
  g_return_if_fail (write != NULL);

  g_string_append_printf (out, "state %u %u %" G_GUINT64_FORMAT " %s",
                          test, rows, clamp64 (runtime_ns), duel_test_status_to_string (status));
  append_histogram (out, read);
  append_histogram (out, write);
  g_string_append_c (out, '\n');
}

/* ---- folding -------------------------------------------------------------- */

DuelJournalFold *
_duel_journal_fold_new (DuelResult *result)
{
  DuelJournalFold *fold;

  g_return_val_if_fail (DUEL_IS_RESULT (result), NULL);

  fold = g_new0 (DuelJournalFold, 1);
  fold->result = result;
  fold->sums = g_array_new (FALSE, TRUE, sizeof (TestSums));
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    fold->scratch[d] = g_new0 (DuelHistogram, 1);
  return fold;
}

void
_duel_journal_fold_free (DuelJournalFold *fold)
{
  if (fold == NULL)
    return;
  g_array_unref (fold->sums);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    g_free (fold->scratch[d]);
  g_free (fold);
}

static DuelJournalLine
invalid (GError     **error,
         const char  *format,
         ...) G_GNUC_PRINTF (2, 3);

static DuelJournalLine
invalid (GError     **error,
         const char  *format,
         ...)
{
  va_list args;

  if (error != NULL && *error == NULL)
    {
      va_start (args, format);
      *error = g_error_new_valist (DUEL_ERROR, DUEL_ERROR_FORMAT, format, args);
      va_end (args);
    }
  return DUEL_JOURNAL_LINE_INVALID;
}

/* Decimal digits at *@p, 0..@max. */
static gboolean
read_digits (const char **p,
             const char  *end,
             guint64      max,
             guint64     *out)
{
  const char *q = *p;
  guint64 value = 0;

  if (q >= end || !g_ascii_isdigit (*q))
    return FALSE;
  while (q < end && g_ascii_isdigit (*q))
    {
      guint digit = (guint) (*q - '0');

      if (value > (max - digit) / 10)
        return FALSE;
      value = value * 10 + digit;
      q++;
    }
  *p = q;
  *out = value;
  return TRUE;
}

/* One space and more to come, or the end of the line. */
static gboolean
read_separator (const char **p,
                const char  *end)
{
  if (*p == end)
    return TRUE;
  if (**p != ' ' || *p + 1 == end)
    return FALSE;
  (*p)++;
  return TRUE;
}

/* A token up to the next space or the end, skipped with its separator. */
static gboolean
read_word (const char **p,
           const char  *end,
           const char **out_start,
           gsize       *out_length)
{
  const char *q = *p;

  while (q < end && *q != ' ')
    q++;
  if (q == *p)
    return FALSE;
  *out_start = *p;
  *out_length = (gsize) (q - *p);
  *p = q;
  return read_separator (p, end);
}

/* A decimal integer 0..@max and its separator. */
static gboolean
read_uint (const char **p,
           const char  *end,
           guint64      max,
           guint64     *out)
{
  return read_digits (p, end, max, out) && read_separator (p, end);
}

static gboolean
read_index (const char **p,
            const char  *end,
            guint       *out)
{
  guint64 value;

  if (!read_uint (p, end, G_MAXUINT, &value))
    return FALSE;
  *out = (guint) value;
  return TRUE;
}

/* The temperature ends the line: "null" or a plausible number, as the file's
 * temperature_c column. */
static gboolean
read_temperature (const char *p,
                  const char *end,
                  double     *out)
{
  char buffer[64];
  char *after = NULL;
  gsize length = (gsize) (end - p);
  double value;

  if (length == 4 && memcmp (p, "null", 4) == 0)
    {
      *out = NAN;
      return TRUE;
    }
  if (length == 0 || length >= sizeof buffer || memchr (p, ' ', length) != NULL)
    return FALSE;
  memcpy (buffer, p, length);
  buffer[length] = '\0';
  if (!g_ascii_isdigit (buffer[0]) && buffer[0] != '-')
    return FALSE;
  value = g_ascii_strtod (buffer, &after);
  if (after != buffer + length || !isfinite (value) || value < -273.15 || value > 1000)
    return FALSE;
  *out = value;
  return TRUE;
}

/* A finite number (a sum of squares) and its separator. */
static gboolean
read_double (const char **p,
             const char  *end,
             double      *out)
{
  char buffer[64];
  char *after = NULL;
  const char *start;
  gsize length;
  double value;

  if (!read_word (p, end, &start, &length) || length >= sizeof buffer ||
      (!g_ascii_isdigit (start[0]) && start[0] != '-'))
    return FALSE;
  memcpy (buffer, start, length);
  buffer[length] = '\0';
  value = g_ascii_strtod (buffer, &after);
  if (after != buffer + length || !isfinite (value))
    return FALSE;
  *out = value;
  return TRUE;
}

/* A histogram as append_histogram() writes it, with the loader's rules
 * for bins (exact bucket boundaries inside the range, sorted, each once)
 * and for totals (duel-result.c). */
static gboolean
read_histogram (const char    **p,
                const char     *end,
                DuelHistogram  *hist,
                const char     *prefix,
                GError        **error)
{
  guint64 n_bins, samples, min, max, sum;
  double sum_sq;
  int previous = -1;

  duel_histogram_init (hist);
  if (!read_uint (p, end, G_MAXINT64, &samples) ||
      !read_uint (p, end, G_MAXINT64, &min) ||
      !read_uint (p, end, G_MAXINT64, &max) ||
      !read_uint (p, end, G_MAXINT64, &sum) ||
      !read_double (p, end, &sum_sq) ||
      !read_uint (p, end, DUEL_HISTOGRAM_N_BUCKETS, &n_bins))
    {
      invalid (error, "%s: not samples, min, max, sum, sum_sq and a bin count", prefix);
      return FALSE;
    }
  for (guint64 i = 0; i < n_bins; i++)
    {
      guint64 lower, count;
      guint index;

      if (!read_digits (p, end, G_MAXINT64, &lower) || *p == end || **p != ':')
        {
          invalid (error, "%s: bin %u is not lower:count", prefix, (guint) i);
          return FALSE;
        }
      (*p)++;
      if (!read_digits (p, end, G_MAXINT64, &count) || !read_separator (p, end))
        {
          invalid (error, "%s: bin %u is not lower:count", prefix, (guint) i);
          return FALSE;
        }
      index = duel_histogram_bucket_index (lower);
      if (lower > duel_histogram_bucket_lower_ns (DUEL_HISTOGRAM_N_BUCKETS - 1) ||
          duel_histogram_bucket_lower_ns (index) != lower || (int) index <= previous)
        {
          invalid (error, "%s: bin %u is not the next bucket boundary", prefix, (guint) i);
          return FALSE;
        }
      previous = (int) index;
      hist->buckets[index] = count;
    }
  hist->count = samples;
  hist->min_ns = min;
  hist->max_ns = max;
  hist->sum_ns = sum;
  hist->sum_sq_ns = sum_sq;
  return _duel_result_check_histogram (hist, prefix, error);
}

/* A JSON object that ends the line, with the loader's pre-scan and its
 * bound on memory. */
static JsonObject *
read_object (const char  *p,
             const char  *end,
             GError     **error)
{
  static const DuelShape keep = { DUEL_SHAPE_KEEP, 0, NULL, NULL, 0, 0, 0, 0 };
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(DuelShaped) shaped = NULL;
  DuelShapeEstimate estimate;
  const char *problem = NULL;

  if (!duel_json_prescan (p, (gsize) (end - p), &problem))
    {
      invalid (error, "the JSON is refused: %s", problem);
      return NULL;
    }
  shaped = _duel_json_shape (p, (gsize) (end - p), &keep, 0);
  _duel_json_shaped_get_estimate (shaped, &estimate);
  if ((guint64) (end - p) + estimate.tree_bytes > _duel_result_memory_budget ((guint64) (end - p), 1))
    {
      invalid (error, "the JSON would take %" G_GUINT64_FORMAT " bytes of memory", estimate.tree_bytes);
      return NULL;
    }
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, p, (gssize) (end - p), error))
    return NULL;
  root = json_parser_steal_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      invalid (error, "the payload is not a JSON object");
      return NULL;
    }
  /* Names, errors and summaries from a journal are shown like the file's:
   * escaped, and names bounded, the same way (duel-text.h). */
  duel_text_make_printable (root);
  return json_node_dup_object (root);
}

/* The loader's rule for a complete test (duel-result.c load_test): its rows
 * end no later than its runtime allows. @last_t_ms: G_MAXUINT64 for no rows. */
static gboolean
rows_fit (DuelTestStatus status,
          guint64        runtime_ns,
          guint32        interval_ms,
          guint64        last_t_ms)
{
  DuelTestRecord view = { .runtime_ns = runtime_ns };

  if (status != DUEL_TEST_STATUS_COMPLETE || runtime_ns == 0 || last_t_ms == G_MAXUINT64)
    return TRUE;
  view.workload.interval_ms = interval_ms;
  return last_t_ms <= duel_test_record_latest_row_ms (&view);
}

static guint64
last_t_ms (const DuelTestRecord *record)
{
  guint n = duel_series_get_length (record->series);

  return n > 0 ? duel_series_get_row (record->series, n - 1)->t_ms : G_MAXUINT64;
}

static TestSums *
sums_for (DuelJournalFold      *fold,
          guint                 test,
          const DuelTestRecord *record)
{
  TestSums *sums;
  guint n = duel_series_get_length (record->series);

  if (fold->sums->len <= test)
    g_array_set_size (fold->sums, test + 1);
  sums = &g_array_index (fold->sums, TestSums, test);
  /* Computed once per test; the fold is what appends afterwards. */
  if (!sums->valid || sums->rows != n)
    {
      const DuelSeriesRow *rows = duel_series_get_rows (record->series);

      memset (sums, 0, sizeof *sums);
      for (guint i = 0; i < n; i++)
        for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
          {
            sums->ops[d] += rows[i].ops[d];
            sums->bytes[d] += rows[i].bytes[d];
          }
      sums->rows = n;
      sums->valid = TRUE;
    }
  return sums;
}

static DuelTestRecord *
test_at (DuelJournalFold *fold,
         guint            test)
{
  GPtrArray *tests = duel_result_get_tests (fold->result);

  return test < tests->len ? g_ptr_array_index (tests, test) : NULL;
}

/* "row TEST INDEX t_ms read_ops write_ops read_bytes write_bytes
 * read_lat_max_ns write_lat_max_ns temperature_c" */
static DuelJournalLine
fold_row (DuelJournalFold  *fold,
          const char       *p,
          const char       *end,
          GError          **error)
{
  guint64 *fields[] = { NULL, NULL, NULL, NULL, NULL, NULL, NULL };
  DuelSeriesRow row = { 0, };
  DuelTestRecord *record;
  TestSums *sums;
  guint test, index, n;
  guint64 ops[DUEL_N_DIRECTIONS], bytes[DUEL_N_DIRECTIONS];

  fields[0] = &row.t_ms;
  fields[1] = &row.ops[DUEL_DIRECTION_READ];
  fields[2] = &row.ops[DUEL_DIRECTION_WRITE];
  fields[3] = &row.bytes[DUEL_DIRECTION_READ];
  fields[4] = &row.bytes[DUEL_DIRECTION_WRITE];
  fields[5] = &row.lat_max_ns[DUEL_DIRECTION_READ];
  fields[6] = &row.lat_max_ns[DUEL_DIRECTION_WRITE];

  if (!read_index (&p, end, &test) || !read_index (&p, end, &index))
    return invalid (error, "a row without its test and row index");
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (!read_uint (&p, end, G_MAXINT64, fields[i]))
      return invalid (error, "row %u of test %u: field %u is not an integer", index, test, i + 1);
  if (!read_temperature (p, end, &row.temperature_c))
    return invalid (error, "row %u of test %u: no plausible temperature", index, test);

  record = test_at (fold, test);
  if (record == NULL)
    return invalid (error, "a row of test %u, which does not exist", test);
  n = duel_series_get_length (record->series);
  if (index < n)
    return DUEL_JOURNAL_LINE_KNOWN;
  if (index > n)
    return invalid (error, "row %u of test %u, which has %u rows", index, test, n);

  if (n > 0 && row.t_ms <= duel_series_get_row (record->series, n - 1)->t_ms)
    return invalid (error, "row %u of test %u does not come after the one before", index, test);
  sums = sums_for (fold, test, record);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      guint64 max_bytes;

      if (__builtin_mul_overflow (row.ops[d], (guint64) DUEL_WORKLOAD_MAX_BLOCK_SIZE, &max_bytes))
        max_bytes = G_MAXUINT64;
      if (row.bytes[d] > max_bytes)
        return invalid (error, "row %u of test %u moves more than 64 MiB per I/O", index, test);
      /* Totals are written as int64: keep the sums within it. */
      if (__builtin_add_overflow (sums->ops[d], row.ops[d], &ops[d]) || ops[d] > G_MAXINT64 ||
          __builtin_add_overflow (sums->bytes[d], row.bytes[d], &bytes[d]) || bytes[d] > G_MAXINT64)
        return invalid (error, "row %u of test %u makes the totals overflow", index, test);
    }
  if (!rows_fit (record->status, record->runtime_ns, record->workload.interval_ms, row.t_ms))
    return invalid (error, "row %u of test %u ends after the complete test's runtime", index, test);
  if (!duel_test_record_rows_span_fits (n + 1, record->workload.interval_ms, row.t_ms))
    return invalid (error, "row %u of test %u is far later than %u rows can span", index, test, n + 1);

  duel_series_append (record->series, &row);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      sums->ops[d] = ops[d];
      sums->bytes[d] = bytes[d];
    }
  sums->rows = n + 1;
  return DUEL_JOURNAL_LINE_FOLDED;
}

/* "state TEST ROWS RUNTIME_NS STATUS READ WRITE": taken when the test had
 * ROWS rows, so it belongs exactly after them. */
static DuelJournalLine
fold_state (DuelJournalFold  *fold,
            const char       *p,
            const char       *end,
            GError          **error)
{
  DuelTestRecord *record;
  DuelTestStatus status;
  g_autofree char *status_text = NULL;
  const char *word;
  gsize word_length;
  guint test, rows, n;
  guint64 runtime_ns = 0;

  if (!read_index (&p, end, &test) || !read_index (&p, end, &rows))
    return invalid (error, "a state without its test and row count");
  record = test_at (fold, test);
  if (record == NULL)
    return invalid (error, "a state of test %u, which does not exist", test);
  n = duel_series_get_length (record->series);
  if (rows < n)
    return DUEL_JOURNAL_LINE_KNOWN;
  if (rows > n)
    return invalid (error, "a state of test %u after %u rows, but it has %u", test, rows, n);

  if (!read_uint (&p, end, G_MAXINT64, &runtime_ns))
    return invalid (error, "a state of test %u without its runtime", test);
  if (!read_word (&p, end, &word, &word_length) ||
      !duel_test_status_from_string ((status_text = g_strndup (word, word_length)), &status))
    return invalid (error, "a state of test %u without a status", test);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      g_autofree char *prefix = g_strdup_printf ("tests[%u].%s", test, direction_names[d]);

      if (!read_histogram (&p, end, fold->scratch[d], prefix, error))
        return DUEL_JOURNAL_LINE_INVALID;
    }
  if (p != end)
    return invalid (error, "a state of test %u with more after its histograms", test);
  if (!rows_fit (status, runtime_ns, record->workload.interval_ms, last_t_ms (record)))
    return invalid (error, "a state of test %u whose runtime ends before its rows", test);

  record->runtime_ns = runtime_ns;
  record->status = status;
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    memcpy (record->latency[d], fold->scratch[d], sizeof (DuelHistogram));
  return DUEL_JOURNAL_LINE_FOLDED;
}

/* "test TEST {name, preset, status, error, started, params, interval_ms,
 * summary}": a test that appeared, or what changed in one (its status, its
 * resolved span, its summary). */
static DuelJournalLine
fold_test (DuelJournalFold  *fold,
           const char       *p,
           const char       *end,
           GError          **error)
{
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(DuelTestRecord) header = NULL;
  GPtrArray *tests = duel_result_get_tests (fold->result);
  DuelTestRecord *record;
  guint test;

  if (!read_index (&p, end, &test))
    return invalid (error, "a test without its index");
  if (test > tests->len || test >= DUEL_RESULT_MAX_TESTS)
    return invalid (error, "test %u, but there are %u", test, tests->len);
  object = read_object (p, end, error);
  if (object == NULL)
    return DUEL_JOURNAL_LINE_INVALID;
  header = _duel_result_test_header_from_json (object, test, duel_result_get_target (fold->result), error);
  if (header == NULL)
    return DUEL_JOURNAL_LINE_INVALID;

  if (test == tests->len)
    {
      g_ptr_array_add (tests, g_steal_pointer (&header));
      return DUEL_JOURNAL_LINE_FOLDED;
    }

  record = g_ptr_array_index (tests, test);
  if (!rows_fit (header->status, record->runtime_ns, header->workload.interval_ms, last_t_ms (record)))
    return invalid (error, "test %u would be complete with rows after its runtime", test);
  /* What the test is comes from the line; what it measured stays. */
  g_free (record->name);
  record->name = g_steal_pointer (&header->name);
  g_free (record->preset);
  record->preset = g_steal_pointer (&header->preset);
  record->workload = header->workload;
  record->span_offset = header->span_offset;
  record->span_length = header->span_length;
  record->byte_limit = header->byte_limit;
  record->trimmed = header->trimmed;
  record->latency_kind = header->latency_kind;
  g_clear_pointer (&record->started, g_date_time_unref);
  record->started = g_steal_pointer (&header->started);
  record->status = header->status;
  g_free (record->error_message);
  record->error_message = g_steal_pointer (&header->error_message);
  g_clear_pointer (&record->summary, json_object_unref);
  g_clear_pointer (&record->typed_summary, g_bytes_unref);
  record->summary = g_steal_pointer (&header->summary);
  g_clear_pointer (&record->pauses, g_array_unref);
  record->pauses = g_steal_pointer (&header->pauses);
  return DUEL_JOURNAL_LINE_FOLDED;
}

DuelJournalLine
_duel_journal_fold_line (DuelJournalFold  *fold,
                         const char       *line,
                         gsize             length,
                         GError          **error)
{
  const char *end = line + length;

  g_return_val_if_fail (fold != NULL, DUEL_JOURNAL_LINE_INVALID);
  g_return_val_if_fail (line != NULL || length == 0, DUEL_JOURNAL_LINE_INVALID);

  if (length == 0 || memchr (line, '\n', length) != NULL || memchr (line, '\0', length) != NULL)
    return invalid (error, "not one line of text");
  if (length > 4 && memcmp (line, "row ", 4) == 0)
    return fold_row (fold, line + 4, end, error);
  if (length > 6 && memcmp (line, "state ", 6) == 0)
    return fold_state (fold, line + 6, end, error);
  if (length > 5 && memcmp (line, "test ", 5) == 0)
    return fold_test (fold, line + 5, end, error);
  return invalid (error, "an unknown kind of line");
}

gboolean
_duel_journal_fold_data (DuelResult *result,
                         const char *data,
                         gsize       length,
                         guint      *out_folded)
{
  g_autoptr(DuelJournalFold) fold = NULL;
  g_autoptr(GString) header = g_string_new (NULL);
  const char *journal_id, *p, *end, *valid_end = NULL;
  guint folded = 0, line_number = 1;

  g_return_val_if_fail (DUEL_IS_RESULT (result), FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (out_folded != NULL)
    *out_folded = 0;
  journal_id = duel_result_get_journal_id (result);
  if (journal_id == NULL)
    return FALSE;
  /* The header, whole, names this file's journal; anything else (another
   * run's journal, a newer format, a torn header) is not folded. */
  _duel_journal_append_header (header, journal_id);
  if (length < header->len || memcmp (data, header->str, header->len) != 0)
    {
      g_debug ("The journal does not belong to this result (journal_id %s)", journal_id);
      return FALSE;
    }

  /* Text up to the first byte that is not UTF-8 (a NUL included). */
  p = data + header->len;
  end = data + length;
  if (!g_utf8_validate_len (p, (gsize) (end - p), &valid_end))
    end = valid_end;

  fold = _duel_journal_fold_new (result);
  while (p < end)
    {
      g_autoptr(GError) error = NULL;
      const char *newline = memchr (p, '\n', (gsize) (end - p));
      DuelJournalLine kind;

      /* A torn last line: the writer was stopped mid-write. */
      if (newline == NULL)
        break;
      line_number++;
      kind = _duel_journal_fold_line (fold, p, (gsize) (newline - p), &error);
      if (kind == DUEL_JOURNAL_LINE_INVALID)
        {
          g_debug ("The journal stops being foldable at line %u: %s", line_number,
                   error != NULL ? error->message : "invalid");
          break;
        }
      if (kind == DUEL_JOURNAL_LINE_FOLDED)
        folded++;
      p = newline + 1;
    }

  if (out_folded != NULL)
    *out_folded = folded;
  return TRUE;
}
