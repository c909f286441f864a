# Fuzzing (docs/testing.md): libFuzzer targets built with clang (scripts/deps.sh installs it) under
# ASan and UBSan, float-cast-overflow included.
#   make fuzz                    build every target: build/fuzz/fuzz_NAME
#   make fuzz-run FUZZ=NAME [FUZZ_SECONDS=600]   run one on its seeds (fuzz/corpus/NAME) and
#                                dictionary (fuzz/NAME.dict), new inputs kept in build/fuzz/corpus/NAME
# A target is one file, fuzz/fuzz_NAME.c, defining LLVMFuzzerTestOneInput over the emulator's
# libraries; adding fuzz/fuzz_NAME.c (with seeds in fuzz/corpus/NAME/ and, optionally,
# fuzz/NAME.dict) is all it takes: the list below is the files', and test/sh/t_fuzz.sh runs each.
FUZZ_CC ?= clang
FUZZ_BUILD := build/fuzz
FUZZ_TARGETS := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
FUZZ_SAN := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
# clang does not know gcc's noclone (core/exec.c); the libraries are instrumented for coverage
# (fuzzer-no-link), the targets link libFuzzer itself.
FUZZ_CFLAGS := -O1 -g -fno-omit-frame-pointer $(FUZZ_SAN) -Wno-unknown-attributes
FUZZ_SECONDS ?= 600

.PHONY: fuzz fuzz-libs fuzz-run
fuzz: fuzz-libs
	$(Q)$(MAKE) --no-print-directory $(FUZZ_BINS)

# The emulator's libraries again, with clang and the fuzzer's instrumentation, in their own
# build directory. CFLAGS on the command line (the Makefile adds its own flags to it): it then
# wins over a CFLAGS the user gave `make` (`make CFLAGS=-O3 check`), which reaches this make too.
fuzz-libs:
	$(Q)$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) UI=0 SAN=0 \
		CFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link" $(FUZZ_BUILD)/libttemu.a $(FUZZ_BUILD)/libttemu-app.a

$(FUZZ_BUILD)/fuzz_%: fuzz/fuzz_%.c $(wildcard $(FUZZ_BUILD)/*.a)
	@mkdir -p $(dir $@)
	$(if $(filter 1,$(V)),,@echo "  FUZZ $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -std=c11 -D_DEFAULT_SOURCE -I. -I$(FUZZ_BUILD)/gen $(PKG_CFLAGS) -o $@ $< \
		$(FUZZ_BUILD)/libttemu-app.a $(FUZZ_BUILD)/libttemu.a $(LDLIBS) -ldl

fuzz-run: fuzz
	$(if $(FUZZ),,$(error fuzz-run needs FUZZ=NAME, one of: $(FUZZ_TARGETS)))
	@mkdir -p $(FUZZ_BUILD)/corpus/$(FUZZ)
	$(FUZZ_BUILD)/fuzz_$(FUZZ) $(FUZZ_BUILD)/corpus/$(FUZZ) fuzz/corpus/$(FUZZ) \
		$(if $(wildcard fuzz/$(FUZZ).dict),-dict=fuzz/$(FUZZ).dict) -max_total_time=$(FUZZ_SECONDS) \
		-artifact_prefix=$(FUZZ_BUILD)/ -print_final_stats=1 $(FUZZ_ARGS)
