# SPDX-License-Identifier: GPL-3.0-or-later
# The engine from a C++ compiler and make alone, as engine-testing frameworks and testers build
# it (OpenBench: `make EXE=name CXX=...`): the UCI engine with bench, perft and genfens, the
# default network embedded, no CMake and no third-party library (docs/build.md). The full tool
# (serve, match, train, data tools) needs CMake and its libraries: `make tool` builds it.
#
#   make [EXE=axon] [ARCH=native|x86-64|x86-64-v2|x86-64-v3|x86-64-v4|none] [CXX=g++]
#        [EVALFILE=net.nnue] [TUNE=ON] [STATIC=ON] [NO_PEXT=ON] [WERROR=ON]
#   make tool [TOOL=axon] [ARCH=...] [CXX=...] [EVALFILE=...] [TUNE=ON]   the full tool (CMake)
#   make test     runs scripts/test.sh (every build and test)
#   make clean    removes what `make` built

EXE  ?= axon
TOOL ?= axon
ARCH ?= native
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# The network embedded in the binary: OpenBench passes EVALFILE=path for a test with a network
# (docs/openbench.md); EVALFILE= embeds none (the hand-written evaluation).
EVALFILE ?= nets/default.nnue
# ON: the search parameters become Tune_* UCI options for SPSA (docs/tuning.md). OpenBench passes
# no such variable, so a tuning branch sets the default here (docs/openbench.md).
TUNE ?= OFF
# ON: a static binary, as releases ship (scripts/release.sh).
STATIC ?= OFF
NO_PEXT ?= OFF
WERROR ?= OFF

on = $(filter ON on 1 yes,$(1))

# --- What the engine is made of: the layers below the front ends, the UCI front end, and the
# engine's own entry point. The float models (.safetensors) need a JSON library: the full tool's.
FLOAT_MODEL_SOURCES := $(addprefix src/nn/,safetensors.cpp safetensors_network.cpp \
    float_model.cpp dense_mlp.cpp cnn.cpp board_encoding.cpp)
SOURCES := $(wildcard src/chess/*.cpp src/util/*.cpp src/tablebase/*.cpp src/eval/*.cpp \
    src/search/*.cpp src/engine/*.cpp src/uci/*.cpp) \
    $(filter-out $(FLOAT_MODEL_SOURCES),$(wildcard src/nn/*.cpp)) \
    src/app/engine_main.cpp src/app/perft_command.cpp src/app/cpu_guard.cpp

# One object folder per compiler, instruction set and tune setting, so switching between them
# rebuilds nothing twice; flags.txt below catches every other change of flags.
OBJDIR := build-make/engine-$(ARCH)-$(notdir $(CXX))$(if $(call on,$(TUNE)),-tune)
OBJECTS := $(SOURCES:%.cpp=$(OBJDIR)/%.o)
# A Windows compiler (MinGW) writes NAME.exe when asked for NAME.
TARGET_MACHINE := $(shell $(CXX) -dumpmachine 2>/dev/null)
BINARY := $(OBJDIR)/axon-engine$(if $(findstring mingw,$(TARGET_MACHINE))$(findstring windows,$(TARGET_MACHINE)),.exe)

VERSION := $(shell cat VERSION 2>/dev/null || echo unknown)
COMMIT := $(shell git rev-parse --short=10 HEAD 2>/dev/null || echo unknown)$(shell \
    git diff --quiet HEAD -- 2>/dev/null || { git rev-parse HEAD >/dev/null 2>&1 && echo -dirty; })

COMPILER_VERSION := $(shell $(CXX) --version 2>/dev/null)
IS_CLANG := $(findstring clang,$(COMPILER_VERSION))
# MinGW's posix compiler says "12-posix": the major version is the digits before any dot or dash.
GCC_MAJOR := $(if $(IS_CLANG),,$(shell $(CXX) -dumpversion 2>/dev/null | cut -d. -f1 | cut -d- -f1))

CXXFLAGS_ALL := -std=c++20 -O3 -DNDEBUG -Isrc -I$(OBJDIR) -MMD -MP \
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion \
    -DAXON_VERSION='"$(VERSION)"'
ifneq ($(GCC_MAJOR),)
ifeq ($(shell test $(GCC_MAJOR) -lt 13 && echo old),old)
# GCC 12 warns wrongly about std::string concatenation once inlined (GCC bugs 105329, 105651),
# as CMakeLists.txt says.
CXXFLAGS_ALL += -Wno-restrict -Wno-stringop-overflow
endif
endif
ifneq ($(call on,$(WERROR)),)
CXXFLAGS_ALL += -Werror
endif
ifeq ($(ARCH),native)
CXXFLAGS_ALL += -march=native
else ifneq ($(ARCH),none)
CXXFLAGS_ALL += -march=$(ARCH)
endif
ifneq ($(call on,$(TUNE)),)
CXXFLAGS_ALL += -DAXON_TUNE
endif
ifneq ($(call on,$(NO_PEXT)),)
CXXFLAGS_ALL += -DAXON_NO_PEXT
endif
ifneq ($(EVALFILE),)
CXXFLAGS_ALL += -DAXON_NET_FILE='"$(abspath $(EVALFILE))"'
endif
# Link-time optimisation, in parallel where GCC can.
LTO := $(if $(IS_CLANG),-flto,-flto=auto)
LDFLAGS_ALL := $(LTO) -pthread $(if $(call on,$(STATIC)),-static)
CXXFLAGS_ALL += $(LTO) -pthread
# With LTO the code is generated at link time: the link sees the same flags.
LDFLAGS_ALL += $(filter -march=% -O% -W%,$(CXXFLAGS_ALL))

.PHONY: all $(EXE) tool test clean print-sources

all: $(EXE)

# The binary is copied beside EXE and renamed over it: a running axon (`axon serve`, a GUI's
# engine) keeps its old file, where copying onto it fails with "Text file busy".
$(EXE): $(BINARY)
	cp $(BINARY) $(EXE).tmp && mv -f $(EXE).tmp $(EXE)

$(BINARY): $(OBJECTS)
	$(CXX) $(OBJECTS) $(LDFLAGS_ALL) $(LDFLAGS) -o $@

# Every object depends on the flags (recorded only when they change) and the commit header
# only where it is included (the dependency files say so).
FLAGS_FILE := $(OBJDIR)/flags.txt
COMMIT_HEADER := $(OBJDIR)/axon_build_commit.h
$(shell mkdir -p $(OBJDIR) && \
    echo '$(CXX) $(CXXFLAGS_ALL) $(CXXFLAGS)' >$(FLAGS_FILE).new && \
    { cmp -s $(FLAGS_FILE).new $(FLAGS_FILE) && rm -f $(FLAGS_FILE).new || mv -f $(FLAGS_FILE).new $(FLAGS_FILE); } && \
    echo '#define AXON_COMMIT "$(COMMIT)"' >$(COMMIT_HEADER).new && \
    { cmp -s $(COMMIT_HEADER).new $(COMMIT_HEADER) && rm -f $(COMMIT_HEADER).new || mv -f $(COMMIT_HEADER).new $(COMMIT_HEADER); })

$(OBJDIR)/%.o: %.cpp $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(CXXFLAGS) -c $< -o $@

# The network is assembled into this object: a new file (same path) rebuilds it.
$(OBJDIR)/src/nn/embedded_net_incbin.o: $(if $(EVALFILE),$(EVALFILE))

-include $(OBJECTS:.o=.d)

# --- The full tool through CMake (README): serve, match, train, data; it needs CMake and the
# libraries scripts/install-deps.sh installs.
TOOL_DIR := build-make/tool-$(ARCH)-$(notdir $(CXX))$(if $(call on,$(TUNE)),-tune)
# The frameworks call us as `make -j ...`; the inner build gets its own job count instead of a
# jobserver it could not reach, and none of our command-line variables.
CMAKE := env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL cmake
tool:
	$(CMAKE) -S . -B $(TOOL_DIR) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$(CXX) \
		-DAXON_ARCH=$(ARCH) -DAXON_LTO=ON -DAXON_BUILD_TESTS=OFF \
		-DAXON_NET=$(if $(EVALFILE),$(abspath $(EVALFILE))) \
		-DAXON_TUNE=$(if $(call on,$(TUNE)),ON,OFF)
	$(CMAKE) --build $(TOOL_DIR) --target axon --parallel $(JOBS)
	cp $(TOOL_DIR)/axon $(TOOL).tmp && mv -f $(TOOL).tmp $(TOOL)

test:
	bash scripts/test.sh

clean:
	rm -rf build-make $(EXE)

# The engine's sources, for scripts/test.sh's check that they include no third-party header.
print-sources:
	@echo $(SOURCES)
