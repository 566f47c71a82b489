#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test command (make check): install what is missing, then lint (and
# the build) with the host unit tests beside them, and then the jobs: the
# kselftests in QEMU on every target kernel, the PCI backend, the
# install path (DKMS), record mode through bounce buffers, the demo, and
# every kselftest again under the debug kernel (in two VMs) with a
# kmemleak scan at the end of each
# (NVPC_DEBUG_KERNEL=0 leaves that stage out, and a TAP skip says so).
# The debug kernel is built (once per machine, debugkernel/build.sh) in
# the background from the start, niced, while the other phases run. Ends
# with one line "N passed, N failed, N skipped"; exits non-zero on any
# failure.
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tools/testing/lib.sh"

export NVPC_RESULTS=$TOP/build/results.tap
mkdir -p "$TOP/build"
: > "$NVPC_RESULTS"
t0=$(date +%s)

if "$TOP/tools/deps/install.sh"; then
	result ok "deps: Debian packages installed"
else
	result fail "deps: Debian packages installed"
	summarize "$NVPC_RESULTS"
	exit 1
fi

if make -s -C "$TOP" ksrc > "$TOP/build/ksrc.log" 2>&1; then
	result ok "deps: kselftest headers and checkpatch unpacked"
else
	result fail "deps: kselftest headers and checkpatch unpacked"
fi

KVERS=$(make -s -C "$TOP" --no-print-directory print-kvers)
export KVERS
echo "# target kernels: $KVERS"

# The debug kernel's first build takes ~20 min on 2 cores: start it now.
dk_results=$TOP/build/debug-kernel.tap
: > "$dk_results"
dk_pid=
if [ "${NVPC_DEBUG_KERNEL:-1}" != 0 ]; then
	NVPC_RESULTS=$dk_results "$TOP/tools/testing/debugkernel/build.sh" \
		> "$TOP/build/debug-kernel.log" 2>&1 &
	dk_pid=$!
	echo "# debug kernel: $("$TOP/tools/testing/debugkernel/build.sh" --dir) (pid $dk_pid)"
fi

# The host unit tests need no VM and no module: they run on the second
# core beside lint and the build, which are serial (one core). Their
# log is printed whole when they end, as a job's is.
unit_log=$TOP/build/unit-job.log
unit_t1=$(date +%s)
"$TOP/tools/testing/unit.sh" > "$unit_log" 2>&1 &
unit_pid=$!
unit_end() {
	local rc=0

	wait "$unit_pid" || rc=$?
	cat "$unit_log"
	echo "# job unit (beside lint and the build): $(($(date +%s) - unit_t1)) s, exit $rc"
}

# lint builds the modules of every kernel (W=1, sparse) where the VM
# runs take them from: before any of them.
"$TOP/tools/testing/lint.sh"

if ! make -s -C "$TOP" modules selftests nvpc > "$TOP/build/selftests.log" 2>&1; then
	result fail "build: modules, kselftests and tools/nvpc" "see build/selftests.log"
	unit_end
	[ -n "$dk_pid" ] && kill "$dk_pid" 2> /dev/null
	echo "# wall time $(($(date +%s) - t0)) s"
	summarize "$NVPC_RESULTS"
	exit 1
fi
result ok "build: modules, kselftests and tools/nvpc"
unit_end

# The rest are jobs, NVPC_CHECK_JOBS at a time (default 1). On this
# 2-core machine two side by side were slower, not faster: the debug
# kernel's VM beside the 6.1-rt one ran its nvpc_test.sh 4 times as
# long as alone (over 26 min against 6), the two QEMUs at 1.7 cores
# (Documentation/testing.rst "Jobs"); a machine with more cores may
# take 2. Each job has a log of its own, printed whole when it ends; its
# TAP lines go to $NVPC_RESULTS as they come. The first worker's VM
# runs take turns on the machine's usual lock (tools/testing/vm/run.sh),
# the second's on a lock of its own.
NJOBS=${NVPC_CHECK_JOBS:-1}
case $NJOBS in 1|2) ;; *) echo "NVPC_CHECK_JOBS=$NJOBS: 1 or 2"; NJOBS=1 ;; esac
JOBS=$TOP/build/jobs
rm -rf "$JOBS"
mkdir -p "$JOBS"

# Each kernel's whole suite took 360-740 s on an idle machine and up to
# 1628 s measured beside a CPU hog on every core: a bound of 1800 s, not
# a test, which run.sh multiplies by the host's time scale (its load at
# boot; each test's bound inside grows with the guest's: testing.rst "A
# busy machine").
run_job() {
	local job=$1 k=${1#*:}

	case $job in
	vm:*)
		NVPC_VM_TIMEOUT=${NVPC_VM_TIMEOUT:-1800} \
			"$TOP/tools/testing/vm/run.sh" "$k" ;;
	pci:*)
		"$TOP/tools/testing/vm/pci-ivshmem.sh" "$k" ;;
	install:*)
		# README "On your own GPU": make install through DKMS,
		# modprobe, nvpc top and export, make uninstall
		"$TOP/tools/testing/vm/install-vm.sh" "$k" ;;
	swiotlb:*)
		# record mode through bounce buffers (record.rst "DMA")
		NVPC_VM_NAME=swiotlb NVPC_VM_APPEND=swiotlb=force \
			NVPC_VM_SCRIPT=$TOP/tools/testing/vm/guest-record.sh \
			"$TOP/tools/testing/vm/run.sh" "$k" ;;
	demo:*)
		# make demo's guest script on the first target kernel, with
		# its own checks of the recorded phases (demo.tap)
		NVPC_VM_NAME=demo NVPC_VM_TIMEOUT=300 \
			NVPC_VM_SCRIPT=$TOP/tools/testing/vm/guest-demo.sh \
			"$TOP/tools/testing/vm/run.sh" "$k" ;;
	debug*)
		# the debug kernel's suite (about 1100 s of tests under
		# KASAN, kmemleak and lockdep): in one VM, or with two
		# workers in two (the tools' end-to-end scripts in one, the
		# kselftests in the other)
		debug_job "${job#debug}" ;;
	esac
}

DEBUG_SHARE_A=nvpc_test.sh,sample_test.sh,engines_test.sh,export_test.sh,module_test,nv10_test,window_test
# Left out under the debug kernel: the tests of nvpc's own commands,
# which reach the driver only through the perf calls the kselftests make
# there too (out_test.sh: where -o writes, its hooks under a file
# capability; doctor_test.sh: the states before counts; firstlight_test.sh,
# scan_test.sh and export_test.sh: perf groups on every domain, opened and
# read as perf_test, group_test and engines_test do). They run on every
# other kernel; under the debug kernel they cost minutes of a run near
# CI's bound (testing.rst "Jobs": export_test.sh alone took 258 s there).
DEBUG_SKIP=out_test.sh,doctor_test.sh,firstlight_test.sh,scan_test.sh,export_test.sh
debug_job() {
	local t1

	t1=$(date +%s)
	# (build.sh ends with its TAP line)
	while [ ! -s "$dk_results" ] && kill -0 "$dk_pid" 2> /dev/null; do
		sleep 5
	done
	echo "# debug kernel: waited $(($(date +%s) - t1)) s for its build"
	if ! grep -q '^ok ' "$dk_results"; then
		grep -q '^not ok ' "$dk_results" ||
			[ "$1" = -b ] ||
			result fail "debug-kernel: build" "no result, see build/debug-kernel.log"
		return
	fi
	case $1 in
	-a)	NVPC_VM_NAME=debug-a NVPC_TESTS=$DEBUG_SHARE_A \
			"$TOP/tools/testing/debugkernel/vmtest.sh" ;;
	-b)	NVPC_VM_NAME=debug-b \
			NVPC_TESTS_EXCLUDE=$DEBUG_SHARE_A,$DEBUG_SKIP \
			"$TOP/tools/testing/debugkernel/vmtest.sh" ;;
	*)	NVPC_TESTS_EXCLUDE=$DEBUG_SKIP \
			"$TOP/tools/testing/debugkernel/vmtest.sh" ;;
	esac
	[ "$1" = -a ] ||
		result skip "debug-kernel: ${DEBUG_SKIP//,/ and }" \
			"left out under the debug kernel (nvpc's own rules; they ran on every other kernel)"
}

# The queue: with two workers the debug kernel's halves first and
# apart where it is ready, last where it is still being built; with
# one, its whole suite last (after the others, while its build ends).
read -ra KV <<< "$KVERS"
queue=()
dk_ready=0
if [ "$NJOBS" = 2 ] && [ -n "$dk_pid" ] &&
   [ -e "$("$TOP/tools/testing/debugkernel/build.sh" --dir)/complete" ]; then
	dk_ready=1
	queue+=(debug-a)
fi
for k in "${KV[@]}"; do
	case $k in *-rt-*) queue+=("vm:$k") ;; esac
done
for k in "${KV[@]}"; do
	case $k in *-rt-*) ;; *) queue+=("vm:$k") ;; esac
done
# the second half when the first is done (next_job keeps them apart)
[ $dk_ready = 1 ] && queue+=(debug-b)
for k in "${KV[@]}"; do queue+=("pci:$k"); done
# the install path on the Debian kernels a user has (not the -rt one)
for k in "${KV[@]}"; do
	case $k in *-rt-*) ;; *) queue+=("install:$k") ;; esac
done
for k in "${KV[@]}"; do queue+=("swiotlb:$k"); done
queue+=("demo:${KV[0]}")
if [ -n "$dk_pid" ] && [ $dk_ready = 0 ]; then
	if [ "$NJOBS" = 2 ]; then
		queue+=(debug-a debug-b)
	else
		queue+=(debug)
	fi
fi
printf '%s\n' "${queue[@]}" > "$JOBS/queue"
echo "# jobs, $NJOBS at a time: ${queue[*]}"

# next_job: the queue's first job, taken off under its lock; but while a
# debug kernel's VM runs, the first of the others: two of them side by
# side (four busy vCPUs on two cores) took 3.8 times as long each
# (fuzz_test 390 s against 102 s), their vCPUs spinning on locks that a
# descheduled vCPU holds. With only debug jobs left, it waits.
next_job() {
	local j

	while :; do
		# shellcheck disable=SC2016
		j=$(flock "$JOBS/queue.lock" sh -c '
			q=$1 busy=$2
			if [ -e "$busy" ]; then
				j=$(grep -v -m 1 "^debug-" "$q")
				[ -z "$j" ] && [ -s "$q" ] && { echo WAIT; exit; }
			else
				j=$(head -n 1 "$q")
			fi
			[ -n "$j" ] || exit 0
			grep -v -x -F "$j" "$q" > "$q.new"
			mv "$q.new" "$q"
			case $j in debug-*) : > "$busy" ;; esac
			echo "$j"' - "$JOBS/queue" "$JOBS/debug.busy")
		[ "$j" = WAIT ] || break
		sleep 5
	done
	[ -n "$j" ] && echo "$j"
}

worker() {
	local w=$1 job log t1 rc

	[ "$w" = 2 ] && export NVPC_VM_LOCK=/tmp/nvpcounter-vm.lock.2
	while job=$(next_job); do
		log=$JOBS/$(echo "$job" | tr ':/' '__').log
		t1=$(date +%s)
		run_job "$job" > "$log" 2>&1
		rc=$?
		case $job in debug-*) rm -f "$JOBS/debug.busy" ;; esac
		# shellcheck disable=SC2016
		flock "$JOBS/print.lock" sh -c 'cat "$1"; echo "$2"' - "$log" \
			"# job $job (worker $w): $(($(date +%s) - t1)) s, exit $rc"
	done
}
if [ "$NJOBS" = 2 ]; then
	worker 1 &
	w1=$!
	worker 2 &
	w2=$!
	wait "$w1" "$w2"
else
	worker 1
fi
[ -n "$dk_pid" ] && wait "$dk_pid" 2> /dev/null
cat "$dk_results"
cat "$dk_results" >> "$NVPC_RESULTS"

if [ "${NVPC_DEBUG_KERNEL:-1}" = 0 ]; then
	result skip "debug-kernel: every kselftest under KASAN, kmemleak, lockdep" \
		"left out: NVPC_DEBUG_KERNEL=0"
fi

echo "# wall time $(($(date +%s) - t0)) s"
summarize "$NVPC_RESULTS"
