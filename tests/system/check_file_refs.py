"""Fails when a comment, message or document names a file or folder of this repository
that does not exist (a pointer left behind when something moved).

usage: check_file_refs.py SOURCE_DIR

A reference is a path that starts with one of the repository's top-level folders
(host/plan/plan.c, docs/semantics.md, tests/runtimes, ...), in any source, script, CMake
file or document. What is not a reference here:
  - a path right after "rev:" (git show e29b285:cl/select.cl names an old version);
  - a pattern or placeholder: followed by "*" or "<", or whose last part is in capitals
    (tests/fuzz/corpus/NAME);
  - the stem of a file that exists (tests/opencl/cl_fault_shim, the module built from
    tests/opencl/cl_fault_shim.c);
  - the paths in OTHER_TREES, which name files under another prefix;
  - data files (*.json): the vectors cite other projects' test files by their paths.
"""
import os
import re
import sys

# Paths that look like ours but lie elsewhere, each with where.
OTHER_TREES = {
    "include/CL/cl.h": "the OpenCL headers under an install prefix (ci/gpu.sh)",
}
TEXT_SUFFIXES = (".c", ".h", ".cl", ".cpp", ".py", ".md", ".txt", ".cmake", ".sh", ".toml", ".in")
SKIPPED_FOLDERS = {".git", ".gpu", "__pycache__", "venv", ".venv"}


def repository_files(root):
    """Every file under root, relative, leaving out build folders (build*) and the above."""
    found = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [d for d in subfolders if d not in SKIPPED_FOLDERS and not d.startswith("build")]
        for name in names:
            found.append(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
    return found


def main():
    root = sys.argv[1]
    files = repository_files(root)
    existing = set(files)
    folders = {"/".join(f.split("/")[:i]) for f in files for i in range(1, f.count("/") + 1)}
    tops = sorted({f.split("/")[0] for f in files if "/" in f})
    reference = re.compile(r"(?<![\w./:-])((?:%s)/[\w./-]*\w)(.?)" % "|".join(map(re.escape, tops)))
    missing = []
    for path in files:
        if not (path.endswith(TEXT_SUFFIXES) or os.path.basename(path) == "CMakeLists.txt"):
            continue
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        for number, line in enumerate(lines, 1):
            for match in reference.finditer(line):
                named, after = match.group(1).rstrip("."), match.group(2)
                last = named.rsplit("/", 1)[-1]
                if after in ("*", "<") or (last.isupper() and last.isalpha()):
                    continue
                if named in existing or named in folders or named in OTHER_TREES:
                    continue
                if any(f.startswith(named + ".") for f in existing):
                    continue
                missing.append(f"{path}:{number}: {named}")
    if missing:
        print("names of files that do not exist:")
        print("\n".join("  " + m for m in missing))
        return 1
    print(f"every path named in {len(files)} files exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
