/* duel-adw-compat.h — one spelling for the dialogs libadwaita renamed
 *
 * libadwaita 1.5 brought AdwAlertDialog, AdwAboutDialog and
 * AdwPreferencesDialog (AdwDialog: shown inside the window, a bottom sheet
 * when it is narrow) and 1.6 deprecated AdwMessageDialog, AdwAboutWindow and
 * AdwPreferencesWindow. Built against 1.6 or newer Drive Duel uses the new
 * dialogs; against Debian 12's 1.2 the old windows. The calls below are what
 * the two families share, so the rest of the app is written once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#if ADW_CHECK_VERSION (1, 6, 0)
#define DUEL_ADW_DIALOGS 1

typedef AdwAlertDialog DuelAlert;
#define DUEL_TYPE_ALERT    ADW_TYPE_ALERT_DIALOG
#define DUEL_TYPE_ABOUT    ADW_TYPE_ABOUT_DIALOG
#define DUEL_ALERT(obj)    ADW_ALERT_DIALOG (obj)
#define DUEL_IS_ALERT(obj) ADW_IS_ALERT_DIALOG (obj)

#define duel_alert_add_response            adw_alert_dialog_add_response
#define duel_alert_add_responses           adw_alert_dialog_add_responses
#define duel_alert_has_response            adw_alert_dialog_has_response
#define duel_alert_get_heading             adw_alert_dialog_get_heading
#define duel_alert_set_heading             adw_alert_dialog_set_heading
#define duel_alert_format_heading          adw_alert_dialog_format_heading
#define duel_alert_get_body                adw_alert_dialog_get_body
#define duel_alert_set_body                adw_alert_dialog_set_body
#define duel_alert_format_body             adw_alert_dialog_format_body
#define duel_alert_set_body_use_markup     adw_alert_dialog_set_body_use_markup
#define duel_alert_set_extra_child         adw_alert_dialog_set_extra_child
#define duel_alert_get_response_enabled    adw_alert_dialog_get_response_enabled
#define duel_alert_set_response_enabled    adw_alert_dialog_set_response_enabled
#define duel_alert_get_response_label      adw_alert_dialog_get_response_label
#define duel_alert_set_response_label      adw_alert_dialog_set_response_label
#define duel_alert_set_response_appearance adw_alert_dialog_set_response_appearance
#define duel_alert_get_close_response      adw_alert_dialog_get_close_response
#define duel_alert_set_close_response      adw_alert_dialog_set_close_response
#define duel_alert_set_default_response    adw_alert_dialog_set_default_response
#else
#define DUEL_ADW_DIALOGS 0

typedef AdwMessageDialog DuelAlert;
#define DUEL_TYPE_ALERT    ADW_TYPE_MESSAGE_DIALOG
#define DUEL_TYPE_ABOUT    ADW_TYPE_ABOUT_WINDOW
#define DUEL_ALERT(obj)    ADW_MESSAGE_DIALOG (obj)
#define DUEL_IS_ALERT(obj) ADW_IS_MESSAGE_DIALOG (obj)

#define duel_alert_add_response            adw_message_dialog_add_response
#define duel_alert_add_responses           adw_message_dialog_add_responses
#define duel_alert_has_response            adw_message_dialog_has_response
#define duel_alert_get_heading             adw_message_dialog_get_heading
#define duel_alert_set_heading             adw_message_dialog_set_heading
#define duel_alert_format_heading          adw_message_dialog_format_heading
#define duel_alert_get_body                adw_message_dialog_get_body
#define duel_alert_set_body                adw_message_dialog_set_body
#define duel_alert_format_body             adw_message_dialog_format_body
#define duel_alert_set_body_use_markup     adw_message_dialog_set_body_use_markup
#define duel_alert_set_extra_child         adw_message_dialog_set_extra_child
#define duel_alert_get_response_enabled    adw_message_dialog_get_response_enabled
#define duel_alert_set_response_enabled    adw_message_dialog_set_response_enabled
#define duel_alert_get_response_label      adw_message_dialog_get_response_label
#define duel_alert_set_response_label      adw_message_dialog_set_response_label
#define duel_alert_set_response_appearance adw_message_dialog_set_response_appearance
#define duel_alert_get_close_response      adw_message_dialog_get_close_response
#define duel_alert_set_close_response      adw_message_dialog_set_close_response
#define duel_alert_set_default_response    adw_message_dialog_set_default_response
#endif

/* An alert with HEADING and BODY (either may be NULL), not shown yet. */
GtkWidget *duel_alert_new            (const char *heading,
                                      const char *body);
/* Shows ALERT over the window PARENT belongs to, modal to it. */
void       duel_alert_present        (DuelAlert  *alert,
                                      GtkWidget  *parent);
/* Answers RESPONSE and closes, as a click on its button does: "response" is
 * emitted once, with RESPONSE. Nothing happens when it is disabled. */
void       duel_alert_respond        (DuelAlert  *alert,
                                      const char *response);
/* The alert shown over WINDOW, or NULL. */
DuelAlert *duel_alert_find_shown     (GtkWindow  *window);
/* The alert shown over any window, or NULL. */
DuelAlert *duel_alert_find_any_shown (void);
/* A dialog of TYPE shown over any window (or as one), or NULL. */
GtkWidget *duel_dialog_find_shown    (GType       type);

/* Shows a dialog made by the app: AdwDialog inside PARENT's window on 1.6 and
 * newer, a modal window transient for it before. */
void       duel_dialog_present       (GtkWidget  *dialog,
                                      GtkWidget  *parent);
/* Closes a dialog made by the app, whichever kind it is. */
void       duel_dialog_close         (GtkWidget  *dialog);

G_END_DECLS
