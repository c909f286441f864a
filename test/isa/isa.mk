# ISA test programs (included by firmware-samples/fw.mk; paths relative to the top directory).
#   test/isa/NAME.S        -> build/fw/isa/NAME.elf       tile layout (code 0x10000, signature 0x80000)
#                          -> build/fw/isa-qemu/NAME.elf  qemu virt layout (-DQEMU, 0x80000000),
#                             except programs whose name contains "tile" (Blackhole-only CSRs)
#   test/isa/faults/NAME.S -> build/fw/isa-faults/NAME.elf   each triggers one guest fault
#   test/isa/bad/rv64.S    -> build/fw/isa-faults/rv64.elf   an RV64 ELF ttemu must refuse

ISA_DIR := test/isa
ISA_CFLAGS := -march=$(RV_ARCH) -mabi=ilp32 -nostdlib -nostartfiles -static -g -I$(ISA_DIR) -Wl,--no-warn-rwx-segments \
	-T $(ISA_DIR)/isa.ld
ISA_DEPS := $(ISA_DIR)/isa.h $(ISA_DIR)/isa.ld $(ISA_DIR)/isa.mk

ISA_SRC := $(wildcard $(ISA_DIR)/*.S)
ISA_NAMES := $(notdir $(basename $(ISA_SRC)))
ISA_TILE_ELFS := $(ISA_NAMES:%=$(FW_DIR)/isa/%.elf)
ISA_QEMU_ELFS := $(patsubst %,$(FW_DIR)/isa-qemu/%.elf,$(foreach n,$(ISA_NAMES),$(if $(findstring tile,$(n)),,$(n))))
ISA_FAULT_ELFS := $(patsubst $(ISA_DIR)/faults/%.S,$(FW_DIR)/isa-faults/%.elf,\
	$(wildcard $(ISA_DIR)/faults/*.S)) $(FW_DIR)/isa-faults/rv64.elf

$(FW_DIR)/isa/%.elf: $(ISA_DIR)/%.S $(ISA_DEPS)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  RVAS $<")
	$(Q)$(RV_CC) $(ISA_CFLAGS) -Wl,--defsym=TEXT_BASE=0x10000 -Wl,--defsym=SIG_BASE=0x80000 -o $@ $<

$(FW_DIR)/isa-qemu/%.elf: $(ISA_DIR)/%.S $(ISA_DEPS)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  RVAS $< (qemu)")
	$(Q)$(RV_CC) $(ISA_CFLAGS) -DQEMU -Wl,--defsym=TEXT_BASE=0x80000000 \
		-Wl,--defsym=SIG_BASE=0x80080000 -o $@ $<

$(FW_DIR)/isa-faults/%.elf: $(ISA_DIR)/faults/%.S $(ISA_DEPS)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  RVAS $<")
	$(Q)$(RV_CC) $(ISA_CFLAGS) -Wl,--defsym=TEXT_BASE=0x10000 -Wl,--defsym=SIG_BASE=0x80000 -o $@ $<

$(FW_DIR)/isa-faults/rv64.elf: $(ISA_DIR)/bad/rv64.S $(ISA_DEPS)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  RVAS $< (rv64)")
	$(Q)$(RV_CC) -march=rv64i -mabi=lp64 -nostdlib -nostartfiles -static -T $(ISA_DIR)/isa.ld \
		-Wl,--defsym=TEXT_BASE=0x10000 -Wl,--defsym=SIG_BASE=0x80000 -o $@ $<

FW_ELFS += $(ISA_TILE_ELFS) $(ISA_QEMU_ELFS) $(ISA_FAULT_ELFS)
