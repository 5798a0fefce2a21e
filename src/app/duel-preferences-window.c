/* duel-preferences-window.c — results folder, chart style, default interval
 *
 * Every control writes through to GSettings at once, as GNOME preferences do.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-preferences-window.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

struct _DuelPreferencesWindow
{
#if DUEL_ADW_DIALOGS
  AdwPreferencesDialog  parent_instance;
#else
  AdwPreferencesWindow  parent_instance;
#endif

  GSettings            *settings;

  /* Template children */
  AdwActionRow         *folder_row;
  AdwComboRow          *style_row;
  AdwComboRow          *units_row;
  GtkSpinButton        *interval_spin;
  GtkSpinButton        *file_size_spin;
};

#if DUEL_ADW_DIALOGS
G_DEFINE_FINAL_TYPE (DuelPreferencesWindow, duel_preferences_window, ADW_TYPE_PREFERENCES_DIALOG)
#else
G_DEFINE_FINAL_TYPE (DuelPreferencesWindow, duel_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)
#endif

static const char * const style_nicks[] = { "auto", "light", "dark" };

char *
duel_preferences_get_results_folder (GSettings *settings)
{
  g_autofree char *folder = g_settings_get_string (settings, "results-folder");
  const char *documents;

  if (folder != NULL && *folder != '\0')
    return g_steal_pointer (&folder);

  documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  return g_build_filename (documents != NULL ? documents : g_get_home_dir (), "Drive Duel", NULL);
}

static void
update_folder_row (DuelPreferencesWindow *self)
{
  g_autofree char *folder = duel_preferences_get_results_folder (self->settings);

  adw_action_row_set_subtitle (self->folder_row, folder);
}

static void
folder_response_cb (GtkNativeDialog *chooser,
                    int              response,
                    gpointer         user_data)
{
  g_autoptr(DuelPreferencesWindow) self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        g_settings_set_string (self->settings, "results-folder", path);
    }
  g_object_unref (chooser);
}

static void
folder_clicked_cb (DuelPreferencesWindow *self)
{
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Results Folder"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                         _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (folder_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
folder_reset_clicked_cb (DuelPreferencesWindow *self)
{
  g_settings_reset (self->settings, "results-folder");
}

static void
style_selected_cb (DuelPreferencesWindow *self)
{
  guint selected = adw_combo_row_get_selected (self->style_row);

  if (selected < G_N_ELEMENTS (style_nicks))
    g_settings_set_string (self->settings, "chart-style", style_nicks[selected]);
}

/* In the order of the row's items (and DuelRateUnit). */
static const char * const unit_nicks[] = { "mb", "mib", "gb" };

static void
units_selected_cb (DuelPreferencesWindow *self)
{
  guint selected = adw_combo_row_get_selected (self->units_row);

  if (selected < G_N_ELEMENTS (unit_nicks))
    g_settings_set_string (self->settings, "rate-unit", unit_nicks[selected]);
}

static void
file_size_changed_cb (DuelPreferencesWindow *self)
{
  double gib = gtk_spin_button_get_value (self->file_size_spin);

  g_settings_set_uint64 (self->settings, "file-target-size", (guint64) (gib * GIB));
}

static void
duel_preferences_window_dispose (GObject *object)
{
  DuelPreferencesWindow *self = DUEL_PREFERENCES_WINDOW (object);

  /* The bin (or window) disposes its child; disposing the template too would unparent it twice. */
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (duel_preferences_window_parent_class)->dispose (object);
}

static void
duel_preferences_window_class_init (DuelPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = duel_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/driveduel/DriveDuel/duel-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DuelPreferencesWindow, folder_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPreferencesWindow, style_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPreferencesWindow, units_row);
  gtk_widget_class_bind_template_child (widget_class, DuelPreferencesWindow, interval_spin);
  gtk_widget_class_bind_template_child (widget_class, DuelPreferencesWindow, file_size_spin);
  gtk_widget_class_bind_template_callback (widget_class, folder_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, folder_reset_clicked_cb);
}

static void
duel_preferences_window_init (DuelPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
#if DUEL_ADW_DIALOGS
  adw_dialog_set_content_width (ADW_DIALOG (self), 560);
  adw_dialog_set_content_height (ADW_DIALOG (self), 520);
#else
  gtk_window_set_default_size (GTK_WINDOW (self), 560, 520);
#endif
}

DuelPreferencesWindow *
duel_preferences_window_new (GSettings *settings)
{
  DuelPreferencesWindow *self;
  g_autofree char *style = NULL;
  g_autofree char *units = NULL;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (DUEL_TYPE_PREFERENCES_WINDOW, NULL);
  self->settings = g_object_ref (settings);

  style = g_settings_get_string (settings, "chart-style");
  for (guint i = 0; i < G_N_ELEMENTS (style_nicks); i++)
    if (g_strcmp0 (style, style_nicks[i]) == 0)
      adw_combo_row_set_selected (self->style_row, i);
  g_signal_connect_object (self->style_row, "notify::selected",
                           G_CALLBACK (style_selected_cb), self, G_CONNECT_SWAPPED);

  units = g_settings_get_string (settings, "rate-unit");
  for (guint i = 0; i < G_N_ELEMENTS (unit_nicks); i++)
    if (g_strcmp0 (units, unit_nicks[i]) == 0)
      adw_combo_row_set_selected (self->units_row, i);
  g_signal_connect_object (self->units_row, "notify::selected",
                           G_CALLBACK (units_selected_cb), self, G_CONNECT_SWAPPED);

  g_settings_bind (settings, "default-interval-ms",
                   gtk_spin_button_get_adjustment (self->interval_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);

  gtk_spin_button_set_value (self->file_size_spin,
                             g_settings_get_uint64 (settings, "file-target-size") / GIB);
  g_signal_connect_object (self->file_size_spin, "value-changed",
                           G_CALLBACK (file_size_changed_cb), self, G_CONNECT_SWAPPED);

  update_folder_row (self);
  g_signal_connect_object (settings, "changed::results-folder",
                           G_CALLBACK (update_folder_row), self, G_CONNECT_SWAPPED);
  return self;
}
