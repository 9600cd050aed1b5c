
# Appended by tests/vm/lit_vm.sh to a copy of a build's lit.site.cfg: with
# OMPEXT_VM_LIT=compile every run step of a test is a no-op, with
# OMPEXT_VM_LIT=run every compile step is (the programs compiled before).
import os as _os

_mode = _os.environ.get("OMPEXT_VM_LIT", "")
_subst = []
for _pattern, _replacement in config.substitutions:
    _compile = _pattern.startswith("%libomp") and (
        _pattern.endswith("-compile") or _pattern.endswith("-compile-c"))
    if _mode == "compile" and _pattern == "%libomp-run":
        _replacement = "true"
    elif _mode == "run" and _compile:
        _replacement = "true"
    _subst.append((_pattern, _replacement))
config.substitutions = _subst
