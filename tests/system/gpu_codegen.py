"""GPU code generation of clsel's kernels, checked without a GPU (ctest gpu_codegen).

Every program (element widths 1, 2, 4, 8; both forms), taken from `clsel kernels` exactly
as the library builds it, is compiled the way GPU drivers do:

  - NVIDIA: OpenCL C to PTX with clang and libclc (nvptx64-nvidia-nvcl), then PTX to H100
    machine code with the CUDA toolkit's ptxas (-arch=sm_90), read with cuobjdump -sass;
  - AMD: OpenCL C to gfx90a (MI200) assembly with clang and libclc (amdgcn-amd-amdhsa);
  - Intel: OpenCL C to Gen12LP (tgllp), Xe-HPG (dg2-g10) and Xe-HPC (pvc) machine code
    with ocloc, Intel's offline compiler (IGC, the compiler of Intel's GPU driver), read
    from IGC's own shader dump (IGC_ShaderDumpEnable), which names each message.

It fails when a kernel moves the inputs it reads contiguously and its output without
single 16-byte accesses (LDG.E.128 / STG.E.128 on the H100, ld.global.v4.u32 in PTX,
global_load_dwordx4 on gfx90a, load.ugm.d32x4 / store.ugm.d32x4 on Xe, "untyped surface
read with xyzw" on Gen12LP), or cond's V bytes without one access of V bytes: in the
aligned form, where every item takes that path, and in the general form, where an input
whose 16 bytes lie aligned (or dense: across rows too) takes it whatever the others do.
It prints, per width, form and variant, the global accesses by width, the registers
ptxas reports, the SASS instructions an item of a rank-1 run executes (the kernel built
with -DCLSEL_CODEGEN_MAIN_PATH, which leaves out the paths such an item never takes),
and per Intel device the SIMD width, the register file, spills where IGC reports any,
and the sends and instructions per 16-byte item of that main path; and writes the tables
as Markdown (OUT_DIR/codegen.md) for docs/performance_analysis.md.

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

WIDTHS = (1, 2, 4, 8)
# How each input is read (cl/select_contract.h, CLSEL_READ_*): 0 one element along the
# row, 1 along rows, 2 dense and aligned (general form only).
KERNELS = {1: [(c, t, e) for c in (0, 1) for t in (0, 1) for e in (0, 1)],
           0: [(c, t, e) for c in (0, 1, 2) for t in (0, 1, 2) for e in (0, 1, 2)]}
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


def wants(counts, reads, aligned, v):
    """What a kernel lacks of its 16-byte accesses, as messages: one per input it reads as
    16 bytes (every advancing input in the aligned form, the dense ones in the general),
    cond's V bytes in one access, and the output's 16-byte store."""
    wide = [r != 0 if aligned else r == 2 for r in reads]
    lacks = []
    if counts[("ld", 16)] < wide[1] + wide[2] + (wide[0] and v == 16):
        lacks.append(f"{counts[('ld', 16)]} 16-byte loads, wants {wide[1] + wide[2] + (wide[0] and v == 16)}")
    if counts[("st", 16)] < 1:
        lacks.append("no 16-byte store of the output")
    if wide[0] and counts[("ld", v)] < 1:
        lacks.append(f"no {v}-byte load of cond's {v} bytes")
    return lacks


def main():
    if sys.argv[1] == "--from-cache":
        return from_cache(sys.argv[2], sys.argv[3])
    tool, out_dir = sys.argv[1], sys.argv[2]
    clang, libclc, ptxas, cuobjdump, nvdisasm_dir, ocloc = tools()
    os.makedirs(out_dir, exist_ok=True)
    env = dict(os.environ, PATH=nvdisasm_dir + os.pathsep + os.environ.get("PATH", ""))
    failures, rows, intel_rows = [], [], []
    for width in WIDTHS:
        v = 16 // width
        for aligned in (1, 0):
            base = os.path.join(out_dir, f"select_w{width}_a{aligned}")
            source = run([tool, "kernels", "--width", str(width), "--aligned", str(aligned)]).stdout
            options = run([tool, "kernels", "--width", str(width), "--aligned", str(aligned), "--options"]).stdout.split()
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
            intel = {}
            for device, _ in INTEL_DEVICES:
                dump = os.path.join(out_dir, f"igc_{device}_w{width}_a{aligned}")
                intel[device] = intel_compile(ocloc, base + ".cl", options, device, dump)
                intel[device + "_main"] = intel_compile(ocloc, base + ".cl", options + ["-DCLSEL_CODEGEN_MAIN_PATH"],
                                                        device, dump + "_main")
            for c, t, e in KERNELS[aligned]:
                name = f"clsel_w{width}_{c}{t}{e}"
                missing = [target for target, fns in (("PTX", ptx_fns), ("SASS", sass_fns), ("gfx90a", amd_fns),
                                                      *((d, intel[d]) for d, _ in INTEL_DEVICES)) if name not in fns]
                if missing:
                    failures.append(f"{name} (aligned {aligned}): missing from {', '.join(missing)}")
                    continue
                counts = {"ptx": ptx_accesses(ptx_fns[name]), "sass": sass_accesses(sass_fns[name]),
                          "amd": amd_accesses(amd_fns[name])}
                for device, _ in INTEL_DEVICES:
                    counts[device] = intel_accesses(intel[device][name][0])
                for target, found in counts.items():
                    failures += [f"{name} (aligned {aligned}) on {target}: {lack}"
                                 for lack in wants(found, (c, t, e), aligned, v)]
                rows.append({
                    "width": width, "aligned": aligned, "variant": f"{c}{t}{e}",
                    "sass_ld": describe(counts["sass"], "ld"), "sass_st": describe(counts["sass"], "st"),
                    "amd_ld": describe(counts["amd"], "ld"), "amd_st": describe(counts["amd"], "st"),
                    "registers": int(registers.get(name, 0)), "sass": sass_instructions(sass_fns[name]),
                    "main": sass_instructions(main_fns.get(name, "")),
                })
                for device, arch in INTEL_DEVICES:
                    text, simd = intel[device][name]
                    facts = intel_facts(text, simd)
                    main_text, main_simd = intel[device + "_main"].get(name, ("", simd))
                    main = intel_facts(main_text, main_simd)
                    intel_rows.append({
                        "width": width, "aligned": aligned, "variant": f"{c}{t}{e}", "device": f"{device} ({arch})",
                        "ld": describe(counts[device], "ld"), "st": describe(counts[device], "st"), **facts,
                        "sends_item": main["sends"] / main["simd"], "instructions_item": main["instructions"] / main["simd"],
                    })
    header = ("| width | form | kernel (c t e) | H100 SASS loads | H100 SASS stores | gfx90a loads | gfx90a stores "
              "| registers | SASS instructions (kernel) | SASS per item, rank-1 run |")
    lines = [header, "|---:|---|---|---|---|---|---|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['width']} | {'aligned' if r['aligned'] else 'any'} | {r['variant']} | {r['sass_ld']} | "
                     f"{r['sass_st']} | {r['amd_ld']} | {r['amd_st']} | {r['registers']} | {r['sass']} | {r['main']} |")
    intel_header = ("| width | form | kernel (c t e) | device | loads | stores | SIMD | GRF | spills "
                    "| sends per item, rank-1 run | instructions per item, rank-1 run |")
    intel_lines = [intel_header, "|---:|---|---|---|---|---|---:|---:|---|---:|---:|"]
    for r in intel_rows:
        intel_lines.append(f"| {r['width']} | {'aligned' if r['aligned'] else 'any'} | {r['variant']} | {r['device']} "
                           f"| {r['ld']} | {r['st']} | {r['simd']} | {r['grf']} | {r['spill']} | "
                           f"{r['sends_item']:.2f} | {r['instructions_item']:.1f} |")
    table, intel_table = "\n".join(lines), "\n".join(intel_lines)
    with open(os.path.join(out_dir, "codegen.md"), "w") as f:
        f.write("Global accesses as count x bytes per access (per lane on Intel), per kernel (all paths); per item:\n"
                "what an item of a rank-1 run executes (on Intel, a thread's sends and instructions over its SIMD\n"
                "lanes, one item each).\n\n" + table + "\n\n" + intel_table + "\n")
    print(table)
    print()
    print(intel_table)
    for failure in failures:
        print("FAIL:", failure)
    print(f"gpu_codegen: {len(rows)} kernels on NVIDIA and AMD, {len(intel_rows)} kernel builds on Intel, "
          f"{len(failures)} failures; listings in {out_dir}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
