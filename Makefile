# SPDX-License-Identifier: GPL-3.0-or-later
# Thin wrapper over CMake for engine-testing frameworks (OpenBench-style `make EXE=name CXX=...`):
# builds the engine binary only (Release, -O3, LTO) and copies it to $(EXE).
#
#   make [EXE=axon] [ARCH=native|x86-64|x86-64-v3|x86-64-v4|none] [CXX=g++] [JOBS=n]
#        [EVALFILE=net.nnue] [TUNE=ON]
#   make test     runs scripts/test.sh (every build and test)
#   make clean    removes what `make` built

EXE  ?= axon
ARCH ?= native
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# The network embedded in the binary: OpenBench passes EVALFILE=path for a test with a network
# (docs/openbench.md). Always given to CMake, so a build without it never keeps an earlier one's.
EVALFILE ?= nets/default.nnue
# ON: the search parameters become Tune_* UCI options for SPSA (docs/tuning.md). OpenBench passes
# no such variable, so a tuning branch sets the default here (docs/openbench.md).
TUNE ?= OFF

# One build folder per compiler, instruction set and tune setting, so switching one never reuses
# a CMake cache configured for another.
BUILD_DIR := build-make/$(ARCH)-$(notdir $(CXX))$(if $(filter ON on 1,$(TUNE)),-tune)

# The frameworks call us as `make -j ...`; the inner build gets its own job count instead of a
# jobserver it could not reach, and none of our command-line variables.
CMAKE := env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL cmake

.PHONY: all $(EXE) test clean

all: $(EXE)

# The binary is copied beside EXE and renamed over it: a running axon (`axon serve`, a GUI's
# engine) keeps its old file, where copying onto it fails with "Text file busy".
$(EXE):
	$(CMAKE) -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$(CXX) \
		-DAXON_ARCH=$(ARCH) -DAXON_LTO=ON -DAXON_BUILD_TESTS=OFF \
		-DAXON_NET=$(abspath $(EVALFILE)) -DAXON_TUNE=$(if $(filter ON on 1,$(TUNE)),ON,OFF)
	$(CMAKE) --build $(BUILD_DIR) --target axon --parallel $(JOBS)
	cp $(BUILD_DIR)/axon $(EXE).tmp && mv -f $(EXE).tmp $(EXE)

test:
	bash scripts/test.sh

clean:
	rm -rf build-make $(EXE)
