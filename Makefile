# nio-uring: builds OpenJDK 26 with the io_uring positional I/O and zero-copy skip changes.
#
#   make                 deps, upstream source, assembled tree, configure, `make images`: build/jdk
#   make test [TEST=..]  jtreg: the series' tests and the JDK tests guarding them, on build/jdk
#   make test-upstream   upstream jdk_nio & java/io suites: baseline vs patched never/auto/always
#   make baseline        unmodified upstream, same flags: build/baseline-jdk
#   make micro           the JMH microbenchmarks (test/micro) with OpenJDK's microbenchmark build
#   make compare BENCH=  the same benchmarks on baseline and patched JDK, side by side
#   make perf-matrix     the read matrix: auto against the baseline, A/A, and the controls
#   make fio             fio's io_uring figures for FileChannelUring's files (the device limit)
#   make ramdisk[-down]  ext4 on a RAM-backed loop device at build/ramdisk (root; RAMDISK_MIB=, 640)
#   make check-patches   the series apply to pristine upstream with no fuzz or offset, DEP-3 ok
#   make check-series    make test for each prefix of the series in turn (skip; skip,filechannel; all)
#   make update-upstream VERSION=26.0.x+y-z   move make/conf to that Debian openjdk-26, re-check
#   make check-windows   syntax-check the Windows (MinGW) and non-Linux Unix native files
#   make refresh-patches regenerate patches/ from edits in build/src/patched
#   make check-bad-input the bad-input cases on baseline and patched JDK (every mode), diffed
#   make fault           fault injection needing root: kernel.io_uring_disabled at start, at run time
#   make stress DURATION=10m [MODE=auto|always|never|all]   the stress harness (test/stress)
#   make leak-check      fds, threads, NMT and malloc memory before/after ~1M mixed ops [MODE=always]
#   make stress-selftest the stress harness must catch corruption it injects itself: PASS/FAIL
#   make check-debian13  make and make test in a fresh Debian 13 root (debootstrap; root, ~40 min)
#
# SERIES (default: all of patches/series, comma-separated) builds and tests a prefix of the
# series instead, in its own tree: SERIES=skip gives build/jdk-skip, SERIES=skip,filechannel
# build/jdk-filechannel. Every target that uses the patched JDK takes it.
# BUILD_DIR (default ./build) may point outside the clone to keep a tree across clones.
# BOOT_JDK (default: JAVA_HOME, else a JDK 25 or 26 in /usr/lib/jvm) builds the JDKs.

include make/conf

TOPDIR := $(abspath .)
BUILD_DIR ?= $(TOPDIR)/build
override BUILD_DIR := $(abspath $(BUILD_DIR))
SCRIPTS := $(TOPDIR)/make/scripts
PRISTINE := $(BUILD_DIR)/upstream/$(UPSTREAM_TOPDIR)
comma := ,
empty :=
space := $(empty) $(empty)
ALL_SERIES := $(subst $(comma), ,$(shell $(TOPDIR)/make/scripts/series.sh all))
SERIES ?= $(subst $(space),$(comma),$(ALL_SERIES))
override SERIES := $(subst $(space),,$(SERIES))
SERIES_CHECK := $(shell $(TOPDIR)/make/scripts/series.sh check-prefix '$(SERIES)' 2>&1)
$(if $(SERIES_CHECK),$(error $(SERIES_CHECK)))
# the full set in build/src/patched and build/jdk; a prefix in trees named by its last series
SERIES_SUFFIX := $(if $(filter $(SERIES),$(subst $(space),$(comma),$(ALL_SERIES))),,-$(lastword $(subst $(comma), ,$(SERIES))))
PATCHED_TREE := $(BUILD_DIR)/src/patched$(SERIES_SUFFIX)
PATCHED_IMAGE := $(BUILD_DIR)/jdk$(SERIES_SUFFIX)
BASELINE_TREE := $(BUILD_DIR)/src/baseline
DEPS_DIR := $(BUILD_DIR)/deps
JDK_OUT = $(1)/build/release
JTREG_HOME ?= /usr/share/jtreg
REVISION := $(shell git -C $(TOPDIR) rev-parse --short=10 HEAD 2>/dev/null || echo norev)
JOBS ?=
JDK_MAKE = env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL $(MAKE) --no-print-directory -C $(1) CONF=release LOG=warn $(if $(JOBS),JOBS=$(JOBS))

export BUILD_DIR UPSTREAM_TARBALL UPSTREAM_DIR UPSTREAM_SHA256 UPSTREAM_TARBALL_NAME \
    UPSTREAM_TOPDIR UPSTREAM_DEB_SOURCE UPSTREAM_DEB_VERSION UPSTREAM_GIT_URL \
    UPSTREAM_GIT_TAG UPSTREAM_GIT_COMMIT DEBIAN_NEXT_SUITE DEBIAN_SOURCE_SUITE

# The boot JDK (make/scripts/boot-jdk.sh), looked for once and only by the targets that
# configure; when there is none, the script says how to get one and make stops.
BOOT_JDK_FOUND = $(eval BOOT_JDK_FOUND := $$(shell BOOT_JDK='$(BOOT_JDK)' JAVA_HOME='$(JAVA_HOME)' $(SCRIPTS)/boot-jdk.sh))$(or \
    $(BOOT_JDK_FOUND),$(error no boot JDK))
CONFIGURE_ALL = --with-boot-jdk=$(BOOT_JDK_FOUND) $(CONFIGURE_FLAGS) --with-jtreg=$(JTREG_HOME) --with-jmh=$(DEPS_DIR)/jmh

.PHONY: all jdk baseline deps upstream assemble assemble-baseline test test-upstream micro \
    compare perf-matrix  fio ramdisk ramdisk-down check-patches check-series update-upstream refresh-patches check-windows check-bad-input fault stress \
    leak-check stress-selftest check-debian13 clean help

all: jdk

help:
	@sed -n '3,/^#$$/p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@BOOT_JDK='$(BOOT_JDK)' JAVA_HOME='$(JAVA_HOME)' $(SCRIPTS)/deps.sh $(DEPS_DIR) $(DEBIAN_NEXT_SUITE) $(JMH_ARTIFACTS)

upstream: deps
	@$(SCRIPTS)/fetch-upstream.sh

assemble: upstream
	@$(SCRIPTS)/assemble.sh patched $(PRISTINE) $(PATCHED_TREE) $(SERIES)

assemble-baseline: upstream
	@$(SCRIPTS)/assemble.sh baseline $(PRISTINE) $(BASELINE_TREE)

jdk: assemble
	@$(SCRIPTS)/configure.sh $(PATCHED_TREE) $(CONFIGURE_ALL) \
	    --with-version-opt=$(PATCHSET_NAME).$(REVISION)
	$(call JDK_MAKE,$(PATCHED_TREE)) images
	@ln -sfn $(call JDK_OUT,$(PATCHED_TREE))/images/jdk $(PATCHED_IMAGE)
	@$(PATCHED_IMAGE)/bin/java -version

baseline: assemble-baseline
	@$(SCRIPTS)/configure.sh $(BASELINE_TREE) $(CONFIGURE_ALL) --with-version-opt=baseline
	$(call JDK_MAKE,$(BASELINE_TREE)) images
	@ln -sfn $(call JDK_OUT,$(BASELINE_TREE))/images/jdk $(BUILD_DIR)/baseline-jdk
	@$(BUILD_DIR)/baseline-jdk/bin/java -version

# The native test libraries of test/jdk (not the whole test image: hotspot's are not needed).
test: jdk
	$(call JDK_MAKE,$(PATCHED_TREE)) test-image-jdk-jtreg-native test-image-lib-native
	@$(SCRIPTS)/run-tests.sh $(PATCHED_IMAGE) $(PATCHED_TREE) $(BUILD_DIR)/test-results$(SERIES_SUFFIX) \
	    "$(TEST)" "$(JTREG_OPTIONS)" $(SERIES)

# make test for each prefix of the series, in order, each in its own tree (a warm ccache
# shares the native objects); stops at the first prefix that fails.
check-series:
	@set -e; prefix=; for s in $(ALL_SERIES); do \
	    prefix=$${prefix:+$$prefix,}$$s; \
	    echo "nio-uring: check-series: SERIES=$$prefix"; \
	    $(MAKE) --no-print-directory test SERIES=$$prefix; \
	done

# Upstream suites on the baseline and on the patched JDK in each io_uring mode, on platform and
# virtual threads: build/test-upstream/table.md. SUITES and COLUMNS narrow it.
SUITES ?= jdk_nio java/io/InputStream java/io/FileInputStream java/io/RandomAccessFile
COLUMNS ?= baseline never auto always baseline-virtual never-virtual auto-virtual always-virtual
test-upstream: jdk baseline
	$(call JDK_MAKE,$(PATCHED_TREE)) test-image-jdk-jtreg-native test-image-lib-native test-image-test-thread-factory
	@$(SCRIPTS)/test-upstream.sh $(PATCHED_IMAGE) $(BUILD_DIR)/baseline-jdk $(BASELINE_TREE) \
	    $(call JDK_OUT,$(PATCHED_TREE))/images/test/jdk/jtreg/native \
	    $(call JDK_OUT,$(PATCHED_TREE))/images/test/jtreg_test_thread_factory/jtregTestThreadFactory.jar \
	    $(BUILD_DIR)/test-upstream "$(SUITES)" "$(COLUMNS)"

micro: jdk
	$(call JDK_MAKE,$(PATCHED_TREE)) build-microbenchmark
	@ln -sfn $(call JDK_OUT,$(PATCHED_TREE))/images/test/micro/benchmarks.jar $(BUILD_DIR)/benchmarks.jar

compare: micro baseline
	@$(SCRIPTS)/deps.sh --for gnuplot
	@python3 $(SCRIPTS)/compare.py --baseline $(BUILD_DIR)/baseline-jdk --patched $(PATCHED_IMAGE) \
	    --jar $(BUILD_DIR)/benchmarks.jar --out $(BUILD_DIR)/compare \
	    --bench '$(BENCH)' --forks '$(or $(FORKS),2)' --jmh '$(JMH_OPTIONS)' \
	    $(if $(filter 1 yes true,$(PER_CASE)),--per-case)

# The read matrix (make/scripts/perf-matrix.py): every cell in rounds on the baseline, the
# baseline again (A/A), the baseline with 256 carriers, and the patched JDK in auto, compensate
# and always; prints one table against the baseline and fails a cell that the guard rejects.
# CELLS narrows it ("cold V256,hot V1"); ROUNDS (default 4) and ROUNDS_LOW (V1 and V4,
# default 8) set the rounds; JMH_OPTIONS replaces "-wi 1 -w 1 -i 3 -r 1"; REPORT=1 only redraws
# the table and chart of the cells already run. DEVICE=ramdisk reads a file on make ramdisk's
# loop device (RAMDISK_MIB=1400), evicted every 100 ms; DEVICE=throttled runs it all with the
# virtio disk's reads capped at THROTTLE_IOPS (20000) a second; the default is the virtio disk.
DEVICE ?= virtio
THROTTLE_IOPS ?= 20000
perf-matrix: micro baseline
	@$(SCRIPTS)/deps.sh --for gnuplot
	@$(SCRIPTS)/deps.sh --for fio
	@$(if $(filter ramdisk,$(DEVICE)),mountpoint -q $(BUILD_DIR)/ramdisk || { echo "nio-uring: make ramdisk RAMDISK_MIB=1400 first"; exit 1; })
	@$(if $(filter throttled,$(DEVICE)),$(SCRIPTS)/throttle.sh $(THROTTLE_IOPS) /var/tmp) \
	    python3 $(SCRIPTS)/perf-matrix.py --baseline $(BUILD_DIR)/baseline-jdk --patched $(PATCHED_IMAGE) \
	    --jar $(BUILD_DIR)/benchmarks.jar --out $(BUILD_DIR)/perf-matrix-$(DEVICE) --device $(DEVICE) \
	    $(if $(CELLS),--cells '$(CELLS)') $(if $(ROUNDS),--rounds $(ROUNDS)) \
	    $(if $(ROUNDS_LOW),--rounds-low $(ROUNDS_LOW)) $(if $(JMH_OPTIONS),--jmh '$(JMH_OPTIONS)') \
	    $(if $(REPORT),--report)

# fio's io_uring figures for FileChannelUring's files (the device limit beside the benchmark)
fio:
	@$(SCRIPTS)/deps.sh --for fio
	@$(SCRIPTS)/fio.sh $(BUILD_DIR)/fio

# A RAM-backed ext4 (loop device on /dev/shm, root only) to compare write paths without the
# virtual disk: JMH_OPTIONS="... -p file=$(BUILD_DIR)/ramdisk/nio-uring-bench.dat"; for the
# read runs' 4 GiB file, RAMDISK_MIB=4400 and -p fileSize=4294967296
ramdisk:
	@$(SCRIPTS)/ramdisk.sh up $(BUILD_DIR)/ramdisk $(RAMDISK_MIB)

ramdisk-down:
	@$(SCRIPTS)/ramdisk.sh down $(BUILD_DIR)/ramdisk

check-patches: upstream
	@$(SCRIPTS)/check-patches.sh $(TOPDIR)/patches $(PRISTINE)

# Moves make/conf to another Debian openjdk-26 upload (VERSION=<Debian version>), then checks
# the series against it; without VERSION, lists the versions Debian offers.
update-upstream: deps
	@$(SCRIPTS)/update-upstream.sh $(TOPDIR)/make/conf '$(VERSION)'
	@$(if $(VERSION),$(MAKE) --no-print-directory check-patches)

# Native files a Linux build does not compile: Windows ones with MinGW, Unix ones that a Linux
# file of the same name replaces. Uses the JNI headers of the last `make`.
check-windows:
	@$(SCRIPTS)/deps.sh --for mingw
	@$(SCRIPTS)/check-natives.sh $(PATCHED_TREE)

refresh-patches:
	@$(SCRIPTS)/refresh-patches.sh $(TOPDIR)/patches $(PRISTINE) $(PATCHED_TREE)

# Fault injection that changes machine-global state (kernel.io_uring_disabled; root only,
# restored after each scenario). The other fault scenarios are jtreg tests.
fault: jdk
	@$(SCRIPTS)/fault.sh $(PATCHED_IMAGE) $(BUILD_DIR)/fault

# Bad input on the built JDKs: BASELINE_JDK, PATCHED_JDK override them; HUGE=all|devices|none.
check-bad-input:
	@$(SCRIPTS)/compare-bad-input.sh $(or $(BASELINE_JDK),$(BUILD_DIR)/baseline-jdk) \
	    $(or $(PATCHED_JDK),$(PATCHED_IMAGE)) $(BUILD_DIR)/bad-input $(or $(HUGE),auto)

# Stress and leak check of an existing JDK (default build/jdk); STRESS_ARGS go to the program.
stress:
	@$(SCRIPTS)/stress.sh stress $(or $(JDK),$(PATCHED_IMAGE)) '$(or $(DURATION),60s)' '$(or $(MODE),auto)' $(STRESS_ARGS)

leak-check:
	@MODE='$(or $(MODE),always)' $(SCRIPTS)/stress.sh leak-check $(or $(JDK),$(PATCHED_IMAGE)) $(STRESS_ARGS)

# The harness against itself: a short run that injects corruption must fail and report each kind.
stress-selftest:
	@$(SCRIPTS)/stress.sh selftest $(or $(JDK),$(PATCHED_IMAGE)) '$(or $(DURATION),15s)' '$(or $(MODE),auto)' $(STRESS_ARGS)

# The two commands on a fresh Debian 13: a debootstrap root from the archive this machine's apt
# sources name, a clone of HEAD in it, `make` and `make test` there (root only; a full build).
# Logs and summary.txt in build/debian13; DEBIAN13_ROOT (default build/debian13/root) is made anew.
check-debian13:
	@$(SCRIPTS)/check-debian13.sh $(or $(DEBIAN13_ROOT),$(BUILD_DIR)/debian13/root) $(BUILD_DIR)/debian13

clean:
	@if mountpoint -q $(BUILD_DIR)/ramdisk 2>/dev/null; then $(SCRIPTS)/ramdisk.sh down $(BUILD_DIR)/ramdisk; fi
	rm -rf --one-file-system $(BUILD_DIR)
