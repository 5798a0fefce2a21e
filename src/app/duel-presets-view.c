/* duel-presets-view.c — the review presets, their parameters, and an estimate
 *
 * The estimate opens the target read-only in a worker thread and resolves the
 * preset's steps against it: the timed tests are exact, the fill is shown in
 * bytes (its pace depends on the drive) until "Measure" times a short write
 * probe, which is only offered for file targets: on a drive it would write.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>

#include "duel-size.h"
#include "duel-number.h"
#include "duel-presets-view.h"
#include "run/duel-run.h"
#include "device/duel-safety.h"
#include "duel-text.h"

#define ESTIMATE_DELAY_MS 300
#define PROBE_MS          3000

struct _DuelPresetsView
{
  AdwBin          parent_instance;

  GSettings      *settings;
  DuelDriveItem  *drive;
  GtkStringList  *titles;
  GCancellable   *estimate_cancellable;
  guint           estimate_id;
  char           *estimate_text;
  gboolean        running;
  gboolean        probing;

  /* Template children */
  AdwComboRow    *preset_row;
  AdwActionRow   *multiple_row;
  AdwActionRow   *span_row;
  AdwActionRow   *runtime_row;
  AdwActionRow   *interval_row;
  AdwActionRow   *trim_row;
  AdwActionRow   *estimate_row;
  GtkSpinButton  *multiple_spin;
  GtkEntry       *span_entry;
  GtkSpinButton  *runtime_spin;
  GtkSpinButton  *interval_spin;
  GtkSwitch      *trim_switch;
  GtkButton      *probe_button;
  AdwActionRow   *passes_row;
  GtkSpinButton  *passes_spin;
  AdwPreferencesGroup *custom_group;
  AdwComboRow    *access_row;
  GtkSpinButton  *read_spin;
  AdwComboRow    *block_row;
  GtkSpinButton  *depth_spin;
  GtkSpinButton  *jobs_spin;
  AdwPreferencesGroup *idle_group;
  AdwEntryRow    *idle_row;
  AdwPreferencesGroup *rounds_group;
  AdwActionRow   *rounds_row;
  GtkSpinButton  *rounds_spin;
  AdwActionRow   *data_limit_row;
  GtkSpinButton  *data_limit_spin;
  AdwActionRow   *slope_limit_row;
  GtkSpinButton  *slope_limit_spin;
  AdwExpanderRow *sizes_row;
  AdwExpanderRow *mixes_row;

  /* The matrix of the preset's test in rounds: one row with a check per
   * block size and per mix, made for the preset chosen. */
  GArray         *matrix_sizes;     /* guint32 */
  GArray         *matrix_mixes;     /* guint, read % */
  GPtrArray      *size_rows;        /* AdwActionRow, as matrix_sizes */
  GPtrArray      *mix_rows;         /* AdwActionRow, as matrix_mixes */
};

/* The custom test's block sizes, as fio's and CrystalDiskMark's users know them. */
static const guint32 block_sizes[] = {
  512, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576,
};
#define DEFAULT_BLOCK_SIZE_INDEX 1

G_DEFINE_FINAL_TYPE (DuelPresetsView, duel_presets_view, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_PRESET_NAME,
  PROP_ESTIMATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void schedule_estimate (DuelPresetsView *self);

/* The checks of a matrix's rows, on screen when it has more than two
 * block sizes (SNIA's IOPS and latency tests): a subset of its cells. */
#define MATRIX_MIN_SIZES 3

char *
duel_preset_mix_text (guint read_percent)
{
  /* Translators: a read/write mix of a test matrix, e.g. "65 % reads, 35 % writes" */
  return g_strdup_printf (_("%u %% reads, %u %% writes"), read_percent, 100 - MIN (read_percent, 100));
}

static GtkCheckButton *
matrix_row_check (AdwActionRow *row)
{
  return GTK_CHECK_BUTTON (adw_action_row_get_activatable_widget (row));
}

static gboolean
matrix_shown (DuelPresetsView *self)
{
  return self->matrix_sizes->len >= MATRIX_MIN_SIZES;
}

/* The values of @rows whose check is on, into @out (n of at most
 * DUEL_PRESET_MAX_MATRIX); all of them on is 0, the whole matrix. */
static gboolean
matrix_take_chosen (GPtrArray *rows,
                    GArray    *values,
                    guint     *out,
                    guint     *out_n)
{
  guint n = 0;

  for (guint i = 0; i < rows->len && i < DUEL_PRESET_MAX_MATRIX; i++)
    if (gtk_check_button_get_active (matrix_row_check (g_ptr_array_index (rows, i))))
      out[n++] = g_array_index (values, guint, i);
  *out_n = n == rows->len ? 0 : n;
  return n > 0;
}

const char *
duel_preset_title (const char *name)
{
  return duel_preset_get_title_for_name (name);
}

static gboolean
preset_has_fill (const char *name)
{
  return duel_preset_name_has_fill (name);
}

const char *
duel_presets_view_get_preset_name (DuelPresetsView *self)
{
  const char * const *names = duel_preset_get_names ();
  guint selected;

  g_return_val_if_fail (DUEL_IS_PRESETS_VIEW (self), NULL);

  selected = adw_combo_row_get_selected (self->preset_row);
  if (selected >= g_strv_length ((char **) names))
    return NULL;
  return names[selected];
}

gboolean
duel_presets_view_set_preset_name (DuelPresetsView *self,
                                   const char      *name)
{
  const char * const *names = duel_preset_get_names ();

  g_return_val_if_fail (DUEL_IS_PRESETS_VIEW (self), FALSE);

  for (guint i = 0; names[i] != NULL; i++)
    if (g_strcmp0 (names[i], name) == 0)
      {
        adw_combo_row_set_selected (self->preset_row, i);
        return TRUE;
      }
  return FALSE;
}

const char *
duel_presets_view_get_preset_title (DuelPresetsView *self)
{
  g_return_val_if_fail (DUEL_IS_PRESETS_VIEW (self), NULL);
  return duel_preset_title (duel_presets_view_get_preset_name (self));
}

const char *
duel_presets_view_get_estimate (DuelPresetsView *self)
{
  g_return_val_if_fail (DUEL_IS_PRESETS_VIEW (self), NULL);
  return self->estimate_text;
}

gboolean
duel_presets_view_get_options (DuelPresetsView    *self,
                               DuelPresetOptions  *out_options,
                               GError            **error)
{
  const char *name = duel_presets_view_get_preset_name (self);
  g_autofree char *span = NULL;

  g_return_val_if_fail (DUEL_IS_PRESETS_VIEW (self), FALSE);

  duel_preset_options_init (out_options);

  span = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->span_entry))));
  if (*span != '\0')
    {
      g_autoptr(GError) local_error = NULL;
      g_autofree char *compact = NULL;
      GString *text = g_string_new (NULL);

      /* "8 GiB" and "8GiB" alike. */
      for (const char *p = span; *p != '\0'; p++)
        if (!g_ascii_isspace (*p))
          g_string_append_c (text, *p);
      compact = g_string_free (text, FALSE);
      if (!duel_parse_size (compact, &out_options->span_bytes, &local_error))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("The span “%s” is not a size: %s"), span, local_error->message);
          return FALSE;
        }
    }

  if (preset_has_fill (name))
    {
      out_options->capacity_multiple = gtk_spin_button_get_value (self->multiple_spin);
      out_options->no_trim = !gtk_switch_get_active (self->trim_switch);
    }
  out_options->runtime_ms = (guint64) llround (gtk_spin_button_get_value (self->runtime_spin) * 1000);
  out_options->interval_ms = gtk_spin_button_get_value_as_int (self->interval_spin);
  if (!preset_has_fill (name))
    out_options->passes = gtk_spin_button_get_value_as_int (self->passes_spin);
  /* Empty: the test's own periods. */
  if (duel_preset_name_get_idle (name, (guint64[DUEL_REVIEW_MAX_IDLE]) { 0 }))
    {
      const char *idle = gtk_editable_get_text (GTK_EDITABLE (self->idle_row));

      if (*idle != '\0' && !duel_preset_parse_idle (idle, out_options, error))
        return FALSE;
    }
  if (duel_preset_name_get_rounds (name) != NULL)
    {
      out_options->max_rounds = gtk_spin_button_get_value_as_int (self->rounds_spin);
      /* Percent here, shares of the mean in the plan (--data-limit 0.2). */
      out_options->data_limit = gtk_spin_button_get_value (self->data_limit_spin) / 100.0;
      out_options->slope_limit = gtk_spin_button_get_value (self->slope_limit_spin) / 100.0;
      if (matrix_shown (self))
        {
          G_STATIC_ASSERT (sizeof (guint32) == sizeof (guint));
          if (!matrix_take_chosen (self->size_rows, self->matrix_sizes, (guint *) out_options->matrix_block_sizes,
                                   &out_options->n_matrix_block_sizes))
            {
              g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                   _("Choose at least one block size of the test matrix."));
              return FALSE;
            }
          if (!matrix_take_chosen (self->mix_rows, self->matrix_mixes, out_options->matrix_read_percents,
                                   &out_options->n_matrix_read_percents))
            {
              g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                   _("Choose at least one read/write mix of the test matrix."));
              return FALSE;
            }
        }
    }
  if (duel_preset_name_has_chosen_workload (name))
    {
      guint block = adw_combo_row_get_selected (self->block_row);

      duel_workload_init (&out_options->custom);
      out_options->custom.pattern = adw_combo_row_get_selected (self->access_row) == 1
                                    ? DUEL_PATTERN_SEQUENTIAL : DUEL_PATTERN_RANDOM;
      out_options->custom.read_percent = gtk_spin_button_get_value_as_int (self->read_spin);
      out_options->custom.block_size = block_sizes[MIN (block, G_N_ELEMENTS (block_sizes) - 1)];
      out_options->custom.queue_depth = gtk_spin_button_get_value_as_int (self->depth_spin);
      out_options->custom.numjobs = gtk_spin_button_get_value_as_int (self->jobs_spin);
    }
  return TRUE;
}

void
duel_presets_view_set_options (DuelPresetsView         *self,
                               const DuelPresetOptions *options)
{
  g_return_if_fail (DUEL_IS_PRESETS_VIEW (self));
  g_return_if_fail (options != NULL);

  if (options->span_bytes > 0)
    {
      g_autofree char *text = g_format_size_full (options->span_bytes, G_FORMAT_SIZE_IEC_UNITS);

      /* duel_parse_size reads powers of 1024; "KiB" is accepted. */
      if (options->span_bytes % (1024 * 1024) == 0)
        {
          g_free (text);
          text = g_strdup_printf ("%" G_GUINT64_FORMAT "MiB", options->span_bytes / (1024 * 1024));
        }
      else
        {
          g_free (text);
          text = g_strdup_printf ("%" G_GUINT64_FORMAT, options->span_bytes);
        }
      gtk_editable_set_text (GTK_EDITABLE (self->span_entry), text);
    }
  else
    gtk_editable_set_text (GTK_EDITABLE (self->span_entry), "");
  if (options->capacity_multiple > 0)
    gtk_spin_button_set_value (self->multiple_spin, options->capacity_multiple);
  gtk_spin_button_set_value (self->runtime_spin, options->runtime_ms / 1000.0);
  if (options->interval_ms > 0)
    gtk_spin_button_set_value (self->interval_spin, options->interval_ms);
  gtk_switch_set_active (self->trim_switch, !options->no_trim);
  if (options->passes > 0)
    gtk_spin_button_set_value (self->passes_spin, options->passes);
  {
    g_autofree char *idle = duel_preset_format_idle (options->idle_ms, options->n_idle);

    gtk_editable_set_text (GTK_EDITABLE (self->idle_row), idle);
  }
  gtk_spin_button_set_value (self->rounds_spin, options->max_rounds);
  gtk_spin_button_set_value (self->data_limit_spin, options->data_limit * 100.0);
  gtk_spin_button_set_value (self->slope_limit_spin, options->slope_limit * 100.0);
  /* The matrix's subset: a value this preset's matrix lacks is left out. */
  for (guint i = 0; i < self->size_rows->len; i++)
    {
      gboolean on = options->n_matrix_block_sizes == 0;

      for (guint k = 0; k < options->n_matrix_block_sizes; k++)
        on |= options->matrix_block_sizes[k] == g_array_index (self->matrix_sizes, guint32, i);
      gtk_check_button_set_active (matrix_row_check (g_ptr_array_index (self->size_rows, i)), on);
    }
  for (guint i = 0; i < self->mix_rows->len; i++)
    {
      gboolean on = options->n_matrix_read_percents == 0;

      for (guint k = 0; k < options->n_matrix_read_percents; k++)
        on |= options->matrix_read_percents[k] == g_array_index (self->matrix_mixes, guint, i);
      gtk_check_button_set_active (matrix_row_check (g_ptr_array_index (self->mix_rows, i)), on);
    }
  /* The chosen workload, as duel_presets_view_get_options() reads it back. */
  if (options->custom.block_size > 0)
    {
      const DuelWorkload *w = &options->custom;

      adw_combo_row_set_selected (self->access_row, w->pattern == DUEL_PATTERN_SEQUENTIAL ? 1 : 0);
      for (guint i = 0; i < G_N_ELEMENTS (block_sizes); i++)
        if (block_sizes[i] == w->block_size)
          adw_combo_row_set_selected (self->block_row, i);
      gtk_spin_button_set_value (self->read_spin, w->read_percent);
      if (w->queue_depth > 0)
        gtk_spin_button_set_value (self->depth_spin, w->queue_depth);
      if (w->numjobs > 0)
        gtk_spin_button_set_value (self->jobs_spin, w->numjobs);
    }
}

DuelPreset *
duel_presets_view_create_preset (DuelPresetsView  *self,
                                 GError          **error)
{
  DuelPresetOptions options;

  g_return_val_if_fail (DUEL_IS_PRESETS_VIEW (self), NULL);

  if (!duel_presets_view_get_options (self, &options, error))
    return NULL;
  return duel_preset_new (duel_presets_view_get_preset_name (self), &options, error);
}

/* --- the estimate ----------------------------------------------------------- */

static void
set_estimate_text (DuelPresetsView *self,
                   const char      *text)
{
  if (g_strcmp0 (text, self->estimate_text) == 0)
    return;
  g_free (self->estimate_text);
  self->estimate_text = g_strdup (text);
  adw_action_row_set_subtitle (self->estimate_row, text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ESTIMATE]);
}

static void
update_probe_button (DuelPresetsView *self)
{
  gboolean file = self->drive != NULL && duel_drive_item_get_kind (self->drive) == DUEL_TARGET_KIND_FILE;

  gtk_widget_set_visible (GTK_WIDGET (self->probe_button),
                          file && duel_preset_name_probes (duel_presets_view_get_preset_name (self)));
  gtk_widget_set_sensitive (GTK_WIDGET (self->probe_button), !self->running && !self->probing);
}

/* Each test's part of @estimate, a line each, where the plan runs more
 * than one test or rests the drive (as the CLI prints them before a
 * run); NULL otherwise. */
static char *
describe_parts (DuelPreset               *preset,
                const DuelPresetEstimate *estimate)
{
  g_auto(GStrv) lines = duel_preset_describe_estimate_by_test (preset, estimate);

  return lines != NULL ? g_strjoinv ("\n", lines) : NULL;
}

static void
estimate_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(DuelPresetsView) self = user_data;
  DuelPresetEstimate estimate;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gboolean ok;

  ok = duel_run_estimate_finish (DUEL_RUN (object), result, &estimate, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->probing = FALSE;
  update_probe_button (self);

  if (!ok)
    {
      if (self->drive != NULL && duel_drive_item_get_kind (self->drive) == DUEL_TARGET_KIND_FILE &&
          !g_file_test (duel_drive_item_get_path (self->drive), G_FILE_TEST_EXISTS))
        {
          g_autofree char *size = g_format_size (duel_drive_item_get_size_bytes (self->drive));
          text = g_strdup_printf (_("The file is created with %s when the run starts; "
                                    "measure to estimate the run."), size);
        }
      else
        text = g_strdup_printf (_("No estimate: %s"), error->message);
      set_estimate_text (self, text);
      return;
    }

  if (estimate.fill_bytes > 0 && isfinite (estimate.probe_write_iops))
    {
      g_autofree char *total = duel_text_format_duration (estimate.total_seconds);
      g_autofree char *fill = g_format_size (estimate.fill_bytes);
      g_autofree char *fill_time = duel_text_format_duration (estimate.fill_seconds);
      /* Grouped as the charts group it, in every locale. */
      g_autofree char *iops = duel_number_format (estimate.probe_write_iops, 0);

      /* Translators: %s are a duration, a size, the probe's IOPS ("53,359") and a duration */
      text = g_strdup_printf (_("At least %s: writing %s at %s IOPS takes %s, and a drive "
                                "slows down as it fills."),
                              total, fill, iops, fill_time);
    }
  else if (estimate.fill_bytes > 0)
    {
      g_autofree char *timed = duel_text_format_duration (estimate.timed_seconds);
      g_autofree char *fill = g_format_size (estimate.fill_bytes);

      /* Translators: %s are a size and a duration */
      text = g_strdup_printf (_("Writing %s, at the drive’s own pace, plus %s of timed tests. "
                                "The run measures the pace first."),
                              fill, timed);
    }
  else
    {
      g_autofree char *total = duel_text_format_duration (estimate.total_seconds);
      /* Translators: %s is a duration */
      text = g_strdup_printf (_("About %s."), total);
    }
  if (duel_run_get_preset (DUEL_RUN (object)) != NULL)
    {
      g_autofree char *parts = describe_parts (duel_run_get_preset (DUEL_RUN (object)), &estimate);

      if (parts != NULL)
        {
          char *whole = g_strconcat (text, "\n", parts, NULL);

          g_free (text);
          text = whole;
        }
    }
  set_estimate_text (self, text);
}

static void
start_estimate (DuelPresetsView *self,
                guint64          probe_ms)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelRun) run = NULL;

  g_cancellable_cancel (self->estimate_cancellable);
  g_clear_object (&self->estimate_cancellable);

  if (self->drive == NULL)
    {
      set_estimate_text (self, _("Choose a drive or a file target to see how long the run takes."));
      return;
    }

  preset = duel_presets_view_create_preset (self, &error);
  if (preset == NULL)
    {
      set_estimate_text (self, error->message);
      return;
    }

  self->estimate_cancellable = g_cancellable_new ();
  run = duel_run_new (duel_drive_item_get_path (self->drive));
  duel_run_set_preset (run, preset);
  /* The probe writes a file target as the run would: at its size, in its
   * folder made as the run's start makes it. */
  if (probe_ms > 0)
    {
      duel_drive_item_make_folder (self->drive);
      duel_run_set_safety (run, DUEL_SAFETY_FLAGS_NONE, duel_drive_item_get_create_size (self->drive));
    }
  duel_run_estimate_async (run, probe_ms, self->estimate_cancellable, estimate_cb, g_object_ref (self));
}

static gboolean
estimate_timeout_cb (gpointer user_data)
{
  DuelPresetsView *self = user_data;

  self->estimate_id = 0;
  start_estimate (self, 0);
  return G_SOURCE_REMOVE;
}

static void
schedule_estimate (DuelPresetsView *self)
{
  g_clear_handle_id (&self->estimate_id, g_source_remove);
  self->estimate_id = g_timeout_add (ESTIMATE_DELAY_MS, estimate_timeout_cb, self);
}

static void
probe_clicked_cb (DuelPresetsView *self)
{
  if (self->drive == NULL || duel_drive_item_get_kind (self->drive) != DUEL_TARGET_KIND_FILE)
    return;

  g_clear_handle_id (&self->estimate_id, g_source_remove);
  self->probing = TRUE;
  update_probe_button (self);
  set_estimate_text (self, _("Measuring the write speed…"));
  start_estimate (self, PROBE_MS);
}

/* --- parameters --------------------------------------------------------------- */

/* "All", or the chosen values in words, under the expander's title. */
static void
update_matrix_subtitles (DuelPresetsView *self)
{
  AdwExpanderRow *expanders[] = { self->sizes_row, self->mixes_row };
  GPtrArray *rows[] = { self->size_rows, self->mix_rows };

  for (guint e = 0; e < G_N_ELEMENTS (expanders); e++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      guint n = 0;

      for (guint i = 0; i < rows[e]->len; i++)
        {
          AdwActionRow *row = g_ptr_array_index (rows[e], i);

          if (!gtk_check_button_get_active (matrix_row_check (row)))
            continue;
          if (n++ > 0)
            /* Translators: between the chosen values of a matrix: "4 KiB; 128 KiB" */
            g_string_append (text, _("; "));
          g_string_append (text, adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
        }
      if (n == rows[e]->len)
        adw_expander_row_set_subtitle (expanders[e], _("All"));
      else if (n == 0)
        adw_expander_row_set_subtitle (expanders[e], _("None chosen"));
      else
        adw_expander_row_set_subtitle (expanders[e], text->str);
    }
}

static void
matrix_toggled_cb (DuelPresetsView *self)
{
  update_matrix_subtitles (self);
  schedule_estimate (self);
}

static AdwActionRow *
add_matrix_row (DuelPresetsView *self,
                AdwExpanderRow  *expander,
                const char      *title)
{
  AdwActionRow *row = ADW_ACTION_ROW (adw_action_row_new ());
  GtkWidget *check = gtk_check_button_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  /* A check has no label of its own: the row's title names it. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  adw_action_row_add_suffix (row, check);
  adw_action_row_set_activatable_widget (row, check);
  g_signal_connect_object (check, "toggled", G_CALLBACK (matrix_toggled_cb), self, G_CONNECT_SWAPPED);
  adw_expander_row_add_row (expander, GTK_WIDGET (row));
  return row;
}

/* The rows of the chosen preset's rounds: its own number of rounds in the
 * subtitle, a check per block size and mix of its matrix. */
static void
rebuild_rounds (DuelPresetsView *self)
{
  const char *name = duel_presets_view_get_preset_name (self);
  const DuelReviewRounds *rounds = duel_preset_name_get_rounds (name);
  g_autofree char *subtitle = NULL;

  for (guint i = 0; i < self->size_rows->len; i++)
    adw_expander_row_remove (self->sizes_row, g_ptr_array_index (self->size_rows, i));
  for (guint i = 0; i < self->mix_rows->len; i++)
    adw_expander_row_remove (self->mixes_row, g_ptr_array_index (self->mix_rows, i));
  g_ptr_array_set_size (self->size_rows, 0);
  g_ptr_array_set_size (self->mix_rows, 0);
  g_clear_pointer (&self->matrix_sizes, g_array_unref);
  g_clear_pointer (&self->matrix_mixes, g_array_unref);
  duel_preset_name_get_matrix (name, &self->matrix_sizes, &self->matrix_mixes);

  {
    guint64 idle_ms[DUEL_REVIEW_MAX_IDLE];
    gboolean rests = duel_preset_name_get_idle (name, idle_ms);
    g_autofree char *own = duel_preset_format_idle (idle_ms, DUEL_REVIEW_MAX_IDLE);
    /* Translators: the test's own idle periods, "5m, 30m" */
    g_autofree char *title = g_strdup_printf (_("_Idle periods (empty: %s)"), own);

    gtk_widget_set_visible (GTK_WIDGET (self->idle_group), rests);
    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->idle_row), title);
  }
  gtk_widget_set_visible (GTK_WIDGET (self->rounds_group), rounds != NULL);
  if (rounds == NULL)
    return;
  subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           /* Translators: the fewest and most rounds, the test's own
                                            * most, the rounds steady state is judged on */
                                           "From %u to %u; 0 keeps the test’s own %u. Steady state is "
                                           "judged on the last %u round.",
                                           "From %u to %u; 0 keeps the test’s own %u. Steady state is "
                                           "judged on the last %u rounds.", rounds->window),
                              rounds->window, DUEL_PRESET_MAX_ROUNDS, rounds->max_rounds, rounds->window);
  adw_action_row_set_subtitle (self->rounds_row, subtitle);
  g_clear_pointer (&subtitle, g_free);
  /* Translators: the test's own limit in percent, e.g. 20 */
  subtitle = g_strdup_printf (_("Steady when the last rounds’ range is at most this share of their mean; "
                                "0 keeps the test’s own, %.0f %%"), rounds->data_limit * 100);
  adw_action_row_set_subtitle (self->data_limit_row, subtitle);
  g_clear_pointer (&subtitle, g_free);
  /* Translators: the test's own limit in percent, e.g. 10 */
  subtitle = g_strdup_printf (_("And when their fitted line moves by at most this share of their mean; "
                                "0 keeps the test’s own, %.0f %%"), rounds->slope_limit * 100);
  adw_action_row_set_subtitle (self->slope_limit_row, subtitle);

  gtk_widget_set_visible (GTK_WIDGET (self->sizes_row), matrix_shown (self));
  gtk_widget_set_visible (GTK_WIDGET (self->mixes_row), matrix_shown (self));
  if (!matrix_shown (self))
    return;
  for (guint i = 0; i < self->matrix_sizes->len; i++)
    {
      /* "4 KiB", as sizes are given. */
      g_autofree char *title = duel_format_size_as_given (g_array_index (self->matrix_sizes, guint32, i));

      g_ptr_array_add (self->size_rows, add_matrix_row (self, self->sizes_row, title));
    }
  for (guint i = 0; i < self->matrix_mixes->len; i++)
    {
      g_autofree char *title = duel_preset_mix_text (g_array_index (self->matrix_mixes, guint, i));

      g_ptr_array_add (self->mix_rows, add_matrix_row (self, self->mixes_row, title));
    }
  update_matrix_subtitles (self);
}

static void
update_rows (DuelPresetsView *self)
{
  const char *name = duel_presets_view_get_preset_name (self);
  gboolean fill = preset_has_fill (name);

  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->preset_row), duel_preset_describe (name));
  gtk_widget_set_sensitive (GTK_WIDGET (self->multiple_row), fill && !self->running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->trim_row), fill && !self->running);
  /* A fill changes the drive it measures: it runs once. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->passes_row), !fill && !self->running);
  gtk_widget_set_visible (GTK_WIDGET (self->custom_group), duel_preset_name_has_chosen_workload (name));
  gtk_widget_set_sensitive (GTK_WIDGET (self->custom_group), !self->running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->idle_group), !self->running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->rounds_group), !self->running);
  /* A sequential preconditioning (SNIA's) is no write saturation. */
  adw_action_row_set_subtitle (self->multiple_row,
                               fill && !duel_preset_name_probes (name)
                               ? _("The preconditioning writes this many times the span")
                               : _("The write saturation writes this many times the span"));
  adw_action_row_set_subtitle (self->trim_row,
                               fill && !duel_preset_name_probes (name)
                               ? _("Discard the span before the preconditioning, as SNIA’s purge")
                               : _("Discard the span before the fill, so the drive starts empty"));
  /* A test in rounds times its cells, one round after another. */
  adw_action_row_set_subtitle (self->runtime_row,
                               duel_preset_name_get_rounds (name) != NULL
                               ? _("Seconds for each cell of each round; 0 keeps the preset’s own")
                               : _("Seconds for each timed test; 0 keeps the preset’s own"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->span_row), !self->running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->runtime_row), !self->running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->interval_row), !self->running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->preset_row), !self->running);
  update_probe_button (self);
}

static void
preset_changed_cb (DuelPresetsView *self)
{
  guint interval_ms = duel_preset_default_interval_ms (duel_presets_view_get_preset_name (self));

  /* A preset's own interval by design, else the preference. */
  if (interval_ms > 0)
    gtk_spin_button_set_value (self->interval_spin, interval_ms);
  else if (self->settings != NULL)
    gtk_spin_button_set_value (self->interval_spin,
                               g_settings_get_uint (self->settings, "default-interval-ms"));

  rebuild_rounds (self);
  update_rows (self);
  schedule_estimate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRESET_NAME]);
}

static void
parameter_changed_cb (DuelPresetsView *self)
{
  schedule_estimate (self);
}

/* --- remembered in GSettings --------------------------------------------------- */

/* The preset by its name: a position in this version's list. A name it
 * does not have fails, and the key's default is used. */
static gboolean
preset_get_mapping (GValue   *value,
                    GVariant *variant,
                    gpointer  user_data)
{
  const char * const *names = duel_preset_get_names ();
  const char *name = g_variant_get_string (variant, NULL);

  for (guint i = 0; names[i] != NULL; i++)
    if (g_strcmp0 (names[i], name) == 0)
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
preset_set_mapping (const GValue       *value,
                    const GVariantType *expected_type,
                    gpointer            user_data)
{
  const char * const *names = duel_preset_get_names ();
  guint selected = g_value_get_uint (value);

  if (selected >= g_strv_length ((char **) names))
    return NULL;
  return g_variant_new_string (names[selected]);
}

/* The access by its nick ("random", "sequential"): the row's position. */
static const char * const access_nicks[] = { "random", "sequential", NULL };

static gboolean
access_get_mapping (GValue   *value,
                    GVariant *variant,
                    gpointer  user_data)
{
  const char *nick = g_variant_get_string (variant, NULL);

  for (guint i = 0; access_nicks[i] != NULL; i++)
    if (g_strcmp0 (access_nicks[i], nick) == 0)
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
access_set_mapping (const GValue       *value,
                    const GVariantType *expected_type,
                    gpointer            user_data)
{
  guint selected = g_value_get_uint (value);

  if (selected >= G_N_ELEMENTS (access_nicks) - 1)
    return NULL;
  return g_variant_new_string (access_nicks[selected]);
}

/* The block size in bytes: the row's position in block_sizes[]. */
static gboolean
block_get_mapping (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  guint32 bytes = g_variant_get_uint32 (variant);

  for (guint i = 0; i < G_N_ELEMENTS (block_sizes); i++)
    if (block_sizes[i] == bytes)
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
block_set_mapping (const GValue       *value,
                   const GVariantType *expected_type,
                   gpointer            user_data)
{
  guint selected = g_value_get_uint (value);

  if (selected >= G_N_ELEMENTS (block_sizes))
    return NULL;
  return g_variant_new_uint32 (block_sizes[selected]);
}

/* The rows that are remembered: each key, its widget and property, and
 * the mapping of a row's position to the key's value where it has one. */
typedef struct
{
  const char               *key;
  gsize                     offset;     /* of the widget in DuelPresetsView */
  const char               *property;
  GSettingsBindGetMapping   get_mapping;
  GSettingsBindSetMapping   set_mapping;
} Remembered;

static const Remembered remembered[] = {
  { "preset", G_STRUCT_OFFSET (DuelPresetsView, preset_row), "selected", preset_get_mapping, preset_set_mapping },
  { "span", G_STRUCT_OFFSET (DuelPresetsView, span_entry), "text", NULL, NULL },
  { "capacity-multiple", G_STRUCT_OFFSET (DuelPresetsView, multiple_spin), "value", NULL, NULL },
  { "test-length", G_STRUCT_OFFSET (DuelPresetsView, runtime_spin), "value", NULL, NULL },
  { "passes", G_STRUCT_OFFSET (DuelPresetsView, passes_spin), "value", NULL, NULL },
  { "trim-first", G_STRUCT_OFFSET (DuelPresetsView, trim_switch), "active", NULL, NULL },
  { "custom-access", G_STRUCT_OFFSET (DuelPresetsView, access_row), "selected", access_get_mapping, access_set_mapping },
  { "custom-read-percent", G_STRUCT_OFFSET (DuelPresetsView, read_spin), "value", NULL, NULL },
  { "custom-block-size", G_STRUCT_OFFSET (DuelPresetsView, block_row), "selected", block_get_mapping, block_set_mapping },
  { "custom-queue-depth", G_STRUCT_OFFSET (DuelPresetsView, depth_spin), "value", NULL, NULL },
  { "custom-jobs", G_STRUCT_OFFSET (DuelPresetsView, jobs_spin), "value", NULL, NULL },
};

static GObject *
remembered_object (DuelPresetsView *self,
                   const Remembered *entry)
{
  return G_STRUCT_MEMBER (GObject *, self, entry->offset);
}

void
duel_presets_view_set_settings (DuelPresetsView *self,
                                GSettings       *settings)
{
  g_return_if_fail (DUEL_IS_PRESETS_VIEW (self));

  if (self->settings == settings)
    return;
  for (guint i = 0; self->settings != NULL && i < G_N_ELEMENTS (remembered); i++)
    g_settings_unbind (remembered_object (self, &remembered[i]), remembered[i].property);
  g_set_object (&self->settings, settings);
  /* What the person set is read once, at the start, and written on every
   * change: another window does not change this one's rows under it. */
  for (guint i = 0; settings != NULL && i < G_N_ELEMENTS (remembered); i++)
    {
      const Remembered *entry = &remembered[i];
      GSettingsBindFlags flags = G_SETTINGS_BIND_GET | G_SETTINGS_BIND_SET | G_SETTINGS_BIND_GET_NO_CHANGES |
                                 G_SETTINGS_BIND_NO_SENSITIVITY;

      if (entry->get_mapping != NULL)
        g_settings_bind_with_mapping (settings, entry->key, remembered_object (self, entry), entry->property,
                                      flags, entry->get_mapping, entry->set_mapping, NULL, NULL);
      else
        g_settings_bind (settings, entry->key, remembered_object (self, entry), entry->property, flags);
    }
  preset_changed_cb (self);
}

void
duel_presets_view_set_drive (DuelPresetsView *self,
                             DuelDriveItem   *drive)
{
  g_return_if_fail (DUEL_IS_PRESETS_VIEW (self));

  if (!g_set_object (&self->drive, drive))
    return;
  update_probe_button (self);
  schedule_estimate (self);
}

void
duel_presets_view_set_running (DuelPresetsView *self,
                               gboolean         running)
{
  g_return_if_fail (DUEL_IS_PRESETS_VIEW (self));

  if (self->running == !!running)
    return;
  self->running = !!running;
  /* The run has the target now: no estimate or probe beside it. */
  if (running)
    {
      g_clear_handle_id (&self->estimate_id, g_source_remove);
      g_cancellable_cancel (self->estimate_cancellable);
      self->probing = FALSE;
    }
  update_rows (self);
  /* A finished run may have created the file, so the estimate can improve. */
  if (!running)
    schedule_estimate (self);
}

/* --- GObject ---------------------------------------------------------------- */

static void
duel_presets_view_dispose (GObject *object)
{
  DuelPresetsView *self = DUEL_PRESETS_VIEW (object);

  g_cancellable_cancel (self->estimate_cancellable);
  g_clear_handle_id (&self->estimate_id, g_source_remove);

  /* The bin (or window) disposes its child; disposing the template too would unparent it twice. */

  G_OBJECT_CLASS (duel_presets_view_parent_class)->dispose (object);
}

static void
duel_presets_view_finalize (GObject *object)
{
  DuelPresetsView *self = DUEL_PRESETS_VIEW (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->drive);
  g_clear_object (&self->titles);
  g_clear_object (&self->estimate_cancellable);
  g_clear_pointer (&self->estimate_text, g_free);
  g_clear_pointer (&self->matrix_sizes, g_array_unref);
  g_clear_pointer (&self->matrix_mixes, g_array_unref);
  g_clear_pointer (&self->size_rows, g_ptr_array_unref);
  g_clear_pointer (&self->mix_rows, g_ptr_array_unref);

  G_OBJECT_CLASS (duel_presets_view_parent_class)->finalize (object);
}

static void
duel_presets_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  DuelPresetsView *self = DUEL_PRESETS_VIEW (object);

  switch (prop_id)
    {
    case PROP_PRESET_NAME:
      g_value_set_string (value, duel_presets_view_get_preset_name (self));
      break;
    case PROP_ESTIMATE:
      g_value_set_string (value, self->estimate_text);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_presets_view_class_init (DuelPresetsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = duel_presets_view_dispose;
  object_class->finalize = duel_presets_view_finalize;
  object_class->get_property = duel_presets_view_get_property;

  properties[PROP_PRESET_NAME] =
    g_param_spec_string ("preset-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ESTIMATE] =
    g_param_spec_string ("estimate", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/driveduel/DriveDuel/duel-presets-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, preset_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, multiple_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, span_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, runtime_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, interval_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, trim_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, estimate_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, multiple_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, span_entry);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, runtime_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, interval_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, trim_switch);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, probe_button);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, passes_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, passes_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, custom_group);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, access_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, read_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, block_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, depth_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, jobs_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, idle_group);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, idle_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, rounds_group);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, rounds_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, rounds_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, data_limit_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, data_limit_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, slope_limit_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, slope_limit_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, sizes_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPresetsView, mixes_row);
  gtk_widget_class_bind_template_callback (widget_class, probe_clicked_cb);
}

/* The preset's name in its row and list, whole: AdwComboRow's own labels
 * end at 20 characters ("Performance Consiste…"). */
static void
preset_setup_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  user_data)
{
  gboolean in_list = GPOINTER_TO_INT (user_data);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
  if (!in_list)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
      /* At least the longest name ("Performance Consistency", 23): newer
       * AdwComboRows give the value no more than its least width. */
      gtk_label_set_width_chars (GTK_LABEL (label), 24);
    }
  gtk_box_append (GTK_BOX (box), label);
  if (in_list)
    {
      GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");

      gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Chosen"), -1);
      gtk_box_append (GTK_BOX (box), check);
    }
  gtk_list_item_set_child (list_item, box);
}

static void
preset_check_update (GtkListItem *list_item)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *check = gtk_widget_get_last_child (box);
  AdwComboRow *row = g_object_get_data (G_OBJECT (list_item), "duel-row");

  if (GTK_IS_IMAGE (check) && row != NULL)
    gtk_widget_set_opacity (check, adw_combo_row_get_selected (row) == gtk_list_item_get_position (list_item) ? 1 : 0);
}

static void
preset_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  DuelPresetsView *self = g_object_get_data (G_OBJECT (factory), "duel-view");
  GtkStringObject *title = gtk_list_item_get_item (list_item);
  GtkWidget *label = gtk_widget_get_first_child (gtk_list_item_get_child (list_item));

  gtk_label_set_text (GTK_LABEL (label), gtk_string_object_get_string (title));
  if (GPOINTER_TO_INT (user_data))
    {
      g_object_set_data (G_OBJECT (list_item), "duel-row", self->preset_row);
      g_signal_connect_object (self->preset_row, "notify::selected",
                               G_CALLBACK (preset_check_update), list_item, G_CONNECT_SWAPPED);
      preset_check_update (list_item);
    }
}

static void
preset_unbind_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  gpointer                  user_data)
{
  DuelPresetsView *self = g_object_get_data (G_OBJECT (factory), "duel-view");

  if (GPOINTER_TO_INT (user_data))
    g_signal_handlers_disconnect_by_func (self->preset_row, preset_check_update, list_item);
}

static GtkListItemFactory *
preset_factory_new (DuelPresetsView *self,
                    gboolean         in_list)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_object_set_data (G_OBJECT (factory), "duel-view", self);
  g_signal_connect (factory, "setup", G_CALLBACK (preset_setup_cb), GINT_TO_POINTER (in_list));
  g_signal_connect (factory, "bind", G_CALLBACK (preset_bind_cb), GINT_TO_POINTER (in_list));
  g_signal_connect (factory, "unbind", G_CALLBACK (preset_unbind_cb), GINT_TO_POINTER (in_list));
  return factory;
}

static void
duel_presets_view_init (DuelPresetsView *self)
{
  const char * const *names = duel_preset_get_names ();

  gtk_widget_init_template (GTK_WIDGET (self));
  self->size_rows = g_ptr_array_new ();
  self->mix_rows = g_ptr_array_new ();
  self->matrix_sizes = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->matrix_mixes = g_array_new (FALSE, FALSE, sizeof (guint));

  self->titles = gtk_string_list_new (NULL);
  for (guint i = 0; names[i] != NULL; i++)
    gtk_string_list_append (self->titles, duel_preset_title (names[i]));
  adw_combo_row_set_model (self->preset_row, G_LIST_MODEL (self->titles));
  {
    g_autoptr(GtkListItemFactory) shown = preset_factory_new (self, FALSE);
    g_autoptr(GtkListItemFactory) listed = preset_factory_new (self, TRUE);

    adw_combo_row_set_factory (self->preset_row, shown);
    adw_combo_row_set_list_factory (self->preset_row, listed);
  }
  {
    g_autoptr(GtkStringList) sizes = gtk_string_list_new (NULL);

    for (guint i = 0; i < G_N_ELEMENTS (block_sizes); i++)
      {
        /* "4 KiB", as sizes are given, not "4.0 KiB". */
        g_autofree char *text = duel_format_size_as_given (block_sizes[i]);

        gtk_string_list_append (sizes, text);
      }
    adw_combo_row_set_model (self->block_row, G_LIST_MODEL (sizes));
    adw_combo_row_set_selected (self->block_row, DEFAULT_BLOCK_SIZE_INDEX);
  }
  /* Minutes, not hours: a safe first choice; the full presets are one click away. */
  duel_presets_view_set_preset_name (self, "quick");

  g_signal_connect_object (self->preset_row, "notify::selected",
                           G_CALLBACK (preset_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->multiple_spin, "value-changed",
                           G_CALLBACK (parameter_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->runtime_spin, "value-changed",
                           G_CALLBACK (parameter_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->interval_spin, "value-changed",
                           G_CALLBACK (parameter_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->span_entry, "changed",
                           G_CALLBACK (parameter_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->trim_switch, "notify::active",
                           G_CALLBACK (parameter_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->passes_spin, "value-changed",
                           G_CALLBACK (parameter_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->rounds_spin, "value-changed",
                           G_CALLBACK (parameter_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->data_limit_spin, "value-changed",
                           G_CALLBACK (parameter_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->slope_limit_spin, "value-changed",
                           G_CALLBACK (parameter_changed_cb), self, G_CONNECT_SWAPPED);

  rebuild_rounds (self);
  update_rows (self);
  set_estimate_text (self, _("Choose a drive or a file target to see how long the run takes."));
}
