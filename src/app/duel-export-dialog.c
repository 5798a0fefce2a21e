/* duel-export-dialog.c — charts and tables to files: formats, size, scale, style
 *
 * The files are written by the charts library's exporters (the same the CLI
 * uses) in a worker thread; the dialog then shows where they went. Files in
 * the folder that Drive Duel did not export, or that changed since, are
 * replaced only after the person says so (the exporter checks every name
 * before it writes one).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-adw-compat.h"
#include "duel-error.h"
#include "duel-export-dialog.h"
#include "duel-preferences-window.h"
#include "duel-system.h"

struct _DuelExportDialog
{
  AdwWindow        parent_instance;

  DuelComparison  *comparison;
  GSettings       *settings;
  char            *folder;
  GPtrArray       *files;
  GCancellable    *cancellable;
  /* The person agreed to replace files in the folder that Drive Duel did
   * not export (or that changed since): for the next export only. */
  gboolean         replace_agreed;

  /* Template children */
  GtkStack        *stack;
  GtkButton       *cancel_button;
  GtkButton       *export_button;
  GtkCheckButton  *png_check;
  GtkCheckButton  *svg_check;
  GtkCheckButton  *pdf_check;
  GtkCheckButton  *csv_check;
  GtkCheckButton  *md_check;
  GtkCheckButton  *fio_check;
  GtkSpinButton   *width_spin;
  GtkSpinButton   *height_spin;
  GtkSpinButton   *scale_spin;
  AdwComboRow     *style_row;
  AdwActionRow    *folder_row;
  AdwStatusPage   *done_page;
};

G_DEFINE_FINAL_TYPE (DuelExportDialog, duel_export_dialog, ADW_TYPE_WINDOW)

enum {
  DONE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const struct {
  DuelChartExportFormats format;
  const char            *nick;
} format_nicks[] = {
  { DUEL_CHART_EXPORT_PNG, "png" },
  { DUEL_CHART_EXPORT_SVG, "svg" },
  { DUEL_CHART_EXPORT_PDF, "pdf" },
  { DUEL_CHART_EXPORT_CSV, "csv" },
  { DUEL_CHART_EXPORT_MARKDOWN, "md" },
  { DUEL_CHART_EXPORT_FIO, "fio" },
};

static GtkCheckButton *
check_for (DuelExportDialog       *self,
           DuelChartExportFormats  format)
{
  switch (format)
    {
    case DUEL_CHART_EXPORT_PNG: return self->png_check;
    case DUEL_CHART_EXPORT_SVG: return self->svg_check;
    case DUEL_CHART_EXPORT_PDF: return self->pdf_check;
    case DUEL_CHART_EXPORT_CSV: return self->csv_check;
    case DUEL_CHART_EXPORT_MARKDOWN: return self->md_check;
    case DUEL_CHART_EXPORT_FIO: return self->fio_check;
    case DUEL_CHART_EXPORT_ALL:
    default: return NULL;
    }
}

DuelChartExportFormats
duel_export_dialog_get_formats (DuelExportDialog *self)
{
  DuelChartExportFormats formats = 0;

  g_return_val_if_fail (DUEL_IS_EXPORT_DIALOG (self), 0);

  for (guint i = 0; i < G_N_ELEMENTS (format_nicks); i++)
    if (gtk_check_button_get_active (check_for (self, format_nicks[i].format)))
      formats |= format_nicks[i].format;
  return formats;
}

void
duel_export_dialog_set_formats (DuelExportDialog       *self,
                                DuelChartExportFormats  formats)
{
  g_return_if_fail (DUEL_IS_EXPORT_DIALOG (self));

  for (guint i = 0; i < G_N_ELEMENTS (format_nicks); i++)
    gtk_check_button_set_active (check_for (self, format_nicks[i].format),
                                 (formats & format_nicks[i].format) != 0);
}

static void
update_export_button (DuelExportDialog *self)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button),
                            duel_export_dialog_get_formats (self) != 0 && self->folder != NULL);
}

const char *
duel_export_dialog_get_folder (DuelExportDialog *self)
{
  g_return_val_if_fail (DUEL_IS_EXPORT_DIALOG (self), NULL);
  return self->folder;
}

void
duel_export_dialog_set_folder (DuelExportDialog *self,
                               const char       *folder)
{
  g_return_if_fail (DUEL_IS_EXPORT_DIALOG (self));

  g_free (self->folder);
  self->folder = g_strdup (folder);
  adw_action_row_set_subtitle (self->folder_row, folder != NULL ? folder : "");
  update_export_button (self);
}

GPtrArray *
duel_export_dialog_get_files (DuelExportDialog *self)
{
  g_return_val_if_fail (DUEL_IS_EXPORT_DIALOG (self), NULL);
  return self->files;
}

/* "Intel SSD 750 vs Plextor M8PeG": a folder name that says what is inside. */
static char *
default_folder_name (DuelComparison *comparison)
{
  GString *name = g_string_new (NULL);

  for (guint d = 0; d < duel_comparison_get_n_drives (comparison); d++)
    {
      if (d > 0)
        /* Translators: the export folder's name, "Drive A vs Drive B" */
        g_string_append (name, _(" vs "));
      g_string_append (name, duel_comparison_get_drive_name (comparison, d));
    }
  /* No path separators or leading dots in a folder name. */
  g_strdelimit (name->str, "/\\:", '-');
  while (name->len > 0 && name->str[0] == '.')
    g_string_erase (name, 0, 1);
  if (name->len == 0)
    g_string_append (name, "driveduel");
  return g_string_free (name, FALSE);
}

/* --- the export ------------------------------------------------------------- */

typedef struct
{
  DuelComparison         *comparison;
  char                   *folder;
  DuelChartExportOptions  options;
} ExportData;

static void
export_data_free (ExportData *data)
{
  g_clear_object (&data->comparison);
  g_free (data->folder);
  g_free (data);
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ExportData *data = task_data;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  GError *error = NULL;

  if (!duel_chart_export_all (data->comparison, data->folder, &data->options, files, &error))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&files), (GDestroyNotify) g_ptr_array_unref);
}

static void
replace_response_cb (DuelAlert  *alert,
                     const char *response,
                     gpointer    user_data)
{
  g_autoptr(DuelExportDialog) self = user_data;

  if (g_strcmp0 (response, "replace") == 0)
    {
      self->replace_agreed = TRUE;
      duel_export_dialog_export (self);
      return;
    }
  /* Back to the choices: another folder, or other formats. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), TRUE);
  gtk_stack_set_visible_child_name (self->stack, "options");
}

/* Files in the way: the exporter named them; the person decides. */
static void
ask_to_replace (DuelExportDialog *self,
                const GError     *error)
{
  GtkWidget *alert = duel_alert_new (_("Replace Files?"), error->message);

  duel_alert_add_responses (DUEL_ALERT (alert),
                            "cancel", _("_Cancel"),
                            "replace", _("_Replace"),
                            NULL);
  duel_alert_set_response_appearance (DUEL_ALERT (alert), "replace", ADW_RESPONSE_DESTRUCTIVE);
  duel_alert_set_default_response (DUEL_ALERT (alert), "cancel");
  duel_alert_set_close_response (DUEL_ALERT (alert), "cancel");
  g_signal_connect (alert, "response", G_CALLBACK (replace_response_cb), g_object_ref (self));
  duel_alert_present (DUEL_ALERT (alert), GTK_WIDGET (self));
}

static void
export_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  DuelExportDialog *self = DUEL_EXPORT_DIALOG (object);
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;

  files = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (g_error_matches (error, DUEL_ERROR, DUEL_ERROR_EXISTS) && !self->replace_agreed)
    {
      ask_to_replace (self, error);
      return;
    }
  self->replace_agreed = FALSE;

  gtk_button_set_label (self->cancel_button, _("_Close"));
  if (files == NULL)
    {
      adw_status_page_set_icon_name (self->done_page, "dialog-error-symbolic");
      adw_status_page_set_title (self->done_page, _("Export Failed"));
      adw_status_page_set_description (self->done_page, error->message);
      gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), TRUE);
      gtk_stack_set_visible_child_name (self->stack, "done");
      g_signal_emit (self, signals[DONE], 0, FALSE);
      return;
    }

  g_clear_pointer (&self->files, g_ptr_array_unref);
  self->files = g_steal_pointer (&files);

  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u File Exported", "%u Files Exported",
                                        self->files->len),
                           self->files->len);
  adw_status_page_set_title (self->done_page, title);
  adw_status_page_set_description (self->done_page, self->folder);
  gtk_widget_set_visible (GTK_WIDGET (self->export_button), FALSE);
  gtk_stack_set_visible_child_name (self->stack, "done");
  g_signal_emit (self, signals[DONE], 0, TRUE);
}

static void
save_choices (DuelExportDialog *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) nicks = NULL;
  DuelChartExportFormats formats = duel_export_dialog_get_formats (self);

  for (guint i = 0; i < G_N_ELEMENTS (format_nicks); i++)
    if (formats & format_nicks[i].format)
      g_strv_builder_add (builder, format_nicks[i].nick);
  nicks = g_strv_builder_end (builder);

  g_settings_delay (self->settings);
  g_settings_set_strv (self->settings, "export-formats", (const char * const *) nicks);
  g_settings_set_uint (self->settings, "export-width", gtk_spin_button_get_value_as_int (self->width_spin));
  g_settings_set_uint (self->settings, "export-height", gtk_spin_button_get_value_as_int (self->height_spin));
  g_settings_set_double (self->settings, "export-scale", gtk_spin_button_get_value (self->scale_spin));
  g_settings_apply (self->settings);
}

void
duel_export_dialog_export (DuelExportDialog *self)
{
  g_autoptr(GTask) task = NULL;
  ExportData *data;

  g_return_if_fail (DUEL_IS_EXPORT_DIALOG (self));

  if (self->folder == NULL || duel_export_dialog_get_formats (self) == 0)
    return;

  save_choices (self);

  data = g_new0 (ExportData, 1);
  data->comparison = g_object_ref (self->comparison);
  data->folder = g_strdup (self->folder);
  duel_chart_export_options_init (&data->options);
  data->options.width = gtk_spin_button_get_value (self->width_spin);
  data->options.height = gtk_spin_button_get_value (self->height_spin);
  data->options.scale = gtk_spin_button_get_value (self->scale_spin);
  data->options.formats = duel_export_dialog_get_formats (self);
  data->options.theme = adw_combo_row_get_selected (self->style_row) == 1 ? DUEL_CHART_THEME_DARK
                                                                          : DUEL_CHART_THEME_LIGHT;
  data->options.write_flags = self->replace_agreed ? DUEL_WRITE_REPLACE_ANY : 0;

  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), FALSE);
  gtk_stack_set_visible_child_name (self->stack, "busy");

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  task = duel_task_new (self, self->cancellable, export_cb, NULL);
  g_task_set_source_tag (task, duel_export_dialog_export);
  g_task_set_task_data (task, data, (GDestroyNotify) export_data_free);
  duel_task_run_in_thread (task, export_thread);
}

/* --- callbacks -------------------------------------------------------------- */

static void
export_clicked_cb (DuelExportDialog *self)
{
  duel_export_dialog_export (self);
}

static void
cancel_clicked_cb (DuelExportDialog *self)
{
  gtk_window_close (GTK_WINDOW (self));
}

static void
folder_response_cb (GtkNativeDialog *chooser,
                    int              response,
                    gpointer         user_data)
{
  g_autoptr(DuelExportDialog) self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        duel_export_dialog_set_folder (self, path);
    }
  g_object_unref (chooser);
}

static void
folder_clicked_cb (DuelExportDialog *self)
{
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Export To"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                         _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (folder_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_folder_clicked_cb (DuelExportDialog *self)
{
  g_autoptr(GFile) folder = g_file_new_for_path (self->folder);
  g_autofree char *uri = g_file_get_uri (folder);

  gtk_show_uri (GTK_WINDOW (self), uri, GDK_CURRENT_TIME);
}

/* --- GObject ---------------------------------------------------------------- */

static void
duel_export_dialog_dispose (GObject *object)
{
  DuelExportDialog *self = DUEL_EXPORT_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  /* The bin (or window) disposes its child; disposing the template too would unparent it twice. */
  g_clear_object (&self->comparison);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (duel_export_dialog_parent_class)->dispose (object);
}

static void
duel_export_dialog_finalize (GObject *object)
{
  DuelExportDialog *self = DUEL_EXPORT_DIALOG (object);

  g_clear_pointer (&self->folder, g_free);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (duel_export_dialog_parent_class)->finalize (object);
}

static void
duel_export_dialog_class_init (DuelExportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = duel_export_dialog_dispose;
  object_class->finalize = duel_export_dialog_finalize;

  /**
   * DuelExportDialog::done:
   * @success: whether every file was written
   */
  signals[DONE] =
    g_signal_new ("done", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/driveduel/DriveDuel/duel-export-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, export_button);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, png_check);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, svg_check);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, pdf_check);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, csv_check);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, md_check);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, fio_check);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, width_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, height_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, scale_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, style_row);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, folder_row);
  gtk_widget_class_bind_template_child (widget_class, DuelExportDialog, done_page);
  gtk_widget_class_bind_template_callback (widget_class, export_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, folder_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, open_folder_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
duel_export_dialog_init (DuelExportDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint i = 0; i < G_N_ELEMENTS (format_nicks); i++)
    g_signal_connect_object (check_for (self, format_nicks[i].format), "toggled",
                             G_CALLBACK (update_export_button), self, G_CONNECT_SWAPPED);
}

DuelExportDialog *
duel_export_dialog_new (GtkWindow      *parent,
                        DuelComparison *comparison,
                        GSettings      *settings)
{
  DuelExportDialog *self;
  g_auto(GStrv) nicks = NULL;
  g_autofree char *style = NULL;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;
  g_autofree char *folder = NULL;
  DuelChartExportFormats formats = 0;

  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (DUEL_TYPE_EXPORT_DIALOG, "transient-for", parent, NULL);
  self->comparison = g_object_ref (comparison);
  self->settings = g_object_ref (settings);

  nicks = g_settings_get_strv (settings, "export-formats");
  for (guint i = 0; i < G_N_ELEMENTS (format_nicks); i++)
    if (g_strv_contains ((const char * const *) nicks, format_nicks[i].nick))
      formats |= format_nicks[i].format;
  duel_export_dialog_set_formats (self, formats);

  gtk_spin_button_set_value (self->width_spin, g_settings_get_uint (settings, "export-width"));
  gtk_spin_button_set_value (self->height_spin, g_settings_get_uint (settings, "export-height"));
  gtk_spin_button_set_value (self->scale_spin, g_settings_get_double (settings, "export-scale"));

  /* Exports default to the article style unless the window's charts are set to dark. */
  style = g_settings_get_string (settings, "chart-style");
  adw_combo_row_set_selected (self->style_row, g_strcmp0 (style, "dark") == 0 ? 1 : 0);

  base = duel_preferences_get_results_folder (settings);
  name = default_folder_name (comparison);
  folder = g_build_filename (base, name, NULL);
  duel_export_dialog_set_folder (self, folder);
  return self;
}
