/* ssd-virtual-seq.c — the sustained sequential write and recovery after idle on the FTL model, in its own time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/duel-offsets.h"
#include "ssd-virtual-rows.h"
#include "ssd-virtual-seq.h"

#define NSEC G_GUINT64_CONSTANT (1000000000)
#define MSEC G_GUINT64_CONSTANT (1000000)

/* A completion: when (from the stage's start), and the bytes completed by then. */
typedef struct
{
  guint64 t;
  guint64 bytes;
} Done;

typedef struct
{
  gboolean random;       /* 4 KiB random writes until end_ns; else sequential from offset 0 */
  guint    block_pages;
  guint    queue_depth;
  guint64  end_ns;       /* random: nothing issued from then on (from the stage's start)... */
  guint64  total;        /* ...or after this many writes, if not 0 */
  gboolean until_fall;   /* sequential: stop a tenth of the capacity after the cache ran out */
  guint64  seed;
} Load;

/* Runs @load on @ftl from @origin (the model's clock), each write issued
 * the instant the one before it in its slot completed; the completions
 * counted into @series's rows and listed in @done. Returns when the last
 * one completed. */
static guint64
run_load (SsdFtl      *ftl,
          const Load  *load,
          guint64      origin,
          guint        interval_ms,
          DuelSeries  *series,
          GArray      *done)
{
  guint64 n_pages = ssd_ftl_n_pages (ftl), next = 0, stop = n_pages, completed = 0, end = 0, h0, issued = 0;
  guint qd = load->queue_depth;
  g_autofree guint64 *done_at = g_new (guint64, qd);
  g_autofree guint64 *issued_at = g_new (guint64, qd);
  g_autofree guint64 *bytes = g_new0 (guint64, qd);
  DuelSeriesRow row = { .t_ms = interval_ms, .temperature_c = NAN };
  DuelOffsets offsets;
  SsdCounters c;

  g_assert (qd >= 1 && interval_ms >= 1 && load->block_pages >= 1);
  ssd_ftl_counters (ftl, &c);
  h0 = c.host_pages_written;
  if (load->random)
    duel_offsets_init (&offsets, DUEL_PATTERN_RANDOM, 0, n_pages * SSD_PAGE_SIZE, SSD_PAGE_SIZE, 0, load->seed);

  for (guint i = 0; i < qd; i++)
    {
      issued_at[i] = origin;
      done_at[i] = G_MAXUINT64;
    }
  for (;;)
    {
      guint m = 0;

      /* Issue into every free slot whose turn it is. */
      for (guint i = 0; i < qd; i++)
        {
          guint64 at = issued_at[i], first, n;

          if (done_at[i] != G_MAXUINT64 || at == G_MAXUINT64)
            continue;
          if (load->random)
            {
              if (load->total > 0 ? issued >= load->total : at - origin >= load->end_ns)
                {
                  issued_at[i] = G_MAXUINT64;
                  continue;
                }
              first = duel_offsets_next (&offsets) / SSD_PAGE_SIZE;
              n = 1;
            }
          else
            {
              if (next >= stop)
                {
                  issued_at[i] = G_MAXUINT64;
                  continue;
                }
              first = next;
              n = MIN (load->block_pages, n_pages - next);
              next += n;
            }
          done_at[i] = ssd_ftl_write (ftl, first, n, at);
          bytes[i] = n * SSD_PAGE_SIZE;
          issued++;
          if (load->until_fall && stop == n_pages)
            {
              ssd_ftl_counters (ftl, &c);
              if (c.slc_full_at >= 0)
                stop = MIN (n_pages, (guint64) c.slc_full_at - h0 + n_pages / 10);
            }
        }
      for (guint i = 1; i < qd; i++)
        if (done_at[i] < done_at[m])
          m = i;
      if (done_at[m] == G_MAXUINT64)
        break;

      {
        guint64 t = done_at[m] - origin;
        Done d;

        ssd_virtual_close_rows (series, &row, interval_ms, t);
        row.ops[DUEL_DIRECTION_WRITE]++;
        row.bytes[DUEL_DIRECTION_WRITE] += bytes[m];
        row.lat_max_ns[DUEL_DIRECTION_WRITE] = MAX (row.lat_max_ns[DUEL_DIRECTION_WRITE], done_at[m] - issued_at[m]);
        completed += bytes[m];
        d.t = t;
        d.bytes = completed;
        g_array_append_val (done, d);
        end = t;
        issued_at[m] = done_at[m];
        done_at[m] = G_MAXUINT64;
      }
    }
  /* The last interval ends with the last write, as the engine's does. */
  row.t_ms = MAX ((end + MSEC - 1) / MSEC, duel_series_get_length (series) * (guint64) interval_ms + 1);
  duel_series_append (series, &row);
  return origin + end;
}

/* MB/s over the completions from @lo to @hi bytes, @margin bytes and 5 %
 * of the span in from each edge; NAN when that leaves too little. */
static double
stretch_mbps (GArray  *done,
              guint64  lo,
              guint64  hi,
              guint64  margin)
{
  const Done *d = (const Done *) done->data;
  guint a = 0, b;

  if (hi <= lo)
    return NAN;
  margin += (hi - lo) / 20;
  if (hi - lo <= 3 * margin)
    return NAN;
  lo += margin;
  hi -= margin;
  while (a < done->len && d[a].bytes < lo)
    a++;
  b = a;
  while (b < done->len && d[b].bytes < hi)
    b++;
  if (b >= done->len || b <= a || d[b].t <= d[a].t)
    return NAN;
  return (double) (d[b].bytes - d[a].bytes) * 1e3 / (double) (d[b].t - d[a].t);
}

static double
burst_iops (GArray  *done,
            guint64  burst_ns)
{
  const Done *d = (const Done *) done->data;
  guint n = 0;

  while (n < done->len && d[n].t < burst_ns)
    n++;
  return n * 1e9 / burst_ns;
}

static gint64
event_bytes (gint64  at,
             guint64 h0)
{
  return at < 0 ? -1 : (gint64) ((guint64) at - h0) * SSD_PAGE_SIZE;
}

void
ssd_seq_plan_init (SsdSeqPlan *plan)
{
  memset (plan, 0, sizeof *plan);
  plan->block_bytes = 1 << 20;
  plan->queue_depth = 8;
  plan->interval_ms = 1000;
  plan->burst_ms = 10000;
  plan->n_idles = 2;
  plan->idle_s[0] = 300;
  plan->idle_s[1] = 1800;
}

void
ssd_virtual_seq_run (const SsdConfig  *cfg,
                     const SsdSeqPlan *plan,
                     SsdSeqTruth      *truth,
                     SsdSeqRows       *rows)
{
  SsdFtl *ftl, *filled = NULL;
  guint64 filled_end = 0;
  guint64 n_pages = cfg->capacity_bytes / SSD_PAGE_SIZE, end, margin;
  Load seq = { FALSE, plan->block_bytes / SSD_PAGE_SIZE, plan->queue_depth, 0, 0, FALSE, 0 };
  Load burst = { TRUE, 1, 32, plan->burst_ms * MSEC, 0, FALSE, 0x5eed };
  g_autoptr(GArray) done = g_array_new (FALSE, FALSE, sizeof (Done));
  g_autoptr(GError) error = NULL;
  SsdSeqRows own;
  SsdCounters c;
  gint64 cache_end, fold_start, fold_end;
  double page_mbps = cfg->units * (double) SSD_PAGE_SIZE * 1e3;

  g_return_if_fail (plan->block_bytes >= SSD_PAGE_SIZE && plan->block_bytes % SSD_PAGE_SIZE == 0);
  g_return_if_fail (plan->n_idles <= SSD_SEQ_MAX_IDLES && plan->burst_ms > 0);

  if (rows == NULL)
    rows = &own;
  memset (rows, 0, sizeof *rows);
  memset (truth, 0, sizeof *truth);
  truth->capacity_bytes = n_pages * SSD_PAGE_SIZE;
  truth->n_idles = plan->n_idles;
  truth->nominal_cache_mbps = page_mbps / cfg->t_prog_cache_ns;
  truth->nominal_direct_mbps = page_mbps / cfg->t_prog_ns;
  truth->nominal_fold_mbps = cfg->slc_bits >= 2
    ? page_mbps / (cfg->t_prog_ns + (double) (cfg->t_read_ns + cfg->t_prog_ns) / (cfg->slc_bits - 1))
    : NAN;

  /* The fresh speed: the burst on a new drive. */
  ftl = ssd_ftl_new (cfg);
  rows->fresh = duel_series_new ();
  ssd_ftl_trim (ftl, 0, n_pages, NSEC);
  run_load (ftl, &burst, NSEC, plan->interval_ms, rows->fresh, done);
  truth->fresh_iops = burst_iops (done, burst.end_ns);
  ssd_ftl_free (ftl);

  /* The fill: a discard, then the whole span. */
  ftl = ssd_ftl_new (cfg);
  ssd_ftl_trim (ftl, 0, n_pages, NSEC);
  ssd_ftl_counters (ftl, &c);
  truth->slc_max_bytes = c.slc_free_pages * SSD_PAGE_SIZE;
  g_array_set_size (done, 0);
  rows->fill = duel_series_new ();
  end = run_load (ftl, &seq, NSEC, plan->interval_ms, rows->fill, done);
  truth->fill_s = (end - NSEC) / 1e9;
  truth->mean_mbps = truth->capacity_bytes / 1e6 / truth->fill_s;
  ssd_ftl_counters (ftl, &c);
  cache_end = truth->cache_end_bytes = event_bytes (c.slc_full_at, 0);
  fold_start = truth->fold_start_bytes = event_bytes (c.slc_fold_first_at, 0);
  fold_end = truth->fold_end_bytes = event_bytes (c.slc_fold_last_at, 0);
  margin = (guint64) plan->queue_depth * plan->block_bytes;
  if (cache_end < 0)
    {
      truth->cache_mbps = NAN;
      truth->direct_mbps = stretch_mbps (done, 0, truth->capacity_bytes, margin);
    }
  else
    {
      truth->cache_mbps = stretch_mbps (done, 0, cache_end, margin);
      truth->direct_mbps = stretch_mbps (done, cache_end, fold_start >= 0 ? (guint64) fold_start : truth->capacity_bytes, margin);
    }
  truth->fold_mbps = fold_start >= 0 ? stretch_mbps (done, fold_start, fold_end, margin) : NAN;
  truth->tail_mbps = fold_end >= 0 ? stretch_mbps (done, fold_end, truth->capacity_bytes, margin) : NAN;

  truth->random_iops = NAN;
  if (plan->random_fill > 0)
    {
      Load random = { TRUE, 1, 32, 0, (guint64) llround (plan->random_fill * n_pages), FALSE, 0x5eed + 2 };
      guint n;

      g_array_set_size (done, 0);
      rows->random = duel_series_new ();
      end = run_load (ftl, &random, end, plan->interval_ms, rows->random, done);
      n = done->len;
      if (n >= 20)
        {
          const Done *a = &g_array_index (done, Done, n - n / 10 - 1), *b = &g_array_index (done, Done, n - 1);

          truth->random_iops = b->t > a->t ? (n / 10) * 1e9 / (b->t - a->t) : NAN;
        }
    }

  if (plan->idles_apart && plan->n_idles > 1)
    {
      filled = ssd_ftl_copy (ftl);
      filled_end = end;
    }
  for (guint k = 0; k < plan->n_idles; k++)
    {
      SsdSeqIdle *idle = &truth->idle[k];
      Load after = seq;
      SsdCounters c0, c1;
      guint64 h0;

      if (filled != NULL && k > 0)
        {
          ssd_ftl_free (ftl);
          ftl = k + 1 < plan->n_idles ? ssd_ftl_copy (filled) : g_steal_pointer (&filled);
          end = filled_end;
        }

      idle->idle_s = plan->idle_s[k];
      ssd_ftl_counters (ftl, &c0);
      end += (guint64) llround (plan->idle_s[k] * 1e9);
      ssd_ftl_idle (ftl, end);
      ssd_ftl_counters (ftl, &c1);
      idle->folded_bytes = (c1.slc_fold_bg_pages - c0.slc_fold_bg_pages) * SSD_PAGE_SIZE;
      idle->gc_bytes = (c1.idle_gc_pages - c0.idle_gc_pages) * SSD_PAGE_SIZE;
      idle->gc_blocks = c1.idle_gc_erases - c0.idle_gc_erases;
      idle->cache_free_bytes = c1.slc_free_pages * SSD_PAGE_SIZE;
      idle->cache_left_bytes = c1.slc_used_pages * SSD_PAGE_SIZE;

      g_array_set_size (done, 0);
      rows->burst[k] = duel_series_new ();
      burst.seed = 0x5eed + 1;   /* the same burst after each idle */
      end = run_load (ftl, &burst, end, plan->interval_ms, rows->burst[k], done);
      idle->burst_iops = burst_iops (done, burst.end_ns);
      idle->recovered_share = truth->fresh_iops > 0 ? idle->burst_iops / truth->fresh_iops : NAN;

      ssd_ftl_reset_events (ftl);
      ssd_ftl_counters (ftl, &c0);
      h0 = c0.host_pages_written;
      g_array_set_size (done, 0);
      rows->after[k] = duel_series_new ();
      after.until_fall = TRUE;
      end = run_load (ftl, &after, end, plan->interval_ms, rows->after[k], done);
      ssd_ftl_counters (ftl, &c1);
      idle->seq_cache_bytes = event_bytes (c1.slc_full_at, h0);
      if (idle->seq_cache_bytes >= 0)
        {
          guint64 written = g_array_index (done, Done, done->len - 1).bytes;

          idle->seq_cache_mbps = stretch_mbps (done, 0, idle->seq_cache_bytes, margin);
          idle->seq_after_mbps = stretch_mbps (done, idle->seq_cache_bytes, written, margin);
        }
      else
        idle->seq_cache_mbps = idle->seq_after_mbps = NAN;
    }

  if (!ssd_ftl_check (ftl, &error))
    g_error ("the model is inconsistent: %s", error->message);
  ssd_ftl_free (ftl);
  ssd_ftl_free (filled);
  if (rows == &own)
    ssd_seq_rows_clear (&own);
}

void
ssd_seq_rows_clear (SsdSeqRows *rows)
{
  g_clear_pointer (&rows->fill, duel_series_free);
  g_clear_pointer (&rows->fresh, duel_series_free);
  g_clear_pointer (&rows->random, duel_series_free);
  for (guint k = 0; k < SSD_SEQ_MAX_IDLES; k++)
    {
      g_clear_pointer (&rows->burst[k], duel_series_free);
      g_clear_pointer (&rows->after[k], duel_series_free);
    }
}

/* Knuth's MMIX LCG, splitmix64's finaliser: as in ssd-virtual-fill.c. */
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

static guint64
mix (guint64 x)
{
  x += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return x ^ (x >> 31);
}

void
ssd_seq_random_config (guint64     seed,
                       SsdConfig  *out,
                       SsdSeqPlan *plan,
                       char       *out_what,
                       gsize       what_size)
{
  static const guint block_sizes[] = { 32, 64, 128 };
  guint64 state = mix (seed ^ G_GUINT64_CONSTANT (0x5e9c));
  guint blocks_per_unit, need;
  guint64 spare_blocks, reserve, static_room, cache, n_pages;
  double cache_pct, static_share, cache_gbs, native_share, scale, fill_s, rows, fresh_iops;

  uniform (&state);
  memset (out, 0, sizeof *out);
  out->shape = "random-slc";
  out->units = (guint) floor (exp (between (&state, 0, log (16.999))));
  out->block_pages = block_sizes[(guint) (uniform (&state) * G_N_ELEMENTS (block_sizes))];
  out->op_pct = between (&state, 3, 40);
  out->gc_threshold = 1 + (guint) (uniform (&state) * 3);
  out->slc_bits = uniform (&state) < 0.6 ? 3 : 4;
  /* Real drives' speeds first: a 4 KiB page a unit. */
  cache_gbs = between (&state, 1.5, 7);
  native_share = between (&state, 0.05, 0.4);
  out->t_prog_cache_ns = MAX ((guint64) (out->units * (double) SSD_PAGE_SIZE / cache_gbs), 1);
  out->t_prog_ns = (guint64) (out->t_prog_cache_ns / native_share);
  out->t_read_ns = MAX ((guint64) (out->t_prog_ns * between (&state, 0.05, 0.3)), 1);
  out->t_erase_ns = (guint64) (out->block_pages * out->t_prog_ns * between (&state, 0.02, 0.1));
  out->initial = SSD_INITIAL_FRESH;
  out->idle_gc = TRUE;
  cache_pct = uniform (&state) < 0.25 ? 0 : between (&state, 2, 50);
  static_share = uniform (&state) < 0.4 ? 0 : between (&state, 0, 0.33);

  /* The geometry as ssd_random_config() sizes it: 64–256 MiB, blocks no
   * smaller than 32 pages (128 KiB: whole 64 KiB writes). */
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
  while ((guint64) out->units * blocks_per_unit * out->block_pages * SSD_PAGE_SIZE < 64u << 20)
    blocks_per_unit++;
  out->capacity_bytes = (guint64) out->units * blocks_per_unit * out->block_pages * SSD_PAGE_SIZE;
  n_pages = out->capacity_bytes / SSD_PAGE_SIZE;

  /* The cache: its static part as far as the spare area holds it
   * (ssd_config_check()), the rest dynamic. */
  cache = (guint64) (n_pages * cache_pct / 100.0);
  spare_blocks = (guint64) (n_pages * out->op_pct / 100.0) / out->block_pages;
  reserve = (guint64) out->units * (out->gc_threshold + 3);
  static_room = spare_blocks > reserve ? (spare_blocks - reserve) * out->block_pages / out->slc_bits : 0;
  if (cache == 0)
    out->slc_bits = 0;
  else
    {
      guint64 st = MIN ((guint64) (cache * static_share), static_room);

      out->slc_static_bytes = st * SSD_PAGE_SIZE;
      out->slc_dynamic_bytes = (cache - st) * SSD_PAGE_SIZE;
    }

  /* Then one factor for all times: a fill of 150–400 rows of 1 s. */
  fill_s = (cache * (double) out->t_prog_cache_ns + (n_pages - cache) * (double) out->t_prog_ns) / out->units / 1e9;
  rows = between (&state, 150, 400);
  scale = MAX (rows / fill_s, 1);
  out->t_read_ns = (guint64) (out->t_read_ns * scale);
  out->t_prog_ns = (guint64) (out->t_prog_ns * scale);
  out->t_prog_cache_ns = (guint64) (out->t_prog_cache_ns * scale);
  out->t_erase_ns = (guint64) (out->t_erase_ns * scale);
  /* A unit idle for 20 programs starts its background work. */
  out->idle_ns = 20 * out->t_prog_ns;

  ssd_seq_plan_init (plan);
  plan->block_bytes = 64 << 10;
  plan->n_idles = 0;
  fresh_iops = out->units * 1e9 / (cache > 0 ? out->t_prog_cache_ns : out->t_prog_ns);
  plan->burst_ms = MAX ((guint64) (0.02 * n_pages / fresh_iops * 1e3), 3 * plan->interval_ms);

  g_snprintf (out_what, what_size,
              "%.0f MiB, cache %.0f %% (static %.1f %%) %s, spare %.1f %%, %u units, %u pages a block, "
              "GC at %u free, prog %.0f / cache %.0f / read %.0f / erase %.0f us (x %.0f of %.1f GB/s in the cache)",
              out->capacity_bytes / 1048576.0, cache_pct, 100.0 * out->slc_static_bytes / out->capacity_bytes,
              out->slc_bits == 4 ? "QLC" : out->slc_bits == 3 ? "TLC" : "-", out->op_pct, out->units,
              out->block_pages, out->gc_threshold, out->t_prog_ns / 1e3, out->t_prog_cache_ns / 1e3,
              out->t_read_ns / 1e3, out->t_erase_ns / 1e3, scale, cache_gbs);
}
