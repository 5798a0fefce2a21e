/* duel-engine-ring.c — one job's loop: a workload on a target through io_uring
 *
 * One ring, one slot per queue-depth entry (its index is the user_data), the
 * file and one buffer region registered once, fixed-buffer preps. Each pass
 * of the loop fills every free slot, submits and waits in one call, and reaps
 * every completion that is ready with one CQ advance.
 *
 * Time costs two clock reads per pass, not two per I/O: the read taken just
 * before the submit is the submit time of every I/O of that batch, and the
 * read taken when the wait returns is the completion time of every CQE reaped
 * then — when the program has the data, as fio counts it.
 *
 * A wait returns after QD/8 completions (1 up to QD 15, at most 8), not
 * one: each wake-up of a sleeping thread costs the completing CPU an
 * interrupt to another, which in a VM is an exit to the host, and at QD32
 * on a loop device waking on every completion left the device short of
 * requests (docs/performance.md). The earliest CQE of a batch then waits
 * for the others: at QD32, three completion gaps, against a latency of 32.
 *
 * The waits themselves carry no timeout: arming a timer on every sleep costs
 * a few µs per I/O in a VM. Timeout requests at an absolute time, one per
 * completion a wait asks for so that they alone end it, wake the loop at the
 * next interval end, progress call or runtime end, and at least every 50 ms,
 * so a stalled device still lets it see a cancel.
 *
 * Intervals are aligned to start + k * interval. A reaped batch belongs to the
 * interval its completion time falls in; once issuing stops (time, size,
 * cancel or error) the open interval also takes the drain and ends at the
 * last completion, so a run never ends with a sliver of an interval. Latency
 * goes into per-interval histograms that are merged into the record when the
 * interval's row is appended, so the record's series and histograms agree
 * at every progress call, not only at the end.
 *
 * duel_engine_run() (duel-engine.c) runs this loop once, in the caller's
 * thread (_duel_engine_ring_run()). With numjobs > 1, duel-engine-jobs.c
 * runs it once per job (_duel_engine_job_main()), each in a thread of its
 * own with its own ring; a job hands its rows to the calling thread instead
 * of appending them, draws on a byte budget shared with the other jobs, and
 * stops when one of them fails (job_sync()), all through the calls of
 * duel-engine-jobs-shared.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <liburing.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "duel-engine.h"
#include "duel-engine-private.h"
#include "duel-error.h"
#include "duel-offsets.h"
#include "duel-rng.h"

/* The wake-up timer is never further away than this, so a stalled device
 * still lets the loop see a cancel, close intervals and report progress. */
#define WAIT_MAX_NS         (50 * NS_PER_MS)
#define WAIT_MIN_NS         (1 * NS_PER_MS)
#define WRITE_POOL_MIN      (16u * 1024 * 1024)
#define MAX_BUFFER_BYTES    (G_GUINT64_CONSTANT (1) << 30)
/* Every 4 KiB of a written block gets its own stamp: the usual unit of
 * deduplication and compression in drives and filesystems. */
#define STAMP_UNIT          4096u
#define NO_POOL_BLOCK       G_MAXUINT32
/* A wait asks for queue depth / this many completions, at most WAIT_BATCH_MAX. */
#define WAIT_BATCH_DIVISOR  8
#define WAIT_BATCH_MAX      8
/* user_data of the wake-up timers and of a cancel request; slots use their index. */
#define TIMER_TAG           G_MAXUINT64
/* Silences of the watchdog one gap of the loop's clock is checked against. */
#define MAX_SILENCES        4
#define CANCEL_TAG          (G_MAXUINT64 - 1)

typedef struct
{
  guint64  offset;       /* of the whole I/O */
  guint64  submit_ns;    /* first submission; a retry keeps it */
  guint8  *buf;          /* whole I/O */
  guint32  done;         /* bytes already transferred by short completions */
  guint32  pool_block;   /* write pool block, or NO_POOL_BLOCK */
  guint8   dir;
  guint8   across_pause; /* in flight while the process was paused */
} Slot;

typedef struct
{
  DuelTarget       *target;
  DuelTestRecord   *record;            /* NULL in a job of several */
  DuelProgressFunc  progress_func;
  gpointer          progress_data;

  struct io_uring   ring;
  gboolean          ring_ready;
  gboolean          files_registered;
  gboolean          fixed_buffers;
  int               sqe_fd;            /* 0 when the file is registered */
  guint8            sqe_flags;

  guint32           bs;
  guint32           qd;
  guint8           *region;            /* read buffers, then the write pool */
  gsize             region_size;
  guint8           *read_bufs;
  guint8           *pool;
  guint32           n_pool_blocks;
  guint32           pool_cursor;
  guint8           *pool_busy;

  Slot             *slots;
  guint32          *free_stack;
  guint32           n_free;
  guint32          *retry_stack;
  guint32           n_retry;
  guint32          *batch;             /* new I/Os of this pass, for their submit time */
  guint32           in_flight;         /* slots in the SQ or the kernel */

  DuelOffsets       offsets;
  DuelRng           stamp_rng;
  guint64           byte_limit;
  guint64           issued_bytes;

  guint64           t0;
  guint64           runtime_limit_ns;
  guint64           interval_ns;
  guint64           interval_end;
  guint64           progress_due;

  DuelSeriesRow     row;               /* the open interval */
  DuelHistogram    *interval_hist[DUEL_N_DIRECTIONS];
  guint64           closed_ops[DUEL_N_DIRECTIONS];
  guint64           closed_bytes[DUEL_N_DIRECTIONS];
  guint             n_rows;
  gboolean          row_appended;      /* since the last progress call */

  gboolean          stopping;          /* no new I/O */
  gboolean          abandon;           /* no retries either: cancelled or failed */
  gboolean          cancelled;
  int               io_errno;          /* the first failed I/O */
  guint64           io_err_offset;
  guint32           io_err_length;
  guint8            io_err_dir;
  int               ring_errno;

  guint32           wait_batch;        /* completions a wait asks for */
  guint32           timers_pending;    /* wake-up timers not yet completed */
  struct __kernel_timespec timer_ts;

  /* For the debug log: what each wait saw (docs/performance.md). */
  guint64           n_waits;
  guint64           sum_in_flight;     /* at each wait */
  guint64           sum_reaped;

  /* Pauses of the process (loop_clock()): the run's watchdog (NULL: none
   * could be started), the loop's last clock read, CLOCK_BOOTTIME and
   * CLOCK_MONOTONIC at the last read after a wait, the latencies of I/Os
   * across a pause not yet handed to the jobs' record, and how much of the
   * jobs' shared shift this loop has applied. */
  DuelEngineWatchdog *watchdog;
  guint64           clock_last;
  guint64           boot_last;
  guint64           mono_at_boot_last;
  guint64           left_out_untold;
  guint64           shift_applied;
  guint             shift_seen;

  guint64           seed;              /* of the offsets and the data */
  /* numjobs > 1: this is job @job_index of @n_jobs, in a thread of its own
   * (duel-engine-jobs.c); else @jobs is NULL and @n_jobs 1. */
  DuelEngineJobs   *jobs;
  guint             job_index;
  guint             n_jobs;
  gboolean          shared_budget;     /* byte_limit is this job's share so far */
  gboolean          failure_told;
  guint64           last_ns;           /* a job's last completion; 0: never started */
  /* Once stopping, the wait for the I/O in flight (duel-engine-drain.c). */
  DuelDrain        *drain;
  gboolean          drain_asked;       /* looked for: NULL without a cancellable */
  guint32           drain_counted;     /* I/Os of this loop the drain counts */
  gboolean          abandoned;         /* given up: I/O left in flight */
} Engine;

static int
setup_ring (struct io_uring *ring,
            guint32          queue_depth,
            guint32          n_timers)
{
  /* Dropped one after another while the kernel answers -EINVAL, as fio does. */
  static const unsigned drop[] = {
    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
    IORING_SETUP_COOP_TASKRUN,
    IORING_SETUP_CQSIZE,
  };
  unsigned flags = IORING_SETUP_CQSIZE | IORING_SETUP_COOP_TASKRUN |
                   IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
  int ret;

  for (guint i = 0; ; i++)
    {
      struct io_uring_params params;

      memset (&params, 0, sizeof params);
      params.flags = flags;
      params.cq_entries = 2 * (queue_depth + n_timers);
      /* The slots and the wake-up timers. */
      ret = io_uring_queue_init_params (queue_depth + n_timers, ring, &params);
      if (ret != -EINVAL || i == G_N_ELEMENTS (drop))
        return ret;
      flags &= ~drop[i];
    }
}

static gboolean
setup_buffers (Engine   *engine,
               gboolean  reads,
               gboolean  writes,
               GError  **error)
{
  guint64 read_bytes = reads ? (guint64) engine->qd * engine->bs : 0;
  guint64 pool_blocks = 0;
  guint64 total;
  /* Jobs share the limit and the pool's size between them. */
  guint64 max_bytes = MAX_BUFFER_BYTES / engine->n_jobs;
  guint64 pool_min = WRITE_POOL_MIN / engine->n_jobs;
  DuelRng fill;

  if (writes)
    {
      /* At least one block more than can be in flight, so a free block to
       * stamp always exists; more when memory allows, so that consecutive
       * writes come from different places. */
      pool_blocks = MAX ((pool_min + engine->bs - 1) / engine->bs,
                         4 * (guint64) engine->qd);
      if (read_bytes + pool_blocks * engine->bs > max_bytes &&
          read_bytes < max_bytes)
        pool_blocks = (max_bytes - read_bytes) / engine->bs;
      pool_blocks = MAX (pool_blocks, (guint64) engine->qd + 1);
    }
  total = read_bytes + pool_blocks * engine->bs;
  if (total > max_bytes)
    {
      g_autofree char *needed = g_format_size_full (total * engine->n_jobs, G_FORMAT_SIZE_IEC_UNITS);

      if (engine->n_jobs > 1)
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                     _("%u jobs at a queue depth of %u with %u-byte blocks need %s of I/O buffers, more than the 1 GiB the engine allows."),
                     engine->n_jobs, engine->qd, engine->bs, needed);
      else
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                     _("A queue depth of %u with %u-byte blocks needs %s of I/O buffers, more than the 1 GiB the engine allows."),
                     engine->qd, engine->bs, needed);
      return FALSE;
    }

  engine->region = mmap (NULL, total, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (engine->region == MAP_FAILED)
    {
      int saved_errno = errno;

      engine->region = NULL;
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FAILED,
                   _("Cannot allocate I/O buffers: %s"), g_strerror (saved_errno));
      return FALSE;
    }
  engine->region_size = total;
  engine->read_bufs = engine->region;
  engine->pool = engine->region + read_bytes;
  engine->n_pool_blocks = (guint32) pool_blocks;

  if (pool_blocks > 0)
    {
      guint64 *words = (guint64 *) (gpointer) engine->pool;
      gsize n_words = (gsize) (pool_blocks * engine->bs / sizeof (guint64));

      /* Random once, stamped per I/O: incompressible without refilling. */
      duel_rng_init (&fill, engine->seed ^ G_GUINT64_CONSTANT (0x706f6f6c));
      for (gsize i = 0; i < n_words; i++)
        words[i] = duel_rng_next (&fill);
      engine->pool_busy = g_new0 (guint8, pool_blocks);
    }
  return TRUE;
}

static gboolean
setup_io (Engine  *engine,
          GError **error)
{
  struct iovec iov = { engine->region, engine->region_size };
  int fd = duel_target_get_fd (engine->target);
  int ret;

  ret = setup_ring (&engine->ring, engine->qd, engine->wait_batch);
  if (ret < 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_RING,
                   _("Cannot set up io_uring: %s"), g_strerror (-ret));
      return FALSE;
    }
  engine->ring_ready = TRUE;

  /* Optional speed-ups; the run is equally correct without them. */
  io_uring_register_ring_fd (&engine->ring);

  engine->sqe_fd = fd;
  if (io_uring_register_files (&engine->ring, &fd, 1) == 0)
    {
      engine->files_registered = TRUE;
      engine->sqe_fd = 0;
      engine->sqe_flags = IOSQE_FIXED_FILE;
    }

  /* Fails without CAP_IPC_LOCK when the region exceeds RLIMIT_MEMLOCK. */
  ret = io_uring_register_buffers (&engine->ring, &iov, 1);
  engine->fixed_buffers = ret == 0;
  if (ret != 0)
    g_debug ("Registering %" G_GSIZE_FORMAT " bytes of buffers failed (%s); using plain reads and writes",
             engine->region_size, g_strerror (-ret));
  return TRUE;
}

static void
teardown (Engine *engine)
{
  if (engine->ring_ready)
    {
      /* The ring is freed asynchronously, 50 ms or more after it is closed;
       * its references would keep the target open that long, and an O_EXCL
       * open right after the run would fail. Dropped here, synchronously,
       * unless I/O was left in flight: dropping them would wait for it. */
      if (engine->files_registered && !engine->abandoned)
        io_uring_unregister_files (&engine->ring);
      if (engine->fixed_buffers && !engine->abandoned)
        io_uring_unregister_buffers (&engine->ring);
      io_uring_queue_exit (&engine->ring);
    }
  /* I/O left in flight may still read into it: kept. */
  if (engine->region != NULL && !engine->abandoned)
    munmap (engine->region, engine->region_size);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    g_free (engine->interval_hist[d]);
  g_free (engine->pool_busy);
  g_free (engine->slots);
  g_free (engine->free_stack);
  g_free (engine->retry_stack);
  g_free (engine->batch);
}

static inline void
prep_slot (Engine  *engine,
           guint32  index)
{
  Slot *slot = &engine->slots[index];
  struct io_uring_sqe *sqe = io_uring_get_sqe (&engine->ring);
  guint32 length = engine->bs - slot->done;
  guint8 *buf = slot->buf + slot->done;
  guint64 offset = slot->offset + slot->done;

  /* The SQ has room for every slot and the timers, and holds nothing else. */
  g_assert (sqe != NULL);

  if (slot->dir == DUEL_DIRECTION_READ)
    {
      if (engine->fixed_buffers)
        io_uring_prep_read_fixed (sqe, engine->sqe_fd, buf, length, offset, 0);
      else
        io_uring_prep_read (sqe, engine->sqe_fd, buf, length, offset);
    }
  else
    {
      if (engine->fixed_buffers)
        io_uring_prep_write_fixed (sqe, engine->sqe_fd, buf, length, offset, 0);
      else
        io_uring_prep_write (sqe, engine->sqe_fd, buf, length, offset);
    }
  sqe->flags |= engine->sqe_flags;
  io_uring_sqe_set_data64 (sqe, index);
}

/* A pool block that no in-flight write uses, stamped so the block written is
 * unique. */
static inline guint32
take_pool_block (Engine *engine)
{
  guint32 block = engine->pool_cursor;
  guint64 stamp;
  guint8 *data;

  while (engine->pool_busy[block])
    block = block + 1 == engine->n_pool_blocks ? 0 : block + 1;
  engine->pool_cursor = block + 1 == engine->n_pool_blocks ? 0 : block + 1;
  engine->pool_busy[block] = 1;

  data = engine->pool + (gsize) block * engine->bs;
  stamp = duel_rng_next (&engine->stamp_rng);
  for (guint32 at = 0; at < engine->bs; at += STAMP_UNIT)
    {
      guint64 value = stamp + at;
      memcpy (data + at, &value, sizeof value);
    }
  return block;
}

static inline void
release_slot (Engine  *engine,
              guint32  index)
{
  Slot *slot = &engine->slots[index];

  if (slot->pool_block != NO_POOL_BLOCK)
    {
      engine->pool_busy[slot->pool_block] = 0;
      slot->pool_block = NO_POOL_BLOCK;
    }
  engine->free_stack[engine->n_free++] = index;
}

static inline void
start_io (Engine  *engine,
          guint32  index)
{
  Slot *slot = &engine->slots[index];

  slot->offset = duel_offsets_next (&engine->offsets);
  slot->done = 0;
  slot->across_pause = FALSE;
  if (duel_offsets_next_is_read (&engine->offsets))
    {
      slot->dir = DUEL_DIRECTION_READ;
      slot->buf = engine->read_bufs + (gsize) index * engine->bs;
    }
  else
    {
      slot->dir = DUEL_DIRECTION_WRITE;
      slot->pool_block = take_pool_block (engine);
      slot->buf = engine->pool + (gsize) slot->pool_block * engine->bs;
    }
  prep_slot (engine, index);
  engine->issued_bytes += engine->bs;
}

/* An I/O across a pause completed: the pause's record says how many. */
static void
count_left_out (Engine *engine)
{
  if (engine->jobs != NULL)
    engine->left_out_untold++;   /* handed over with the progress */
  else if (engine->record->pauses != NULL && engine->record->pauses->len > 0)
    g_array_index (engine->record->pauses, DuelPause, engine->record->pauses->len - 1).latencies_left_out++;
}

static inline guint64
boot_now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_BOOTTIME, &ts);
  return (guint64) ts.tv_sec * NS_PER_SEC + (guint64) ts.tv_nsec;
}

/* The loop's time base moves on by @shift_ns: intervals, the runtime limit
 * and progress go on as if the paused time had not passed, so no row
 * covers it. */
static void
shift_time_base (Engine  *engine,
                 guint64  shift_ns,
                 guint64 *runtime_end)
{
  engine->t0 += shift_ns;
  engine->interval_end += shift_ns;
  engine->progress_due += shift_ns;
  if (*runtime_end != 0)
    *runtime_end += shift_ns;
}

/* The process was paused within @window (raw CLOCK_MONOTONIC) and did not
 * run for @shift_ns of it; the machine was suspended for @suspended_ns
 * more, which CLOCK_MONOTONIC never saw. @unapplied_ns: shifts of this
 * loop's time base that a job of several takes later (follow_shared_shift()). */
static void
engine_paused (Engine               *engine,
               const DuelEngineSpan *window,
               guint64               shift_ns,
               guint64               suspended_ns,
               guint64               unapplied_ns,
               guint64              *runtime_end)
{
  guint64 t0 = engine->t0 + unapplied_ns;
  guint64 at_ns = window->from > t0 ? window->from - t0 : 0;
  guint64 done = 0;
  double fraction = 0;
  DuelPause pause;

  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    done += engine->closed_bytes[d] + engine->row.bytes[d];
  if (engine->byte_limit > 0 && !engine->shared_budget)
    fraction = (double) done / (double) engine->byte_limit;
  if (engine->runtime_limit_ns > 0)
    fraction = MAX (fraction, (double) at_ns / (double) engine->runtime_limit_ns);
  pause = (DuelPause) {
    .at_ms = at_ns / NS_PER_MS,
    /* The interval it began in: the open one, or one a stall of the
     * device before it has not closed yet. */
    .row = (guint) MAX ((guint64) engine->n_rows, at_ns / MAX (engine->interval_ns, 1)),
    .rows = 1,
    .fraction = MIN (fraction, 1.0),
    .length_ns = shift_ns + suspended_ns,
  };
  g_debug ("Engine: the process was paused for %.3f s (%.3f s of it suspended) at row %u",
           pause.length_ns / 1e9, suspended_ns / 1e9, pause.row);

  /* Everything in flight now was in flight across it. */
  for (guint32 i = 0; i < engine->qd; i++)
    engine->slots[i].across_pause = TRUE;

  if (engine->jobs == NULL)
    {
      duel_test_record_add_pause (engine->record, &pause);
      shift_time_base (engine, shift_ns, runtime_end);
      return;
    }
  /* Jobs see the same pause each: they merge it and share one shift. */
  _duel_engine_jobs_pause (engine->jobs, window, shift_ns, &pause);
}

/* The loop's clock jumped from @previous to @now, and CLOCK_BOOTTIME ran
 * @suspended_ns ahead of it since @boot_from: the parts of the jump the
 * watchdog was silent in too are pauses of the process; the rest, the
 * loop's thread held in a call (a FUSE target's stopped server holds the
 * submit) while the process ran, is the device's, and its empty rows stay. */
static void
find_pauses (Engine  *engine,
             guint64  previous,
             guint64  now,
             guint64  boot_from,
             guint64  suspended_ns,
             guint64 *runtime_end)
{
  DuelEngineSpan silences[MAX_SILENCES];
  guint n = _duel_engine_watchdog_silences (engine->watchdog, previous, now, silences, MAX_SILENCES);
  guint64 paused = 0;

  for (guint i = 0; i < n; i++)
    {
      guint64 length = silences[i].to - silences[i].from;

      /* A suspend in the same gap belongs to the first. */
      engine_paused (engine, &silences[i], length, i == 0 ? suspended_ns : 0,
                     engine->jobs != NULL ? paused : 0, runtime_end);
      paused += length;
    }
  if (n == 0 && suspended_ns >= PAUSE_MIN_NS)
    {
      /* The machine slept at some time since the last wait ended: every
       * job's window since then holds that moment; CLOCK_MONOTONIC did not
       * move on, nor does the time base. */
      DuelEngineSpan window = { boot_from, now };

      engine_paused (engine, &window, 0, suspended_ns, 0, runtime_end);
    }
  if (now - previous - paused >= PAUSE_MIN_NS && engine->watchdog != NULL)
    g_debug ("Engine: the loop was held %.3f s in a call while the process ran (the target did not answer): not a pause",
             (now - previous - paused) / 1e9);
  else if (now - previous - paused >= PAUSE_MIN_NS)
    g_debug ("Engine: the loop did not run for %.3f s; without a watchdog it is kept as rows, pause or not",
             (now - previous - paused) / 1e9);
}

/* A job of several takes the shift the jobs share once it grew (another
 * job saw a pause longer than this one did, or first). Cheap: a counter. */
static void
follow_shared_shift (Engine  *engine,
                     guint64 *runtime_end)
{
  guint64 shift;

  if (G_LIKELY (!_duel_engine_jobs_shift_changed (engine->jobs, &engine->shift_seen, &shift)))
    return;
  if (shift > engine->shift_applied)
    shift_time_base (engine, shift - engine->shift_applied, runtime_end);
  engine->shift_applied = MAX (engine->shift_applied, shift);
}

/* The loop's clock, read before a submit and after a wait (@after_wait). A
 * read PAUSE_MIN_NS or more after the previous one means the loop did not
 * run meanwhile: the process was paused (find_pauses() asks the watchdog
 * which part), or the loop's thread was held in a call. CLOCK_BOOTTIME
 * running ahead of CLOCK_MONOTONIC, which stops while the machine sleeps,
 * means a suspend. Cheap: a branch on what it reads anyway. */
static guint64
loop_clock (Engine   *engine,
            guint64  *runtime_end,
            gboolean  after_wait)
{
  guint64 now = _duel_engine_now_ns ();
  guint64 previous = engine->clock_last;
  guint64 boot_from = engine->mono_at_boot_last;
  guint64 suspended = 0;

  if (after_wait)
    {
      guint64 boot = boot_now_ns ();

      if (engine->boot_last != 0 && boot - engine->boot_last > now - engine->mono_at_boot_last)
        suspended = (boot - engine->boot_last) - (now - engine->mono_at_boot_last);
      engine->boot_last = boot;
      engine->mono_at_boot_last = now;
    }
  engine->clock_last = now;

  if (G_UNLIKELY (previous != 0 && now - previous + suspended >= PAUSE_MIN_NS) && engine->t0 != 0)
    find_pauses (engine, previous, now, boot_from, suspended, runtime_end);
  if (G_UNLIKELY (engine->jobs != NULL))
    follow_shared_shift (engine, runtime_end);
  return now;
}

static inline void
complete_io (Engine  *engine,
             guint32  index,
             int      res,
             guint64  now)
{
  Slot *slot = &engine->slots[index];
  guint32 wanted = engine->bs - slot->done;

  engine->in_flight--;

  if (G_LIKELY (res == (int) wanted))
    {
      guint64 latency = now - slot->submit_ns;
      guint dir = slot->dir;

      engine->row.ops[dir]++;
      engine->row.bytes[dir] += engine->bs;
      /* Its latency measured the pause, not the drive. */
      if (G_UNLIKELY (slot->across_pause))
        {
          count_left_out (engine);
          release_slot (engine, index);
          return;
        }
      duel_histogram_add (engine->interval_hist[dir], latency);
      if (latency > engine->row.lat_max_ns[dir])
        engine->row.lat_max_ns[dir] = latency;
      release_slot (engine, index);
      return;
    }

  if ((res > 0 && (guint32) res < wanted) || res == -EAGAIN)
    {
      /* The rest of the same I/O; its latency runs from the first submit. */
      if (res > 0)
        slot->done += res;
      engine->retry_stack[engine->n_retry++] = index;
      return;
    }

  if (engine->io_errno == 0)
    {
      /* A zero-byte transfer inside the span means the target shrank. */
      engine->io_errno = res < 0 ? -res : ENODATA;
      engine->io_err_offset = slot->offset + slot->done;
      engine->io_err_length = wanted;
      engine->io_err_dir = slot->dir;
    }
  engine->stopping = TRUE;
  engine->abandon = TRUE;
  release_slot (engine, index);
}

void
_duel_engine_fill_progress (DuelProgress     *progress,
                            guint64           elapsed_ns,
                            const guint64     ops[DUEL_N_DIRECTIONS],
                            const guint64     bytes[DUEL_N_DIRECTIONS],
                            guint64           byte_limit,
                            guint64           runtime_limit_ns,
                            const DuelSeries *series,
                            gboolean          interval_closed)
{
  guint n_rows = duel_series_get_length (series);
  double fraction = 0.0;
  guint64 done_bytes = 0;

  memset (progress, 0, sizeof *progress);
  progress->elapsed_ns = elapsed_ns;
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      progress->ops[d] = ops[d];
      progress->bytes[d] = bytes[d];
      done_bytes += bytes[d];
    }
  progress->byte_limit = byte_limit;
  progress->runtime_limit_ns = runtime_limit_ns;
  if (byte_limit > 0)
    fraction = MAX (fraction, (double) done_bytes / (double) byte_limit);
  if (runtime_limit_ns > 0)
    fraction = MAX (fraction, (double) elapsed_ns / (double) runtime_limit_ns);
  progress->fraction_done = MIN (fraction, 1.0);

  if (n_rows > 0)
    {
      const DuelSeriesRow *last = duel_series_get_row (series, n_rows - 1);
      guint64 ms = duel_series_row_duration_ms (series, n_rows - 1);

      if (ms > 0)
        {
          double seconds = (double) ms / 1000.0;

          progress->interval_iops = (double) (last->ops[0] + last->ops[1]) / seconds;
          progress->interval_bytes_per_second = (double) (last->bytes[0] + last->bytes[1]) / seconds;
        }
    }
  progress->n_intervals = n_rows;
  progress->interval_closed = interval_closed;
}

static void
report_progress (Engine  *engine,
                 guint64  now)
{
  DuelProgress progress;
  guint64 ops[DUEL_N_DIRECTIONS], bytes[DUEL_N_DIRECTIONS];

  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      ops[d] = engine->closed_ops[d] + engine->row.ops[d];
      bytes[d] = engine->closed_bytes[d] + engine->row.bytes[d];
    }
  if (G_UNLIKELY (engine->jobs != NULL))
    {
      /* A job of several: the calling thread reports for them all. */
      if (G_UNLIKELY (engine->left_out_untold > 0))
        {
          _duel_engine_jobs_pause_left_out (engine->jobs, engine->left_out_untold);
          engine->left_out_untold = 0;
        }
      _duel_engine_jobs_publish (engine->jobs, engine->job_index, ops, bytes);
      engine->row_appended = FALSE;
      engine->progress_due = now + PROGRESS_EVERY_NS;
      return;
    }

  if (engine->progress_func == NULL)
    return;

  _duel_engine_fill_progress (&progress, now - engine->t0, ops, bytes, engine->byte_limit,
                              engine->runtime_limit_ns, engine->record->series, engine->row_appended);
  engine->row_appended = FALSE;
  engine->progress_due = now + PROGRESS_EVERY_NS;

  engine->progress_func (&progress, engine->record, engine->progress_data);
}

static void
append_row (Engine  *engine,
            guint64  t_ms)
{
  DuelTestRecord *record = engine->record;

  engine->row.t_ms = t_ms;
  engine->row.temperature_c = NAN;
  if (G_UNLIKELY (engine->jobs != NULL))
    {
      /* A job of several: the calling thread merges the row with the
       * other jobs' and appends it. */
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          engine->closed_ops[d] += engine->row.ops[d];
          engine->closed_bytes[d] += engine->row.bytes[d];
        }
      _duel_engine_jobs_add_row (engine->jobs, engine->job_index, &engine->row,
                                 engine->interval_hist, engine->closed_ops, engine->closed_bytes);
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        duel_histogram_init (engine->interval_hist[d]);
      memset (&engine->row, 0, sizeof engine->row);
      engine->n_rows++;
      engine->row_appended = TRUE;
      return;
    }
  duel_series_append (record->series, &engine->row);

  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      duel_histogram_merge (record->latency[d], engine->interval_hist[d]);
      duel_histogram_init (engine->interval_hist[d]);
      engine->closed_ops[d] += engine->row.ops[d];
      engine->closed_bytes[d] += engine->row.bytes[d];
    }
  memset (&engine->row, 0, sizeof engine->row);
  engine->n_rows++;
  engine->row_appended = TRUE;
}

/* Every boundary passed gets a row, empty ones too: a stall shows as zero. */
static void
close_intervals (Engine  *engine,
                 guint64  now)
{
  while (now >= engine->interval_end)
    {
      append_row (engine, (engine->interval_end - engine->t0) / NS_PER_MS);
      engine->interval_end += engine->interval_ns;
    }
}

/* Absolute, so they neither drift nor need re-arming when late; as many as
 * a wait asks for, so that they end it even when no I/O completes. The
 * kernel reads the time when they are submitted, with the next wait. */
static void
arm_timers (Engine  *engine,
            guint64  deadline)
{
  engine->timer_ts.tv_sec = (long long) (deadline / NS_PER_SEC);
  engine->timer_ts.tv_nsec = (long long) (deadline % NS_PER_SEC);
  for (guint32 i = 0; i < engine->wait_batch; i++)
    {
      struct io_uring_sqe *sqe = io_uring_get_sqe (&engine->ring);

      g_assert (sqe != NULL);
      io_uring_prep_timeout (sqe, &engine->timer_ts, 0, IORING_TIMEOUT_ABS);
      io_uring_sqe_set_data64 (sqe, TIMER_TAG);
    }
  engine->timers_pending = engine->wait_batch;
}

/* A job of several, once per pass: it stops when another job failed, and
 * tops up its share of the byte budget the jobs draw from together. A share
 * of at least one block more than the free slots means a batch ends it only
 * once the budget is spent, so the total is exactly the limit. */
static void
job_sync (Engine *engine)
{
  guint64 share;

  if (engine->io_errno != 0 && !engine->failure_told)
    {
      _duel_engine_jobs_fail (engine->jobs, engine->job_index);
      engine->failure_told = TRUE;
    }
  else if (!engine->abandon && _duel_engine_jobs_should_stop (engine->jobs))
    {
      engine->stopping = TRUE;
      engine->abandon = TRUE;
    }

  if (engine->stopping || !engine->shared_budget)
    return;
  share = (engine->byte_limit - engine->issued_bytes) / engine->bs;
  if (share <= engine->n_free)
    {
      share += _duel_engine_jobs_take_blocks (engine->jobs, engine->qd + 1 - share);
      engine->byte_limit = engine->issued_bytes + share * engine->bs;
    }
  /* Also keeps a byte_limit of 0 from meaning no limit. */
  if (share == 0)
    engine->stopping = TRUE;
}

/* Once stopping, each pass: the drain counts this loop's I/O in flight
 * (duel-engine-drain.c), so that the run's owner can say what the stop
 * waits for. */
static void
drain_update (Engine   *engine,
              gboolean  answered,
              guint64   now)
{
  gint delta = (gint) engine->in_flight - (gint) engine->drain_counted;

  if (delta != 0 || answered)
    _duel_drain_update (engine->drain, delta, answered, now);
  engine->drain_counted = engine->in_flight;
}

/* Given up (duel_engine_give_up()): the kernel is asked to cancel what it
 * can (a request a kernel worker runs; one a device holds it cannot), and
 * the loop leaves the rest, as a cancel. TRUE to leave the loop now. */
static gboolean
drain_pass (Engine       *engine,
            GCancellable *cancellable)
{
  struct io_uring_sqe *sqe;

  if (!engine->drain_asked)
    {
      engine->drain_asked = TRUE;
      engine->drain = _duel_drain_get (cancellable);
      if (engine->drain != NULL)
        _duel_drain_begin (engine->drain, _duel_engine_now_ns ());
    }
  if (engine->drain == NULL)
    return FALSE;
  drain_update (engine, FALSE, 0);
  if (engine->in_flight == 0 || !_duel_drain_given_up (engine->drain))
    return FALSE;

  sqe = io_uring_get_sqe (&engine->ring);
  if (sqe != NULL)
    {
      io_uring_prep_cancel64 (sqe, 0, IORING_ASYNC_CANCEL_ANY);
      io_uring_sqe_set_data64 (sqe, CANCEL_TAG);
      io_uring_submit (&engine->ring);
    }
  engine->abandoned = TRUE;
  engine->cancelled = TRUE;
  engine->abandon = TRUE;
  g_debug ("Engine: gave up %u I/Os in flight", engine->in_flight);
  return TRUE;
}

/* After the loop: the drain no longer counts this loop's I/O, except what
 * it left in flight. */
static void
drain_finish (Engine *engine)
{
  if (engine->drain == NULL)
    return;
  _duel_drain_update (engine->drain, -(gint) engine->drain_counted, FALSE, 0);
  _duel_drain_end (engine->drain, engine->abandoned ? engine->in_flight : 0);
}

static void
run_loop (Engine       *engine,
          GCancellable *cancellable)
{
  guint64 runtime_end = 0;
  guint64 now = 0;
  gboolean started = FALSE;

  for (;;)
    {
      guint32 n_new = 0;
      guint32 n_prepped = 0;
      struct io_uring_cqe *cqe;
      unsigned head, n_reaped = 0, n_answers = 0;
      int ret;

      if (!engine->stopping && cancellable != NULL &&
          g_cancellable_is_cancelled (cancellable))
        {
          engine->cancelled = TRUE;
          engine->stopping = TRUE;
          engine->abandon = TRUE;
        }
      if (G_UNLIKELY (engine->jobs != NULL))
        job_sync (engine);

      if (G_UNLIKELY (engine->abandon))
        {
          while (engine->n_retry > 0)
            release_slot (engine, engine->retry_stack[--engine->n_retry]);
        }
      while (engine->n_retry > 0)
        {
          prep_slot (engine, engine->retry_stack[--engine->n_retry]);
          n_prepped++;
        }

      if (!engine->stopping)
        {
          while (engine->n_free > 0 &&
                 (engine->byte_limit == 0 ||
                  engine->issued_bytes + engine->bs <= engine->byte_limit))
            {
              guint32 index = engine->free_stack[--engine->n_free];

              start_io (engine, index);
              engine->batch[n_new++] = index;
            }
          if (engine->byte_limit != 0 &&
              engine->issued_bytes + engine->bs > engine->byte_limit)
            engine->stopping = TRUE;
        }

      n_prepped += n_new;
      engine->in_flight += n_prepped;
      if (G_UNLIKELY (engine->stopping) && drain_pass (engine, cancellable))
        break;
      if (engine->in_flight == 0)
        break;

      now = loop_clock (engine, &runtime_end, FALSE);
      if (G_UNLIKELY (!started))
        {
          started = TRUE;
          /* Jobs of several share one start, set before their loops. */
          if (G_LIKELY (engine->jobs == NULL))
            engine->t0 = now;
          engine->interval_end = engine->t0 + engine->interval_ns;
          engine->progress_due = now + PROGRESS_EVERY_NS;
          if (engine->runtime_limit_ns > 0)
            runtime_end = engine->t0 + engine->runtime_limit_ns;
        }
      for (guint32 i = 0; i < n_new; i++)
        engine->slots[engine->batch[i]].submit_ns = now;

      if (engine->timers_pending == 0)
        {
          /* Wake for the next boundary: an interval, the runtime or progress. */
          guint64 deadline = engine->progress_due;

          if (!engine->stopping)
            {
              deadline = MIN (deadline, engine->interval_end);
              if (runtime_end != 0)
                deadline = MIN (deadline, runtime_end);
            }
          deadline = CLAMP (deadline, now + WAIT_MIN_NS, now + WAIT_MAX_NS);
          arm_timers (engine, deadline);
        }

      engine->n_waits++;
      engine->sum_in_flight += engine->in_flight;
      /* No more than the timers pending can give: a wait ends by their
       * deadline even when they were reaped apart, so a stalled device
       * never holds it past WAIT_MAX_NS. */
      ret = io_uring_submit_and_wait (&engine->ring, MIN (MIN (engine->wait_batch, engine->in_flight),
                                                          engine->timers_pending));
      if (G_UNLIKELY (ret < 0) &&
          ret != -ETIME && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
        {
          /* The ring itself failed: nothing more can be submitted or reaped. */
          engine->ring_errno = -ret;
          engine->stopping = TRUE;
          engine->abandon = TRUE;
          break;
        }

      now = loop_clock (engine, &runtime_end, TRUE);
      if (!engine->stopping && runtime_end != 0 && now >= runtime_end)
        {
          /* An interval that ended before the runtime did is whole, even
           * when the thread woke only after both (a host busy for more than
           * the gap between them): its row, then the open one takes the
           * drain as always. */
          if (now >= engine->interval_end)
            close_intervals (engine, runtime_end - 1);
          engine->stopping = TRUE;
        }
      if (!engine->stopping && now >= engine->interval_end)
        close_intervals (engine, now);

      io_uring_for_each_cqe (&engine->ring, head, cqe)
        {
          guint64 tag = io_uring_cqe_get_data64 (cqe);

          if (G_LIKELY (tag < CANCEL_TAG))
            {
              complete_io (engine, (guint32) tag, cqe->res, now);
              n_answers++;
            }
          else if (tag == TIMER_TAG)
            engine->timers_pending--;
          n_reaped++;
        }
      io_uring_cq_advance (&engine->ring, n_reaped);
      engine->sum_reaped += n_reaped;
      if (G_UNLIKELY (engine->drain != NULL))
        drain_update (engine, n_answers > 0, now);

      if (engine->row_appended || now >= engine->progress_due)
        report_progress (engine, now);
    }

  drain_finish (engine);
  if (engine->n_waits > 0)
    g_debug ("Engine: %" G_GUINT64_FORMAT " waits, %.2f I/Os in flight and %.2f completions reaped per wait",
             engine->n_waits, (double) engine->sum_in_flight / engine->n_waits,
             (double) engine->sum_reaped / engine->n_waits);
  if (started && G_UNLIKELY (engine->jobs != NULL))
    engine->last_ns = now;   /* the calling thread ends the merged record */
  else if (started)
    {
      engine->record->runtime_ns = now - engine->t0;
      /* The open interval, ending at the last completion. */
      if (engine->row.ops[0] + engine->row.ops[1] > 0)
        {
          guint64 t_ms = (now - engine->t0 + NS_PER_MS - 1) / NS_PER_MS;

          if (engine->n_rows > 0)
            {
              const DuelSeriesRow *last = duel_series_get_row (engine->record->series,
                                                               engine->n_rows - 1);
              t_ms = MAX (t_ms, last->t_ms + 1);
            }
          append_row (engine, t_ms);
        }
      report_progress (engine, now);
    }
}

/* The engine's fixed state for one run of @workload: what each job of
 * several also does for itself, in its own thread. */
static gboolean
engine_init (Engine             *engine,
             const DuelWorkload *workload,
             guint64             span_offset,
             guint64             span_length,
             gboolean            reads,
             gboolean            writes,
             GError            **error)
{
  engine->bs = workload->block_size;
  engine->qd = workload->queue_depth;
  engine->wait_batch = CLAMP (engine->qd / WAIT_BATCH_DIVISOR, 1, WAIT_BATCH_MAX);
  engine->runtime_limit_ns = workload->runtime_ms * NS_PER_MS;
  engine->interval_ns = (guint64) workload->interval_ms * NS_PER_MS;
  duel_offsets_init (&engine->offsets, workload->pattern,
                     span_offset, span_length,
                     engine->bs, workload->read_percent, engine->seed);
  duel_rng_init (&engine->stamp_rng, engine->seed ^ G_GUINT64_CONSTANT (0x7374616d70));

  if (!setup_buffers (engine, reads, writes, error) ||
      !setup_io (engine, error))
    return FALSE;

  engine->slots = g_new0 (Slot, engine->qd);
  engine->free_stack = g_new (guint32, engine->qd);
  engine->retry_stack = g_new (guint32, engine->qd);
  engine->batch = g_new (guint32, engine->qd);
  /* Reversed so slot 0 goes first; the order is otherwise irrelevant. */
  for (guint32 i = 0; i < engine->qd; i++)
    {
      engine->slots[i].pool_block = NO_POOL_BLOCK;
      engine->free_stack[i] = engine->qd - 1 - i;
    }
  engine->n_free = engine->qd;
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    engine->interval_hist[d] = g_new0 (DuelHistogram, 1);
  return TRUE;
}

/* Why the loop stopped early, if it failed: the ring, or the first I/O. */
static void
engine_error (Engine  *engine,
              GError **error)
{
  DuelTarget *target = engine->target;

  if (engine->ring_errno != 0)
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_RING,
                 _("io_uring failed during the run: %s"), g_strerror (engine->ring_errno));
  else if (engine->io_errno != 0)
    {
      g_autofree char *length = g_format_size_full (engine->io_err_length, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *why = NULL;
      guint64 size_now = 0;
      gboolean size_known = duel_target_query_current_size (target, &size_now);
      int size_errno = size_known ? 0 : errno;
      g_autoptr(GError) local_error = NULL;
      DuelError code = DUEL_ERROR_IO;

      /* A shrink in progress (a loop device's backing file cut before its
       * capacity is re-read) fails I/O a moment before the size changes:
       * look again briefly, on this error path only. */
      for (guint i = 0; i < 5 && size_known && size_now >= duel_target_get_size (target) &&
                        (engine->io_errno == EIO || engine->io_errno == ENODATA); i++)
        {
          g_usleep (50 * G_TIME_SPAN_MILLISECOND);
          size_known = duel_target_query_current_size (target, &size_now);
        }

      /* One sentence that says what happened first, the system's words
       * after it. A size that cannot be read (a FUSE server gone, its
       * descriptor dead) says nothing about shrinking. */
      if (size_known && size_now < duel_target_get_size (target))
        {
          g_autofree char *before = g_format_size_full (duel_target_get_size (target), G_FORMAT_SIZE_IEC_UNITS);
          g_autofree char *after = g_format_size_full (size_now, G_FORMAT_SIZE_IEC_UNITS);

          /* TRANSLATORS: why an I/O failed; the last %s is the system's error message */
          why = g_strdup_printf (_("the target shrank during the run, from %s to %s (%s)"),
                                 before, after, g_strerror (engine->io_errno));
        }
      /* I/O in flight when the server exits fails with EIO; the size
       * asked after it says the connection is gone. */
      else if (engine->io_errno == ENOTCONN || engine->io_errno == ECONNABORTED ||
               size_errno == ENOTCONN || size_errno == ECONNABORTED)
        /* TRANSLATORS: why an I/O failed; %s is the system's error message */
        why = g_strdup_printf (_("the filesystem the target is on stopped answering, as when its FUSE server has exited (%s)"),
                               g_strerror (engine->io_errno));
      /* We cancel nothing: io_uring could not start a kernel worker for a
       * request that would block (they count as the user's processes). */
      else if (engine->io_errno == ECANCELED)
        {
          code = DUEL_ERROR_SYSTEM;
          /* TRANSLATORS: why an I/O failed; %s is the system's error message */
          why = g_strdup_printf (_("the kernel could not start a worker for it, as this user’s limit on processes "
                                   "or memory is reached (%s)"), g_strerror (engine->io_errno));
        }
      else
        why = g_strdup (g_strerror (engine->io_errno));

      if (engine->io_err_dir == DUEL_DIRECTION_READ)
        g_set_error (&local_error, DUEL_ERROR, code,
                     _("Reading %s at offset %" PRIu64 " of “%s” failed: %s"),
                     length, engine->io_err_offset, duel_target_get_path (target), why);
      else
        g_set_error (&local_error, DUEL_ERROR, code,
                     _("Writing %s at offset %" PRIu64 " of “%s” failed: %s"),
                     length, engine->io_err_offset, duel_target_get_path (target), why);
      g_propagate_error (error, g_steal_pointer (&local_error));
    }
}

void
_duel_engine_job_main (DuelEngineJobs       *jobs,
                       guint                 index,
                       DuelTarget           *target,
                       const DuelTestRecord *record,
                       gboolean              reads,
                       gboolean              writes,
                       DuelEngineWatchdog   *watchdog,
                       GCancellable         *cancellable)
{
  g_autoptr(GError) error = NULL;
  Engine *engine = g_new0 (Engine, 1);

  engine->target = target;
  engine->watchdog = watchdog;
  engine->jobs = jobs;
  engine->job_index = index;
  engine->n_jobs = record->workload.numjobs;
  engine->seed = _duel_engine_jobs_seed (record->workload.seed, index);
  engine->shared_budget = _duel_engine_jobs_has_budget (jobs);

  if (!engine_init (engine, &record->workload, record->span_offset, record->span_length,
                    reads, writes, &error))
    _duel_engine_jobs_ready (jobs, index, g_steal_pointer (&error), NULL);
  else if (_duel_engine_jobs_ready (jobs, index, NULL, &engine->t0))
    {
      engine->clock_last = engine->t0;
      run_loop (engine, cancellable);
      engine_error (engine, &error);
      report_progress (engine, engine->last_ns);   /* its final totals */
      _duel_engine_jobs_end (jobs, index, &engine->row, engine->interval_hist,
                             engine->last_ns, engine->cancelled, g_steal_pointer (&error));
    }
  teardown (engine);
  g_free (engine);
}

/* The caller's thread: the one job of a run of numjobs 1. */
gboolean
_duel_engine_ring_run (DuelTarget         *target,
                       DuelTestRecord     *record,
                       gboolean            reads,
                       gboolean            writes,
                       DuelEngineWatchdog *watchdog,
                       GCancellable       *cancellable,
                       DuelProgressFunc    progress_func,
                       gpointer            progress_data,
                       gboolean           *out_cancelled,
                       GError            **error)
{
  g_autoptr(GError) local_error = NULL;
  Engine *engine = g_new0 (Engine, 1);

  engine->target = target;
  engine->watchdog = watchdog;
  engine->record = record;
  engine->progress_func = progress_func;
  engine->progress_data = progress_data;
  engine->n_jobs = 1;
  engine->seed = record->workload.seed;
  engine->byte_limit = record->byte_limit;

  if (engine_init (engine, &record->workload, record->span_offset, record->span_length,
                   reads, writes, &local_error))
    {
      record->started = g_date_time_new_now_utc ();
      run_loop (engine, cancellable);
      engine_error (engine, &local_error);
      *out_cancelled = engine->cancelled;
    }
  teardown (engine);
  g_free (engine);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return !*out_cancelled;
}
