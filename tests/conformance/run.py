"""Runs the conformance suite and writes its report next to the results (ctest's entry
point). Without pytest it fails, unless CLSEL_SKIP_PEERS=1, which makes it exit 77
(skipped).

    python run.py RESULTS_DIR [pytest arguments...]
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    results_dir = sys.argv[1]
    try:
        import pytest
    except ImportError:
        if os.environ.get("CLSEL_SKIP_PEERS") == "1":
            print("skipped: pytest is not installed and CLSEL_SKIP_PEERS=1")
            return 77
        print("pytest is not installed: run ci/setup.sh (CLSEL_SKIP_PEERS=1 skips the peer tests)")
        return 1
    os.environ["CLSEL_CONFORMANCE_OUT"] = os.path.join(results_dir, "results.json")
    status = pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", HERE, HERE, *sys.argv[2:]])
    if status != 0:
        return int(status)
    sys.path.insert(0, HERE)
    import report

    sys.argv = ["report.py", "--results", os.environ["CLSEL_CONFORMANCE_OUT"],
                "--out", os.path.join(results_dir, "conformance.md")]
    return report.main()


if __name__ == "__main__":
    sys.exit(main())
