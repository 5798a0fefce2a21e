/* duel-ssd-model.c — a simulated SSD served as one file through FUSE
 *
 * Usage: duel-ssd-model [OPTION…] MOUNTDIR   (see --help and docs/ssd-model.md)
 *
 * Serves MOUNTDIR/ssd.img (direct I/O) over the low-level FUSE API. Each
 * request is handed to the FTL model (ssd-ftl.c) on arrival, which says when
 * the flash work it needs is done; a completion thread replies to FUSE when
 * the wall clock reaches that time. The data is kept in anonymous memory, so
 * reads return what was written and zeros where nothing (or a trim) was.
 * The model's own account (the ground truth) is written as JSON to --log
 * every second and at exit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define FUSE_USE_VERSION 35

#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "ssd-ftl.h"
#include "ssd-shapes.h"

#define ROOT_INO 1
#define FILE_INO 2
#define NSEC     G_GUINT64_CONSTANT (1000000000)
#define WA_STEPS 50   /* write-amplification snapshots every 2 % of capacity written */

typedef enum
{
  OP_READ,
  OP_WRITE,
} OpKind;

typedef struct
{
  guint64    deadline;
  guint64    arrival;
  guint64    seq;
  fuse_req_t req;
  off_t      off;
  size_t     size;
  OpKind     kind;
} Pending;

typedef struct
{
  guint64 read_ops;
  guint64 write_ops;
  guint64 read_bytes;
  guint64 write_bytes_cum;   /* host bytes written (completed) at the end of the second */
  guint64 host_pages_cum;    /* pages the model accepted, at the last completion in the second */
  guint64 programs_cum;      /* flash programs, idem */
  guint64 unit_idle_ns_cum;  /* units' time waiting for the host, idem */
  guint64 max_wait_ns;       /* longest a request completed in this second waited in the model */
  guint64 sum_wait_ns;       /* sum of the waits: / 1 s = mean requests in service */
} Second;

/* Every host request's wait in the model, log-linear: exact below 64 ns,
 * then 64 buckets per power of two (each under 1.6 % wide), to 2^40 ns. */
#define WAIT_SUB      64
#define WAIT_BUCKETS  (WAIT_SUB + (40 - 6) * WAIT_SUB)

typedef struct
{
  guint64 counts[WAIT_BUCKETS];
  guint64 total;
  guint64 max_ns;
} WaitHistogram;

static guint
wait_bucket (guint64 ns)
{
  guint e;

  if (ns < WAIT_SUB)
    return (guint) ns;
  e = 63 - (guint) __builtin_clzll (ns);   /* 2^e <= ns, e >= 6 */
  if (e >= 40)
    return WAIT_BUCKETS - 1;
  return WAIT_SUB + (e - 6) * WAIT_SUB + (guint) ((ns >> (e - 6)) & (WAIT_SUB - 1));
}

/* The smallest wait bucket @i holds. */
static guint64
wait_bucket_floor (guint i)
{
  guint e;

  if (i < WAIT_SUB)
    return i;
  e = 6 + (i - WAIT_SUB) / WAIT_SUB;
  return (guint64) (WAIT_SUB + (i - WAIT_SUB) % WAIT_SUB) << (e - 6);
}

/* A lower bound of the @pct percentile: the floor of the bucket holding the
 * ceil(pct % x total)-th smallest wait, so at least that share of the
 * requests waited no longer than the true percentile and this is <= it. */
static guint64
wait_percentile_floor (const WaitHistogram *h,
                       double               pct)
{
  guint64 rank = (guint64) ceil (pct / 100.0 * (double) h->total), seen = 0;

  if (h->total == 0)
    return 0;
  rank = CLAMP (rank, 1, h->total);
  for (guint i = 0; i < WAIT_BUCKETS; i++)
    {
      seen += h->counts[i];
      if (seen >= rank)
        return wait_bucket_floor (i);
    }
  return h->max_ns;
}

typedef struct
{
  SsdConfig    config;
  const char  *file_name;
  char        *log_path;
  char        *mountpoint;
  SsdFtl      *ftl;
  guint8      *data;
  guint64      size;

  GMutex       lock;         /* everything below */
  GCond        cond;
  Pending     *heap;
  guint        heap_len, heap_cap;
  guint64      seq;
  gboolean     stopping;
  guint64      first_io_ns;  /* the first write's arrival, origin of the seconds; 0: none yet */
  guint64      early_reads;  /* reads completed before it (e.g. the CLI probing the target) */
  guint64      last_reply_ns;
  guint64      last_write_reply_ns;
  GArray      *seconds;      /* Second */
  guint64      write_ops, read_ops, write_bytes, read_bytes, trims, trim_bytes;
  guint64      max_wait_ns, max_wait_at_bytes;
  WaitHistogram read_waits, write_waits;   /* every request, probes included */
  guint64      max_late_ns, late_sum_ns, replies;
  double       precondition_multiple;     /* capacities written in virtual time before serving */
  guint64      precondition_pages, precondition_programs;
  double       precondition_virtual_s;
  GArray      *wa_programs;  /* guint64: programs when host pages first reached k/WA_STEPS of capacity */
  guint        max_in_service;
  guint        conn_max_background;
} Server;

static Server server;

static guint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * NSEC + (guint64) ts.tv_nsec;
}

/* ---- the completion queue: a binary min-heap on (deadline, seq) ---- */

static gboolean
pending_before (const Pending *a,
                const Pending *b)
{
  return a->deadline < b->deadline || (a->deadline == b->deadline && a->seq < b->seq);
}

static void
heap_push (Server        *s,
           const Pending *p)
{
  guint i;

  if (s->heap_len == s->heap_cap)
    {
      s->heap_cap = MAX (64, s->heap_cap * 2);
      s->heap = g_renew (Pending, s->heap, s->heap_cap);
    }
  i = s->heap_len++;
  s->heap[i] = *p;
  while (i > 0 && pending_before (&s->heap[i], &s->heap[(i - 1) / 2]))
    {
      Pending tmp = s->heap[i];

      s->heap[i] = s->heap[(i - 1) / 2];
      s->heap[(i - 1) / 2] = tmp;
      i = (i - 1) / 2;
    }
}

static Pending
heap_pop (Server *s)
{
  Pending top = s->heap[0];
  guint i = 0;

  s->heap[0] = s->heap[--s->heap_len];
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;

      if (l < s->heap_len && pending_before (&s->heap[l], &s->heap[m]))
        m = l;
      if (r < s->heap_len && pending_before (&s->heap[r], &s->heap[m]))
        m = r;
      if (m == i)
        break;
      Pending tmp = s->heap[i];
      s->heap[i] = s->heap[m];
      s->heap[m] = tmp;
      i = m;
    }
  return top;
}

static void
enqueue_locked (Server     *s,
                fuse_req_t  req,
                OpKind      kind,
                off_t       off,
                size_t      size,
                guint64     arrival,
                guint64     deadline)
{
  Pending p = { deadline, arrival, s->seq++, req, off, size, kind };

  heap_push (s, &p);
  s->max_in_service = MAX (s->max_in_service, s->heap_len);
  if (s->heap[0].seq == p.seq)
    g_cond_signal (&s->cond);
}

/* ---- statistics (under the lock) ---- */

static Second *
second_at (Server  *s,
           guint64  t)
{
  guint64 k = (t - s->first_io_ns) / NSEC;

  while (s->seconds->len <= k)
    {
      Second next = { 0 };

      if (s->seconds->len > 0)
        {
          const Second *prev = &g_array_index (s->seconds, Second, s->seconds->len - 1);

          next.write_bytes_cum = prev->write_bytes_cum;
          next.host_pages_cum = prev->host_pages_cum;
          next.programs_cum = prev->programs_cum;
          next.unit_idle_ns_cum = prev->unit_idle_ns_cum;
        }
      g_array_append_val (s->seconds, next);
    }
  return &g_array_index (s->seconds, Second, k);
}

static void
account_locked (Server        *s,
                const Pending *p,
                guint64        reply_ns)
{
  SsdCounters c;
  Second *sec;
  guint64 wait = p->deadline - p->arrival;
  guint64 late = reply_ns > p->deadline ? reply_ns - p->deadline : 0;
  WaitHistogram *h = p->kind == OP_WRITE ? &s->write_waits : &s->read_waits;

  h->counts[wait_bucket (wait)]++;
  h->total++;
  h->max_ns = MAX (h->max_ns, wait);
  if (s->first_io_ns == 0 || reply_ns < s->first_io_ns)
    {
      s->early_reads++;
      s->read_ops++;
      s->read_bytes += p->size;
      return;
    }
  sec = second_at (s, reply_ns);
  ssd_ftl_counters (s->ftl, &c);
  if (p->kind == OP_WRITE)
    {
      s->last_write_reply_ns = MAX (s->last_write_reply_ns, reply_ns);
      s->write_ops++;
      s->write_bytes += p->size;
      sec->write_ops++;
    }
  else
    {
      s->read_ops++;
      s->read_bytes += p->size;
      sec->read_ops++;
      sec->read_bytes += p->size;
    }
  sec->write_bytes_cum = s->write_bytes;
  sec->host_pages_cum = c.host_pages_written;
  sec->programs_cum = c.programs;
  sec->unit_idle_ns_cum = c.unit_idle_ns;
  sec->max_wait_ns = MAX (sec->max_wait_ns, wait);
  sec->sum_wait_ns += wait;
  if (wait > s->max_wait_ns)
    {
      s->max_wait_ns = wait;
      s->max_wait_at_bytes = s->write_bytes;
    }
  s->max_late_ns = MAX (s->max_late_ns, late);
  s->late_sum_ns += late;
  s->replies++;
  s->last_reply_ns = reply_ns;
}

static void
note_wa_locked (Server *s)
{
  SsdCounters c;
  guint64 n_pages = ssd_ftl_n_pages (s->ftl);

  ssd_ftl_counters (s->ftl, &c);
  /* Before the page that reaches step k is counted: programs at exactly k steps. */
  while (c.host_pages_written >= s->wa_programs->len * n_pages / WA_STEPS)
    g_array_append_val (s->wa_programs, c.programs);
}

/* ---- the ground-truth log ---- */

static void
json_nullable (GString    *out,
               const char *key,
               gint64      pages_at,
               guint64     n_pages,
               gboolean    comma)
{
  if (pages_at < 0)
    g_string_append_printf (out, "    \"%s_host_bytes\": null,\n    \"%s_pct\": null%s\n",
                            key, key, comma ? "," : "");
  else
    g_string_append_printf (out, "    \"%s_host_bytes\": %" G_GINT64_FORMAT ",\n    \"%s_pct\": %.3f%s\n",
                            key, pages_at * (gint64) SSD_PAGE_SIZE, key,
                            100.0 * pages_at / n_pages, comma ? "," : "");
}

/* A wait histogram's summary: lower bounds of its percentiles (see
 * wait_percentile_floor) and the exact longest wait. */
static void
json_waits (GString             *out,
            const char          *name,
            const WaitHistogram *h)
{
  g_string_append_printf (out, "  \"%s\": {\n"
                          "    \"count\": %" G_GUINT64_FORMAT ",\n"
                          "    \"p50_floor_ns\": %" G_GUINT64_FORMAT ",\n"
                          "    \"p99_floor_ns\": %" G_GUINT64_FORMAT ",\n"
                          "    \"p99_9_floor_ns\": %" G_GUINT64_FORMAT ",\n"
                          "    \"p99_99_floor_ns\": %" G_GUINT64_FORMAT ",\n"
                          "    \"max_ns\": %" G_GUINT64_FORMAT "\n  },\n",
                          name, h->total, wait_percentile_floor (h, 50), wait_percentile_floor (h, 99),
                          wait_percentile_floor (h, 99.9), wait_percentile_floor (h, 99.99), h->max_ns);
}

static void
json_column (GString    *out,
             const char *key,
             GArray     *seconds,
             gsize       member,
             gboolean    comma)
{
  g_string_append_printf (out, "    \"%s\": [", key);
  for (guint i = 0; i < seconds->len; i++)
    {
      const guint8 *row = (const guint8 *) &g_array_index (seconds, Second, i);

      g_string_append_printf (out, "%s%" G_GUINT64_FORMAT, i ? "," : "",
                              *(const guint64 *) (row + member));
    }
  g_string_append_printf (out, "]%s\n", comma ? "," : "");
}

/* Write IOPS over the last 10 % of the bytes written, from the per-second
 * counts: the time of the 90 % point is interpolated inside its second. */
static double
plateau_iops_locked (Server *s)
{
  guint64 total = s->write_bytes, mark = total - total / 10, prev = 0;
  double t90 = -1, t_end;

  if (total == 0 || s->seconds->len == 0)
    return 0;
  for (guint i = 0; i < s->seconds->len; i++)
    {
      const Second *sec = &g_array_index (s->seconds, Second, i);

      if (sec->write_bytes_cum >= mark && sec->write_bytes_cum > prev)
        {
          t90 = i + (double) (mark - prev) / (sec->write_bytes_cum - prev);
          break;
        }
      prev = sec->write_bytes_cum;
    }
  t_end = (double) (s->last_reply_ns - s->first_io_ns) / NSEC;
  if (t90 < 0 || t_end <= t90)
    return 0;
  return (double) (total - mark) / SSD_PAGE_SIZE / (t_end - t90);
}

static char *
build_log_locked (Server   *s,
                  gboolean  complete)
{
  const SsdConfig *cfg = &s->config;
  GString *out = g_string_new (NULL);
  SsdCounters c;
  guint64 n_pages = ssd_ftl_n_pages (s->ftl);
  double wa = 0, wa_last = 0;
  guint k90;

  ssd_ftl_counters (s->ftl, &c);
  if (c.host_pages_written > 0)
    wa = (double) c.programs / c.host_pages_written;
  /* The last 10 % of the host pages written: from the newest 2 % snapshot at
   * or below the 90 % point. */
  k90 = (guint) (c.host_pages_written * 9 / 10 * WA_STEPS / n_pages);
  if (k90 < s->wa_programs->len && c.host_pages_written > k90 * n_pages / WA_STEPS)
    wa_last = (double) (c.programs - g_array_index (s->wa_programs, guint64, k90)) /
              (c.host_pages_written - k90 * n_pages / WA_STEPS);

  g_string_append (out, "{\n  \"format\": \"duel-ssd-model-truth\",\n  \"version\": 1,\n");
  g_string_append_printf (out, "  \"complete\": %s,\n", complete ? "true" : "false");
  g_string_append_printf (out, "  \"config\": {\n"
                          "    \"shape\": \"%s\",\n"
                          "    \"capacity_bytes\": %" G_GUINT64_FORMAT ",\n"
                          "    \"physical_bytes\": %" G_GUINT64_FORMAT ",\n"
                          "    \"op_pct\": %.3f,\n"
                          "    \"page_bytes\": %u,\n"
                          "    \"block_pages\": %u,\n"
                          "    \"units\": %u,\n"
                          "    \"t_read_ns\": %" G_GUINT64_FORMAT ",\n"
                          "    \"t_prog_ns\": %" G_GUINT64_FORMAT ",\n"
                          "    \"t_prog_cache_ns\": %" G_GUINT64_FORMAT ",\n"
                          "    \"t_erase_ns\": %" G_GUINT64_FORMAT ",\n"
                          "    \"cache_bytes\": %" G_GUINT64_FORMAT ",\n"
                          "    \"gc_threshold_blocks\": %u,\n"
                          "    \"bg_share_pct\": %.3f,\n"
                          "    \"idle_ns\": %" G_GUINT64_FORMAT ",\n"
                          "    \"initial\": \"%s\",\n"
                          "    \"slc_bits\": %u,\n"
                          "    \"slc_static_bytes\": %" G_GUINT64_FORMAT ",\n"
                          "    \"slc_dynamic_bytes\": %" G_GUINT64_FORMAT ",\n"
                          "    \"idle_gc\": %s,\n"
                          "    \"max_background\": %u\n  },\n",
                          cfg->shape, cfg->capacity_bytes,
                          ssd_ftl_n_physical (s->ftl) * SSD_PAGE_SIZE, cfg->op_pct,
                          SSD_PAGE_SIZE, cfg->block_pages, cfg->units, cfg->t_read_ns,
                          cfg->t_prog_ns, cfg->t_prog_cache_ns, cfg->t_erase_ns,
                          cfg->cache_bytes, cfg->gc_threshold, cfg->bg_share_pct, cfg->idle_ns,
                          cfg->initial == SSD_INITIAL_FRESH ? "fresh" : "trimmed-used",
                          cfg->slc_bits, cfg->slc_static_bytes, cfg->slc_dynamic_bytes,
                          cfg->idle_gc ? "true" : "false", s->conn_max_background);
  g_string_append_printf (out, "  \"host\": {\n"
                          "    \"write_ops\": %" G_GUINT64_FORMAT ",\n"
                          "    \"read_ops\": %" G_GUINT64_FORMAT ",\n"
                          "    \"read_ops_before_first_write\": %" G_GUINT64_FORMAT ",\n"
                          "    \"write_bytes\": %" G_GUINT64_FORMAT ",\n"
                          "    \"read_bytes\": %" G_GUINT64_FORMAT ",\n"
                          "    \"trims\": %" G_GUINT64_FORMAT ",\n"
                          "    \"trim_bytes\": %" G_GUINT64_FORMAT ",\n"
                          "    \"capacity_written_pct\": %.3f,\n"
                          "    \"plateau_write_iops\": %.1f,\n"
                          "    \"run_s\": %.3f,\n"
                          "    \"write_run_s\": %.3f,\n"
                          "    \"max_in_service\": %u\n  },\n",
                          s->write_ops, s->read_ops, s->early_reads, s->write_bytes, s->read_bytes,
                          s->trims, s->trim_bytes, 100.0 * s->write_bytes / cfg->capacity_bytes,
                          plateau_iops_locked (s),
                          s->first_io_ns ? (double) (s->last_reply_ns - s->first_io_ns) / NSEC : 0.0,
                          s->first_io_ns ? (double) (s->last_write_reply_ns - s->first_io_ns) / NSEC : 0.0,
                          s->max_in_service);
  g_string_append (out, "  \"events\": {\n");
  json_nullable (out, "cache_exhausted", c.cache_exhausted_at, n_pages, TRUE);
  json_nullable (out, "gc_first", c.gc_first_at, n_pages, TRUE);
  json_nullable (out, "erase_first", c.erase_first_at, n_pages, TRUE);
  json_nullable (out, "backlog_cleared", c.backlog_cleared_at, n_pages, TRUE);
  /* The fill's own: from the last trim of the whole device (the probe
   * writes before it). */
  json_nullable (out, "whole_trim", c.whole_trim_at, n_pages, TRUE);
  json_nullable (out, "cache_exhausted_after_trim", c.cache_exhausted_after_trim_at, n_pages, TRUE);
  /* The pseudo-SLC cache's, from the last whole trim too. */
  json_nullable (out, "slc_full", c.slc_full_at, n_pages, TRUE);
  json_nullable (out, "slc_fold_first", c.slc_fold_first_at, n_pages, TRUE);
  json_nullable (out, "slc_fold_last", c.slc_fold_last_at, n_pages, TRUE);
  g_string_append_printf (out, "    \"cache_exhausted_count\": %" G_GUINT64_FORMAT ",\n"
                          "    \"backlog_initial_blocks\": %" G_GUINT64_FORMAT "\n  },\n",
                          c.cache_exhausted_count, c.backlog_initial);
  g_string_append_printf (out, "  \"flash\": {\n"
                          "    \"host_pages\": %" G_GUINT64_FORMAT ",\n"
                          "    \"cache_pages\": %" G_GUINT64_FORMAT ",\n"
                          "    \"gc_pages\": %" G_GUINT64_FORMAT ",\n"
                          "    \"fold_pages\": %" G_GUINT64_FORMAT ",\n"
                          "    \"programs\": %" G_GUINT64_FORMAT ",\n"
                          "    \"reads\": %" G_GUINT64_FORMAT ",\n"
                          "    \"erases\": %" G_GUINT64_FORMAT ",\n"
                          "    \"gc_erases\": %" G_GUINT64_FORMAT ",\n"
                          "    \"bg_erases\": %" G_GUINT64_FORMAT ",\n"
                          "    \"gc_runs\": %" G_GUINT64_FORMAT ",\n"
                          "    \"gc_copy_runs\": %" G_GUINT64_FORMAT ",\n"
                          "    \"free_blocks\": %" G_GUINT64_FORMAT ",\n"
                          "    \"backlog_blocks\": %" G_GUINT64_FORMAT ",\n"
                          "    \"cache_used_pages\": %" G_GUINT64_FORMAT ",\n"
                          "    \"slc_pages\": %" G_GUINT64_FORMAT ",\n"
                          "    \"slc_fold_fg_pages\": %" G_GUINT64_FORMAT ",\n"
                          "    \"slc_fold_bg_pages\": %" G_GUINT64_FORMAT ",\n"
                          "    \"slc_used_pages\": %" G_GUINT64_FORMAT ",\n"
                          "    \"slc_free_pages\": %" G_GUINT64_FORMAT ",\n"
                          "    \"idle_gc_pages\": %" G_GUINT64_FORMAT ",\n"
                          "    \"idle_gc_erases\": %" G_GUINT64_FORMAT "\n  },\n",
                          c.host_pages_written, c.cache_pages_written, c.gc_pages, c.fold_pages,
                          c.programs, c.flash_reads, c.erases, c.gc_erases, c.bg_erases,
                          c.gc_runs, c.gc_copy_runs, c.free_blocks, c.dirty_blocks,
                          c.cache_used_pages, c.slc_pages_written, c.slc_fold_fg_pages,
                          c.slc_fold_bg_pages, c.slc_used_pages, c.slc_free_pages,
                          c.idle_gc_pages, c.idle_gc_erases);
  g_string_append_printf (out, "  \"write_amplification\": %.4f,\n"
                          "  \"write_amplification_last10\": %.4f,\n", wa, wa_last);
  g_string_append (out, "  \"write_amplification_programs\": [");
  for (guint i = 0; i < s->wa_programs->len; i++)
    g_string_append_printf (out, "%s%" G_GUINT64_FORMAT, i ? "," : "",
                            g_array_index (s->wa_programs, guint64, i));
  g_string_append_printf (out, "],\n  \"write_amplification_step_pct\": %.1f,\n", 100.0 / WA_STEPS);
  g_string_append_printf (out, "  \"stall\": {\n"
                          "    \"max_wait_ns\": %" G_GUINT64_FORMAT ",\n"
                          "    \"max_wait_at_host_bytes\": %" G_GUINT64_FORMAT ",\n"
                          "    \"reply_late_max_ns\": %" G_GUINT64_FORMAT ",\n"
                          "    \"reply_late_mean_ns\": %.0f\n  },\n",
                          s->max_wait_ns, s->max_wait_at_bytes, s->max_late_ns,
                          s->replies ? (double) s->late_sum_ns / s->replies : 0.0);
  json_waits (out, "read_waits", &s->read_waits);
  json_waits (out, "write_waits", &s->write_waits);
  g_string_append_printf (out, "  \"precondition\": {\n"
                          "    \"capacity_multiple\": %.3f,\n"
                          "    \"host_pages\": %" G_GUINT64_FORMAT ",\n"
                          "    \"programs\": %" G_GUINT64_FORMAT ",\n"
                          "    \"virtual_s\": %.3f\n  },\n",
                          s->precondition_multiple, s->precondition_pages,
                          s->precondition_programs, s->precondition_virtual_s);
  g_string_append (out, "  \"seconds\": {\n");
  g_string_append_printf (out, "    \"count\": %u,\n", s->seconds->len);
  json_column (out, "read_ops", s->seconds, G_STRUCT_OFFSET (Second, read_ops), TRUE);
  json_column (out, "write_ops", s->seconds, G_STRUCT_OFFSET (Second, write_ops), TRUE);
  json_column (out, "host_bytes_written", s->seconds, G_STRUCT_OFFSET (Second, write_bytes_cum), TRUE);
  json_column (out, "model_host_pages", s->seconds, G_STRUCT_OFFSET (Second, host_pages_cum), TRUE);
  json_column (out, "flash_programs", s->seconds, G_STRUCT_OFFSET (Second, programs_cum), TRUE);
  json_column (out, "unit_idle_ns", s->seconds, G_STRUCT_OFFSET (Second, unit_idle_ns_cum), TRUE);
  json_column (out, "max_wait_ns", s->seconds, G_STRUCT_OFFSET (Second, max_wait_ns), TRUE);
  json_column (out, "sum_wait_ns", s->seconds, G_STRUCT_OFFSET (Second, sum_wait_ns), FALSE);
  g_string_append (out, "  }\n}\n");
  return g_string_free (out, FALSE);
}

static void
write_log (Server   *s,
           gboolean  complete)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (s->log_path == NULL)
    return;
  g_mutex_lock (&s->lock);
  text = build_log_locked (s, complete);
  g_mutex_unlock (&s->lock);
  /* Atomic: a reader (or a crash) sees the old log or the new one. */
  if (!g_file_set_contents (s->log_path, text, -1, &error))
    g_printerr ("duel-ssd-model: %s\n", error->message);
}

/* ---- threads ---- */

/* SIGUSR1: from now on the server takes every request and answers none (a
 * drive that accepts commands and never completes them), until SIGUSR2
 * lets it answer them all, or it is stopped. Unlike a stopped process, which leaves requests the kernel has
 * not handed over yet to be cancelled by the caller's stop, every request
 * is then one the kernel must wait for, however loaded the host. With
 * --hold-file, the number of requests held is written there as it grows. */
static volatile sig_atomic_t hold_requested;
static char *hold_file;

static void
hold_signal_cb (int sig)
{
  hold_requested = sig == SIGUSR1;
}

static void
write_hold_count (guint held)
{
  g_autofree char *text = g_strdup_printf ("%u\n", held);

  if (hold_file != NULL)
    g_file_set_contents (hold_file, text, -1, NULL);
}

static gpointer
completion_thread (gpointer data)
{
  Server *s = data;
  Pending batch[64];
  guint held = 0;

  prctl (PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  g_mutex_lock (&s->lock);
  for (;;)
    {
      guint n = 0;
      guint64 t;

      /* Holding: no answer but at the end; the count as it grows. */
      if (hold_requested && !s->stopping)
        {
          if (s->heap_len != held)
            {
              held = s->heap_len;
              g_mutex_unlock (&s->lock);
              write_hold_count (held);
              g_mutex_lock (&s->lock);
            }
          g_cond_wait_until (&s->cond, &s->lock, g_get_monotonic_time () + 100 * G_TIME_SPAN_MILLISECOND);
          continue;
        }
      if (s->heap_len == 0)
        {
          if (s->stopping)
            break;
          g_cond_wait (&s->cond, &s->lock);
          continue;
        }
      t = now_ns ();
      if (s->heap[0].deadline > t && !s->stopping)
        {
          /* g_cond_wait_until counts in µs of CLOCK_MONOTONIC, as now_ns does. */
          g_cond_wait_until (&s->cond, &s->lock,
                             (gint64) ((s->heap[0].deadline + 999) / 1000));
          continue;
        }
      while (s->heap_len > 0 && n < G_N_ELEMENTS (batch) &&
             (s->heap[0].deadline <= t || s->stopping))
        {
          batch[n] = heap_pop (s);
          account_locked (s, &batch[n], t);
          n++;
        }
      g_mutex_unlock (&s->lock);
      for (guint i = 0; i < n; i++)
        {
          const Pending *p = &batch[i];

          if (p->kind == OP_WRITE)
            fuse_reply_write (p->req, p->size);
          else
            fuse_reply_buf (p->req, (const char *) s->data + p->off, p->size);
        }
      g_mutex_lock (&s->lock);
    }
  g_mutex_unlock (&s->lock);
  return NULL;
}

static gboolean log_thread_stop;

static gpointer
log_thread (gpointer data)
{
  Server *s = data;

  while (!g_atomic_int_get (&log_thread_stop))
    {
      for (int i = 0; i < 10 && !g_atomic_int_get (&log_thread_stop); i++)
        g_usleep (100000);
      if (!g_atomic_int_get (&log_thread_stop))
        write_log (s, FALSE);
    }
  return NULL;
}

/* ---- FUSE operations ---- */

static void
fill_attr (struct stat *st,
           fuse_ino_t   ino)
{
  memset (st, 0, sizeof *st);
  st->st_ino = ino;
  st->st_uid = getuid ();
  st->st_gid = getgid ();
  st->st_atime = st->st_mtime = st->st_ctime = time (NULL);
  if (ino == ROOT_INO)
    {
      st->st_mode = S_IFDIR | 0755;
      st->st_nlink = 2;
    }
  else
    {
      st->st_mode = S_IFREG | 0644;
      st->st_nlink = 1;
      st->st_size = (off_t) server.size;
      st->st_blksize = SSD_PAGE_SIZE;
      st->st_blocks = (blkcnt_t) (server.size / 512);
    }
}

static void
model_init (void                  *userdata,
            struct fuse_conn_info *conn)
{
  Server *s = userdata;

  /* FUSE's async direct I/O is limited to max_background requests in flight
   * (default 12); QD32 needs more. */
  conn->max_background = 128;
  conn->congestion_threshold = 96;
  if (conn->capable & FUSE_CAP_ASYNC_DIO)
    conn->want |= FUSE_CAP_ASYNC_DIO;
  s->conn_max_background = conn->max_background;
}

/* How long the kernel keeps the file's attributes before it asks again
 * (--attr-timeout; an hour by default: they never change). */
static double attr_timeout_s = 3600;

static void
model_lookup (fuse_req_t  req,
              fuse_ino_t  parent,
              const char *name)
{
  struct fuse_entry_param e;

  if (parent != ROOT_INO || strcmp (name, server.file_name) != 0)
    {
      fuse_reply_err (req, ENOENT);
      return;
    }
  memset (&e, 0, sizeof e);
  e.ino = FILE_INO;
  e.attr_timeout = attr_timeout_s;
  e.entry_timeout = attr_timeout_s;
  fill_attr (&e.attr, FILE_INO);
  fuse_reply_entry (req, &e);
}

static void
model_getattr (fuse_req_t             req,
               fuse_ino_t             ino,
               struct fuse_file_info *fi)
{
  struct stat st;

  (void) fi;
  if (ino != ROOT_INO && ino != FILE_INO)
    {
      fuse_reply_err (req, ENOENT);
      return;
    }
  fill_attr (&st, ino);
  fuse_reply_attr (req, &st, attr_timeout_s);
}

static void
model_setattr (fuse_req_t             req,
               fuse_ino_t             ino,
               struct stat           *attr,
               int                    to_set,
               struct fuse_file_info *fi)
{
  struct stat st;

  (void) fi;
  /* The drive's size is fixed; times and modes are accepted and forgotten. */
  if ((to_set & FUSE_SET_ATTR_SIZE) && (guint64) attr->st_size != server.size)
    {
      fuse_reply_err (req, EPERM);
      return;
    }
  fill_attr (&st, ino);
  fuse_reply_attr (req, &st, 3600);
}

static void
model_readdir (fuse_req_t             req,
               fuse_ino_t             ino,
               size_t                 size,
               off_t                  off,
               struct fuse_file_info *fi)
{
  char buf[512];
  size_t used = 0;
  struct stat st;
  const char *names[] = { ".", "..", server.file_name };
  fuse_ino_t inos[] = { ROOT_INO, ROOT_INO, FILE_INO };

  (void) fi;
  if (ino != ROOT_INO)
    {
      fuse_reply_err (req, ENOTDIR);
      return;
    }
  for (off_t i = off; i < 3; i++)
    {
      size_t need;

      fill_attr (&st, inos[i]);
      need = fuse_add_direntry (req, buf + used, MIN (size, sizeof buf) - used,
                                names[i], &st, i + 1);
      if (used + need > MIN (size, sizeof buf))
        break;
      used += need;
    }
  fuse_reply_buf (req, buf, used);
}

static void
model_open (fuse_req_t             req,
            fuse_ino_t             ino,
            struct fuse_file_info *fi)
{
  if (ino != FILE_INO)
    {
      fuse_reply_err (req, EISDIR);
      return;
    }
  if (fi->flags & O_TRUNC)
    {
      fuse_reply_err (req, EPERM);
      return;
    }
  /* Every read and write comes here, whatever the caller's flags: no page cache. */
  fi->direct_io = 1;
  fi->keep_cache = 0;
  fuse_reply_open (req, fi);
}

/* --stop-at-poll: the next poll stops the server first. */
static int stop_at_poll;

/* Answered as without it (the kernel then stops asking: one poll per
 * mount, from io_uring's first submit to the file). With --stop-at-poll the
 * whole server first stops itself (SIGSTOP), as if stopped just then: that
 * submit waits in the kernel until the server is continued, a stall the
 * engine must not take for a pause of its own process
 * (test-ssd-stall.sh). */
static void
model_poll (fuse_req_t               req,
            fuse_ino_t               ino,
            struct fuse_file_info   *fi,
            struct fuse_pollhandle  *ph)
{
  (void) ino; (void) fi;
  if (ph != NULL)
    fuse_pollhandle_destroy (ph);
  if (g_atomic_int_compare_and_exchange (&stop_at_poll, TRUE, FALSE))
    {
      g_print ("duel-ssd-model: stopped at the first poll\n");
      fflush (stdout);
      raise (SIGSTOP);
    }
  fuse_reply_err (req, ENOSYS);
}

static gboolean
range_ok (fuse_req_t  req,
          off_t       off,
          size_t     *size,
          gboolean    writing)
{
  if (off < 0 || (guint64) off > server.size)
    {
      fuse_reply_err (req, writing ? ENOSPC : EINVAL);
      return FALSE;
    }
  if ((guint64) off + *size > server.size)
    {
      if (writing)
        {
          fuse_reply_err (req, ENOSPC);
          return FALSE;
        }
      *size = server.size - (guint64) off;
    }
  return TRUE;
}

static void
model_read (fuse_req_t             req,
            fuse_ino_t             ino,
            size_t                 size,
            off_t                  off,
            struct fuse_file_info *fi)
{
  Server *s = &server;
  guint64 t = now_ns (), done;

  (void) ino; (void) fi;
  if (!range_ok (req, off, &size, FALSE))
    return;
  if (size == 0)
    {
      fuse_reply_buf (req, NULL, 0);
      return;
    }
  g_mutex_lock (&s->lock);
  done = ssd_ftl_read (s->ftl, (guint64) off / SSD_PAGE_SIZE,
                       ((guint64) off + size - 1) / SSD_PAGE_SIZE - (guint64) off / SSD_PAGE_SIZE + 1, t);
  enqueue_locked (s, req, OP_READ, off, size, t, done);
  g_mutex_unlock (&s->lock);
}

static void
model_write (fuse_req_t             req,
             fuse_ino_t             ino,
             const char            *buf,
             size_t                 size,
             off_t                  off,
             struct fuse_file_info *fi)
{
  Server *s = &server;
  guint64 t = now_ns (), done;

  (void) ino; (void) fi;
  if (!range_ok (req, off, &size, TRUE))
    return;
  if (size == 0)
    {
      fuse_reply_write (req, 0);
      return;
    }
  memcpy (s->data + off, buf, size);
  g_mutex_lock (&s->lock);
  if (s->first_io_ns == 0)
    s->first_io_ns = t;
  note_wa_locked (s);
  done = ssd_ftl_write (s->ftl, (guint64) off / SSD_PAGE_SIZE,
                        ((guint64) off + size - 1) / SSD_PAGE_SIZE - (guint64) off / SSD_PAGE_SIZE + 1, t);
  enqueue_locked (s, req, OP_WRITE, off, size, t, done);
  g_mutex_unlock (&s->lock);
}

static void
model_fallocate (fuse_req_t             req,
                 fuse_ino_t             ino,
                 int                    mode,
                 off_t                  off,
                 off_t                  length,
                 struct fuse_file_info *fi)
{
  Server *s = &server;
  guint64 first, end;

  (void) ino; (void) fi;
  if (off < 0 || length <= 0)
    {
      fuse_reply_err (req, EINVAL);
      return;
    }
  if (mode == 0 || mode == FALLOC_FL_KEEP_SIZE)
    {
      /* Allocation inside the drive is a no-op; it cannot grow. */
      fuse_reply_err (req, (guint64) off + (guint64) length <= s->size || (mode & FALLOC_FL_KEEP_SIZE)
                      ? 0 : EFBIG);
      return;
    }
  if (mode != (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE))
    {
      fuse_reply_err (req, EOPNOTSUPP);
      return;
    }
  if ((guint64) off >= s->size)
    {
      fuse_reply_err (req, 0);
      return;
    }
  end = MIN ((guint64) off + (guint64) length, s->size);
  /* Whole pages are trimmed (and read back as zeros); the partial pages at
   * the ends are zeroed but stay mapped, as a drive would write them. */
  first = ((guint64) off + SSD_PAGE_SIZE - 1) / SSD_PAGE_SIZE;
  memset (s->data + off, 0, MIN (end, first * SSD_PAGE_SIZE) - (guint64) off);
  if (end / SSD_PAGE_SIZE > first)
    {
      guint64 n = end / SSD_PAGE_SIZE - first;

      madvise (s->data + first * SSD_PAGE_SIZE, n * SSD_PAGE_SIZE, MADV_DONTNEED);
      g_mutex_lock (&s->lock);
      ssd_ftl_trim (s->ftl, first, n, now_ns ());
      s->trims++;
      s->trim_bytes += n * SSD_PAGE_SIZE;
      g_mutex_unlock (&s->lock);
    }
  if (end % SSD_PAGE_SIZE != 0 && end / SSD_PAGE_SIZE >= first)
    memset (s->data + end / SSD_PAGE_SIZE * SSD_PAGE_SIZE, 0, end % SSD_PAGE_SIZE);
  fuse_reply_err (req, 0);
}

static void
model_ok (fuse_req_t             req,
          fuse_ino_t             ino,
          struct fuse_file_info *fi)
{
  (void) ino; (void) fi;
  fuse_reply_err (req, 0);
}

static void
model_fsync (fuse_req_t             req,
             fuse_ino_t             ino,
             int                    datasync,
             struct fuse_file_info *fi)
{
  (void) ino; (void) datasync; (void) fi;
  fuse_reply_err (req, 0);
}

static const struct fuse_lowlevel_ops model_ops = {
  .init = model_init,
  .lookup = model_lookup,
  .getattr = model_getattr,
  .setattr = model_setattr,
  .readdir = model_readdir,
  .open = model_open,
  .read = model_read,
  .write = model_write,
  .fallocate = model_fallocate,
  .flush = model_ok,
  .release = model_ok,
  .fsync = model_fsync,
  .poll = model_poll,
};

/* ---- the model alone, in virtual time: --simulate, --precondition ---- */

/* A closed loop like the engine's: qd random 4 KiB writes in flight, a new one
 * issued when the earliest completes, until multiple x the capacity is
 * written, from virtual time t0. With @print, write IOPS per 5 % of capacity
 * written. Returns when the last write completed; no FUSE, no wall clock,
 * deterministic. */
static guint64
fill_virtual (SsdFtl   *ftl,
              guint     qd,
              double    multiple,
              guint64   t0,
              gboolean  print,
              guint64  *out_max_wait)
{
  guint64 n_pages = ssd_ftl_n_pages (ftl), total = (guint64) (n_pages * multiple);
  g_autofree guint64 *done = g_new (guint64, qd);
  g_autofree guint64 *issued_at = g_new (guint64, qd);
  guint64 now = t0, mark_t = t0, mark_n = 0, end = t0;
  guint64 step = MAX (n_pages / 20, 1), max_wait = 0;
  g_autoptr(GRand) rng = g_rand_new_with_seed (24301);

  for (guint i = 0; i < qd; i++)
    {
      issued_at[i] = now;
      done[i] = i < total ? ssd_ftl_write (ftl, g_rand_int_range (rng, 0, (gint32) n_pages), 1, now)
                          : G_MAXUINT64;
    }
  if (print)
    g_print ("%% written   write IOPS\n");
  for (guint64 n = qd; n < total + qd; n++)
    {
      guint m = 0;

      for (guint i = 1; i < qd; i++)
        if (done[i] < done[m])
          m = i;
      if (done[m] == G_MAXUINT64)
        break;
      now = end = done[m];
      max_wait = MAX (max_wait, now - issued_at[m]);
      if (print && (n - qd + 1) % step == 0)
        {
          g_print ("%8.0f   %10.0f\n", 100.0 * (n - qd + 1) / n_pages,
                   (double) (n - qd + 1 - mark_n) * NSEC / (now - mark_t));
          mark_n = n - qd + 1;
          mark_t = now;
        }
      if (n < total)
        {
          issued_at[m] = now;
          done[m] = ssd_ftl_write (ftl, g_rand_int_range (rng, 0, (gint32) n_pages), 1, now);
        }
      else
        done[m] = G_MAXUINT64;
    }
  if (out_max_wait != NULL)
    *out_max_wait = max_wait;
  return end;
}

static int
simulate (const SsdConfig *cfg,
          guint            qd,
          double           multiple)
{
  SsdFtl *ftl = ssd_ftl_new (cfg);
  guint64 n_pages = ssd_ftl_n_pages (ftl), t0 = 1000000, end, max_wait = 0;
  g_autoptr(GError) error = NULL;
  SsdCounters c;

  end = fill_virtual (ftl, qd, multiple, t0, TRUE, &max_wait);
  ssd_ftl_counters (ftl, &c);
  g_print ("time %.2f s (virtual), cache out at %.1f %%, GC from %.1f %%, backlog cleared at %.1f %%, "
           "WA %.3f, longest wait %.1f ms\n",
           (double) (end - t0) / NSEC,
           c.cache_exhausted_at < 0 ? -1.0 : 100.0 * c.cache_exhausted_at / n_pages,
           c.gc_first_at < 0 ? -1.0 : 100.0 * c.gc_first_at / n_pages,
           c.backlog_cleared_at < 0 ? -1.0 : 100.0 * c.backlog_cleared_at / n_pages,
           (double) c.programs / c.host_pages_written, max_wait / 1e6);
  if (!ssd_ftl_check (ftl, &error))
    {
      g_printerr ("duel-ssd-model: the model is inconsistent: %s\n", error->message);
      return 1;
    }
  ssd_ftl_free (ftl);
  return 0;
}

/* ---- options ---- */

static gboolean
parse_size (const char *text,
            guint64     capacity,
            guint64    *out)
{
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);

  if (end == text || v < 0)
    return FALSE;
  switch (g_ascii_tolower (*end))
    {
    case '\0': break;
    case 'k': v *= 1024.0; end++; break;
    case 'm': v *= 1024.0 * 1024; end++; break;
    case 'g': v *= 1024.0 * 1024 * 1024; end++; break;
    case '%': v = capacity * v / 100.0; end++; break;
    default: return FALSE;
    }
  if (*end == 'i' || *end == 'I')
    end++;
  if (*end == 'b' || *end == 'B')
    end++;
  if (*end != '\0')
    return FALSE;
  *out = (guint64) v / SSD_PAGE_SIZE * SSD_PAGE_SIZE;
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *shape_name = NULL, *capacity = NULL, *cache = NULL, *initial = NULL;
  g_autofree char *slc_static = NULL, *slc_dynamic = NULL, *idle_gc = NULL;
  g_autofree char *pid_file = NULL, *file_name = NULL;
  double op = -1, bg_share = -1, t_read = -1, t_prog = -1, t_prog_cache = -1, t_erase = -1, idle = -1;
  int units = -1, block_pages = -1, gc_threshold = -1, threads = 8, sim_qd = 0, slc_bits = -1;
  double sim_multiple = 2.0, precondition = 0;
  gboolean list_shapes = FALSE, stop_at_first_poll = FALSE;
  const SsdShape *shape = ssd_shape_get (0);
  GOptionEntry entries[] = {
    { "shape", 0, 0, G_OPTION_ARG_STRING, &shape_name, "Named shape the defaults come from: falls, rises, flat, slc-tlc, slc-qlc (default falls)", "NAME" },
    { "list-shapes", 0, 0, G_OPTION_ARG_NONE, &list_shapes, "List the named shapes and their parameters", NULL },
    { "capacity", 0, 0, G_OPTION_ARG_STRING, &capacity, "Logical capacity, e.g. 256m (default 256m)", "SIZE" },
    { "op", 0, 0, G_OPTION_ARG_DOUBLE, &op, "Over-provisioning in % of the capacity", "PCT" },
    { "cache", 0, 0, G_OPTION_ARG_STRING, &cache, "Write cache size: bytes (64m) or % of the capacity (20%); 0 for none", "SIZE" },
    { "units", 0, 0, G_OPTION_ARG_INT, &units, "Flash units (dies) working in parallel", "N" },
    { "block-pages", 0, 0, G_OPTION_ARG_INT, &block_pages, "4 KiB pages per erase block", "N" },
    { "t-read-us", 0, 0, G_OPTION_ARG_DOUBLE, &t_read, "Page read time", "US" },
    { "t-prog-us", 0, 0, G_OPTION_ARG_DOUBLE, &t_prog, "Native (TLC) page program time", "US" },
    { "t-prog-cache-us", 0, 0, G_OPTION_ARG_DOUBLE, &t_prog_cache, "Program time into the write cache", "US" },
    { "t-erase-us", 0, 0, G_OPTION_ARG_DOUBLE, &t_erase, "Block erase time", "US" },
    { "gc-threshold", 0, 0, G_OPTION_ARG_INT, &gc_threshold, "GC runs when a unit has this many free blocks or fewer", "BLOCKS" },
    { "bg-share", 0, 0, G_OPTION_ARG_DOUBLE, &bg_share, "% of a busy unit's time the erase backlog takes", "PCT" },
    { "idle-ms", 0, 0, G_OPTION_ARG_DOUBLE, &idle, "Idle time after which a unit does background work", "MS" },
    { "initial", 0, 0, G_OPTION_ARG_STRING, &initial, "Initial state: fresh or trimmed-used", "STATE" },
    { "slc-bits", 0, 0, G_OPTION_ARG_INT, &slc_bits, "A pseudo-SLC cache on flash of this many bits a cell (3 TLC, 4 QLC; 0 none; it replaces --cache)", "N" },
    { "slc-static", 0, 0, G_OPTION_ARG_STRING, &slc_static, "Its static part: bytes or % of the capacity, kept in the spare area", "SIZE" },
    { "slc-dynamic", 0, 0, G_OPTION_ARG_STRING, &slc_dynamic, "Its dynamic part at most: bytes or % of the capacity, as free space allows", "SIZE" },
    { "idle-gc", 0, 0, G_OPTION_ARG_STRING, &idle_gc, "Garbage collection in idle time: yes or no", "YES|NO" },
    { "log", 0, 0, G_OPTION_ARG_FILENAME, &server.log_path, "Write the ground truth (JSON) here, every second and at exit", "FILE" },
    { "pid-file", 0, 0, G_OPTION_ARG_FILENAME, &pid_file, "Write the process id here once mounted", "FILE" },
    { "file-name", 0, 0, G_OPTION_ARG_STRING, &file_name, "Name of the served file (default ssd.img)", "NAME" },
    { "simulate", 0, 0, G_OPTION_ARG_INT, &sim_qd, "Do not mount: simulate a random-write fill at this queue depth in virtual time and print the curve", "QD" },
    { "simulate-size", 0, 0, G_OPTION_ARG_DOUBLE, &sim_multiple, "With --simulate: capacities to write (default 2)", "X" },
    { "precondition", 0, 0, G_OPTION_ARG_DOUBLE, &precondition, "Before serving, write this many capacities of 4 KiB random writes at QD32 in virtual time (e.g. 2: the steady state of a 2x fill)", "X" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "FUSE worker threads kept idle (default 8)", "N" },
    { "attr-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &attr_timeout_s, "Seconds the kernel keeps the file's attributes (default 3600); 0: every stat() asks the server", "S" },
    { "hold-file", 0, 0, G_OPTION_ARG_FILENAME, &hold_file, "Once SIGUSR1 makes the server hold every request, write how many it holds here", "FILE" },
    { "stop-at-poll", 0, 0, G_OPTION_ARG_NONE, &stop_at_first_poll, "Stop (SIGSTOP) when the first poll comes, before answering it: the first submit to the file waits until the server is continued", NULL },
    { NULL }
  };
  SsdConfig *cfg = &server.config;
  struct fuse_args args = FUSE_ARGS_INIT (0, NULL);
  struct fuse_session *se;
  struct fuse_loop_config loop_config = { 0 };
  GThread *completer, *logger;
  int rc;

  context = g_option_context_new ("MOUNTDIR — serve a simulated SSD as MOUNTDIR/ssd.img through FUSE");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("duel-ssd-model: %s\n", error->message);
      return 2;
    }
  if (list_shapes)
    {
      for (guint i = 0; i < ssd_shape_count (); i++)
        {
          const SsdShape *listed = ssd_shape_get (i);
          const SsdConfig *c = &listed->config;

          g_print ("%s: %s\n  --op %.0f --cache %.0f%% --units %u --block-pages %u --t-read-us %.0f"
                   " --t-prog-us %.0f --t-prog-cache-us %.0f --t-erase-us %.0f --gc-threshold %u"
                   " --bg-share %.0f --initial %s --slc-bits %u --slc-static %.1f%% --slc-dynamic %.1f%%"
                   " --idle-gc %s\n",
                   listed->name, listed->what, c->op_pct, listed->cache_pct, c->units,
                   c->block_pages, c->t_read_ns / 1e3, c->t_prog_ns / 1e3, c->t_prog_cache_ns / 1e3,
                   c->t_erase_ns / 1e3, c->gc_threshold, c->bg_share_pct,
                   c->initial == SSD_INITIAL_FRESH ? "fresh" : "trimmed-used", c->slc_bits,
                   listed->slc_static_pct, listed->slc_dynamic_pct, c->idle_gc ? "yes" : "no");
        }
      return 0;
    }
  if (argc != 2 && sim_qd <= 0)
    {
      g_printerr ("duel-ssd-model: give one MOUNTDIR (see --help)\n");
      return 2;
    }
  if (shape_name != NULL)
    {
      shape = ssd_shape_lookup (shape_name);
      if (shape == NULL)
        {
          g_printerr ("duel-ssd-model: unknown shape “%s” (falls, rises, flat, slc-tlc, slc-qlc)\n", shape_name);
          return 2;
        }
    }

  {
    guint64 capacity_bytes = shape->config.capacity_bytes;

    if (capacity != NULL && !parse_size (capacity, 0, &capacity_bytes))
      {
        g_printerr ("duel-ssd-model: cannot read the capacity “%s”\n", capacity);
        return 2;
      }
    ssd_shape_config (shape, capacity_bytes, cfg);
  }
  if (cache != NULL && !parse_size (cache, cfg->capacity_bytes, &cfg->cache_bytes))
    {
      g_printerr ("duel-ssd-model: cannot read the cache size “%s”\n", cache);
      return 2;
    }
  if ((slc_static != NULL && !parse_size (slc_static, cfg->capacity_bytes, &cfg->slc_static_bytes)) ||
      (slc_dynamic != NULL && !parse_size (slc_dynamic, cfg->capacity_bytes, &cfg->slc_dynamic_bytes)))
    {
      g_printerr ("duel-ssd-model: cannot read the SLC cache's size “%s”\n",
                  slc_static != NULL ? slc_static : slc_dynamic);
      return 2;
    }
  if (slc_bits >= 0)
    {
      cfg->slc_bits = (guint) slc_bits;
      if (slc_bits > 0)
        cfg->cache_bytes = 0;
    }
  if (idle_gc != NULL)
    {
      if (strcmp (idle_gc, "yes") != 0 && strcmp (idle_gc, "no") != 0)
        {
          g_printerr ("duel-ssd-model: --idle-gc takes yes or no\n");
          return 2;
        }
      cfg->idle_gc = strcmp (idle_gc, "yes") == 0;
    }
  if (op >= 0) cfg->op_pct = op;
  if (bg_share >= 0) cfg->bg_share_pct = bg_share;
  if (units > 0) cfg->units = (guint) units;
  if (block_pages > 0) cfg->block_pages = (guint) block_pages;
  if (gc_threshold > 0) cfg->gc_threshold = (guint) gc_threshold;
  if (t_read >= 0) cfg->t_read_ns = (guint64) (t_read * 1000);
  if (t_prog > 0) cfg->t_prog_ns = (guint64) (t_prog * 1000);
  if (t_prog_cache > 0) cfg->t_prog_cache_ns = (guint64) (t_prog_cache * 1000);
  if (t_erase >= 0) cfg->t_erase_ns = (guint64) (t_erase * 1000);
  if (idle >= 0) cfg->idle_ns = (guint64) (idle * 1e6);
  if (initial != NULL)
    {
      if (strcmp (initial, "fresh") == 0)
        cfg->initial = SSD_INITIAL_FRESH;
      else if (strcmp (initial, "trimmed-used") == 0)
        cfg->initial = SSD_INITIAL_TRIMMED_USED;
      else
        {
          g_printerr ("duel-ssd-model: unknown initial state “%s” (fresh, trimmed-used)\n", initial);
          return 2;
        }
    }
  if (!(precondition >= 0 && precondition <= 16))
    {
      g_printerr ("duel-ssd-model: --precondition takes 0 to 16 capacities\n");
      return 2;
    }
  if (!ssd_config_check (cfg, &error))
    {
      g_printerr ("duel-ssd-model: %s\n", error->message);
      return 2;
    }

  if (sim_qd > 0)
    return simulate (cfg, (guint) sim_qd, sim_multiple);

  g_atomic_int_set (&stop_at_poll, stop_at_first_poll);
  signal (SIGUSR1, hold_signal_cb);
  signal (SIGUSR2, hold_signal_cb);
  write_hold_count (0);
  server.file_name = file_name != NULL ? file_name : "ssd.img";
  server.size = cfg->capacity_bytes;
  server.mountpoint = argv[1];
  server.ftl = ssd_ftl_new (cfg);
  if (precondition > 0)
    {
      /* The served drive carries on from the virtual fill's end: each unit
       * as busy relative to now as it was then. */
      guint64 t0 = 1000000, end = fill_virtual (server.ftl, 32, precondition, t0, FALSE, NULL);
      SsdCounters c;

      ssd_ftl_move_clock (server.ftl, end, now_ns ());
      ssd_ftl_counters (server.ftl, &c);
      server.precondition_multiple = precondition;
      server.precondition_pages = c.host_pages_written;
      server.precondition_programs = c.programs;
      server.precondition_virtual_s = (double) (end - t0) / NSEC;
    }
  server.seconds = g_array_new (FALSE, TRUE, sizeof (Second));
  server.wa_programs = g_array_new (FALSE, TRUE, sizeof (guint64));
  g_mutex_init (&server.lock);
  g_cond_init (&server.cond);
  server.data = mmap (NULL, server.size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (server.data == MAP_FAILED)
    {
      g_printerr ("duel-ssd-model: cannot map %" G_GUINT64_FORMAT " bytes: %s\n",
                  server.size, g_strerror (errno));
      return 1;
    }

  fuse_opt_add_arg (&args, argv[0]);
  fuse_opt_add_arg (&args, "-o");
  fuse_opt_add_arg (&args, "fsname=duel-ssd-model,subtype=duel-ssd-model,default_permissions");
  se = fuse_session_new (&args, &model_ops, sizeof model_ops, &server);
  if (se == NULL)
    return 1;
  if (fuse_set_signal_handlers (se) != 0 || fuse_session_mount (se, server.mountpoint) != 0)
    {
      g_printerr ("duel-ssd-model: cannot mount on %s\n", server.mountpoint);
      fuse_session_destroy (se);
      return 1;
    }
  if (pid_file != NULL)
    {
      g_autofree char *pid = g_strdup_printf ("%d\n", (int) getpid ());

      if (!g_file_set_contents (pid_file, pid, -1, &error))
        g_printerr ("duel-ssd-model: %s\n", error->message);
    }
  write_log (&server, FALSE);
  completer = g_thread_new ("completion", completion_thread, &server);
  logger = g_thread_new ("log", log_thread, &server);

  loop_config.clone_fd = 0;
  loop_config.max_idle_threads = (unsigned) MAX (threads, 1);
  rc = fuse_session_loop_mt (se, &loop_config);

  /* Unmounted (fusermount3 -u) or signalled: answer what is left, log, go. */
  g_mutex_lock (&server.lock);
  server.stopping = TRUE;
  g_cond_broadcast (&server.cond);
  g_mutex_unlock (&server.lock);
  g_thread_join (completer);
  g_atomic_int_set (&log_thread_stop, TRUE);
  g_thread_join (logger);
  {
    g_autoptr(GError) check_error = NULL;

    if (!ssd_ftl_check (server.ftl, &check_error))
      {
        g_printerr ("duel-ssd-model: the model is inconsistent: %s\n", check_error->message);
        rc = 1;
      }
  }
  write_log (&server, TRUE);
  fuse_session_unmount (se);
  fuse_remove_signal_handlers (se);
  fuse_session_destroy (se);
  fuse_opt_free_args (&args);
  if (pid_file != NULL)
    g_unlink (pid_file);
  munmap (server.data, server.size);
  ssd_ftl_free (server.ftl);
  g_array_unref (server.seconds);
  g_array_unref (server.wa_programs);
  return rc < 0 ? 1 : rc;
}
