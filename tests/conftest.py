import os

from hypothesis import HealthCheck, settings

# CI gets reproducible examples and no per-example deadline (shared machines are slow); locally, random examples.
settings.register_profile(
    "ci", derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")
