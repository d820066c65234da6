"""Runs pytest over the given test files; exits 77 (CTest's "skipped") with the reason when pytest
or numpy is missing or when every test skipped (no GPU, no torch), so a test that cannot run is
never counted as passed."""
import importlib.util
import sys

for module, package in (("pytest", "python3-pytest"), ("numpy", "python3-numpy")):
    if importlib.util.find_spec(module) is None:
        print(f"skipped: {module} is not installed (apt-get install {package})")
        sys.exit(77)

import pytest  # noqa: E402


class Outcomes:
    def __init__(self):
        self.ran = 0
        self.skip_reasons = []

    def pytest_runtest_logreport(self, report):
        if report.when == "call" and not report.skipped:
            self.ran += 1
        elif report.skipped:
            self.skip_reasons.append(str(report.longrepr[-1]) if report.longrepr else "")


outcomes = Outcomes()
status = pytest.main(["-q", "-rs", "-p", "no:cacheprovider", *sys.argv[1:]], plugins=[outcomes])
if status == 0 and outcomes.ran == 0 and outcomes.skip_reasons:
    print("skipped: " + outcomes.skip_reasons[0].removeprefix("Skipped: "))
    sys.exit(77)
sys.exit(int(status))
