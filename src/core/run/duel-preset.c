/* duel-preset.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "duel-error.h"
#include "duel-json.h"
#include "duel-preset-private.h"
#include "duel-probe.h"
#include "review/duel-review-test.h"

#define MIB                  (G_GUINT64_CONSTANT (1) << 20)
#define GIB                  (G_GUINT64_CONSTANT (1) << 30)
#define SEC_MS               G_GUINT64_CONSTANT (1000)
/* The longest a write until its rate falls runs (the cache after idle):
 * a drive whose cache came back larger than two minutes of writing has
 * a cache at least that large. */
#define UNTIL_FALL_MAX_MS (120 * SEC_MS)
#define QUICK_SPAN_MAX       GIB
/* Without a probe the fill is weighted as if it ran at this rate. */
#define NOMINAL_FILL_RATE    (100.0 * 1e6)
#define DISCARD_WEIGHT_S     0.5

/* The effective parameters after defaults and overrides. */
typedef struct
{
  guint64  span_bytes;          /* 0 until prepared: the whole target */
  double   capacity_multiple;
  guint64  fill_max_ms;         /* 0: the fill is bounded by size alone */
  guint64  runtime_ms[DUEL_PRESET_MAX_REVIEW_TESTS]; /* each timed step, by the test's place in duel_review_tests_get_all() */
  guint64  round_ms;
  guint    interval_ms;
  gboolean no_trim;
  guint    passes;              /* 0: each review test's own */
  guint    max_rounds;          /* 0: each test in rounds its own */
  DuelReviewRounds rounds[DUEL_PRESET_MAX_REVIEW_TESTS]; /* each test's in rounds, with the overrides */
} Plan;

struct _DuelPreset
{
  GObject parent_instance;

  const DuelPresetInfo *info;
  DuelPresetOptions     options;
  Plan                  plan;
  DuelAnalysisParams    analysis;
  GArray               *steps;             /* DuelPresetStep */
  GPtrArray            *plain_names;       /* a plain plan's step names (the steps point into them) */
  guint64               discard_length;    /* the span, once prepared */
  guint32               logical_block_size;/* the target's, once prepared */
};

G_DEFINE_FINAL_TYPE (DuelPreset, duel_preset, G_TYPE_OBJECT)

static void
duel_preset_finalize (GObject *object)
{
  DuelPreset *self = DUEL_PRESET (object);

  g_clear_pointer (&self->steps, g_array_unref);
  g_clear_pointer (&self->plain_names, g_ptr_array_unref);

  G_OBJECT_CLASS (duel_preset_parent_class)->finalize (object);
}

static void
duel_preset_class_init (DuelPresetClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = duel_preset_finalize;
}

static void
duel_preset_init (DuelPreset *self)
{
  self->steps = g_array_new (FALSE, TRUE, sizeof (DuelPresetStep));
}

void
duel_preset_options_init (DuelPresetOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
}

/* What of the chosen workload a custom step takes: the rest (span, stop
 * rule, interval, seed) is the plan's, as for any step. */
static void
take_chosen_workload (const DuelPresetOptions *options,
                      DuelWorkload            *workload)
{
  workload->pattern = options->custom.pattern;
  workload->block_size = options->custom.block_size;
  workload->queue_depth = options->custom.queue_depth;
  workload->numjobs = MAX (options->custom.numjobs, 1);
  workload->read_percent = options->custom.read_percent;
}

/* The chosen workload, checked by the workload's own rules (the ranges the
 * CLI and the fio import refuse in the same words). */
static gboolean
check_custom (const DuelPresetOptions  *options,
              guint64                   runtime_ms,
              GError                  **error)
{
  DuelWorkload workload;

  if (options->custom.block_size == 0)
    {
      g_set_error_literal (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                           _("The custom test needs its workload: a block size, queue depth, jobs and read share."));
      return FALSE;
    }
  duel_workload_init (&workload);
  take_chosen_workload (options, &workload);
  workload.runtime_ms = runtime_ms;
  return duel_workload_validate (&workload, error);
}

/* Whether the person's subset of the matrix keeps @step (all of it when
 * they chose none). */
static gboolean
cell_chosen (const DuelPresetOptions *options,
             const DuelReviewStep    *step)
{
  gboolean size_ok = options->n_matrix_block_sizes == 0;
  gboolean mix_ok = options->n_matrix_read_percents == 0;

  for (guint i = 0; i < options->n_matrix_block_sizes; i++)
    size_ok |= options->matrix_block_sizes[i] == step->block_size;
  for (guint i = 0; i < options->n_matrix_read_percents; i++)
    mix_ok |= options->matrix_read_percents[i] == step->read_percent;
  return size_ok && mix_ok;
}

/* The rounds and the matrix a person chose fit the preset's tests: a
 * subset of a matrix that keeps the tracked cell. */
static gboolean
check_rounds (const DuelPresetInfo     *info,
              const DuelPresetOptions  *options,
              GError                  **error)
{
  const DuelReviewRounds *rounds = NULL;
  const DuelReviewStep *tracked = NULL;

  for (guint t = 0; info->tests[t] != NULL; t++)
    {
      const DuelReviewTest *test = duel_review_test_find (info->tests[t]);

      if (test->rounds != NULL)
        {
          rounds = test->rounds;
          duel_review_test_find_step (rounds->tracked_step, NULL, &tracked);
        }
    }
  if (options->max_rounds > DUEL_PRESET_MAX_ROUNDS ||
      (rounds != NULL && options->max_rounds > 0 && options->max_rounds < rounds->window))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The number of rounds must be between %u and %u, not %u."),
                   rounds != NULL ? rounds->window : 1, DUEL_PRESET_MAX_ROUNDS, options->max_rounds);
      return FALSE;
    }
  if (options->data_limit < 0 || options->data_limit > 10 || !isfinite (options->data_limit) ||
      options->slope_limit < 0 || options->slope_limit > 10 || !isfinite (options->slope_limit))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The steady-state limits must be shares of the mean above 0 and at most 10."));
      return FALSE;
    }
  if (options->n_matrix_block_sizes > DUEL_PRESET_MAX_MATRIX ||
      options->n_matrix_read_percents > DUEL_PRESET_MAX_MATRIX)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("A matrix takes at most %u block sizes and %u mixes."),
                   DUEL_PRESET_MAX_MATRIX, DUEL_PRESET_MAX_MATRIX);
      return FALSE;
    }
  if (rounds == NULL && (options->max_rounds > 0 || options->n_matrix_block_sizes > 0 ||
                         options->data_limit > 0 || options->slope_limit > 0 ||
                         options->n_matrix_read_percents > 0))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The preset “%s” runs no rounds and no matrix: rounds, block sizes and mixes "
                     "are the SNIA tests’ options."), info->name);
      return FALSE;
    }
  if (rounds == NULL)
    return TRUE;
  for (guint i = 0; i < options->n_matrix_block_sizes; i++)
    if (!_duel_preset_matrix_has (info, options->matrix_block_sizes[i], G_MAXUINT))
      {
        g_autofree char *size = duel_workload_format_block_size (options->matrix_block_sizes[i]);

        g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                     _("The test matrix of “%s” has no block size of %s."), info->name, size);
        return FALSE;
      }
  for (guint i = 0; i < options->n_matrix_read_percents; i++)
    if (!_duel_preset_matrix_has (info, 0, options->matrix_read_percents[i]))
      {
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                     _("The test matrix of “%s” has no mix with %u %% reads."), info->name,
                     options->matrix_read_percents[i]);
        return FALSE;
      }
  /* Its rounds are judged on one cell: that one must run. */
  if (!cell_chosen (options, tracked))
    {
      g_autofree char *size = duel_workload_format_block_size (tracked->block_size);

      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The matrix must keep %s at %u %% reads: steady state is judged on it."),
                   size, tracked->read_percent);
      return FALSE;
    }
  return TRUE;
}

/* The idle periods a person gave (recovery after idle). */
static gboolean
check_idle (const DuelPresetInfo     *info,
            const DuelPresetOptions  *options,
            GError                  **error)
{
  if (options->n_idle > 0 && _duel_preset_resting_test (info) == NULL)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The preset “%s” does not rest the drive: idle periods are for recovery after idle."),
                   info->name);
      return FALSE;
    }
  if (options->n_idle > DUEL_REVIEW_MAX_IDLE)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("At most %u idle periods can be given, not %u."), DUEL_REVIEW_MAX_IDLE, options->n_idle);
      return FALSE;
    }
  for (guint i = 0; i < options->n_idle; i++)
    if (options->idle_ms[i] < DUEL_PRESET_MIN_IDLE_MS || options->idle_ms[i] > DUEL_PRESET_MAX_IDLE_MS)
      {
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                     _("An idle period must be between %.1f s and %.0f h, not %.1f s."),
                     DUEL_PRESET_MIN_IDLE_MS / 1e3, DUEL_PRESET_MAX_IDLE_MS / 3.6e6, options->idle_ms[i] / 1e3);
        return FALSE;
      }
  return TRUE;
}

/* The length of @test's idle period @slot (1-based) in this plan; 0 when
 * the plan has no such period. */
static guint64
idle_ms_of (DuelPreset           *self,
            const DuelReviewTest *test,
            guint                 slot)
{
  const guint64 *own = self->info->quick ? test->quick_idle_ms : test->idle_ms;

  if (slot == 0 || slot > DUEL_REVIEW_MAX_IDLE)
    return 0;
  if (self->options.n_idle > 0)
    return slot <= self->options.n_idle ? self->options.idle_ms[slot - 1] : 0;
  for (guint i = 0; i < slot; i++)
    if (own[i] == 0)
      return 0;
  return own[slot - 1];
}

/* The place of @test in duel_review_tests_get_all(): its runtime's slot. */
static guint
test_slot (const DuelReviewTest *test)
{
  const DuelReviewTest * const *all = duel_review_tests_get_all ();

  for (guint i = 0; all[i] != NULL; i++)
    if (all[i] == test)
      return i;
  g_assert_not_reached ();
}

DuelPreset *
duel_preset_new (const char               *name,
                 const DuelPresetOptions  *options,
                 GError                  **error)
{
  const DuelPresetInfo *info = _duel_preset_find (name);
  const DuelReviewTest * const *all = duel_review_tests_get_all ();
  g_autoptr(DuelPreset) self = NULL;
  g_autofree char *list = NULL;
  Plan *plan;

  if (info == NULL)
    {
      list = g_strjoinv (", ", (char **) duel_preset_get_names ());
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("Unknown preset “%s”: use one of %s."), name ? name : "", list);
      return NULL;
    }

  self = g_object_new (DUEL_TYPE_PRESET, NULL);
  self->info = info;
  if (options != NULL)
    self->options = *options;
  else
    duel_preset_options_init (&self->options);

  plan = &self->plan;
  *plan = (Plan) {
    .capacity_multiple = 2,
    .fill_max_ms = info->quick ? 30 * SEC_MS : 0,
    .round_ms = info->quick ? 1 * SEC_MS : 60 * SEC_MS,
    .interval_ms = info->quick ? 100 : DUEL_WORKLOAD_DEFAULT_INTERVAL_MS,
  };
  for (guint i = 0; all[i] != NULL; i++)
    plan->runtime_ms[i] = info->quick ? all[i]->quick_runtime_ms : all[i]->runtime_ms;

  if (self->options.span_bytes > 0)
    plan->span_bytes = self->options.span_bytes;
  if (self->options.capacity_multiple != 0)
    {
      if (!(self->options.capacity_multiple > 0) || !isfinite (self->options.capacity_multiple) ||
          self->options.capacity_multiple > 1000)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                       _("The capacity multiple must be a number above 0, not %g."),
                       self->options.capacity_multiple);
          return NULL;
        }
      plan->capacity_multiple = self->options.capacity_multiple;
    }
  if (self->options.runtime_ms > 0)
    {
      for (guint i = 0; all[i] != NULL; i++)
        plan->runtime_ms[i] = self->options.runtime_ms;
    }
  if (self->options.interval_ms > 0)
    plan->interval_ms = self->options.interval_ms;
  if (self->options.round_ms > 0)
    plan->round_ms = self->options.round_ms;
  plan->no_trim = self->options.no_trim;

  if (self->options.passes > DUEL_PRESET_MAX_PASSES)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The number of passes must be between 1 and %u, not %u."),
                   DUEL_PRESET_MAX_PASSES, self->options.passes);
      return NULL;
    }
  /* A fill is bounded by what it wrote to a drive it changed: its second
   * pass would measure another drive, not the same test again. */
  if (self->options.passes > 1 && duel_preset_name_has_fill (name))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The preset “%s” fills the drive, which cannot be repeated: it runs one pass only."),
                   name);
      return NULL;
    }
  plan->passes = self->options.passes;
  if (!check_idle (info, &self->options, error))
    return NULL;
  if (!check_rounds (info, &self->options, error))
    return NULL;
  plan->max_rounds = self->options.max_rounds;
  for (guint i = 0; all[i] != NULL; i++)
    if (all[i]->rounds != NULL)
      {
        plan->rounds[i] = *all[i]->rounds;
        if (self->options.max_rounds > 0)
          plan->rounds[i].max_rounds = self->options.max_rounds;
        if (self->options.data_limit > 0)
          plan->rounds[i].data_limit = self->options.data_limit;
        if (self->options.slope_limit > 0)
          plan->rounds[i].slope_limit = self->options.slope_limit;
      }
  if (_duel_preset_chosen_test (info) != NULL &&
      !check_custom (&self->options, plan->runtime_ms[test_slot (_duel_preset_chosen_test (info))], error))
    return NULL;

  if (plan->interval_ms < DUEL_WORKLOAD_MIN_INTERVAL_MS || plan->interval_ms > DUEL_WORKLOAD_MAX_INTERVAL_MS)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("The interval must be between %u and %u ms, not %u ms."),
                   DUEL_WORKLOAD_MIN_INTERVAL_MS, DUEL_WORKLOAD_MAX_INTERVAL_MS, plan->interval_ms);
      return NULL;
    }
  if (plan->round_ms < plan->interval_ms)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("A steady-state round (%" PRIu64 " ms) cannot be shorter than the interval (%u ms)."),
                   plan->round_ms, plan->interval_ms);
      return NULL;
    }

  duel_analysis_params_init (&self->analysis);
  self->analysis.round_ms = plan->round_ms;

  return g_steal_pointer (&self);
}

DuelPreset *
duel_preset_new_plain (void)
{
  DuelPreset *self = g_object_new (DUEL_TYPE_PRESET, NULL);

  duel_preset_options_init (&self->options);
  self->plan.interval_ms = DUEL_WORKLOAD_DEFAULT_INTERVAL_MS;
  self->plain_names = g_ptr_array_new_with_free_func (g_free);
  duel_analysis_params_init (&self->analysis);
  return self;
}

void
duel_preset_add_workload (DuelPreset         *self,
                          const char         *name,
                          const DuelWorkload *workload)
{
  DuelPresetStep step = {
    .kind = DUEL_PRESET_STEP_TEST,
    .pass = 1,
    .passes = 1,
  };
  g_autoptr(DuelTestRecord) probe = NULL;
  char *owned = g_strdup (name != NULL ? name : duel_workload_get_rw_name (workload));

  g_return_if_fail (DUEL_IS_PRESET (self));
  g_return_if_fail (self->info == NULL);
  g_return_if_fail (workload != NULL);

  g_ptr_array_add (self->plain_names, owned);
  step.name = owned;
  step.workload = *workload;
  step.weight_s = workload->runtime_ms / 1e3;
  /* The analysis its workload fits, until the finished record decides. */
  probe = duel_test_record_new (owned, workload);
  step.analysis = duel_analysis_guess (probe);
  g_array_append_val (self->steps, step);
}

gboolean
duel_preset_writes (DuelPreset *self)
{
  g_return_val_if_fail (DUEL_IS_PRESET (self), FALSE);

  /* Every preset trims, fills or writes its write tests. */
  if (self->info != NULL)
    return TRUE;
  for (guint i = 0; i < self->steps->len; i++)
    if (duel_workload_writes (&g_array_index (self->steps, DuelPresetStep, i).workload))
      return TRUE;
  return FALSE;
}

const char *
duel_preset_get_name (DuelPreset *self)
{
  g_return_val_if_fail (DUEL_IS_PRESET (self), NULL);

  return self->info != NULL ? self->info->name : NULL;
}

const DuelPresetOptions *
duel_preset_get_options (DuelPreset *self)
{
  g_return_val_if_fail (DUEL_IS_PRESET (self), NULL);

  return &self->options;
}

const DuelAnalysisParams *
duel_preset_get_analysis_params (DuelPreset *self)
{
  g_return_val_if_fail (DUEL_IS_PRESET (self), NULL);

  return &self->analysis;
}

static double  fill_weight   (DuelPreset *self,
                              double      probe_write_iops,
                              guint64     fill_bytes);
static guint64 fill_bytes_of (DuelPreset *self,
                              double      multiple);

static void
add_test (DuelPreset           *self,
          const DuelReviewTest *test,
          const DuelReviewStep *info,
          guint                 pass,
          guint                 passes)
{
  DuelPresetStep step = {
    .kind = DUEL_PRESET_STEP_TEST,
    .name = info->name,
    .section = test->id,
    .analysis = info->analysis,
    .test = test,
    .info = info,
    .pass = pass,
    .passes = passes,
  };

  duel_workload_init (&step.workload);
  step.workload.pattern = info->pattern;
  step.workload.block_size = info->block_size;
  step.workload.queue_depth = info->queue_depth;
  step.workload.numjobs = MAX (info->numjobs, 1);
  step.workload.read_percent = info->read_percent;
  if (info->chosen)
    {
      g_autoptr(DuelTestRecord) probe = NULL;

      take_chosen_workload (&self->options, &step.workload);
      /* The analysis its workload fits, by the importer's rule, until the
       * finished record decides (duel_run_steps_run()). */
      probe = duel_test_record_new (info->name, &step.workload);
      step.analysis = duel_analysis_guess (probe);
    }
  step.workload.span_offset = 0;
  step.workload.span_length = self->plan.span_bytes;
  step.workload.interval_ms = test->max_interval_ms > 0 ? MIN (self->plan.interval_ms, test->max_interval_ms)
                                                        : self->plan.interval_ms;
  /* Rows fine enough to see a cache of a second end. */
  if (info->until_fall_share > 0)
    step.workload.interval_ms = MIN (step.workload.interval_ms, DUEL_PROBE_INTERVAL_MS);
  if (info->fill && info->until_fall_share > 0)
    {
      /* A write until its rate falls: the step's own share of the span
       * and time at most, whatever the plan's fill (the cache after idle). */
      step.workload.size_multiple = info->until_fall_share;
      step.workload.runtime_ms = self->plan.fill_max_ms > 0 ? MIN (self->plan.fill_max_ms, UNTIL_FALL_MAX_MS)
                                                            : UNTIL_FALL_MAX_MS;
      step.weight_s = MIN (fill_weight (self, NAN, fill_bytes_of (self, info->until_fall_share)),
                           step.workload.runtime_ms / 1e3);
    }
  else if (info->fill)
    {
      /* A test's own multiple (the sequential write: the span once)
       * unless the person gave one. */
      step.workload.size_multiple = test->fill_multiple > 0 && self->options.capacity_multiple == 0
                                    ? test->fill_multiple : self->plan.capacity_multiple;
      step.workload.runtime_ms = self->plan.fill_max_ms;
      step.weight_s = fill_weight (self, NAN, fill_bytes_of (self, step.workload.size_multiple));
    }
  else
    {
      step.workload.runtime_ms = self->plan.runtime_ms[test_slot (test)];
      step.weight_s = step.workload.runtime_ms / 1e3;
    }
  /* A seed per step (and pass): the read score must not replay the fill's
   * offsets, a pass not the one before. */
  step.workload.seed += self->steps->len;
  g_array_append_val (self->steps, step);
}

/* No I/O for @idle_ms before @info runs: the drive rests. */
static void
add_idle (DuelPreset           *self,
          const DuelReviewTest *test,
          const DuelReviewStep *info,
          guint64               idle_ms)
{
  DuelPresetStep idle = {
    .kind = DUEL_PRESET_STEP_IDLE,
    .name = DUEL_REVIEW_IDLE_NAME,
    .section = test->id,
    .test = test,
    .info = info,
    .weight_s = idle_ms / 1e3,
    .idle_ms = idle_ms,
  };

  /* Its time is known, as a timed test's is: the time left counts it down. */
  duel_workload_init (&idle.workload);
  idle.workload.runtime_ms = idle_ms;
  g_array_append_val (self->steps, idle);
}

/* Whether a cell of the matrix runs on this target: chosen, and, unless
 * the person named its block size, no smaller than the target's logical
 * block (SNIA's 512 B cells on a drive of 4 KiB sectors; the parameters
 * list what ran). A block size the person named that the target cannot
 * take is refused by the engine's check, in its words. */
static gboolean
cell_runs (DuelPreset           *self,
           const DuelReviewStep *step)
{
  if (!cell_chosen (&self->options, step))
    return FALSE;
  return self->options.n_matrix_block_sizes > 0 || self->logical_block_size == 0 ||
         step->block_size % self->logical_block_size == 0;
}

static guint
max_rounds_of (DuelPreset           *self,
               const DuelReviewTest *test)
{
  return duel_preset_get_rounds (self, test)->max_rounds;
}

const DuelReviewRounds *
duel_preset_get_rounds (DuelPreset           *self,
                        const DuelReviewTest *test)
{
  g_return_val_if_fail (DUEL_IS_PRESET (self), NULL);
  g_return_val_if_fail (test != NULL, NULL);

  if (test->rounds == NULL || self->info == NULL)
    return NULL;
  return &self->plan.rounds[test_slot (test)];
}

/* A test in rounds: its preconditioning once, then every round of the
 * chosen cells up to the most it may run. The rounds past the first
 * window are optional: the run skips them once the rounds are steady
 * (duel-run-steps.c), so the plan holds the longest the test can take. */
static void
add_rounds (DuelPreset           *self,
            const DuelReviewTest *test)
{
  guint max_rounds = max_rounds_of (self, test);

  for (guint s = 0; s < test->n_steps; s++)
    if (test->steps[s].fill)
      add_test (self, test, &test->steps[s], 1, 1);
  for (guint round = 1; round <= max_rounds; round++)
    for (guint s = 0; s < test->n_steps; s++)
      {
        DuelPresetStep *step;

        if (test->steps[s].fill || !cell_runs (self, &test->steps[s]))
          continue;
        add_test (self, test, &test->steps[s], 1, 1);
        step = &g_array_index (self->steps, DuelPresetStep, self->steps->len - 1);
        step->round = round;
        step->max_rounds = max_rounds;
        step->optional = round > duel_preset_get_rounds (self, test)->window;
      }
}

static double
fill_weight (DuelPreset *self,
             double      probe_write_iops,
             guint64     fill_bytes)
{
  double seconds;

  if (isfinite (probe_write_iops) && probe_write_iops > 0)
    seconds = fill_bytes / (probe_write_iops * 4096.0);
  else
    seconds = fill_bytes / NOMINAL_FILL_RATE;
  if (self->plan.fill_max_ms > 0)
    seconds = MIN (seconds, self->plan.fill_max_ms / 1e3);
  return seconds;
}

static guint64
fill_bytes_of (DuelPreset *self,
               double      multiple)
{
  return (guint64) llround (multiple * (double) self->discard_length);
}

static gboolean prepare_steps (DuelPreset  *self,
                               guint64      size,
                               guint32      lbs,
                               const char  *display,
                               GError     **error);

gboolean
duel_preset_prepare (DuelPreset  *self,
                     DuelTarget  *target,
                     GError     **error)
{
  g_return_val_if_fail (DUEL_IS_PRESET (self), FALSE);
  g_return_val_if_fail (DUEL_IS_TARGET (target), FALSE);

  return prepare_steps (self, duel_target_get_size (target), duel_target_get_logical_block_size (target),
                        duel_target_get_path (target), error);
}

gboolean
duel_preset_prepare_for_size (DuelPreset  *self,
                              guint64      size,
                              guint32      logical_block_size,
                              const char  *display,
                              GError     **error)
{
  g_return_val_if_fail (DUEL_IS_PRESET (self), FALSE);
  g_return_val_if_fail (display != NULL, FALSE);

  return prepare_steps (self, size, logical_block_size, display, error);
}

guint
duel_preset_default_interval_ms (const char *preset_name)
{
  const DuelPresetInfo *info = _duel_preset_find (preset_name);

  /* The quick review samples every 100 ms by design; the others keep the
   * interval a person prefers. */
  return info != NULL && info->quick ? 100 : 0;
}

guint64
duel_preset_default_runtime_ms (const char *preset_name,
                                const char *test_name)
{
  g_autoptr(DuelPreset) preset = NULL;
  DuelPresetOptions options;

  g_return_val_if_fail (test_name != NULL, 0);

  if (preset_name == NULL)
    return 0;
  duel_preset_options_init (&options);
  preset = duel_preset_new (preset_name, &options, NULL);
  /* The durations do not depend on the drive: any size will do. */
  if (preset == NULL || !prepare_steps (preset, G_GUINT64_CONSTANT (1) << 30, 512, "", NULL))
    return 0;
  for (guint i = 0; i < preset->steps->len; i++)
    {
      const DuelPresetStep *step = &g_array_index (preset->steps, DuelPresetStep, i);

      if (step->kind == DUEL_PRESET_STEP_TEST && g_strcmp0 (step->name, test_name) == 0)
        return step->workload.size_multiple > 0 ? 0 : step->workload.runtime_ms;
    }
  /* A step the default plan leaves out (a burst after a third idle period)
   * runs as long as its test's other timed steps; a write bounded by bytes
   * (the cache after it) has no length. */
  {
    const DuelReviewTest *test;
    const DuelReviewStep *step;

    if (duel_review_test_find_step (test_name, &test, &step) && step->idle_slot > 0 && !step->fill)
      for (guint t = 0; preset->info->tests[t] != NULL; t++)
        if (g_strcmp0 (preset->info->tests[t], test->id) == 0)
          return preset->plan.runtime_ms[test_slot (test)];
  }
  return 0;
}

/* The steps for a target of @size bytes in @lbs-byte blocks; @display
 * names it in errors. */
static gboolean
prepare_steps (DuelPreset  *self,
               guint64      size,
               guint32      lbs,
               const char  *display,
               GError     **error)
{
  /* A plain plan's workloads are the caller's, as given. */
  if (self->info == NULL)
    {
      for (guint i = 0; i < self->steps->len; i++)
        if (!duel_workload_resolve (&g_array_index (self->steps, DuelPresetStep, i).workload, size, lbs,
                                    NULL, NULL, NULL, error))
          return FALSE;
      return TRUE;
    }

  if (self->options.span_bytes > 0)
    {
      if (self->options.span_bytes > size)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                       _("The span (%" PRIu64 " bytes) is larger than “%s” (%" PRIu64 " bytes)."),
                       self->options.span_bytes, display, size);
          return FALSE;
        }
      self->plan.span_bytes = self->options.span_bytes;
    }
  else
    {
      self->plan.span_bytes = self->info->quick ? MIN (size, QUICK_SPAN_MAX) : size;
      /* A test that defines its own (CrystalDiskMark's 1 GiB test file). */
      for (guint t = 0; self->info->tests[t] != NULL; t++)
        {
          const DuelReviewTest *test = duel_review_test_find (self->info->tests[t]);

          if (test->span_bytes > 0)
            self->plan.span_bytes = MIN (self->plan.span_bytes, test->span_bytes);
        }
    }

  /* Every test uses whole 128 KiB blocks of the same span. */
  self->plan.span_bytes -= self->plan.span_bytes % (128 * 1024);
  if (self->plan.span_bytes == 0 || lbs == 0 || (128 * 1024) % lbs != 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("“%s” is too small for a preset: it needs at least 128 KiB."),
                   display);
      return FALSE;
    }
  self->discard_length = self->plan.span_bytes;
  self->logical_block_size = lbs;

  g_array_set_size (self->steps, 0);

  for (guint t = 0; self->info->tests[t] != NULL; t++)
    {
      const DuelReviewTest *test = duel_review_test_find (self->info->tests[t]);

      if (test->trim_first && !self->plan.no_trim)
        {
          DuelPresetStep discard = {
            .kind = DUEL_PRESET_STEP_DISCARD,
            .name = DUEL_REVIEW_TRIM_NAME,
            .section = test->id,
            .test = test,
            .weight_s = DISCARD_WEIGHT_S,
          };
          duel_workload_init (&discard.workload);
          g_array_append_val (self->steps, discard);
        }
      if (test->rounds != NULL)
        {
          add_rounds (self, test);
          continue;
        }
      /* Each step's passes one after the other, as CrystalDiskMark runs
       * them; a fill runs once (duel_preset_new() refuses more). */
      for (guint s = 0; s < test->n_steps; s++)
        {
          guint passes = test->steps[s].fill ? 1 : self->plan.passes > 0 ? self->plan.passes : MAX (test->passes, 1);
          guint64 idle_ms = idle_ms_of (self, test, test->steps[s].idle_slot);
          /* The steps after one idle rest once, before the first of them. */
          gboolean rests = idle_ms > 0 && (s == 0 || test->steps[s - 1].idle_slot != test->steps[s].idle_slot);

          /* A step after an idle the plan does not have is left out. */
          if (test->steps[s].idle_slot > 0 && idle_ms == 0)
            continue;
          for (guint p = 1; p <= passes; p++)
            {
              if (rests)
                add_idle (self, test, &test->steps[s], idle_ms);
              add_test (self, test, &test->steps[s], p, passes);
              if (idle_ms > 0)
                g_array_index (self->steps, DuelPresetStep, self->steps->len - 1).idle_ms = idle_ms;
            }
        }
    }

  /* Let the engine's own checks speak for the target before any I/O. */
  for (guint i = 0; i < self->steps->len; i++)
    {
      const DuelPresetStep *step = &g_array_index (self->steps, DuelPresetStep, i);

      if (step->kind == DUEL_PRESET_STEP_TEST &&
          !duel_workload_resolve (&step->workload, size, lbs, NULL, NULL, NULL, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
duel_preset_step_is_fill (const DuelPresetStep *step)
{
  g_return_val_if_fail (step != NULL, FALSE);

  return step->kind == DUEL_PRESET_STEP_TEST && step->info != NULL && step->info->fill;
}

gboolean
duel_preset_step_is_random_fill (const DuelPresetStep *step)
{
  return duel_preset_step_is_fill (step) && step->workload.pattern == DUEL_PATTERN_RANDOM;
}

guint64
duel_preset_get_span_bytes (DuelPreset *self)
{
  g_return_val_if_fail (DUEL_IS_PRESET (self), 0);

  return self->discard_length;
}

guint
duel_preset_get_n_steps (DuelPreset *self)
{
  g_return_val_if_fail (DUEL_IS_PRESET (self), 0);

  return self->steps->len;
}

const DuelPresetStep *
duel_preset_get_step (DuelPreset *self,
                      guint       index)
{
  g_return_val_if_fail (DUEL_IS_PRESET (self), NULL);
  g_return_val_if_fail (index < self->steps->len, NULL);

  return &g_array_index (self->steps, DuelPresetStep, index);
}

JsonObject *
duel_preset_get_rounds_parameters (DuelPreset           *self,
                                   const DuelReviewTest *test)
{
  const DuelReviewRounds *rounds;
  JsonObject *object;
  JsonArray *sizes, *mixes;

  g_return_val_if_fail (DUEL_IS_PRESET (self), NULL);
  g_return_val_if_fail (test != NULL, NULL);

  rounds = duel_preset_get_rounds (self, test);
  if (rounds == NULL)
    return NULL;
  object = json_object_new ();
  sizes = json_array_new ();
  mixes = json_array_new ();

  json_object_set_int_member (object, "max_rounds", max_rounds_of (self, test));
  json_object_set_int_member (object, "window", rounds->window);
  json_object_set_double_member (object, "data_limit", rounds->data_limit);
  json_object_set_double_member (object, "slope_limit", rounds->slope_limit);
  json_object_set_string_member (object, "tracked_step", rounds->tracked_step);
  json_object_set_string_member (object, "tracked_key", rounds->tracked_key);
  for (guint s = 0; s < test->n_steps; s++)
    {
      const DuelReviewStep *step = &test->steps[s];
      gboolean seen_size = FALSE, seen_mix = FALSE;

      if (step->fill || !cell_runs (self, step))
        continue;
      for (guint i = 0; i < json_array_get_length (sizes); i++)
        seen_size |= json_array_get_int_element (sizes, i) == step->block_size;
      for (guint i = 0; i < json_array_get_length (mixes); i++)
        seen_mix |= json_array_get_int_element (mixes, i) == step->read_percent;
      if (!seen_size)
        json_array_add_int_element (sizes, step->block_size);
      if (!seen_mix)
        json_array_add_int_element (mixes, step->read_percent);
    }
  json_object_set_array_member (object, "block_sizes", sizes);
  json_object_set_array_member (object, "read_percents", mixes);
  return object;
}

JsonNode *
duel_preset_get_parameters (DuelPreset *self)
{
  const DuelReviewTest * const *all = duel_review_tests_get_all ();
  JsonObject *object;
  JsonNode *node;
  const Plan *plan;

  g_return_val_if_fail (DUEL_IS_PRESET (self), NULL);
  g_return_val_if_fail (self->info != NULL, NULL);

  plan = &self->plan;
  object = json_object_new ();
  json_object_set_string_member (object, "preset", self->info->name);
  json_object_set_int_member (object, "span_bytes", (gint64) plan->span_bytes);
  json_object_set_double_member (object, "capacity_multiple", duel_json_writable_double (plan->capacity_multiple));
  json_object_set_int_member (object, "fill_max_ms", (gint64) plan->fill_max_ms);
  for (guint i = 0; all[i] != NULL; i++)
    if (all[i]->runtime_key != NULL)
      json_object_set_int_member (object, all[i]->runtime_key, (gint64) plan->runtime_ms[i]);
  json_object_set_int_member (object, "round_ms", (gint64) plan->round_ms);
  json_object_set_int_member (object, "interval_ms", plan->interval_ms);
  json_object_set_boolean_member (object, "trim", !plan->no_trim);
  /* The idle periods of a test that has them, as this plan runs them. */
  {
    const DuelReviewTest *test = _duel_preset_resting_test (self->info);

    if (test != NULL)
      {
        JsonArray *periods = json_array_new ();

        for (guint slot = 1; idle_ms_of (self, test, slot) > 0; slot++)
          json_array_add_int_element (periods, (gint64) idle_ms_of (self, test, slot));
        json_object_set_array_member (object, "idle_ms", periods);
      }
  }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, object);
  return node;
}

void
duel_preset_estimate_from_probe (DuelPreset              *self,
                                 const DuelProbeResult   *probe,
                                 DuelPresetEstimate      *out)
{
  gboolean random_fill = FALSE;
  guint64 fill_bytes = 0;

  g_return_if_fail (DUEL_IS_PRESET (self));
  g_return_if_fail (out != NULL);

  for (guint i = 0; i < self->steps->len; i++)
    {
      const DuelPresetStep *step = &g_array_index (self->steps, DuelPresetStep, i);

      /* Every fill's, each at its own multiple of the span (Modern Review
       * writes the span once, then twice, then after each idle a quarter). */
      if (duel_preset_step_is_fill (step))
        fill_bytes += fill_bytes_of (self, step->workload.size_multiple);
      random_fill |= duel_preset_step_is_random_fill (&g_array_index (self->steps, DuelPresetStep, i));
    }

  *out = (DuelPresetEstimate) {
    .span_bytes = self->plan.span_bytes,
    .fill_bytes = fill_bytes,
    .probe_write_iops = NAN,
    .probe_end_write_iops = NAN,
  };
  /* Only the fill's length depends on the drive; the rest is fixed time. */
  if (random_fill && probe != NULL)
    {
      out->probe_write_iops = probe->write_iops;
      out->probe_end_write_iops = probe->end_write_iops;
      out->probe_ms = probe->runtime_ms;
      out->probe_fell = probe->fell;
      out->probe_fall_bytes = probe->fall_bytes;
    }
  for (guint i = 0; i < self->steps->len; i++)
    {
      const DuelPresetStep *step = &g_array_index (self->steps, DuelPresetStep, i);

      if (duel_preset_step_is_fill (step))
        out->fill_seconds += duel_preset_step_weight (self, step, out);
      else
        out->timed_seconds += step->weight_s;
    }
  out->total_seconds = out->fill_seconds + out->timed_seconds;
}

double
duel_preset_step_weight (DuelPreset               *self,
                         const DuelPresetStep     *step,
                         const DuelPresetEstimate *estimate)
{
  g_return_val_if_fail (DUEL_IS_PRESET (self), 0);
  g_return_val_if_fail (step != NULL, 0);

  if (duel_preset_step_is_random_fill (step) && estimate != NULL)
    return fill_weight (self, estimate->probe_write_iops, estimate->fill_bytes);
  return step->weight_s;
}

void
duel_preset_describe_record (DuelPreset           *self,
                             const DuelPresetStep *step,
                             DuelTestRecord       *record)
{
  g_autoptr(DuelSummary) empty = duel_summary_new ();
  JsonObject *details;

  g_return_if_fail (DUEL_IS_PRESET (self));
  g_return_if_fail (step != NULL && record != NULL);

  /* The kind and analysis parameters first, so a checkpoint of a running
   * test can already be recomputed. */
  duel_analysis_apply (record, step->analysis, duel_preset_get_analysis_params (self), empty);
  /* A plain plan's record holds its workload alone, as an import's does. */
  if (duel_preset_get_name (self) == NULL)
    return;
  details = duel_test_record_get_details (record);
  json_object_set_string_member (details, "section", step->section);
  json_object_set_member (details, "preset_parameters", duel_preset_get_parameters (self));
  /* A test in rounds: each round's cells are records of the cells' names. */
  if (step->round > 0)
    {
      json_object_set_int_member (details, "round", step->round);
      json_object_set_object_member (details, "rounds",
                                     duel_preset_get_rounds_parameters (self, step->test));
    }
  /* A repeated step: each pass is a record of the step's name. */
  if (step->passes > 1)
    {
      json_object_set_int_member (details, "pass", step->pass);
      json_object_set_int_member (details, "passes", step->passes);
    }
}
