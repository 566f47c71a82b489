# SPDX-License-Identifier: GPL-2.0
#
# nvpcounter top-level Makefile.
#
#   make                 build the modules for every installed target kernel
#   make KVER=<kver>     ... for one kernel (a /lib/modules/<kver>/build)
#   make nvpc            the record-mode tool, build/nvpc/nvpc
#   make install         nvpc, nvpc-perf-trace, the manual page nvpc.1,
#                        nvpc-export.service (PREFIX, DESTDIR)
#   make check           the test command: deps, lint, host unit tests,
#                        kselftests in QEMU on every target kernel
#   make lint            checkpatch --strict, sparse, W=1 warnings
#   make unit            host unit tests only
#   make vmtest          kselftests in QEMU only (KVER= to pick one kernel)
#   make debugtest       kselftests under the debug kernel (built once)
#   make bench           benchmarks (never fail on a timing)
#   make demo            the main job: a simulated GPU in QEMU, live perf stat
#   make deps            install missing Debian packages (root)

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD := $(TOP)/build

# Target kernels: every kernel with both an image in /boot and headers.
KVERS ?= $(KVER)
ifeq ($(strip $(KVERS)),)
KVERS := $(sort $(foreach d,$(wildcard /lib/modules/*/build), \
	$(if $(wildcard /boot/vmlinuz-$(notdir $(patsubst %/build,%,$(d)))), \
	$(notdir $(patsubst %/build,%,$(d))))))
endif

KSRC_TAR := /usr/src/linux-source-6.1.tar.xz
KSRC := $(BUILD)/linux-source-6.1
KSFT_INC := $(KSRC)/tools/testing/selftests
CHECKPATCH := $(KSRC)/scripts/checkpatch.pl

MODULE_SRCS := Kbuild $(shell cd $(TOP) && find drivers include -type f \
	\( -name '*.c' -o -name '*.h' -o -name Kbuild \) 2>/dev/null)

.PHONY: install all modules nvpc deps ksrc selftests lint unit vmtest debugtest check bench demo \
	clean help

all: modules

help:
	@sed -n '3,18p' $(TOP)/Makefile

deps:
	@$(TOP)/tools/deps/install.sh

# The kselftest framework headers and checkpatch come from Debian's
# linux-source package; only the few files needed are unpacked.
ksrc: $(KSRC)/.stamp
$(KSRC)/.stamp: $(KSRC_TAR)
	@mkdir -p $(BUILD)
	tar -xJf $(KSRC_TAR) -C $(BUILD) --wildcards \
		'linux-source-6.1/tools/testing/selftests/kselftest*.h' \
		'linux-source-6.1/scripts/checkpatch.pl' \
		'linux-source-6.1/scripts/spelling.txt' \
		'linux-source-6.1/scripts/const_structs.checkpatch'
	touch $@

# Each kernel gets its own copy of the sources so that builds for several
# kernels never share object files.
modules:
	@test -n "$(KVERS)" || { echo "no target kernel installed (make deps)"; exit 1; }
	@set -e; for k in $(KVERS); do \
		d=$(BUILD)/kbuild/$$k; mkdir -p $$d; \
		(cd $(TOP) && tar cf - $(MODULE_SRCS)) | tar xf - -C $$d; \
		echo "  MODULES $$k"; \
		$(MAKE) -s -C /lib/modules/$$k/build M=$$d W=$(or $(W),1) \
			$(if $(C),C=$(C)) modules; \
	done

# userspace: the record-mode capture and report tool (libc only)
nvpc:
	@$(MAKE) -s -C $(TOP)/tools/nvpc OUT=$(BUILD)/nvpc

# the tool, its manual page and the exporter's systemd unit (systemd
# reads $(PREFIX)/lib/systemd/system for /usr and /usr/local); DKMS
# (dkms.conf) builds the modules only
PREFIX ?= /usr/local
UNITDIR ?= $(PREFIX)/lib/systemd/system
install: nvpc
	install -D -m 0755 $(BUILD)/nvpc/nvpc $(DESTDIR)$(PREFIX)/bin/nvpc
	install -D -m 0755 $(TOP)/tools/nvpc/perf-trace.py \
		$(DESTDIR)$(PREFIX)/bin/nvpc-perf-trace
	install -D -m 0644 $(TOP)/tools/nvpc/nvpc.1 \
		$(DESTDIR)$(PREFIX)/share/man/man1/nvpc.1
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|@BINDIR@|$(PREFIX)/bin|' $(TOP)/tools/nvpc/nvpc-export.service \
		> $(DESTDIR)$(UNITDIR)/nvpc-export.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/nvpc-export.service

selftests: ksrc
	@$(MAKE) -s -C $(TOP)/selftests/nvpcounter KSFT_INC=$(KSFT_INC) \
		OUT=$(BUILD)/selftests

lint: ksrc
	@$(TOP)/tools/testing/lint.sh

unit: ksrc
	@$(TOP)/tools/testing/unit.sh

vmtest: modules selftests nvpc
	@$(TOP)/tools/testing/vm/run.sh $(KVERS)

# every kselftest under the debug kernel (built once per machine)
debugtest: selftests
	@$(TOP)/tools/testing/debugkernel/build.sh && \
		$(TOP)/tools/testing/debugkernel/vmtest.sh

check:
	@$(TOP)/tools/testing/check.sh

bench: ksrc
	@set -e; for d in $(TOP)/tools/testing/*/; do \
		if grep -qs '^bench:' $$d/Makefile; then $(MAKE) -s -C $$d bench; fi; \
	done

demo: deps
	@KVER="$(KVER)" $(TOP)/tools/demo.sh

clean:
	rm -rf $(BUILD)
	@for d in $(TOP)/tools/testing/*/ $(TOP)/tools/nvpc/ $(TOP)/selftests/nvpcounter/; do \
		if grep -qs '^clean:' $$d/Makefile; then $(MAKE) -s -C $$d clean; fi; \
	done

print-kvers:
	@echo $(KVERS)
