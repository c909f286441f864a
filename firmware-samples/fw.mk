# RV32 programs for the tile, built with Debian's cross gcc (gcc-riscv64-unknown-elf).
# Every firmware-samples/GROUP/PROG.{c,S} becomes build/fw/GROUP/PROG.elf, linked with the common
# start-up code and linker script. The program's text base follows the core its name mentions, so
# five programs of one group can share L1 without overlapping:
#   *brisc* 0x10000, *ncrisc* 0x20000, *trisc0* 0x30000, *trisc1* 0x40000, *trisc2* 0x50000,
#   anything else 0x10000. Stack and nothing else in the core's local data RAM.

RV_PREFIX ?= riscv64-unknown-elf-
RV_CC := $(RV_PREFIX)gcc
RV_ARCH ?= rv32ima_zicsr_zba_zbb_zbkb
RV_CFLAGS := -march=$(RV_ARCH) -mabi=ilp32 -ffreestanding -nostdlib -nostartfiles -static \
	-O2 -g -Wall -Wextra -Werror -Wl,--no-warn-rwx-segments -Ifirmware-samples/include -I$(GEN_DIR) -I.
FW_DIR := build/fw

fw_base = $(strip $(if $(findstring ncrisc,$(1)),0x20000,$(if $(findstring brisc,$(1)),0x10000,\
	$(if $(findstring trisc0,$(1)),0x30000,$(if $(findstring trisc1,$(1)),0x40000,\
	$(if $(findstring trisc2,$(1)),0x50000,0x10000))))))

FW_SRC := $(filter-out firmware-samples/common/%,$(wildcard firmware-samples/*/*.c firmware-samples/*/*.S))
FW_ELFS := $(patsubst firmware-samples/%,$(FW_DIR)/%.elf,$(basename $(FW_SRC)))
# Small programs that only tests use: test/progs/PROG.{c,S} → build/fw/progs/PROG.elf.
PROG_SRC := $(wildcard test/progs/*.c test/progs/*.S)
FW_ELFS += $(patsubst test/progs/%,$(FW_DIR)/progs/%.elf,$(basename $(PROG_SRC)))
FW_COMMON := firmware-samples/common/crt0.S firmware-samples/common/tile.ld
# ttemu_fw.h includes the generated Tensix encoders (coproc/tt_fields.h in the Makefile's GEN_DIR)
# and the Config field table (coproc/cfg_fields.def, from the tree: hence -I.).
# They change with the .def and its generator; any build's copy will do (order-only), so a
# BUILD=build/asan pass does not rebuild build/fw.
FW_FIELDS_DEPS := coproc/tt_ops.def coproc/cfg_fields.def scripts/gen_tt_fields.py | $(TT_FIELDS_H)
$(FW_ELFS): $(FW_FIELDS_DEPS)

$(FW_DIR)/%.elf: firmware-samples/%.c $(FW_COMMON) $(wildcard firmware-samples/include/*.h)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  RVCC $<")
	$(Q)$(RV_CC) $(RV_CFLAGS) -T firmware-samples/common/tile.ld \
		-Wl,--defsym=TEXT_BASE=$(call fw_base,$(notdir $*)) -o $@ firmware-samples/common/crt0.S $<

$(FW_DIR)/%.elf: firmware-samples/%.S $(FW_COMMON) $(wildcard firmware-samples/include/*.h)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  RVAS $<")
	$(Q)$(RV_CC) $(RV_CFLAGS) -T firmware-samples/common/tile.ld \
		-Wl,--defsym=TEXT_BASE=$(call fw_base,$(notdir $*)) -o $@ firmware-samples/common/crt0.S $<

$(FW_DIR)/progs/%.elf: test/progs/%.c $(FW_COMMON) $(wildcard firmware-samples/include/*.h test/progs/*.h)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  RVCC $<")
	$(Q)$(RV_CC) $(RV_CFLAGS) -T firmware-samples/common/tile.ld \
		-Wl,--defsym=TEXT_BASE=$(call fw_base,$(notdir $*)) -o $@ firmware-samples/common/crt0.S $<

$(FW_DIR)/progs/%.elf: test/progs/%.S $(FW_COMMON) $(wildcard firmware-samples/include/*.h)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  RVAS $<")
	$(Q)$(RV_CC) $(RV_CFLAGS) -T firmware-samples/common/tile.ld \
		-Wl,--defsym=TEXT_BASE=$(call fw_base,$(notdir $*)) -o $@ firmware-samples/common/crt0.S $<

# One program from anywhere, with the samples' flags and its core's text base (the core name must
# be in SRC's file name). test/sh/t_regress.sh builds deliberately altered copies of samples so:
#   make fw-one SRC=/tmp/x/pipeline_trisc1.c OUT=/tmp/x/pipeline_trisc1.elf
# A copy's own directory comes first for `#include "..."`, as for any C file.
.PHONY: fw-one
fw-one: $(FW_COMMON) $(FW_FIELDS_DEPS)
	$(if $(and $(SRC),$(OUT)),,$(error fw-one needs SRC=file.c and OUT=file.elf))
	$(Q)$(RV_CC) $(RV_CFLAGS) -T firmware-samples/common/tile.ld \
		-Wl,--defsym=TEXT_BASE=$(call fw_base,$(notdir $(basename $(SRC)))) -o $(OUT) firmware-samples/common/crt0.S $(SRC)

# ISA test programs (test/isa/) add their own rules and append to FW_ELFS.
-include test/isa/isa.mk

fw: $(FW_ELFS)

DEMO_ARGS ?= --brisc $(FW_DIR)/demo/brisc.elf --ncrisc $(FW_DIR)/demo/ncrisc.elf \
	--trisc0 $(FW_DIR)/demo/trisc0.elf --trisc1 $(FW_DIR)/demo/trisc1.elf \
	--trisc2 $(FW_DIR)/demo/trisc2.elf --peek 0x8000:8
