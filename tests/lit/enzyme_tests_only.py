# lit test format for `--param enzyme_only=1` (lit.cfg.py): only the tests
# that run Enzyme (`REQUIRES:` naming an enzyme feature), for the run with a
# second Enzyme snapshot; the other tests do not depend on it. A module of its
# own, so that lit's worker processes can unpickle it.
import re

import lit.formats

_REQUIRES_ENZYME = re.compile(r"^\W*REQUIRES:.*\benzyme\b", re.M)


class EnzymeTestsOnly(lit.formats.ShTest):
    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        for test in super().getTestsInDirectory(testSuite, path_in_suite, litConfig, localConfig):
            with open(test.getSourcePath(), errors="replace") as f:
                if _REQUIRES_ENZYME.search(f.read()):
                    yield test
