/* duel-confirm-dialog.c — "this erases the drive" (or "the file's contents"): the user types its name to go on
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "duel-confirm-dialog.h"
#include "duel-size.h"

struct _DuelConfirmDialog
{
  DuelAlert  parent_instance;

  GtkWidget *entry;
  char      *expected;
};

#if DUEL_ADW_DIALOGS
G_DEFINE_FINAL_TYPE (DuelConfirmDialog, duel_confirm_dialog, ADW_TYPE_ALERT_DIALOG)
#else
G_DEFINE_FINAL_TYPE (DuelConfirmDialog, duel_confirm_dialog, ADW_TYPE_MESSAGE_DIALOG)
#endif

static void
entry_changed_cb (DuelConfirmDialog *self,
                  GtkEditable       *entry)
{
  const char *text = gtk_editable_get_text (entry);
  g_autofree char *stripped = g_strstrip (g_strdup (text));

  duel_alert_set_response_enabled (DUEL_ALERT (self), DUEL_CONFIRM_RESPONSE_ERASE,
                                   g_strcmp0 (stripped, self->expected) == 0);
}

static void
entry_activate_cb (DuelConfirmDialog *self,
                   GtkEntry          *entry)
{
  /* Answers once and closes; nothing while the name is not typed. */
  duel_alert_respond (DUEL_ALERT (self), DUEL_CONFIRM_RESPONSE_ERASE);
}

static void
duel_confirm_dialog_finalize (GObject *object)
{
  DuelConfirmDialog *self = DUEL_CONFIRM_DIALOG (object);

  g_clear_pointer (&self->expected, g_free);

  G_OBJECT_CLASS (duel_confirm_dialog_parent_class)->finalize (object);
}

static void
duel_confirm_dialog_class_init (DuelConfirmDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = duel_confirm_dialog_finalize;
}

static void
duel_confirm_dialog_init (DuelConfirmDialog *self)
{
  DuelAlert *dialog = DUEL_ALERT (self);

  duel_alert_add_responses (dialog,
                            DUEL_CONFIRM_RESPONSE_CANCEL, _("_Cancel"),
                            DUEL_CONFIRM_RESPONSE_ERASE, _("_Erase and Run"),
                            NULL);
  duel_alert_set_response_appearance (dialog, DUEL_CONFIRM_RESPONSE_ERASE,
                                      ADW_RESPONSE_DESTRUCTIVE);
  duel_alert_set_response_enabled (dialog, DUEL_CONFIRM_RESPONSE_ERASE, FALSE);
  duel_alert_set_default_response (dialog, DUEL_CONFIRM_RESPONSE_CANCEL);
  duel_alert_set_close_response (dialog, DUEL_CONFIRM_RESPONSE_CANCEL);

  self->entry = gtk_entry_new ();
  gtk_widget_add_css_class (self->entry, "monospace");
  g_signal_connect_object (self->entry, "changed", G_CALLBACK (entry_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->entry, "activate", G_CALLBACK (entry_activate_cb), self, G_CONNECT_SWAPPED);
  duel_alert_set_extra_child (dialog, self->entry);
}

/* @what names the entry for a screen reader: what is typed in it. */
static DuelConfirmDialog *
create (const char *expected,
        const char *what)
{
  DuelConfirmDialog *self;

  self = g_object_new (DUEL_TYPE_CONFIRM_DIALOG, "body-use-markup", TRUE, NULL);
  self->expected = g_strdup (expected);
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->entry), expected);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, what,
                                  -1);
  return self;
}

/* An existing file: the run writes over what it holds, nothing else. */
static DuelConfirmDialog *
new_for_file (DuelDriveItem *drive,
              const char    *run_title)
{
  DuelConfirmDialog *self;
  g_autofree char *size = NULL;
  g_autofree char *body = NULL;
  g_autofree char *title = NULL;
  g_autofree char *path = NULL;
  g_autofree char *name = NULL;
  g_autofree char *run = NULL;

  self = create (duel_drive_item_get_confirm_name (drive), _("File name"));

  /* As the list of targets shows it: in the unit it was made in ("256 MiB"). */
  size = duel_format_size_as_given (duel_drive_item_get_size_bytes (drive));
  title = g_markup_escape_text (duel_drive_item_get_title (drive), -1);
  path = g_markup_escape_text (duel_drive_item_get_path (drive), -1);
  name = g_markup_escape_text (self->expected, -1);
  run = g_markup_escape_text (run_title != NULL ? run_title : _("The benchmark"), -1);

  duel_alert_format_heading (DUEL_ALERT (self), _("Overwrite %s?"),
                             duel_drive_item_get_title (drive));
  /* Translators: %1$s is the run ("Write Saturation"), then the file's name,
   * its path and its size; %5$s is what the user must type */
  body = g_strdup_printf (_("%1$s writes over the contents of this file: what it holds now is lost "
                            "for good. The file keeps its place and its size, and nothing else "
                            "on the drive is touched.\n\n"
                            "<b>%2$s</b>\n"
                            "Path: %3$s\n"
                            "Size: %4$s\n\n"
                            "To confirm, type the file name <b><tt>%5$s</tt></b> below."),
                          run, title, path, size, name);
  duel_alert_set_body (DUEL_ALERT (self), body);
  duel_alert_set_response_label (DUEL_ALERT (self), DUEL_CONFIRM_RESPONSE_ERASE,
                                 _("_Overwrite and Run"));
  return self;
}

DuelConfirmDialog *
duel_confirm_dialog_new (DuelDriveItem *drive,
                         const char    *run_title)
{
  DuelConfirmDialog *self;
  DuelDevice *device;
  g_autofree char *size = NULL;
  g_autofree char *body = NULL;
  g_autofree char *title = NULL;
  g_autofree char *path = NULL;
  g_autofree char *serial = NULL;
  g_autofree char *name = NULL;
  g_autofree char *run = NULL;

  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (drive), NULL);

  if (duel_drive_item_get_kind (drive) == DUEL_TARGET_KIND_FILE)
    return new_for_file (drive, run_title);

  device = duel_drive_item_get_device (drive);
  self = create (duel_drive_item_get_confirm_name (drive), _("Device name"));

  size = g_format_size (duel_drive_item_get_size_bytes (drive));
  title = g_markup_escape_text (duel_drive_item_get_title (drive), -1);
  path = g_markup_escape_text (duel_drive_item_get_path (drive), -1);
  serial = g_markup_escape_text (device != NULL && duel_device_get_serial (device) != NULL
                                 ? duel_device_get_serial (device) : _("unknown"), -1);
  name = g_markup_escape_text (self->expected, -1);
  run = g_markup_escape_text (run_title != NULL ? run_title : _("The benchmark"), -1);

  duel_alert_format_heading (DUEL_ALERT (self), _("Erase %s?"),
                             duel_drive_item_get_title (drive));
  /* Translators: %1$s is the run ("Write Saturation"), then the drive's model,
   * device path, serial number and size; %6$s is what the user must type */
  body = g_strdup_printf (_("%1$s writes over the whole drive and destroys everything on it — "
                            "files, partitions and filesystems:\n\n"
                            "<b>%2$s</b>\n"
                            "Device: %3$s\n"
                            "Serial number: %4$s\n"
                            "Size: %5$s\n\n"
                            "To confirm, type the device name <b><tt>%6$s</tt></b> below."),
                          run, title, path, serial, size, name);
  duel_alert_set_body (DUEL_ALERT (self), body);
  return self;
}

DuelConfirmDialog *
duel_confirm_dialog_new_for_signature (DuelDriveItem *drive,
                                       const char    *signature)
{
  DuelConfirmDialog *self;
  g_autofree char *body = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *path = NULL;
  g_autofree char *name = NULL;
  /* Translators: what the user types to confirm wiping a signature */
  const char *word = _("wipe");

  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (drive), NULL);
  g_return_val_if_fail (signature != NULL, NULL);

  /* Translators: names the entry the word to type goes in */
  self = create (word, _("Word to type"));
  escaped = g_markup_escape_text (signature, -1);
  path = g_markup_escape_text (duel_drive_item_get_path (drive), -1);
  name = g_markup_escape_text (word, -1);

  if (duel_drive_item_get_kind (drive) == DUEL_TARGET_KIND_FILE)
    {
      duel_alert_set_heading (DUEL_ALERT (self), _("The File Holds a Disk Image"));
      /* Translators: %1$s is the file's path, %2$s what was found in it ("a
       * signature of type ext4 (filesystem)"), %3$s the word to type */
      body = g_strdup_printf (_("%1$s holds <b>%2$s</b>: it looks like a disk image. The run writes "
                                "over it, and what the image holds is lost for good.\n\n"
                                "To overwrite it anyway, type <b><tt>%3$s</tt></b> below."),
                              path, escaped, name);
    }
  else
    {
      duel_alert_set_heading (DUEL_ALERT (self), _("The Drive Holds Data"));
      /* Translators: %1$s is the drive, %2$s what was found ("a signature of type
       * ext4 (filesystem)"), %3$s the word to type */
      body = g_strdup_printf (_("%1$s is not empty: it holds <b>%2$s</b>. The run destroys it for good.\n\n"
                                "To wipe it anyway, type <b><tt>%3$s</tt></b> below."),
                              path, escaped, name);
    }
  duel_alert_set_body (DUEL_ALERT (self), body);
  duel_alert_set_response_label (DUEL_ALERT (self), DUEL_CONFIRM_RESPONSE_ERASE,
                                 _("_Wipe and Run"));
  return self;
}

const char *
duel_confirm_dialog_get_expected_text (DuelConfirmDialog *self)
{
  g_return_val_if_fail (DUEL_IS_CONFIRM_DIALOG (self), NULL);
  return self->expected;
}

GtkEditable *
duel_confirm_dialog_get_entry (DuelConfirmDialog *self)
{
  g_return_val_if_fail (DUEL_IS_CONFIRM_DIALOG (self), NULL);
  return GTK_EDITABLE (self->entry);
}
