#!/usr/bin/env python3
"""The stand-in lit entry point lit_env.py is given; never run itself."""
