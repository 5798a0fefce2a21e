/* duel-json-shape.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "duel-json-shape-private.h"

/* duel_json_prescan() allows no more. */
#define MAX_DEPTH   256
#define MAX_TAKES   16
/* Known names are short: a key longer than this is none of them. */
#define MAX_KEY     64

/* What json-glib 1.6 spends on a node (measured in a fresh process:
 * 82 bytes for a number in an array, 114 for a short string, 118 for an
 * empty array, 301 for an empty object, 184 for a member holding a
 * number, 555 for {"a":1}), rounded up so that the estimate bounds it. A
 * string takes its length twice while it is read, and up to four times
 * more when it is escaped (duel_text_make_printable()). */
#define COST_VALUE   96
#define COST_STRING  128
#define COST_ARRAY   128
#define COST_OBJECT  336
#define COST_MEMBER  128
#define COST_SLOT    16

typedef struct
{
  gpointer values;   /* a table: its rows, n of them, exactly (g_malloc) */
  gsize    n;
  gboolean taken;
  guint32  fields;   /* a table: the fields filled */
} Take;

typedef struct
{
  Take takes[MAX_TAKES];
} IndexTakes;

/* A value cut or taken: [start, end) of the file; its stand-in ("null" or
 * "{}") is at rest_start in the rest. */
typedef struct
{
  gsize       start;
  gsize       end;
  gsize       rest_start;
  const char *stand_in;
} Span;

struct _DuelShaped
{
  const char       *data;         /* the text, until the rest is made */
  gsize             length;
  guint64           take_limit;
  char             *rest;
  gsize             rest_length;
  GArray           *spans;        /* Span, in order */
  GPtrArray        *takes;        /* IndexTakes by index, NULL: none */
  DuelShapeEstimate estimate;
  GString          *region;       /* the path the costs go to now */
  guint64           region_cost;
  GString          *max_region;
  GString          *element;      /* "tests[3]": the indexed element we are in */
};

typedef struct
{
  const DuelShape *shape;         /* never NULL: a KEEP shape for what is kept */
  gboolean         is_object;
  gboolean         expect_key;
  const DuelShape *member;        /* objects: the shape of the value to come, NULL: unknown */
  int              member_index;  /* its index in the shape's members, -1: none */
  guint32          seen;          /* objects: members met so far that lead somewhere */
  guint            index;         /* arrays: values begun */
  guint            take_index;    /* the innermost indexed element's index */
  gboolean         indexed_element;
  gsize            key_start;     /* the raw key of the value to come */
  gsize            key_length;
} Frame;

static const DuelShape keep_shape = { DUEL_SHAPE_KEEP, DUEL_SHAPE_FLAGS_NONE, NULL, NULL, 0 };

static void
index_takes_free (gpointer data)
{
  IndexTakes *takes = data;

  if (takes == NULL)
    return;
  for (guint i = 0; i < MAX_TAKES; i++)
    {
      g_free (takes->takes[i].values);
    }
  g_free (takes);
}

static inline gboolean
is_field (DuelShapeKind kind)
{
  return kind == DUEL_SHAPE_UINT_FIELD || kind == DUEL_SHAPE_NUMBER_FIELD;
}

/* A field kind's element, as the array kind it is read as. */
static inline DuelShapeKind
element_kind (DuelShapeKind kind)
{
  return kind == DUEL_SHAPE_UINT_FIELD ? DUEL_SHAPE_UINTS : kind == DUEL_SHAPE_NUMBER_FIELD ? DUEL_SHAPE_NUMBERS : kind;
}

void
_duel_json_shaped_free (DuelShaped *self)
{
  if (self == NULL)
    return;
  g_free (self->rest);
  g_array_unref (self->spans);
  g_ptr_array_unref (self->takes);
  g_string_free (self->region, TRUE);
  g_string_free (self->max_region, TRUE);
  g_string_free (self->element, TRUE);
  g_free (self);
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

/* Four hex digits at @at (the pre-scan made sure they are there). */
static guint
hex4 (const char *data,
      gsize       length,
      gsize       at)
{
  guint value = 0;

  for (gsize k = at; k < at + 4 && k < length; k++)
    value = value * 16 + (guint) MAX (g_ascii_xdigit_value (data[k]), 0);
  return value;
}

/* ---- strict JSON: what is cut must be JSON as RFC 8259 has it ------------ */

/* The string at @data[@i] ('"'): the index after its closing quote, 0 when
 * it is not a JSON string (a raw control character, an unknown escape). */
static gsize
strict_string (const char *data,
               gsize       length,
               gsize       i)
{
  for (i++; i < length; )
    {
      guchar c = (guchar) data[i];

      if (c == '"')
        return i + 1;
      if (c < 0x20)
        return 0;
      if (c != '\\')
        {
          i++;
          continue;
        }
      if (i + 1 >= length)
        return 0;
      switch (data[i + 1])
        {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
          i += 2;
          break;
        case 'u':
          for (gsize k = i + 2; k < i + 6; k++)
            if (k >= length || !g_ascii_isxdigit (data[k]))
              return 0;
          i += 6;
          break;
        default:
          return 0;
        }
    }
  return 0;
}

/* A number as RFC 8259 writes it: the index after it, 0 when there is none. */
static gsize
strict_number (const char *data,
               gsize       length,
               gsize       i)
{
  gsize digits;

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
      digits = ++i;
      while (i < length && g_ascii_isdigit (data[i]))
        i++;
      if (i == digits)
        return 0;
    }
  if (i < length && (data[i] == 'e' || data[i] == 'E'))
    {
      i++;
      if (i < length && (data[i] == '+' || data[i] == '-'))
        i++;
      digits = i;
      while (i < length && g_ascii_isdigit (data[i]))
        i++;
      if (i == digits)
        return 0;
    }
  return i;
}

static gsize
strict_scalar (const char *data,
               gsize       length,
               gsize       i)
{
  static const char * const literals[] = { "true", "false", "null" };

  for (guint k = 0; k < G_N_ELEMENTS (literals); k++)
    {
      gsize n = strlen (literals[k]);

      if (length - i >= n && memcmp (data + i, literals[k], n) == 0)
        return i + n;
    }
  return strict_number (data, length, i);
}

/* The value at @data[@i] (white space before it skipped): the index after
 * it, 0 when it is not one JSON value as RFC 8259 has it. */
static gsize
skip_value (const char *data,
            gsize       length,
            gsize       i)
{
  char closers[MAX_DEPTH + 1];
  guint depth = 0;

  for (;;)
    {
      i = skip_space (data, length, i);
      if (i >= length)
        return 0;
      if (data[i] == '{' || data[i] == '[')
        {
          char closer = data[i] == '{' ? '}' : ']';

          i = skip_space (data, length, i + 1);
          if (i < length && data[i] == closer)
            i++;
          else
            {
              if (depth == MAX_DEPTH)
                return 0;
              closers[depth++] = closer;
              if (closer == '}')
                {
                  if (i >= length || data[i] != '"' || (i = strict_string (data, length, i)) == 0)
                    return 0;
                  i = skip_space (data, length, i);
                  if (i >= length || data[i] != ':')
                    return 0;
                  i++;
                }
              continue;
            }
        }
      else if (data[i] == '"')
        {
          if ((i = strict_string (data, length, i)) == 0)
            return 0;
        }
      else if ((i = strict_scalar (data, length, i)) == 0)
        return 0;

      /* After a value: close what ends here, then the next value. */
      for (;;)
        {
          if (depth == 0)
            return i;
          i = skip_space (data, length, i);
          if (i >= length)
            return 0;
          if (data[i] == closers[depth - 1])
            {
              depth--;
              i++;
              continue;
            }
          if (data[i] != ',')
            return 0;
          i = skip_space (data, length, i + 1);
          if (closers[depth - 1] == '}')
            {
              if (i >= length || data[i] != '"' || (i = strict_string (data, length, i)) == 0)
                return 0;
              i = skip_space (data, length, i);
              if (i >= length || data[i] != ':')
                return 0;
              i++;
            }
          break;
        }
    }
}

/* ---- taking ---------------------------------------------------------------- */

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

/* A JSON number or null (NAN): the index after it, 0 when there is none. */
static gsize
scan_number_or_null (const char *data,
                     gsize       length,
                     gsize       i,
                     double     *out_value)
{
  char buffer[64];
  gsize end;

  if (length - i >= 4 && memcmp (data + i, "null", 4) == 0)
    {
      *out_value = NAN;
      return i + 4;
    }
  end = strict_number (data, length, i);
  if (end == 0 || end - i >= sizeof buffer)
    return 0;
  memcpy (buffer, data + i, end - i);
  buffer[end - i] = '\0';
  *out_value = g_ascii_strtod (buffer, NULL);
  return end;
}

/* One element of a taken array at @i: the index after it, 0 when it is not
 * of @kind. With @out, its values are stored there (2 for a pair). */
static gsize
scan_element (DuelShapeKind  kind,
              const char    *data,
              gsize          length,
              gsize          i,
              gpointer       out)
{
  guint64 pair[2];

  switch (kind)
    {
    case DUEL_SHAPE_UINTS:
      return scan_uint (data, length, i, out != NULL ? out : pair);
    case DUEL_SHAPE_NUMBERS:
      {
        double value;
        gsize end = scan_number_or_null (data, length, i, &value);

        if (out != NULL)
          *(double *) out = value;
        return end;
      }
    case DUEL_SHAPE_PAIRS:
      if (i >= length || data[i] != '[')
        return 0;
      i = skip_space (data, length, i + 1);
      if ((i = scan_uint (data, length, i, &pair[0])) == 0)
        return 0;
      i = skip_space (data, length, i);
      if (i >= length || data[i] != ',')
        return 0;
      i = skip_space (data, length, i + 1);
      if ((i = scan_uint (data, length, i, &pair[1])) == 0)
        return 0;
      i = skip_space (data, length, i);
      if (i >= length || data[i] != ']')
        return 0;
      if (out != NULL)
        memcpy (out, pair, sizeof pair);
      return i + 1;
    case DUEL_SHAPE_UINT_MAP:
      /* "decimal" : integer, the decimal as plain digits. */
      if (i >= length || data[i] != '"')
        return 0;
      if ((i = scan_uint (data, length, i + 1, &pair[0])) == 0 || i >= length || data[i] != '"')
        return 0;
      i = skip_space (data, length, i + 1);
      if (i >= length || data[i] != ':')
        return 0;
      i = skip_space (data, length, i + 1);
      if ((i = scan_uint (data, length, i, &pair[1])) == 0)
        return 0;
      if (out != NULL)
        memcpy (out, pair, sizeof pair);
      return i;
    case DUEL_SHAPE_KEEP:
    case DUEL_SHAPE_OBJECT:
    case DUEL_SHAPE_ARRAY:
    case DUEL_SHAPE_PRESENCE:
    default:
      return 0;
    }
}

static gsize
element_size (DuelShapeKind kind)
{
  return kind == DUEL_SHAPE_PAIRS || kind == DUEL_SHAPE_UINT_MAP ? 2 * sizeof (guint64)
         : kind == DUEL_SHAPE_NUMBERS ? sizeof (double) : sizeof (guint64);
}

/* The container at @data[@start] when it holds only elements of @kind:
 * their count in *@out_n and the index after it as the return value (0:
 * not such a container). With @values, they are stored. A map's keys must
 * increase, so that none is given twice (json-glib would keep one). */
static gsize
scan_taken (DuelShapeKind  kind,
            const char    *data,
            gsize          length,
            gsize          start,
            guchar        *values,
            gsize          stride,
            gsize         *out_n)
{
  char closer = kind == DUEL_SHAPE_UINT_MAP ? '}' : ']';
  gsize i = skip_space (data, length, start + 1);
  gsize n = 0, size = element_size (kind);
  guint64 previous_key = 0;

  if (stride == 0)
    stride = size;

  if (i < length && data[i] == closer)
    {
      *out_n = 0;
      return i + 1;
    }
  for (;;)
    {
      guint64 element[2];
      gsize next = scan_element (kind, data, length, i, element);

      if (next == 0)
        return 0;
      if (kind == DUEL_SHAPE_UINT_MAP && n > 0 && element[0] <= previous_key)
        return 0;
      previous_key = element[0];
      if (values != NULL)
        memcpy (values + n * stride, element, size);
      n++;
      i = skip_space (data, length, next);
      if (i >= length)
        return 0;
      if (data[i] == closer)
        break;
      if (data[i] != ',')
        return 0;
      i = skip_space (data, length, i + 1);
    }
  *out_n = n;
  return i + 1;
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

/* Only where json-glib reads the value as its key's and goes on past it:
 * a parse error then never falls on the stand-in or right after it, where
 * json-glib would name the stand-in instead of what the file holds. */
static gboolean
may_replace (const char *data,
             gsize       length,
             gsize       start,
             gsize       end,
             const char *stand_in)
{
  return end != 0 && end - start >= strlen (stand_in) &&
         follows_key (data, start) && before_more (data, length, end);
}

static void
add_span (DuelShaped *self,
          gsize       start,
          gsize       end,
          const char *stand_in)
{
  Span span = { start, end, 0, stand_in };

  g_array_append_val (self->spans, span);
}

static Take *
take_slot (DuelShaped *self,
           guint       index,
           guint       id)
{
  IndexTakes *takes;

  g_assert (id < MAX_TAKES);
  if (index >= self->takes->len)
    g_ptr_array_set_size (self->takes, index + 1);
  takes = g_ptr_array_index (self->takes, index);
  if (takes == NULL)
    {
      takes = g_new0 (IndexTakes, 1);
      g_ptr_array_index (self->takes, index) = takes;
    }
  return &takes->takes[id];
}

/* Takes the value at @data[@start] of @shape (a kind that is taken). The
 * index after it, 0 when it stays in the text; *@out_twice when that value
 * was taken already (text that is not JSON, e.g. two values after one key:
 * the tree will refuse it). */
static gsize
take_value (DuelShaped      *self,
            const DuelShape *shape,
            guint            index,
            const char      *data,
            gsize            length,
            gsize            start,
            gboolean        *out_twice)
{
  const char *stand_in = shape->kind == DUEL_SHAPE_PRESENCE ? "{}" : "null";
  gsize end, n = 0;
  Take *take;

  if (shape->kind == DUEL_SHAPE_PRESENCE)
    end = data[start] == '{' ? skip_value (data, length, start) : 0;
  else if (data[start] != (shape->kind == DUEL_SHAPE_UINT_MAP ? '{' : '['))
    return 0;
  else
    end = scan_taken (element_kind (shape->kind), data, length, start, NULL, 0, &n);
  if (!may_replace (data, length, start, end, stand_in))
    return 0;
  /* Nothing of it is kept. */
  if (shape->kind == DUEL_SHAPE_PRESENCE)
    {
      add_span (self, start, end, stand_in);
      return end;
    }
  take = take_slot (self, index, shape->id);
  if (is_field (shape->kind))
    {
      guchar *rows;

      g_assert (shape->field < 32 && shape->offset + element_size (element_kind (shape->kind)) <= shape->stride);
      if (take->fields & (1u << shape->field))
        {
          *out_twice = TRUE;
          return 0;
        }
      /* The first column sets the rows; one of another length stays in
       * the text, where the loader says so. */
      if (take->fields == 0)
        {
          if (self->estimate.taken_bytes + n * shape->stride > self->take_limit)
            return 0;
          /* Exactly @n rows: a GArray would reserve up to twice that
           * (a power of two), which the estimate does not count. */
          take->values = n > 0 ? g_malloc0_n (n, shape->stride) : NULL;
          take->n = n;
          take->taken = TRUE;
          self->estimate.taken_bytes += n * shape->stride;
        }
      else if (take->n != n)
        return 0;
      rows = take->values;
      scan_taken (element_kind (shape->kind), data, length, start, rows != NULL ? rows + shape->offset : NULL,
                  shape->stride, &n);
      take->fields |= 1u << shape->field;
      add_span (self, start, end, stand_in);
      return end;
    }
  if (take->taken)
    {
      *out_twice = TRUE;
      return 0;
    }
  if (self->estimate.taken_bytes + n * element_size (shape->kind) > self->take_limit)
    return 0;
  if (n > 0)
    {
      take->values = g_malloc_n (n, element_size (shape->kind));
      scan_taken (shape->kind, data, length, start, take->values, 0, &n);
      self->estimate.taken_bytes += n * element_size (shape->kind);
    }
  take->n = n;
  take->taken = TRUE;
  add_span (self, start, end, stand_in);
  return end;
}

/* ---- keys ------------------------------------------------------------------------- */

/* The key at @data[@start, @end) as json-glib reads it: escapes decoded,
 * cut at a \u0000. Its first MAX_KEY bytes in @buffer, its length in
 * *@out_length. FALSE for an escape JSON does not have (json-glib reads
 * those its own way). */
static gboolean
decode_key (const char *data,
            gsize       start,
            gsize       end,
            char        buffer[MAX_KEY],
            gsize      *out_length)
{
  gsize o = 0;

  for (gsize i = start; i < end; )
    {
      char utf8[6];
      gunichar c;
      int n;

      if (data[i] != '\\')
        {
          if (o < MAX_KEY)
            buffer[o] = data[i];
          o++;
          i++;
          continue;
        }
      if (i + 1 >= end)
        return FALSE;
      switch (data[i + 1])
        {
        case '"': case '\\': case '/': c = (gunichar) data[i + 1]; i += 2; break;
        case 'b': c = '\b'; i += 2; break;
        case 'f': c = '\f'; i += 2; break;
        case 'n': c = '\n'; i += 2; break;
        case 'r': c = '\r'; i += 2; break;
        case 't': c = '\t'; i += 2; break;
        case 'u':
          c = hex4 (data, end, i + 2);
          i += 6;
          /* The pre-scan let a high surrogate through only with its low one. */
          if (c >= 0xd800 && c < 0xdc00 && i + 6 <= end)
            {
              c = 0x10000 + ((c - 0xd800) << 10) + (hex4 (data, end, i + 2) - 0xdc00);
              i += 6;
            }
          break;
        default:
          return FALSE;
        }
      if (c == 0)
        break;
      n = g_unichar_to_utf8 (c, utf8);
      for (int k = 0; k < n; k++, o++)
        if (o < MAX_KEY)
          buffer[o] = utf8[k];
    }
  *out_length = o;
  return TRUE;
}

static int
find_member (const DuelShape *shape,
             const char      *key,
             gsize            key_length)
{
  if (shape->kind != DUEL_SHAPE_OBJECT || key_length > MAX_KEY)
    return -1;
  for (int m = 0; shape->members[m].name != NULL; m++)
    if (strlen (shape->members[m].name) == key_length && memcmp (shape->members[m].name, key, key_length) == 0)
      return m;
  return -1;
}

/* ---- the estimate ---------------------------------------------------------------- */

static void
finish_region (DuelShaped *self)
{
  if (self->region_cost > self->estimate.region_bytes)
    {
      self->estimate.region_bytes = self->region_cost;
      g_string_assign (self->max_region, self->region->str);
    }
  self->region_cost = 0;
}

/* Costs from here on go to the value of @frame's key (prefixed with the
 * indexed element it is in). */
static void
start_region (DuelShaped  *self,
              const char  *data,
              const Frame *frame)
{
  char key[MAX_KEY];
  gsize key_length = 0;

  finish_region (self);
  g_string_truncate (self->region, 0);
  if (frame->indexed_element)
    g_string_append_printf (self->region, "%s.", self->element->str);
  if (!decode_key (data, frame->key_start, frame->key_start + frame->key_length, key, &key_length))
    key_length = 0;
  g_string_append_len (self->region, key, (gssize) MIN (key_length, MAX_KEY));
  if (key_length > MAX_KEY)
    g_string_append (self->region, "…");
}

static inline void
add_cost (DuelShaped *self,
          guint64     cost)
{
  self->estimate.tree_bytes += cost;
  self->region_cost += cost;
}

/* The string at @data[@i] ('"'): the index of its closing quote (or the
 * end); whether it may need escaping for the screen in *@out_controls. */
static gsize
string_end (const char *data,
            gsize       length,
            gsize       i,
            gboolean   *out_controls)
{
  gboolean controls = FALSE;

  for (i++; i < length && data[i] != '"'; i++)
    {
      guchar c = (guchar) data[i];

      /* Escapes, raw controls, and the lead bytes of C1 controls and of
       * the bidirectional marks (duel-text.c). */
      if (c == '\\' || c < 0x20 || c == 0xc2 || c == 0xd8 || c == 0xe2)
        controls = TRUE;
      if (c == '\\')
        i++;
    }
  *out_controls = controls;
  return MIN (i, length);
}

/* ---- the walk ---------------------------------------------------------------------- */

static inline gboolean
is_structural (const DuelShape *shape)
{
  return shape != NULL && shape->kind != DUEL_SHAPE_KEEP;
}

/* One pass over @data. FALSE when, with @take, nothing may be cut or
 * taken after all (a key on the shape's path given twice, text json-glib
 * reads in its own way): the caller then estimates the whole text. */
static gboolean
walk (DuelShaped      *self,
      const char      *data,
      gsize            length,
      const DuelShape *root,
      gboolean         take)
{
  /* @take: there is a limit to take within; FALSE to estimate only. */
  Frame stack[MAX_DEPTH + 1];
  guint depth = 0;

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];
      Frame *top = depth > 0 ? &stack[depth - 1] : NULL;
      const DuelShape *shape;
      gboolean in_array;
      guint element = 0;

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

      /* A key. */
      if (top != NULL && top->is_object && top->expect_key)
        {
          gboolean controls;
          gsize end;

          /* json-glib also reads 'keys' and bare words: not JSON. */
          if (c != '"')
            {
              if (take)
                return FALSE;
              continue;
            }
          end = string_end (data, length, i, &controls);
          add_cost (self, COST_MEMBER + 2 * (end - i));
          top->expect_key = FALSE;
          top->key_start = i + 1;
          top->key_length = end - (i + 1);
          top->member_index = -1;
          top->member = &keep_shape;
          if (top->shape->kind == DUEL_SHAPE_OBJECT)
            {
              char key[MAX_KEY];
              gsize key_length;

              if (!decode_key (data, i + 1, end, key, &key_length))
                {
                  if (take)
                    return FALSE;
                }
              else
                top->member_index = find_member (top->shape, key, key_length);
              top->member = top->member_index >= 0 ? top->shape->members[top->member_index].shape : NULL;
              /* Known and on the way somewhere, twice: json-glib keeps the
               * last of the two, which this walk cannot tell. */
              if (take && is_structural (top->member))
                {
                  if (top->seen & (1u << top->member_index))
                    return FALSE;
                  top->seen |= 1u << top->member_index;
                }
            }
          i = end;
          continue;
        }

      /* A value: its shape. */
      in_array = top != NULL && !top->is_object;
      if (top == NULL)
        shape = root;
      else if (top->is_object)
        shape = top->member;
      else
        shape = top->shape->kind == DUEL_SHAPE_ARRAY ? top->shape->element : &keep_shape;
      if (in_array)
        {
          element = top->index++;
          if (top->shape->flags & DUEL_SHAPE_INDEXED)
            self->estimate.n_indexed++;
        }
      if (top != NULL && top->is_object && (depth == 1 || top->indexed_element))
        start_region (self, data, top);

      if (take && top != NULL && top->is_object)
        {
          /* Unknown: cut. */
          if (shape == NULL)
            {
              gsize end = skip_value (data, length, i);

              if (may_replace (data, length, i, end, "null"))
                {
                  add_span (self, i, end, "null");
                  add_cost (self, COST_VALUE);
                  i = end - 1;
                  continue;
                }
            }
          if (shape != NULL && shape->kind >= DUEL_SHAPE_UINTS && (c == '[' || c == '{'))
            {
              gboolean twice = FALSE;
              gsize end = take_value (self, shape, top->take_index, data, length, i, &twice);

              if (twice)
                return FALSE;
              if (end != 0)
                {
                  add_cost (self, COST_VALUE);
                  i = end - 1;
                  continue;
                }
            }
        }
      if (shape == NULL || shape->kind >= DUEL_SHAPE_UINTS)
        shape = &keep_shape;

      if (c == '{' || c == '[')
        {
          Frame frame = { 0, };

          add_cost (self, (in_array ? COST_SLOT : 0) + (c == '{' ? COST_OBJECT : COST_ARRAY));
          if (depth == MAX_DEPTH)
            return !take;
          frame.is_object = c == '{';
          frame.expect_key = frame.is_object;
          frame.shape = (shape->kind == DUEL_SHAPE_OBJECT && c == '{') ||
                        (shape->kind == DUEL_SHAPE_ARRAY && c == '[') ? shape : &keep_shape;
          frame.member = &keep_shape;
          frame.member_index = -1;
          frame.take_index = top != NULL ? top->take_index : 0;
          if (in_array && (top->shape->flags & DUEL_SHAPE_INDEXED))
            {
              frame.take_index = element;
              frame.indexed_element = TRUE;
              g_string_truncate (self->element, 0);
              /* Named by the key of the array: "tests[3]". */
              if (depth >= 2 && stack[depth - 2].is_object)
                {
                  const Frame *owner = &stack[depth - 2];
                  char key[MAX_KEY];
                  gsize key_length = 0;

                  if (decode_key (data, owner->key_start, owner->key_start + owner->key_length,
                                  key, &key_length))
                    g_string_append_len (self->element, key, (gssize) MIN (key_length, MAX_KEY));
                }
              g_string_append_printf (self->element, "[%u]", element);
            }
          stack[depth++] = frame;
          continue;
        }
      if (c == '"')
        {
          gboolean controls;
          gsize end = string_end (data, length, i, &controls);
          guint64 bytes = end - i;

          add_cost (self, (in_array ? COST_SLOT : 0) + COST_STRING + 2 * bytes + (controls ? 4 * bytes : 0));
          i = end;
          continue;
        }

      /* A number, true, false or null: one value, to its end. A lone
       * minus (json-glib reads "- 5" as one number) or a comment is not
       * JSON, and would count values otherwise than json-glib does. */
      {
        gsize start = i;

        if (take && !g_ascii_isalnum (c) && c != '-' && c != '+' && c != '.')
          return FALSE;
        while (i + 1 < length && !is_space (data[i + 1]) && data[i + 1] != ',' &&
               data[i + 1] != ']' && data[i + 1] != '}')
          i++;
        if (take && (i == start && (c == '-' || c == '+')))
          return FALSE;
        if (take)
          for (gsize k = start; k <= i; k++)
            if (!g_ascii_isalnum (data[k]) && data[k] != '-' && data[k] != '+' && data[k] != '.')
              return FALSE;
        add_cost (self, (in_array ? COST_SLOT : 0) + COST_VALUE);
      }
    }
  finish_region (self);
  return TRUE;
}

static void
reset (DuelShaped *self)
{
  g_array_set_size (self->spans, 0);
  g_ptr_array_set_size (self->takes, 0);
  memset (&self->estimate, 0, sizeof self->estimate);
  g_string_truncate (self->region, 0);
  g_string_truncate (self->max_region, 0);
  g_string_truncate (self->element, 0);
  self->region_cost = 0;
}

DuelShaped *
_duel_json_shape (const char      *data,
                  gsize            length,
                  const DuelShape *shape,
                  guint64          take_limit)
{
  DuelShaped *self = g_new0 (DuelShaped, 1);

  self->spans = g_array_new (FALSE, FALSE, sizeof (Span));
  self->takes = g_ptr_array_new_with_free_func (index_takes_free);
  self->region = g_string_new (NULL);
  self->max_region = g_string_new (NULL);
  self->element = g_string_new (NULL);

  g_return_val_if_fail (data != NULL || length == 0, self);
  g_return_val_if_fail (shape != NULL, self);

  self->data = data;
  self->length = length;
  self->take_limit = take_limit;
  if (!walk (self, data, length, shape, take_limit > 0))
    {
      reset (self);
      walk (self, data, length, shape, FALSE);
    }
  self->estimate.region = self->max_region->str;
  if (self->spans->len > 0)
    {
      self->rest_length = length;
      for (guint k = 0; k < self->spans->len; k++)
        {
          const Span *span = &g_array_index (self->spans, Span, k);

          self->rest_length = self->rest_length - (span->end - span->start) + strlen (span->stand_in);
        }
    }
  return self;
}

gsize
_duel_json_shaped_get_rest_length (DuelShaped *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->rest_length;
}

/* The rest: the text with a stand-in for each value cut or taken,
 * allocated once at its size. */
static void
make_rest (DuelShaped *self)
{
  gsize copied = 0, o = 0;

  self->rest = g_malloc (self->rest_length + 1);
  for (guint k = 0; k < self->spans->len; k++)
    {
      Span *span = &g_array_index (self->spans, Span, k);
      gsize n = strlen (span->stand_in);

      memcpy (self->rest + o, self->data + copied, span->start - copied);
      o += span->start - copied;
      span->rest_start = o;
      memcpy (self->rest + o, span->stand_in, n);
      o += n;
      copied = span->end;
    }
  memcpy (self->rest + o, self->data + copied, self->length - copied);
  o += self->length - copied;
  g_assert (o == self->rest_length);
  self->rest[o] = '\0';
  /* The caller may free the text now. */
  self->data = NULL;
}

const char *
_duel_json_shaped_get_rest (DuelShaped *self,
                            gsize      *out_length)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (out_length != NULL)
    *out_length = self->rest_length;
  if (self->spans->len == 0)
    return NULL;
  if (self->rest == NULL && self->data != NULL)
    make_rest (self);
  return self->rest;
}

void
_duel_json_shaped_drop_rest (DuelShaped *self)
{
  g_return_if_fail (self != NULL);

  g_clear_pointer (&self->rest, g_free);
}

void
_duel_json_shaped_get_estimate (DuelShaped        *self,
                                DuelShapeEstimate *out)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (out != NULL);

  *out = self->estimate;
  out->region = self->max_region->str;
}

static const Take *
get_take (DuelShaped *self,
          guint       index,
          guint       id)
{
  IndexTakes *takes;

  if (self == NULL || index >= self->takes->len || id >= MAX_TAKES)
    return NULL;
  takes = g_ptr_array_index (self->takes, index);
  return takes != NULL && takes->takes[id].taken ? &takes->takes[id] : NULL;
}

/* What an empty taken value points at. */
static const guint64 no_uints[2];
static const double no_doubles[1];

const guint64 *
_duel_json_shaped_get_uints (DuelShaped *self,
                             guint       index,
                             guint       id,
                             gsize      *out_n)
{
  const Take *take = get_take (self, index, id);

  if (take == NULL || take->fields != 0)
    return NULL;
  *out_n = take->n;
  return take->values != NULL ? take->values : no_uints;
}

gpointer
_duel_json_shaped_get_table (DuelShaped *self,
                             guint       index,
                             guint       id,
                             gsize      *out_n,
                             guint32    *out_fields)
{
  const Take *take = get_take (self, index, id);

  if (take == NULL || take->fields == 0)
    return NULL;
  *out_n = take->n;
  *out_fields = take->fields;
  return take->values;
}

gpointer
_duel_json_shaped_steal_table (DuelShaped *self,
                               guint       index,
                               guint       id,
                               gsize      *out_n)
{
  Take *take = (Take *) get_take (self, index, id);
  gpointer rows;

  g_return_val_if_fail (take != NULL && take->fields != 0, NULL);

  rows = g_steal_pointer (&take->values);
  *out_n = take->n;
  take->fields = 0;
  take->taken = FALSE;
  return rows;
}

const double *
_duel_json_shaped_get_doubles (DuelShaped *self,
                               guint       index,
                               guint       id,
                               gsize      *out_n)
{
  const Take *take = get_take (self, index, id);

  if (take == NULL || take->fields != 0)
    return NULL;
  *out_n = take->n;
  return take->values != NULL ? take->values : no_doubles;
}

const guint64 *
_duel_json_shaped_get_pairs (DuelShaped *self,
                             guint       index,
                             guint       id,
                             gsize      *out_n)
{
  return _duel_json_shaped_get_uints (self, index, id, out_n);
}

void
_duel_json_shaped_release (DuelShaped *self,
                           guint       index)
{
  if (self == NULL || index >= self->takes->len)
    return;
  index_takes_free (g_ptr_array_index (self->takes, index));
  g_ptr_array_index (self->takes, index) = NULL;
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
_duel_json_shaped_map_error (DuelShaped *self,
                             const char *data,
                             gsize       length,
                             const char *message)
{
  guint64 line, column;
  const char *p;
  char *end;
  gsize offset = 0, line_start, original;
  guint original_line, n = 1;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->rest != NULL, NULL);

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
  for (; offset < self->rest_length && n < line; offset++)
    if (self->rest[offset] == '\n')
      n++;
  if (n < line)
    return NULL;
  line_start = offset;
  /* At the end of the text json-glib counts one past it. */
  offset = line_start + column;
  /* …and in the file: each value cut or taken before it is longer than
   * its stand-in. */
  original = offset;
  for (guint k = 0; k < self->spans->len; k++)
    {
      const Span *span = &g_array_index (self->spans, Span, k);
      gsize n_stand_in = strlen (span->stand_in);

      if (span->rest_start + n_stand_in > offset)
        break;
      original += (span->end - span->start) - n_stand_in;
    }
  if (original > length + 1)
    return NULL;
  line_of (data, MIN (original, length), &original_line, &line_start);
  return g_strdup_printf ("<data>:%u:%" G_GSIZE_FORMAT "%s", original_line, original - line_start, end);
}
