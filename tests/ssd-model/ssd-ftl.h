/* ssd-ftl.h — a page-mapped flash translation layer with per-unit virtual clocks
 *
 * The model behind duel-ssd-model (see docs/ssd-model.md). Pure: no I/O, no
 * threads, no wall clock. Every call takes the time at which the host request
 * arrives (ns on any monotonic scale) and returns when the flash work it needs
 * is done, computed from the state of the flash units: each unit has a clock,
 * the time it is next free, and every read, program and erase (host work,
 * garbage collection, background erase) advances it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SSD_PAGE_SIZE 4096u
#define SSD_NONE      G_MAXUINT32

typedef enum
{
  SSD_INITIAL_FRESH,          /* every block erased: a new drive */
  SSD_INITIAL_TRIMMED_USED,   /* every block programmed, all its data trimmed: erase backlog */
} SsdInitial;

typedef struct
{
  const char *shape;          /* the named shape the defaults came from */
  guint64     capacity_bytes; /* logical, a multiple of 4 KiB */
  double      op_pct;         /* over-provisioning: physical = logical x (1 + op/100) */
  guint       block_pages;    /* pages per erase block */
  guint       units;          /* flash units (dies) working in parallel */
  guint64     t_read_ns;      /* read of one page */
  guint64     t_prog_ns;      /* native (TLC) program of one page */
  guint64     t_prog_cache_ns;/* program of one page into the SLC-style cache */
  guint64     t_erase_ns;     /* erase of one block */
  guint64     cache_bytes;    /* size of the write cache (0: none) */
  guint       gc_threshold;   /* per unit: GC runs when free blocks <= this */
  double      bg_share_pct;   /* share of a busy unit's time given to the erase backlog */
  guint64     idle_ns;        /* a unit idle this long starts background work */
  SsdInitial  initial;
  /* The pseudo-SLC cache (docs/ssd-model.md): none while slc_bits is 0,
   * and then nothing below is read. It replaces cache_bytes (0 with it). */
  guint       slc_bits;          /* bits a native cell holds: 3 TLC, 4 QLC; an SLC page takes that many pages of space */
  guint64     slc_static_bytes;  /* kept in the spare area: there on a full drive too */
  guint64     slc_dynamic_bytes; /* at most; taken from free space, as much as there is */
  gboolean    idle_gc;           /* an idle unit also collects (greedy), after erasing and folding */
} SsdConfig;

typedef struct _SsdFtl SsdFtl;

typedef struct
{
  guint64 host_pages_written;   /* host pages programmed (accepted writes) */
  guint64 host_pages_read;
  guint64 host_pages_trimmed;
  guint64 cache_pages_written;  /* host pages that went to the write cache */
  guint64 gc_pages;             /* valid pages copied by GC */
  guint64 fold_pages;           /* cache pages folded to native blocks in idle time */
  guint64 programs;             /* all flash page programs: host + GC + fold */
  guint64 flash_reads;          /* host reads + GC reads + fold reads */
  guint64 erases;
  guint64 gc_erases;            /* erases done by foreground GC (copying or not) */
  guint64 bg_erases;            /* erases of the backlog by the background eraser */
  guint64 gc_runs;              /* victims reclaimed by foreground GC */
  guint64 gc_copy_runs;         /* ...of which had valid pages to copy */
  guint64 cache_exhausted_count;
  gint64  cache_exhausted_at;   /* host pages written when the cache first ran out; -1: never */
  gint64  gc_first_at;          /* host pages written when GC first copied valid pages; -1 */
  gint64  erase_first_at;       /* host pages written at the first erase; -1 */
  gint64  backlog_cleared_at;   /* host pages written when the erase backlog was gone; -1 */
  gint64  whole_trim_at;        /* host pages written at the last trim of the whole device; -1: none */
  gint64  cache_exhausted_after_trim_at; /* host pages written when the cache first ran out after it; -1 */
  guint64 backlog_initial;      /* blocks holding only invalid data when the clock started */
  guint64 dirty_blocks;         /* now: full blocks without valid data, waiting for an erase */
  guint64 free_blocks;          /* now: erased blocks */
  guint64 cache_used_pages;     /* now */
  guint64 unit_idle_ns;         /* summed over units: time a unit waited for the host's next request */
  /* The pseudo-SLC cache; the events are host pages written, since the
   * last whole trim or ssd_ftl_reset_events(), -1 for none. */
  guint64 slc_pages_written;    /* host pages programmed in SLC mode */
  guint64 slc_fold_fg_pages;    /* live cache pages folded while a host write waited */
  guint64 slc_fold_bg_pages;    /* ...folded in idle time */
  guint64 idle_gc_pages;        /* valid pages copied by GC in idle time */
  guint64 idle_gc_erases;       /* blocks it reclaimed */
  gint64  slc_full_at;          /* a host write first found the cache full */
  gint64  slc_fold_first_at;    /* a host write first waited on folding */
  gint64  slc_fold_last_at;     /* ...last did */
  gint64  fg_gc_first_at;       /* a host write first waited on garbage collection copying valid
                                 * pages (with or without a cache) */
  guint64 slc_used_pages;       /* now: pages in the cache, not folded yet (stale ones too) */
  guint64 slc_free_pages;       /* now: pages the cache takes before it is full */
} SsdCounters;

gboolean     ssd_config_check   (const SsdConfig *config,
                                 GError         **error);
SsdFtl      *ssd_ftl_new        (const SsdConfig *config);
void         ssd_ftl_free       (SsdFtl          *ftl);
SsdFtl      *ssd_ftl_copy       (SsdFtl          *ftl);
guint64      ssd_ftl_n_pages    (SsdFtl          *ftl);
guint64      ssd_ftl_n_physical (SsdFtl          *ftl);
guint64      ssd_ftl_write      (SsdFtl          *ftl,
                                 guint64          first_page,
                                 guint64          n_pages,
                                 guint64          now_ns);
guint64      ssd_ftl_read       (SsdFtl          *ftl,
                                 guint64          first_page,
                                 guint64          n_pages,
                                 guint64          now_ns);
void         ssd_ftl_trim       (SsdFtl          *ftl,
                                 guint64          first_page,
                                 guint64          n_pages,
                                 guint64          now_ns);
gboolean     ssd_ftl_is_mapped  (SsdFtl          *ftl,
                                 guint64          page);
void         ssd_ftl_move_clock (SsdFtl          *ftl,
                                 guint64          from,
                                 guint64          to);
/* The host leaves the drive alone until @now_ns: each unit does its idle
 * work (erases, folding, GC) up to then, as if a request had come. */
void         ssd_ftl_idle       (SsdFtl          *ftl,
                                 guint64          now_ns);
/* Events from here on: the slc_*_at counters start again (-1). */
void         ssd_ftl_reset_events (SsdFtl        *ftl);
void         ssd_ftl_counters   (SsdFtl          *ftl,
                                 SsdCounters     *counters);
gboolean     ssd_ftl_check      (SsdFtl          *ftl,
                                 GError         **error);

G_END_DECLS
