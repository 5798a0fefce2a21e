/* duel-series-columns.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "duel-series-columns-private.h"

#define MAX_COLUMNS 16
/* duel_json_prescan() allows no more. */
#define MAX_DEPTH   256

typedef struct
{
  gpointer values[MAX_COLUMNS];   /* guint64 or double, n[c] of them */
  gsize    n[MAX_COLUMNS];
  gboolean taken[MAX_COLUMNS];
} TestColumns;

/* What an empty column's values point at. */
static const guint64 no_uints[1];
static const double no_doubles[1];

/* Where a column taken was: [start, end) of the file's text; @rest_start
 * is where its `null` is in the rest. */
typedef struct
{
  gsize start;
  gsize end;
  gsize rest_start;
} Span;

struct _DuelSeriesColumns
{
  GPtrArray *tests;               /* (element-type TestColumns) by test index, NULL: none taken */
  guint      double_column;
  GArray    *spans;               /* Span, in order */
};

/* Where a container sits on the path tests[i].series.NAME. */
typedef enum
{
  ROLE_OTHER,
  ROLE_ROOT,
  ROLE_TESTS,
  ROLE_TEST,
  ROLE_SERIES,
} Role;

/* Keys that matter on the path; a column's key is its index (0 and up). */
enum
{
  KEY_OTHER = -1,
  KEY_TESTS = -2,
  KEY_SERIES = -3,
};

typedef struct
{
  Role     role;
  gboolean is_object;
  gboolean expect_key;
  int      key;                   /* objects: the key of the value to come */
  guint32  seen;                  /* objects: the path's keys met so far, as bits */
  guint    index;                 /* arrays: values begun so far */
  guint    test;                  /* ROLE_TEST, ROLE_SERIES: which test */
} Frame;

static void
test_columns_free (gpointer data)
{
  TestColumns *test = data;

  if (test == NULL)
    return;
  for (guint c = 0; c < MAX_COLUMNS; c++)
    g_free (test->values[c]);
  g_free (test);
}

void
_duel_series_columns_free (DuelSeriesColumns *columns)
{
  if (columns == NULL)
    return;
  g_ptr_array_unref (columns->tests);
  g_clear_pointer (&columns->spans, g_array_unref);
  g_free (columns);
}

static inline gboolean
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline gsize
skip_space (const char *data,
            gsize       length,
            gsize       i)
{
  while (i < length && is_space (data[i]))
    i++;
  return i;
}

/* An integer as JSON writes it, 0 to 2^63-1: "0" or a digit 1–9 and more
 * digits. Returns the index after it, 0 when there is none. */
static gsize
scan_uint (const char *data,
           gsize       length,
           gsize       i,
           guint64    *out_value)
{
  guint64 value = 0;
  gsize start = i;

  if (i < length && data[i] == '0')
    {
      *out_value = 0;
      return i + 1 < length && g_ascii_isdigit (data[i + 1]) ? 0 : i + 1;
    }
  while (i < length && g_ascii_isdigit (data[i]))
    {
      guint digit = (guint) (data[i] - '0');

      if (value > ((guint64) G_MAXINT64 - digit) / 10)
        return 0;
      value = value * 10 + digit;
      i++;
    }
  *out_value = value;
  return i > start ? i : 0;
}

/* A JSON number (RFC 8259 grammar) or null (NAN). Returns the index after
 * it, 0 when there is none. */
static gsize
scan_number_or_null (const char *data,
                     gsize       length,
                     gsize       i,
                     double     *out_value)
{
  gsize start = i;
  char buffer[64];

  if (length - i >= 4 && memcmp (data + i, "null", 4) == 0)
    {
      *out_value = NAN;
      return i + 4;
    }
  if (i < length && data[i] == '-')
    i++;
  if (i < length && data[i] == '0')
    i++;
  else if (i < length && data[i] >= '1' && data[i] <= '9')
    while (i < length && g_ascii_isdigit (data[i]))
      i++;
  else
    return 0;
  if (i < length && data[i] == '.')
    {
      gsize digits = ++i;

      while (i < length && g_ascii_isdigit (data[i]))
        i++;
      if (i == digits)
        return 0;
    }
  if (i < length && (data[i] == 'e' || data[i] == 'E'))
    {
      gsize digits;

      i++;
      if (i < length && (data[i] == '+' || data[i] == '-'))
        i++;
      digits = i;
      while (i < length && g_ascii_isdigit (data[i]))
        i++;
      if (i == digits)
        return 0;
    }
  if (i - start >= sizeof buffer)
    return 0;
  memcpy (buffer, data + start, i - start);
  buffer[i - start] = '\0';
  *out_value = g_ascii_strtod (buffer, NULL);
  return i;
}

/* The array at @data[@start] ('['), when it holds only values of the
 * column's kind: their count in *@out_n and the index after ']' as the
 * return value (0: not such an array). With @values, they are stored. */
static gsize
scan_column (const char *data,
             gsize       length,
             gsize       start,
             gboolean    is_double,
             gpointer    values,
             gsize      *out_n)
{
  gsize i = skip_space (data, length, start + 1);
  gsize n = 0;

  if (i < length && data[i] == ']')
    {
      *out_n = 0;
      return i + 1;
    }
  for (;;)
    {
      gsize next;

      if (is_double)
        {
          double value;

          next = scan_number_or_null (data, length, i, &value);
          if (next != 0 && values != NULL)
            ((double *) values)[n] = value;
        }
      else
        {
          guint64 value;

          next = scan_uint (data, length, i, &value);
          if (next != 0 && values != NULL)
            ((guint64 *) values)[n] = value;
        }
      if (next == 0)
        return 0;
      n++;
      i = skip_space (data, length, next);
      if (i >= length)
        return 0;
      if (data[i] == ']')
        break;
      if (data[i] != ',')
        return 0;
      i = skip_space (data, length, i + 1);
    }
  *out_n = n;
  return i + 1;
}

static int
key_id (const Frame        *frame,
        const char         *key,
        gsize               key_length,
        const char * const *names,
        guint               n_names)
{
  switch (frame->role)
    {
    case ROLE_ROOT:
      return key_length == 5 && memcmp (key, "tests", 5) == 0 ? KEY_TESTS : KEY_OTHER;
    case ROLE_TEST:
      return key_length == 6 && memcmp (key, "series", 6) == 0 ? KEY_SERIES : KEY_OTHER;
    case ROLE_SERIES:
      for (guint c = 0; c < n_names; c++)
        if (strlen (names[c]) == key_length && memcmp (key, names[c], key_length) == 0)
          return (int) c;
      return KEY_OTHER;
    case ROLE_OTHER:
    case ROLE_TESTS:
    default:
      return KEY_OTHER;
    }
}

static guint32
key_bit (int key)
{
  return key >= 0 ? 1u << key : key == KEY_TESTS ? 1u << 30 : 1u << 31;
}

/* @start is preceded by `"…":`, white space aside. */
static gboolean
follows_key (const char *data,
             gsize       start)
{
  gsize i = start;

  while (i > 0 && is_space (data[i - 1]))
    i--;
  if (i == 0 || data[i - 1] != ':')
    return FALSE;
  i--;
  while (i > 0 && is_space (data[i - 1]))
    i--;
  return i > 0 && data[i - 1] == '"';
}

/* @end is followed by , or }, white space aside. */
static gboolean
before_more (const char *data,
             gsize       length,
             gsize       end)
{
  gsize i = skip_space (data, length, end);

  return i < length && (data[i] == ',' || data[i] == '}');
}

/* Takes the column at @data[@start] for @frame's test, if it is one.
 * Returns the index after it, 0 when it stays in the text; sets
 * *@out_twice when the test has that column already (text that is not
 * JSON, e.g. two values after one key: the tree will refuse it). */
static gsize
take_column (DuelSeriesColumns *self,
             const Frame       *frame,
             const char        *data,
             gsize              length,
             gsize              start,
             gboolean          *out_twice)
{
  gboolean is_double = (guint) frame->key == self->double_column;
  TestColumns *test;
  gpointer values;
  gsize n = 0, end;

  end = scan_column (data, length, start, is_double, NULL, &n);
  /* `null` must fit where the array was: "[]" and "[7]" stay in the text. */
  if (end == 0 || end - start < 4)
    return 0;
  /* Only where json-glib reads the array as that key's value and goes on
   * past it ("KEY": [ … ] then , or }): a parse error then never falls on
   * the array or right after it, where json-glib would name `null`
   * instead of what the file holds. */
  if (!follows_key (data, start) || !before_more (data, length, end))
    return 0;
  test = frame->test < self->tests->len ? g_ptr_array_index (self->tests, frame->test) : NULL;
  if (test != NULL && test->taken[frame->key])
    {
      *out_twice = TRUE;
      return 0;
    }
  values = n > 0 ? g_malloc_n (n, is_double ? sizeof (double) : sizeof (guint64)) : NULL;
  scan_column (data, length, start, is_double, values, &n);

  if (frame->test >= self->tests->len)
    g_ptr_array_set_size (self->tests, frame->test + 1);
  test = g_ptr_array_index (self->tests, frame->test);
  if (test == NULL)
    {
      test = g_new0 (TestColumns, 1);
      g_ptr_array_index (self->tests, frame->test) = test;
    }
  test->values[frame->key] = values;
  test->n[frame->key] = n;
  test->taken[frame->key] = TRUE;
  return end;
}


DuelSeriesColumns *
_duel_series_columns_extract (const char         *data,
                              gsize               length,
                              const char * const *names,
                              guint               n_names,
                              guint               double_column,
                              char              **out_text,
                              gsize              *out_length)
{
  g_autoptr(DuelSeriesColumns) self = g_new0 (DuelSeriesColumns, 1);
  g_autoptr(GString) out = NULL;
  Frame stack[MAX_DEPTH + 1];
  guint depth = 0;
  gsize copied = 0;

  g_return_val_if_fail (n_names <= MAX_COLUMNS, NULL);

  *out_text = NULL;
  *out_length = 0;
  self->tests = g_ptr_array_new_with_free_func (test_columns_free);
  self->double_column = double_column;
  self->spans = g_array_new (FALSE, FALSE, sizeof (Span));

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];
      Frame *top = depth > 0 ? &stack[depth - 1] : NULL;

      if (is_space (c) || c == ':')
        continue;
      if (c == ',')
        {
          if (top != NULL && top->is_object)
            top->expect_key = TRUE;
          continue;
        }
      if (c == '}' || c == ']')
        {
          if (depth > 0)
            depth--;
          continue;
        }
      if (c == '"')
        {
          gsize start = ++i;
          gboolean escaped = FALSE;

          for (; i < length && data[i] != '"'; i++)
            if (data[i] == '\\')
              escaped = TRUE, i++;
          if (top != NULL && top->is_object && top->expect_key)
            {
              int key;

              /* "t\u005fms" is "t_ms" to json-glib: on the path, only
               * keys this scan reads as the tree will. */
              if (escaped && top->role != ROLE_OTHER)
                return NULL;
              key = key_id (top, data + start, i - start, names, n_names);
              if (key != KEY_OTHER)
                {
                  /* A key twice: the tree keeps one of them; let it decide. */
                  if (top->seen & key_bit (key))
                    return NULL;
                  top->seen |= key_bit (key);
                }
              top->key = key;
              top->expect_key = FALSE;
            }
          else if (top != NULL && !top->is_object)
            top->index++;
          continue;
        }
      if (c == '{' || c == '[')
        {
          Frame frame = { ROLE_OTHER, c == '{', c == '{', KEY_OTHER, 0, 0, 0 };

          if (top == NULL)
            frame.role = c == '{' ? ROLE_ROOT : ROLE_OTHER;
          else if (top->role == ROLE_ROOT && top->key == KEY_TESTS && c == '[')
            frame.role = ROLE_TESTS;
          else if (top->role == ROLE_TESTS && c == '{')
            frame.role = ROLE_TEST, frame.test = top->index;
          else if (top->role == ROLE_TEST && top->key == KEY_SERIES && c == '{')
            frame.role = ROLE_SERIES, frame.test = top->test;
          else if (top->role == ROLE_SERIES && top->key >= 0 && c == '[')
            {
              gboolean twice = FALSE;
              gsize end = take_column (self, top, data, length, i, &twice);

              if (twice)
                return NULL;
              if (end != 0)
                {
                  Span span = { i, end, 0 };

                  g_array_append_val (self->spans, span);
                  i = end - 1;
                  continue;
                }
            }
          if (top != NULL && !top->is_object)
            top->index++;
          if (depth == MAX_DEPTH)
            return NULL;
          stack[depth++] = frame;
          continue;
        }
      /* A number, true, false or null: one value, to its end. */
      if (top != NULL && !top->is_object)
        top->index++;
      while (i + 1 < length && !is_space (data[i + 1]) && data[i + 1] != ',' &&
             data[i + 1] != ']' && data[i + 1] != '}')
        i++;
    }

  if (self->spans->len == 0)
    return NULL;
  /* The rest: the text with `null` for each column taken. */
  out = g_string_sized_new (MIN (length, 1 << 20));
  for (guint k = 0; k < self->spans->len; k++)
    {
      Span *span = &g_array_index (self->spans, Span, k);

      g_string_append_len (out, data + copied, (gssize) (span->start - copied));
      span->rest_start = out->len;
      g_string_append (out, "null");
      copied = span->end;
    }
  g_string_append_len (out, data + copied, (gssize) (length - copied));
  *out_length = out->len;
  *out_text = g_string_free (g_steal_pointer (&out), FALSE);
  return g_steal_pointer (&self);
}

static TestColumns *
get_test (DuelSeriesColumns *self,
          guint              test,
          guint              column)
{
  TestColumns *columns;

  if (self == NULL || test >= self->tests->len || column >= MAX_COLUMNS)
    return NULL;
  columns = g_ptr_array_index (self->tests, test);
  return columns != NULL && columns->taken[column] ? columns : NULL;
}

const guint64 *
_duel_series_columns_get_uint (DuelSeriesColumns *self,
                               guint              test,
                               guint              column,
                               gsize             *out_n)
{
  TestColumns *columns = get_test (self, test, column);

  if (columns == NULL || column == self->double_column)
    return NULL;
  *out_n = columns->n[column];
  /* An empty column is taken, with no values. */
  return columns->values[column] != NULL ? columns->values[column] : no_uints;
}

const double *
_duel_series_columns_get_double (DuelSeriesColumns *self,
                                 guint              test,
                                 guint              column,
                                 gsize             *out_n)
{
  TestColumns *columns = get_test (self, test, column);

  if (columns == NULL || column != self->double_column)
    return NULL;
  *out_n = columns->n[column];
  return columns->values[column] != NULL ? columns->values[column] : no_doubles;
}

void
_duel_series_columns_release (DuelSeriesColumns *self,
                              guint              test)
{
  if (self == NULL || test >= self->tests->len)
    return;
  test_columns_free (g_ptr_array_index (self->tests, test));
  g_ptr_array_index (self->tests, test) = NULL;
}

/* The line (from 1) and the byte offset in it of @offset in @text. */
static void
line_of (const char *text,
         gsize       offset,
         guint      *out_line,
         gsize      *out_line_start)
{
  guint line = 1;
  gsize start = 0;

  for (gsize i = 0; i < offset; i++)
    if (text[i] == '\n')
      line++, start = i + 1;
  *out_line = line;
  *out_line_start = start;
}

char *
_duel_series_columns_map_error (DuelSeriesColumns *self,
                                const char        *data,
                                gsize              length,
                                const char        *rest,
                                gsize              rest_length,
                                const char        *message)
{
  guint64 line, column;
  const char *p;
  char *end;
  gsize offset = 0, line_start, original;
  guint original_line, n = 1;

  g_return_val_if_fail (self != NULL, NULL);

  /* json-glib: "<data>:LINE:COLUMN: Parse error: …", COLUMN in bytes. */
  if (!g_str_has_prefix (message, "<data>:"))
    return NULL;
  p = message + strlen ("<data>:");
  line = g_ascii_strtoull (p, &end, 10);
  if (end == p || *end != ':' || line == 0)
    return NULL;
  p = end + 1;
  column = g_ascii_strtoull (p, &end, 10);
  if (end == p || *end != ':')
    return NULL;

  /* Where that is in the rest… */
  for (; offset < rest_length && n < line; offset++)
    if (rest[offset] == '\n')
      n++;
  if (n < line)
    return NULL;
  line_start = offset;
  /* At the end of the text json-glib counts one past it. */
  offset = line_start + column;
  /* …and in the file: each column taken before it is longer than its null. */
  original = offset;
  for (guint k = 0; k < self->spans->len; k++)
    {
      const Span *span = &g_array_index (self->spans, Span, k);

      if (span->rest_start + 4 > offset)
        break;
      original += (span->end - span->start) - 4;
    }
  if (original > length + 1)
    return NULL;
  line_of (data, MIN (original, length), &original_line, &line_start);
  return g_strdup_printf ("<data>:%u:%" G_GSIZE_FORMAT "%s", original_line, original - line_start, end);
}
