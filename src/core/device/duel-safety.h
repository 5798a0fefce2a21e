/* duel-safety.h — may a write run touch this target?
 *
 * Called by the run commands before any I/O. A write to a block device is
 * allowed only when --destructive was given; the device and its partitions
 * are not mounted, not swap and not held (dm, md, LVM); an O_EXCL open
 * succeeds; no filesystem, RAID or partition-table signature is found
 * (unless --wipe-signatures was given as well); and it does not hold the
 * running system. The engine's target then keeps O_EXCL for the whole run
 * (DUEL_TARGET_OPEN_EXCLUSIVE). Read-only runs need none of this.
 *
 * File targets: a directory or a device node is refused, so are an active
 * swap file and a loop device's backing file. A file holding data Drive Duel
 * did not write (not empty, sparse or all zeros, and without a made mark
 * that still describes it, DUEL_TARGET_MADE_XATTR) needs --destructive, a
 * disk image (a filesystem or partition table in it) --wipe-signatures as
 * well.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  DUEL_SAFETY_FLAGS_NONE      = 0,
  DUEL_SAFETY_DESTRUCTIVE     = 1 << 0,  /* --destructive (GUI: first confirmation) */
  DUEL_SAFETY_WIPE_SIGNATURES = 1 << 1,  /* --wipe-signatures (GUI: second confirmation) */
} DuelSafetyFlags;

typedef enum
{
  DUEL_SAFETY_ALLOWED,
  DUEL_SAFETY_NEEDS_DESTRUCTIVE,   /* ask, then call again with DESTRUCTIVE */
  DUEL_SAFETY_HAS_SIGNATURE,       /* ask again, then add WIPE_SIGNATURES */
  DUEL_SAFETY_SYSTEM,              /* holds / (never allowed, like the rest below) */
  DUEL_SAFETY_MOUNTED,
  DUEL_SAFETY_SWAP,
  DUEL_SAFETY_HELD,                /* holders/ (dm, md, LVM) or a loop's backing file */
  DUEL_SAFETY_BUSY,                /* an O_EXCL open failed */
  DUEL_SAFETY_READ_ONLY,
  DUEL_SAFETY_NOT_A_TARGET,        /* a directory, a character device, a FIFO */
  DUEL_SAFETY_UNREADABLE,          /* could not be opened or probed */
} DuelSafetyVerdict;

typedef struct
{
  char              *path;
  gboolean           is_block;
  char              *device_name;    /* the whole disk, "loop3" */
  char              *partition;      /* when the target is a partition */
  char              *model;          /* NULL when unknown */
  char              *serial;
  char              *transport;
  guint64            size_bytes;
  char              *signature;      /* "ext4", "gpt", "linux_raid_member"; NULL: none */
  char              *signature_usage;/* "filesystem", "raid", "partition table", … */
  char              *signature_label;
  DuelSafetyVerdict  verdict;
  char              *reason;         /* why not, for humans; NULL when allowed */
  gboolean           access_denied;  /* UNREADABLE: this process may not open the
                                      * device (EACCES, EPERM); UDisks may */
  gboolean           node_hidden;    /* a sandbox without the device's node in
                                      * /dev: only UDisks can open it */
} DuelSafetyReport;

/* Returns TRUE when the write may go ahead. Otherwise FALSE with
 * DUEL_ERROR_REFUSED and a message naming the reason. *OUT_REPORT (may be
 * NULL) is set either way, so a GUI can call once without flags to build its
 * confirmation from the model, serial, size and signature. */
gboolean     duel_safety_check_write         (const char         *path,
                                              DuelSafetyFlags     flags,
                                              DuelSafetyReport  **out_report,
                                              GError            **error);
/* The same rules for a block device this process may not open itself, on a
 * descriptor opened for it (UDisks' OpenDevice, duel-udisks.h) before any
 * write: mounts, swap, holders and the system disk from sysfs and
 * mountinfo, the signatures read through @fd (which stays open, and should
 * hold O_EXCL: busy is then the open's own refusal). */
gboolean     duel_safety_check_write_fd      (const char         *path,
                                              int                 fd,
                                              DuelSafetyFlags     flags,
                                              DuelSafetyReport  **out_report,
                                              GError            **error);
/* The result file is checked as carefully as the target, before anything
 * is written anywhere: it (or a file the run writes beside it) must not be
 * the target, by name, link or hard link; when the run writes its target,
 * it must not be on a filesystem that lives on the target (the device, a
 * partition, something stacked on them, a loop device over a file target);
 * and an existing file that is not a Drive Duel result (nor empty) is not
 * replaced unless @overwrite. Writes nothing. FALSE with DUEL_ERROR_REFUSED
 * and one sentence (DUEL_ERROR_INVALID_ARGUMENT for an empty name). */
gboolean     duel_safety_check_output        (const char         *result_path,
                                              const char         *target_path,
                                              gboolean            target_written,
                                              gboolean            overwrite,
                                              GError            **error);
const char  *duel_safety_verdict_to_string   (DuelSafetyVerdict   verdict);
void         duel_safety_report_free         (DuelSafetyReport   *report);
/* The signature found, for a sentence: "a signature of type ext4
 * (filesystem, label “backup”)"; the wording keeps every article
 * independent of the type's name. @report->signature must be set. */
char        *duel_safety_report_describe_signature (const DuelSafetyReport *report);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelSafetyReport, duel_safety_report_free)

G_END_DECLS
