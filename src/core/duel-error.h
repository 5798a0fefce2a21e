/* duel-error.h — the project's error domain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DUEL_ERROR (duel_error_quark ())

typedef enum
{
  DUEL_ERROR_FAILED,          /* anything without a better code */
  DUEL_ERROR_INVALID_ARGUMENT,/* a bad option or workload parameter */
  DUEL_ERROR_TARGET,          /* the target cannot be opened or used */
  DUEL_ERROR_UNSUPPORTED,     /* e.g. a filesystem without O_DIRECT */
  DUEL_ERROR_IO,              /* an I/O failed during a run (negative cqe->res) */
  DUEL_ERROR_RING,            /* io_uring setup or submission failed */
  DUEL_ERROR_REFUSED,         /* a safety rule refused a destructive run */
  DUEL_ERROR_FORMAT,          /* a result or import file is malformed */
  DUEL_ERROR_NVME,            /* an NVMe command returned a status */
  DUEL_ERROR_EXISTS,          /* a file Drive Duel may not replace is in the way */
  DUEL_ERROR_SYSTEM,          /* the system ran out of threads or memory */
} DuelError;

GQuark duel_error_quark (void);

G_END_DECLS
