/* duel-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "duel-error.h"

G_DEFINE_QUARK (duel-error-quark, duel_error)
