"""The examples of README.md and docs/*.md, run as written, or tied to the test that runs
the same text.

usage: docs_examples.py SOURCE_DIR BUILD_DIR WORK_DIR

Every fenced block of those files has an entry in EXAMPLES, keyed by its file and its
first line; a block without one fails the test, so a new example is run or tied when it
is written. An entry is a list of checks:
  Shell     runs the block (or the lines named) with bash in a scratch folder laid out as
            the repository is (build/bin, build/lib, build/venv, python, bench), and
            compares what it prints with the block after it (Output) or with the
            `# expected` comments of its print lines;
  Python    runs the block with this Python, after `before` made the files it reads,
            and checks after it; compared like Shell;
  C         compiles the block inside main() (its #include lines on top) with
            declarations before it and checks after it, against the built library, and runs it;
  Usage     the block is the usage lines that `build/bin/clsel COMMAND --help` prints for
            each command it names (and the tool's own --help for `clsel --version ...`);
  Tied      the block's lines (or the fragments named), whitespace and C comments aside,
            are in the test or script that runs them, which CI runs;
  Output    the output that the block before it prints (checked there);
  Diagram   not a command.
In what a block prints, `...` stands for any text (as in the docs: a device's name, a time).
An indented code block fails: fenced, it is checked like the others.
"""
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

import where_onnx  # beside this file

SOURCE, BUILD, WORK = (os.path.abspath(path) for path in sys.argv[1:4])


@dataclass
class Shell:
    lines: list = None  # the lines of the block to run (each as written there); None: all
    substitute: dict = field(default_factory=dict)  # placeholders of the docs -> what runs here
    prelude: str = ""  # commands before the block (the files it reads)


@dataclass
class Python:
    before: object = None  # called with the scratch folder first: the files the block reads
    checks: str = ""
    needs: str = None  # a file under BUILD that the block needs; the block is reported, not run, without it


@dataclass
class C:
    declarations: str
    checks: str
    includes: str = ""  # what a fragment without its own #include lines needs


@dataclass
class Usage:
    pass


@dataclass
class Tied:
    path: str  # relative to SOURCE
    fragments: list = None  # None: every line of the block


@dataclass
class Output:
    pass


@dataclass
class Diagram:
    pass


EXAMPLES = {
    ("README.md", "ci/setup.sh && cmake -S . -B build && cmake --build build -j && build/bin/clsel demo"): [
        Shell(lines=None, substitute={"ci/setup.sh && cmake -S . -B build && cmake --build build -j && ": "",
                                      "ci/test.sh": ""}),
        Tied("ci/test.sh", ["ci/setup.sh", "cmake -S . -B build", "cmake --build build"]),
        Tied(".ci/run", ["ci/test.sh"]),
    ],
    ("README.md", "clsel 0.1.0: out = cond ? then : else"): [Output()],
    ("README.md", "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j"): [
        Tied("tests/system/install_test.sh", ["cmake --install", "--prefix"]),
    ],
    ("README.md", '#include "clsel.h"'): [
        C(declarations="const uint8_t cond[3] = {1, 0, 1};\n"
                       "const float then_data[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, else_data[1] = {-1};\n"
                       "float out[12];\n",
          checks="for (int i = 0; i < 12; i++)\n"
                 "    if (out[i] != (cond[i / 4] ? then_data[i] : else_data[0])) return 1;\n"
                 "puts(\"README: [3,1] cond, [3,4] then, scalar else: as numpy.where\");\n"),
    ],
    ("README.md", "python3 -m venv ~/clsel-venv && ~/clsel-venv/bin/pip install . && ~/clsel-venv/bin/python -c \""): [
        Tied("tests/system/pip_install_test.sh",
             ["print(clsel.where(np.array([0.5, 0, 2]), np.arange(3.0), -1)) # [ 0. -1. 2.]"]),
    ],
    ("README.md", "~/clsel-venv/bin/pip install ./integrations/openvino   # the extension, for that venv's openvino"): [
        Tied("tests/system/pip_openvino_test.sh", ["integrations/openvino"]),
    ],
    ("docs/api.md", "/* out[i][j] = cond[i][j] ? a[j][i] : b[i][j], with a transposed and b's rows 1024 apart */"): [
        C(includes='#include "clsel.h"\n',
          declarations="const int64_t rows = 3;\n"
                       "const clsel_shape shape = {2, {3, 4}};\n"
                       "clsel_plan *plan = NULL;\n",
          checks="static uint8_t cond[12];\n"
                 "static float a[12], b[3 * 1024], out[12];\n"
                 "for (int i = 0; i < 12; i++) cond[i] = (uint8_t)(i % 3 == 0), a[i] = (float)i;\n"
                 "for (int i = 0; i < 3 * 1024; i++) b[i] = (float)-i;\n"
                 "if (plan == NULL || clsel_plan_run_cpu(plan, cond, a, b, out) != CLSEL_SUCCESS) return 1;\n"
                 "for (int i = 0; i < 3; i++)\n"
                 "    for (int j = 0; j < 4; j++)\n"
                 "        if (out[i * 4 + j] != (cond[i * 4 + j] ? a[j * rows + i] : b[i * 1024 + j])) return 1;\n"
                 "clsel_plan_destroy(plan);\n"
                 "puts(\"api.md: a transposed then, an else with rows 1024 apart: as the loop says\");\n"),
    ],
    ("docs/api.md", "#define CL_TARGET_OPENCL_VERSION 120"): [Tied("tests/opencl/example_embed.c")],
    ("docs/architecture.md", "              include/clsel.h            include/clsel_cl.h"): [Diagram()],
    ("docs/architecture.md", "plan (plan.c: the output's dims and each tensor's strides along them)"): [Diagram()],
    ("docs/cli.md", "clsel run COND.npy THEN.npy ELSE.npy -o OUT.npy [options]"): [Usage()],
    ("docs/cli.md", 'build/venv/bin/python -c "'): [Shell()],
    ("docs/cli.md", "clsel run: runtime device cpu (CPU path); no OpenCL: the OpenCL devices here are CPU devices "
                    "(pthread-...): the CPU path runs on the same cores and memory without copying to and from a "
                    "device (ask for CLSEL_DEVICE_OPENCL, or name one with CLSEL_PLATFORM, to use them)"): [Output()],
    ("docs/conformance.md", "ci/setup.sh && cmake -S . -B build && cmake --build build -j"): [
        Tied("tests/CMakeLists.txt", ["NAME conformance"]),
        Tied("tests/conformance/run.py", ["import report", '"--results"']),
    ],
    ("docs/gpu_model.md", "bench/gpu_model.sh                                  "
                          "# the fixed set: broadcast, short-row and strided patterns"): [
        Shell(lines=["bench/gpu_model.sh --case short_u8                  # one pattern of the fixed set"]),
        Tied("tests/system/CMakeLists.txt", ["gpu_model.sh", "--json", "--sweep 24 --seed 5"]),
    ],
    ("docs/gpu_model.md", "bench/gpu_model_compare.py BEFORE.json AFTER.json                "
                          "# per pattern class, and the targets"): [
        Shell(prelude="bench/gpu_model.sh --case short_u8 --json short_u8.json >/dev/null\n",
              substitute={"BEFORE.json": "short_u8.json", "AFTER.json": "short_u8.json"}),
    ],
    ("docs/integration.md", "import openvino as ov, clsel.openvino"): [
        Python(before=lambda folder: where_onnx.write(os.path.join(folder, "model.onnx")),
               needs="lib/libclsel_openvino.so",
               checks="import numpy as np\n"
                      "out = compiled([np.array([[True], [False]]), np.ones((2, 3), np.float32), np.float32(-1)])[0]\n"
                      "assert out.tolist() == [[1, 1, 1], [-1, -1, -1]] and clsel.openvino.evaluations() > 0, out\n"
                      "print('integration.md: model.onnx through clsel.openvino as numpy.where')\n"),
    ],
    ("docs/integration.md", "pip install . ./integrations/openvino        "
                            "# clsel, then the extension (package clsel_openvino)"): [
        Tied("tests/system/pip_openvino_test.sh", ['pip install -q "$source" "$source/integrations/openvino"']),
    ],
    ("docs/integration.md", "# with the Python that has openvino (ci/setup.sh's build/venv; ci/test.sh does this)"): [
        Tied("ci/test.sh", ["-DCLSEL_OPENVINO=ON", "-DOpenVINO_DIR=", "import openvino.utils as u; "
                            "print(u.get_cmake_path())"]),
    ],
    ("docs/performance.md", "bench/run.sh            # full sizes, about 25 minutes; bench/run.sh --quick: seconds"): [
        Tied("tests/system/bench_check.py", ["--quick"]),
    ],
    ("docs/python.md", "python3 -m venv ~/clsel-venv && ~/clsel-venv/bin/pip install ."): [
        Tied("tests/system/pip_install_test.sh",
             ["print(clsel.where(np.array([0.5, 0, 2]), np.arange(3.0), -1)) # [ 0. -1. 2.]",
              "print(clsel.select(np.array([True, False, True]), np.arange(3.0), np.float64(-1))) # [ 0. -1. 2.]"]),
    ],
    ("docs/python.md", 'PYTHONPATH=python build/venv/bin/python -c "'): [Shell()],
    ("docs/semantics.md", "out[i] = cond'[i] != 0 ? then'[i] : else'[i]"): [Diagram()],
    ("docs/testing.md", "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j"): [
        Tied("ci/test.sh", ["cmake -S . -B build", "(cd build && ctest"]),
    ],
    ("docs/testing.md", "mkdir -p build/icd/pocl && cp /etc/OpenCL/vendors/pocl.icd build/icd/pocl/"): [
        Tied("ci/test.sh", ["mkdir -p build/icd/pocl", "cp /etc/OpenCL/vendors/pocl.icd build/icd/pocl/",
                            'export OCL_ICD_VENDORS="$PWD/build/icd/pocl"']),
    ],
    ("docs/testing.md", "build/bin/test_opencl_interop --list                  # the case names"): [Shell()],
    ("docs/python.md", "import numpy as np, pyopencl as cl, pyopencl.array as cla"): [Python()],
}

COMMENT = re.compile(r"/\*.*?\*/", re.S)


LIST_ITEM = re.compile(r"^\s*([-*+]|\d+\.)\s")


def blocks(path):
    """(first line, text, line number) of each fenced block of a Markdown file; an indented
    code block (four spaces after a blank line, outside a list) as first line None."""
    lines = open(os.path.join(SOURCE, path)).read().split("\n")
    start = None
    in_list = False
    for number, line in enumerate(lines, 1):
        if start is None and line.strip():
            indented = line.startswith("    ") and not LIST_ITEM.match(line)
            if indented and number > 1 and not lines[number - 2].strip() and not in_list:
                yield None, line, number
            in_list = bool(LIST_ITEM.match(line)) or (in_list and line.startswith("  "))
        if line.startswith("```"):
            if start is None:
                start = number
            else:
                body = lines[start:number - 1]
                yield (body[0] if body else ""), "\n".join(body) + "\n", start
                start = None


def matches(pattern, text):
    """Whether text is pattern, `...` in the pattern standing for any text."""
    parts = [re.escape(part) for part in pattern.strip("\n").split("...")]
    return re.fullmatch(".*?".join(parts), text.strip("\n"), re.S) is not None


def expected_from_comments(text):
    """What a block's print lines say they print (`print(...)  # [ 0. -1.  2.]`), one line
    each; `...` for a print line without one."""
    expected = []
    for line in text.split("\n"):
        if "print(" in line:
            comment = re.search(r"#\s(.*)$", line)
            expected.append(comment.group(1) if comment else "...")
    return "\n".join(expected) if expected else None


def scratch():
    """A folder laid out as the repository is, for commands written from its root."""
    folder = os.path.join(WORK, "scratch")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "build", "venv", "bin"))
    for name, target in (("build/bin", os.path.join(BUILD, "bin")), ("build/lib", os.path.join(BUILD, "lib")),
                         ("python", os.path.join(SOURCE, "python")), ("bench", os.path.join(SOURCE, "bench"))):
        os.symlink(target, os.path.join(folder, name))
    # build/venv/bin/python is this Python (a script: a link would lose a venv's packages).
    python = os.path.join(folder, "build", "venv", "bin", "python")
    with open(python, "w") as file:
        file.write(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    os.chmod(python, 0o755)
    return folder


def run(command, folder, expected, where):
    """Runs command in folder with the built library; None, or what went wrong."""
    env = dict(os.environ, CLSEL_LIBRARY=os.path.join(BUILD, "lib", "libclsel.so"),
               PYTHONPATH=os.path.join(SOURCE, "python"))
    env.pop("CLSEL_BUILD", None)
    result = subprocess.run(command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, timeout=300)
    printed = result.stdout
    if result.returncode == 77:  # the command's own "skipped": a tool it needs is missing here
        print(f"{where}: not run here:\n{printed}")
        return None
    if result.returncode != 0:
        return f"{where}: exited {result.returncode}:\n{printed}"
    if expected is not None and not matches(expected, printed):
        return f"{where}: printed\n{printed}\nwhere the docs show\n{expected}"
    print(f"{where}: ran, {'as the docs show' if expected is not None else 'no output shown in the docs'}")
    return None


def check_shell(check, text, expected, where):
    if check.lines is not None:
        missing = [line for line in check.lines if line not in text.split("\n")]
        if missing:
            return f"{where}: the lines to run are not in the block: {missing}"
        text = "\n".join(check.lines) + "\n"
    for placeholder, value in check.substitute.items():
        text = text.replace(placeholder, value)
    expected = expected or expected_from_comments(text)
    return run(["bash", "-euc", check.prelude + text], scratch(), expected, where)


def check_python(check, text, expected, where):
    if check.needs and not os.path.exists(os.path.join(BUILD, check.needs)):
        print(f"{where}: not run here: {check.needs} is not built")
        return None
    folder = scratch()
    if check.before:
        check.before(folder)
    program = os.path.join(folder, "example.py")
    with open(program, "w") as file:
        file.write(text + check.checks)
    return run([sys.executable, program], folder, expected or expected_from_comments(text + check.checks), where)


def check_c(check, text, where):
    lines = text.split("\n")
    includes = [line for line in lines if line.startswith("#")]
    body = [line for line in lines if not line.startswith("#")]
    folder = scratch()
    source = os.path.join(folder, "example.c")
    with open(source, "w") as file:
        file.write(check.includes + "\n".join(includes) + "\n#include <stdint.h>\n#include <stdio.h>\n\nint main(void)\n{\n")
        file.write(check.declarations + "\n".join(body) + "\n" + check.checks + "return 0;\n}\n")
    program = os.path.join(folder, "example")
    library = os.path.join(BUILD, "lib")
    compiled = subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-I", os.path.join(SOURCE, "include"), source,
                               "-o", program, "-L", library, f"-Wl,-rpath,{library}", "-lclsel"],
                              capture_output=True, text=True)
    if compiled.returncode != 0:
        return f"{where}: does not compile as written:\n{compiled.stderr}"
    return run([program], folder, None, where)


def check_usage(text, where):
    """The block against the usage lines (up to the first blank line, `usage: ` dropped) of
    `clsel COMMAND --help` for each command it names, in its order."""
    tool = os.path.join(BUILD, "bin", "clsel")
    commands = []
    for line in text.split("\n"):
        words = line.split()
        if len(words) > 1 and words[0] == "clsel" and words[1] not in commands and not words[1].startswith("-"):
            commands.append(words[1])
    printed = ""
    for command in commands:
        usage = subprocess.run([tool, command, "--help"], capture_output=True, text=True).stdout
        printed += "\n".join(line[len("usage: "):] for line in usage.split("\n\n")[0].split("\n")) + "\n"
    printed += "clsel --version | --help | COMMAND --help\n"
    general = subprocess.run([tool, "--help"], capture_output=True, text=True).stdout
    if "clsel --version | --help | COMMAND --help" not in general:
        return f"{where}: `clsel --help` no longer prints `clsel --version | --help | COMMAND --help`"
    if printed.strip("\n") != text.strip("\n"):
        return f"{where}: the tool's usage lines are now\n{printed}where the docs show\n{text}"
    print(f"{where}: the usage lines that clsel prints")
    return None


def normalized(text):
    return re.sub(r"\s+", " ", COMMENT.sub("", text)).strip()


def check_tied(check, text, where):
    holder = normalized(open(os.path.join(SOURCE, check.path)).read())
    wanted = check.fragments if check.fragments is not None else text.split("\n")
    missing = [line for line in wanted if normalized(line) and normalized(line) not in holder]
    if missing:
        return f"{where}: {check.path} does not hold {missing}"
    print(f"{where}: tied to {check.path}")
    return None


def main():
    try:
        import numpy  # noqa: F401  (the Python examples need it)
    except ImportError:
        print("docs_examples: this Python has no numpy (ci/setup.sh's build/venv has): skipped")
        return 77
    pages = ["README.md"] + sorted(os.path.join("docs", name) for name in os.listdir(os.path.join(SOURCE, "docs"))
                                   if name.endswith(".md"))
    problems = []
    seen = set()
    for page in pages:
        found = list(blocks(page))
        for index, (first, text, number) in enumerate(found):
            where = f"{page}:{number}"
            if first is None:
                problems.append(f"{where}: an indented code block: fence it (```) so that this test checks it")
                continue
            key = (page, first)
            seen.add(key)
            if key not in EXAMPLES:
                problems.append(f"{where}: a block that no entry of EXAMPLES runs or ties (first line {first!r})")
                continue
            following = found[index + 1] if index + 1 < len(found) else None
            expected = None
            if following is not None and EXAMPLES.get((page, following[0])) == [Output()]:
                expected = following[1]
            for check in EXAMPLES[key]:
                if isinstance(check, Shell):
                    problems.append(check_shell(check, text, expected, where))
                elif isinstance(check, Python):
                    problems.append(check_python(check, text, expected, where))
                elif isinstance(check, C):
                    problems.append(check_c(check, text, where))
                elif isinstance(check, Usage):
                    problems.append(check_usage(text, where))
                elif isinstance(check, Tied):
                    problems.append(check_tied(check, text, where))
    problems += [f"{page}: EXAMPLES has an entry for a block that is gone (first line {first!r})"
                 for page, first in EXAMPLES if (page, first) not in seen]
    problems = [problem for problem in problems if problem]
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"docs_examples: {len(seen)} blocks, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
