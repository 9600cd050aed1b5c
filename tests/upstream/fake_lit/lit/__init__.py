"""A stand-in for lit, for check_lit_compare.sh: just what lit_env.py and
lit_compare.sh use of it."""
