"""GPU code generation of the vectors family, checked without a GPU (ctest gpu_codegen).

Every program of the vectors family (element widths 1, 2, 4, 8; both forms), taken from
`clsel kernels` exactly as the library builds it, is compiled the way GPU drivers do:

  - NVIDIA: OpenCL C to PTX with clang and libclc (nvptx64-nvidia-nvcl), then PTX to H100
    machine code with the CUDA toolkit's ptxas (-arch=sm_90), read with cuobjdump -sass;
  - AMD: OpenCL C to gfx90a (MI200) assembly with clang and libclc (amdgcn-amd-amdhsa).

It fails when a kernel of the aligned form does not move the inputs it reads
contiguously and its output with single 16-byte accesses (LDG.E.128 / STG.E.128 on the
H100, ld.global.v4.u32 / st.global.v4.u32 in PTX, global_load_dwordx4 /
global_store_dwordx4 on gfx90a), or cond's V bytes with one access of V bytes. It prints,
per width, form and variant, the global accesses by width, the registers ptxas reports,
and the SASS instructions an item of a rank-1 run executes (the kernel built with
-DCLSEL_CODEGEN_MAIN_PATH, which leaves out the paths such an item never takes), and
writes that table as Markdown (OUT_DIR/codegen.md) for docs/performance.md.

    python gpu_codegen.py PATH/TO/clsel OUT_DIR
    python gpu_codegen.py --from-cache CACHE_DIR OUT_DIR

The second form reads what a GPU driver itself made of the programs, from the entries of
clsel's kernel cache (host/opencl/cl_cache.c; ci/gpu.sh runs it after the tests): NVIDIA's
program binaries are PTX, whose vector accesses it counts per kernel the same way. It
needs no tools, and reports binaries that are not PTX (another vendor's) as such.

Tools: clang-15 and libclc-15 (Debian), ptxas (the CUDA toolkit, on PATH or in
/usr/local/cuda/bin), cuobjdump and nvdisasm (PyPI: nvidia-cuda-cuobjdump,
nvidia-cuda-nvdisasm). A missing tool makes the check skip (exit 77) unless
CLSEL_REQUIRE_GPU_CODEGEN=1 (ci/test.sh sets it).
"""
import collections
import glob
import os
import re
import shutil
import subprocess
import sys

WIDTHS = (1, 2, 4, 8)
VARIANTS = [(c, t, e) for c in (0, 1) for t in (0, 1) for e in (0, 1)]
LIBCLC_DIRS = ("/usr/lib/clc", "/usr/lib/llvm-15/lib/clc", "/usr/share/clc")


def skip_or_fail(message):
    if os.environ.get("CLSEL_REQUIRE_GPU_CODEGEN") == "1":
        print(f"gpu_codegen: {message} (CLSEL_REQUIRE_GPU_CODEGEN=1)")
        sys.exit(1)
    print(f"skipped: {message}")
    sys.exit(77)


def find_tool(name, extra_dirs=()):
    found = shutil.which(name)
    if found:
        return found
    for folder in extra_dirs:
        for path in glob.glob(os.path.join(folder, name)):
            if os.access(path, os.X_OK):
                return path
    return None


def nvidia_bin_dirs():
    """Where pip puts cuobjdump and nvdisasm (nvidia/cu*/bin in site-packages)."""
    dirs = ["/usr/local/cuda/bin"]
    for base in sys.path:
        dirs += glob.glob(os.path.join(base, "nvidia", "*", "bin"))
    return dirs


def tools():
    clang = find_tool("clang-15")
    libclc = next((d for d in LIBCLC_DIRS if os.path.exists(os.path.join(d, "nvptx64--nvidiacl.bc"))), None)
    ptxas = find_tool("ptxas", nvidia_bin_dirs())
    cuobjdump = find_tool("cuobjdump", nvidia_bin_dirs())
    nvdisasm = find_tool("nvdisasm", nvidia_bin_dirs())
    missing = [n for n, p in (("clang-15", clang), ("libclc-15", libclc), ("ptxas", ptxas), ("cuobjdump", cuobjdump),
                              ("nvdisasm", nvdisasm)) if not p]
    if missing:
        skip_or_fail("missing " + ", ".join(missing) + " (ci/setup.sh installs them; ptxas comes with CUDA)")
    return clang, libclc, ptxas, cuobjdump, os.path.dirname(nvdisasm)


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        print("gpu_codegen: failed:", " ".join(command), "\n", result.stdout[-3000:], result.stderr[-3000:])
        sys.exit(1)
    return result


def split_functions(text, start_pattern, end_pattern=None):
    """name -> body, for listings where each function starts with a line matching
    start_pattern (group 1 the name)."""
    functions, name, lines = {}, None, []
    for line in text.splitlines():
        match = re.match(start_pattern, line)
        if match:
            if name:
                functions[name] = "\n".join(lines)
            name, lines = match.group(1), []
        elif name:
            if end_pattern and re.match(end_pattern, line):
                functions[name] = "\n".join(lines)
                name, lines = None, []
            else:
                lines.append(line)
    if name:
        functions[name] = "\n".join(lines)
    return functions


# Global memory accesses by bytes moved, per listing.
def ptx_accesses(body):
    counts = collections.Counter()
    for kind, vec, typ in re.findall(r"\b(ld|st)\.global(?:\.nc)?(?:\.v(\d))?\.[bsuf](\d+)", body):
        counts[(kind, int(vec or 1) * int(typ) // 8)] += 1
    return counts


SASS_WIDTH = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "": 4, "64": 8, "128": 16}


def sass_accesses(body):
    counts = collections.Counter()
    for kind, suffix in re.findall(r"\b(LDG|STG)\.E(?:\.(?:EF|EL|LU|NA|STRONG\.\w+|CONSTANT))*(?:\.(U8|S8|U16|S16|64|128))?",
                                   body):
        counts[(kind.lower().replace("ldg", "ld").replace("stg", "st"), SASS_WIDTH[suffix])] += 1
    return counts


def sass_instructions(body):
    """Instructions, without the padding after the code (NOPs and the branch to itself
    that ends every listing)."""
    count = 0
    for address, text in re.findall(r"^\s+/\*([0-9a-f]{4})\*/\s+([^;]*);", body, re.M):
        if text.strip() != "NOP" and text.strip() != f"BRA 0x{int(address, 16):x}":
            count += 1
    return count


AMD_WIDTH = {"ubyte": 1, "sbyte": 1, "byte": 1, "ushort": 2, "sshort": 2, "short": 2, "dword": 4, "dwordx2": 8,
             "dwordx3": 12, "dwordx4": 16}


def amd_accesses(body):
    counts = collections.Counter()
    for kind, suffix in re.findall(r"\bglobal_(load|store)_(ubyte|sbyte|byte|ushort|sshort|short|dwordx[234]|dword)\b",
                                   body):
        counts[("ld" if kind == "load" else "st", AMD_WIDTH[suffix])] += 1
    return counts


def describe(counts, kind):
    return " ".join(f"{n}x{b}B" for (k, b), n in sorted(counts.items(), key=lambda x: -x[0][1]) if k == kind) or "-"


def cache_entries(cache_dir):
    """(key text, binary) of each valid-looking entry (the layout cl_cache.c writes:
    magic, key length, key, binary size, checksum, binary)."""
    import struct

    for path in sorted(glob.glob(os.path.join(cache_dir, "*"))):
        with open(path, "rb") as f:
            data = f.read()
        if data[:8] != b"CLSELKC1" or len(data) < 16:
            continue
        (key_len,) = struct.unpack_from("<Q", data, 8)
        key = data[16:16 + key_len].decode("utf-8", "replace")
        (size,) = struct.unpack_from("<Q", data, 16 + key_len)
        start = 16 + key_len + 16
        yield key, data[start:start + size]


def from_cache(cache_dir, out_dir):
    """The driver's PTX of each cached program: accesses per kernel."""
    os.makedirs(out_dir, exist_ok=True)
    lines, seen = [], 0
    for key, binary in cache_entries(cache_dir):
        seen += 1
        options = re.search(r"^options (.*)$", key, re.M)
        device = re.search(r"^device (.*)$", key, re.M)
        label = options.group(1) if options else "?"
        text = binary.decode("utf-8", "replace")
        if ".entry" not in text or ".version" not in text:
            lines.append(f"{label} on {device.group(1) if device else '?'}: {len(binary)} bytes, not PTX")
            continue
        name = re.sub(r"[^A-Za-z0-9]+", "_", label).strip("_")
        with open(os.path.join(out_dir, name + ".ptx"), "w") as f:
            f.write(text)
        for kernel, body in sorted(split_functions(text, r"^(?:\.visible\s+)?\.entry (\w+)\(").items()):
            counts = ptx_accesses(body)
            lines.append(f"{label:36} {kernel:24} loads {describe(counts, 'ld'):28} stores {describe(counts, 'st')}")
    if not seen:
        lines.append(f"no entries in {cache_dir}")
    print("\n".join(lines))
    return 0


def main():
    if sys.argv[1] == "--from-cache":
        return from_cache(sys.argv[2], sys.argv[3])
    tool, out_dir = sys.argv[1], sys.argv[2]
    clang, libclc, ptxas, cuobjdump, nvdisasm_dir = tools()
    os.makedirs(out_dir, exist_ok=True)
    env = dict(os.environ, PATH=nvdisasm_dir + os.pathsep + os.environ.get("PATH", ""))
    failures, rows = [], []
    for width in WIDTHS:
        v = 16 // width
        for aligned in (1, 0):
            base = os.path.join(out_dir, f"vectors_w{width}_a{aligned}")
            source = run([tool, "kernels", "--family", "vectors", "--width", str(width), "--aligned", str(aligned)]).stdout
            options = run([tool, "kernels", "--family", "vectors", "--width", str(width), "--aligned", str(aligned),
                           "--options"]).stdout.split()
            with open(base + ".cl", "w") as f:
                f.write(source)
            listings = {}
            for probe, suffix in ((False, ""), (True, "_main")):
                extra = ["-DCLSEL_CODEGEN_MAIN_PATH"] if probe else []
                ptx = base + suffix + ".ptx"
                run([clang, "-x", "cl", "-cl-std=CL1.2", "-target", "nvptx64-nvidia-nvcl", "-march=sm_80", "-O3",
                     "-Wno-linker-warnings", "-Xclang", "-mlink-bitcode-file", "-Xclang",
                     os.path.join(libclc, "nvptx64--nvidiacl.bc"), *options, *extra, "-S", "-o", ptx, base + ".cl"])
                cubin = base + suffix + ".cubin"
                verbose = run([ptxas, "-arch=sm_90", "-v", "-o", cubin, ptx]).stderr
                sass = run([cuobjdump, "-sass", cubin], env=env).stdout
                listings[suffix] = (open(ptx).read(), verbose, sass)
            amd = base + ".s"
            run([clang, "-x", "cl", "-cl-std=CL1.2", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-nogpulib",
                 "-O3", "-Wno-linker-warnings", "-Xclang", "-mlink-bitcode-file", "-Xclang",
                 os.path.join(libclc, "amdgcn--amdhsa.bc"), *options, "-S", "-o", amd, base + ".cl"])
            ptx_text, verbose, sass_text = listings[""]
            ptx_fns = split_functions(ptx_text, r"^(?:\.visible\s+)?\.entry (\w+)\(")
            sass_fns = split_functions(sass_text, r"^\s+Function : (\w+)")
            main_fns = split_functions(listings["_main"][2], r"^\s+Function : (\w+)")
            amd_fns = split_functions(open(amd).read(), r"^(clsel_\w+):\s*(?:;.*)?$", r"^\.Lfunc_end")
            registers = dict(re.findall(r"Compiling entry function '(\w+)'.*?Used (\d+) registers", verbose, re.S))
            for c, t, e in VARIANTS:
                name = f"clsel_vectors_w{width}_{c}{t}{e}"
                if name not in ptx_fns or name not in sass_fns or name not in amd_fns:
                    failures.append(f"{name} (aligned {aligned}): missing from a listing")
                    continue
                counts = {"ptx": ptx_accesses(ptx_fns[name]), "sass": sass_accesses(sass_fns[name]),
                          "amd": amd_accesses(amd_fns[name])}
                if aligned:  # the aligned main path: 16-byte accesses for what advances, V bytes for cond
                    for target, c_ in counts.items():
                        if c_[("ld", 16)] < t + e:
                            failures.append(f"{name}: {target} has {c_[('ld', 16)]} 16-byte loads, wants {t + e}"
                                            " (then and else that advance)")
                        if c_[("st", 16)] < 1:
                            failures.append(f"{name}: {target} stores the output without a 16-byte store")
                        if c and c_[("ld", v)] < (1 + t + e if v == 16 else 1):
                            failures.append(f"{name}: {target} reads cond's {v} bytes without a {v}-byte load")
                rows.append({
                    "width": width, "aligned": aligned, "variant": f"{c}{t}{e}",
                    "ptx_ld": describe(counts["ptx"], "ld"), "ptx_st": describe(counts["ptx"], "st"),
                    "sass_ld": describe(counts["sass"], "ld"), "sass_st": describe(counts["sass"], "st"),
                    "amd_ld": describe(counts["amd"], "ld"), "amd_st": describe(counts["amd"], "st"),
                    "registers": int(registers.get(name, 0)), "sass": sass_instructions(sass_fns[name]),
                    "main": sass_instructions(main_fns.get(name, "")),
                })
    header = ("| width | form | variant (c t e) | H100 SASS loads | H100 SASS stores | gfx90a loads | gfx90a stores "
              "| registers | SASS instructions (kernel) | SASS per item, rank-1 run |")
    lines = [header, "|---:|---|---|---|---|---|---|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['width']} | {'aligned' if r['aligned'] else 'any'} | {r['variant']} | {r['sass_ld']} | "
                     f"{r['sass_st']} | {r['amd_ld']} | {r['amd_st']} | {r['registers']} | {r['sass']} | {r['main']} |")
    table = "\n".join(lines)
    with open(os.path.join(out_dir, "codegen.md"), "w") as f:
        f.write("Global accesses as count x bytes per access, per kernel (all paths);\n"
                "SASS per item: the instructions an item of a rank-1 run executes.\n\n" + table + "\n")
    print(table)
    for failure in failures:
        print("FAIL:", failure)
    print(f"gpu_codegen: {len(rows)} kernels, {len(failures)} failures; listings in {out_dir}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
