#!/bin/sh
# ata-guest.sh — the SATA identity and SMART checks, run as root inside the
# QEMU guest that run-ata-test.sh boots; prints TAP.
#
# The truth is what QEMU was told (DUEL_ATA_MODEL, _FIRMWARE, _SERIAL) and
# what its ide-hd reports of itself (hw/ide/core.c, QEMU 7.2): IDENTIFY puts
# model=, ver= and serial= in words 27–46, 23–26 and 10–19; SMART READ DATA
# holds the fixed table smart_attributes[], whose raw bytes give attribute 9
# (power-on hours) 1, attribute 12 (power cycles) 0 and attribute 190
# (airflow temperature) 0x1f = 31 °C, with no attribute 194; SMART RETURN
# STATUS answers 0x4f/0xc2 (passed) while smart_errors is 0, as it always is.
#
# Environment: DRIVEDUEL_CLI, DUEL_ATA_DEVICE, DUEL_ATA_MODEL,
# DUEL_ATA_FIRMWARE, DUEL_ATA_SERIAL.
#
# SPDX-License-Identifier: GPL-3.0-or-later

cli=$DRIVEDUEL_CLI
dev=$DUEL_ATA_DEVICE
name=${dev#/dev/}
QEMU_TEMPERATURE_C=31
QEMU_TEMPERATURE_ATTRIBUTE=190
QEMU_POWER_ON_HOURS=1
QEMU_POWER_CYCLES=0
n=0
failed=0
work=/tmp/duel-ata
mkdir -p "$work"

ok() { # ok DESCRIPTION CONDITION-EXIT-CODE
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=1; fi
}
# The value of a string or number member of pretty JSON ("  "key" : value,"),
# at INDENT (default: the top level).
member() { # member FILE KEY [INDENT]
	sed -n -e "s/^${3:-  }\"$2\" : \"\(.*\)\",\{0,1\}\$/\1/p" \
		-e "s/^${3:-  }\"$2\" : \([^\",]*\),\{0,1\}\$/\1/p" "$1" | head -1
}
# The lines of one top-level object member.
object() { # object FILE KEY
	awk -v key="  \"$2\" : {" '$0 == key { on = 1; next } on && /^  }/ { exit } on { print }' "$1"
}
is() { # is DESCRIPTION GOT WANT
	[ "$2" = "$3" ]; r=$?
	[ $r = 0 ] || echo "# $1: got '$2', want '$3'"
	ok "$1" $r
}

# What the SCSI layer keeps: 16 characters of the model, the last 4 of the firmware.
is "SCSI sysfs model is cut to 16 characters" "$(cat /sys/block/"$name"/device/model)" \
	"$(printf '%.16s' "$DUEL_ATA_MODEL")"
is "SCSI sysfs rev keeps 4 characters of the firmware" "$(cat /sys/block/"$name"/device/rev)" \
	"$(printf '%s' "$DUEL_ATA_FIRMWARE" | cut -c5-8)"

# Root: ATA IDENTIFY and SMART through SG_IO.
"$cli" info --json "$dev" >"$work/root.json" 2>"$work/root.err"
ok "info --json as root" $?
is "root: model, all 40 characters" "$(member "$work/root.json" model)" "$DUEL_ATA_MODEL"
is "root: firmware, all 8 characters" "$(member "$work/root.json" firmware)" "$DUEL_ATA_FIRMWARE"
is "root: serial, all 20 characters" "$(member "$work/root.json" serial)" "$DUEL_ATA_SERIAL"
is "root: identity from ATA IDENTIFY through SG_IO" "$(member "$work/root.json" identity_source)" ata-identify
object "$work/root.json" ata_smart >"$work/smart.json"
is "root: SMART RETURN STATUS passed" "$(member "$work/smart.json" status "    ")" passed
is "root: SMART temperature" "$(member "$work/smart.json" temperature_c "    ")" "$QEMU_TEMPERATURE_C.0"
is "root: temperature from attribute 190" "$(member "$work/smart.json" temperature_attribute "    ")" \
	"$QEMU_TEMPERATURE_ATTRIBUTE"
is "root: power-on hours" "$(member "$work/smart.json" power_on_hours "    ")" "$QEMU_POWER_ON_HOURS"
is "root: power cycles" "$(member "$work/smart.json" power_cycles "    ")" "$QEMU_POWER_CYCLES"
is "root: the drive's temperature at the top" "$(member "$work/root.json" temperature_c)" "$QEMU_TEMPERATURE_C.0"

"$cli" info "$dev" >"$work/root.txt" 2>&1
ok "info as root" $?
sed 's/^/# /' "$work/root.txt"
is "text: title" "$(head -1 "$work/root.txt")" "$dev — $DUEL_ATA_MODEL"
grep -qx "  Firmware: *$DUEL_ATA_FIRMWARE" "$work/root.txt"
ok "text: firmware" $?
grep -qx "  Health: *SMART passed, $QEMU_TEMPERATURE_C.0 °C, $QEMU_POWER_ON_HOURS power-on hours, $QEMU_POWER_CYCLES power cycles" \
	"$work/root.txt"
ok "text: health" $?

# No pass-through (as on a USB bridge that refuses it): libata's copy of IDENTIFY.
DUEL_ATA_TRANSPORT=none "$cli" info --json "$dev" >"$work/none.json" 2>&1
is "no pass-through: model from libata's sysfs id" \
	"$(member "$work/none.json" model) / $(member "$work/none.json" identity_source)" "$DUEL_ATA_MODEL / libata-sysfs"
is "no pass-through: firmware and serial" \
	"$(member "$work/none.json" firmware) $(member "$work/none.json" serial)" "$DUEL_ATA_FIRMWARE $DUEL_ATA_SERIAL"
! grep -q '"ata_smart"' "$work/none.json"
ok "no pass-through: no SMART" $?

# A user without rights on the device: the same identity, no SMART, a note.
echo "root:x:0:0:root:/root:/bin/sh" >/etc/passwd
echo "nobody:x:65534:65534:nobody:/tmp:/bin/sh" >>/etc/passwd
printf 'root:x:0:\nnogroup:x:65534:\n' >/etc/group
chmod 0600 "$dev"
su -s /bin/sh nobody -c "'$cli' info --json '$dev'" >"$work/user.json" 2>&1
is "user: model, firmware, serial without rights" \
	"$(member "$work/user.json" model)|$(member "$work/user.json" firmware)|$(member "$work/user.json" serial)" \
	"$DUEL_ATA_MODEL|$DUEL_ATA_FIRMWARE|$DUEL_ATA_SERIAL"
is "user: from libata's sysfs id" "$(member "$work/user.json" identity_source)" libata-sysfs
! grep -q '"ata_smart"' "$work/user.json" && grep -q 'Permission denied' "$work/user.json"
ok "user: no SMART, a note says why" $?

# A result file: the identity and the SMART snapshots before and after.
"$cli" run --rw=read --bs=64k --iodepth=4 --size=4m -o "$work/run.json" "$dev" >"$work/run.txt" 2>&1
r=$?
[ $r = 0 ] || sed 's/^/# /' "$work/run.txt"
ok "a read run on the disk" $r
tr -d ' \n' <"$work/run.json" >"$work/run.flat"
grep -q "\"model\":\"$(printf '%s' "$DUEL_ATA_MODEL" | tr -d ' ')\"" "$work/run.flat" && grep -q "\"firmware\":\"$DUEL_ATA_FIRMWARE\"" "$work/run.flat"
ok "result: full model and firmware" $?
for when in before after; do
	grep -q "\"health_$when\":{[^}]*\"ata_smart\":{\"status\":\"passed\",\"temperature_c\":$QEMU_TEMPERATURE_C" \
		"$work/run.flat"
	ok "result: SMART in health_$when" $?
done
grep -q "\"peak_temperature_c\":$QEMU_TEMPERATURE_C" "$work/run.flat"
ok "result: peak temperature from SMART" $?

rm -rf "$work"
echo "1..$n"
exit $failed
