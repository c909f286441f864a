# ttemu — functional emulator of one Tenstorrent Blackhole Tensix tile.
#   make            build build/ttemu
#   make demo       build the firmware samples and run the five-core demo
#   make test       build and run every test (then again under ASan/UBSan)
#   make test-asan  only the sanitizer pass
#   make fw         build the RV32 firmware samples and ISA test programs
#   make data       the samples' tensor data (build/data, NumPy; docs/tensors.md)
#   make regress    run the firmware samples against their goldens (JOBS=n, JUNIT=file, UPDATE=1)
#   make format / format-check
#   make fuzz       build the libFuzzer targets (fuzz/fuzz.mk, docs/testing.md)
# Knobs: V=1 (verbose), UI=auto|0|1 (SDL2 panel), SAN=1 (sanitizers), BUILD=dir.

BUILD ?= build
V ?= 0
UI ?= auto
SAN ?= 0

Q := $(if $(filter 1,$(V)),,@)

CC ?= gcc
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -I.
LDLIBS :=

# The sanitizer pass: ASan and UBSan, plus the UBSan checks gcc's -fsanitize=undefined leaves out
# that apply to C: float-cast-overflow (a double out of an integer's range converted to it) and
# bounds-strict (array bounds including trailing arrays). float-divide-by-zero is not undefined
# here: gcc follows IEEE 754 (C11 Annex F), where it gives an infinity or NaN a float model may want.
ifeq ($(SAN),1)
SAN_FLAGS := -fsanitize=address,undefined,float-cast-overflow,bounds-strict
CFLAGS += $(SAN_FLAGS) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += $(SAN_FLAGS)
endif

PKG_CFLAGS := $(shell pkg-config --cflags libelf libcjson 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs libelf libcjson 2>/dev/null || echo -lelf -lcjson)
CFLAGS += $(PKG_CFLAGS)
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
UI_PKGS := sdl2 SDL2_ttf SDL2_image
ifeq ($(UI),auto)
UI := $(shell pkg-config --exists $(UI_PKGS) 2>/dev/null && echo 1 || echo 0)
endif
ifeq ($(UI),1)
CFLAGS += -DTTEMU_UI=1
UI_CFLAGS := $(shell pkg-config --cflags $(UI_PKGS))
UI_LIBS := $(shell pkg-config --libs $(UI_PKGS))
UI_SRC := $(wildcard ui/*.c)
UI_OBJ := $(UI_SRC:%.c=$(BUILD)/obj/%.pic.o)
UI_PLUGIN := $(BUILD)/ttemu-panel.so
MAIN_LDFLAGS := -rdynamic
MAIN_LIB := -Wl,--whole-archive $(BUILD)/libttemu.a -Wl,--no-whole-archive
else
MAIN_LIB := $(BUILD)/libttemu.a
endif

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

.PHONY: all deps demo test test-asan check fw data format format-check check-layers clean bench regress
all: $(BUILD)/ttemu $(UI_PLUGIN) $(JUNIT_PLUGIN)

deps:
	$(Q)scripts/deps.sh

$(BUILD)/ttemu: $(MAIN_OBJ) $(APP_OBJ) $(BUILD)/libttemu.a $(UI_PLUGIN) $(JUNIT_PLUGIN)
	$(Q)$(CC) $(LDFLAGS) $(MAIN_LDFLAGS) -o $@ $(MAIN_OBJ) $(APP_OBJ) $(MAIN_LIB) $(LDLIBS)

$(UI_PLUGIN): $(UI_OBJ)
	$(Q)$(CC) $(LDFLAGS) -shared -o $@ $^ $(UI_LIBS)

$(JUNIT_PLUGIN): $(BUILD)/obj/app/junit.pic.o
	$(Q)$(CC) $(LDFLAGS) -shared -o $@ $^ $(XML_LIBS)

$(BUILD)/obj/app/junit.pic.o: app/junit.c
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC $< (plugin)")
	$(Q)$(CC) $(CFLAGS) $(XML_CFLAGS) -fPIC -MMD -MP -c -o $@ $<

$(BUILD)/obj/ui/%.pic.o: ui/%.c
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC $< (plugin)")
	$(Q)$(CC) $(CFLAGS) $(UI_CFLAGS) -fPIC -MMD -MP -c -o $@ $<

$(BUILD)/libttemu.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/libttemu-app.a: $(APP_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  CC $<")
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/test/%: test/unit/%.c $(BUILD)/libttemu-app.a $(BUILD)/libttemu.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libttemu-app.a $(BUILD)/libttemu.a $(LDLIBS) -ldl -lcmocka

-include $(LIB_OBJ:.o=.d) $(APP_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(UI_OBJ:.o=.d) $(BUILD)/obj/app/junit.pic.d

# ---- RV32 programs (firmware samples, ISA tests) built with Debian's cross gcc -------------------
include firmware-samples/fw.mk
-include bench/bench.mk
include fuzz/fuzz.mk

# ---- the samples' tensor data ---------------------------------------------------------------------
# Generated, not committed: the samples' configs read build/data/*.npy (always build/data, whatever
# BUILD is: configs name it). NumPy is Debian's python3-numpy, hence /usr/bin/python3 rather than
# whichever python3 is first on PATH.
DATA_DIR := build/data
DATA := $(addprefix $(DATA_DIR)/,add1_input.npy add1_expected.npy tensors_a.npy tensors_a_plus_1.npy \
	tensors_b.npy tensors_minus_b.npy)
data: $(DATA)
$(DATA) &: scripts/make_sample_data.py
	$(if $(filter 1,$(V)),,@echo "  GEN $(DATA_DIR)/*.npy")
	$(Q)/usr/bin/python3 scripts/make_sample_data.py $(DATA_DIR)

# ---- tests --------------------------------------------------------------------------------------
# `check` runs everything against one build; `test` does it plain, then under the sanitizers.
check: $(BUILD)/ttemu $(UNIT_BIN) fw data
	$(Q)BUILD=$(BUILD) test/run.sh

test: deps
	$(Q)$(MAKE) --no-print-directory check
	$(Q)$(MAKE) --no-print-directory test-asan

test-asan:
	$(Q)$(MAKE) --no-print-directory BUILD=build/asan SAN=1 UI=0 check

demo: deps all fw
	$(Q)$(BUILD)/ttemu run $(DEMO_ARGS)

# The firmware samples' regression (docs/regression.md); `make test` runs it via test/sh/t_regress.sh.
regress: deps all fw
	$(Q)$(BUILD)/ttemu regress firmware-samples/regress --golden test/golden $(if $(JOBS),--jobs $(JOBS)) \
		$(if $(JUNIT),--junit $(JUNIT)) $(if $(filter 1,$(UPDATE)),--update)

bench: deps all fw
	$(Q)bench/run.sh

check-layers:
	$(Q)python3 scripts/check_layers.py

# Every C file of the repository but the ISA programs' header (assembler macros, test/isa/isa.h);
# generated sources live in $(BUILD) and are not formatted.
FORMAT_SRC = $(shell find $(LIB_DIRS) app ui test firmware-samples bench fuzz -name '*.[ch]' -not -path 'test/isa/*' | sort)
format:
	$(Q)clang-format -i $(FORMAT_SRC)
format-check:
	$(Q)clang-format --dry-run --Werror $(FORMAT_SRC)

clean:
	rm -rf build
