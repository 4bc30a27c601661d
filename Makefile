# gpulearn — one Makefile for the whole tree.
#
#   make                 build build/$(MODE)/gpulearn (MODE=debug|release|asan|ubsan|tsan)
#   make run             build, then start the TUI
#   make check           build and run every test (Check suites and shell tests)
#   make bench           simulator benchmarks (release build; see bench/README.md)
#   make fuzz            fuzz the PTX parser, spec and lesson loaders (clang, FUZZ_SECONDS=60 each)
#   make install PREFIX=/usr/local DESTDIR=
#   make format          clang-format every C file
#
# Dependencies come from Debian's packages through pkg-config: ncursesw, libcjson,
# libseccomp, nettle (the PTX cache's SHA-256), zlib (the simulator's special-function
# tables, sim/sfu/*.z), check. DEPS_PREFIX=/path points at a folder where those packages were unpacked with
# `dpkg -x` (for machines without a package registry). CUDA_HOME locates cuda.h and
# nvrtc.h; without them the GPU back end and NVRTC are built as "unavailable" stubs.

# The packages come first: `make` (any goal but clean, format and deps) runs
# tools/deps.sh, which checks them and installs what is missing, then runs make again
# for the same goals. Only that second make reads pkg-config, so a first build on a
# bare machine gets the flags of the packages just installed, serially and with -j.
ifneq ($(DEPS_PREFIX),)
  export GPULEARN_DEPS_PREFIX := $(DEPS_PREFIX)
endif
ifndef GL_DEPS_DONE
  GL_GOALS := $(or $(MAKECMDGOALS),all)
  ifneq ($(filter-out clean format deps,$(GL_GOALS)),)
    GL_OUTER := 1
  endif
endif

ifdef GL_OUTER
.PHONY: $(GL_GOALS) gl-deps-then-build
$(GL_GOALS): gl-deps-then-build
	@:
gl-deps-then-build:
	@sh tools/deps.sh $(filter check,$(GL_GOALS))
	@$(MAKE) --no-print-directory GL_DEPS_DONE=1 $(GL_GOALS)
else

MODE       ?= debug
PREFIX     ?= /usr/local
DESTDIR    ?=
CUDA_HOME  ?= /usr/local/cuda
DEPS_PREFIX ?=

CC ?= cc
BUILD ?= build/$(MODE)

WARNINGS := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wformat=2 -Wno-format-nonliteral -Wvla
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE

ifeq ($(MODE),release)
  OPT := -O2 -g -DNDEBUG
else ifeq ($(MODE),asan)
  OPT := -O1 -g -fsanitize=address -fno-omit-frame-pointer -DGL_SANITIZER_BUILD=1
  SANFLAGS := -fsanitize=address
  # a whole program links the sanitized cudart archive: the runtime first (program.c)
  CUDART_SANLIB := $(shell $(CC) -print-file-name=libasan.so)
else ifeq ($(MODE),ubsan)
  OPT := -O1 -g -fsanitize=undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
         -DGL_SANITIZER_BUILD=1
  SANFLAGS := -fsanitize=undefined
  CUDART_SANLIB := $(shell $(CC) -print-file-name=libubsan.so)
else ifeq ($(MODE),tsan)
  # ThreadSanitizer: the simulator's worker threads (sim_config.threads, sim_par.c)
  OPT := -O1 -g -fsanitize=thread -fno-omit-frame-pointer -DGL_SANITIZER_BUILD=1
  SANFLAGS := -fsanitize=thread
  CUDART_SANLIB := $(shell $(CC) -print-file-name=libtsan.so)
else ifeq ($(MODE),debug)
  OPT := -O1 -g
else
  $(error MODE must be debug, release, asan, ubsan or tsan)
endif

ifneq ($(DEPS_PREFIX),)
  # Packages unpacked with dpkg -x: no pkg-config needed (a bare machine may lack it).
  MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
  DEPS_LIBDIRS := $(DEPS_PREFIX)/usr/lib/$(MULTIARCH) $(DEPS_PREFIX)/lib/$(MULTIARCH)
  PKG_CFLAGS   := -isystem $(DEPS_PREFIX)/usr/include -isystem $(DEPS_PREFIX)/usr/include/cjson \
                  -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600
  PKG_LIBS     := $(DEPS_LIBDIRS:%=-L%) $(DEPS_LIBDIRS:%=-Wl,-rpath,%) -lncursesw -ltinfo -lcjson -lseccomp -lnettle -lz
  # a whole program links cudart and the simulator's -lz from there too (runtime/program.c)
  CPPFLAGS += -DGL_PROGRAM_LIBDIR='"$(firstword $(DEPS_LIBDIRS))"'
  CHECK_CFLAGS := -pthread
  CHECK_LIBS   := -lcheck_pic -lsubunit -lrt -pthread
else
  PKGS         := ncursesw libcjson libseccomp nettle zlib
  PKG_CFLAGS   := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
  PKG_LIBS     := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
  CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
  CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)
endif

ifneq ($(wildcard $(CUDA_HOME)/include/cuda.h),)
  CUDA_CFLAGS := -DGL_HAVE_CUDA_H -isystem $(CUDA_HOME)/include
endif

LESSONS_DIR := $(abspath lessons)
PRELUDE_DIR := $(abspath runtime/prelude)
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

CPPFLAGS += -I. -MMD -MP -DGL_VERSION='"$(VERSION)"' \
            -DGL_LESSONS_DIR='"$(LESSONS_DIR)"' -DGL_PRELUDE_DIR='"$(PRELUDE_DIR)"' \
            -DGL_CUDART_LIB='"$(abspath $(BUILD))/libgpulearn_cudart.a"' \
            -DGL_CUDART_INCLUDE='"$(abspath cudart/include)"' \
            -DGL_CUDART_SANLIB='"$(CUDART_SANLIB)"'
CFLAGS   += $(CSTD) $(WARNINGS) $(OPT) -pthread $(PKG_CFLAGS) $(EXTRA_CFLAGS)
LDFLAGS  += $(SANFLAGS) -pthread
LDLIBS   += $(PKG_LIBS) -ldl -lm

SIM_SRC     := $(wildcard sim/*.c sim/ptx/*.c)
TRACE_SRC   := $(wildcard trace/*.c)
RUNTIME_SRC := $(wildcard runtime/*.c)
TUI_SRC     := $(wildcard tui/*.c)
CLI_SRC     := $(wildcard cli/*.c)
CUDART_SRC  := $(wildcard cudart/*.c)
TEST_SRC    := $(wildcard tests/test_*.c)
BENCH_SRC   := $(wildcard bench/*.c)
TOOL_SRC    := $(wildcard tools/*.c)

SIM_OBJ     := $(SIM_SRC:%.c=$(BUILD)/%.o)
TRACE_OBJ   := $(TRACE_SRC:%.c=$(BUILD)/%.o)
RUNTIME_OBJ := $(RUNTIME_SRC:%.c=$(BUILD)/%.o)
TUI_OBJ     := $(TUI_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ     := $(CLI_SRC:%.c=$(BUILD)/%.o)
CUDART_OBJ  := $(CUDART_SRC:%.c=$(BUILD)/%.o)
TEST_BIN    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
BENCH_BIN   := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
TOOL_BIN    := $(TOOL_SRC:tools/%.c=$(BUILD)/tools/%)

LIBSIM     := $(BUILD)/libsim.a
LIBTRACE   := $(BUILD)/libtrace.a
LIBRUNTIME := $(BUILD)/libruntime.a
LIBTUI     := $(BUILD)/libtui.a
BIN        := $(BUILD)/gpulearn
# gpulearn's CUDA runtime with the simulator under it, which whole programs link
# (`gpulearn run PROG.cu`; a static archive: the objects are built as PIE, not PIC)
LIBCUDART  := $(BUILD)/libgpulearn_cudart.a

.PHONY: all run check bench bench-run fuzz fuzz-build install format clean deps
all: $(BIN) $(LIBCUDART)

# Say exactly what is missing (and install it where we may).
deps:
	@sh tools/deps.sh check

# V=1 shows the full commands.
ifeq ($(V),1)
  Q :=
  say = @true
else
  Q := @
  say = @printf '  %-4s %s\n'
endif

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(say) CC $<
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(if $(filter runtime/% tools/%,$<),$(CUDA_CFLAGS)) $(if $(filter tests/%,$<),$(CHECK_CFLAGS)) -c $< -o $@

# The interpreter's hot files at -O3 in release builds (unrolled and vectorised lane
# loops: 3-8% fewer instructions per launch in `make bench`): the executor (exec_*.c)
# and the simulator core (sim*.c but sim_printf.c); the rest stays at -O2.
ifeq ($(MODE),release)
$(patsubst %.c,$(BUILD)/%.o,$(wildcard sim/exec_*.c) $(filter-out sim/sim_printf.c,$(wildcard sim/sim*.c))): OPT := -O3 -g -DNDEBUG
endif

# sim/sfu.c links the special-function unit's tables in whole (.incbin, sim/sfu.h)
$(BUILD)/sim/sfu.o: $(wildcard sim/sfu/*.z)

$(LIBSIM): $(SIM_OBJ)
	@mkdir -p $(dir $@)
	$(say) AR $@
	$(Q)rm -f $@ && $(AR) rcs $@ $^
$(LIBTRACE): $(TRACE_OBJ)
	@mkdir -p $(dir $@)
	$(say) AR $@
	$(Q)rm -f $@ && $(AR) rcs $@ $^
$(LIBRUNTIME): $(RUNTIME_OBJ)
	@mkdir -p $(dir $@)
	$(say) AR $@
	$(Q)rm -f $@ && $(AR) rcs $@ $^
$(LIBTUI): $(TUI_OBJ)
	@mkdir -p $(dir $@)
	$(say) AR $@
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(LIBCUDART): $(CUDART_OBJ) $(SIM_OBJ) $(TRACE_OBJ)
	@mkdir -p $(dir $@)
	$(say) AR $@
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIBTUI) $(LIBRUNTIME) $(LIBSIM) $(LIBTRACE)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Every tests/test_*.c is its own Check program. test_ptx*/test_sim* test sim/ alone
# and link only libsim (and libtrace, which sim/ writes); the others link every library.
# Static libraries in layer order, users before what they use (docs/architecture.md).
SIM_TEST_BIN   := $(filter $(BUILD)/tests/test_ptx% $(BUILD)/tests/test_sim%,$(TEST_BIN))
OTHER_TEST_BIN := $(filter-out $(SIM_TEST_BIN),$(TEST_BIN))
$(SIM_TEST_BIN): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIBSIM) $(LIBTRACE)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)
$(OTHER_TEST_BIN): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIBTUI) $(LIBRUNTIME) $(LIBSIM) $(LIBTRACE)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)

# Benchmarks drive sim/ directly (sim.h), so they link libsim and the libtrace it writes
# to, nothing else; but bench/lessons, which runs lesson steps as runtime/ does.
.SECONDARY: $(BENCH_BIN:%=%.o)
$(BUILD)/bench/lessons: $(BUILD)/bench/lessons.o $(LIBRUNTIME) $(LIBSIM) $(LIBTRACE)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/bench/%: $(BUILD)/bench/%.o $(LIBSIM) $(LIBTRACE)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The GPU-check tools in C (tools/sfu_check.c: the simulator against a GPU through the
# GPU back end) link every library below the TUI; `make check` links them (they cannot
# rot), a GPU machine runs them.
.SECONDARY: $(TOOL_BIN:%=%.o)
$(BUILD)/tools/%: $(BUILD)/tools/%.o $(LIBRUNTIME) $(LIBSIM) $(LIBTRACE)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

run: all
	$(BIN)

# The fuzz targets built with the stub driver (fuzz/stub_main.c) in place of libFuzzer,
# against this build's libraries: `make check` links them (they cannot rot) and
# tests/fuzz_replay.sh replays their seeds and saved crashes.
FUZZ_NAMES    := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_STUB_BIN := $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)
$(FUZZ_STUB_BIN): $(BUILD)/fuzz/%: $(BUILD)/fuzz/%.o $(BUILD)/fuzz/stub_main.o $(LIBRUNTIME) \
                  $(LIBSIM) $(LIBTRACE)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The tests run as many at a time as make's -j N (`make -j2 check`: 2), else as the
# machine has processors (tests/run_all.sh).
check: $(BIN) $(LIBCUDART) $(TEST_BIN) $(FUZZ_STUB_BIN) $(TOOL_BIN)
	@GPULEARN=$(abspath $(BIN)) BUILD=$(BUILD) \
	  GPULEARN_TEST_JOBS=$(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))) \
	  sh tests/run_all.sh $(TEST_BIN)

# `make bench` measures a release build unless MODE is given on the command line (or in
# the environment): it re-runs make with MODE=release. Exit 1 only if a kernel's result
# is wrong; missed speed targets are reported, not failed.
BENCH_MODE := $(if $(filter command line environment,$(origin MODE)),$(MODE),release)
bench:
	@$(MAKE) --no-print-directory MODE=$(BENCH_MODE) bench-run
bench-run: $(BENCH_BIN) $(BIN) $(LIBCUDART)
	@for b in $(BENCH_BIN); do GPULEARN=$(abspath $(BIN)) $$b bench/ptx || exit 1; done

# `make fuzz`: libFuzzer with ASan+UBSan (clang only; `make check` builds the same
# targets with a stub driver instead, above).
# Runs fuzz_ptx (ptx_parse), fuzz_spec (spec_from_json), fuzz_lesson (lesson_parse) and
# fuzz_wire (runtime/wire.h's decoders) for
# FUZZ_SECONDS each (FUZZ_JOBS parallel processes, default 1) and
# prints executions and crashes; new crashing inputs land in $(FUZZ_BUILD)/crashes/.
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
export FUZZ_JOBS
FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS  := $(CSTD) $(filter-out -Werror,$(WARNINGS)) -g -O1 -fno-omit-frame-pointer \
                $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(PKG_CFLAGS)
FUZZ_PTX_OBJ  := $(SIM_SRC:%.c=$(FUZZ_BUILD)/%.o) $(TRACE_SRC:%.c=$(FUZZ_BUILD)/%.o) \
                 $(FUZZ_BUILD)/fuzz/fuzz_ptx.o
# every other target (the spec and lesson loaders reach most of runtime/: targets,
# buffers, expressions) links all of runtime/, with sim/ and trace/ under it, so no object
# list can fall behind; fuzz/fuzz_NAME.c is target NAME (make check links each one)
FUZZ_RUNTIME_OBJ := $(SIM_SRC:%.c=$(FUZZ_BUILD)/%.o) $(TRACE_SRC:%.c=$(FUZZ_BUILD)/%.o) \
                    $(RUNTIME_SRC:%.c=$(FUZZ_BUILD)/%.o)
$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(say) FZCC $<
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_BUILD)/fuzz_ptx: $(FUZZ_PTX_OBJ)
	$(say) LD $@
	$(Q)$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^ -lm
$(FUZZ_BUILD)/fuzz_%: $(FUZZ_RUNTIME_OBJ) $(FUZZ_BUILD)/fuzz/fuzz_%.o
	$(say) LD $@
	$(Q)$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^ $(PKG_LIBS) -ldl -lm
fuzz-build: $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz_%)
fuzz: fuzz-build
	@sh fuzz/run.sh $(FUZZ_BUILD)/fuzz_ptx ptx $(FUZZ_SECONDS) $(FUZZ_BUILD) fuzz/ptx.dict
	@sh fuzz/run.sh $(FUZZ_BUILD)/fuzz_spec spec $(FUZZ_SECONDS) $(FUZZ_BUILD) fuzz/json.dict
	@sh fuzz/run.sh $(FUZZ_BUILD)/fuzz_lesson lesson $(FUZZ_SECONDS) $(FUZZ_BUILD) fuzz/lesson.dict
	@sh fuzz/run.sh $(FUZZ_BUILD)/fuzz_wire wire $(FUZZ_SECONDS) $(FUZZ_BUILD)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/gpulearn
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/gpulearn
	cp -R lessons runtime/prelude $(DESTDIR)$(PREFIX)/share/gpulearn/
	install -d $(DESTDIR)$(PREFIX)/share/gpulearn/cudart
	install -m 644 $(LIBCUDART) $(DESTDIR)$(PREFIX)/share/gpulearn/cudart/
	cp -R cudart/include $(DESTDIR)$(PREFIX)/share/gpulearn/cudart/

FORMAT_SRC := $(SIM_SRC) $(TRACE_SRC) $(RUNTIME_SRC) $(TUI_SRC) $(CLI_SRC) $(TEST_SRC) \
              $(BENCH_SRC) $(wildcard fuzz/*.c) $(wildcard */*.h sim/ptx/*.h)
format:
	clang-format -i $(FORMAT_SRC)

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)

endif # GL_OUTER
