/* test-ssd-rounds.c — SNIA's IOPS test in rounds on the simulated SSD, in virtual time
 *
 * The preset pts-iops, scaled down (two block sizes, three mixes, cells of
 * a fraction of a second), runs on the FTL model on its own clock
 * (ssd-virtual-plan.c: the plan's steps, the engine's offsets and mixes,
 * the records summarised and analysed as a run does), and the steady
 * state its rounds find (duel_rounds_report_new(), what the CLI, the app
 * and the report print) is held against the model's own account:
 *
 *  - the model's GC settles in the round from which every round's write
 *    amplification (flash programs per host page, the model's counters)
 *    stays within 5 % of where it ends; the steady window starts within
 *    one round of it (the window's first round is where steady state
 *    begins; the report says it was reached in the window's last);
 *  - the matrix's 4 KiB write figure, the mean over the window, equals the
 *    model's steady rate, its own count of the 4 KiB write cells' pages
 *    over their time from the settled round on, within 5 %;
 *  - a drive that has not settled by the round limit ends at the limit,
 *    and the report says steady state was not reached.
 *
 * The truth comes from a second run of the same plan with limits nothing
 * meets: the same I/O, bit for bit, on every round up to the limit (the
 * first run's rounds are checked to be the same). Named drives, then
 * random ones nobody tuned the rule to (ssd_random_config()), their cells
 * long enough for a round to write a tenth of the capacity at the
 * model's nominal program rate. No FUSE, no threads, no wall clock.
 * DUEL_SSD_CONFIGS=N runs N random drives and prints each (a campaign).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/duel-rounds.h"
#include "ssd-virtual-fill.h"
#include "ssd-virtual-plan.h"

#define NSEC           G_GUINT64_CONSTANT (1000000000)
#define SEED           0x5eed
#define WA_TOLERANCE   0.05
#define RATE_TOLERANCE 0.05
/* A random drive's window may start while it still drifts within SNIA's
 * limits (its fitted line may move 10 %): its mean is held to that. */
#define RATE_TOLERANCE_DRIFTING 0.10
#define RANDOM_DRIVES  12

typedef struct
{
  const char *name;
  SsdConfig   config;
  guint64     cell_ms;
  guint       max_rounds;
  gboolean    settles;     /* within the limit, as the model's account says (checked) */
} RoundsCase;

/* The plan of SNIA's IOPS test for @cfg: 4 KiB and 64 KiB at 100/0,
 * 65/35 and 0/100, cells of @cell_ms; @never: limits no rounds meet. */
static DuelPreset *
make_plan (const SsdConfig *cfg,
           guint64          cell_ms,
           guint            max_rounds,
           gboolean         never)
{
  static const guint32 block_sizes[] = { 4096, 65536 };
  static const guint read_percents[] = { 100, 65, 0 };
  DuelPresetOptions options;
  g_autoptr(GError) error = NULL;
  DuelPreset *plan;

  duel_preset_options_init (&options);
  options.runtime_ms = cell_ms;
  options.interval_ms = 100;
  options.max_rounds = max_rounds;
  if (never)
    options.data_limit = options.slope_limit = 1e-12;
  options.n_matrix_block_sizes = G_N_ELEMENTS (block_sizes);
  memcpy (options.matrix_block_sizes, block_sizes, sizeof block_sizes);
  options.n_matrix_read_percents = G_N_ELEMENTS (read_percents);
  memcpy (options.matrix_read_percents, read_percents, sizeof read_percents);
  plan = duel_preset_new ("pts-iops", &options, &error);
  g_assert_no_error (error);
  duel_preset_prepare_for_size (plan, cfg->capacity_bytes, SSD_PAGE_SIZE, "the model", &error);
  g_assert_no_error (error);
  return plan;
}

static void
run_plan (const SsdConfig *cfg,
          DuelPreset      *plan,
          SsdVirtualPlan  *out)
{
  SsdFtl *ftl = ssd_ftl_new (cfg);
  g_autoptr(GError) error = NULL;

  ssd_virtual_plan_run (ftl, plan, NSEC, SEED, out);
  if (!ssd_ftl_check (ftl, &error))
    g_error ("the model is inconsistent: %s", error->message);
  ssd_ftl_free (ftl);
}

/* The model's account of round @round (1-based): its write amplification
 * over all the round's writes, and its own rate of the tracked 4 KiB
 * write cell (pages and time). */
typedef struct
{
  double  wa;           /* of the tracked cell's writes */
  double  round_wa;     /* of all the round's */
  guint64 tracked_pages;
  guint64 tracked_ns;
} RoundTruth;

static GArray *
round_truth (const SsdVirtualPlan *run,
             const char           *tracked_step)
{
  GArray *truth = g_array_new (FALSE, TRUE, sizeof (RoundTruth));
  g_autoptr(GArray) host = g_array_new (FALSE, TRUE, sizeof (guint64));
  g_autoptr(GArray) programs = g_array_new (FALSE, TRUE, sizeof (guint64));

  for (guint i = 0; i < run->steps->len; i++)
    {
      const SsdVirtualStepLog *log = &g_array_index (run->steps, SsdVirtualStepLog, i);
      guint r = log->step->round;
      RoundTruth *t;

      if (r == 0)
        continue;
      if (truth->len < r)
        {
          g_array_set_size (truth, r);
          g_array_set_size (host, r);
          g_array_set_size (programs, r);
        }
      t = &g_array_index (truth, RoundTruth, r - 1);
      g_array_index (host, guint64, r - 1) += log->after.host_pages_written - log->before.host_pages_written;
      g_array_index (programs, guint64, r - 1) += log->after.programs - log->before.programs;
      if (strcmp (log->step->name, tracked_step) == 0)
        {
          t->wa = ssd_virtual_step_write_amplification (log);
          t->tracked_pages += log->after.host_pages_written - log->before.host_pages_written;
          t->tracked_ns += log->end_ns - log->start_ns;
        }
    }
  for (guint r = 0; r < truth->len; r++)
    g_array_index (truth, RoundTruth, r).round_wa = (double) g_array_index (programs, guint64, r)
                                                    / (double) MAX (g_array_index (host, guint64, r), 1);
  return truth;
}

/* The mean of the tracked cell's write amplification over rounds @r to
 * @r + 2 (0-based; fewer at the end). */
static double
wa_around (GArray *truth,
           guint   r)
{
  double sum = 0;
  guint n = 0;

  for (guint k = r; k < MIN (r + 3, truth->len); k++, n++)
    sum += g_array_index (truth, RoundTruth, k).wa;
  return sum / n;
}

/* The first round (1-based) from which the tracked cell's write
 * amplification, the mean of three rounds (one round's count is noisy on
 * a small drive), stays within WA_TOLERANCE of where it ends: the mean
 * of the last third of the rounds. */
static guint
settled_round (GArray *truth)
{
  double end = 0;
  guint n = MAX (truth->len / 3, 1), settled = truth->len + 1;

  for (guint r = truth->len - n; r < truth->len; r++)
    end += g_array_index (truth, RoundTruth, r).wa / n;
  for (guint r = truth->len; r > 0; r--)
    {
      if (fabs (wa_around (truth, r - 1) - end) > WA_TOLERANCE * end)
        break;
      settled = r;
    }
  return settled;
}

/* Checks one drive; returns whether every check held, printing why not
 * (@campaign: print each drive's figures, and do not fail). */
static gboolean
check_drive (const char      *name,
             const SsdConfig *cfg,
             guint64          cell_ms,
             guint            max_rounds,
             gboolean         strict,
             gboolean         campaign,
             gboolean        *out_steady)
{
  g_autoptr(DuelPreset) plan = make_plan (cfg, cell_ms, max_rounds, FALSE);
  /* The truth over at least 25 rounds: where a drive stopped at a lower
   * limit would have settled. */
  g_autoptr(DuelPreset) endless = make_plan (cfg, cell_ms, MAX (max_rounds, 25), TRUE);
  g_autoptr(DuelRoundsReport) report = NULL;
  g_autoptr(DuelRoundsReport) all = NULL;
  g_autoptr(GArray) truth = NULL;
  SsdVirtualPlan run, full;
  const DuelRoundsCell *cell;
  guint settled, first = 0;
  guint64 pages = 0, ns = 0;
  double model_rate = NAN;
  gboolean ok = TRUE;
  GString *why = g_string_new (NULL);

  run_plan (cfg, plan, &run);
  run_plan (cfg, endless, &full);
  report = duel_rounds_report_new (run.result, "pts-iops");
  all = duel_rounds_report_new (full.result, "pts-iops");
  g_assert_nonnull (report);
  g_assert_nonnull (all);
  g_assert_cmpuint (all->n_rounds, ==, MAX (max_rounds, 25));
  g_assert_false (all->steady);
  /* The same I/O in the rounds both ran: the truth is of this run. */
  for (guint r = 0; r < report->n_rounds; r++)
    g_assert_cmpfloat (g_array_index (report->tracked, double, r), ==, g_array_index (all->tracked, double, r));

  truth = round_truth (&full, report->tracked_step);
  settled = settled_round (truth);
  for (guint r = MIN (settled, truth->len + 1); r <= truth->len; r++)
    {
      pages += g_array_index (truth, RoundTruth, r - 1).tracked_pages;
      ns += g_array_index (truth, RoundTruth, r - 1).tracked_ns;
    }
  if (ns > 0)
    model_rate = pages / (ns / 1e9);
  cell = duel_rounds_report_find_cell (report, 4096, 0);
  g_assert_nonnull (cell);

  if (report->steady)
    {
      first = report->steady_round - report->window + 1;
      if (settled > MAX (max_rounds, 25) || (strict && first + 1 < settled) || first > settled + 1)
        {
          g_string_append_printf (why, "steady from round %u, the model settled in round %u; ", first, settled);
          ok = FALSE;
        }
      if (!(fabs (cell->iops - model_rate) <= (strict ? RATE_TOLERANCE : RATE_TOLERANCE_DRIFTING) * model_rate))
        {
          g_string_append_printf (why, "4 KiB write %.0f IOPS, the model's steady rate %.0f; ", cell->iops, model_rate);
          ok = FALSE;
        }
    }
  else
    {
      /* Not steady: the limit reached, and the model had not settled in
       * time for a whole window after it (with the round of slack the
       * steady case has). */
      if (report->n_rounds != max_rounds)
        {
          g_string_append_printf (why, "not steady after %u of %u rounds; ", report->n_rounds, max_rounds);
          ok = FALSE;
        }
      if (settled + report->window <= max_rounds)
        {
          g_string_append_printf (why, "not steady, but the model settled in round %u of %u; ", settled, max_rounds);
          ok = FALSE;
        }
    }

  if (campaign || !ok)
    {
      g_print ("# %s: %s%s in round %u (window from %u), model settled in round %u; "
               "4 KiB write %.0f IOPS, model %.0f; WA",
               name, report->steady ? "steady" : "not steady", report->steady ? "" : " at the limit",
               report->steady ? report->steady_round : report->n_rounds, first, settled, cell->iops, model_rate);
      for (guint r = 0; r < truth->len; r++)
        g_print (" %.2f", g_array_index (truth, RoundTruth, r).wa);
      g_print ("; tracked");
      for (guint r = 0; r < all->n_rounds; r++)
        g_print (" %.0f", g_array_index (all->tracked, double, r));
      g_print ("\n");
    }
  if (!ok)
    g_print ("# %s: %s\n", name, why->str);
  g_string_free (why, TRUE);
  *out_steady = report->steady;
  ssd_virtual_plan_clear (&run);
  ssd_virtual_plan_clear (&full);
  return ok;
}

/* A drive of 8 units without a write cache, @op_pct spare. */
static SsdConfig
plain_drive (guint64 capacity_mib,
             double  op_pct)
{
  return (SsdConfig) { "rounds", capacity_mib << 20, op_pct, 64, 8, 50000, 200000, 200000, 2000000,
                       0, 2, 0.0, 2000000, SSD_INITIAL_FRESH };
}

static void
test_named (void)
{
  const RoundsCase cases[] = {
    /* GC from the first round (little spare area) to the third (much). */
    { "spare 7 %", plain_drive (1024, 7), 1000, 25, TRUE },
    { "spare 25 %", plain_drive (1024, 25), 1000, 25, TRUE },
    { "spare 50 %", plain_drive (1024, 50), 1000, 25, TRUE },
    { "spare 100 %", plain_drive (1024, 100), 1000, 25, TRUE },
    /* Shorter rounds: GC begins in the fifth, two rounds before the limit. */
    { "spare 100 %, at most 7 rounds", plain_drive (1024, 100), 500, 7, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean steady;

      g_assert_true (check_drive (cases[i].name, &cases[i].config, cases[i].cell_ms, cases[i].max_rounds,
                                  TRUE, FALSE, &steady));
      g_assert_cmpint (steady, ==, cases[i].settles);
    }
}

/* Cells long enough for the 4 KiB write cell to write half the capacity
 * at the model's nominal rate (every unit programming, no GC: a round's
 * host writes are that over the write amplification). */
static guint64
cell_ms_for (const SsdConfig *cfg)
{
  double pages_per_s = cfg->units * 1e9 / cfg->t_prog_ns;
  double pages = cfg->capacity_bytes / (double) SSD_PAGE_SIZE;

  return (guint64) CLAMP (ceil (0.5 * pages / pages_per_s * 10) * 100, 100, 60000);
}

static guint
check_random (guint n, gboolean campaign)
{
  guint failed = 0, steady_n = 0;

  for (guint k = 0; k < n; k++)
    {
      SsdConfig cfg;
      char what[256], name[300];
      gboolean steady;

      ssd_random_config (k, &cfg, what, sizeof what);
      g_snprintf (name, sizeof name, "drive %u (%s)", k, what);
      if (!check_drive (name, &cfg, cell_ms_for (&cfg), 25, FALSE, campaign, &steady))
        failed++;
      steady_n += steady;
    }
  g_print ("# %u random drives: %u steady, %u failed\n", n, steady_n, failed);
  return failed;
}

static void
test_random (void)
{
  g_assert_cmpuint (check_random (RANDOM_DRIVES, FALSE), ==, 0);
}

/* SNIA's IOPS test at full length (every block size and mix, one-minute
 * cells of the model's time, at most 25 rounds) on a drive of @mib MiB
 * with @op_pct spare: prints the rounds, the verdict, the model's time
 * and the matrix. Not a test: a record for docs/ssd-model.md. */
static int
run_full_length (guint64 mib,
                 double  op_pct)
{
  SsdConfig cfg = plain_drive (mib, op_pct);
  DuelPresetOptions options;
  g_autoptr(DuelPreset) plan = NULL;
  g_autoptr(DuelRoundsReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) truth = NULL;
  SsdVirtualPlan run;
  const SsdVirtualStepLog *last;

  duel_preset_options_init (&options);
  plan = duel_preset_new ("pts-iops", &options, &error);
  g_assert_no_error (error);
  /* 512-byte logical blocks, as a 512e drive takes them: every cell runs. */
  duel_preset_prepare_for_size (plan, cfg.capacity_bytes, 512, "the model", &error);
  g_assert_no_error (error);
  run_plan (&cfg, plan, &run);
  report = duel_rounds_report_new (run.result, "pts-iops");
  truth = round_truth (&run, report->tracked_step);
  last = &g_array_index (run.steps, SsdVirtualStepLog, run.steps->len - 1);
  g_print ("%" G_GUINT64_FORMAT " MiB, spare %.0f %%: %u rounds of %u cells, %s%s in round %u (window %u-%u); "
           "%u optional rounds skipped; the model's time %.1f h\n",
           mib, op_pct, report->n_rounds, report->cells->len, report->steady ? "steady" : "not steady",
           report->steady ? "" : " at the limit", report->steady ? report->steady_round : report->n_rounds,
           report->measured.first_round, report->measured.first_round + report->window - 1, run.n_skipped,
           (last->end_ns - NSEC) / 3.6e12);
  for (guint r = 0; r < report->n_rounds; r++)
    g_print ("round %u: 4 KiB write %.0f IOPS, its write amplification %.2f\n", r + 1,
             g_array_index (report->tracked, double, r), g_array_index (truth, RoundTruth, r).wa);
  for (guint i = 0; i < report->cells->len; i++)
    {
      const DuelRoundsCell *cell = g_ptr_array_index (report->cells, i);
      g_print ("%-22s %10.0f IOPS %9.1f MB/s\n", cell->name, cell->iops, cell->mbps);
    }
  ssd_virtual_plan_clear (&run);
  return 0;
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("DUEL_SSD_TRY") != NULL)
    {
      g_auto(GStrv) f = g_strsplit (g_getenv ("DUEL_SSD_TRY"), ",", 0);
      SsdConfig cfg = plain_drive (g_ascii_strtoull (f[3], NULL, 10), g_ascii_strtod (f[0], NULL));
      gboolean steady;

      if (f[4] != NULL)
        cfg.units = (guint) g_ascii_strtoull (f[4], NULL, 10);
      if (f[4] != NULL && f[5] != NULL)
        cfg.t_prog_ns = g_ascii_strtoull (f[5], NULL, 10);
      return !check_drive ("try", &cfg, g_ascii_strtoull (f[1], NULL, 10), (guint) g_ascii_strtoull (f[2], NULL, 10),
                           TRUE, TRUE, &steady);
    }
  if (g_getenv ("DUEL_SSD_FULL") != NULL)
    return run_full_length (g_ascii_strtoull (g_getenv ("DUEL_SSD_FULL"), NULL, 10),
                            g_ascii_strtod (g_getenv ("DUEL_SSD_OP") ?: "12", NULL));
  if (g_getenv ("DUEL_SSD_CONFIGS") != NULL)
    return check_random ((guint) g_ascii_strtoull (g_getenv ("DUEL_SSD_CONFIGS"), NULL, 10), TRUE) > 0;
  g_test_add_func ("/ssd-rounds/named", test_named);
  g_test_add_func ("/ssd-rounds/random-drives", test_random);
  return g_test_run ();
}
