/* duel-drives-view.c — the drives and file targets to choose from
 *
 * Block devices come from the device layer's sysfs enumeration, read in a
 * worker thread; file targets are remembered in GSettings, and the scratch
 * file in the cache folder (the CLI's default target) is always offered.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-accessible.h"
#include "duel-drives-view.h"
#include "duel-system.h"

#define TEMPERATURE_POLL_SECONDS 5

struct _DuelDrivesView
{
  AdwBin          parent_instance;

  GSettings      *settings;
  GListStore     *devices;          /* DuelDriveItem of block devices */
  GListStore     *files;            /* DuelDriveItem of file targets */
  GListModel     *model;            /* both */
  DuelDriveItem  *selected;
  GtkCheckButton *group_button;     /* the radio group's first button */
  GCancellable   *cancellable;
  guint           temperature_id;

  /* Template children */
  AdwPreferencesGroup *group;
  GtkListBox          *list;
  GtkLabel            *status_label;
};

G_DEFINE_FINAL_TYPE (DuelDrivesView, duel_drives_view, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_SELECTED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
scratch_path (void)
{
  return g_build_filename (g_get_user_cache_dir (), "driveduel", "scratch.img", NULL);
}

static void
check_toggled_cb (GtkCheckButton *button,
                  DuelDrivesView *self)
{
  DuelDriveItem *item = g_object_get_data (G_OBJECT (button), "duel-drive-item");

  if (gtk_check_button_get_active (button))
    duel_drives_view_set_selected (self, item);
}

static GtkWidget *
create_row_cb (gpointer item,
               gpointer user_data)
{
  DuelDrivesView *self = user_data;
  DuelDriveItem *drive = item;
  GtkWidget *row, *check, *icon;

  row = adw_action_row_new ();
  g_object_bind_property (drive, "title", row, "title", G_BINDING_SYNC_CREATE);
  g_object_bind_property (drive, "subtitle", row, "subtitle", G_BINDING_SYNC_CREATE);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
  /* A file on tmpfs, NFS, ZFS…: what it measures, on the row ("⚠" in its subtitle). */
  if (duel_drive_item_get_filesystem_note (drive) != NULL)
    gtk_widget_set_tooltip_text (row, duel_drive_item_get_filesystem_note (drive));

  check = gtk_check_button_new ();
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  g_object_set_data_full (G_OBJECT (check), "duel-drive-item", g_object_ref (drive), g_object_unref);
  if (self->group_button != NULL)
    gtk_check_button_set_group (GTK_CHECK_BUTTON (check), self->group_button);
  else
    g_set_weak_pointer (&self->group_button, GTK_CHECK_BUTTON (check));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), drive == self->selected);
  g_signal_connect_object (check, "toggled", G_CALLBACK (check_toggled_cb), self, 0);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);

  icon = gtk_image_new_from_icon_name (duel_drive_item_get_icon_name (drive));
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);

  if (duel_drive_item_is_in_use (drive))
    {
      GtkWidget *badge = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      const char *why = _("In use: mounted, swap or held by another device. Runs are refused.");

      gtk_widget_set_tooltip_text (badge, why);
      /* Rows come after the window is on screen, on a page maybe hidden. */
      duel_accessible_set_name (badge, why);
      gtk_widget_add_css_class (badge, "warning");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), badge);
    }

  return row;
}

static void
remember_files (DuelDrivesView *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *scratch = scratch_path ();
  g_auto(GStrv) paths = NULL;
  guint n;

  if (self->settings == NULL)
    return;

  n = g_list_model_get_n_items (G_LIST_MODEL (self->files));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DuelDriveItem) item = g_list_model_get_item (G_LIST_MODEL (self->files), i);

      if (g_strcmp0 (duel_drive_item_get_path (item), scratch) != 0)
        g_strv_builder_add (builder, duel_drive_item_get_path (item));
    }
  paths = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "file-targets", (const char * const *) paths);
}

static DuelDriveItem *
find_file (DuelDrivesView *self,
           const char     *path)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->files));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DuelDriveItem) item = g_list_model_get_item (G_LIST_MODEL (self->files), i);

      if (g_strcmp0 (duel_drive_item_get_path (item), path) == 0)
        return item;
    }
  return NULL;
}

/* The size a new file target is made at (Preferences). */
static guint64
new_file_size (DuelDrivesView *self)
{
  return self->settings != NULL ? g_settings_get_uint64 (self->settings, "file-target-size")
                                : G_GUINT64_CONSTANT (1) << 30;
}

static DuelDriveItem *
append_file (DuelDrivesView *self,
             const char     *path)
{
  g_autoptr(DuelDriveItem) item = duel_drive_item_new_for_file (path, new_file_size (self));

  g_list_store_append (self->files, item);
  return item;
}

static void
load_files (DuelDrivesView *self)
{
  g_autofree char *scratch = scratch_path ();
  g_autoptr(DuelDriveItem) scratch_item = NULL;
  g_auto(GStrv) paths = NULL;

  g_list_store_remove_all (self->files);
  scratch_item = duel_drive_item_new_for_scratch (scratch, new_file_size (self));
  g_list_store_append (self->files, scratch_item);

  if (self->settings == NULL)
    return;
  paths = g_settings_get_strv (self->settings, "file-targets");
  for (guint i = 0; paths[i] != NULL; i++)
    if (find_file (self, paths[i]) == NULL)
      append_file (self, paths[i]);
}

/* The serial number of @item's drive, "" for a file or a drive without one. */
static const char *
target_serial (DuelDriveItem *item)
{
  DuelDevice *device = duel_drive_item_get_device (item);
  const char *serial = device != NULL ? duel_device_get_serial (device) : NULL;

  return serial != NULL ? serial : "";
}

/* The target chosen when the app last closed, once it is listed: a file
 * by its path, a drive by its path and serial number (after a restart a
 * device path can name another drive, which is not chosen for the person). */
static void
restore_target (DuelDrivesView *self)
{
  g_autofree char *path = NULL;
  g_autofree char *serial = NULL;
  guint n;

  if (self->settings == NULL || self->selected != NULL)
    return;
  path = g_settings_get_string (self->settings, "target");
  serial = g_settings_get_string (self->settings, "target-serial");
  if (*path == '\0')
    return;

  n = g_list_model_get_n_items (self->model);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DuelDriveItem) item = g_list_model_get_item (self->model, i);

      if (g_strcmp0 (duel_drive_item_get_path (item), path) != 0)
        continue;
      if (duel_drive_item_get_kind (item) == DUEL_TARGET_KIND_BLOCK &&
          g_strcmp0 (target_serial (item), serial) != 0)
        return;
      duel_drives_view_set_selected (self, item);
      return;
    }
}

/* --- block devices ---------------------------------------------------------- */

static gboolean
is_candidate (DuelDevice *device)
{
  DuelTransport transport = duel_device_get_transport (device);

  /* An unattached loop device or an unused zram slot has no size. */
  if (duel_device_get_size_bytes (device) == 0 || duel_device_get_read_only (device))
    return FALSE;
  /* Device-mapper and md devices are views of other drives. */
  if (transport == DUEL_TRANSPORT_DM || transport == DUEL_TRANSPORT_MD)
    return FALSE;
  return TRUE;
}

static void
enumerate_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  GError *error = NULL;
  GPtrArray *devices = duel_device_enumerate ("/", &error);

  if (devices == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, devices, (GDestroyNotify) g_ptr_array_unref);
}

static void
enumerate_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  DuelDrivesView *self = DUEL_DRIVES_VIEW (object);
  g_autoptr(GPtrArray) devices = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *selected_path = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  devices = g_task_propagate_pointer (G_TASK (result), &error);
  if (devices == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      gtk_label_set_text (self->status_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
      return;
    }

  for (guint i = 0; i < devices->len; i++)
    if (is_candidate (g_ptr_array_index (devices, i)))
      g_ptr_array_add (items, duel_drive_item_new_for_device (g_ptr_array_index (devices, i)));

  if (self->selected != NULL && duel_drive_item_get_kind (self->selected) == DUEL_TARGET_KIND_BLOCK)
    selected_path = g_strdup (duel_drive_item_get_path (self->selected));

  g_list_store_splice (self->devices, 0, g_list_model_get_n_items (G_LIST_MODEL (self->devices)),
                       items->pdata, items->len);

  /* Keep the same drive selected across a refresh. */
  if (selected_path != NULL)
    {
      DuelDriveItem *again = NULL;

      for (guint i = 0; i < items->len; i++)
        if (g_strcmp0 (duel_drive_item_get_path (g_ptr_array_index (items, i)), selected_path) == 0)
          again = g_ptr_array_index (items, i);
      duel_drives_view_set_selected (self, again);
    }

  restore_target (self);

  if (items->len == 0)
    {
      gtk_label_set_text (self->status_label,
                          _("No drive can be benchmarked here. File targets work anywhere."));
      gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->status_label), FALSE);
}

void
duel_drives_view_refresh (DuelDrivesView *self)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (DUEL_IS_DRIVES_VIEW (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  task = duel_task_new (self, self->cancellable, enumerate_cb, NULL);
  g_task_set_source_tag (task, duel_drives_view_refresh);
  duel_task_run_in_thread (task, enumerate_thread);
}

static void
refresh_clicked_cb (DuelDrivesView *self)
{
  duel_drives_view_refresh (self);
}

static gboolean
poll_temperatures_cb (gpointer user_data)
{
  DuelDrivesView *self = user_data;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->devices));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DuelDriveItem) item = g_list_model_get_item (G_LIST_MODEL (self->devices), i);
      duel_drive_item_refresh_temperature (item);
    }
  return G_SOURCE_CONTINUE;
}

/* --- file targets ----------------------------------------------------------- */

static void
choose_response_cb (GtkNativeDialog *chooser,
                    int              response,
                    gpointer         user_data)
{
  DuelDrivesView *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        duel_drives_view_add_file (self, path);
    }

  g_object_unref (chooser);
  g_object_unref (self);
}

void
duel_drives_view_choose_file (DuelDrivesView *self)
{
  GtkFileChooserNative *chooser;
  GtkRoot *root;
  g_autoptr(GFile) folder = NULL;

  g_return_if_fail (DUEL_IS_DRIVES_VIEW (self));

  root = gtk_widget_get_root (GTK_WIDGET (self));
  /* Save mode: the user names a new file; it is created at the configured size. */
  chooser = gtk_file_chooser_native_new (_("New File Target"),
                                         GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Add"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "driveduel-target.img");
  folder = g_file_new_for_path (g_get_home_dir ());
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);

  g_signal_connect (chooser, "response", G_CALLBACK (choose_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
duel_drives_view_choose_existing_file (DuelDrivesView *self)
{
  GtkFileChooserNative *chooser;
  GtkRoot *root;

  g_return_if_fail (DUEL_IS_DRIVES_VIEW (self));

  root = gtk_widget_get_root (GTK_WIDGET (self));
  /* Open mode: the file is used as it is; nothing asks to replace it. */
  chooser = gtk_file_chooser_native_new (_("Use an Existing File"),
                                         GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Use"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (choose_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

DuelDriveItem *
duel_drives_view_add_file (DuelDrivesView *self,
                           const char     *path)
{
  DuelDriveItem *item;

  g_return_val_if_fail (DUEL_IS_DRIVES_VIEW (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  item = find_file (self, path);
  if (item == NULL)
    {
      item = append_file (self, path);
      remember_files (self);
    }
  duel_drives_view_set_selected (self, item);
  return item;
}

/* --- selection -------------------------------------------------------------- */

DuelDriveItem *
duel_drives_view_get_selected (DuelDrivesView *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVES_VIEW (self), NULL);
  return self->selected;
}

void
duel_drives_view_set_selected (DuelDrivesView *self,
                               DuelDriveItem  *item)
{
  g_return_if_fail (DUEL_IS_DRIVES_VIEW (self));
  g_return_if_fail (item == NULL || DUEL_IS_DRIVE_ITEM (item));

  if (!g_set_object (&self->selected, item))
    return;
  /* Chosen again at the next start; a drive gone for now stays remembered. */
  if (item != NULL && self->settings != NULL)
    {
      g_settings_set_string (self->settings, "target", duel_drive_item_get_path (item));
      g_settings_set_string (self->settings, "target-serial", target_serial (item));
    }

  /* Reflect the choice in the radio buttons. */
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *check;

      if (!ADW_IS_ACTION_ROW (row))
        continue;
      check = adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row));
      if (GTK_IS_CHECK_BUTTON (check))
        {
          DuelDriveItem *drive = g_object_get_data (G_OBJECT (check), "duel-drive-item");

          if (drive == item)
            gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
          else if (item == NULL)
            gtk_check_button_set_active (GTK_CHECK_BUTTON (check), FALSE);
        }
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

GListModel *
duel_drives_view_get_model (DuelDrivesView *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVES_VIEW (self), NULL);
  return self->model;
}

void
duel_drives_view_set_settings (DuelDrivesView *self,
                               GSettings      *settings)
{
  g_return_if_fail (DUEL_IS_DRIVES_VIEW (self));

  if (!g_set_object (&self->settings, settings))
    return;
  load_files (self);
  restore_target (self);
}

/* --- GObject ---------------------------------------------------------------- */

static void
duel_drives_view_map (GtkWidget *widget)
{
  DuelDrivesView *self = DUEL_DRIVES_VIEW (widget);

  GTK_WIDGET_CLASS (duel_drives_view_parent_class)->map (widget);

  if (self->temperature_id == 0)
    self->temperature_id = g_timeout_add_seconds (TEMPERATURE_POLL_SECONDS, poll_temperatures_cb, self);
}

static void
duel_drives_view_unmap (GtkWidget *widget)
{
  DuelDrivesView *self = DUEL_DRIVES_VIEW (widget);

  g_clear_handle_id (&self->temperature_id, g_source_remove);

  GTK_WIDGET_CLASS (duel_drives_view_parent_class)->unmap (widget);
}

static void
duel_drives_view_dispose (GObject *object)
{
  DuelDrivesView *self = DUEL_DRIVES_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->temperature_id, g_source_remove);
  g_clear_weak_pointer (&self->group_button);

  /* The bin (or window) disposes its child; disposing the template too would unparent it twice. */

  G_OBJECT_CLASS (duel_drives_view_parent_class)->dispose (object);
}

static void
duel_drives_view_finalize (GObject *object)
{
  DuelDrivesView *self = DUEL_DRIVES_VIEW (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->devices);
  g_clear_object (&self->files);
  g_clear_object (&self->model);
  g_clear_object (&self->selected);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (duel_drives_view_parent_class)->finalize (object);
}

static void
duel_drives_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  DuelDrivesView *self = DUEL_DRIVES_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED:
      g_value_set_object (value, self->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_drives_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  DuelDrivesView *self = DUEL_DRIVES_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED:
      duel_drives_view_set_selected (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_drives_view_class_init (DuelDrivesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = duel_drives_view_dispose;
  object_class->finalize = duel_drives_view_finalize;
  object_class->get_property = duel_drives_view_get_property;
  object_class->set_property = duel_drives_view_set_property;
  widget_class->map = duel_drives_view_map;
  widget_class->unmap = duel_drives_view_unmap;

  properties[PROP_SELECTED] =
    g_param_spec_object ("selected", NULL, NULL, DUEL_TYPE_DRIVE_ITEM,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/driveduel/DriveDuel/duel-drives-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DuelDrivesView, group);
  gtk_widget_class_bind_template_child (widget_class, DuelDrivesView, list);
  gtk_widget_class_bind_template_child (widget_class, DuelDrivesView, status_label);
  gtk_widget_class_bind_template_callback (widget_class, refresh_clicked_cb);
}

static void
duel_drives_view_init (DuelDrivesView *self)
{
  GListStore *parts;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->devices = g_list_store_new (DUEL_TYPE_DRIVE_ITEM);
  self->files = g_list_store_new (DUEL_TYPE_DRIVE_ITEM);
  parts = g_list_store_new (G_TYPE_LIST_MODEL);
  g_list_store_append (parts, self->devices);
  g_list_store_append (parts, self->files);
  self->model = G_LIST_MODEL (gtk_flatten_list_model_new (G_LIST_MODEL (parts)));

  gtk_list_box_bind_model (self->list, self->model, create_row_cb, self, NULL);
  load_files (self);
}
