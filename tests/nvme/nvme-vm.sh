#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Drive Duel's copy of the QEMU NVMe guest script, used by run-nvme-test.sh.
#
# nvme-vm.sh - run a host-side command/binary inside a throw-away QEMU guest (KVM, or TCG
# where no usable KVM exists) that has one or more QEMU-emulated NVMe controllers, print
# the guest command's output (stdout+stderr, merged) and exit with its exit status.
#
# Needs only Debian 12 packages: qemu-system-x86 (host), plus two .deb files that are
# fetched with `apt-get download` (never installed): linux-image-<ver>-cloud-amd64
# (or -amd64) and busybox-static. gcc/ldd for your program as usual.
#
# usage: nvme-vm.sh [options] [--] CMD [ARGS...]
#   CMD runs in the guest under busybox sh as root.  If CMD (or any -b FILE) is a
#   host file it is copied into the guest at the same absolute path together with the
#   shared libraries ldd reports.  The guest cwd is the host's $PWD (created empty
#   unless files were copied there).  Busybox applets (ls, dd, cat, ...) are in PATH.
#
# options:
#   -b FILE     copy FILE (ELF binary + its ldd libs, script or data; directories
#               recursively) into the guest at the same absolute path.  Repeatable.
#   -n N        number of NVMe controllers (default 1), each with one namespace;
#               guest names: /dev/nvme0 .. /dev/nvme{N-1}, /dev/nvme{i}n1
#   -s SIZE     size of each namespace backing file (truncate syntax, default 1G, sparse)
#   -D DIR      where backing files go (default /dev/shm if writable, else /tmp);
#               they are deleted when the VM exits.  -D null: no backing file at all
#               (qemu null-co driver: writes are dropped, reads return zeroes)
#   -o OPTS     extra options for every "-device nvme" (e.g. mdts=5,logical_block_size=4096)
#   -d OPTS     extra options for every backing "-drive" (e.g. cache=none,aio=io_uring for
#               a file on a real disk; tmpfs such as /dev/shm does not support cache=none)
#   -L S,W      put each controller behind a pcie-root-port with link speed S
#               (2_5|5|8|16 GT/s) and width W (1..32).  The NVMe endpoint then reports
#               "2.5 GT/s PCIe" x1 whatever S,W are (QEMU 7.2); only the port shows S,W
#               as its max.  Default: q35 root bus, where the endpoint is a root-complex
#               integrated endpoint: current_link_speed "Unknown", width 0.
#   -k FLAVOUR  guest kernel flavour: cloud (default; NVMe built in) or generic
#               (linux-image-*-amd64; nvme.ko/nvme-core.ko insmod'ed from the initramfs;
#               also has NVMe hwmon)
#   -e VAR=VAL  export VAR in the guest. Repeatable.
#   -a OPTS     also attach one SATA disk: QEMU's ide-hd on the q35 machine's built-in
#               AHCI controller (port 0), backed by a null-co drive of SIZE (-s), with
#               extra ide-hd options OPTS (e.g. model=...,ver=...,serial=...; spaces are
#               kept). Guest name /dev/sda. Needs -k generic (libata, ahci and sd_mod are
#               insmod'ed from the initramfs; the cloud kernel has no AHCI driver).
#   -m MEM      guest memory (default 1G);  -c CPUS guest vCPUs (default 2)
#   -t SECS     hard timeout for the whole VM (default 120)
#   -q ARGS     extra raw qemu arguments (word-split)
#   -v          also print the guest kernel console (ttyS0) to stderr
#   -h          help
# environment:
#   NVME_VM_CACHE        kernel/busybox cache (default /var/tmp/nvme-vm-cache; ~70 MB/flavour)
#   NVME_VM_ACCEL        auto (default: kvm if kvm_intel/kvm_amd is loaded, else tcg) | kvm | tcg
#   NVME_VM_MACHINE      q35 (default) | pc
#   NVME_VM_PVH=0        boot the bzImage instead of the extracted vmlinux (PVH entry)
#   NVME_VM_QBOOT=0      use SeaBIOS instead of qboot
#   NVME_VM_INITRD_COMPRESS=gzip   gzip the initramfs (default: uncompressed cpio)
#   NVME_VM_APPEND       replaces "quiet loglevel=3" on the guest kernel command line
#   NVME_VM_BOOT_TIMEOUT / NVME_VM_BOOT_RETRIES   boot watchdog (default 90 s / 2 retries)
#   NVME_VM_DEBUG=1      print phase timings to stderr
#
# exit status: the guest command's, 124 on timeout, 125 on VM/setup failure.
set -euo pipefail

NCTRL=1 SIZE=1G IMGDIR= NVOPTS= DRVOPTS= LINK= FLAVOUR=cloud MEM=1G CPUS=2 TMO=120 QEXTRA= VERBOSE=0
ATAOPTS='' NATA=0
FILES=() ENVS=()
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }
while getopts "b:n:s:D:o:d:L:k:e:m:c:t:q:a:vh" o; do
	case $o in
	b) FILES+=("$OPTARG") ;; n) NCTRL=$OPTARG ;; s) SIZE=$OPTARG ;; D) IMGDIR=$OPTARG ;;
	o) NVOPTS=",$OPTARG" ;; d) DRVOPTS=",$OPTARG" ;; L) LINK=$OPTARG ;; k) FLAVOUR=$OPTARG ;; e) ENVS+=("$OPTARG") ;;
	m) MEM=$OPTARG ;; c) CPUS=$OPTARG ;; t) TMO=$OPTARG ;; q) QEXTRA=$OPTARG ;; v) VERBOSE=1 ;;
	a) ATAOPTS=$OPTARG NATA=1 ;;
	h) usage 0 ;; *) usage 125 >&2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage 125 >&2
die() { echo "nvme-vm: $*" >&2; exit 125; }
[ "$NATA" = 0 ] || [ "$FLAVOUR" = generic ] || die "-a needs -k generic: the cloud kernel has no AHCI driver"
T0=$(date +%s%N)
tick() { [ -n "${NVME_VM_DEBUG:-}" ] && echo "nvme-vm: +$((($(date +%s%N) - T0) / 1000000)) ms $*" >&2; return 0; }

CACHE=${NVME_VM_CACHE:-/var/tmp/nvme-vm-cache}
mkdir -p "$CACHE"

# ---------------------------------------------------------------- kernel + busybox
# Resolve the meta package to the versioned image package, e.g.
# linux-image-cloud-amd64 -> linux-image-6.1.0-57-cloud-amd64.
case $FLAVOUR in
cloud) META=linux-image-cloud-amd64 ;; generic) META=linux-image-amd64 ;; *) die "bad -k $FLAVOUR" ;;
esac
# Uncompressed ELF vmlinux (Debian kernels have CONFIG_PVH=y): qemu then boots it via the
# PVH entry point, skipping the bzImage real-mode stub and decompressor (~0.5 s under TCG).
# cloud = LZ4 (needs the lz4 tool), generic = XZ (python3 lzma). Optional: falls back to bzImage.
extract_vmlinux() {
	command -v python3 >/dev/null || return 1
	python3 - "$1" "$2" <<'PY'
import sys, lzma, zlib, subprocess, shutil
d = open(sys.argv[1], 'rb').read()
out = b''
for magic, how in ((b'\xfd7zXZ\x00', 'xz'), (b'\x02\x21\x4c\x18', 'lz4'), (b'\x28\xb5\x2f\xfd', 'zstd'), (b'\x1f\x8b\x08\x00', 'gz')):
    i = d.find(magic)
    while i >= 0 and not out.startswith(b'\x7fELF'):
        try:
            if how == 'xz': out = lzma.LZMADecompressor().decompress(d[i:])
            elif how == 'gz': out = zlib.decompressobj(31).decompress(d[i:])
            elif shutil.which(how): out = subprocess.run([how, '-dc'], input=d[i:], capture_output=True).stdout
        except Exception: out = b''
        i = d.find(magic, i + 1) if not out.startswith(b'\x7fELF') else i
        if not shutil.which(how) and how in ('lz4', 'zstd'): break
    if out.startswith(b'\x7fELF'): break
if not out.startswith(b'\x7fELF'): sys.exit(1)
open(sys.argv[2], 'wb').write(out)
PY
}
fetch_kernel() {
	local pkg kdir deb
	pkg=$(cat "$CACHE/$META.pkg" 2>/dev/null || true)
	if [ -z "$pkg" ] || [ ! -e "$CACHE/$pkg/vmlinuz" ]; then
		pkg=$(apt-cache depends "$META" 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
		[ -n "$pkg" ] || die "cannot resolve $META with apt-cache (apt-get update?)"
		kdir=$CACHE/$pkg
		if [ ! -e "$kdir/vmlinuz" ]; then
			rm -rf "$kdir.tmp"; mkdir -p "$kdir.tmp"
			(cd "$kdir.tmp" && apt-get download "$pkg" >/dev/null 2>&1) || die "apt-get download $pkg failed"
			deb=$(ls "$kdir.tmp"/*.deb)
			# extract only the kernel image and the NVMe host driver (+ deps) modules
			# (bookworm: ./lib/modules, uncompressed .ko; later releases may use ./usr/lib/modules)
			dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$kdir.tmp" --wildcards --no-wildcards-match-slash \
				'./boot/vmlinuz-*' \
				'./*lib/modules/*/kernel/drivers/nvme/host/nvme*.ko*' \
				'./*lib/modules/*/kernel/block/t10-pi.ko*' './*lib/modules/*/kernel/lib/crc*.ko*' \
				'./*lib/modules/*/kernel/crypto/crc*.ko*' './*lib/modules/*/kernel/arch/x86/crypto/crc*.ko*' \
				2>/dev/null || true
			mv "$kdir.tmp"/boot/vmlinuz-* "$kdir.tmp/vmlinuz"; rmdir "$kdir.tmp/boot"
			extract_vmlinux "$kdir.tmp/vmlinuz" "$kdir.tmp/vmlinux" || rm -f "$kdir.tmp/vmlinux"
			rm -f "$deb"; rm -rf "$kdir"; mv "$kdir.tmp" "$kdir"
		fi
		echo "$pkg" >"$CACHE/$META.pkg"
	fi
	KPKG=$pkg KDIR=$CACHE/$pkg
}
fetch_busybox() {
	BB=$CACHE/busybox
	[ -x "$BB" ] && return
	local t=$CACHE/bb.tmp
	rm -rf "$t"; mkdir -p "$t"
	(cd "$t" && apt-get download busybox-static >/dev/null 2>&1) || die "apt-get download busybox-static failed"
	dpkg-deb --fsys-tarfile "$t"/*.deb | tar -x -C "$t" ./bin/busybox
	mv "$t/bin/busybox" "$BB"; rm -rf "$t"
}
# -a: the SCSI disk and AHCI modules, added to a cached generic kernel that lacks them.
ATA_MODS="drivers/scsi/scsi_common drivers/scsi/scsi_mod drivers/ata/libata drivers/ata/libahci drivers/ata/ahci drivers/scsi/sd_mod"
fetch_ata_modules() {
	local m t deb missing=0 pats=()
	for m in $ATA_MODS; do
		ls "$KDIR"/lib/modules/*/kernel/"$m".ko "$KDIR"/usr/lib/modules/*/kernel/"$m".ko >/dev/null 2>&1 || missing=1
	done
	[ "$missing" = 0 ] && return
	t=$KDIR.ata.tmp
	rm -rf "$t"; mkdir -p "$t"
	(cd "$t" && apt-get download "$KPKG" >/dev/null 2>&1) || die "apt-get download $KPKG failed"
	deb=$(ls "$t"/*.deb)
	for m in $ATA_MODS; do pats+=("./*lib/modules/*/kernel/$m.ko*"); done
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$KDIR" --wildcards --no-wildcards-match-slash "${pats[@]}" 2>/dev/null || true
	rm -rf "$t"
}
# lock the cache while populating it (parallel test runs)
exec 9>"$CACHE/.lock"; flock 9
fetch_kernel; fetch_busybox
[ "$NATA" = 0 ] || fetch_ata_modules
flock -u 9
tick "kernel+busybox ready ($KPKG)"

# ---------------------------------------------------------------- initramfs
W=$(mktemp -d "${TMPDIR:-/tmp}/nvme-vm.XXXXXX")
QPID=
cleanup() {
	[ -n "$QPID" ] && kill "$QPID" 2>/dev/null || true
	rm -rf "$W"
	[ -n "${IMGS:-}" ] && rm -f $IMGS
	return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM
R=$W/root
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,etc,lib/modules,nvmevm}
cp "$BB" "$R/bin/busybox"
ln -s busybox "$R/bin/sh"   # the other applet links are made by "busybox --install -s" at boot

declare -A SEEN
copy_one() { # copy a host file (dereferenced) to the same path in $R
	local src=$1
	[ -n "${SEEN[$src]:-}" ] && return; SEEN[$src]=1
	mkdir -p "$R$(dirname "$src")"
	cp -L "$src" "$R$src"
}
copy_elf_libs() { # $1: ELF file; copy its ldd-reported libs
	local l
	for l in $(ldd "$1" 2>/dev/null | awk '/=> \//{print $3} /^\t\/[^ ]+ \(/{print $1}'); do
		copy_one "$l"   # includes the /lib64/ld-linux-x86-64.so.2 interpreter
	done
}
add_path() {
	local p; p=$(realpath -s "$1")
	[ -e "$p" ] || die "no such file: $1"
	if [ -d "$p" ]; then
		mkdir -p "$R$p"; cp -a "$p/." "$R$p/"
		while IFS= read -r -d '' f; do
			head -c4 "$f" 2>/dev/null | grep -q ELF && copy_elf_libs "$f"
		done < <(find "$p" -type f -perm -u+x -print0)
	else
		copy_one "$p"
		head -c4 "$p" | grep -q ELF && copy_elf_libs "$p"
	fi
	return 0
}
for f in "${FILES[@]}"; do add_path "$f"; done
# CMD itself: copy if it names a host file ("./t", "/usr/sbin/nvme", "build/x")
if [[ $1 == */* ]] && [ -f "$1" ]; then add_path "$1"; fi

# kernel modules for the generic flavour (built in for cloud)
MODS=
if [ "$FLAVOUR" = generic ]; then
	M=$(echo "$KDIR"/lib/modules/*/kernel "$KDIR"/usr/lib/modules/*/kernel | tr ' ' '\n' | grep -v '\*' | head -1)
	# dependency order (from the modules' depends=): crc64-rocksoft<-crc64,
	# crc-t10dif<-crct10dif_common, t10-pi, nvme-core, nvme
	for m in crypto/crct10dif_common lib/crc-t10dif lib/crc64 lib/crc64-rocksoft \
		block/t10-pi drivers/nvme/host/nvme-core drivers/nvme/host/nvme; do
		[ -f "$M/$m.ko" ] || die "missing module $m.ko in $KDIR"
		cp "$M/$m.ko" "$R/lib/modules/"; MODS="$MODS $(basename "$m").ko"
	done
	# -a: after t10-pi (sd_mod needs it)
	if [ "$NATA" != 0 ]; then
		for m in $ATA_MODS; do
			[ -f "$M/$m.ko" ] || die "missing module $m.ko in $KDIR"
			cp "$M/$m.ko" "$R/lib/modules/"; MODS="$MODS $(basename "$m").ko"
		done
	fi
fi

{
	echo "NCTRL=$NCTRL"; echo "MODS='$MODS'"
	[ "$NATA" = 0 ] || echo "NATA=$NATA"
	printf 'GUEST_CWD=%q\n' "$PWD"
	for e in "${ENVS[@]}"; do printf 'export %q\n' "$e"; done
} >"$R/nvmevm/conf"
printf '%q ' "$@" >"$R/nvmevm/cmd"; echo >>"$R/nvmevm/cmd"

cat >"$R/init" <<'EOF'
#!/bin/sh
/bin/busybox --install -s
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm /root /tmp /run   # rootfs (initramfs) is already a writable tmpfs; do not hide copied files
ln -sf /proc/self/fd /dev/fd
. /nvmevm/conf
for m in $MODS; do insmod /lib/modules/$m || echo "nvme-vm: insmod $m failed" >/dev/ttyS0; done
# wait (max ~10 s) for the controllers and their first namespace to show up
i=0
while [ $i -lt 1000 ]; do
	n=0; for c in $(seq 0 $((NCTRL - 1))); do [ -b /dev/nvme${c}n1 ] && n=$((n + 1)); done
	[ $n -ge $NCTRL ] && break
	usleep 10000; i=$((i + 1))
done
[ $n -ge $NCTRL ] || echo "nvme-vm: only $n of $NCTRL NVMe namespaces appeared" >/dev/ttyS1
# -a: wait (max ~30 s; AHCI probing is slow under TCG) for the SATA disk
if [ "${NATA:-0}" != 0 ]; then
	i=0
	while [ $i -lt 3000 ] && [ ! -b /dev/sda ]; do usleep 10000; i=$((i + 1)); done
	[ -b /dev/sda ] || echo "nvme-vm: the SATA disk /dev/sda did not appear" >/dev/ttyS1
fi
mkdir -p "$GUEST_CWD"; cd "$GUEST_CWD"
echo "@@NVMEVM_START@@" >/dev/ttyS0   # tells the host the guest booted (boot watchdog)
exec 3>/dev/ttyS1
stty -F /dev/ttyS1 raw -echo 2>/dev/null   # no \n -> \r\n translation: output arrives byte-exact
sh /nvmevm/cmd </dev/null >&3 2>&3
rc=$?
echo "@@NVMEVM_RC=$rc@@" >&3
exec 3>&-   # last close of the tty waits for the UART to drain
sync
poweroff -f
EOF
chmod +x "$R/init"
# uncompressed newc cpio by default (the kernel unpacks it faster than gzip under TCG);
# NVME_VM_INITRD_COMPRESS=gzip gives the classic cpio+gzip.
(cd "$R" && find . | "$BB" cpio -o -H newc -R 0:0 2>/dev/null) |
	if [ "${NVME_VM_INITRD_COMPRESS:-none}" = gzip ]; then gzip -1; else cat; fi >"$W/initrd"
tick "initramfs built ($(du -k "$W/initrd" | cut -f1) KiB)"

# ---------------------------------------------------------------- disks + qemu
if [ -z "$IMGDIR" ]; then
	if [ -w /dev/shm ]; then IMGDIR=/dev/shm; else IMGDIR=/tmp; fi
fi
IMGS=
DEV=()
for ((c = 0; c < NCTRL; c++)); do
	if [ "$IMGDIR" = null ]; then
		DEV+=(-drive "driver=null-co,size=$(numfmt --from=iec "$SIZE"),read-zeroes=on,if=none,id=nvd$c$DRVOPTS")
	else
		img=$(mktemp "$IMGDIR/nvme-vm.$$.$c.XXXXXX.img"); IMGS="$IMGS $img"
		truncate -s "$SIZE" "$img"
		DEV+=(-drive "file=$img,if=none,id=nvd$c,format=raw,discard=unmap$DRVOPTS")
	fi
	bus=
	if [ -n "$LINK" ]; then
		DEV+=(-device "pcie-root-port,id=rp$c,bus=pcie.0,chassis=$((c + 1)),slot=$((c + 1)),x-speed=${LINK%,*},x-width=${LINK#*,}")
		bus=",bus=rp$c"
	fi
	DEV+=(-device "nvme,id=nvme$c,serial=NVMEVM$(printf %04d $c),drive=nvd$c$bus$NVOPTS")
done
if [ "$NATA" != 0 ]; then
	DEV+=(-drive "driver=null-co,size=$(numfmt --from=iec "$SIZE"),read-zeroes=on,if=none,id=atad0")
	DEV+=(-device "ide-hd,drive=atad0,bus=ide.0${ATAOPTS:+,$ATAOPTS}")
fi

# Accelerator: KVM when the host has a real VMX/SVM KVM (kvm_intel/kvm_amd), else TCG.
# (A nested "kvm_pvm" /dev/kvm, as found on Firecracker-style sandboxes, cannot run a stock
# Debian kernel: ~110 s just to decompress it, then "KVM internal error ... emulation
# failure" on lock cmpxchg16b. Force with NVME_VM_ACCEL=kvm|tcg.)
ACC=${NVME_VM_ACCEL:-auto}
if [ "$ACC" = auto ]; then
	ACC=tcg
	if [ -w /dev/kvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then ACC=kvm; fi
fi
case $ACC in
kvm) ACCEL=(-accel kvm -cpu host) ;;
tcg) ACCEL=(-accel tcg,thread=multi -cpu max) ;;
*) die "bad NVME_VM_ACCEL=$ACC" ;;
esac

KERNEL=$KDIR/vmlinuz
[ "${NVME_VM_PVH:-1}" = 1 ] && [ -f "$KDIR/vmlinux" ] && KERNEL=$KDIR/vmlinux
BIOS=()
[ -f /usr/share/qemu/qboot.rom ] && [ "${NVME_VM_QBOOT:-1}" = 1 ] && BIOS=(-bios /usr/share/qemu/qboot.rom)
APPEND="console=ttyS0 ${NVME_VM_APPEND:-quiet loglevel=3} panic=-1 rdinit=/init mitigations=off nokaslr tsc=reliable i8042.noaux i8042.nokbd"
# Boot watchdog: a (rare) guest that has not reached /init after NVME_VM_BOOT_TIMEOUT
# seconds (default 90) is killed and booted again, up to NVME_VM_BOOT_RETRIES (default 2) times.
# A cap for a hung boot, not a time a boot must keep: under emulation (TCG) beside two
# CPU-bound processes the whole VM took 22-29 s, and a watchdog of 30 s would have
# turned a slow boot into a retry, then into a skip.
BOOT_TMO=${NVME_VM_BOOT_TIMEOUT:-90}
for try in $(seq 0 "${NVME_VM_BOOT_RETRIES:-2}"); do
	: >"$W/console.log"; : >"$W/out.log"
	set +e
	# shellcheck disable=SC2086
	timeout --foreground -k 5 "$TMO" qemu-system-x86_64 "${ACCEL[@]}" -machine "${NVME_VM_MACHINE:-q35}" -m "$MEM" -smp "$CPUS" \
		-nodefaults -no-user-config -display none -no-reboot \
		"${BIOS[@]}" -kernel "$KERNEL" -initrd "$W/initrd" -append "$APPEND" \
		-serial "file:$W/console.log" -serial "file:$W/out.log" \
		"${DEV[@]}" $QEXTRA </dev/null >"$W/qemu.log" 2>&1 &
	QPID=$!
	BOOTED=0 HUNG=0 t=0
	while kill -0 "$QPID" 2>/dev/null; do
		if grep -q '@@NVMEVM_START@@' "$W/console.log"; then BOOTED=1; break; fi
		if [ "$t" -ge $((BOOT_TMO * 20)) ]; then HUNG=1; kill "$QPID" 2>/dev/null; break; fi
		sleep 0.05; t=$((t + 1))
	done
	wait "$QPID"; QRC=$?
	QPID=
	set -e
	grep -q '@@NVMEVM_START@@' "$W/console.log" && BOOTED=1
	# retry only a boot hang, not a qemu that exited by itself (bad option, guest panic, ...)
	[ "$BOOTED" = 1 ] || [ "$HUNG" = 0 ] && break
	echo "nvme-vm: guest did not reach /init within ${BOOT_TMO}s (try $((try + 1))); console tail:" >&2
	tr -d '\r' <"$W/console.log" | tail -5 >&2
done
tick "qemu exited (rc=$QRC)"

# ttyS1 carries the command output followed by "@@NVMEVM_RC=<n>@@"; print what precedes
# the last marker byte-exact (also when the output did not end in a newline).
M=$(grep -boa '@@NVMEVM_RC=[0-9]*@@' "$W/out.log" | tail -1 || true)
if [ -n "$M" ]; then
	RC=${M##*=}; RC=${RC%@@}
	head -c "${M%%:*}" "$W/out.log"
else
	RC=
	cat "$W/out.log"
fi
if [ "$VERBOSE" = 1 ] || [ -z "$RC" ]; then
	{ echo "----- guest console (ttyS0) -----"; tr -d '\r' <"$W/console.log"; echo "----- qemu -----"; cat "$W/qemu.log"; } >&2
fi
if [ -z "$RC" ]; then
	[ "$QRC" = 124 ] && { echo "nvme-vm: timeout after ${TMO}s" >&2; exit 124; }
	echo "nvme-vm: guest did not report an exit status (qemu rc=$QRC)" >&2; exit 125
fi
cleanup; trap - EXIT
tick "cleaned up"
exit "$RC"
