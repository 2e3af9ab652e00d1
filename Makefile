# gjadvise: one top-level build.
#   make                 library (static + shared), bin/gjadvise, gjadvise.pc
#   make test            every CPU test (GPU tests skip without a device)
#   make bench-tools     build/bench/*: join_bench, groupby_bench, phase_replay, the probes ...
#   make test SANITIZE=1 the same under AddressSanitizer + UBSan (build-asan/)
#   make install PREFIX=/usr/local
# CUDA_ARCH is overridable; the default builds Hopper machine code plus PTX.

PREFIX     ?= /usr/local
CUDA_HOME  ?= /usr/local/cuda
CC         ?= cc
NVCC       ?= $(CUDA_HOME)/bin/nvcc
CUDA_ARCH  ?= -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
SANITIZE   ?= 0

ifeq ($(SANITIZE),1)
BUILD      ?= build-asan
SANFLAGS    = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD      ?= build
SANFLAGS    =
endif
# CUDA objects carry no sanitizer instrumentation: build them once, share them.
CUOBJ      := build/obj

CPPFLAGS   += -Iinclude -I. -I$(CUDA_HOME)/include -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
CFLAGS     ?= -O2 -g
CFLAGS     += -std=c11 -Wall -Wextra -Werror -fPIC $(SANFLAGS)
NVCCFLAGS  ?= -O3 -std=c++17 $(CUDA_ARCH) -Xcompiler -fPIC -Xcompiler -Wall \
              --expt-relaxed-constexpr -lineinfo -Iinclude -I.

# Dependencies linked statically so binaries run on the GPU machine, which has
# none of their development files (shared/DESIGN.md).
STATIC_LIBS = $(shell $(CC) -print-file-name=libsqlite3.a) \
              $(shell $(CC) -print-file-name=libgsl.a) \
              $(shell $(CC) -print-file-name=libgslcblas.a)
SYS_LIBS    = -L$(CUDA_HOME)/lib64 -lcudart_static -lstdc++ -lm -ldl -lrt -lpthread
# The shared library links GSL dynamically: Debian's libgslcblas.a is not
# position-independent, so it cannot be folded into a .so.
SO_LIBS     = $(shell $(CC) -print-file-name=libsqlite3.a) -lgsl -lgslcblas
LDFLAGS    += $(SANFLAGS)

LIB_C   := $(wildcard common/*.c model/*.c advisor/*.c db/*.c calibrate/*.c operators/*.c \
                     tune/*.c validate/*.c explain/*.c)
LIB_CU  := $(wildcard calibrate/*.cu operators/*.cu)
LIB_OBJ := $(LIB_C:%.c=$(BUILD)/obj/%.o) $(LIB_CU:%.cu=$(CUOBJ)/%.cu.o)
CLI_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard cli/*.c))
TESTS   := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
TSUPP   := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out tests/test_%,$(wildcard tests/*.c)))
EXAMPLES:= $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))

LIBA    := $(BUILD)/lib/libgjadvise.a
LIBSO   := $(BUILD)/lib/libgjadvise.so
BIN     := $(if $(filter 1,$(SANITIZE)),$(BUILD)/bin/gjadvise,bin/gjadvise)
CMOCKA  := $(shell $(CC) -print-file-name=libcmocka.so.0)

.PHONY: all lib test install clean check-symbols bench-tools
all: $(LIBA) $(LIBSO) $(BIN) $(BUILD)/gjadvise.pc

lib: $(LIBA) $(LIBSO)

$(BUILD)/obj/%.o: %.c include/gjadvise.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(CUOBJ)/%.cu.o: %.cu include/gjadvise.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -MMD -MP -c $< -o $@

$(LIBA): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# Shared library: dependencies folded in, only gj_* exported (lib.map).
$(LIBSO): $(LIB_OBJ) lib.map
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ $(LIB_OBJ) -Wl,--version-script=lib.map -Wl,--exclude-libs,ALL \
	    $(LDFLAGS) $(SO_LIBS) $(SYS_LIBS)

$(BIN): $(CLI_OBJ) $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(CLI_OBJ) $(LIBA) $(LDFLAGS) $(STATIC_LIBS) $(SYS_LIBS)

# Tests: one binary per tests/test_*.c. A file tests/test_X.wrap may list
# -Wl,--wrap=... flags for fault injection. libcmocka.so.0 sits beside them.
$(BUILD)/tests/%: tests/%.c $(TSUPP) $(LIBA) $(BUILD)/tests/libcmocka.so.0
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Itests -o $@ $< $(TSUPP) $(LIBA) \
	    $(shell cat tests/$*.wrap 2>/dev/null) '-Wl,-rpath,$$ORIGIN' -L$(BUILD)/tests -l:libcmocka.so.0 \
	    $(LDFLAGS) $(STATIC_LIBS) $(SYS_LIBS)

$(BUILD)/tests/libcmocka.so.0:
	@mkdir -p $(dir $@)
	cp -L $(CMOCKA) $@

# The benchmark and replay tools (bench/*.c; bench/RESULTS.md says which
# figures each made): build/bench/NAME, linked as the binaries are, so they
# run on the GPU machine too.
BENCH_TOOLS = $(patsubst bench/%.c,$(BUILD)/bench/%,$(wildcard bench/*.c))
# Standalone CUDA probes (bench/*_probe.cu): one kernel idea measured alone
# before it goes into operators/, no library, one sm_90 build each.
BENCH_PROBES = $(patsubst bench/%.cu,$(BUILD)/bench/%,$(wildcard bench/*_probe.cu))
bench-tools: $(BENCH_TOOLS) $(BENCH_PROBES)

$(BUILD)/bench/%_probe: bench/%_probe.cu
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -Iinclude -I. -o $@ $<

$(BUILD)/bench/%: bench/%.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LIBA) $(LDFLAGS) $(STATIC_LIBS) $(SYS_LIBS)

# groupby_bench drives the CLI's run/bench groupby code
$(BUILD)/bench/groupby_bench: bench/groupby_bench.c $(filter-out %/main.o,$(CLI_OBJ)) $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(filter-out %/main.o,$(CLI_OBJ)) $(LIBA) $(LDFLAGS) $(STATIC_LIBS) \
	    $(SYS_LIBS)

$(BUILD)/examples/%: examples/%.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LIBA) $(LDFLAGS) $(STATIC_LIBS) $(SYS_LIBS)

$(BUILD)/gjadvise.pc: Makefile
	@mkdir -p $(dir $@)
	printf 'prefix=%s\nlibdir=$${prefix}/lib\nincludedir=$${prefix}/include\n\nName: gjadvise\nDescription: choose, predict and run GPU join and group-by operators\nVersion: %s\nLibs: -L$${libdir} -lgjadvise\nLibs.private: -lsqlite3 -lgsl -lgslcblas -L%s/lib64 -lcudart_static -lstdc++ -lm -ldl -lrt -lpthread\nCflags: -I$${includedir}\n' \
	    '$(PREFIX)' "$$(sed -n 's/.*GJ_VERSION_STRING "\(.*\)"/\1/p' include/gjadvise.h)" '$(CUDA_HOME)' > $@

# DuckDB's plans of the 22 TPC-H queries for tests/test_explain.c, made with
# the .venv of ./setup.sh; without DuckDB the TPC-H test fails, saying so.
TPCH_PLANS := build/tpch_plans
$(TPCH_PLANS)/counts.txt: tests/tpch_plans.py
	@if .venv/bin/python -c 'import duckdb' 2>/dev/null; then \
	    .venv/bin/python tests/tpch_plans.py $(TPCH_PLANS); \
	else echo "make: no DuckDB in .venv: run ./setup.sh (test_explain's TPC-H test fails without it)"; fi

test: $(TESTS) $(BIN) $(EXAMPLES) $(TPCH_PLANS)/counts.txt
	@GJ_TPCH_PLANS=$(abspath $(TPCH_PLANS)) GJ_BIN=$(abspath $(BIN)) tests/run.sh $(TESTS) $(EXAMPLES) \
	    tests/readme_examples.py

check-symbols: $(LIBSO)
	@bad=$$(nm -D --defined-only $(LIBSO) | awk '{print $$3}' | grep -v '^gj_' | grep -v '^GJ' || true); \
	if [ -n "$$bad" ]; then echo "non-gj_ symbols exported:"; echo "$$bad"; exit 1; fi; echo "exports: gj_* only"

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/gjadvise
	install -m 644 $(LIBA) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIBSO) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/gjadvise.h $(DESTDIR)$(PREFIX)/include/
	sed 's|^prefix=.*|prefix=$(PREFIX)|' $(BUILD)/gjadvise.pc > $(DESTDIR)$(PREFIX)/lib/pkgconfig/gjadvise.pc

clean:
	rm -rf build build-asan bin

-include $(shell find $(BUILD)/obj $(CUOBJ) -name '*.d' 2>/dev/null)
