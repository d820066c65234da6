"""Test setup: the pscan package of this source tree, one random seed a run (PSCAN_TEST_SEED)."""

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SEED = int(os.environ.get("PSCAN_TEST_SEED", random.randrange(2**32)))


def pytest_report_header(config):
    return f"pscan tests: PSCAN_TEST_SEED={SEED} (set it to rerun with the same data)"


@pytest.fixture
def rng(request):
    """A numpy Generator of the run's seed and the test's own id: new data every run, the same
    data again with the same PSCAN_TEST_SEED."""
    import zlib

    import numpy as np

    return np.random.default_rng([SEED, zlib.crc32(request.node.nodeid.encode())])
