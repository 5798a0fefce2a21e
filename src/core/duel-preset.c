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
#include "duel-preset.h"
#include "duel-probe.h"

#define MIB                  (G_GUINT64_CONSTANT (1) << 20)
#define GIB                  (G_GUINT64_CONSTANT (1) << 30)
#define SEC_MS               G_GUINT64_CONSTANT (1000)
#define QUICK_SPAN_MAX       GIB
/* Without a probe the fill is weighted as if it ran at this rate. */
#define NOMINAL_FILL_RATE    (100.0 * 1e6)
#define DISCARD_WEIGHT_S     0.5

enum
{
  SECTION_WSAT        = 1 << 0,
  SECTION_CONSISTENCY = 1 << 1,
  SECTION_QOS         = 1 << 2,
  SECTION_STANDARD    = 1 << 3,
  SECTION_ALL         = 0xf,
};

typedef struct
{
  const char *name;
  const char *description;    /* translatable */
  guint       sections;
  gboolean    quick;
} PresetInfo;

static const PresetInfo presets[] = {
  { "write-saturation", N_("Discard, then 4K random write QD32 to 2x the capacity, then a 4K random read score"),
    SECTION_WSAT, FALSE },
  { "consistency", N_("4K random 50/50 read/write QD32 for 20 minutes, per-second IOPS"),
    SECTION_CONSISTENCY, FALSE },
  { "qos", N_("Latency percentiles of 4K random read and write at QD1 and QD32, and a 50/50 mix"),
    SECTION_QOS, FALSE },
  { "standard", N_("128K sequential read and write QD32, 4K random read and write at QD1 and QD32"),
    SECTION_STANDARD, FALSE },
  { "review", N_("The whole review: write saturation, consistency, QoS and the standard set"),
    SECTION_ALL, FALSE },
  { "quick", N_("The whole review scaled to finish within two minutes on a 1 GiB file"),
    SECTION_ALL, TRUE },
};

static const char * const preset_names[] = {
  "write-saturation", "consistency", "qos", "standard", "review", "quick", NULL,
};

/* The effective parameters after defaults and overrides. */
typedef struct
{
  guint64  span_bytes;          /* 0 until prepared: the whole target */
  double   capacity_multiple;
  guint64  fill_max_ms;         /* 0: the fill is bounded by size alone */
  guint64  read_score_ms;
  guint64  consistency_ms;
  guint64  qos_ms;
  guint64  standard_ms;
  guint64  round_ms;
  guint    interval_ms;
  gboolean no_trim;
} Plan;

struct _DuelPreset
{
  GObject parent_instance;

  const PresetInfo  *info;
  DuelPresetOptions  options;
  Plan               plan;
  DuelAnalysisParams analysis;
  GArray            *steps;             /* DuelPresetStep */
  guint64            discard_offset;
  guint64            discard_length;
  double             probe_write_iops;  /* NAN until estimated */
  double             probe_end_write_iops;
  guint64            probe_ms;          /* as it ran */
  gboolean           probe_fell;
  guint64            probe_fall_bytes;

  DuelPresetProgressFunc   progress_func;
  gpointer                 progress_data;
  GDestroyNotify           progress_destroy;
  DuelPresetCheckpointFunc checkpoint_func;
  gpointer                 checkpoint_data;
  GDestroyNotify           checkpoint_destroy;
};

G_DEFINE_FINAL_TYPE (DuelPreset, duel_preset, G_TYPE_OBJECT)

static void
duel_preset_finalize (GObject *object)
{
  DuelPreset *self = DUEL_PRESET (object);

  g_clear_pointer (&self->steps, g_array_unref);
  if (self->progress_destroy != NULL)
    self->progress_destroy (self->progress_data);
  if (self->checkpoint_destroy != NULL)
    self->checkpoint_destroy (self->checkpoint_data);

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
  self->probe_write_iops = NAN;
  self->probe_end_write_iops = NAN;
}

void
duel_preset_options_init (DuelPresetOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
}

const char * const *
duel_preset_get_names (void)
{
  return preset_names;
}

static const PresetInfo *
find_preset (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      if (g_strcmp0 (presets[i].name, name) == 0)
        return &presets[i];
    }
  return NULL;
}

const char *
duel_preset_describe (const char *name)
{
  const PresetInfo *info = find_preset (name);

  return info != NULL ? g_dgettext (GETTEXT_PACKAGE, info->description) : NULL;
}

DuelPreset *
duel_preset_new (const char               *name,
                 const DuelPresetOptions  *options,
                 GError                  **error)
{
  const PresetInfo *info = find_preset (name);
  g_autoptr(DuelPreset) self = NULL;
  g_autofree char *list = NULL;
  Plan *plan;

  if (info == NULL)
    {
      list = g_strjoinv (", ", (char **) preset_names);
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
  if (info->quick)
    *plan = (Plan) {
      .capacity_multiple = 2,
      .fill_max_ms = 30 * SEC_MS,
      .read_score_ms = 5 * SEC_MS,
      .consistency_ms = 15 * SEC_MS,
      .qos_ms = 4 * SEC_MS,
      .standard_ms = 3 * SEC_MS,
      .round_ms = 1 * SEC_MS,
      .interval_ms = 100,
    };
  else
    *plan = (Plan) {
      .capacity_multiple = 2,
      .read_score_ms = 60 * SEC_MS,
      .consistency_ms = 1200 * SEC_MS,
      .qos_ms = 60 * SEC_MS,
      .standard_ms = 60 * SEC_MS,
      .round_ms = 60 * SEC_MS,
      .interval_ms = DUEL_WORKLOAD_DEFAULT_INTERVAL_MS,
    };

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
      plan->read_score_ms = plan->consistency_ms = self->options.runtime_ms;
      plan->qos_ms = plan->standard_ms = self->options.runtime_ms;
    }
  if (self->options.interval_ms > 0)
    plan->interval_ms = self->options.interval_ms;
  if (self->options.round_ms > 0)
    plan->round_ms = self->options.round_ms;
  plan->no_trim = self->options.no_trim;

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

const char *
duel_preset_get_name (DuelPreset *self)
{
  g_return_val_if_fail (DUEL_IS_PRESET (self), NULL);

  return self->info->name;
}

const DuelAnalysisParams *
duel_preset_get_analysis_params (DuelPreset *self)
{
  g_return_val_if_fail (DUEL_IS_PRESET (self), NULL);

  return &self->analysis;
}

static void
add_test (DuelPreset       *self,
          const char       *name,
          const char       *section,
          DuelAnalysisKind  analysis,
          DuelPattern       pattern,
          guint32           block_size,
          guint32           queue_depth,
          guint             read_percent,
          guint64           runtime_ms)
{
  DuelPresetStep step = {
    .kind = DUEL_PRESET_STEP_TEST,
    .name = name,
    .section = section,
    .analysis = analysis,
    .weight_s = runtime_ms / 1e3,
  };

  duel_workload_init (&step.workload);
  step.workload.pattern = pattern;
  step.workload.block_size = block_size;
  step.workload.queue_depth = queue_depth;
  step.workload.read_percent = read_percent;
  step.workload.span_offset = 0;
  step.workload.span_length = self->plan.span_bytes;
  step.workload.runtime_ms = runtime_ms;
  step.workload.interval_ms = self->plan.interval_ms;
  /* A seed per step: the read score must not replay the fill's offsets. */
  step.workload.seed += self->steps->len;
  g_array_append_val (self->steps, step);
}

static double
fill_weight (DuelPreset *self,
             guint64     fill_bytes)
{
  double seconds;

  if (isfinite (self->probe_write_iops) && self->probe_write_iops > 0)
    seconds = fill_bytes / (self->probe_write_iops * 4096.0);
  else
    seconds = fill_bytes / NOMINAL_FILL_RATE;
  if (self->plan.fill_max_ms > 0)
    seconds = MIN (seconds, self->plan.fill_max_ms / 1e3);
  return seconds;
}

static guint64
fill_bytes_of (DuelPreset *self)
{
  return (guint64) llround (self->plan.capacity_multiple * (double) self->discard_length);
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
  guint sections = self->info->sections;

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
    self->plan.span_bytes = self->info->quick ? MIN (size, QUICK_SPAN_MAX) : size;

  /* Every test uses whole 128 KiB blocks of the same span. */
  self->plan.span_bytes -= self->plan.span_bytes % (128 * 1024);
  if (self->plan.span_bytes == 0 || lbs == 0 || (128 * 1024) % lbs != 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("“%s” is too small for a preset: it needs at least 128 KiB."),
                   display);
      return FALSE;
    }
  self->discard_offset = 0;
  self->discard_length = self->plan.span_bytes;

  g_array_set_size (self->steps, 0);

  if (sections & SECTION_WSAT)
    {
      DuelPresetStep *fill;

      if (!self->plan.no_trim)
        {
          DuelPresetStep discard = {
            .kind = DUEL_PRESET_STEP_DISCARD,
            .name = "discard",
            .section = "write-saturation",
            .weight_s = DISCARD_WEIGHT_S,
          };
          duel_workload_init (&discard.workload);
          g_array_append_val (self->steps, discard);
        }
      add_test (self, DUEL_TEST_WSAT_FILL, "write-saturation", DUEL_ANALYSIS_SATURATION,
                DUEL_PATTERN_RANDOM, 4096, 32, 0, self->plan.fill_max_ms);
      fill = &g_array_index (self->steps, DuelPresetStep, self->steps->len - 1);
      fill->workload.size_multiple = self->plan.capacity_multiple;
      fill->weight_s = fill_weight (self, fill_bytes_of (self));
      add_test (self, DUEL_TEST_WSAT_READ, "write-saturation", DUEL_ANALYSIS_READ_SCORE,
                DUEL_PATTERN_RANDOM, 4096, 32, 100, self->plan.read_score_ms);
    }
  if (sections & SECTION_CONSISTENCY)
    add_test (self, DUEL_TEST_CONSISTENCY, "consistency", DUEL_ANALYSIS_CONSISTENCY,
              DUEL_PATTERN_RANDOM, 4096, 32, 50, self->plan.consistency_ms);
  if (sections & SECTION_QOS)
    {
      add_test (self, "qos-read-qd1", "qos", DUEL_ANALYSIS_QOS,
                DUEL_PATTERN_RANDOM, 4096, 1, 100, self->plan.qos_ms);
      add_test (self, "qos-write-qd1", "qos", DUEL_ANALYSIS_QOS,
                DUEL_PATTERN_RANDOM, 4096, 1, 0, self->plan.qos_ms);
      add_test (self, "qos-read-qd32", "qos", DUEL_ANALYSIS_QOS,
                DUEL_PATTERN_RANDOM, 4096, 32, 100, self->plan.qos_ms);
      add_test (self, "qos-write-qd32", "qos", DUEL_ANALYSIS_QOS,
                DUEL_PATTERN_RANDOM, 4096, 32, 0, self->plan.qos_ms);
      add_test (self, "qos-mix-qd32", "qos", DUEL_ANALYSIS_QOS,
                DUEL_PATTERN_RANDOM, 4096, 32, 50, self->plan.qos_ms);
    }
  if (sections & SECTION_STANDARD)
    {
      /* Writes before reads, so that a fresh file target has data to read. */
      add_test (self, "std-seq-write", "standard", DUEL_ANALYSIS_STANDARD,
                DUEL_PATTERN_SEQUENTIAL, 128 * 1024, 32, 0, self->plan.standard_ms);
      add_test (self, "std-seq-read", "standard", DUEL_ANALYSIS_STANDARD,
                DUEL_PATTERN_SEQUENTIAL, 128 * 1024, 32, 100, self->plan.standard_ms);
      add_test (self, "std-rand-read-qd1", "standard", DUEL_ANALYSIS_STANDARD,
                DUEL_PATTERN_RANDOM, 4096, 1, 100, self->plan.standard_ms);
      add_test (self, "std-rand-write-qd1", "standard", DUEL_ANALYSIS_STANDARD,
                DUEL_PATTERN_RANDOM, 4096, 1, 0, self->plan.standard_ms);
      add_test (self, "std-rand-read-qd32", "standard", DUEL_ANALYSIS_STANDARD,
                DUEL_PATTERN_RANDOM, 4096, 32, 100, self->plan.standard_ms);
      add_test (self, "std-rand-write-qd32", "standard", DUEL_ANALYSIS_STANDARD,
                DUEL_PATTERN_RANDOM, 4096, 32, 0, self->plan.standard_ms);
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

JsonNode *
duel_preset_get_parameters (DuelPreset *self)
{
  JsonObject *object;
  JsonNode *node;
  const Plan *plan;

  g_return_val_if_fail (DUEL_IS_PRESET (self), NULL);

  plan = &self->plan;
  object = json_object_new ();
  json_object_set_string_member (object, "preset", self->info->name);
  json_object_set_int_member (object, "span_bytes", (gint64) plan->span_bytes);
  json_object_set_double_member (object, "capacity_multiple", duel_json_writable_double (plan->capacity_multiple));
  json_object_set_int_member (object, "fill_max_ms", (gint64) plan->fill_max_ms);
  json_object_set_int_member (object, "read_score_ms", (gint64) plan->read_score_ms);
  json_object_set_int_member (object, "consistency_ms", (gint64) plan->consistency_ms);
  json_object_set_int_member (object, "qos_ms", (gint64) plan->qos_ms);
  json_object_set_int_member (object, "standard_ms", (gint64) plan->standard_ms);
  json_object_set_int_member (object, "round_ms", (gint64) plan->round_ms);
  json_object_set_int_member (object, "interval_ms", plan->interval_ms);
  json_object_set_boolean_member (object, "trim", !plan->no_trim);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, object);
  return node;
}

gboolean
duel_preset_estimate (DuelPreset          *self,
                      DuelTarget          *target,
                      guint64              probe_ms,
                      GCancellable        *cancellable,
                      DuelPresetEstimate  *out,
                      GError             **error)
{
  guint64 fill_bytes = 0;
  gboolean has_fill = FALSE;

  g_return_val_if_fail (DUEL_IS_PRESET (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (!duel_preset_prepare (self, target, error))
    return FALSE;

  for (guint i = 0; i < self->steps->len; i++)
    has_fill |= g_strcmp0 (g_array_index (self->steps, DuelPresetStep, i).name, DUEL_TEST_WSAT_FILL) == 0;
  if (has_fill)
    fill_bytes = fill_bytes_of (self);

  /* Only the fill's length depends on the drive; the rest is fixed time. */
  if (has_fill && probe_ms > 0)
    {
      DuelProbeResult probe;

      if (!duel_probe_run (target, self->plan.span_bytes, probe_ms, cancellable, &probe, error))
        return FALSE;
      self->probe_write_iops = probe.write_iops;
      self->probe_end_write_iops = probe.end_write_iops;
      self->probe_ms = probe.runtime_ms;
      self->probe_fell = probe.fell;
      self->probe_fall_bytes = probe.fall_bytes;
    }

  *out = (DuelPresetEstimate) {
    .span_bytes = self->plan.span_bytes,
    .fill_bytes = fill_bytes,
    .probe_write_iops = self->probe_write_iops,
    .probe_end_write_iops = self->probe_end_write_iops,
    .probe_ms = has_fill ? self->probe_ms : 0,
    .probe_fall_bytes = self->probe_fall_bytes,
  };
  for (guint i = 0; i < self->steps->len; i++)
    {
      DuelPresetStep *step = &g_array_index (self->steps, DuelPresetStep, i);

      if (g_strcmp0 (step->name, DUEL_TEST_WSAT_FILL) == 0)
        {
          step->weight_s = fill_weight (self, fill_bytes);
          out->fill_seconds = step->weight_s;
        }
      else
        out->timed_seconds += step->weight_s;
    }
  out->total_seconds = out->fill_seconds + out->timed_seconds;
  return TRUE;
}

void
duel_preset_set_progress_func (DuelPreset             *self,
                               DuelPresetProgressFunc  func,
                               gpointer                user_data,
                               GDestroyNotify          destroy)
{
  g_return_if_fail (DUEL_IS_PRESET (self));

  if (self->progress_destroy != NULL)
    self->progress_destroy (self->progress_data);
  self->progress_func = func;
  self->progress_data = user_data;
  self->progress_destroy = destroy;
}

void
duel_preset_set_checkpoint_func (DuelPreset               *self,
                                 DuelPresetCheckpointFunc  func,
                                 gpointer                  user_data,
                                 GDestroyNotify            destroy)
{
  g_return_if_fail (DUEL_IS_PRESET (self));

  if (self->checkpoint_destroy != NULL)
    self->checkpoint_destroy (self->checkpoint_data);
  self->checkpoint_func = func;
  self->checkpoint_data = user_data;
  self->checkpoint_destroy = destroy;
}

typedef struct
{
  DuelPreset *self;
  DuelResult *result;
  guint       index;
  double      weight_before;   /* of the steps already done */
  double      weight_total;
} RunState;

static void
emit_progress (RunState           *state,
               const DuelProgress *engine,
               gboolean            step_done,
               DuelTestRecord     *record)
{
  DuelPreset *self = state->self;
  const DuelPresetStep *step = &g_array_index (self->steps, DuelPresetStep, state->index);
  DuelPresetProgress progress = {
    .step_index = state->index,
    .n_steps = self->steps->len,
    .step = step,
    .engine = engine,
    .step_done = step_done,
  };
  double within = step_done ? 1.0 : engine != NULL ? CLAMP (engine->fraction_done, 0, 1) : 0;

  if (self->progress_func == NULL)
    return;
  progress.fraction_done = state->weight_total > 0
    ? CLAMP ((state->weight_before + within * step->weight_s) / state->weight_total, 0, 1)
    : 0;
  self->progress_func (&progress, record, self->progress_data);
}

static void
engine_progress_cb (const DuelProgress *progress,
                    DuelTestRecord     *record,
                    gpointer            user_data)
{
  RunState *state = user_data;

  emit_progress (state, progress, FALSE, record);
  if (progress->interval_closed && state->self->checkpoint_func != NULL)
    state->self->checkpoint_func (state->result, FALSE, state->self->checkpoint_data);
}

static void
set_record_details (DuelPreset           *self,
                    DuelTestRecord       *record,
                    const DuelPresetStep *step)
{
  g_autoptr(DuelSummary) empty = duel_summary_new ();
  JsonObject *details;

  /* The kind and analysis parameters first, so a checkpoint of a running
   * test can already be recomputed. */
  duel_analysis_apply (record, step->analysis, &self->analysis, empty);
  details = duel_test_record_get_details (record);
  json_object_set_string_member (details, "section", step->section);
  json_object_set_member (details, "preset_parameters", duel_preset_get_parameters (self));
}

gboolean
duel_preset_run (DuelPreset    *self,
                 DuelTarget    *target,
                 DuelResult    *result,
                 GCancellable  *cancellable,
                 GError       **error)
{
  RunState state = { 0 };
  gboolean trimmed = FALSE;

  g_return_val_if_fail (DUEL_IS_PRESET (self), FALSE);
  g_return_val_if_fail (DUEL_IS_TARGET (target), FALSE);
  g_return_val_if_fail (DUEL_IS_RESULT (result), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!duel_preset_prepare (self, target, error))
    return FALSE;
  if (!duel_target_is_writable (target))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("“%s” was opened read-only, but the preset “%s” writes."),
                   duel_target_get_path (target), self->info->name);
      return FALSE;
    }

  state.self = self;
  state.result = result;
  for (guint i = 0; i < self->steps->len; i++)
    state.weight_total += g_array_index (self->steps, DuelPresetStep, i).weight_s;

  for (guint i = 0; i < self->steps->len; i++)
    {
      const DuelPresetStep *step = &g_array_index (self->steps, DuelPresetStep, i);
      g_autoptr(DuelTestRecord) record = NULL;
      g_autoptr(DuelSummary) summary = NULL;
      g_autoptr(GError) local_error = NULL;
      gboolean ok;

      state.index = i;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      if (step->kind == DUEL_PRESET_STEP_DISCARD)
        {
          emit_progress (&state, NULL, FALSE, NULL);
          if (!duel_target_discard (target, self->discard_offset, self->discard_length, error))
            return FALSE;
          trimmed = TRUE;
          emit_progress (&state, NULL, TRUE, NULL);
          state.weight_before += step->weight_s;
          continue;
        }

      record = duel_test_record_new (step->name, &step->workload);
      record->preset = g_strdup (self->info->name);
      set_record_details (self, record, step);
      if (g_strcmp0 (step->name, DUEL_TEST_WSAT_FILL) == 0)
        {
          JsonObject *details = duel_test_record_get_details (record);
          JsonObject *discard = json_object_new ();

          record->trimmed = trimmed;
          json_object_set_boolean_member (discard, "done", trimmed);
          json_object_set_string_member (discard, "method",
                                         !trimmed ? "none"
                                         : duel_target_get_kind (target) == DUEL_TARGET_KIND_BLOCK
                                         ? "BLKDISCARD" : "punch-hole");
          json_object_set_int_member (discard, "offset", (gint64) self->discard_offset);
          json_object_set_int_member (discard, "length", (gint64) self->discard_length);
          json_object_set_object_member (details, "discard", discard);
          /* What the time left was estimated from, so a replay sees it too. */
          if (isfinite (self->probe_write_iops))
            {
              JsonObject *probe = json_object_new ();

              json_object_set_int_member (probe, "runtime_ms", (gint64) self->probe_ms);
              json_object_set_double_member (probe, "write_iops", self->probe_write_iops);
              if (isfinite (self->probe_end_write_iops))
                json_object_set_double_member (probe, "end_write_iops", self->probe_end_write_iops);
              else
                json_object_set_null_member (probe, "end_write_iops");
              /* Where its rate fell (a write cache ran out), null: it did not. */
              if (self->probe_fell)
                json_object_set_int_member (probe, "fall_bytes", (gint64) self->probe_fall_bytes);
              else
                json_object_set_null_member (probe, "fall_bytes");
              json_object_set_object_member (details, "probe", probe);
            }
        }
      duel_result_add_test (result, record);

      emit_progress (&state, NULL, FALSE, record);
      ok = duel_engine_run (target, record, cancellable, engine_progress_cb, &state, &local_error);

      /* What was measured is summarised even when the run stopped early. */
      summary = duel_analysis_summarize (record, step->analysis, &self->analysis);
      duel_analysis_apply (record, step->analysis, &self->analysis, summary);
      if (self->checkpoint_func != NULL)
        self->checkpoint_func (result, TRUE, self->checkpoint_data);
      emit_progress (&state, NULL, TRUE, record);

      if (!ok)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      state.weight_before += step->weight_s;
    }

  return TRUE;
}
