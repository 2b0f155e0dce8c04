# nio-uring: builds OpenJDK 26 with the io_uring positional I/O and zero-copy skip changes.
#
#   make                 deps, upstream source, assembled tree, configure, `make images`: build/jdk
#   make test [TEST=..]  jtreg: the project's tests and test/upstream.txt against build/jdk
#   make baseline        unmodified upstream, same flags: build/baseline-jdk
#   make micro           the JMH microbenchmarks (test/micro) with OpenJDK's microbenchmark build
#   make compare BENCH=  the same benchmarks on baseline and patched JDK, side by side
#   make check-patches   the series applies to pristine upstream with no fuzz or offset, DEP-3 ok
#   make check-windows   syntax-check the Windows (MinGW) and non-Linux Unix native files
#   make refresh-patches regenerate patches/ from edits in build/src/patched
#   make stress DURATION=60s [MODE=auto|always|never|all] [JDK=]   stress run (test/stress)
#   make leak-check [JDK=]  fds, threads, NMT before/after ~1M stressed ops (io_uring always)
#
# BUILD_DIR (default ./build) may point outside the clone to keep a tree across clones.

include make/conf

TOPDIR := $(abspath .)
BUILD_DIR ?= $(TOPDIR)/build
override BUILD_DIR := $(abspath $(BUILD_DIR))
SCRIPTS := $(TOPDIR)/make/scripts
PRISTINE := $(BUILD_DIR)/upstream/$(UPSTREAM_TOPDIR)
PATCHED_TREE := $(BUILD_DIR)/src/patched
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

CONFIGURE_ALL = $(CONFIGURE_FLAGS) --with-jtreg=$(JTREG_HOME) --with-jmh=$(DEPS_DIR)/jmh

.PHONY: all jdk baseline deps upstream assemble assemble-baseline test micro compare \
    check-patches refresh-patches check-windows stress leak-check clean help

all: jdk

help:
	@sed -n '3,15p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@$(SCRIPTS)/deps.sh $(DEPS_DIR) $(DEBIAN_NEXT_SUITE) $(JMH_ARTIFACTS)

upstream: deps
	@$(SCRIPTS)/fetch-upstream.sh

assemble: upstream
	@$(SCRIPTS)/assemble.sh patched $(PRISTINE) $(PATCHED_TREE)

assemble-baseline: upstream
	@$(SCRIPTS)/assemble.sh baseline $(PRISTINE) $(BASELINE_TREE)

jdk: assemble
	@$(SCRIPTS)/configure.sh $(PATCHED_TREE) $(CONFIGURE_ALL) \
	    --with-version-opt=$(PATCHSET_NAME).$(REVISION)
	$(call JDK_MAKE,$(PATCHED_TREE)) images
	@ln -sfn $(call JDK_OUT,$(PATCHED_TREE))/images/jdk $(BUILD_DIR)/jdk
	@$(BUILD_DIR)/jdk/bin/java -version

baseline: assemble-baseline
	@$(SCRIPTS)/configure.sh $(BASELINE_TREE) $(CONFIGURE_ALL) --with-version-opt=baseline
	$(call JDK_MAKE,$(BASELINE_TREE)) images
	@ln -sfn $(call JDK_OUT,$(BASELINE_TREE))/images/jdk $(BUILD_DIR)/baseline-jdk
	@$(BUILD_DIR)/baseline-jdk/bin/java -version

# The native test libraries of test/jdk (not the whole test image: hotspot's are not needed).
test: jdk
	$(call JDK_MAKE,$(PATCHED_TREE)) test-image-jdk-jtreg-native
	@$(SCRIPTS)/run-tests.sh $(BUILD_DIR)/jdk $(PATCHED_TREE) $(BUILD_DIR)/test-results \
	    "$(TEST)" "$(JTREG_OPTIONS)"

micro: jdk
	$(call JDK_MAKE,$(PATCHED_TREE)) build-microbenchmark
	@ln -sfn $(call JDK_OUT,$(PATCHED_TREE))/images/test/micro/benchmarks.jar $(BUILD_DIR)/benchmarks.jar

compare: micro baseline
	@python3 $(SCRIPTS)/compare.py --baseline $(BUILD_DIR)/baseline-jdk --patched $(BUILD_DIR)/jdk \
	    --jar $(BUILD_DIR)/benchmarks.jar --out $(BUILD_DIR)/compare \
	    --bench '$(BENCH)' --forks '$(or $(FORKS),2)' --jmh '$(JMH_OPTIONS)'

check-patches: upstream
	@$(SCRIPTS)/check-patches.sh $(TOPDIR)/patches $(PRISTINE)

# Native files a Linux build does not compile: Windows ones with MinGW, Unix ones that a Linux
# file of the same name replaces. Uses the JNI headers of the last `make`.
check-windows:
	@$(SCRIPTS)/check-natives.sh $(PATCHED_TREE)

refresh-patches:
	@$(SCRIPTS)/refresh-patches.sh $(TOPDIR)/patches $(PRISTINE) $(PATCHED_TREE)

# Stress and leak check of an existing JDK (default build/jdk); STRESS_ARGS go to the program.
stress:
	@$(SCRIPTS)/stress.sh stress $(or $(JDK),$(BUILD_DIR)/jdk) '$(or $(DURATION),60s)' '$(or $(MODE),auto)' $(STRESS_ARGS)

leak-check:
	@$(SCRIPTS)/stress.sh leak-check $(or $(JDK),$(BUILD_DIR)/jdk) $(STRESS_ARGS)

clean:
	rm -rf $(BUILD_DIR)
