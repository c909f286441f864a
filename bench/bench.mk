# bench/bench.mk — RV32 programs of `make bench` (bench/run.sh), included by the Makefile.
#   bench/progs/PROG.c → build/fw/bench/PROG.elf, linked like the firmware samples (fw.mk),
#   text at 0x10000 (the program runs on BRISC).
BENCH_SRC := $(wildcard bench/progs/*.c)
BENCH_ELFS := $(patsubst bench/progs/%.c,$(FW_DIR)/bench/%.elf,$(BENCH_SRC))

$(FW_DIR)/bench/%.elf: bench/progs/%.c $(FW_COMMON) $(wildcard firmware-samples/include/*.h)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  RVCC $<")
	$(Q)$(RV_CC) $(RV_CFLAGS) -T firmware-samples/common/tile.ld -Wl,--defsym=TEXT_BASE=0x10000 -o $@ \
		firmware-samples/common/crt0.S $<

# `fw` (firmware-samples/fw.mk) builds these too.
fw: $(BENCH_ELFS)
