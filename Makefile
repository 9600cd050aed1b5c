# Thin wrapper over CMake (Ninja generator, build directory "build").
#
#   make deps       check/install the Debian packages (cmake/install-deps.sh)
#   make configure  (re)run CMake; fetches the LLVM sources on first use
#                   (release: CMAKE_ARGS=-DOMPEXT_LLVM_VERSION=19.1.7|16.0.6)
#   make build      deps + configure (if needed) + build everything
#   make test       build, then run all tests with ctest
#   make check      build, then the quick tests: unit, integration, model,
#                   docs (a few minutes; make test stays the full suite)
#   make bench      build, then bench/epcc/compare.sh (BENCH_QUICK=1 passes through)
#   make install    build, then install the ext runtime and tools into $(PREFIX)
#   make clean      remove the build directory (the source cache in .cache stays)
#   make distclean  clean, and remove the downloaded LLVM sources too
#
# Variables: BUILD_DIR (default build; on the command line), PREFIX (default
# /usr/local), CMAKE_ARGS (extra arguments for CMake; given to 'make build'
# they re-run the configure step), JOBS (build parallelism, default: Ninja's;
# the two libomp builds run one at a time and take
# CMAKE_ARGS=-DOMPEXT_RUNTIME_JOBS=N), CTEST_JOBS (default 2), BENCH_QUICK.

BUILD_DIR   := build
PREFIX      ?= /usr/local
CMAKE       ?= cmake
CTEST       ?= ctest
CMAKE_ARGS  ?=
JOBS        ?=
CTEST_JOBS  ?= 2

ifneq ($(strip $(JOBS)),)
BUILD_JOBS := --parallel $(JOBS)
endif

ifdef BENCH_QUICK
export BENCH_QUICK
endif

.PHONY: all deps configure build test check bench install clean distclean

all: build

deps:
	@bash cmake/install-deps.sh

configure: deps
	$(CMAKE) -S . -B $(BUILD_DIR) -G Ninja \
	  -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  $(CMAKE_ARGS)

# Configure only when there is no build tree yet (or new CMAKE_ARGS); after
# that, Ninja re-runs CMake by itself whenever a CMake file changes.
build: deps
	@if [ ! -f $(BUILD_DIR)/build.ninja ] || [ -n "$(strip $(CMAKE_ARGS))" ]; then \
	  $(MAKE) --no-print-directory configure; \
	fi
	$(CMAKE) --build $(BUILD_DIR) $(BUILD_JOBS)

test: build
	$(CTEST) --test-dir $(BUILD_DIR) --output-on-failure -j$(CTEST_JOBS)

check: build
	$(CTEST) --test-dir $(BUILD_DIR) --output-on-failure -j$(CTEST_JOBS) \
	  -L '^(unit|integration|model|docs)$$'

bench: build
	@if [ ! -f bench/epcc/compare.sh ]; then \
	  echo "make bench: bench/epcc/compare.sh does not exist yet (the EPCC comparison script); nothing to run." >&2; \
	  exit 1; \
	fi
	bash bench/epcc/compare.sh

install: build
	$(CMAKE) --install $(BUILD_DIR) --prefix "$(PREFIX)"

clean:
	rm -rf $(BUILD_DIR)

distclean: clean
	rm -rf .cache/llvm
