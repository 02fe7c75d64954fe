"""Benchmarks: ``python3 dev.py bench`` (or ``python -m benchmarks [FAMILY ...]``) prints every figure with its unit."""
