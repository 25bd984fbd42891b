"""GPU code generation of clsel's kernels, checked without a GPU (ctest gpu_codegen).

The kernels that the library really launches for a set of plans (every element width; the main
patterns: same shapes, a uniform cond or input, an input fixed along rows, cond along rows, a
channel broadcast, a bias of rows, three dims, short rows), taken from `clsel kernels --plan` with
the exact source (`clsel kernels`) and build options, each at the rank class the host launches, are
compiled the way GPU drivers do:

  - NVIDIA: OpenCL C to PTX with clang and libclc (nvptx64-nvidia-nvcl), then PTX to H100
    machine code with the CUDA toolkit's ptxas (-arch=sm_90), read with cuobjdump -sass;
  - AMD: OpenCL C to gfx90a (MI200) assembly with clang and libclc (amdgcn-amd-amdhsa);
  - Intel: OpenCL C to Gen12LP (tgllp), Xe-HPG (dg2-g10) and Xe-HPC (pvc) machine code
    with ocloc, Intel's offline compiler (IGC, the compiler of Intel's GPU driver), read
    from IGC's own shader dump (IGC_ShaderDumpEnable), which names each message.

It fails when clang warns about the source (-Wall -Wextra), or when the main path (a work-item
whose CLSEL_ITEMS items are all whole and each in one row, their windows whole and the output's
items on 16 bytes: the kernel built with -DCLSEL_CODEGEN_MAIN_PATH, which leaves out the other
paths, and with the `layout` argument the host passes for the plan as a constant,
-DCLSEL_CODEGEN_LAYOUT) moves an input it reads along rows
(dense or not), or the output, without single 16-byte accesses (LDG.E.128 / STG.E.128 on the H100,
ld.global.v4.u32 in PTX, global_load_dwordx4 on gfx90a, load.ugm.d32x4 / store.ugm.d32x4 on Xe,
"untyped surface read with xyzw" on Gen12LP), or cond's V bytes without one access of V bytes.
It prints, per kernel: the H100's registers, its SASS instructions for the whole kernel and for the
main path, and the main path's SASS instructions per output byte (all of them, both sides of every
branch, over the work-item's CLSEL_ITEMS x 16 bytes: an upper bound of what a work-item executes),
against the budget at a copy's speed (about 8.6 per output byte on an H200, 11 on an H100:
docs/gpu_model.md); per Intel device the SIMD width, the register file, spills and the main path's
instructions per output byte (a hardware thread's instructions over its SIMD lanes' bytes). Items
across row ends (all of short_rows') take the row-segment path instead, which this check does not
count: the Oclgrind model (bench/gpu_model.sh) does. The tables go to OUT_DIR/codegen.md for
docs/performance_analysis.md.

    python gpu_codegen.py PATH/TO/clsel OUT_DIR
    python gpu_codegen.py --from-cache CACHE_DIR OUT_DIR

The second form reads what a GPU driver itself made of the programs, from the entries of
clsel's kernel cache (host/opencl/cl_cache.c; ci/gpu.sh runs it after the tests): NVIDIA's
program binaries are PTX, whose vector accesses it counts per kernel the same way. It
needs no tools, and reports binaries that are not PTX (another vendor's) as such.

Tools: clang-15 and libclc-15 (Debian), ptxas (the CUDA toolkit, on PATH or in
/usr/local/cuda/bin), cuobjdump and nvdisasm (PyPI: nvidia-cuda-cuobjdump,
nvidia-cuda-nvdisasm), ocloc (Debian: intel-opencl-icd). A missing tool makes the check
skip (exit 77) unless CLSEL_REQUIRE_GPU_CODEGEN=1 (ci/test.sh sets it).
"""
import collections
import glob
import os
import re
import shutil
import subprocess
import sys

DTYPES = ("u8", "f16", "f32", "f64")
# The plans whose kernels are compiled: name, cond, then, else shapes (clsel kernels --plan), and
# extra options. Rows of 100 elements are not a multiple of V, so inputs along them are read from
# two windows shifted into place.
PATTERNS = (
    ("same", "65536", "65536", "65536", []),
    ("cond_scalar", "{}", "65536", "65536", []),
    ("masked_fill", "65536", "65536", "{}", []),
    ("row_operand", "64,100", "64,1", "64,100", []),
    ("column_cond", "1,100", "64,100", "64,100", []),
    ("per_channel", "2,16,28,28", "2,16,28,28", "1,16,1,1", []),
    ("bias", "64,100", "100", "64,1", []),
    ("three_dims", "32,32,100", "32,1,100", "1,32,1", []),
    ("short_rows", "512,8,5", "512,8,1", "512,1,5", []),
)
# How a kernel reads each input (cl/select_contract.h): CLSEL_READ_ROWS is 1.
READ_ROWS = 1
LIBCLC_DIRS = ("/usr/lib/clc", "/usr/lib/llvm-15/lib/clc", "/usr/share/clc")
# SASS instructions per output byte a kernel may spend and still run at an H200's copy speed
# (issue rate over copy bandwidth, docs/gpu_model.md).
SASS_BUDGET = 8.6


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
    ocloc = find_tool("ocloc")
    missing = [n for n, p in (("clang-15", clang), ("libclc-15", libclc), ("ptxas", ptxas), ("cuobjdump", cuobjdump),
                              ("nvdisasm", nvdisasm), ("ocloc", ocloc)) if not p]
    if missing:
        skip_or_fail("missing " + ", ".join(missing) + " (ci/setup.sh installs them; ptxas comes with CUDA)")
    return clang, libclc, ptxas, cuobjdump, os.path.dirname(nvdisasm), ocloc


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


INTEL_DEVICES = (("tgllp", "Gen12LP"), ("dg2-g10", "Xe-HPG"), ("pvc", "Xe-HPC"))


def intel_accesses(body):
    """Global accesses by bytes per lane, from IGC's listing: LSC messages (Xe-HPG,
    Xe-HPC) by their data size and vector length, the legacy data-port messages of
    Gen12LP by their names. Transposed (block) loads and oword block reads are the
    kernel's argument payload, not tensor data."""
    counts = collections.Counter()
    for kind, bits, vec, transposed in re.findall(r"\b(load|store)\.ugm\.d(8|16|32|64)(?:u32)?(?:x(\d+))?(t?)\.", body):
        if not transposed:
            counts[("ld" if kind == "load" else "st", int(bits) // 8 * int(vec or 1))] += 1
    for kind, channels in re.findall(r"untyped surface (read|write) with ([xyzw]+)", body):
        counts[("ld" if kind == "read" else "st", 4 * len(channels))] += 1
    for kind, bits in re.findall(r"byte (?:gathering|scattered) (read|write) (8|16|32)b", body):
        counts[("ld" if kind == "read" else "st", int(bits) // 8)] += 1
    for size, kind in re.findall(r"\b(dword|qword) (?:gathering|scattered) (read|write)", body):
        counts[("ld" if kind == "read" else "st", 4 if size == "dword" else 8)] += 1
    return counts


def intel_compile(ocloc, source, options, device, dump):
    """name -> (IGC listing, SIMD width) of every kernel of one program on one device."""
    shutil.rmtree(dump, ignore_errors=True)
    env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir=dump)
    run([ocloc, "compile", "-q", "-file", source, "-device", device, "-options", " ".join(options), "-output",
         os.path.join(dump, "program"), "-output_no_suffix"], env=env)
    kernels = {}
    for path in glob.glob(os.path.join(dump, "*_simd*_entry_*.asm")):
        text = open(path).read()
        name = re.search(r"^//\.kernel (\w+)", text, re.M)
        simd = re.search(r"_simd(\d+)_entry_", path)
        if name and simd:
            kernels[name.group(1)] = (text, int(simd.group(1)))
    return kernels


def intel_facts(text, simd):
    """The register file, spills, and the sends and instructions of a listing."""
    grf = re.search(r"numGRF=(\d+)", text)
    spill = re.search(r"^//.*\bspill[^\n]*", "\n".join(l for l in text.splitlines() if "full_options" not in l),
                      re.M | re.I)
    instructions = re.search(r"^//\.instCount (\d+)", text, re.M)
    sends = len(re.findall(r"^\s*(?:\(\S+\)\s*)?(?:send[sc]?\.|load\.|store\.)", text, re.M))
    return {"simd": simd, "grf": int(grf.group(1)) if grf else 0, "spill": spill.group(0)[2:].strip() if spill else "none",
            "instructions": int(instructions.group(1)) if instructions else 0, "sends": sends}


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
    """The driver's PTX of each cached program: global accesses per kernel, and local-memory ones."""
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
            local = len(re.findall(r"\b(?:ld|st)\.local\b", body))  # private arrays the driver kept in memory
            lines.append(f"{label:36} {kernel:24} loads {describe(counts, 'ld'):28} stores {describe(counts, 'st'):20}"
                         f" local {local}")
    if not seen:
        lines.append(f"no entries in {cache_dir}")
    print("\n".join(lines))
    return 0


def wants(counts, reads, v):
    """What a main path lacks of its 16-byte accesses, as messages: one per input it reads
    along rows (every such input is read from 16-byte windows), cond's V bytes in one
    access, and the output's 16-byte store."""
    wide = [r == READ_ROWS for r in reads]
    lacks = []
    if counts[("ld", 16)] < wide[1] + wide[2] + (wide[0] and v == 16):
        lacks.append(f"{counts[('ld', 16)]} 16-byte loads, wants {wide[1] + wide[2] + (wide[0] and v == 16)}")
    if counts[("st", 16)] < 1:
        lacks.append("no 16-byte store of the output")
    if wide[0] and counts[("ld", v)] < 1:
        lacks.append(f"no {v}-byte load of cond's {v} bytes")
    return lacks


# How --plan names each way of reading a tensor (clsel_cl_kind), and the kernel's read kind for it.
READ_OF_KIND = {"uniform": 0, "fixed along rows": 0, "along rows": 1, "dense": 1, "strided": 2,
                "transposed, in tiles": 3}


def plan_layout(access, name):
    """The `layout` argument (cl/select_contract.h: CLSEL_DENSE_BIT, CLSEL_UNIFORM_BIT, CLSEL_SWAP_BIT) that
    the host passes to kernel `name` for a plan, from how --plan says each tensor is read ("cond dense",
    "then uniform", ...): then and else trade places where the kernel's name has them the other way round."""
    kinds = []
    for tensor in ("cond", "then", "else", "out"):
        found = re.search(rf"; {tensor} ([a-z ,]+?), [0-9]+ % in", access)
        kinds.append(found.group(1) if found else "")
    digits = re.search(r"_(\d)(\d)(\d)_\d\d$", name).groups()
    swap = READ_OF_KIND.get(kinds[1]) != int(digits[1])
    if swap:
        kinds[1], kinds[2] = kinds[2], kinds[1]
    layout = 0x100 if swap else 0
    for op, kind in enumerate(kinds):
        if kind == "dense":
            layout |= 1 << op
        if kind == "uniform":
            layout |= 1 << (4 + op)
    return layout


def plan_kernels(tool, dtype, cond, then, else_, extra):
    """(name, options, layout, % of the items across rows) of each kernel `clsel kernels --plan` says the plan launches."""
    out = run([tool, "kernels", "--plan", dtype, cond, then, else_, *extra]).stdout
    access = out.splitlines()[0]
    across = re.search(r"([0-9.]+) % of the items across rows", access)
    kernels = []
    for line in out.splitlines():
        if line.startswith("kernel "):
            name, options = line[len("kernel "):].split(" ", 1)
            kernels.append((name, options.split(), plan_layout(access, name), float(across.group(1)) if across else 0.0))
    return kernels


def option(options, name):
    return int(next(o.split("=")[1] for o in options if o.startswith(f"-D{name}=")))


def compile_nvidia(clang, libclc, ptxas, cuobjdump, env, source, options, base):
    """(PTX, ptxas -v output, SASS) of one program."""
    ptx, cubin = base + ".ptx", base + ".cubin"
    result = run([clang, "-x", "cl", "-cl-std=CL1.2", "-target", "nvptx64-nvidia-nvcl", "-march=sm_80", "-O3",
                  "-Wall", "-Wextra", "-Wno-linker-warnings", "-Xclang", "-mlink-bitcode-file", "-Xclang",
                  os.path.join(libclc, "nvptx64--nvidiacl.bc"), *options, "-S", "-o", ptx, source])
    warnings = [line for line in result.stderr.splitlines() if "warning:" in line]
    verbose = run([ptxas, "-arch=sm_90", "-v", "-o", cubin, ptx]).stderr
    sass = run([cuobjdump, "-sass", cubin], env=env).stdout
    return open(ptx).read(), verbose, sass, warnings


def main():
    if sys.argv[1] == "--from-cache":
        return from_cache(sys.argv[2], sys.argv[3])
    tool, out_dir = sys.argv[1], sys.argv[2]
    clang, libclc, ptxas, cuobjdump, nvdisasm_dir, ocloc = tools()
    os.makedirs(out_dir, exist_ok=True)
    env = dict(os.environ, PATH=nvdisasm_dir + os.pathsep + os.environ.get("PATH", ""))
    source = os.path.join(out_dir, "select.cl")
    with open(source, "w") as f:
        f.write(run([tool, "kernels"]).stdout)
    # (name, layout) -> (options, [patterns that launch it]): the main path is compiled with the layout the host
    # passes (which tensors are dense or uniform), as a driver would see it if the value were a constant.
    kernels = collections.OrderedDict()
    for dtype in DTYPES:
        for pattern, cond, then, else_, extra in PATTERNS:
            for name, options, layout, across in plan_kernels(tool, dtype, cond, then, else_, extra):
                kernels.setdefault((name, layout), (options, []))[1].append(f"{pattern} ({dtype}, {across:.0f} %)")
    failures, rows, intel_rows, whole = [], [], [], {}
    for (name, layout), (options, patterns) in kernels.items():
        base = os.path.join(out_dir, name)
        width, items = option(options, "CLSEL_WIDTH"), option(options, "CLSEL_ITEMS")
        reads = [option(options, d) for d in ("CLSEL_COND", "CLSEL_THEN", "CLSEL_ELSE")]
        v, item_bytes = 16 // width, 16 * items
        if name not in whole:  # the whole kernel, once per name: its warnings, registers and size
            ptx, verbose, sass, warnings = compile_nvidia(clang, libclc, ptxas, cuobjdump, env, source, options, base)
            failures += [f"{name}: clang: {w}" for w in warnings]
            whole[name] = (verbose, sass)
        verbose, sass = whole[name]
        main = options + ["-DCLSEL_CODEGEN_MAIN_PATH", f"-DCLSEL_CODEGEN_LAYOUT={layout:#x}"]
        base = f"{base}_main_{layout:03x}"
        main_ptx, main_verbose, main_sass, _ = compile_nvidia(clang, libclc, ptxas, cuobjdump, env, source, main, base)
        amd = base + ".s"
        run([clang, "-x", "cl", "-cl-std=CL1.2", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-nogpulib",
             "-O3", "-Wno-linker-warnings", "-Xclang", "-mlink-bitcode-file", "-Xclang",
             os.path.join(libclc, "amdgcn--amdhsa.bc"), *main, "-S", "-o", amd, source])
        registers = dict(re.findall(r"Compiling entry function '(\w+)'.*?Used (\d+) registers", verbose, re.S))
        name = f"{name} (layout {layout:#05x})"
        counts = {"ptx": ptx_accesses(main_ptx), "sass": sass_accesses(main_sass),
                  "amd": amd_accesses(open(amd).read())}
        intel = {}
        for device, _ in INTEL_DEVICES:
            dump = f"{base}_igc_{device}"
            listing = intel_compile(ocloc, source, main, device, dump).get(name.split()[0])
            if not listing:
                failures.append(f"{name}: missing from {device}")
                continue
            intel[device] = listing
            counts[device] = intel_accesses(listing[0])
        for target, found in counts.items():
            failures += [f"{name} on {target}: {lack}" for lack in wants(found, reads, v)]
        main_sass_count = sass_instructions(main_sass)
        rows.append({
            "kernel": name, "patterns": ", ".join(patterns), "registers": int(registers.get(name.split()[0], 0)),
            "sass": sass_instructions(sass), "main": main_sass_count, "per_byte": main_sass_count / item_bytes,
            "sass_ld": describe(counts["sass"], "ld"), "sass_st": describe(counts["sass"], "st"),
            "amd_ld": describe(counts["amd"], "ld"), "amd_st": describe(counts["amd"], "st"),
        })
        for device, arch in INTEL_DEVICES:
            if device not in intel:
                continue
            text, simd = intel[device]
            facts = intel_facts(text, simd)
            intel_rows.append({
                "kernel": name, "device": f"{device} ({arch})", "ld": describe(counts[device], "ld"),
                "st": describe(counts[device], "st"), **facts,
                "per_byte": facts["instructions"] / (simd * item_bytes),
            })
    header = ("| kernel | launched by (% of its items across rows) | H100 registers | SASS (kernel) | SASS (main path) | SASS per output byte, main path "
              "| main path: SASS loads / stores | gfx90a loads / stores |")
    lines = [header, "|---|---|---:|---:|---:|---:|---|---|"]
    for r in rows:
        over = " (over the H200 budget)" if r["per_byte"] > SASS_BUDGET else ""
        lines.append(f"| {r['kernel']} | {r['patterns']} | {r['registers']} | {r['sass']} | {r['main']} | "
                     f"{r['per_byte']:.2f}{over} | {r['sass_ld']} / {r['sass_st']} | {r['amd_ld']} / {r['amd_st']} |")
    intel_header = ("| kernel | device | loads / stores | SIMD | GRF | spills | instructions per output byte, main path |")
    intel_lines = [intel_header, "|---|---|---|---:|---:|---|---:|"]
    for r in intel_rows:
        intel_lines.append(f"| {r['kernel']} | {r['device']} | {r['ld']} / {r['st']} | {r['simd']} | {r['grf']} | "
                           f"{r['spill']} | {r['per_byte']:.2f} |")
    worst = max(rows, key=lambda r: r["per_byte"]) if rows else None
    summary = (f"{len(rows)} kernels; main path SASS per output byte: median "
               f"{sorted(r['per_byte'] for r in rows)[len(rows) // 2]:.2f}, worst {worst['per_byte']:.2f} "
               f"({worst['kernel']}); {sum(r['per_byte'] > SASS_BUDGET for r in rows)} over the H200's budget of "
               f"{SASS_BUDGET}") if rows else "no kernels"
    table, intel_table = "\n".join(lines), "\n".join(intel_lines)
    with open(os.path.join(out_dir, "codegen.md"), "w") as f:
        f.write("The kernels the host launches for the plans of tests/system/gpu_codegen.py (PATTERNS), at the rank "
                "the host launches. Main path: a work-item whose items are all whole and in one row "
                "(-DCLSEL_CODEGEN_MAIN_PATH), all its instructions over its items' bytes; global accesses of the "
                "main path as count x bytes per access (per lane on Intel).\n\n" + summary + "\n\n" + table +
                "\n\n" + intel_table + "\n")
    print(table)
    print()
    print(intel_table)
    print()
    print(summary)
    for failure in failures:
        print("FAIL:", failure)
    print(f"gpu_codegen: {len(rows)} kernels on NVIDIA and AMD, {len(intel_rows)} kernel builds on Intel, "
          f"{len(failures)} failures; listings in {out_dir}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
