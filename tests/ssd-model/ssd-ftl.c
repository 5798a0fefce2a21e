/* ssd-ftl.c — a page-mapped FTL with greedy GC, a write cache and per-unit clocks
 *
 * Layout: physical pages are grouped in blocks of block_pages; each flash unit
 * owns a contiguous run of blocks, its free (erased) blocks, its blocks that
 * hold only invalid data (the erase backlog), an open block for host data and
 * one for data moved by GC. A host page goes to the unit that is free first.
 *
 * Timing: unit->free_at is when the unit finishes the work given to it so far.
 * Work is queued on it in order: idle-time background work, foreground GC,
 * then the host program; a host write completes when its program is done.
 * Nothing here looks at the wall clock: the same requests at the same times
 * give the same completions.
 *
 * The pseudo-SLC cache (slc_bits > 0) is an account of space on top of the
 * map: a host page written in SLC mode takes slc_bits pages of the space
 * native data and the dynamic cache share; it sits in a FIFO until it is
 * folded (read, programmed natively) in idle time, or in the foreground
 * when a native write finds no space left. The map holds where a page ends
 * up; in_slc marks the pages not folded yet.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ssd-ftl.h"

#include <gio/gio.h>
#include <string.h>

typedef enum
{
  BLOCK_FREE,
  BLOCK_OPEN,
  BLOCK_FULL,
} BlockState;

typedef struct
{
  guint32 valid;      /* valid pages */
  guint32 wp;         /* next page to program */
  guint32 dirty_pos;  /* index in the unit's dirty set, SSD_NONE when not in it */
  guint8  state;
} Block;

typedef struct
{
  guint64  free_at;       /* virtual clock: the unit is busy until then */
  guint64  bg_credit;     /* background time granted, not yet spent on an erase */
  guint64  idle_counted;  /* its idle time is in unit_idle_ns up to here */
  guint32  first_block;
  guint32  n_blocks;
  guint32 *free_set;      /* erased blocks (a stack) */
  guint32  n_free;
  guint32 *dirty_set;     /* full blocks without valid pages */
  guint32  n_dirty;
  guint32  host_block;    /* open block for host data, SSD_NONE */
  guint32  gc_block;      /* open block for GC's copies, SSD_NONE */
} Unit;

struct _SsdFtl
{
  SsdConfig   config;
  guint64     n_pages;       /* logical */
  guint64     n_ppages;      /* physical */
  guint32     n_blocks;
  guint32     blocks_per_unit;
  guint32    *l2p;
  guint32    *p2l;
  Block      *blocks;
  Unit       *units;
  guint64     cache_pages;
  guint64     cache_used;
  guint       next_unit;
  gboolean    clock_started;
  /* The pseudo-SLC cache; slc_ring NULL without one. */
  guint8     *in_slc;        /* per physical page: written in SLC mode, not folded */
  guint32    *slc_ring;      /* physical pages in the cache, oldest first (stale ones too) */
  guint64     slc_ring_size;
  guint64     slc_head;
  guint64     slc_used;
  guint64     slc_static;    /* pages */
  guint64     slc_dyn_max;   /* pages */
  guint64     slc_raw;       /* space for native data and the dynamic cache, in pages */
  guint64     n_native;      /* valid pages not in the cache */
  SsdCounters c;
};

gboolean
ssd_config_check (const SsdConfig  *config,
                  GError          **error)
{
  guint64 n_pages = config->capacity_bytes / SSD_PAGE_SIZE;
  guint64 spare;

  if (config->capacity_bytes == 0 || config->capacity_bytes % SSD_PAGE_SIZE != 0 ||
      n_pages >= G_MAXUINT32 / 4)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "The capacity must be a non-zero multiple of 4 KiB below 4 TiB");
      return FALSE;
    }
  if (config->units < 1 || config->units > 256 || config->block_pages < 4 ||
      config->block_pages > 4096)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Units must be 1..256 and pages per block 4..4096");
      return FALSE;
    }
  if (config->op_pct < 0 || config->op_pct > 400 || config->bg_share_pct < 0 ||
      config->bg_share_pct >= 100 || config->gc_threshold < 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Over-provisioning must be 0..400 %%, the background share below 100 %% and the GC threshold at least 1");
      return FALSE;
    }
  if (config->t_prog_ns == 0 || config->t_prog_cache_ns == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Program times must be above zero");
      return FALSE;
    }
  /* Each unit needs its two open blocks and GC's reserve on top of the data. */
  spare = (guint64) (n_pages * config->op_pct / 100.0) / config->block_pages;
  if (config->slc_bits != 0)
    {
      guint64 reserve = (guint64) config->units * (config->gc_threshold + 3);
      guint64 static_blocks = (config->slc_static_bytes / SSD_PAGE_SIZE * config->slc_bits +
                               config->block_pages - 1) / config->block_pages;

      if (config->slc_bits < 2 || config->slc_bits > 4 || config->cache_bytes != 0 ||
          config->slc_dynamic_bytes > config->capacity_bytes)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "A pseudo-SLC cache needs 2 to 4 bits a cell, no timing cache beside it "
                       "and a dynamic part no larger than the capacity");
          return FALSE;
        }
      /* The static part lives in the spare area, beside GC's reserve. */
      if (spare < reserve + static_blocks)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "Over-provisioning of %.1f %% gives %" G_GUINT64_FORMAT " spare blocks; "
                       "GC's reserve and a static SLC cache need %" G_GUINT64_FORMAT,
                       config->op_pct, spare, reserve + static_blocks);
          return FALSE;
        }
    }
  if (spare < (guint64) config->units * (config->gc_threshold + 3))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Over-provisioning of %.1f %% gives %" G_GUINT64_FORMAT " spare blocks; "
                   "%u units with a GC threshold of %u need at least %u",
                   config->op_pct, spare, config->units, config->gc_threshold,
                   config->units * (config->gc_threshold + 3));
      return FALSE;
    }
  return TRUE;
}

static inline Unit *
unit_of_block (SsdFtl  *ftl,
               guint32  block)
{
  return &ftl->units[block / ftl->blocks_per_unit];
}

static void
dirty_add (SsdFtl  *ftl,
           guint32  block)
{
  Unit *unit = unit_of_block (ftl, block);
  Block *b = &ftl->blocks[block];

  g_assert (b->dirty_pos == SSD_NONE);
  b->dirty_pos = unit->n_dirty;
  unit->dirty_set[unit->n_dirty++] = block;
  ftl->c.dirty_blocks++;
}

static void
dirty_remove (SsdFtl  *ftl,
              guint32  block)
{
  Unit *unit = unit_of_block (ftl, block);
  Block *b = &ftl->blocks[block];
  guint32 last;

  if (b->dirty_pos == SSD_NONE)
    return;
  last = unit->dirty_set[--unit->n_dirty];
  unit->dirty_set[b->dirty_pos] = last;
  ftl->blocks[last].dirty_pos = b->dirty_pos;
  b->dirty_pos = SSD_NONE;
  ftl->c.dirty_blocks--;
  if (ftl->c.dirty_blocks == 0 && ftl->c.backlog_initial > 0 && ftl->c.backlog_cleared_at < 0)
    ftl->c.backlog_cleared_at = (gint64) ftl->c.host_pages_written;
}

static void
block_close_if_full (SsdFtl  *ftl,
                     guint32 *slot)
{
  Block *b = &ftl->blocks[*slot];

  if (b->wp < ftl->config.block_pages)
    return;
  b->state = BLOCK_FULL;
  if (b->valid == 0)
    dirty_add (ftl, *slot);
  *slot = SSD_NONE;
}

/* Erases a full block with no valid pages; the caller charges the time. */
static void
erase_block (SsdFtl  *ftl,
             guint32  block)
{
  Unit *unit = unit_of_block (ftl, block);
  Block *b = &ftl->blocks[block];

  g_assert (b->state == BLOCK_FULL && b->valid == 0);
  dirty_remove (ftl, block);
  b->state = BLOCK_FREE;
  b->wp = 0;
  unit->free_set[unit->n_free++] = block;
  ftl->c.free_blocks++;
  ftl->c.erases++;
  if (ftl->c.erase_first_at < 0)
    ftl->c.erase_first_at = (gint64) ftl->c.host_pages_written;
}

static guint32
take_free_block (SsdFtl *ftl,
                 Unit   *unit)
{
  guint32 block;

  g_assert (unit->n_free > 0);
  block = unit->free_set[--unit->n_free];
  ftl->c.free_blocks--;
  ftl->blocks[block].state = BLOCK_OPEN;
  ftl->blocks[block].wp = 0;
  ftl->blocks[block].valid = 0;
  return block;
}

static void
invalidate (SsdFtl  *ftl,
            guint64  lpn)
{
  guint32 ppn = ftl->l2p[lpn];
  guint32 block;
  Block *b;

  if (ppn == SSD_NONE)
    return;
  ftl->l2p[lpn] = SSD_NONE;
  ftl->p2l[ppn] = SSD_NONE;
  if (ftl->in_slc != NULL)
    {
      if (ftl->in_slc[ppn])
        ftl->in_slc[ppn] = 0;   /* its place in the FIFO goes stale */
      else
        ftl->n_native--;
    }
  block = ppn / ftl->config.block_pages;
  b = &ftl->blocks[block];
  g_assert (b->valid > 0);
  b->valid--;
  if (b->valid == 0 && b->state == BLOCK_FULL)
    dirty_add (ftl, block);
}

static void
place (SsdFtl  *ftl,
       guint32  block,
       guint64  lpn)
{
  Block *b = &ftl->blocks[block];
  guint32 ppn = block * ftl->config.block_pages + b->wp;

  g_assert (b->state == BLOCK_OPEN && b->wp < ftl->config.block_pages);
  b->wp++;
  b->valid++;
  ftl->l2p[lpn] = ppn;
  ftl->p2l[ppn] = (guint32) lpn;
  ftl->c.programs++;
}

/* Greedy victim: the full block of the unit with the fewest valid pages. */
static guint32
pick_victim (SsdFtl *ftl,
             Unit   *unit)
{
  guint32 best = SSD_NONE, best_valid = G_MAXUINT32;

  if (unit->n_dirty > 0)
    return unit->dirty_set[unit->n_dirty - 1];
  for (guint32 i = 0; i < unit->n_blocks; i++)
    {
      guint32 block = unit->first_block + i;
      const Block *b = &ftl->blocks[block];

      if (b->state == BLOCK_FULL && b->valid < best_valid)
        {
          best = block;
          best_valid = b->valid;
        }
    }
  return best;
}

/* Reclaims @victim on @unit from *@t: its valid pages are read and
 * programmed into the unit's GC block, then it is erased; *@t moves to
 * when the unit is done. FALSE when it ran out of free blocks half way
 * (cannot happen with the spare ssd_config_check asks for). */
static gboolean
collect (SsdFtl   *ftl,
         Unit     *unit,
         guint32   victim,
         guint64  *t,
         gboolean  idle)
{
  const SsdConfig *cfg = &ftl->config;
  Block *vb = &ftl->blocks[victim];

  for (guint32 i = 0; i < cfg->block_pages && vb->valid > 0; i++)
    {
      guint32 ppn = victim * cfg->block_pages + i;
      guint32 lpn = ftl->p2l[ppn];

      if (lpn == SSD_NONE)
        continue;
      if (unit->gc_block == SSD_NONE)
        {
          if (unit->n_free == 0)
            return FALSE;
          unit->gc_block = take_free_block (ftl, unit);
        }
      /* Move: the old copy goes (the victim loses a valid page), a new one is programmed. */
      ftl->p2l[ppn] = SSD_NONE;
      vb->valid--;
      if (ftl->in_slc != NULL && ftl->in_slc[ppn])
        {
          ftl->in_slc[ppn] = 0;   /* programmed natively now: folded by the move */
          ftl->n_native++;
        }
      place (ftl, unit->gc_block, lpn);
      if (idle)
        ftl->c.idle_gc_pages++;
      else
        ftl->c.gc_pages++;
      ftl->c.flash_reads++;
      *t += cfg->t_read_ns + cfg->t_prog_ns;
      block_close_if_full (ftl, &unit->gc_block);
    }
  g_assert (vb->valid == 0);
  if (vb->dirty_pos == SSD_NONE)
    dirty_add (ftl, victim);   /* now empty; erase_block takes it out again */
  erase_block (ftl, victim);
  if (idle)
    ftl->c.idle_gc_erases++;
  else
    {
      ftl->c.gc_erases++;
      ftl->c.gc_runs++;
    }
  *t += cfg->t_erase_ns;
  return TRUE;
}

/* Foreground GC on one unit until it has more than gc_threshold free blocks:
 * greedy victims, collected. Returns the time the unit is done. */
static guint64
run_gc (SsdFtl  *ftl,
        Unit    *unit,
        guint64  t)
{
  const SsdConfig *cfg = &ftl->config;

  while (unit->n_free <= cfg->gc_threshold)
    {
      guint32 victim = pick_victim (ftl, unit);
      Block *vb;

      if (victim == SSD_NONE)
        break;
      vb = &ftl->blocks[victim];
      if (vb->valid >= cfg->block_pages)
        break;   /* nothing to gain: the unit is full of valid data */
      if (vb->valid > 0)
        {
          ftl->c.gc_copy_runs++;
          if (ftl->c.gc_first_at < 0)
            ftl->c.gc_first_at = (gint64) ftl->c.host_pages_written;
          if (ftl->c.fg_gc_first_at < 0)
            ftl->c.fg_gc_first_at = (gint64) ftl->c.host_pages_written;
        }
      if (!collect (ftl, unit, victim, &t, FALSE))
        return t;
    }
  return t;
}

/* Pages the pseudo-SLC cache takes now before it is full: the static part,
 * and as much of the dynamic part as the space native data leaves, at
 * slc_bits pages of it each. */
static guint64
slc_capacity (SsdFtl *ftl)
{
  guint64 dyn = 0;

  if (ftl->slc_raw > ftl->n_native)
    dyn = MIN ((ftl->slc_raw - ftl->n_native) / ftl->config.slc_bits, ftl->slc_dyn_max);
  return ftl->slc_static + dyn;
}

/* The space the dynamic part of the cache holds now, in pages. */
static guint64
slc_dynamic_space (SsdFtl *ftl)
{
  return (ftl->slc_used > ftl->slc_static ? ftl->slc_used - ftl->slc_static : 0) * ftl->config.slc_bits;
}

/* Folds the oldest page of the cache: a live one is read and programmed
 * natively (TRUE: it cost that time), a stale one only leaves. */
static gboolean
slc_fold_one (SsdFtl *ftl)
{
  guint32 ppn = ftl->slc_ring[ftl->slc_head];

  ftl->slc_head = (ftl->slc_head + 1) % ftl->slc_ring_size;
  ftl->slc_used--;
  if (!ftl->in_slc[ppn] || ftl->p2l[ppn] == SSD_NONE)
    return FALSE;
  ftl->in_slc[ppn] = 0;
  ftl->n_native++;
  ftl->c.programs++;
  ftl->c.flash_reads++;
  return TRUE;
}

/* Work a unit does while idle (after idle_ns without requests): erase the
 * backlog, then fold the write cache into native blocks. Only whole
 * operations that fit in the idle time are done; the unit's clock does not
 * move past the arrival, so the host never waits for it. */
static void
idle_work (SsdFtl  *ftl,
           Unit    *unit,
           guint64  now)
{
  const SsdConfig *cfg = &ftl->config;
  guint64 t, fold_cost = cfg->t_read_ns + cfg->t_prog_ns;

  if (!ftl->clock_started || now <= unit->free_at + cfg->idle_ns)
    return;
  t = unit->free_at + cfg->idle_ns;
  while (unit->n_dirty > 0 && t + cfg->t_erase_ns <= now)
    {
      erase_block (ftl, unit->dirty_set[unit->n_dirty - 1]);
      ftl->c.bg_erases++;
      t += cfg->t_erase_ns;
    }
  if (ftl->cache_used > 0 && t < now)
    {
      guint64 n = MIN ((now - t) / fold_cost, ftl->cache_used);

      /* The cache is timing only (see the doc): folding costs unit time and
       * programs, its pages stay where they were mapped. */
      ftl->cache_used -= n;
      ftl->c.fold_pages += n;
      ftl->c.programs += n;
      ftl->c.flash_reads += n;
    }
  /* The pseudo-SLC cache: oldest first, a page at a time. */
  while (ftl->slc_used > 0 && t + fold_cost <= now)
    if (slc_fold_one (ftl))
      {
        ftl->c.slc_fold_bg_pages++;
        t += fold_cost;
      }
  /* Then greedy GC while a victim gains space and fits in the time left. */
  while (cfg->idle_gc && t < now)
    {
      guint32 victim = pick_victim (ftl, unit);
      guint64 cost;

      if (victim == SSD_NONE || ftl->blocks[victim].valid >= cfg->block_pages)
        break;
      cost = (guint64) ftl->blocks[victim].valid * fold_cost + cfg->t_erase_ns;
      if (t + cost > now || !collect (ftl, unit, victim, &t, TRUE))
        break;
    }
  unit->free_at = now;
}

/* The time @unit sat with nothing to do before a request arrived at @now:
 * where the host, not the flash, set the pace. */
static void
count_idle (SsdFtl  *ftl,
            Unit    *unit,
            guint64  now)
{
  guint64 from = MAX (unit->free_at, unit->idle_counted);

  if (ftl->clock_started && now > from)
    {
      ftl->c.unit_idle_ns += now - from;
      unit->idle_counted = now;
    }
}

static void
start_clock (SsdFtl  *ftl,
             guint64  now)
{
  if (ftl->clock_started)
    return;
  ftl->clock_started = TRUE;
  for (guint u = 0; u < ftl->config.units; u++)
    ftl->units[u].free_at = now;
  ftl->c.backlog_initial = ftl->c.dirty_blocks;
}

/* The unit that can start first; ties (idle units) in turn. */
static Unit *
pick_unit (SsdFtl  *ftl,
           guint64  now)
{
  guint n = ftl->config.units, best = ftl->next_unit % n;
  guint64 best_t = MAX (ftl->units[best].free_at, now);

  for (guint i = 1; i < n; i++)
    {
      guint u = (ftl->next_unit + i) % n;
      guint64 t = MAX (ftl->units[u].free_at, now);

      if (t < best_t)
        {
          best = u;
          best_t = t;
        }
    }
  ftl->next_unit = best + 1;
  return &ftl->units[best];
}

/* With a pseudo-SLC cache or GC in idle time, every unit does its idle
 * work when a request comes, not only the one it goes to: the cache is
 * the drive's, and a unit left idle folds and collects as long as the
 * others (without them the model is as it was: each unit on its own). */
static void
idle_all (SsdFtl  *ftl,
          guint64  now)
{
  if (ftl->slc_ring == NULL && !ftl->config.idle_gc)
    return;
  for (guint u = 0; u < ftl->config.units; u++)
    {
      count_idle (ftl, &ftl->units[u], now);
      idle_work (ftl, &ftl->units[u], now);
    }
}

static guint64
write_page (SsdFtl  *ftl,
            guint64  lpn,
            guint64  now)
{
  const SsdConfig *cfg = &ftl->config;
  Unit *unit = pick_unit (ftl, now);
  guint64 t, cost;
  gboolean cached;

  count_idle (ftl, unit, now);
  idle_work (ftl, unit, now);
  t = MAX (now, unit->free_at);
  invalidate (ftl, lpn);
  if (unit->host_block == SSD_NONE)
    {
      if (unit->n_free <= cfg->gc_threshold)
        t = run_gc (ftl, unit, t);
      if (unit->n_free == 0 && unit->n_dirty > 0)
        {
          erase_block (ftl, unit->dirty_set[unit->n_dirty - 1]);
          ftl->c.gc_erases++;
          t += cfg->t_erase_ns;
        }
      g_assert (unit->n_free > 0);
      unit->host_block = take_free_block (ftl, unit);
    }

  if (ftl->slc_ring != NULL)
    {
      cached = FALSE;
      if (ftl->slc_used < slc_capacity (ftl))
        {
          guint32 ppn = unit->host_block * cfg->block_pages + ftl->blocks[unit->host_block].wp;

          cached = TRUE;
          ftl->in_slc[ppn] = 1;
          ftl->slc_ring[(ftl->slc_head + ftl->slc_used) % ftl->slc_ring_size] = ppn;
          ftl->slc_used++;
          ftl->c.slc_pages_written++;
        }
      else
        {
          gint64 written = (gint64) ftl->c.host_pages_written;

          if (ftl->c.slc_full_at < 0)
            ftl->c.slc_full_at = written;
          /* A native page with no space for it: fold the cache until the
           * dynamic part has given back enough (bits - 1 a page). */
          while (ftl->slc_used > ftl->slc_static &&
                 ftl->n_native + 1 + slc_dynamic_space (ftl) > ftl->slc_raw)
            if (slc_fold_one (ftl))
              {
                ftl->c.slc_fold_fg_pages++;
                if (ftl->c.slc_fold_first_at < 0)
                  ftl->c.slc_fold_first_at = written;
                ftl->c.slc_fold_last_at = written;
                t += cfg->t_read_ns + cfg->t_prog_ns;
              }
          ftl->n_native++;
        }
      cost = cached ? cfg->t_prog_cache_ns : cfg->t_prog_ns;
    }
  else
    {
      cached = ftl->cache_used < ftl->cache_pages;
      cost = cached ? cfg->t_prog_cache_ns : cfg->t_prog_ns;
    }
  place (ftl, unit->host_block, lpn);
  block_close_if_full (ftl, &unit->host_block);
  ftl->c.host_pages_written++;
  if (cached && ftl->slc_ring == NULL)
    {
      ftl->cache_used++;
      ftl->c.cache_pages_written++;
      if (ftl->cache_used == ftl->cache_pages)
        {
          ftl->c.cache_exhausted_count++;
          if (ftl->c.cache_exhausted_at < 0)
            ftl->c.cache_exhausted_at = (gint64) ftl->c.host_pages_written;
          if (ftl->c.cache_exhausted_after_trim_at < 0)
            ftl->c.cache_exhausted_after_trim_at = (gint64) ftl->c.host_pages_written;
        }
    }
  t += cost;
  unit->free_at = t;

  /* The erase backlog takes its share of a busy unit: for each program, the
   * unit also spends cost * share / (1 - share) on background erases. */
  if (unit->n_dirty > 0 && cfg->bg_share_pct > 0)
    {
      guint64 extra = (guint64) (cost * cfg->bg_share_pct / (100.0 - cfg->bg_share_pct));

      unit->free_at += extra;
      unit->bg_credit += extra;
      while (unit->n_dirty > 0 && unit->bg_credit >= cfg->t_erase_ns)
        {
          erase_block (ftl, unit->dirty_set[unit->n_dirty - 1]);
          ftl->c.bg_erases++;
          unit->bg_credit -= cfg->t_erase_ns;
        }
    }
  if (unit->n_dirty == 0)
    unit->bg_credit = 0;
  return t;
}

guint64
ssd_ftl_write (SsdFtl  *ftl,
               guint64  first_page,
               guint64  n_pages,
               guint64  now_ns)
{
  guint64 done = now_ns;

  g_return_val_if_fail (first_page + n_pages <= ftl->n_pages, now_ns);
  start_clock (ftl, now_ns);
  idle_all (ftl, now_ns);
  for (guint64 i = 0; i < n_pages; i++)
    {
      guint64 t = write_page (ftl, first_page + i, now_ns);   /* not inside MAX (): evaluated twice */

      done = MAX (done, t);
    }
  return done;
}

guint64
ssd_ftl_read (SsdFtl  *ftl,
              guint64  first_page,
              guint64  n_pages,
              guint64  now_ns)
{
  guint64 done = now_ns;

  g_return_val_if_fail (first_page + n_pages <= ftl->n_pages, now_ns);
  start_clock (ftl, now_ns);
  idle_all (ftl, now_ns);
  for (guint64 i = 0; i < n_pages; i++)
    {
      guint32 ppn = ftl->l2p[first_page + i];
      Unit *unit;
      guint64 t;

      ftl->c.host_pages_read++;
      if (ppn == SSD_NONE)
        continue;   /* unmapped: the controller answers zeros without flash */
      unit = unit_of_block (ftl, ppn / ftl->config.block_pages);
      count_idle (ftl, unit, now_ns);
      idle_work (ftl, unit, now_ns);
      t = MAX (now_ns, unit->free_at) + ftl->config.t_read_ns;
      unit->free_at = t;
      ftl->c.flash_reads++;
      done = MAX (done, t);
    }
  return done;
}

void
ssd_ftl_trim (SsdFtl  *ftl,
              guint64  first_page,
              guint64  n_pages,
              guint64  now_ns)
{
  g_return_if_fail (first_page + n_pages <= ftl->n_pages);
  start_clock (ftl, now_ns);
  ftl->c.host_pages_trimmed += n_pages;

  if (first_page == 0 && n_pages == ftl->n_pages)
    {
      /* The whole device: drop the map at once. Every programmed block that
       * is not open is left full of invalid data, to be erased before reuse. */
      memset (ftl->l2p, 0xff, ftl->n_pages * sizeof (guint32));
      memset (ftl->p2l, 0xff, ftl->n_ppages * sizeof (guint32));
      for (guint32 b = 0; b < ftl->n_blocks; b++)
        {
          ftl->blocks[b].valid = 0;
          if (ftl->blocks[b].state == BLOCK_FULL && ftl->blocks[b].dirty_pos == SSD_NONE)
            dirty_add (ftl, b);
        }
      ftl->cache_used = 0;   /* nothing left to fold */
      if (ftl->slc_ring != NULL)
        {
          memset (ftl->in_slc, 0, ftl->n_ppages);
          ftl->slc_used = 0;
          ftl->n_native = 0;
          ssd_ftl_reset_events (ftl);
        }
      /* A fill starts here (the probe before it wrote into the cache). */
      ftl->c.whole_trim_at = (gint64) ftl->c.host_pages_written;
      ftl->c.cache_exhausted_after_trim_at = -1;
      return;
    }
  for (guint64 i = 0; i < n_pages; i++)
    invalidate (ftl, first_page + i);
}

gboolean
ssd_ftl_is_mapped (SsdFtl  *ftl,
                   guint64  page)
{
  return page < ftl->n_pages && ftl->l2p[page] != SSD_NONE;
}

SsdFtl *
ssd_ftl_new (const SsdConfig *config)
{
  SsdFtl *ftl = g_new0 (SsdFtl, 1);
  guint64 min_ppages;

  ftl->config = *config;
  ftl->n_pages = config->capacity_bytes / SSD_PAGE_SIZE;
  min_ppages = (guint64) (ftl->n_pages * (1.0 + config->op_pct / 100.0));
  ftl->blocks_per_unit = (guint32) ((min_ppages + (guint64) config->block_pages * config->units - 1) /
                                    ((guint64) config->block_pages * config->units));
  ftl->n_blocks = ftl->blocks_per_unit * config->units;
  ftl->n_ppages = (guint64) ftl->n_blocks * config->block_pages;
  ftl->l2p = g_new (guint32, ftl->n_pages);
  ftl->p2l = g_new (guint32, ftl->n_ppages);
  memset (ftl->l2p, 0xff, ftl->n_pages * sizeof (guint32));
  memset (ftl->p2l, 0xff, ftl->n_ppages * sizeof (guint32));
  ftl->blocks = g_new0 (Block, ftl->n_blocks);
  ftl->units = g_new0 (Unit, config->units);
  ftl->cache_pages = config->cache_bytes / SSD_PAGE_SIZE;
  ftl->c.cache_exhausted_at = -1;
  ftl->c.gc_first_at = -1;
  ftl->c.erase_first_at = -1;
  ftl->c.backlog_cleared_at = -1;
  ftl->c.whole_trim_at = -1;
  ftl->c.cache_exhausted_after_trim_at = -1;
  if (config->slc_bits != 0 && config->slc_static_bytes + config->slc_dynamic_bytes > 0)
    {
      guint64 reserve = (guint64) config->units * (config->gc_threshold + 3) * config->block_pages;

      ftl->slc_static = config->slc_static_bytes / SSD_PAGE_SIZE;
      ftl->slc_dyn_max = config->slc_dynamic_bytes / SSD_PAGE_SIZE;
      ftl->slc_raw = ftl->n_ppages - MIN (ftl->n_ppages, reserve + ftl->slc_static * config->slc_bits);
      ftl->slc_ring_size = ftl->slc_static + ftl->slc_dyn_max;
      ftl->slc_ring = g_new (guint32, ftl->slc_ring_size);
      ftl->in_slc = g_new0 (guint8, ftl->n_ppages);
    }
  ssd_ftl_reset_events (ftl);

  for (guint u = 0; u < config->units; u++)
    {
      Unit *unit = &ftl->units[u];

      unit->first_block = u * ftl->blocks_per_unit;
      unit->n_blocks = ftl->blocks_per_unit;
      unit->free_set = g_new (guint32, unit->n_blocks);
      unit->dirty_set = g_new (guint32, unit->n_blocks);
      unit->host_block = SSD_NONE;
      unit->gc_block = SSD_NONE;
      /* Pushed in reverse so blocks are taken in address order. */
      for (guint32 i = unit->n_blocks; i-- > 0;)
        {
          guint32 block = unit->first_block + i;

          ftl->blocks[block].dirty_pos = SSD_NONE;
          if (config->initial == SSD_INITIAL_TRIMMED_USED)
            {
              ftl->blocks[block].state = BLOCK_FULL;
              ftl->blocks[block].wp = config->block_pages;
            }
          else
            {
              ftl->blocks[block].state = BLOCK_FREE;
              unit->free_set[unit->n_free++] = block;
              ftl->c.free_blocks++;
            }
        }
      if (config->initial == SSD_INITIAL_TRIMMED_USED)
        for (guint32 i = unit->n_blocks; i-- > 0;)
          dirty_add (ftl, unit->first_block + i);
    }
  return ftl;
}

/* A drive in the same state, to go on from twice. */
SsdFtl *
ssd_ftl_copy (SsdFtl *ftl)
{
  SsdFtl *copy = g_memdup2 (ftl, sizeof *ftl);

  copy->l2p = g_memdup2 (ftl->l2p, ftl->n_pages * sizeof (guint32));
  copy->p2l = g_memdup2 (ftl->p2l, ftl->n_ppages * sizeof (guint32));
  copy->blocks = g_memdup2 (ftl->blocks, ftl->n_blocks * sizeof (Block));
  copy->units = g_memdup2 (ftl->units, ftl->config.units * sizeof (Unit));
  for (guint u = 0; u < ftl->config.units; u++)
    {
      copy->units[u].free_set = g_memdup2 (ftl->units[u].free_set, ftl->units[u].n_blocks * sizeof (guint32));
      copy->units[u].dirty_set = g_memdup2 (ftl->units[u].dirty_set, ftl->units[u].n_blocks * sizeof (guint32));
    }
  if (ftl->slc_ring != NULL)
    {
      copy->slc_ring = g_memdup2 (ftl->slc_ring, ftl->slc_ring_size * sizeof (guint32));
      copy->in_slc = g_memdup2 (ftl->in_slc, ftl->n_ppages);
    }
  return copy;
}

void
ssd_ftl_free (SsdFtl *ftl)
{
  if (ftl == NULL)
    return;
  for (guint u = 0; u < ftl->config.units; u++)
    {
      g_free (ftl->units[u].free_set);
      g_free (ftl->units[u].dirty_set);
    }
  g_free (ftl->units);
  g_free (ftl->slc_ring);
  g_free (ftl->in_slc);
  g_free (ftl->blocks);
  g_free (ftl->p2l);
  g_free (ftl->l2p);
  g_free (ftl);
}

guint64
ssd_ftl_n_pages (SsdFtl *ftl)
{
  return ftl->n_pages;
}

guint64
ssd_ftl_n_physical (SsdFtl *ftl)
{
  return ftl->n_ppages;
}

/* Moves the units' clocks from the time scale @from to @to: a model
 * preconditioned in virtual time carries on in wall time, each unit as busy
 * (or idle) relative to @to as it was relative to @from. */
void
ssd_ftl_move_clock (SsdFtl  *ftl,
                    guint64  from,
                    guint64  to)
{
  for (guint u = 0; u < ftl->config.units; u++)
    {
      Unit *unit = &ftl->units[u];
      guint64 behind = from > unit->free_at ? from - unit->free_at : 0;
      guint64 ahead = unit->free_at > from ? unit->free_at - from : 0;

      unit->free_at = behind > to ? 0 : to - behind + ahead;
      unit->idle_counted = 0;   /* on the old scale */
    }
}

void
ssd_ftl_counters (SsdFtl      *ftl,
                  SsdCounters *counters)
{
  *counters = ftl->c;
  counters->cache_used_pages = ftl->cache_used;
  counters->slc_used_pages = ftl->slc_used;
  counters->slc_free_pages = ftl->slc_ring != NULL ? slc_capacity (ftl) - MIN (slc_capacity (ftl), ftl->slc_used) : 0;
}

void
ssd_ftl_idle (SsdFtl  *ftl,
              guint64  now_ns)
{
  start_clock (ftl, now_ns);
  for (guint u = 0; u < ftl->config.units; u++)
    idle_work (ftl, &ftl->units[u], now_ns);
}

void
ssd_ftl_reset_events (SsdFtl *ftl)
{
  ftl->c.slc_full_at = -1;
  ftl->c.slc_fold_first_at = -1;
  ftl->c.slc_fold_last_at = -1;
  ftl->c.fg_gc_first_at = -1;
}

/* Consistency of the map, the reverse map, the valid counts and the sets. */
gboolean
ssd_ftl_check (SsdFtl  *ftl,
               GError **error)
{
  g_autofree guint32 *valid = g_new0 (guint32, ftl->n_blocks);
  guint64 n_free = 0, n_dirty = 0, n_native = 0;

  for (guint64 lpn = 0; lpn < ftl->n_pages; lpn++)
    {
      guint32 ppn = ftl->l2p[lpn];

      if (ppn == SSD_NONE)
        continue;
      if (ppn >= ftl->n_ppages || ftl->p2l[ppn] != lpn)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       "page %" G_GUINT64_FORMAT " maps to %u, which does not map back", lpn, ppn);
          return FALSE;
        }
      valid[ppn / ftl->config.block_pages]++;
      n_native += ftl->in_slc == NULL || !ftl->in_slc[ppn];
    }
  if (ftl->in_slc != NULL && n_native != ftl->n_native)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "%" G_GUINT64_FORMAT " valid pages are not in the SLC cache, the account says %" G_GUINT64_FORMAT,
                   n_native, ftl->n_native);
      return FALSE;
    }
  for (guint32 b = 0; b < ftl->n_blocks; b++)
    {
      const Block *blk = &ftl->blocks[b];

      if (blk->valid != valid[b])
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       "block %u counts %u valid pages, the map %u", b, blk->valid, valid[b]);
          return FALSE;
        }
      if ((blk->state == BLOCK_FULL && blk->valid == 0) != (blk->dirty_pos != SSD_NONE))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       "block %u: in the erase backlog %s, but state %u with %u valid pages",
                       b, blk->dirty_pos != SSD_NONE ? "yes" : "no", blk->state, blk->valid);
          return FALSE;
        }
      n_free += blk->state == BLOCK_FREE;
      n_dirty += blk->dirty_pos != SSD_NONE;
    }
  if (n_free != ftl->c.free_blocks || n_dirty != ftl->c.dirty_blocks)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "free/backlog blocks %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
                   ", counters say %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                   n_free, n_dirty, ftl->c.free_blocks, ftl->c.dirty_blocks);
      return FALSE;
    }
  return TRUE;
}
