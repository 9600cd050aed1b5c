#!/usr/bin/env python3
"""Run lit so that the OpenMP runtime's own variables reach the test programs.

lit passes only a fixed list of environment variables to the tests it runs;
this launcher adds every OMP_*, KMP_* and OMPEXT_* variable of its own
environment, so LLVM's runtime test suite can run with omp-ext's paths
forced or with OMP_WAIT_POLICY=passive.

usage: lit_env.py <path to lit.py> <lit arguments...>
"""
import os
import sys


def main():
    lit_py = os.path.abspath(sys.argv[1])
    sys.path.insert(0, os.path.dirname(lit_py))
    import lit.TestingConfig as testing_config

    defaults = testing_config.TestingConfig.fromdefaults

    def fromdefaults(lit_config):
        config = defaults(lit_config)
        for name, value in os.environ.items():
            if name.startswith(("OMP_", "KMP_", "OMPEXT")):
                config.environment[name] = value
        return config

    testing_config.TestingConfig.fromdefaults = staticmethod(fromdefaults)
    import lit.main

    sys.argv = [lit_py] + sys.argv[2:]
    lit.main.main()


if __name__ == "__main__":
    main()
