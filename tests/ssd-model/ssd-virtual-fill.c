/* ssd-virtual-fill.c — the write-saturation fill on the FTL model, in the model's own time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/duel-offsets.h"
#include "run/duel-probe.h"
#include "ssd-virtual-fill.h"
#include "ssd-virtual-rows.h"

#define NSEC G_GUINT64_CONSTANT (1000000000)
#define MSEC G_GUINT64_CONSTANT (1000000)

/* The fill on @ftl: a discard of the whole span at @trim_at on the model's
 * clock, then the writes from @origin. */
static void
fill_on (SsdFtl          *ftl,
         guint64          trim_at,
         guint64          origin,
         guint            queue_depth,
         double           multiple,
         guint            interval_ms,
         guint64          seed,
         SsdVirtualFill  *fill)
{
  guint64 n_pages = ssd_ftl_n_pages (ftl), total = (guint64) llround (multiple * n_pages), issued = 0, end = 0;
  g_autofree guint64 *done = g_new (guint64, queue_depth);
  g_autofree guint64 *issued_at = g_new (guint64, queue_depth);
  DuelSeriesRow row = { .t_ms = interval_ms, .temperature_c = NAN };
  DuelOffsets offsets;
  g_autoptr(GError) error = NULL;

  g_assert (queue_depth >= 1 && interval_ms >= 1);

  memset (fill, 0, sizeof *fill);
  fill->series = duel_series_new ();
  fill->done_ns = g_array_sized_new (FALSE, FALSE, sizeof (guint64), (guint) total);
  fill->n_pages = n_pages;
  duel_offsets_init (&offsets, DUEL_PATTERN_RANDOM, 0, n_pages * SSD_PAGE_SIZE, SSD_PAGE_SIZE, 0, seed);

  ssd_ftl_trim (ftl, 0, n_pages, trim_at);
  for (guint i = 0; i < queue_depth; i++)
    {
      issued_at[i] = origin;
      done[i] = issued < total ? ssd_ftl_write (ftl, duel_offsets_next (&offsets) / SSD_PAGE_SIZE, 1, origin)
                               : G_MAXUINT64;
      issued += issued < total;
    }
  for (guint64 n = 0; n < total; n++)
    {
      guint m = 0;
      guint64 t;

      for (guint i = 1; i < queue_depth; i++)
        if (done[i] < done[m])
          m = i;
      t = done[m] - origin;
      ssd_virtual_close_rows (fill->series, &row, interval_ms, t);
      row.ops[DUEL_DIRECTION_WRITE]++;
      row.bytes[DUEL_DIRECTION_WRITE] += SSD_PAGE_SIZE;
      row.lat_max_ns[DUEL_DIRECTION_WRITE] = MAX (row.lat_max_ns[DUEL_DIRECTION_WRITE], done[m] - issued_at[m]);
      g_array_append_val (fill->done_ns, t);
      end = t;
      if (issued < total)
        {
          issued_at[m] = done[m];
          done[m] = ssd_ftl_write (ftl, duel_offsets_next (&offsets) / SSD_PAGE_SIZE, 1, issued_at[m]);
          issued++;
        }
      else
        done[m] = G_MAXUINT64;
    }
  /* The last interval ends with the last write, as the engine's does. */
  row.t_ms = MAX ((end + MSEC - 1) / MSEC, duel_series_get_length (fill->series) * (guint64) interval_ms + 1);
  duel_series_append (fill->series, &row);

  ssd_ftl_counters (ftl, &fill->counters);
  if (!ssd_ftl_check (ftl, &error))
    g_error ("the model is inconsistent: %s", error->message);
}

void
ssd_virtual_fill_run (const SsdConfig *cfg,
                      guint            queue_depth,
                      double           multiple,
                      guint            interval_ms,
                      guint64          seed,
                      SsdVirtualFill  *fill)
{
  SsdFtl *ftl = ssd_ftl_new (cfg);

  /* The model's clock may not start at 0. */
  fill_on (ftl, NSEC, NSEC, queue_depth, multiple, interval_ms, seed, fill);
  ssd_ftl_free (ftl);
}

/* The probe of duel-probe.c on @ftl from @origin: 4 KiB random writes at
 * @queue_depth over the whole capacity in rows of its interval, stopped by
 * duel_probe_should_stop() at each row's end or at its longest, the writes
 * in flight then completing. Returns when the last one completed. */
static guint64
probe_on (SsdFtl          *ftl,
          guint64          origin,
          guint            queue_depth,
          guint64          min_ms,
          guint64          seed,
          DuelProbeResult *out)
{
  guint64 n_pages = ssd_ftl_n_pages (ftl), written = 0, end = 0;
  guint64 longest_ns = duel_probe_longest_ms (min_ms) * MSEC;
  guint interval_ms = duel_probe_interval_ms (min_ms);
  g_autofree guint64 *done = g_new (guint64, queue_depth);
  g_autoptr(DuelSeries) series = duel_series_new ();
  DuelSeriesRow row = { .t_ms = interval_ms, .temperature_c = NAN };
  gboolean stopped = FALSE;
  DuelOffsets offsets;

  duel_offsets_init (&offsets, DUEL_PATTERN_RANDOM, 0, n_pages * SSD_PAGE_SIZE, SSD_PAGE_SIZE, 0, seed);
  for (guint i = 0; i < queue_depth; i++)
    done[i] = ssd_ftl_write (ftl, duel_offsets_next (&offsets) / SSD_PAGE_SIZE, 1, origin);
  for (;;)
    {
      guint m = 0;
      guint64 t;

      for (guint i = 1; i < queue_depth; i++)
        if (done[i] < done[m])
          m = i;
      if (done[m] == G_MAXUINT64)
        break;
      t = done[m] - origin;
      /* An interval's end: where the engine calls the probe's watch. */
      while (t >= row.t_ms * MSEC)
        {
          duel_series_append (series, &row);
          stopped |= duel_probe_should_stop (series, row.t_ms * MSEC, written, min_ms, n_pages * SSD_PAGE_SIZE);
          memset (&row, 0, sizeof row);
          row.t_ms = duel_series_get_length (series) * (guint64) interval_ms + interval_ms;
          row.temperature_c = NAN;
        }
      row.ops[DUEL_DIRECTION_WRITE]++;
      row.bytes[DUEL_DIRECTION_WRITE] += SSD_PAGE_SIZE;
      written += SSD_PAGE_SIZE;
      end = t;
      if (!stopped && done[m] - origin < longest_ns)
        done[m] = ssd_ftl_write (ftl, duel_offsets_next (&offsets) / SSD_PAGE_SIZE, 1, done[m]);
      else
        done[m] = G_MAXUINT64;
    }
  row.t_ms = MAX ((end + MSEC - 1) / MSEC, duel_series_get_length (series) * (guint64) interval_ms + 1);
  duel_series_append (series, &row);
  duel_probe_summarize (series, end, out);
  return origin + end;
}

void
ssd_virtual_fill_run_probed (const SsdConfig *cfg,
                             guint            queue_depth,
                             double           multiple,
                             guint            interval_ms,
                             guint64          probe_min_ms,
                             guint64          gap_ms,
                             guint64          seed,
                             DuelProbeResult *out_probe,
                             SsdVirtualFill  *fill)
{
  SsdFtl *ftl = ssd_ftl_new (cfg);
  guint64 probe_end = probe_on (ftl, NSEC, queue_depth, probe_min_ms, seed ^ G_GUINT64_CONSTANT (0x9e0be), out_probe);

  fill_on (ftl, probe_end, probe_end + gap_ms * MSEC, queue_depth, multiple, interval_ms, seed, fill);
  ssd_ftl_free (ftl);
}

void
ssd_virtual_fill_clear (SsdVirtualFill *fill)
{
  g_clear_pointer (&fill->series, duel_series_free);
  g_clear_pointer (&fill->done_ns, g_array_unref);
}

double
ssd_virtual_fill_rate (const SsdVirtualFill *fill,
                       double                lo_pct,
                       double                hi_pct)
{
  guint64 lo = MAX ((guint64) ceil (lo_pct / 100 * fill->n_pages), 1);
  guint64 hi = MIN ((guint64) floor (hi_pct / 100 * fill->n_pages), fill->done_ns->len);
  guint64 t_lo, t_hi;

  if (hi <= lo)
    return NAN;
  t_lo = g_array_index (fill->done_ns, guint64, lo - 1);
  t_hi = g_array_index (fill->done_ns, guint64, hi - 1);
  return t_hi > t_lo ? (double) (hi - lo) * NSEC / (double) (t_hi - t_lo) : NAN;
}

/* Knuth's MMIX LCG; the top 53 bits as a double in [0, 1). */
static double
uniform (guint64 *state)
{
  *state = *state * G_GUINT64_CONSTANT (6364136223846793005) + G_GUINT64_CONSTANT (1442695040888963407);
  return (double) (*state >> 11) / 9007199254740992.0;
}

static double
between (guint64 *state,
         double   lo,
         double   hi)
{
  return lo + (hi - lo) * uniform (state);
}

/* splitmix64's finaliser: neighbouring seeds give unrelated streams. */
static guint64
mix (guint64 x)
{
  x += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return x ^ (x >> 31);
}

void
ssd_random_config (guint64    seed,
                   SsdConfig *out,
                   char      *out_what,
                   gsize      what_size)
{
  static const guint block_sizes[] = { 32, 64, 128 };
  guint64 state = mix (seed ^ 7);
  guint blocks_per_unit, need;
  double cache_pct;

  uniform (&state);
  memset (out, 0, sizeof *out);
  out->shape = "random";
  out->units = (guint) floor (exp (between (&state, 0, log (16.999))));
  out->block_pages = block_sizes[(guint) (uniform (&state) * G_N_ELEMENTS (block_sizes))];
  out->op_pct = between (&state, 3, 40);
  out->gc_threshold = 1 + (guint) (uniform (&state) * 4);
  out->t_read_ns = (guint64) between (&state, 30000, 100000);
  out->t_prog_ns = (guint64) between (&state, 200000, 1500000);
  out->t_prog_cache_ns = (guint64) (out->t_prog_ns * between (&state, 0.15, 0.6));
  out->t_erase_ns = (guint64) between (&state, 1000000, 5000000);
  out->idle_ns = 2000000;
  if (uniform (&state) < 0.2)
    {
      out->initial = SSD_INITIAL_TRIMMED_USED;
      out->bg_share_pct = between (&state, 10, 40);
    }
  else
    out->initial = SSD_INITIAL_FRESH;
  cache_pct = uniform (&state) < 0.3 ? 0 : between (&state, 2, 50);

  /* Enough blocks that each unit's spare area holds GC's reserve and the
   * two open blocks (ssd_config_check()), and no more than 256 MiB in all
   * if smaller blocks or fewer units allow: the fill stays a fraction of a
   * second. */
  blocks_per_unit = 48 + (guint) (uniform (&state) * 81);
  need = (guint) ceil ((out->gc_threshold + 3) * 100.0 / out->op_pct) + 2;
  blocks_per_unit = MAX (blocks_per_unit, need);
  while ((guint64) out->units * blocks_per_unit * out->block_pages * SSD_PAGE_SIZE > 256u << 20)
    {
      if (out->block_pages > 32)
        out->block_pages /= 2;
      else if (out->units > 1)
        out->units--;
      else
        break;
    }
  /* And 64 MiB at least: on a smaller model a hundred writes (what the
   * analysis takes together when rows hold fewer) are half a point of
   * capacity or more, coarser than any drive's rows. */
  while ((guint64) out->units * blocks_per_unit * out->block_pages * SSD_PAGE_SIZE < 64u << 20)
    blocks_per_unit++;
  out->capacity_bytes = (guint64) out->units * blocks_per_unit * out->block_pages * SSD_PAGE_SIZE;
  out->cache_bytes = (guint64) (out->capacity_bytes * cache_pct / 100.0) / SSD_PAGE_SIZE * SSD_PAGE_SIZE;

  g_snprintf (out_what, what_size,
              "%.0f MiB, cache %.0f %%, spare %.1f %%, %u units, %u pages a block, GC at %u free, "
              "prog %.0f / cache %.0f / read %.0f / erase %.0f us, %s",
              out->capacity_bytes / 1048576.0, cache_pct, out->op_pct, out->units, out->block_pages,
              out->gc_threshold, out->t_prog_ns / 1e3, out->t_prog_cache_ns / 1e3, out->t_read_ns / 1e3,
              out->t_erase_ns / 1e3,
              out->initial == SSD_INITIAL_FRESH ? "fresh" : "used, trimmed");
}

void
ssd_random_drive (guint64    seed,
                  SsdConfig *out,
                  guint     *out_interval_ms,
                  char      *out_what,
                  gsize      what_size)
{
  guint64 state = mix (seed ^ G_GUINT64_CONSTANT (0xd21e));
  char what[300];
  double scale, rows, fill_s;

  ssd_random_config (mix (seed), out, what, sizeof what);
  uniform (&state);
  /* Times up to 30 times slower; and slow enough that the probe's 2 s
   * write a quarter of the capacity at most at the start's rate, as on a
   * drive of hundreds of GB (on a fast small model it would write all of
   * it, and run into garbage collection before the fill). */
  scale = exp (between (&state, 0, log (30)));
  scale = MAX (scale, 2e9 / (0.25 * out->capacity_bytes / SSD_PAGE_SIZE *
                             MIN (out->cache_bytes > 0 ? out->t_prog_cache_ns : out->t_prog_ns, out->t_prog_ns) /
                             out->units));
  out->t_read_ns = (guint64) (out->t_read_ns * scale);
  out->t_prog_ns = (guint64) (out->t_prog_ns * scale);
  out->t_prog_cache_ns = (guint64) (out->t_prog_cache_ns * scale);
  out->t_erase_ns = (guint64) (out->t_erase_ns * scale);
  out->idle_ns = (guint64) (out->idle_ns * scale);
  /* The fill's time at the native program time, in rows. */
  rows = exp (between (&state, log (500), log (20000)));
  fill_s = 2.0 * out->capacity_bytes / SSD_PAGE_SIZE * out->t_prog_ns / out->units / 1e9;
  *out_interval_ms = CLAMP ((guint) (fill_s * 1000 / rows), 1, 1000);
  g_snprintf (out_what, what_size, "%s, times x %.1f, rows of %u ms", what, scale, *out_interval_ms);
}

void
ssd_wide_drive (guint64    seed,
                SsdConfig *out,
                guint     *out_interval_ms,
                char      *out_what,
                gsize      what_size)
{
  static const guint block_sizes[] = { 32, 64, 128, 256 };
  guint64 state = mix (seed ^ G_GUINT64_CONSTANT (0x3a7e));
  guint blocks_per_unit, need;
  double cache_pct, scale, rows, fill_s, erase_share;

  uniform (&state);
  memset (out, 0, sizeof *out);
  out->shape = "wide";
  out->units = (guint) floor (exp (between (&state, 0, log (32.999))));
  out->block_pages = block_sizes[(guint) (uniform (&state) * G_N_ELEMENTS (block_sizes))];
  out->op_pct = exp (between (&state, log (2), log (50)));
  out->gc_threshold = 1 + (guint) (uniform (&state) * 4);
  out->t_prog_ns = (guint64) exp (between (&state, log (100000), log (3000000)));
  out->t_prog_cache_ns = MAX ((guint64) (out->t_prog_ns * between (&state, 0.1, 0.8)), 1);
  out->t_read_ns = (guint64) (out->t_prog_ns * between (&state, 0.03, 0.3));
  /* An erase costs 2–20 % of programming its block's pages (set below,
   * once the block size is: blocks here are smaller than a real one's
   * hundreds of pages). */
  erase_share = between (&state, 0.02, 0.2);
  out->idle_ns = 2000000;
  if (uniform (&state) < 0.2)
    {
      out->initial = SSD_INITIAL_TRIMMED_USED;
      out->bg_share_pct = between (&state, 10, 40);
    }
  else
    out->initial = SSD_INITIAL_FRESH;
  cache_pct = uniform (&state) < 0.25 ? 0 : between (&state, 2, 70);

  /* Each unit's spare area holds GC's reserve and its two open blocks
   * (ssd_config_check()): smaller blocks, then a lower threshold, then
   * more blocks where a small spare area on many units needs them, up to
   * 512 MiB; at least 64 MiB (see ssd_random_config()). */
  blocks_per_unit = 48 + (guint) (uniform (&state) * 81);
  for (;;)
    {
      need = (guint) ceil ((out->gc_threshold + 3) * 100.0 / out->op_pct) + 2;
      if ((guint64) out->units * MAX (blocks_per_unit, need) * out->block_pages * SSD_PAGE_SIZE <= 512u << 20)
        break;
      if (out->block_pages > 8)
        out->block_pages /= 2;
      else if (out->gc_threshold > 1)
        out->gc_threshold--;
      else if (out->units > 1)
        out->units--;
      else
        break;
    }
  blocks_per_unit = MAX (blocks_per_unit, need);
  while ((guint64) out->units * blocks_per_unit * out->block_pages * SSD_PAGE_SIZE > 256u << 20 &&
         blocks_per_unit > need && out->block_pages > 8)
    out->block_pages /= 2;
  while ((guint64) out->units * blocks_per_unit * out->block_pages * SSD_PAGE_SIZE < 64u << 20)
    blocks_per_unit++;
  out->capacity_bytes = (guint64) out->units * blocks_per_unit * out->block_pages * SSD_PAGE_SIZE;
  out->cache_bytes = (guint64) (out->capacity_bytes * cache_pct / 100.0) / SSD_PAGE_SIZE * SSD_PAGE_SIZE;
  out->t_erase_ns = (guint64) (erase_share * out->block_pages * out->t_prog_ns);

  /* Times up to 30 times slower; and slow enough that the probe's 2 s
   * write a quarter of the capacity at most at the start's rate, as on a
   * drive of hundreds of GB (on a fast small model it would write all of
   * it, and run into garbage collection before the fill). */
  scale = exp (between (&state, 0, log (30)));
  scale = MAX (scale, 2e9 / (0.25 * out->capacity_bytes / SSD_PAGE_SIZE *
                             MIN (out->cache_bytes > 0 ? out->t_prog_cache_ns : out->t_prog_ns, out->t_prog_ns) /
                             out->units));
  out->t_read_ns = (guint64) (out->t_read_ns * scale);
  out->t_prog_ns = (guint64) (out->t_prog_ns * scale);
  out->t_prog_cache_ns = (guint64) (out->t_prog_cache_ns * scale);
  out->t_erase_ns = (guint64) (out->t_erase_ns * scale);
  out->idle_ns = (guint64) (out->idle_ns * scale);
  rows = exp (between (&state, log (500), log (20000)));
  fill_s = 2.0 * out->capacity_bytes / SSD_PAGE_SIZE * out->t_prog_ns / out->units / 1e9;
  *out_interval_ms = CLAMP ((guint) (fill_s * 1000 / rows), 1, 1000);
  g_snprintf (out_what, what_size,
              "%.0f MiB, cache %.0f %%, spare %.1f %%, %u units, %u pages a block, GC at %u free, "
              "prog %.0f / cache %.0f / read %.0f / erase %.0f us (x %.1f), %s, rows of %u ms",
              out->capacity_bytes / 1048576.0, cache_pct, out->op_pct, out->units, out->block_pages,
              out->gc_threshold, out->t_prog_ns / 1e3, out->t_prog_cache_ns / 1e3, out->t_read_ns / 1e3,
              out->t_erase_ns / 1e3, scale, out->initial == SSD_INITIAL_FRESH ? "fresh" : "used, trimmed",
              *out_interval_ms);
}
