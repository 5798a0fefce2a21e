/* duel-window.c — the main window: drives, run, compare, history
 *
 * The window wires the views together and owns the run: it asks the
 * person what the run's safety check asks (duel_run_check_async()), starts
 * the DuelRun, inhibits suspend, and files the result in the history when
 * the run ends, whichever way it ends.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "duel-accessible.h"
#include "duel-adw-compat.h"
#include "duel-application.h"
#include "duel-chart-export.h"
#include "duel-comparison-view.h"
#include "duel-confirm-dialog.h"
#include "duel-drive-item.h"
#include "duel-drives-view.h"
#include "duel-error.h"
#include "duel-export-dialog.h"
#include "duel-made-files.h"
#include "duel-history-view.h"
#include "duel-presets-view.h"
#include "run/duel-run.h"
#include "duel-run-view.h"
#include "device/duel-safety.h"
#include "duel-window.h"

/* About what a toast shows whole in the narrowest window (360 px). */
#define TOAST_WHOLE_CHARS 48

struct _DuelWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  DuelHistory          *history;
  GListStore           *reference_store;   /* DuelResultItem */
  GListStore           *file_store;        /* DuelResultItem */
  GListModel           *sources;           /* all three, flattened */
  GCancellable         *cancellable;       /* loads; cancelled in dispose */

  DuelRun          *run_task;
  DuelDriveItem        *run_drive;         /* the last run's target, for Run Again */
  DuelResultItem       *run_item;          /* the last run's history entry, for Compare */
  gboolean              close_after_run;
  gboolean              show_every_step;  /* tests: each step waits until shown */
  guint                 n_loading;
  gboolean              initial_load_done;
  gboolean              files_opened;
  gboolean              page_chosen;
  gboolean              comparison_restored;   /* Compare's places are remembered from then on */
  GPtrArray            *pending_screenshots; /* GTask */

  /* Template children */
  AdwHeaderBar         *header_bar;
  AdwToastOverlay      *toast_overlay;
  AdwViewStack         *stack;
  AdwViewStackPage     *run_page;
  AdwViewSwitcherBar   *switcher_bar;
  GtkButton            *export_button;
  DuelDrivesView       *drives_view;
  DuelPresetsView      *presets_view;
  DuelRunView          *run_view;
  DuelComparisonView   *comparison_view;
  DuelHistoryView      *history_view;
};

G_DEFINE_FINAL_TYPE (DuelWindow, duel_window, ADW_TYPE_APPLICATION_WINDOW)

static const char * const page_names[] = { "drives", "run", "compare", "history", NULL };

static void start_next_screenshot (DuelWindow *self);

/* --- loading ---------------------------------------------------------------- */

/* Whether @a and @b ran a test of the same name: a comparison of them has
 * rows, not only "no test in common". */
static gboolean
share_a_test (DuelResultItem *a,
              DuelResultItem *b)
{
  DuelResult *ra = duel_result_item_get_result (a);
  DuelResult *rb = duel_result_item_get_result (b);
  GPtrArray *tests;

  if (ra == NULL || rb == NULL)
    return FALSE;
  tests = duel_result_get_tests (ra);
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);

      if (duel_result_find_test (rb, record->name) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* The item of any list (references, history, opened files) for @path. */
static DuelResultItem *
find_source (DuelWindow *self,
             const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  guint n = g_list_model_get_n_items (self->sources);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DuelResultItem) item = g_list_model_get_item (self->sources, i);

      if (g_file_equal (duel_result_item_get_file (item), file))
        return item;   /* the list keeps its reference */
    }
  return NULL;
}

/* What Compare holds, a path per place ("" for none), for the next start. */
static void
remember_comparison (DuelWindow *self)
{
  const char *paths[DUEL_COMPARISON_MAX_DRIVES + 1] = { NULL, };
  char *owned[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };

  if (!self->comparison_restored || self->settings == NULL)
    return;
  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    {
      DuelResultItem *item = duel_comparison_view_get_item (self->comparison_view, slot);

      owned[slot] = item != NULL ? g_file_get_path (duel_result_item_get_file (item)) : NULL;
      paths[slot] = owned[slot] != NULL ? owned[slot] : "";
    }
  g_settings_set_strv (self->settings, "compared-results", paths);
  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    g_free (owned[slot]);
}

/* What was compared when the app last closed, if every drive of it is
 * still there and each shares a test with another (one drive alone is a
 * report on it). FALSE when there is nothing of that kind to show. */
static gboolean
restore_comparison (DuelWindow *self)
{
  g_auto(GStrv) paths = g_settings_get_strv (self->settings, "compared-results");
  DuelResultItem *items[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };
  guint n = 0;

  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES && paths[slot] != NULL; slot++)
    {
      if (*paths[slot] == '\0')
        continue;
      items[slot] = find_source (self, paths[slot]);
      if (items[slot] == NULL)
        return FALSE;
      n++;
    }
  if (n == 0)
    return FALSE;
  for (guint d = 0; n > 1 && d < DUEL_COMPARISON_MAX_DRIVES; d++)
    {
      gboolean shares = FALSE;

      for (guint e = 0; items[d] != NULL && e < DUEL_COMPARISON_MAX_DRIVES && !shares; e++)
        shares = e != d && items[e] != NULL && share_a_test (items[d], items[e]);
      if (items[d] != NULL && !shares)
        return FALSE;
    }

  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    duel_comparison_view_set_item (self->comparison_view, slot, items[slot]);
  return TRUE;
}

/* How many of the newest runs the start looks through for a pair: the
 * search stays short with years of history. */
#define PAIR_SEARCH_RUNS 100

/* The newest run that shares a test with another result, and the newest
 * of those (a run first, else a reference); the newest run alone when no
 * two share one. */
static void
choose_comparison (DuelWindow     *self,
                   DuelResultItem **out_a,
                   DuelResultItem **out_b)
{
  GListModel *history = duel_history_get_model (self->history);
  GListModel *references = G_LIST_MODEL (self->reference_store);
  guint n_history = MIN (g_list_model_get_n_items (history), PAIR_SEARCH_RUNS);
  guint n_references = g_list_model_get_n_items (references);

  *out_a = *out_b = NULL;
  for (guint i = 0; i < n_history; i++)
    {
      g_autoptr(DuelResultItem) run = g_list_model_get_item (history, i);

      for (guint j = 0; j < n_history + n_references; j++)
        {
          g_autoptr(DuelResultItem) other = j < n_history ? g_list_model_get_item (history, j)
                                                          : g_list_model_get_item (references, j - n_history);

          if (j != i && share_a_test (run, other))
            {
              *out_a = g_steal_pointer (&run);
              *out_b = g_steal_pointer (&other);
              return;
            }
        }
    }
  if (n_history > 0)
    *out_a = g_list_model_get_item (history, 0);
}

static void
apply_initial_comparison (DuelWindow *self)
{
  GListModel *history = duel_history_get_model (self->history);
  GListModel *references = G_LIST_MODEL (self->reference_store);
  gboolean no_runs = g_list_model_get_n_items (history) == 0;
  g_autoptr(DuelResultItem) a = NULL;
  g_autoptr(DuelResultItem) b = NULL;

  if (self->files_opened ||
      duel_comparison_view_get_item (self->comparison_view, 0) != NULL ||
      duel_comparison_view_get_item (self->comparison_view, 1) != NULL)
    goto done;

  if (!restore_comparison (self))
    {
      if (no_runs)
        {
          /* No runs yet: show what the review published. */
          if (g_list_model_get_n_items (references) > 0)
            a = g_list_model_get_item (references, 0);
          if (g_list_model_get_n_items (references) > 1)
            b = g_list_model_get_item (references, 1);
        }
      else
        choose_comparison (self, &a, &b);
      duel_comparison_view_set_item (self->comparison_view, 0, a);
      duel_comparison_view_set_item (self->comparison_view, 1, b);
    }

  /* Before the first run the app explains itself with what Compare shows. */
  if (no_runs && duel_comparison_view_get_comparison (self->comparison_view) != NULL && !self->page_chosen)
    adw_view_stack_set_visible_child_name (self->stack, "compare");

done:
  /* From now on, what Compare holds is what the next start shows. */
  self->comparison_restored = TRUE;
  remember_comparison (self);
}

static gboolean open_remembered_files (DuelWindow *self);

static void
loading_begin (DuelWindow *self)
{
  self->n_loading++;
}

static void
loading_end (DuelWindow *self)
{
  g_assert (self->n_loading > 0);

  if (--self->n_loading > 0)
    return;

  if (!self->initial_load_done)
    {
      self->initial_load_done = TRUE;
      /* Files opened last time, read before Compare shows them again. */
      if (open_remembered_files (self))
        return;
      apply_initial_comparison (self);
    }
  else if (!self->comparison_restored)
    apply_initial_comparison (self);

  start_next_screenshot (self);
}

static int
compare_reference_items (gconstpointer a,
                         gconstpointer b,
                         gpointer      user_data)
{
  return g_utf8_collate (duel_result_item_get_title ((DuelResultItem *) a),
                         duel_result_item_get_title ((DuelResultItem *) b));
}

static void
reference_loaded_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(DuelWindow) self = user_data;
  g_autoptr(DuelResultItem) item = NULL;
  g_autoptr(GError) error = NULL;

  item = duel_result_item_load_finish (result, &error);
  if (item != NULL)
    g_list_store_insert_sorted (self->reference_store, item, compare_reference_items, NULL);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("Skipping a reference result: %s", error->message);

  loading_end (self);
}

static void
load_references (DuelWindow *self)
{
  g_autofree char *path = duel_application_get_reference_dir ();
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    return;

  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (names, g_strdup (name));

  for (guint i = 0; i < names->len; i++)
    {
      g_autoptr(GFile) file = g_file_new_build_filename (path, g_ptr_array_index (names, i), NULL);

      loading_begin (self);
      duel_result_item_load_async (file, DUEL_RESULT_ORIGIN_REFERENCE, self->cancellable,
                                   reference_loaded_cb, g_object_ref (self));
    }
}

static void
history_loaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(DuelWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!duel_history_reload_finish (DUEL_HISTORY (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    duel_window_add_toast (self, error->message);

  loading_end (self);
}

/* An OpenData's slot for a file only read into the list (one Compare held
 * when the app last closed), quietly. */
#define NO_SLOT G_MAXUINT

typedef struct
{
  DuelWindow *self;
  guint       slot;
  AdwToast   *opening;   /* owned; "Opening …" while a large file loads */
} OpenData;

/* A file this large takes a second or more to read and check (about
 * 60 MB a second here): a toast says so until it is open. */
#define LARGE_FILE_BYTES (32 * 1000 * 1000)

static AdwToast *
show_opening (DuelWindow *self,
              GFile      *file)
{
  g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                                                 G_FILE_ATTRIBUTE_STANDARD_DISPLAY_NAME,
                                                 G_FILE_QUERY_INFO_NONE, NULL, NULL);
  g_autofree char *size = NULL;
  g_autofree char *text = NULL;
  g_autofree char *escaped = NULL;
  AdwToast *toast;

  if (info == NULL || g_file_info_get_size (info) < LARGE_FILE_BYTES)
    return NULL;
  size = g_format_size ((guint64) g_file_info_get_size (info));
  /* TRANSLATORS: shown while a large result file loads; %s are its name and size */
  text = g_strdup_printf (_("Opening %s (%s)…"), g_file_info_get_display_name (info), size);
  escaped = g_markup_escape_text (text, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, g_object_ref (toast));
  return toast;
}

static void
file_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  OpenData *data = user_data;
  g_autoptr(DuelWindow) self = data->self;
  g_autoptr(DuelResultItem) item = NULL;
  g_autoptr(GError) error = NULL;
  guint slot = data->slot;

  if (data->opening != NULL)
    {
      adw_toast_dismiss (data->opening);
      g_object_unref (data->opening);
    }
  g_free (data);

  item = duel_result_item_load_finish (result, &error);
  if (item == NULL)
    {
      if (slot == NO_SLOT)
        g_debug ("Not comparing a file again: %s", error->message);
      else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        duel_window_add_toast (self, error->message);
    }
  else
    {
      DuelResultItem *existing = NULL;
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->file_store));
      g_autoptr(DuelResultItem) history_item = NULL;

      /* A file of the history (dropped back in) stays the history's item. */
      history_item = duel_history_lookup (self->history, duel_result_item_get_file (item));
      if (history_item != NULL)
        g_object_ref (history_item);

      for (guint i = 0; history_item == NULL && i < n; i++)
        {
          g_autoptr(DuelResultItem) other = g_list_model_get_item (G_LIST_MODEL (self->file_store), i);

          if (g_file_equal (duel_result_item_get_file (other), duel_result_item_get_file (item)))
            {
              /* Reopened: refresh it in place. */
              duel_result_item_set_result (other, duel_result_item_get_result (item));
              existing = other;
              break;
            }
        }

      if (history_item != NULL)
        existing = history_item;
      else if (existing == NULL)
        {
          g_list_store_append (self->file_store, item);
          existing = item;
        }

      if (slot != NO_SLOT)
        {
          duel_comparison_view_set_item (self->comparison_view, slot, existing);
          adw_view_stack_set_visible_child_name (self->stack, "compare");
        }
    }

  loading_end (self);
}

/* Reads the files Compare held when the app last closed that are neither
 * runs nor references (opened ones); TRUE while they load. */
static gboolean
open_remembered_files (DuelWindow *self)
{
  g_auto(GStrv) paths = NULL;
  gboolean started = FALSE;

  if (self->files_opened || self->settings == NULL)
    return FALSE;
  paths = g_settings_get_strv (self->settings, "compared-results");
  for (guint i = 0; i < DUEL_COMPARISON_MAX_DRIVES && paths[i] != NULL; i++)
    {
      g_autoptr(GFile) file = NULL;
      OpenData *data;

      if (*paths[i] == '\0' || find_source (self, paths[i]) != NULL ||
          !g_file_test (paths[i], G_FILE_TEST_IS_REGULAR))
        continue;
      file = g_file_new_for_path (paths[i]);
      data = g_new0 (OpenData, 1);
      data->self = g_object_ref (self);
      data->slot = NO_SLOT;
      loading_begin (self);
      started = TRUE;
      duel_result_item_load_async (file, DUEL_RESULT_ORIGIN_FILE, self->cancellable,
                                   file_loaded_cb, data);
    }
  return started;
}

void
duel_window_open_files (DuelWindow  *self,
                        GFile      **files,
                        int          n_files)
{
  g_return_if_fail (DUEL_IS_WINDOW (self));

  if (n_files <= 0)
    return;

  self->files_opened = TRUE;

  for (int i = 0; i < MIN (n_files, DUEL_COMPARISON_MAX_DRIVES); i++)
    {
      OpenData *data = g_new0 (OpenData, 1);

      data->self = g_object_ref (self);
      /* One file fills the free side, else B; several are A, B, C and D.
       * A file that fails says so in a toast of its own. */
      if (n_files == 1)
        data->slot = duel_comparison_view_get_item (self->comparison_view, 0) == NULL ? 0 : 1;
      else
        data->slot = i;

      data->opening = show_opening (self, files[i]);
      loading_begin (self);
      duel_result_item_load_async (files[i], DUEL_RESULT_ORIGIN_FILE, self->cancellable,
                                   file_loaded_cb, data);
    }

  if (n_files > DUEL_COMPARISON_MAX_DRIVES)
    duel_window_add_toast (self, _("Only the first four files are compared."));
}

gboolean
duel_window_is_busy (DuelWindow *self)
{
  g_return_val_if_fail (DUEL_IS_WINDOW (self), FALSE);
  return self->n_loading > 0;
}

/* --- pages, toasts ---------------------------------------------------------- */

gboolean
duel_window_is_page_name (const char *name)
{
  return name != NULL && g_strv_contains (page_names, name);
}

void
duel_window_set_page (DuelWindow *self,
                      const char *name)
{
  g_return_if_fail (DUEL_IS_WINDOW (self));
  g_return_if_fail (duel_window_is_page_name (name));

  self->page_chosen = TRUE;
  adw_view_stack_set_visible_child_name (self->stack, name);
}

const char *
duel_window_get_page (DuelWindow *self)
{
  g_return_val_if_fail (DUEL_IS_WINDOW (self), NULL);
  return adw_view_stack_get_visible_child_name (self->stack);
}

void
duel_window_add_toast (DuelWindow *self,
                       const char *message)
{
  g_autofree char *escaped = NULL;
  AdwToast *toast;

  g_return_if_fail (DUEL_IS_WINDOW (self));
  g_return_if_fail (message != NULL);

  /* A toast's title is Pango markup in libadwaita 1.2: a message that
   * quotes a file ("<data>:1:5: …") must show as it is. */
  escaped = g_markup_escape_text (message, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, 5);
  /* A toast's title is one line and ends in "…" where the window is
   * narrower than the message: the whole of it is a button away. */
  if (g_utf8_strlen (message, -1) > TOAST_WHOLE_CHARS)
    {
      adw_toast_set_button_label (toast, _("_Details"));
      adw_toast_set_action_name (toast, "win.show-details");
      adw_toast_set_action_target_value (toast, g_variant_new_string (message));
      adw_toast_set_timeout (toast, 10);
    }
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
show_message (DuelWindow *self,
              const char *heading,
              const char *body)
{
  GtkWidget *dialog = duel_alert_new (heading, body);

  duel_alert_add_response (DUEL_ALERT (dialog), "close", _("_Close"));
  duel_alert_set_default_response (DUEL_ALERT (dialog), "close");
  duel_alert_set_close_response (DUEL_ALERT (dialog), "close");
  duel_alert_present (DUEL_ALERT (dialog), GTK_WIDGET (self));
}

static void
update_actions (DuelWindow *self)
{
  gboolean running = self->run_task != NULL && duel_run_is_running (self->run_task);
  gboolean can_export = duel_comparison_view_get_comparison (self->comparison_view) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.start-run",
                                 !running && duel_drives_view_get_selected (self->drives_view) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-run", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.run-again", !running && self->run_drive != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-run", !running && self->run_item != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export", can_export);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-comparison", can_export);
  duel_presets_view_set_running (self->presets_view, running);
  adw_view_stack_page_set_needs_attention (self->run_page, running);
}

/* --- the run ---------------------------------------------------------------- */

/* A run on its way to starting: the person answers what its check asks. */
typedef struct
{
  DuelWindow    *self;
  DuelDriveItem *drive;
  DuelRun       *task;
  char          *signature;   /* found on the device, for the second confirmation */
} StartRun;

static void
start_run_free (StartRun *start)
{
  g_clear_object (&start->self);
  g_clear_object (&start->drive);
  g_clear_object (&start->task);
  g_free (start->signature);
  g_free (start);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StartRun, start_run_free)

static void
send_notification (DuelWindow *self,
                   const char *title,
                   const char *body)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  g_autoptr(GNotification) notification = NULL;

  /* Notifications travel over the session bus; without one there is no one to tell. */
  if (app == NULL || g_application_get_dbus_connection (app) == NULL)
    return;

  notification = g_notification_new (title);
  g_notification_set_body (notification, body);
  g_notification_set_default_action_and_target (notification, "app.activate", NULL);
  g_application_send_notification (app, "run-finished", notification);
}

/* A run stopped during the trim has tests but no interval measured:
 * nothing to compare. */
static gboolean
result_has_measurements (DuelResult *result)
{
  GPtrArray *tests = duel_result_get_tests (result);

  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);

      if (duel_series_get_length (record->series) > 0)
        return TRUE;
    }
  return FALSE;
}

/* A new run never takes the place of a drive the person chose: it goes
 * into the first free place, else waits until they say which to replace
 * (Compare on the Run page). FALSE when all places are taken. */
static gboolean
place_in_comparison (DuelWindow     *self,
                     DuelResultItem *item)
{
  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    if (duel_comparison_view_get_item (self->comparison_view, slot) == NULL)
      {
        duel_comparison_view_set_item (self->comparison_view, slot, item);
        return TRUE;
      }
  return FALSE;
}

static void
run_finished_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(DuelWindow) self = user_data;
  DuelRun *task = DUEL_RUN (object);
  DuelApplication *app = DUEL_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  g_autoptr(GError) error = NULL;
  DuelResult *run_result;
  DuelResultItem *item = NULL;
  g_autofree char *message = NULL;
  gboolean placed = TRUE;
  gboolean ok;

  ok = duel_run_run_finish (task, result, &error);
  if (app != NULL)
    duel_application_uninhibit_suspend (app);

  run_result = duel_run_get_result (task);
  if (run_result != NULL)
    {
      item = duel_history_add (self->history, duel_run_get_result_path (task), run_result);
      if (item != NULL && result_has_measurements (run_result))
        {
          placed = place_in_comparison (self, item);
          g_set_object (&self->run_item, item);
        }
    }

  if (ok)
    message = g_strdup_printf (_("The run on %s finished and was saved to the history."),
                               duel_run_get_target_path (task));
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && run_result != NULL)
    message = g_strdup_printf (_("The run on %s was stopped; what it measured is kept in the history."),
                               duel_run_get_target_path (task));
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    /* E.g. during the trim: no test began, nothing is filed. */
    message = g_strdup_printf (_("The run on %s was stopped before its first test; nothing was kept."),
                               duel_run_get_target_path (task));
  else if (run_result != NULL)
    {
      /* The reason is a sentence of its own (a failed checkpoint's is):
       * its full stop is the format's. */
      g_autofree char *reason = g_strdup (error->message);

      if (g_str_has_suffix (reason, "."))
        reason[strlen (reason) - 1] = '\0';
      message = g_strdup_printf (_("The run on %s failed: %s. What it measured is kept in the history."),
                                 duel_run_get_target_path (task), reason);
    }
  else
    message = g_strdup_printf (_("The run on %s could not start: %s"),
                               duel_run_get_target_path (task), error->message);

  duel_run_view_show_finished (self->run_view, message, ok);
  /* The Run page says it already; elsewhere a toast does. */
  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->stack), "run") != 0)
    duel_window_add_toast (self, message);
  if (!placed)
    duel_window_add_toast (self, _("All four places on the Compare page are taken: "
                                   "Compare on the Run page asks which drive this run replaces."));
  send_notification (self, ok ? _("Run finished") : _("Run stopped"), message);
  update_actions (self);

  if (self->close_after_run)
    gtk_window_destroy (GTK_WINDOW (self));
}

/* E.g. the result's disk nearly full: said while the run goes on. */
static void
run_warning_cb (DuelRun    *task,
                const char *message,
                DuelWindow *self)
{
  duel_window_add_toast (self, message);
}

static void
launch_run (StartRun *start)
{
  DuelWindow *self = start->self;
  DuelApplication *app = DUEL_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  DuelRun *task = start->task;

  path = duel_history_new_path (self->history, duel_drive_item_get_title (start->drive), &error);
  if (path == NULL)
    {
      show_message (self, _("Cannot Start the Run"), error->message);
      return;
    }
  duel_run_set_output (task, path);

  g_set_object (&self->run_task, task);
  g_set_object (&self->run_drive, start->drive);
  g_clear_object (&self->run_item);
  g_signal_connect_object (task, "warning", G_CALLBACK (run_warning_cb), self, 0);
  duel_run_view_set_task (self->run_view, task);
  if (app != NULL)
    duel_application_inhibit_suspend (app, GTK_WINDOW (self), _("A drive benchmark is running"));

  duel_run_run_async (task, NULL, run_finished_cb, g_object_ref (self));
  adw_view_stack_set_visible_child_name (self->stack, "run");
  update_actions (self);
}

/* --- the run's safety check, then the person's confirmations ----------------- */

static void check_run (StartRun *start);

static void
signature_confirmed_cb (DuelAlert  *dialog,
                        const char *response,
                        gpointer    user_data)
{
  StartRun *start = user_data;

  /* One answer per dialog: closing it after a response must not count twice. */
  g_signal_handlers_disconnect_by_data (dialog, start);

  if (g_strcmp0 (response, DUEL_CONFIRM_RESPONSE_ERASE) != 0)
    {
      start_run_free (start);
      return;
    }
  duel_run_set_consent (start->task, DUEL_SAFETY_WIPE_SIGNATURES);
  check_run (start);
}

static void
ask_signature (StartRun *start)
{
  DuelConfirmDialog *dialog;

  dialog = duel_confirm_dialog_new_for_signature (start->drive, start->signature);
  g_signal_connect (dialog, "response", G_CALLBACK (signature_confirmed_cb), start);
  duel_alert_present (DUEL_ALERT (dialog), GTK_WIDGET (start->self));
}

static void
erase_confirmed_cb (DuelAlert  *dialog,
                    const char *response,
                    gpointer    user_data)
{
  StartRun *start = user_data;

  /* One answer per dialog: closing it after a response must not count twice. */
  g_signal_handlers_disconnect_by_data (dialog, start);

  if (g_strcmp0 (response, DUEL_CONFIRM_RESPONSE_ERASE) != 0)
    {
      start_run_free (start);
      return;
    }
  duel_run_set_consent (start->task, DUEL_SAFETY_DESTRUCTIVE);
  check_run (start);
}

static void
ask_erase (StartRun *start)
{
  DuelConfirmDialog *dialog;

  dialog = duel_confirm_dialog_new (start->drive,
                                    duel_preset_get_title_for_name (
                                      duel_preset_get_name (duel_run_get_preset (start->task))));
  g_signal_connect (dialog, "response", G_CALLBACK (erase_confirmed_cb), start);
  duel_alert_present (DUEL_ALERT (dialog), GTK_WIDGET (start->self));
}

static void
run_checked_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  StartRun *start = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelSafetyReport) report = duel_run_check_finish (DUEL_RUN (object), result, &error);

  if (report == NULL)
    {
      /* UDisks could not open it (or polkit said no). */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_message (start->self, _("Cannot Open the Drive"), error->message);
      start_run_free (start);
      return;
    }
  if (report->signature != NULL && start->signature == NULL)
    /* "a signature of type ext4 (filesystem, label “backup”)", as the CLI says it. */
    start->signature = duel_safety_report_describe_signature (report);

  switch (report->verdict)
    {
    case DUEL_SAFETY_ALLOWED:
      launch_run (start);
      start_run_free (start);
      return;

    case DUEL_SAFETY_NEEDS_DESTRUCTIVE:
      ask_erase (start);
      return;

    case DUEL_SAFETY_HAS_SIGNATURE:
      ask_signature (start);
      return;

    case DUEL_SAFETY_UNREADABLE:
    case DUEL_SAFETY_SYSTEM:
    case DUEL_SAFETY_MOUNTED:
    case DUEL_SAFETY_SWAP:
    case DUEL_SAFETY_HELD:
    case DUEL_SAFETY_BUSY:
    case DUEL_SAFETY_READ_ONLY:
    case DUEL_SAFETY_NOT_A_TARGET:
    default:
      /* A refusal is final and says why. */
      show_message (start->self, _("This Target Cannot Be Used"),
                    report->reason != NULL ? report->reason : _("The safety rules refused it."));
      start_run_free (start);
      return;
    }
}

static void
check_run (StartRun *start)
{
  duel_run_check_async (start->task, start->self->cancellable, run_checked_cb, start);
}

/* Starts @preset on @drive once the rules and the person allow it. */
static void
start_run (DuelWindow    *self,
           DuelDriveItem *drive,
           DuelPreset    *preset)
{
  StartRun *start;

  duel_drive_item_make_folder (drive);
  start = g_new0 (StartRun, 1);
  start->self = g_object_ref (self);
  start->drive = g_object_ref (drive);
  start->task = duel_run_new (duel_drive_item_get_path (drive));
  duel_run_set_name (start->task, duel_drive_item_get_title (drive));
  duel_run_set_preset (start->task, preset);
  duel_run_set_show_every_step (start->task, self->show_every_step);
  /* The run opens it with the rules checked again, the consent given here;
   * a new file at the size chosen for it, an existing one as it is. */
  duel_run_set_safety (start->task, DUEL_SAFETY_FLAGS_NONE, duel_drive_item_get_create_size (drive));

  /* Every preset writes: the rules first, then the confirmations they ask for. */
  check_run (start);
}

static void
start_run_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DuelWindow *self = DUEL_WINDOW (widget);
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(GError) error = NULL;
  DuelDriveItem *drive;

  if (self->run_task != NULL && duel_run_is_running (self->run_task))
    return;

  drive = duel_drives_view_get_selected (self->drives_view);
  if (drive == NULL)
    {
      duel_window_add_toast (self, _("Choose a drive or a file target first."));
      return;
    }

  preset = duel_presets_view_create_preset (self->presets_view, &error);
  if (preset == NULL)
    {
      show_message (self, _("Cannot Start the Run"), error->message);
      return;
    }
  start_run (self, drive, preset);
}

static void
cancel_run_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  DuelWindow *self = DUEL_WINDOW (widget);

  if (self->run_task == NULL || !duel_run_is_running (self->run_task))
    return;
  /* Again while stopping: the device has not answered (the Run page says
   * so, and only then lets Stop be pressed again). */
  if (duel_run_get_state (self->run_task) == DUEL_RUN_STATE_STOPPING)
    duel_run_give_up (self->run_task);
  else
    duel_run_cancel (self->run_task);
}

/* The Run page's "Run Again": the same target through the same start path,
 * with the preset the presets page still holds (it is locked while a run goes). */
static void
run_again_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DuelWindow *self = DUEL_WINDOW (widget);

  DuelPreset *last;
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(GError) error = NULL;

  if (self->run_drive == NULL || (self->run_task != NULL && duel_run_is_running (self->run_task)))
    return;
  duel_drives_view_set_selected (self->drives_view, self->run_drive);
  /* The same plan as the last run's, whatever the Presets page shows now. */
  last = self->run_task != NULL ? duel_run_get_preset (self->run_task) : NULL;
  if (last == NULL)
    {
      gtk_widget_activate_action (widget, "win.start-run", NULL);
      return;
    }
  preset = duel_preset_new (duel_preset_get_name (last), duel_preset_get_options (last), &error);
  if (preset == NULL)
    {
      show_message (self, _("Cannot Start the Run"), error->message);
      return;
    }
  start_run (self, self->run_drive, preset);
}

/* The Run page's "Compare": the finished run on the Compare page, where the
 * run put it when it ended (it may have been swapped out since). */
static void
replace_chosen_cb (DuelAlert  *dialog,
                   const char *response,
                   gpointer    user_data)
{
  DuelWindow *self = DUEL_WINDOW (user_data);
  guint64 slot;

  if (self->run_item == NULL || !g_ascii_string_to_unsigned (response, 10, 0, DUEL_COMPARISON_MAX_DRIVES - 1,
                                                              &slot, NULL))
    return;
  duel_comparison_view_set_item (self->comparison_view, (guint) slot, self->run_item);
  adw_view_stack_set_visible_child_name (self->stack, "compare");
}

/* All places taken: the person says which drive the run replaces. */
static void
ask_which_to_replace (DuelWindow *self)
{
  DuelAlert *dialog;

  dialog = DUEL_ALERT (duel_alert_new (_("Replace Which Drive?"),
                                       _("The Compare page holds four drives. Choose the one "
                                       "this run takes the place of.")));
  duel_alert_add_response (dialog, "cancel", _("_Cancel"));
  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    {
      DuelResultItem *item = duel_comparison_view_get_item (self->comparison_view, slot);
      char id[4];

      g_snprintf (id, sizeof id, "%u", slot);
      duel_alert_add_response (dialog, id, duel_result_item_get_label (item));
    }
  duel_alert_set_response_appearance (dialog, "cancel", ADW_RESPONSE_DEFAULT);
  duel_alert_set_default_response (dialog, "cancel");
  duel_alert_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (replace_chosen_cb), self, 0);
  duel_alert_present (dialog, GTK_WIDGET (self));
}

static void
compare_run_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DuelWindow *self = DUEL_WINDOW (widget);
  gboolean shown = FALSE;

  if (self->run_item == NULL)
    return;
  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    shown |= duel_comparison_view_get_item (self->comparison_view, slot) == self->run_item;
  if (!shown && !place_in_comparison (self, self->run_item))
    {
      ask_which_to_replace (self);
      return;
    }
  adw_view_stack_set_visible_child_name (self->stack, "compare");
}

/* --- other actions ---------------------------------------------------------- */

static void
open_response_cb (GtkNativeDialog *chooser,
                  int              response,
                  gpointer         user_data)
{
  DuelWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
      guint n = g_list_model_get_n_items (files);
      g_autoptr(GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (array, g_list_model_get_item (files, i));
      duel_window_open_files (self, (GFile **) array->pdata, array->len);
    }

  g_object_unref (chooser);
}

static void
open_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  DuelWindow *self = DUEL_WINDOW (widget);
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Open Result Files"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);

  /* Results have a type of their own (data/…mime.xml), a kind of JSON;
   * fio's JSON output opens too, as an import. */
  gtk_file_filter_set_name (filter, _("Drive Duel results and fio JSON"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_filter_add_mime_type (filter, "application/x-driveduel-result+json");
  gtk_file_filter_add_mime_type (filter, "application/json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);

  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
export_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  DuelWindow *self = DUEL_WINDOW (widget);
  DuelComparison *comparison = duel_comparison_view_get_comparison (self->comparison_view);
  DuelExportDialog *dialog;

  if (comparison == NULL)
    {
      duel_window_add_toast (self, _("Choose a drive to compare first."));
      return;
    }

  dialog = duel_export_dialog_new (GTK_WINDOW (self), comparison, self->settings);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The headline and the detail table as Markdown, as summary.md has them:
 * ready to paste into an article, as CrystalDiskMark's and KDiskMark's
 * "copy" are. */
static void
copy_comparison_activated (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  DuelWindow *self = DUEL_WINDOW (widget);
  DuelComparison *comparison = duel_comparison_view_get_comparison (self->comparison_view);
  g_autofree char *markdown = NULL;

  if (comparison == NULL)
    {
      duel_window_add_toast (self, _("Choose a drive to compare first."));
      return;
    }
  markdown = duel_chart_export_markdown (comparison);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), markdown);
  duel_window_add_toast (self, _("Comparison copied as Markdown tables."));
}

static void
add_file_target_activated (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  DuelWindow *self = DUEL_WINDOW (widget);

  adw_view_stack_set_visible_child_name (self->stack, "drives");
  duel_drives_view_choose_file (self->drives_view);
}

static void
use_existing_file_activated (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *parameter)
{
  DuelWindow *self = DUEL_WINDOW (widget);

  adw_view_stack_set_visible_child_name (self->stack, "drives");
  duel_drives_view_choose_existing_file (self->drives_view);
}

static void
show_page_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DuelWindow *self = DUEL_WINDOW (widget);
  const char *name = g_variant_get_string (parameter, NULL);

  if (duel_window_is_page_name (name))
    adw_view_stack_set_visible_child_name (self->stack, name);
}

static void
swap_drives_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  duel_comparison_view_swap (DUEL_WINDOW (widget)->comparison_view);
}

static void
show_details_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  show_message (DUEL_WINDOW (widget), _("Details"), g_variant_get_string (parameter, NULL));
}

static void
toast_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  duel_window_add_toast (DUEL_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

/* --- signals ---------------------------------------------------------------- */

static void
history_compare_cb (DuelWindow      *self,
                    DuelResultItem  *item,
                    guint            slot,
                    DuelHistoryView *view)
{
  duel_comparison_view_set_item (self->comparison_view, slot, item);
  adw_view_stack_set_visible_child_name (self->stack, "compare");
}

static void
selected_drive_changed_cb (DuelWindow     *self,
                           GParamSpec     *pspec,
                           DuelDrivesView *view)
{
  duel_presets_view_set_drive (self->presets_view, duel_drives_view_get_selected (view));
  update_actions (self);
}

static void
comparison_changed_cb (DuelWindow         *self,
                       GParamSpec         *pspec,
                       DuelComparisonView *view)
{
  update_actions (self);
  remember_comparison (self);
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         gpointer       user_data)
{
  DuelWindow *self = user_data;
  GSList *list;
  g_autoptr(GPtrArray) files = g_ptr_array_new ();

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  list = g_value_get_boxed (value);
  for (GSList *l = list; l != NULL; l = l->next)
    g_ptr_array_add (files, l->data);
  if (files->len == 0)
    return FALSE;

  duel_window_open_files (self, (GFile **) files->pdata, files->len);
  return TRUE;
}

static void
close_response_cb (DuelAlert  *dialog,
                   const char *response,
                   gpointer    user_data)
{
  DuelWindow *self = user_data;

  if (g_strcmp0 (response, "stop") == 0 && self->run_task != NULL &&
      duel_run_is_running (self->run_task))
    {
      self->close_after_run = TRUE;
      duel_run_cancel (self->run_task);
    }
}

static gboolean
duel_window_close_request (GtkWindow *window)
{
  DuelWindow *self = DUEL_WINDOW (window);
  GtkWidget *dialog;

  if (self->run_task == NULL || !duel_run_is_running (self->run_task))
    {
      if (self->settings != NULL)
        {
          int width, height;

          gtk_window_get_default_size (window, &width, &height);
          g_settings_set_int (self->settings, "window-width", width);
          g_settings_set_int (self->settings, "window-height", height);
          g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
        }
      return GTK_WINDOW_CLASS (duel_window_parent_class)->close_request (window);
    }

  /* Never lose a run silently: stopping keeps what was measured. */
  dialog = duel_alert_new (_("Stop the Run?"),
                           _("A benchmark is running. Stopping it keeps what it measured so far in the history."));
  duel_alert_add_responses (DUEL_ALERT (dialog),
                            "keep", _("_Keep Running"),
                            "stop", _("_Stop and Close"),
                            NULL);
  duel_alert_set_response_appearance (DUEL_ALERT (dialog), "stop", ADW_RESPONSE_DESTRUCTIVE);
  duel_alert_set_default_response (DUEL_ALERT (dialog), "keep");
  duel_alert_set_close_response (DUEL_ALERT (dialog), "keep");
  g_signal_connect (dialog, "response", G_CALLBACK (close_response_cb), self);
  duel_alert_present (DUEL_ALERT (dialog), GTK_WIDGET (self));
  return TRUE;
}

/* --- screenshots ------------------------------------------------------------ */

typedef struct
{
  char  *path;
  guint  frames_left;
  gulong handler;
} ScreenshotData;

static void
screenshot_data_free (ScreenshotData *data)
{
  g_free (data->path);
  g_free (data);
}

static gboolean
render_to_png (DuelWindow  *self,
               const char  *path,
               gboolean    *retry,
               GError     **error)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (self));
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GBytes) png = NULL;
  GtkSnapshot *snapshot;
  GskRenderer *renderer;
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  *retry = FALSE;
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  renderer = gtk_native_get_renderer (GTK_NATIVE (self));
  /* With the cairo renderer the first frame may come before a render node exists. */
  if (node == NULL || renderer == NULL || width <= 0 || height <= 0)
    {
      *retry = TRUE;
      return FALSE;
    }

  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  png = gdk_texture_save_to_png_bytes (texture);
  /* Through the one writer: never through a link, replacing only a
   * screenshot Drive Duel took before (or an empty file). */
  return duel_made_files_write_contents (path, g_bytes_get_data (png, NULL), g_bytes_get_size (png),
                                         DUEL_WRITE_REPLACE_MADE | DUEL_WRITE_REPLACE_EMPTY | DUEL_WRITE_RECORD_MADE,
                                         error);
}

static void
after_paint_cb (GdkFrameClock *clock,
                GTask         *task)
{
  DuelWindow *self = g_task_get_source_object (task);
  ScreenshotData *data = g_task_get_task_data (task);
  GError *error = NULL;
  gboolean retry;

  /* Let layout settle for a few frames (charts size themselves on the first). */
  if (data->frames_left > 0)
    {
      data->frames_left--;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }

  if (!render_to_png (self, data->path, &retry, &error) && retry)
    {
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }

  g_clear_signal_handler (&data->handler, clock);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}

static void
start_next_screenshot (DuelWindow *self)
{
  while (self->n_loading == 0 && self->pending_screenshots->len > 0)
    {
      GTask *task = g_ptr_array_steal_index (self->pending_screenshots, 0);
      ScreenshotData *data = g_task_get_task_data (task);
      GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

      if (clock == NULL)
        {
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                                   _("The window is not shown, so it cannot be captured."));
          g_object_unref (task);
          continue;
        }
      data->handler = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), task);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

void
duel_window_save_screenshot_async (DuelWindow          *self,
                                   const char          *path,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  GTask *task;
  ScreenshotData *data;

  g_return_if_fail (DUEL_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  data = g_new0 (ScreenshotData, 1);
  data->path = g_strdup (path);
  data->frames_left = 3;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, duel_window_save_screenshot_async);
  g_task_set_task_data (task, data, (GDestroyNotify) screenshot_data_free);
  g_ptr_array_add (self->pending_screenshots, task);

  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    start_next_screenshot (self);
  else
    g_signal_connect_object (self, "map", G_CALLBACK (start_next_screenshot), NULL, G_CONNECT_SWAPPED);
}

gboolean
duel_window_save_screenshot_finish (DuelWindow    *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (DUEL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* --- GObject ---------------------------------------------------------------- */

/* After construction: "application" is set after constructed() runs. */
static void
setup (DuelWindow      *self,
       DuelApplication *app)
{
  GListStore *parts;


  self->settings = g_object_ref (duel_application_get_settings (app));
  self->history = g_object_ref (duel_application_get_history (app));

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  /* Drive A and B come from the references, the history, or opened files. */
  parts = g_list_store_new (G_TYPE_LIST_MODEL);
  g_list_store_append (parts, self->reference_store);
  g_list_store_append (parts, duel_history_get_model (self->history));
  g_list_store_append (parts, self->file_store);
  self->sources = G_LIST_MODEL (gtk_flatten_list_model_new (G_LIST_MODEL (parts)));

  duel_comparison_view_set_sources (self->comparison_view, self->sources);
  duel_comparison_view_set_settings (self->comparison_view, self->settings);
  duel_run_view_set_settings (self->run_view, self->settings);
  duel_history_view_set_history (self->history_view, self->history);
  duel_drives_view_set_settings (self->drives_view, self->settings);
  duel_presets_view_set_settings (self->presets_view, self->settings);

  /* The guard keeps the initial comparison until every load has reported. */
  loading_begin (self);
  loading_begin (self);
  duel_history_reload_async (self->history, self->cancellable, history_loaded_cb, g_object_ref (self));
  load_references (self);
  duel_drives_view_refresh (self->drives_view);
  loading_end (self);

  update_actions (self);
}

static void
duel_window_dispose (GObject *object)
{
  DuelWindow *self = DUEL_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  if (self->run_task != NULL)
    duel_run_cancel (self->run_task);

  G_OBJECT_CLASS (duel_window_parent_class)->dispose (object);
}

static void
duel_window_finalize (GObject *object)
{
  DuelWindow *self = DUEL_WINDOW (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->history);
  g_clear_object (&self->reference_store);
  g_clear_object (&self->file_store);
  g_clear_object (&self->sources);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->run_task);
  g_clear_object (&self->run_drive);
  g_clear_object (&self->run_item);
  g_clear_pointer (&self->pending_screenshots, g_ptr_array_unref);

  G_OBJECT_CLASS (duel_window_parent_class)->finalize (object);
}

static void
duel_window_class_init (DuelWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = duel_window_dispose;
  object_class->finalize = duel_window_finalize;
  window_class->close_request = duel_window_close_request;

  /* The views are used in the template. */
  g_type_ensure (DUEL_TYPE_DRIVES_VIEW);
  g_type_ensure (DUEL_TYPE_PRESETS_VIEW);
  g_type_ensure (DUEL_TYPE_RUN_VIEW);
  g_type_ensure (DUEL_TYPE_COMPARISON_VIEW);
  g_type_ensure (DUEL_TYPE_HISTORY_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/driveduel/DriveDuel/duel-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DuelWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, DuelWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, DuelWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, DuelWindow, run_page);
  gtk_widget_class_bind_template_child (widget_class, DuelWindow, switcher_bar);
  gtk_widget_class_bind_template_child (widget_class, DuelWindow, export_button);
  gtk_widget_class_bind_template_child (widget_class, DuelWindow, drives_view);
  gtk_widget_class_bind_template_child (widget_class, DuelWindow, presets_view);
  gtk_widget_class_bind_template_child (widget_class, DuelWindow, run_view);
  gtk_widget_class_bind_template_child (widget_class, DuelWindow, comparison_view);
  gtk_widget_class_bind_template_child (widget_class, DuelWindow, history_view);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_activated);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_activated);
  gtk_widget_class_install_action (widget_class, "win.copy-comparison", NULL, copy_comparison_activated);
  gtk_widget_class_install_action (widget_class, "win.add-file-target", NULL, add_file_target_activated);
  gtk_widget_class_install_action (widget_class, "win.use-existing-file", NULL, use_existing_file_activated);
  gtk_widget_class_install_action (widget_class, "win.start-run", NULL, start_run_activated);
  gtk_widget_class_install_action (widget_class, "win.cancel-run", NULL, cancel_run_activated);
  gtk_widget_class_install_action (widget_class, "win.run-again", NULL, run_again_activated);
  gtk_widget_class_install_action (widget_class, "win.compare-run", NULL, compare_run_activated);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_activated);
  gtk_widget_class_install_action (widget_class, "win.swap-drives", NULL, swap_drives_activated);
  gtk_widget_class_install_action (widget_class, "win.toast", "s", toast_activated);
  gtk_widget_class_install_action (widget_class, "win.show-details", "s", show_details_activated);
}

/* The pages' switcher: in the header while the window is wide, in a bar at
 * the bottom when it is narrow. libadwaita 1.4 deprecates the title widget
 * that did this for a breakpoint on the window. */
static void
add_page_switchers (DuelWindow *self)
{
#if ADW_CHECK_VERSION (1, 4, 0)
  GtkWidget *switcher = adw_view_switcher_new ();
  AdwBreakpoint *narrow;

  adw_view_switcher_set_stack (ADW_VIEW_SWITCHER (switcher), self->stack);
  adw_view_switcher_set_policy (ADW_VIEW_SWITCHER (switcher), ADW_VIEW_SWITCHER_POLICY_WIDE);
  adw_header_bar_set_title_widget (self->header_bar, switcher);
  /* Four pages' wide buttons and the header's four icons need about 640 px. */
  narrow = adw_breakpoint_new (adw_breakpoint_condition_parse ("max-width: 640sp"));
  adw_breakpoint_add_setters (narrow,
                              G_OBJECT (self->switcher_bar), "reveal", TRUE,
                              G_OBJECT (self->header_bar), "title-widget", NULL,
                              NULL);
  adw_application_window_add_breakpoint (ADW_APPLICATION_WINDOW (self), narrow);
#else
  GtkWidget *title = adw_view_switcher_title_new ();

  adw_view_switcher_title_set_stack (ADW_VIEW_SWITCHER_TITLE (title), self->stack);
  adw_view_switcher_title_set_title (ADW_VIEW_SWITCHER_TITLE (title), _("Drive Duel"));
  adw_header_bar_set_title_widget (self->header_bar, title);
  g_object_bind_property (title, "title-visible", self->switcher_bar, "reveal", G_BINDING_SYNC_CREATE);
#endif
}

/* Each page's content is named by the page's title: a region a screen
 * reader can announce (GTK 4.8 names the stack's pages by nothing). */
static void
name_pages (DuelWindow *self)
{
  g_autoptr(GtkSelectionModel) pages = adw_view_stack_get_pages (self->stack);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (pages));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AdwViewStackPage) page = g_list_model_get_item (G_LIST_MODEL (pages), i);
      const char *title = adw_view_stack_page_get_title (page);

      if (title != NULL)
        duel_accessible_set_name (adw_view_stack_page_get_child (page), title);
    }
}

static void
duel_window_init (DuelWindow *self)
{
  GtkDropTarget *drop;

  self->reference_store = g_list_store_new (DUEL_TYPE_RESULT_ITEM);
  self->file_store = g_list_store_new (DUEL_TYPE_RESULT_ITEM);
  self->cancellable = g_cancellable_new ();
  self->pending_screenshots = g_ptr_array_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  add_page_switchers (self);
  name_pages (self);

  g_signal_connect_object (self->history_view, "compare",
                           G_CALLBACK (history_compare_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->drives_view, "notify::selected",
                           G_CALLBACK (selected_drive_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->comparison_view, "notify::comparison",
                           G_CALLBACK (comparison_changed_cb), self, G_CONNECT_SWAPPED);

  /* Result files dropped anywhere on the window open in the comparison. */
  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}

DuelWindow *
duel_window_new (DuelApplication *application)
{
  DuelWindow *self;

  g_return_val_if_fail (DUEL_IS_APPLICATION (application), NULL);

  self = g_object_new (DUEL_TYPE_WINDOW, "application", application, NULL);
  setup (self, application);
  return self;
}

DuelDrivesView *
duel_window_get_drives_view (DuelWindow *self)
{
  g_return_val_if_fail (DUEL_IS_WINDOW (self), NULL);
  return self->drives_view;
}

DuelPresetsView *
duel_window_get_presets_view (DuelWindow *self)
{
  g_return_val_if_fail (DUEL_IS_WINDOW (self), NULL);
  return self->presets_view;
}

DuelRunView *
duel_window_get_run_view (DuelWindow *self)
{
  g_return_val_if_fail (DUEL_IS_WINDOW (self), NULL);
  return self->run_view;
}

DuelComparisonView *
duel_window_get_comparison_view (DuelWindow *self)
{
  g_return_val_if_fail (DUEL_IS_WINDOW (self), NULL);
  return self->comparison_view;
}

DuelHistoryView *
duel_window_get_history_view (DuelWindow *self)
{
  g_return_val_if_fail (DUEL_IS_WINDOW (self), NULL);
  return self->history_view;
}

DuelRun *
duel_window_get_run_task (DuelWindow *self)
{
  g_return_val_if_fail (DUEL_IS_WINDOW (self), NULL);
  return self->run_task;
}

void
duel_window_set_show_every_step (DuelWindow *self,
                                 gboolean    show_every_step)
{
  g_return_if_fail (DUEL_IS_WINDOW (self));
  self->show_every_step = !!show_every_step;
}
