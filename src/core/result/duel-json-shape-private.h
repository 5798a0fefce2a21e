/* duel-json-shape-private.h — hostile JSON shaped before json-glib sees it
 *
 * json-glib 1.6 builds a tree of the whole text: 80 to 300 bytes for a
 * value that may take two bytes of the file ("0,"). A loader that hands
 * it a file as it is spends 10 to 100 times the file's size on a file in
 * an unusual layout, and whatever a hostile writer likes. The loaders
 * (results, fio output) therefore walk the text once first, against a
 * shape that says what they read:
 *
 * - members a reader does not know are cut: their value becomes `null`
 *   (unknown members are ignored by the readers anyway);
 * - the bulk a reader does know — series columns, histogram bins — is
 *   taken into typed arrays, and `null` (or `{}`) stands in its place;
 * - what stays for json-glib is counted: an estimate of the bytes its
 *   tree will take, so that a loader can refuse, with one sentence, a file
 *   that would cost more than it allows before the memory is spent.
 *
 * A value is cut or taken only where json-glib reads it as a key's value
 * and goes on past it (`"KEY": VALUE` then `,` or `}`) and when it is
 * strictly valid JSON, so that what json-glib makes of the rest is what it
 * would have made of the file, and its error messages' places map back to
 * the file's (_duel_json_shaped_map_error()). Keys are read as json-glib
 * reads them (escapes decoded, cut at a \u0000). When a key the shape
 * leads through is given twice, nothing is cut or taken: json-glib keeps
 * the last of them, and the tree alone must decide; the estimate is then
 * of the whole text.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  DUEL_SHAPE_KEEP,       /* kept as it is, whatever it holds */
  DUEL_SHAPE_OBJECT,     /* an object of the listed members; others are cut */
  DUEL_SHAPE_ARRAY,      /* an array of @element's shape */
  DUEL_SHAPE_UINTS,      /* taken: an array of integers 0 to 2^63-1 */
  DUEL_SHAPE_NUMBERS,    /* taken: an array of numbers or null (NAN) */
  DUEL_SHAPE_UINT_FIELD, /* taken as UINTS, into a field of a table's rows (a column) */
  DUEL_SHAPE_NUMBER_FIELD, /* taken as NUMBERS, into a field of a table's rows */
  DUEL_SHAPE_PAIRS,      /* taken: an array of [integer, integer] pairs */
  DUEL_SHAPE_UINT_MAP,   /* taken as pairs: an object of "decimal": integer members, keys increasing */
  DUEL_SHAPE_PRESENCE,   /* an object only looked for, never into: becomes {} */
} DuelShapeKind;

typedef enum
{
  DUEL_SHAPE_FLAGS_NONE = 0,
  DUEL_SHAPE_INDEXED    = 1 << 0,   /* an array whose elements number the takes under them */
} DuelShapeFlags;

typedef struct _DuelShape DuelShape;

typedef struct
{
  const char      *name;
  const DuelShape *shape;
} DuelShapeMember;

struct _DuelShape
{
  DuelShapeKind          kind;
  DuelShapeFlags         flags;
  const DuelShapeMember *members;   /* OBJECT: up to a NULL name, at most 32 */
  const DuelShape       *element;   /* ARRAY */
  guint                  id;        /* taken values: which, under one index (< 16); not for PRESENCE */
  /* FIELD kinds: the table @id's rows are @stride bytes, filled by its
   * columns in the order they come; this one is at @offset, and is
   * field number @field (< 32) of the table. */
  guint                  field;
  gsize                  offset;
  gsize                  stride;
};

typedef struct _DuelShaped DuelShaped;

/* Walks @data (which passed duel_json_prescan()) against @shape, cutting
 * and taking as above, the typed arrays taking at most @take_limit bytes
 * (a value that would take more stays in the text, where the estimate
 * counts it); with @take_limit 0 it only estimates. Never NULL. @data
 * must stay as it is until the rest is made (_duel_json_shaped_get_rest()). */
DuelShaped  *_duel_json_shape            (const char      *data,
                                          gsize            length,
                                          const DuelShape *shape,
                                          guint64          take_limit);
void         _duel_json_shaped_free      (DuelShaped      *shaped);

/* The length of the rest (0 when nothing was cut or taken), known before
 * it is made. */
gsize        _duel_json_shaped_get_rest_length (DuelShaped *shaped);
/* The text json-glib is to parse: the rest after cuts and takes, made
 * now from the text (once), or NULL when nothing was cut or taken (then
 * it is the file). */
const char  *_duel_json_shaped_get_rest  (DuelShaped      *shaped,
                                          gsize           *out_length);
/* Frees the rest once json-glib has parsed it. */
void         _duel_json_shaped_drop_rest (DuelShaped      *shaped);

/* What the estimate found. @tree_bytes: json-glib's tree of the rest, and
 * the escaped copies of its strings; @taken_bytes: the typed arrays and
 * tables; @n_indexed: elements of DUEL_SHAPE_INDEXED arrays (the tests,
 * fio's jobs); @region, @region_bytes: where most of the tree would go, as
 * a path ("device", "tests[3].summary"). */
typedef struct
{
  guint64     tree_bytes;
  guint64     taken_bytes;
  guint64     n_indexed;
  const char *region;
  guint64     region_bytes;
} DuelShapeEstimate;

void         _duel_json_shaped_get_estimate (DuelShaped        *shaped,
                                             DuelShapeEstimate *out);

/* Values taken for shape @id under element @index of the innermost
 * DUEL_SHAPE_INDEXED array (0 without one), or NULL when none were; their
 * count in *@out_n. UINTS as guint64, NUMBERS as double, PAIRS and
 * UINT_MAP as guint64 pairs (2 · *@out_n values). */
const guint64 *_duel_json_shaped_get_uints   (DuelShaped *shaped,
                                              guint       index,
                                              guint       id,
                                              gsize      *out_n);
const double  *_duel_json_shaped_get_doubles (DuelShaped *shaped,
                                              guint       index,
                                              guint       id,
                                              gsize      *out_n);
const guint64 *_duel_json_shaped_get_pairs   (DuelShaped *shaped,
                                              guint       index,
                                              guint       id,
                                              gsize      *out_n);
/* The rows of table @id under @index, filled by its FIELD columns, or
 * NULL when none was taken: their count in *@out_n (the first column's
 * length; a column of another length is not taken), which fields were
 * filled as bits in *@out_fields. Fields not filled are zero. */
gpointer       _duel_json_shaped_get_table   (DuelShaped *shaped,
                                              guint       index,
                                              guint       id,
                                              gsize      *out_n,
                                              guint32    *out_fields);
/* The table's rows (g_free() them), for the caller to keep; their count
 * in *@out_n. */
gpointer       _duel_json_shaped_steal_table (DuelShaped *shaped,
                                              guint       index,
                                              guint       id,
                                              gsize      *out_n);
/* Frees what was taken under @index once it has been read. */
void           _duel_json_shaped_release     (DuelShaped *shaped,
                                              guint       index);

/* json-glib's @message about the rest with its "<data>:LINE:COLUMN:" as
 * that place is in the file (@data): a parse error never falls on a value
 * cut or taken or right after it, so the rest of the message is the
 * file's. NULL when the message has no such place. */
char          *_duel_json_shaped_map_error   (DuelShaped *shaped,
                                              const char *data,
                                              gsize       length,
                                              const char *message);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelShaped, _duel_json_shaped_free)

G_END_DECLS
