/* test-workload.c — sizes, access patterns, validation, resolution, JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "duel-error.h"
#include "engine/duel-workload.h"
#include "engine/duel-workload-option.h"

#define KiB (G_GUINT64_CONSTANT (1) << 10)
#define MiB (G_GUINT64_CONSTANT (1) << 20)
#define GiB (G_GUINT64_CONSTANT (1) << 30)
#define TiB (G_GUINT64_CONSTANT (1) << 40)

static void
test_parse_size_good (void)
{
  static const struct {
    const char *text;
    guint64     bytes;
  } cases[] = {
    { "0", 0 },
    { "512", 512 },
    { "4096", 4096 },
    { "4k", 4 * KiB },
    { "4K", 4 * KiB },
    { "4KiB", 4 * KiB },
    { "4kib", 4 * KiB },
    { "4kb", 4 * KiB },
    { "4KB", 4 * KiB },
    { "1m", MiB },
    { "128M", 128 * MiB },
    { "64MiB", 64 * MiB },
    { "2g", 2 * GiB },
    { "2G", 2 * GiB },
    { "1t", TiB },
    { "3TB", 3 * TiB },
    { "1.5k", 1536 },
    { "0.5m", 512 * KiB },
    { ".5k", 512 },
    { "1e3", 1000 },
    /* Whole numbers are exact beyond 2^53. */
    { "9007199254740993", G_GUINT64_CONSTANT (9007199254740993) },
    { "18446744073709551615", G_MAXUINT64 },
    { "16777215t", G_GUINT64_CONSTANT (16777215) * TiB },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      guint64 bytes = 1;

      g_test_message ("size “%s”", cases[i].text);
      g_assert_true (duel_parse_size (cases[i].text, &bytes, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (bytes, ==, cases[i].bytes);
    }
}

static void
test_parse_size_bad (void)
{
  static const char * const cases[] = {
    "", "-1", "-0", "+4", " 4k", "4q", "4k ", "4kq", "4kibb", "1.5", "0.3k",
    "abc", "k", "inf", "nan", "0x10", "4x",
    "16777216t",                 /* 2^64: overflow */
    "18446744073709551616",      /* 2^64 */
    "99999999999999999999999",
    "1e30",
    "20000000p",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      guint64 bytes = 42;

      g_test_message ("bad size “%s”", cases[i]);
      g_assert_false (duel_parse_size (cases[i], &bytes, &error));
      g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, cases[i]));
      g_assert_cmpuint (bytes, ==, 42);
    }

  {
    g_autoptr(GError) error = NULL;
    guint64 bytes;

    g_assert_false (duel_parse_size (NULL, &bytes, &error));
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  }
}

static void
test_parse_size_or_multiple (void)
{
  static const struct {
    const char *text;
    guint64     bytes;
    double      multiple;
  } good[] = {
    { "2x", 0, 2.0 },
    { "2X", 0, 2.0 },
    { "0.5x", 0, 0.5 },
    { "4.25x", 0, 4.25 },
    { "4k", 4 * KiB, 0 },
    { "1073741824", GiB, 0 },
  };
  static const char * const bad[] = {
    "x", "-2x", "0x", "0.0x", "abcx", "2xx", "infx", "nanx", "", "-1", "2y",
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      guint64 bytes = 1;
      double multiple = -1;

      g_test_message ("size or multiple “%s”", good[i].text);
      g_assert_true (duel_parse_size_or_multiple (good[i].text, &bytes, &multiple, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (bytes, ==, good[i].bytes);
      g_assert_cmpfloat (multiple, ==, good[i].multiple);
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      guint64 bytes;
      double multiple;

      g_test_message ("bad size or multiple “%s”", bad[i]);
      g_assert_false (duel_parse_size_or_multiple (bad[i], &bytes, &multiple, &error));
      g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
    }
}

static void
test_format_size (void)
{
  g_autofree char *a = duel_format_size (4096);
  g_autofree char *b = duel_format_size (GiB);

  g_assert_nonnull (strstr (a, "KiB"));
  g_assert_nonnull (strstr (b, "GiB"));
}

/* A size as given: whole binary units as they are, whatever else in decimal
 * units. Sizes made from a count under 10000 and a unit (fixed seed) come
 * back as that count and unit, and they parse back to the same bytes. */
static void
test_format_size_as_given (void)
{
  static const char *units[] = { "KiB", "MiB", "GiB", "TiB" };
  g_autoptr(GRand) rand = g_rand_new_with_seed (25);
  struct { guint64 bytes; const char *text; } cases[] = {
    { G_GUINT64_CONSTANT (268435456), "256\u00a0MiB" },
    { G_GUINT64_CONSTANT (1) << 30, "1\u00a0GiB" },
    { G_GUINT64_CONSTANT (64) << 30, "64\u00a0GiB" },
    { G_GUINT64_CONSTANT (1536) << 20, "1536\u00a0MiB" },
    { 4096, "4\u00a0KiB" },
    { G_GUINT64_CONSTANT (268400000), "268.4\u00a0MB" },
    { G_GUINT64_CONSTANT (999999999), "1.0\u00a0GB" },
    { 1000, "1\u00a0kB" },
    { G_GUINT64_CONSTANT (512000000000), "512\u00a0GB" },
    { 512, "512\u00a0B" },
    /* A whole drive's odd size: not 488386584 KiB. */
    { G_GUINT64_CONSTANT (500107862016), "500.1\u00a0GB" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = duel_format_size_as_given (cases[i].bytes);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
  for (guint i = 0; i < 1000; i++)
    {
      guint u = g_rand_int_range (rand, 0, G_N_ELEMENTS (units));
      guint64 count = (guint64) g_rand_int_range (rand, 1, 10000);
      guint64 bytes;
      g_autofree char *expected = NULL;
      g_autofree char *text = NULL;
      g_autofree char *parsable = NULL;
      guint64 parsed = 0;

      if (count % 1024 == 0)
        continue;
      bytes = count << (10 * (u + 1));
      expected = g_strdup_printf ("%" G_GUINT64_FORMAT "\u00a0%s", count, units[u]);
      text = duel_format_size_as_given (bytes);
      g_assert_cmpstr (text, ==, expected);
      parsable = g_strdup_printf ("%" G_GUINT64_FORMAT "%c", count, "kmgt"[u]);
      g_assert_true (duel_parse_size (parsable, &parsed, NULL));
      g_assert_cmpuint (parsed, ==, bytes);
    }
}

static void
test_rw_names (void)
{
  static const struct {
    const char *name;
    DuelPattern pattern;
    guint       read_percent;   /* starting from the default 100 */
    const char *canonical;
  } cases[] = {
    { "randread",  DUEL_PATTERN_RANDOM,     100, "randread" },
    { "randwrite", DUEL_PATTERN_RANDOM,     0,   "randwrite" },
    { "randrw",    DUEL_PATTERN_RANDOM,     50,  "randrw" },
    { "read",      DUEL_PATTERN_SEQUENTIAL, 100, "read" },
    { "write",     DUEL_PATTERN_SEQUENTIAL, 0,   "write" },
    { "rw",        DUEL_PATTERN_SEQUENTIAL, 50,  "rw" },
    { "readwrite", DUEL_PATTERN_SEQUENTIAL, 50,  "rw" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      DuelWorkload w;

      duel_workload_init (&w);
      g_assert_true (duel_workload_set_rw_name (&w, cases[i].name, &error));
      g_assert_no_error (error);
      g_assert_cmpint (w.pattern, ==, cases[i].pattern);
      g_assert_cmpuint (w.read_percent, ==, cases[i].read_percent);
      g_assert_cmpstr (duel_workload_get_rw_name (&w), ==, cases[i].canonical);
      g_assert_cmpint (duel_workload_writes (&w), ==, cases[i].read_percent < 100);
    }

  /* A mixed name keeps a mix already chosen. */
  {
    DuelWorkload w;

    duel_workload_init (&w);
    w.read_percent = 70;
    g_assert_true (duel_workload_set_rw_name (&w, "randrw", NULL));
    g_assert_cmpuint (w.read_percent, ==, 70);
    g_assert_true (duel_workload_set_rw_name (&w, "write", NULL));
    g_assert_cmpuint (w.read_percent, ==, 0);
  }

  for (guint i = 0; i < 4; i++)
    {
      const char *bad[] = { "randomread", "", "READ", NULL };
      g_autoptr(GError) error = NULL;
      DuelWorkload w;

      duel_workload_init (&w);
      g_assert_false (duel_workload_set_rw_name (&w, bad[i], &error));
      g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
      g_assert_cmpstr (duel_workload_get_rw_name (&w), ==, "randread");
    }
}

static void
valid_workload (DuelWorkload *w)
{
  duel_workload_init (w);
  w->runtime_ms = 10000;
}

static void
test_validate (void)
{
  DuelWorkload w;

  valid_workload (&w);
  g_assert_true (duel_workload_validate (&w, NULL));
  w.runtime_ms = 0;
  w.size_multiple = 2;
  g_assert_true (duel_workload_validate (&w, NULL));
  w.size_multiple = 0;
  w.size_bytes = GiB;
  g_assert_true (duel_workload_validate (&w, NULL));
  w.block_size = DUEL_WORKLOAD_MAX_BLOCK_SIZE;
  w.queue_depth = DUEL_WORKLOAD_MAX_QUEUE_DEPTH;
  w.numjobs = DUEL_WORKLOAD_MAX_NUMJOBS;
  w.interval_ms = DUEL_WORKLOAD_MAX_INTERVAL_MS;
  w.read_percent = 0;
  g_assert_true (duel_workload_validate (&w, NULL));

#define EXPECT_INVALID(field, value, needle)                            \
  G_STMT_START {                                                        \
    g_autoptr(GError) error = NULL;                                     \
    valid_workload (&w);                                                \
    w.field = value;                                                    \
    g_assert_false (duel_workload_validate (&w, &error));               \
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);    \
    g_assert_nonnull (strstr (error->message, needle));                 \
  } G_STMT_END

  EXPECT_INVALID (block_size, 0, "block size");
  EXPECT_INVALID (block_size, DUEL_WORKLOAD_MAX_BLOCK_SIZE + 1, "block size");
  EXPECT_INVALID (queue_depth, 0, "queue depth");
  EXPECT_INVALID (queue_depth, DUEL_WORKLOAD_MAX_QUEUE_DEPTH + 1, "queue depth");
  EXPECT_INVALID (numjobs, 0, "number of jobs");
  EXPECT_INVALID (numjobs, DUEL_WORKLOAD_MAX_NUMJOBS + 1, "number of jobs");
  EXPECT_INVALID (read_percent, 101, "read percentage");
  EXPECT_INVALID (interval_ms, DUEL_WORKLOAD_MIN_INTERVAL_MS - 1, "interval");
  EXPECT_INVALID (interval_ms, DUEL_WORKLOAD_MAX_INTERVAL_MS + 1, "interval");
  EXPECT_INVALID (interval_ms, 0, "interval");
  EXPECT_INVALID (size_multiple, -1.0, "multiple");
  EXPECT_INVALID (size_multiple, NAN, "multiple");
  EXPECT_INVALID (size_multiple, INFINITY, "multiple");
  EXPECT_INVALID (runtime_ms, 0, "stop rule");
#undef EXPECT_INVALID
}

static void
test_resolve (void)
{
  DuelWorkload w;
  guint64 offset, span, limit;

  /* Time-bound, whole target: the span is rounded down to whole blocks. */
  valid_workload (&w);
  g_assert_true (duel_workload_resolve (&w, 10000, 512, &offset, &span, &limit, NULL));
  g_assert_cmpuint (offset, ==, 0);
  g_assert_cmpuint (span, ==, 8192);
  g_assert_cmpuint (limit, ==, 0);

  /* Offset and explicit span. */
  w.span_offset = 1 * MiB;
  w.span_length = 10 * MiB + 1000;
  g_assert_true (duel_workload_resolve (&w, GiB, 4096, &offset, &span, &limit, NULL));
  g_assert_cmpuint (offset, ==, MiB);
  g_assert_cmpuint (span, ==, 10 * MiB);

  /* 2x the span, and 0.5x. */
  valid_workload (&w);
  w.runtime_ms = 0;
  w.size_multiple = 2;
  g_assert_true (duel_workload_resolve (&w, GiB, 512, NULL, &span, &limit, NULL));
  g_assert_cmpuint (span, ==, GiB);
  g_assert_cmpuint (limit, ==, 2 * GiB);
  w.size_multiple = 0.5;
  g_assert_true (duel_workload_resolve (&w, GiB, 512, NULL, NULL, &limit, NULL));
  g_assert_cmpuint (limit, ==, GiB / 2);
  /* A multiple that is not whole blocks rounds down to blocks. */
  w.size_multiple = 1.0 / 3.0;
  g_assert_true (duel_workload_resolve (&w, 3 * 4096 * 100 + 4096, 512, NULL, &span, &limit, NULL));
  g_assert_cmpuint (limit % 4096, ==, 0);
  g_assert_cmpuint (limit, ==, (guint64) llround (span / 3.0) - (guint64) llround (span / 3.0) % 4096);

  /* An absolute size: rounded down to blocks; with a multiple, the smaller wins. */
  valid_workload (&w);
  w.size_bytes = 5000;
  g_assert_true (duel_workload_resolve (&w, GiB, 512, NULL, NULL, &limit, NULL));
  g_assert_cmpuint (limit, ==, 4096);
  w.size_bytes = 100 * MiB;
  w.size_multiple = 2;
  g_assert_true (duel_workload_resolve (&w, 10 * MiB, 512, NULL, NULL, &limit, NULL));
  g_assert_cmpuint (limit, ==, 20 * MiB);
  w.size_bytes = 3 * MiB;
  g_assert_true (duel_workload_resolve (&w, 10 * MiB, 512, NULL, NULL, &limit, NULL));
  g_assert_cmpuint (limit, ==, 3 * MiB);

#define EXPECT_FAIL(target_size, lbs, needle)                                             \
  G_STMT_START {                                                                          \
    g_autoptr(GError) error = NULL;                                                       \
    g_assert_false (duel_workload_resolve (&w, target_size, lbs, &offset, &span, &limit, &error)); \
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);                      \
    g_test_message ("%s", error->message);                                                \
    g_assert_nonnull (strstr (error->message, needle));                                   \
  } G_STMT_END

  valid_workload (&w);
  w.block_size = 1000;
  EXPECT_FAIL (GiB, 512, "block size");
  valid_workload (&w);
  w.block_size = 4096;
  EXPECT_FAIL (GiB, 8192, "block size");
  valid_workload (&w);
  w.span_offset = 1000;
  EXPECT_FAIL (GiB, 512, "offset");
  valid_workload (&w);
  w.span_offset = GiB;
  EXPECT_FAIL (GiB, 512, "beyond the end");
  valid_workload (&w);
  w.span_offset = MiB;
  w.span_length = GiB;
  EXPECT_FAIL (GiB, 512, "past the end");
  valid_workload (&w);
  EXPECT_FAIL (4095, 512, "smaller than one block");
  valid_workload (&w);
  w.runtime_ms = 0;
  w.size_bytes = 4095;
  EXPECT_FAIL (GiB, 512, "smaller than one block");
  valid_workload (&w);
  w.runtime_ms = 0;
  EXPECT_FAIL (GiB, 512, "stop rule");
  valid_workload (&w);
  w.size_multiple = 1e300;
  EXPECT_FAIL (GiB, 512, "too large");
  w.size_multiple = 8.6e9;   /* 2^63 bytes of a 1 GiB span */
  EXPECT_FAIL (GiB, 512, "too large");
  /* A multiple that rounds to less than a block: no limit would be an
   * endless run (it was, with 0 bytes, for 1e-9 and 1e-300). */
  valid_workload (&w);
  w.runtime_ms = 0;
  w.size_multiple = 1e-300;
  EXPECT_FAIL (GiB, 512, "smaller than one block");
  w.size_multiple = 1e-9;
  EXPECT_FAIL (GiB, 512, "smaller than one block");
  w.size_multiple = 4095.0 / GiB;
  EXPECT_FAIL (GiB, 512, "smaller than one block");
  w.size_bytes = 100 * MiB;     /* an absolute size beside it changes nothing */
  EXPECT_FAIL (GiB, 512, "smaller than one block");
  w.size_bytes = 0;
  w.size_multiple = 4096.0 / GiB;
  g_assert_true (duel_workload_resolve (&w, GiB, 512, NULL, NULL, &limit, NULL));
  g_assert_cmpuint (limit, ==, 4096);
#undef EXPECT_FAIL
}

static void
assert_workload_equal (const DuelWorkload *a,
                       const DuelWorkload *b)
{
  g_assert_cmpuint (a->block_size, ==, b->block_size);
  g_assert_cmpuint (a->queue_depth, ==, b->queue_depth);
  g_assert_cmpuint (a->numjobs, ==, b->numjobs);
  g_assert_cmpuint (a->read_percent, ==, b->read_percent);
  g_assert_cmpint (a->pattern, ==, b->pattern);
  g_assert_cmpuint (a->span_offset, ==, b->span_offset);
  g_assert_cmpuint (a->span_length, ==, b->span_length);
  g_assert_cmpuint (a->runtime_ms, ==, b->runtime_ms);
  g_assert_cmpuint (a->size_bytes, ==, b->size_bytes);
  g_assert_cmpfloat (a->size_multiple, ==, b->size_multiple);
  g_assert_cmpuint (a->interval_ms, ==, b->interval_ms);
  g_assert_cmpuint (a->seed, ==, b->seed);
}

static void
test_json_round_trip (void)
{
  DuelWorkload w, back;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  duel_workload_init (&w);
  w.block_size = 128 * 1024;
  w.queue_depth = 7;
  w.numjobs = 3;
  w.read_percent = 70;
  w.pattern = DUEL_PATTERN_SEQUENTIAL;
  w.span_offset = 3 * MiB;
  w.span_length = 5 * GiB;
  w.runtime_ms = 123456;
  w.size_bytes = 77 * MiB;
  w.size_multiple = 1.0 / 3.0;
  w.interval_ms = 250;
  w.seed = G_GUINT64_CONSTANT (0xfedcba9876543210);   /* above 2^53 */

  node = duel_workload_to_json (&w);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "rw"), ==, "rw");

  /* Through text, as in a file. */
  text = json_to_string (node, TRUE);
  parsed = json_from_string (text, &error);
  g_assert_no_error (error);
  g_assert_true (duel_workload_from_json (json_node_get_object (parsed), &back, &error));
  g_assert_no_error (error);
  assert_workload_equal (&w, &back);

  /* Every fio-style name survives. */
  for (guint i = 0; i < 6; i++)
    {
      const char *names[] = { "randread", "randwrite", "randrw", "read", "write", "rw" };
      g_autoptr(JsonNode) n = NULL;

      g_assert_true (duel_workload_set_rw_name (&w, names[i], NULL));
      n = duel_workload_to_json (&w);
      g_assert_true (duel_workload_from_json (json_node_get_object (n), &back, NULL));
      assert_workload_equal (&w, &back);
    }

  /* Multiples json-glib would write without a point get one, so that the
   * text parses: 1e-08 was written "1e-08.0", which no loader reads. The
   * value moves by one ulp at most. */
  {
    static const double multiples[] = { 1e-300, 1e-8, 3e-9, 2e-16, 1e17, 1e22, 0.5, 2, 100 };

    duel_workload_init (&w);
    for (guint i = 0; i < G_N_ELEMENTS (multiples); i++)
      {
        g_autoptr(JsonNode) n = NULL;
        g_autoptr(JsonNode) p = NULL;
        g_autofree char *t = NULL;

        w.size_multiple = multiples[i];
        n = duel_workload_to_json (&w);
        t = json_to_string (n, FALSE);
        p = json_from_string (t, &error);
        g_assert_no_error (error);
        g_assert_true (duel_workload_from_json (json_node_get_object (p), &back, &error));
        g_assert_no_error (error);
        g_assert_true (back.size_multiple == multiples[i] ||
                       back.size_multiple == nextafter (multiples[i], G_MAXDOUBLE));
      }
  }

  /* A file from before jobs existed ran one. */
  {
    const char *old = "{\"rw\":\"read\",\"bs\":4096,\"iodepth\":1,\"rwmixread\":100,\"offset\":0,"
                      "\"span\":0,\"runtime_ms\":1,\"size_bytes\":0,\"interval_ms\":1000}";
    g_autoptr(JsonNode) n = json_from_string (old, &error);

    g_assert_no_error (error);
    g_assert_true (duel_workload_from_json (json_node_get_object (n), &back, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (back.numjobs, ==, 1);
  }
}

static void
test_json_bad (void)
{
  static const struct {
    const char *json;
    const char *needle;
  } cases[] = {
    { "{\"bs\":4096}", "rw" },
    { "{\"rw\":{},\"bs\":4096}", "rw" },
    { "{\"rw\":\"sideways\"}", "rw" },
    { "{\"rw\":\"read\",\"bs\":\"4k\"}", "bs" },
    { "{\"rw\":\"read\",\"bs\":-1}", "bs" },
    { "{\"rw\":\"read\",\"bs\":4096,\"iodepth\":5000}", "iodepth" },
    { "{\"rw\":\"read\",\"bs\":4096,\"iodepth\":1,\"rwmixread\":101}", "rwmixread" },
    { "{\"rw\":\"read\",\"bs\":4096,\"iodepth\":1,\"numjobs\":0}", "numjobs" },
    { "{\"rw\":\"read\",\"bs\":4096,\"iodepth\":1,\"numjobs\":65}", "numjobs" },
    { "{\"rw\":\"read\",\"bs\":4096,\"iodepth\":1,\"numjobs\":\"2\"}", "numjobs" },
    { "{\"rw\":\"read\",\"bs\":4096,\"iodepth\":1,\"rwmixread\":100,\"offset\":0,\"span\":0,"
      "\"runtime_ms\":1,\"size_bytes\":0,\"interval_ms\":1000,\"size_multiple\":1e999}", "size_multiple" },
    { "{\"rw\":\"read\",\"bs\":4096,\"iodepth\":1,\"rwmixread\":100,\"offset\":0,\"span\":0,"
      "\"runtime_ms\":1,\"size_bytes\":0,\"interval_ms\":1000,\"size_multiple\":-2}", "size_multiple" },
    { "{\"rw\":\"read\",\"bs\":4096,\"iodepth\":1,\"rwmixread\":100,\"offset\":0,\"span\":0,"
      "\"runtime_ms\":1,\"size_bytes\":0,\"interval_ms\":1000,\"seed\":\"-1\"}", "seed" },
    { "{\"rw\":\"read\",\"bs\":4096,\"iodepth\":1,\"rwmixread\":100,\"offset\":0,\"span\":0,"
      "\"runtime_ms\":1,\"size_bytes\":0,\"interval_ms\":1000,\"seed\":[]}", "seed" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = json_from_string (cases[i].json, &error);
      DuelWorkload w;

      g_assert_no_error (error);
      g_assert_false (duel_workload_from_json (json_node_get_object (node), &w, &error));
      g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
      g_assert_nonnull (strstr (error->message, cases[i].needle));
    }
}

/* The option table: every reader's names, syntax and ranges come from it,
 * so its own promises are checked here, entry by entry: the names find the
 * entry, the range's ends pass and one past them fails with the option's
 * name, a value written as fio's job line reads back the same, and the
 * workload check refuses what the table refuses. */
static void
test_option_table (void)
{
  for (guint id = 0; id < DUEL_N_WORKLOAD_OPTIONS; id++)
    {
      const DuelWorkloadOption *o = duel_workload_option_get (id);
      guint64 values[3];

      g_assert_cmpuint (o->id, ==, id);
      g_assert_true (duel_workload_option_find_fio (o->fio_name) == o);
      if (o->fio_alias != NULL)
        g_assert_true (duel_workload_option_find_fio (o->fio_alias) == o);
      g_assert_cmpuint (o->min, <=, o->max);
      g_assert_true (duel_workload_option_check (o, o->min, NULL));
      g_assert_true (duel_workload_option_check (o, o->max, NULL));
      if (o->max < G_MAXUINT64)
        {
          g_autoptr(GError) error = NULL;

          g_assert_false (duel_workload_option_check (o, o->max + 1, &error));
          g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
          g_assert_nonnull (strstr (error->message, o->label));
        }
      if (o->min > 0)
        g_assert_false (duel_workload_option_check (o, o->min - 1, NULL));

      values[0] = o->min;
      values[1] = o->max;
      values[2] = o->min + (o->max - o->min) / 3;
      for (guint i = 0; i < G_N_ELEMENTS (values); i++)
        {
          g_autofree char *line = duel_workload_option_to_fio (o, values[i]);
          g_autofree char *prefix = g_strconcat (o->fio_name, "=", NULL);
          DuelWorkload w;
          guint64 back = 0;
          g_autoptr(GError) error = NULL;

          g_assert_true (g_str_has_prefix (line, prefix));
          g_assert_true (duel_workload_option_parse_fio (o, line + strlen (prefix), &back, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (back, ==, values[i]);

          duel_workload_init (&w);
          g_assert_true (duel_workload_option_write (o, &w, values[i], NULL));
          g_assert_cmpuint (duel_workload_option_read (o, &w), ==, values[i]);
        }
    }
  g_assert_null (duel_workload_option_find_fio ("ioengine"));

  /* duel_workload_validate() holds a workload to the same ranges. */
  {
    static const DuelWorkloadOptionId checked[] = {
      DUEL_WORKLOAD_OPTION_BLOCK_SIZE, DUEL_WORKLOAD_OPTION_QUEUE_DEPTH, DUEL_WORKLOAD_OPTION_NUMJOBS,
      DUEL_WORKLOAD_OPTION_READ_PERCENT, DUEL_WORKLOAD_OPTION_INTERVAL, DUEL_WORKLOAD_OPTION_RUNTIME,
    };

    for (guint i = 0; i < G_N_ELEMENTS (checked); i++)
      {
        const DuelWorkloadOption *o = duel_workload_option_get (checked[i]);
        g_autoptr(GError) error = NULL;
        DuelWorkload w;

        duel_workload_init (&w);
        w.size_multiple = 1;
        g_assert_true (duel_workload_validate (&w, NULL));
        duel_workload_option_store (o, &w, o->max + 1);
        g_assert_false (duel_workload_validate (&w, &error));
        g_assert_nonnull (strstr (error->message, o->label));
      }
  }

  /* fio's syntax: units on times, the first of a read,write pair. */
  {
    guint64 v = 0;

    g_assert_true (duel_workload_option_parse_fio (duel_workload_option_get (DUEL_WORKLOAD_OPTION_RUNTIME), "5", &v, NULL));
    g_assert_cmpuint (v, ==, 5000);
    g_assert_true (duel_workload_option_parse_fio (duel_workload_option_get (DUEL_WORKLOAD_OPTION_RUNTIME), "2m", &v, NULL));
    g_assert_cmpuint (v, ==, 120000);
    g_assert_true (duel_workload_option_parse_fio (duel_workload_option_get (DUEL_WORKLOAD_OPTION_BLOCK_SIZE), "4k,8k", &v, NULL));
    g_assert_cmpuint (v, ==, 4096);
    g_assert_false (duel_workload_option_parse_fio (duel_workload_option_get (DUEL_WORKLOAD_OPTION_QUEUE_DEPTH), "-1", &v, NULL));
    g_assert_false (duel_workload_option_parse_fio (duel_workload_option_get (DUEL_WORKLOAD_OPTION_QUEUE_DEPTH), "8192", &v, NULL));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/workload/parse-size/good", test_parse_size_good);
  g_test_add_func ("/duel/workload/parse-size/bad", test_parse_size_bad);
  g_test_add_func ("/duel/workload/parse-size-or-multiple", test_parse_size_or_multiple);
  g_test_add_func ("/duel/workload/format-size", test_format_size);
  g_test_add_func ("/duel/workload/format-size-as-given", test_format_size_as_given);
  g_test_add_func ("/duel/workload/rw-names", test_rw_names);
  g_test_add_func ("/duel/workload/validate", test_validate);
  g_test_add_func ("/duel/workload/resolve", test_resolve);
  g_test_add_func ("/duel/workload/json-round-trip", test_json_round_trip);
  g_test_add_func ("/duel/workload/json-bad", test_json_bad);
  g_test_add_func ("/duel/workload/option-table", test_option_table);

  return g_test_run ();
}
