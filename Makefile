# ttemu — functional emulator of one Tenstorrent Blackhole Tensix tile.
#   make            build build/ttemu
#   make demo       build the firmware samples and run the five-core demo
#   make test       build and run every test (then again under ASan/UBSan)
#   make test-asan  only the sanitizer pass
#   make fw         build the RV32 firmware samples and ISA test programs
#   make data       the samples' tensor data (build/data, NumPy; docs/tensors.md, docs/ops.md)
#   make regress    run the firmware samples against their goldens (JOBS=n, JUNIT=file, UPDATE=1)
#   make format / format-check
#   make config     print the build configuration (what $(BUILD)/config.stamp records)
#   make install    install under PREFIX (/usr/local), staged under DESTDIR; make uninstall
#   make fuzz       build the libFuzzer targets (fuzz/fuzz.mk, docs/testing.md)
# Knobs: V=1 (verbose), UI=auto|0|1 (SDL2 panel), SAN=1 (sanitizers), PGO=1|0 (profile feedback),
# PGO_TRAIN="configs", LTO=1|0 (link-time optimisation), BUILD=dir, CC, CFLAGS, LDFLAGS. A build
# directory remembers the knobs it was built with (config.stamp): changing one rebuilds everything
# it affects.

BUILD ?= build
V ?= 0
UI ?= auto
SAN ?= 0

Q := $(if $(filter 1,$(V)),,@)

CC ?= gcc
# CFLAGS and LDFLAGS are the user's (make CFLAGS=-O0); what the code needs whatever they say is in
# TTEMU_CFLAGS and TTEMU_LDFLAGS. -O3: 4-5% less time than -O2 on the add1 runs; every function on
# its own 64-byte line: ~0.5% less on the kernel runs, the same instructions (bench/README.md).
# Copies and clears of a size known at compile time as SSE loops up to 1 KiB and libc's calls
# above, not `rep movs` / `rep stos` (gcc's x86-64 default; they take tens of cycles to start, on
# the harts', NoC's and DRAM's copies): the same results, less time by up to ~0.8% (medians of 61
# runs each way: the whole program ~0.5%, with tensors ~0.8%, add1 ~0.1-0.2%, within its noise;
# bench/README.md "Stop 37"). The LTO link keeps each object's (the same code without them
# there); left out where the compiler does not take them (clang, other targets).
COPY_STRATEGY := vector_loop:1024:noalign,libcall:-1:noalign
COPY_FLAGS := $(shell $(CC) -Werror -mmemcpy-strategy=$(COPY_STRATEGY) -x c -c -o /dev/null /dev/null 2>/dev/null && \
	echo -mmemcpy-strategy=$(COPY_STRATEGY) -mmemset-strategy=$(COPY_STRATEGY))
CFLAGS ?= -O3 -g -falign-functions=64 $(COPY_FLAGS)
TTEMU_CFLAGS := -std=c11 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -I.
# Generated sources live in $(BUILD)/gen, never in the tree: coproc/tt_fields.h, the Tensix
# instruction fields (opcodes, accessors, encoders, reserved bits) from coproc/tt_ops.def. C and the
# RV32 programs (fw.mk) include it as "coproc/tt_fields.h".
GEN_DIR := $(BUILD)/gen
TT_FIELDS_H := $(GEN_DIR)/coproc/tt_fields.h
TTEMU_CFLAGS += -I$(GEN_DIR)
TTEMU_LDFLAGS :=
LDLIBS :=

# The sanitizer pass: ASan and UBSan, plus the UBSan checks gcc's -fsanitize=undefined leaves out
# that apply to C: float-cast-overflow (a double out of an integer's range converted to it) and
# bounds-strict (array bounds including trailing arrays). float-divide-by-zero is not undefined
# here: gcc follows IEEE 754 (C11 Annex F), where it gives an infinity or NaN a float model may want.
ifeq ($(SAN),1)
SAN_FLAGS := -fsanitize=address,undefined,float-cast-overflow,bounds-strict
TTEMU_CFLAGS += $(SAN_FLAGS) -fno-omit-frame-pointer -fno-sanitize-recover=all
TTEMU_LDFLAGS += $(SAN_FLAGS)
endif

# Profile feedback (PGO=1, the default; README "Profile feedback"): the objects are built twice,
# once instrumented ($(BUILD)/pgo/), run over a training set (scripts/pgo_train.sh), then again
# optimised with what it counted (-fprofile-use): gcc lays out each function's hot path straight
# and inlines where the runs went: 9-14% less time on the add1 kernels (bench/README.md). PGO=0
# builds once (quicker when editing). The training set includes ../shared's tt-metal programs when
# they are there: PGO_TT_METAL records which, so the build configuration says what the profile saw.
# Link-time optimisation (LTO=1, the default): ttemu is linked with -flto, so gcc inlines across
# files (the harts' bus into the devices, the frontend into the gates and the timing model): 1-3%
# less time again on every bench workload. The objects are fat (-ffat-lto-objects): they hold
# machine code too, which the unit tests link as before (-fno-lto: without it the linker plugin
# would run a link-time pass for each of them, ~2.4 s apiece).
# Both are gcc's (clang's profiles need llvm-profdata) and never in the sanitizer pass.
PGO ?= 1
LTO ?= 1
ifneq ($(SAN)$(findstring clang,$(shell $(CC) --version 2>/dev/null)),0)
override PGO := 0
override LTO := 0
endif
ifeq ($(PGO),1)
PGO_TT_METAL := $(if $(and $(wildcard ../shared/firmware/blackhole-p100a),$(wildcard ../shared/firmware/kernels-add1)),1,0)
# PGO_TRAIN="A.json B.json": the user's own run configs added to the training (a suite of kernels
# whose instructions the samples never use: code no training run reaches is laid out as cold).
PGO_TRAIN ?=
PGO_USE_FLAGS := -fprofile-use -fprofile-partial-training
endif
ifeq ($(LTO),1)
LTO_CFLAGS := -flto=auto -ffat-lto-objects
LTO_LDFLAGS := -flto=auto
LTO_TEST_LDFLAGS := -fno-lto
endif

PKG_CFLAGS := $(shell pkg-config --cflags libelf libcjson 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs libelf libcjson 2>/dev/null || echo -lelf -lcjson)
TTEMU_CFLAGS += $(PKG_CFLAGS)
LDLIBS += $(PKG_LIBS)

# Optional parts are plugins loaded only when used (app/plugin.h): ttemu-junit.so writes
# `ttemu regress --junit` XML with libxml2's xmlTextWriter (app/junit.c).
XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2)
XML_LIBS := $(shell pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2)
JUNIT_PLUGIN := $(BUILD)/ttemu-junit.so

# The SDL2 panel is optional: UI=auto builds it when pkg-config finds SDL2, SDL2_ttf (text) and
# SDL2_image (PNG screenshots). UI=0 builds without it (--ui* flags then exit 4). The panel is a
# plugin, $(BUILD)/ttemu-panel.so, that ttemu loads (dlopen) only for --ui: SDL and its ~65
# libraries would otherwise be loaded and relocated at every start (about 7 ms per run). ttemu
# exports its symbols (-rdynamic, whole archive) for the plugin to call.
# pkg-config is asked when the Makefile is read: goals that install packages first (demo, test,
# regress, bench) run deps and then make again (below), so UI=auto sees what deps.sh installed.
# `override`: a command line's UI=auto is resolved too.
UI_PKGS := sdl2 SDL2_ttf SDL2_image
ifeq ($(UI),auto)
override UI := $(shell pkg-config --exists $(UI_PKGS) 2>/dev/null && echo 1 || echo 0)
endif
ifeq ($(UI),1)
TTEMU_CFLAGS += -DTTEMU_UI=1
UI_CFLAGS := $(shell pkg-config --cflags $(UI_PKGS))
UI_LIBS := $(shell pkg-config --libs $(UI_PKGS))
UI_SRC := $(wildcard ui/*.c)
UI_OBJ := $(UI_SRC:%.c=$(BUILD)/obj/%.pic.o)
UI_PLUGIN := $(BUILD)/ttemu-panel.so
MAIN_LDFLAGS := -rdynamic
MAIN_LIB := -Wl,--whole-archive $(BUILD)/libttemu.a -Wl,--no-whole-archive
else
MAIN_LIB := $(BUILD)/libttemu.a
# A directory built before with the panel keeps no stale plugin: `make install` copies what is there.
NO_UI_CLEAN := rm -f $(BUILD)/ttemu-panel.so
endif

# ---- the build configuration --------------------------------------------------------------------
# Everything that changes what the compiler and linker produce, resolved (UI=auto as found), one
# knob a line. Each object, library, plugin and program depends on $(BUILD)/config.stamp, which
# holds these lines and is rewritten only when they change: other knobs in the same BUILD rebuild
# what they affect (`make UI=0` then `make` gives a ttemu with the panel); the same knobs rebuild
# nothing. `make config` prints them.
CONFIG := CC=$(CC);CFLAGS=$(CFLAGS);LDFLAGS=$(LDFLAGS);SAN=$(SAN);UI=$(UI);TTEMU_CFLAGS=$(TTEMU_CFLAGS);
CONFIG := $(CONFIG)TTEMU_LDFLAGS=$(TTEMU_LDFLAGS);LDLIBS=$(LDLIBS);UI_CFLAGS=$(UI_CFLAGS);UI_LIBS=$(UI_LIBS);
CONFIG := $(CONFIG)XML_CFLAGS=$(XML_CFLAGS);XML_LIBS=$(XML_LIBS);PGO=$(PGO)$(if $(PGO_TT_METAL),;PGO_TT_METAL=$(PGO_TT_METAL);PGO_TRAIN=$(PGO_TRAIN));LTO=$(LTO)
CONFIG_STAMP := $(BUILD)/config.stamp
# The lines as printf arguments: each quoted for the shell.
CONFIG_ARGS = '$(subst ;,' ',$(subst ','\'',$(CONFIG)))'

# libttemu.a: the emulator (docs/architecture.md, every room below the command); the tests and the
# panel plugin link it. The command (app/) is kept apart: main.o, and libttemu-app.a for the unit
# tests of its parts (regress).
LIB_DIRS := core coproc mmio tile run loader debug
LIB_SRC := $(wildcard $(LIB_DIRS:%=%/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
APP_SRC := $(filter-out app/main.c app/junit.c,$(wildcard app/*.c))
APP_OBJ := $(APP_SRC:%.c=$(BUILD)/obj/%.o)
MAIN_OBJ := $(BUILD)/obj/app/main.o
UNIT_SRC := $(wildcard test/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:test/unit/%.c=$(BUILD)/test/%)
# test_dp_fast once more with the plain forms of what has a vector form (-DTTEMU_NO_SIMD: the
# Matrix Unit's product sums, the lane conversions, masks and blend, the FMA's four-lane rule)
# and the portable byte-order forms (formats.h FMT_HOST_LE: UNPACR's and PACR's rows, SFPLOAD's
# and SFPSTORE's pairs of Dst cells, PACR's FP32 L1 accumulation, UNPACR's datum-by-datum L1
# reads); these files built that way, linked ahead of the library's.
NOSIMD_SRC := coproc/fpu_num.c coproc/formats.c coproc/fma.c coproc/pack.c coproc/sfpu.c coproc/unpack.c
NOSIMD_OBJ := $(NOSIMD_SRC:coproc/%.c=$(BUILD)/obj/nosimd/%.o)
UNIT_BIN += $(BUILD)/test/test_dp_fast_nosimd

.PHONY: all deps demo test test-asan check fw data format format-check check-layers clean bench regress config FORCE \
	install uninstall
all: $(BUILD)/ttemu $(UI_PLUGIN) $(JUNIT_PLUGIN)

deps:
	$(Q)scripts/deps.sh

config:
	@printf '%s\n' $(CONFIG_ARGS)

# Always visited, rewritten only when the configuration differs from the one it holds: make then
# sees it newer than everything built before (as Linux's kbuild does with its generated headers).
$(CONFIG_STAMP): FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' $(CONFIG_ARGS) >$@.new; \
	if cmp -s $@.new $@; then rm -f $@.new; \
	else $(if $(wildcard $@),echo "  CONFIG $(BUILD): the build configuration changed: rebuilding";) mv $@.new $@; fi

$(BUILD)/ttemu: $(MAIN_OBJ) $(APP_OBJ) $(BUILD)/libttemu.a $(UI_PLUGIN) $(JUNIT_PLUGIN) $(CONFIG_STAMP)
	$(Q)$(CC) $(TTEMU_LDFLAGS) $(LDFLAGS) $(LTO_LDFLAGS) $(MAIN_LDFLAGS) -o $@ $(MAIN_OBJ) $(APP_OBJ) $(MAIN_LIB) $(LDLIBS)
	$(Q)$(NO_UI_CLEAN)

$(UI_PLUGIN): $(UI_OBJ) $(CONFIG_STAMP)
	$(Q)$(CC) $(TTEMU_LDFLAGS) $(LDFLAGS) -shared -o $@ $(UI_OBJ) $(UI_LIBS)

$(JUNIT_PLUGIN): $(BUILD)/obj/app/junit.pic.o $(CONFIG_STAMP)
	$(Q)$(CC) $(TTEMU_LDFLAGS) $(LDFLAGS) -shared -o $@ $< $(XML_LIBS)

$(BUILD)/obj/app/junit.pic.o: app/junit.c $(CONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC $< (plugin)")
	$(Q)$(CC) $(TTEMU_CFLAGS) $(CFLAGS) $(XML_CFLAGS) -fPIC -MMD -MP -c -o $@ $<

$(BUILD)/obj/ui/%.pic.o: ui/%.c $(CONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC $< (plugin)")
	$(Q)$(CC) $(TTEMU_CFLAGS) $(CFLAGS) $(UI_CFLAGS) -fPIC -MMD -MP -c -o $@ $<

$(TT_FIELDS_H): coproc/tt_ops.def scripts/gen_tt_fields.py
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  GEN $@")
	$(Q)python3 scripts/gen_tt_fields.py coproc/tt_ops.def $@
$(LIB_OBJ) $(APP_OBJ) $(MAIN_OBJ) $(UI_OBJ) $(BUILD)/obj/app/junit.pic.o $(UNIT_BIN): $(TT_FIELDS_H)

$(BUILD)/libttemu.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/libttemu-app.a: $(APP_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/obj/%.o: %.c $(CONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC $<")
	$(Q)$(CC) $(TTEMU_CFLAGS) $(CFLAGS) $(PGO_FLAGS) $(LTO_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/obj/nosimd/%.o: coproc/%.c $(CONFIG_STAMP) | $(TT_FIELDS_H)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC $< (-DTTEMU_NO_SIMD)")
	$(Q)$(CC) $(TTEMU_CFLAGS) $(CFLAGS) -DTTEMU_NO_SIMD -MMD -MP -c -o $@ $<

$(BUILD)/test/test_dp_fast_nosimd: test/unit/test_dp_fast.c $(NOSIMD_OBJ) $(BUILD)/libttemu-app.a $(BUILD)/libttemu.a \
		$(CONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TTEMU_CFLAGS) $(CFLAGS) -DTTEMU_NO_SIMD $(TTEMU_LDFLAGS) $(LDFLAGS) $(LTO_TEST_LDFLAGS) -o $@ $< $(NOSIMD_OBJ) \
		$(BUILD)/libttemu-app.a $(BUILD)/libttemu.a $(LDLIBS) -ldl -lcmocka -lm

$(BUILD)/test/%: test/unit/%.c $(BUILD)/libttemu-app.a $(BUILD)/libttemu.a $(CONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TTEMU_CFLAGS) $(CFLAGS) $(TTEMU_LDFLAGS) $(LDFLAGS) $(LTO_TEST_LDFLAGS) -o $@ $< $(BUILD)/libttemu-app.a \
		$(BUILD)/libttemu.a $(LDLIBS) -ldl -lcmocka -lm

-include $(LIB_OBJ:.o=.d) $(NOSIMD_OBJ:.o=.d) $(APP_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(UI_OBJ:.o=.d) $(BUILD)/obj/app/junit.pic.d

# ---- RV32 programs (firmware samples, ISA tests) built with Debian's cross gcc -------------------
include firmware-samples/fw.mk
-include bench/bench.mk
$(BENCH_ELFS): $(FW_FIELDS_DEPS)
include fuzz/fuzz.mk

# ---- the samples' tensor data ---------------------------------------------------------------------
# Generated, not committed: the samples' configs read build/data/*.npy (always build/data, whatever
# BUILD is: configs name it). NumPy is Debian's python3-numpy, hence /usr/bin/python3 rather than
# whichever python3 is first on PATH.
DATA_DIR := build/data
DATA := $(addprefix $(DATA_DIR)/,add1_input.npy add1_expected.npy tensors_a.npy tensors_a_plus_1.npy \
	tensors_b.npy tensors_minus_b.npy)
# The sample kernels' inputs and expectations (firmware-samples/ops/, docs/ops.md): scripts/ops_ref.py
# and the modules it loads (scripts/ops_ref_*.py) write build/data/ops/NAME.{in0,in1,out}.npy.
OPS_DATA := $(DATA_DIR)/ops/.stamp
data: $(DATA) $(OPS_DATA)
$(DATA) &: scripts/make_sample_data.py
	$(if $(filter 1,$(V)),,@echo "  GEN $(DATA_DIR)/*.npy")
	$(Q)/usr/bin/python3 scripts/make_sample_data.py $(DATA_DIR)
$(OPS_DATA): scripts/ops_ref.py $(wildcard scripts/ops_ref_*.py)
	$(if $(filter 1,$(V)),,@echo "  GEN $(DATA_DIR)/ops/*.npy")
	$(Q)/usr/bin/python3 scripts/ops_ref.py data $(DATA_DIR)/ops && touch $@

# ---- profile feedback (PGO=1, above) --------------------------------------------------------------
# The instrumented objects and program live in $(BUILD)/pgo/; the training (scripts/pgo_train.sh,
# which says what it runs and why) leaves each object's profile, $(BUILD)/obj/X.gcda, beside the
# object it optimises: the instrumented objects are compiled under the optimised ones' names
# (-dumpdir, -dumpbase). `private`: the flags are the optimised objects' own, not inherited by
# what they depend on (the instrumented build).
ifeq ($(PGO),1)
PGO_DIR := $(BUILD)/pgo
PGO_OPT_OBJ := $(LIB_OBJ) $(APP_OBJ) $(MAIN_OBJ)
PGO_GEN_OBJ := $(PGO_OPT_OBJ:$(BUILD)/obj/%=$(PGO_DIR)/obj/%)
PGO_STAMP := $(PGO_DIR)/train.stamp
PGO_FW := $(patsubst firmware-samples/%,$(FW_DIR)/%.elf,$(basename $(FW_SRC))) $(BENCH_ELFS)
$(PGO_OPT_OBJ): private PGO_FLAGS := $(PGO_USE_FLAGS)
$(PGO_OPT_OBJ): $(PGO_STAMP)

$(PGO_DIR)/obj/%.o: %.c $(CONFIG_STAMP) | $(TT_FIELDS_H)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC $< (instrumented)")
	$(Q)$(CC) $(TTEMU_CFLAGS) $(CFLAGS) -fprofile-generate -dumpdir $(BUILD)/obj/$(dir $*) -dumpbase $(notdir $*) \
		-MMD -MP -MF $(@:.o=.d) -c -o $@ $<

$(PGO_DIR)/ttemu: $(PGO_GEN_OBJ) $(CONFIG_STAMP)
	$(Q)$(CC) $(TTEMU_LDFLAGS) $(LDFLAGS) -fprofile-generate -o $@ $(PGO_GEN_OBJ) $(LDLIBS)

$(PGO_STAMP): $(PGO_DIR)/ttemu scripts/pgo_train.sh $(PGO_FW) $(DATA) $(OPS_DATA) \
		$(wildcard firmware-samples/*/*.json scripts/pgo/*.json) $(PGO_TRAIN)
	$(if $(filter 1,$(V)),,@echo "  PGO $(PGO_DIR)/ttemu: training")
	$(Q)scripts/pgo_train.sh $(PGO_DIR)/ttemu $(BUILD)/obj $(PGO_TRAIN)
	@touch $@

-include $(PGO_GEN_OBJ:.o=.d)

# The training needs the firmware samples' cross gcc and NumPy (the kernels' data): a build goal
# without them says why `make` builds firmware before it fails there. Goals that install them
# (deps, and demo/test/regress/bench, which run deps first) or build nothing are not warned.
ifneq ($(filter-out deps demo test regress bench clean config format format-check check-layers uninstall,$(or $(MAKECMDGOALS),all)),)
ifeq ($(and $(shell command -v $(RV_CC)),$(wildcard /usr/lib/python3/dist-packages/numpy)),)
$(warning PGO=1 trains the build on the firmware samples: it needs $(RV_CC) and Debian's python3-numpy (scripts/deps.sh installs both; make PGO=0 builds without the training))
endif
endif
endif

# ---- tests --------------------------------------------------------------------------------------
# `check` runs everything against one build; `test` does it plain, then under the sanitizers.
check: $(BUILD)/ttemu $(UNIT_BIN) fw data
	$(Q)BUILD=$(BUILD) test/run.sh

# The sanitizer pass builds the panel too (UI as for the plain pass) and runs its headless checks
# (test/sh/t_ui.sh); in a SAN=1 build test/run.sh makes any sanitizer report exit 99 and gives
# LeakSanitizer test/lsan.supp (other libraries' own leaks, each with its reason).
test-asan:
	$(Q)$(MAKE) --no-print-directory BUILD=build/asan SAN=1 check

# ---- goals that install the Debian packages first ------------------------------------------------
# This make read the Makefile, and asked pkg-config (UI=auto), before deps.sh could install
# anything: after deps, the goal runs in a new make that asks again (DEPS=0: no second deps).
ifneq ($(DEPS),0)
test demo regress bench: deps
	$(Q)$(MAKE) --no-print-directory DEPS=0 $@
else
test:
	$(Q)$(MAKE) --no-print-directory check
	$(Q)$(MAKE) --no-print-directory test-asan

demo: all fw
	$(Q)$(BUILD)/ttemu run $(DEMO_ARGS)

# The firmware samples' regression (docs/regression.md); `make test` runs it via test/sh/t_regress.sh.
regress: all fw
	$(Q)$(BUILD)/ttemu regress firmware-samples $(if $(JOBS),--jobs $(JOBS)) \
		$(if $(JUNIT),--junit $(JUNIT)) $(if $(filter 1,$(UPDATE)),--update)

bench: all fw
	$(Q)bench/run.sh
endif

# ---- installing -----------------------------------------------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=staging-dir], make uninstall with the same:
#   PREFIX/bin/ttemu
#   PREFIX/lib/ttemu/ttemu-panel.so, ttemu-junit.so  the plugins: app/plugin.c looks in ../lib/ttemu/
#                                                    from the executable's real path
#   PREFIX/share/man/man1/ttemu.1                    the man page (docs/ttemu.1)
#   PREFIX/share/doc/ttemu/                          README.md and docs/ (Markdown, images)
# The plugins' place is fixed relative to bin/, so there is no BINDIR or LIBDIR knob. Installing
# without the panel (UI=0) removes an installed panel plugin of an earlier install.
PREFIX ?= /usr/local
INSTALL ?= install
BIN_DIR := $(DESTDIR)$(PREFIX)/bin
PLUGIN_DIR := $(DESTDIR)$(PREFIX)/lib/ttemu
MAN_DIR := $(DESTDIR)$(PREFIX)/share/man/man1
DOC_DIR := $(DESTDIR)$(PREFIX)/share/doc/ttemu
DOC_MD := $(wildcard docs/*.md)
DOC_IMG := $(wildcard docs/img/*.png)

install: all
	$(INSTALL) -d $(BIN_DIR) $(PLUGIN_DIR) $(MAN_DIR) $(DOC_DIR)/docs/img
	$(INSTALL) -m 755 $(BUILD)/ttemu $(BIN_DIR)/ttemu
	$(INSTALL) -m 644 $(JUNIT_PLUGIN) $(UI_PLUGIN) $(PLUGIN_DIR)/
	$(if $(UI_PLUGIN),,rm -f $(PLUGIN_DIR)/ttemu-panel.so)
	$(INSTALL) -m 644 docs/ttemu.1 $(MAN_DIR)/ttemu.1
	$(INSTALL) -m 644 README.md $(DOC_DIR)/
	$(INSTALL) -m 644 $(DOC_MD) $(DOC_DIR)/docs/
	$(INSTALL) -m 644 $(DOC_IMG) $(DOC_DIR)/docs/img/

# Only what install puts there; the directories go when they are left empty.
uninstall:
	rm -f $(BIN_DIR)/ttemu $(PLUGIN_DIR)/ttemu-panel.so $(PLUGIN_DIR)/ttemu-junit.so $(MAN_DIR)/ttemu.1
	rm -f $(DOC_DIR)/README.md $(DOC_MD:%=$(DOC_DIR)/%) $(DOC_IMG:%=$(DOC_DIR)/%)
	rmdir $(PLUGIN_DIR) $(DOC_DIR)/docs/img $(DOC_DIR)/docs $(DOC_DIR) 2>/dev/null || true

check-layers:
	$(Q)python3 scripts/check_layers.py

# Every C file of the repository but the ISA programs' header (assembler macros, test/isa/isa.h);
# generated sources live in $(BUILD) and are not formatted.
FORMAT_SRC = $(shell find $(LIB_DIRS) app ui test firmware-samples bench fuzz -name '*.[ch]' -not -path 'test/isa/*' | sort)
format:
	$(Q)clang-format -i $(FORMAT_SRC)
# (and no object holding a write-guarded const member defined, only allocated: the script says why;
# it reads the sources with libclang, Debian's python3-clang-14, hence /usr/bin/python3)
format-check:
	$(Q)clang-format --dry-run --Werror $(FORMAT_SRC)
	$(Q)out=$$(/usr/bin/python3 scripts/check_const_members.py) || { echo "$$out"; exit 1; }

clean:
	rm -rf build
