"""For pytest and autograders: assert_mha fails with the grader's report as its message."""
from ._grading import check


def assert_mha(solution, ex, timeout=60):
    """Raises AssertionError whose message is attnlab.check's report unless every stage the
    solution gives is right; returns the Result when it passes."""
    __tracebackhide__ = True  # pytest shows the report, not this function's frame
    result = check(solution, ex, timeout)
    if not result.passed:
        raise AssertionError(str(result))
    return result
