#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0
#
# /init of the nvpcounter test VM (busybox-static). Loads the kernel's own
# virtio and 9p modules, mounts the host root read-only and the results
# share writable, then runs the guest script in a chroot of the host root
# so that the host's perf and test binaries run unchanged.
# Variables from the kernel command line: NVPC_TOP, NVPC_OUT, NVPC_SCRIPT,
# and for the guest script NVPC_TEST_TIMEOUT (bound of one kselftest),
# NVPC_FUZZ_SEED (replays fuzz_test), NVPC_FUZZ_WORKERS (its processes),
# NVPC_TESTS and NVPC_TESTS_EXCLUDE (a share of the tests,
# guest-selftests.sh), NVPC_TIME_SCALE (the guest's time scale, else
# measured) and NVPC_TIME_REF_MS (its idle reference) when set.

/bin/busybox --install -s /bin
export PATH=/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

log() { echo "nvpc-init: $*" > /dev/kmsg; echo "nvpc-init: $*"; }

# the kernel's boot ends here: run.sh judges the log after this line
log "started"

poweroff_now() {
	sync
	echo o > /proc/sysrq-trigger
	sleep 10
}

for m in $(cat /modules.order); do
	insmod "/lib/modules/$m" || log "insmod $m failed"
done

# the loopback up, as on any machine (-net none gives no other
# interface): nvpc export's test serves and scrapes on 127.0.0.1
ip link set lo up || log "loopback not up"

R=/mnt/root
mkdir -p $R
if ! mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 hostroot $R; then
	log "cannot mount the host root"
	poweroff_now
fi
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results "$R$NVPC_OUT"; then
	log "cannot mount the results share"
	poweroff_now
fi

mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -t devtmpfs devtmpfs $R/dev
# what udev makes on any machine: without them a redirection to
# /dev/stdout made a file in devtmpfs, and guest_run's "-" lost the
# output of every shell test
for l in fd:/proc/self/fd stdin:/proc/self/fd/0 stdout:/proc/self/fd/1 \
	 stderr:/proc/self/fd/2; do
	[ -e "$R/dev/${l%%:*}" ] || ln -s "${l#*:}" "$R/dev/${l%%:*}"
done
mount -t debugfs debugfs $R/sys/kernel/debug
mount -t tmpfs tmpfs $R/run
mount -t tmpfs tmpfs $R/dev/shm 2>/dev/null
mkdir -p $R/run/nvpc
cp /nvpc/*.ko $R/run/nvpc/

log "running $NVPC_SCRIPT"
chroot $R /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	NVPC_TOP="$NVPC_TOP" NVPC_OUT="$NVPC_OUT" NVPC_MODULE_DIR=/run/nvpc \
	NVPC_TEST_TIMEOUT="${NVPC_TEST_TIMEOUT:-600}" \
	NVPC_FUZZ_SEED="${NVPC_FUZZ_SEED:-}" \
	${NVPC_FUZZ_WORKERS:+NVPC_FUZZ_WORKERS="$NVPC_FUZZ_WORKERS"} \
	NVPC_TESTS="${NVPC_TESTS:-}" NVPC_TESTS_EXCLUDE="${NVPC_TESTS_EXCLUDE:-}" \
	${NVPC_TIME_SCALE:+NVPC_TIME_SCALE="$NVPC_TIME_SCALE"} \
	${NVPC_TIME_REF_MS:+NVPC_TIME_REF_MS="$NVPC_TIME_REF_MS"} \
	TMPDIR="$NVPC_OUT" /bin/bash "$NVPC_SCRIPT" >> $R$NVPC_OUT/guest.log 2>&1
echo "$?" > $R$NVPC_OUT/guest.rc
dmesg > $R$NVPC_OUT/dmesg.txt
log "done"
umount $R$NVPC_OUT
poweroff_now
