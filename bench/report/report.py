#!/usr/bin/env python3
"""The benchmark report: tables, plots, targets.

    report.py probe RESULTS --policy P --tunable T
                                              compare the two memcpy_probe runs
                                              (RESULTS/memcpy_probe_{default,
                                              tuned}.json), decide whether the
                                              benchmarks run with
                                              GLIBC_TUNABLES=T (P: auto,
                                              disabled or default), write
                                              RESULTS/memcpy_probe.json and
                                              RESULTS/glibc_tunables.txt
    report.py collect RESULTS --build BUILD   record the machine, compiler and
                                              flags, package versions, memcpy
                                              probe, executable sizes and
                                              compile times in RESULTS/env.json
    report.py render RESULTS [--no-plots]     write RESULTS/report.md and
                                              RESULTS/plots/*.png, print the
                                              summary and RESULTS/verdict.txt;
                                              exit 3 if a round trip or a
                                              benchmark failed
    report.py publish RESULTS --markdown FILE --images DIR
                                              the same report as FILE, with its
                                              plots copied to DIR
    report.py instructions RESULTS --opt O    turn the callgrind dumps of the
                                              instruction counts (RESULTS/
                                              instructions_<lib>.txt and
                                              RESULTS/callgrind/<lib>.out.<k>)
                                              into RESULTS/instructions.json,
                                              print them and issue 34's
                                              instruction targets

RESULTS is what scripts/bench writes: bench_<lib>.json (Google Benchmark
output; with --processes N also bench_<lib>.<k>.json for rounds 2..N, and
each benchmark is then the median of its processes), check_<lib>.json (round
trips), run.txt, and optionally build_failed.txt / run_failed.txt. Needs
Python 3 and, for plots, matplotlib.
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

OPS = ["serialize", "serialize_fixed", "deserialize", "deserialize_reuse"]
OP_SHORT = {"serialize": "ser", "serialize_fixed": "fixed", "deserialize": "deser", "deserialize_reuse": "reuse"}
WORKLOADS = ["cereal_fwd", "kelpie", "meta", "survey", "account"]
WORKLOAD_TITLES = {
    "cereal_fwd": "cereal_fwd (Breiter & Nowak)",
    "kelpie": "kelpie (Ulmer, Kelpie RPC messages)",
    "meta": "meta (meta-serialization blog)",
    "survey": "survey (MusicScience37 survey)",
    "account": "account (chronoxor/CppSerialization)",
}
# resize_memcpy: the floor under fresh reads of blocks (issue 34; bench/adapters/resize_memcpy.cpp).
FLOOR = "resize_memcpy"
BASELINES = ["memcpy", FLOOR, "handwritten", "handwritten_varint", "handwritten_tree"]
REFERENCE = "bifrons"
# bifrons with the record models declared records (bench/adapters/bifrons_record.cpp): listed
# right after bifrons.
RECORD = "bifrons_record"
# How a library is named in tables and plots, where it differs from its adapter's name.
DISPLAY = {RECORD: "bifrons (records)"}
# The memcpy probe: glibc's `rep movsb` counts as pathological when memcpy is more than this many
# times slower with it than without it, at any size.
REP_MOVSB_LIMIT = 1.5


def display(library):
    return DISPLAY.get(library, library)


def possessive(library):
    """"bifrons' time", "memcpy's time"."""
    name = display(library)
    return name + ("'" if name.endswith("s") else "'s")

# Libraries the suite would like to compare but cannot install here.
NOT_INSTALLABLE = [
    ("zpp::bits", "not packaged in Debian 12; the project does not vendor code from outside Debian, PyPI or Maven"),
    ("FastBinaryEncoding", "not packaged in Debian 12; the project does not vendor code from outside Debian, PyPI or Maven"),
    ("yyjson", "not packaged in Debian 12; the project does not vendor code from outside Debian, PyPI or Maven"),
]

# Debian packages behind each library (by name prefix), for the versions table.
PACKAGES_BY_LIBRARY = [
    ("cereal", ["libcereal-dev"]),
    ("boost", ["libboost-serialization-dev"]),
    ("msgpack", ["libmsgpack-cxx-dev"]),
    ("xdr", ["libtirpc-dev"]),
    ("protobuf", ["libprotobuf-dev", "protobuf-compiler"]),
    ("flatbuffers", ["libflatbuffers-dev", "flatbuffers-compiler"]),
    ("capnp", ["libcapnp-dev", "capnproto"]),
    ("sbe", ["maven", "default-jdk-headless"]),
    ("nlohmann", ["nlohmann-json3-dev"]),
    ("rapidjson", ["rapidjson-dev"]),
    ("simdjson", ["libsimdjson-dev"]),
]
TOOL_PACKAGES = ["g++", "cmake", "ninja-build", "libbenchmark-dev", "python3-matplotlib"]

# Families drawn as bar charts (one object each).
SINGLE_OBJECT_FAMILIES = {
    ("cereal_fwd", "integer_class_uniform"),
    ("cereal_fwd", "integer_class_normal"),
    ("meta", "tuple"),
    ("survey", "mixed_struct"),
    ("account", "account"),
}


# ---------------------------------------------------------------------------
# collect
# ---------------------------------------------------------------------------
def run(cmd, **kw):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False, **kw).stdout
    except OSError:
        return ""


def read_lines(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [line.rstrip("\n") for line in f if line.strip()]
    except OSError:
        return []


def cmake_cache(build):
    cache = {}
    for line in read_lines(os.path.join(build, "CMakeCache.txt")):
        m = re.match(r"^([A-Za-z0-9_.\-]+):[A-Z]+=(.*)$", line)
        if m:
            cache[m.group(1)] = m.group(2)
    return cache


def compile_flags(build, libraries):
    """The compile flags of each bench_<lib> target's first adapter source."""
    try:
        with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
            commands = json.load(f)
    except (OSError, ValueError):
        return {}
    flags = {}
    for entry in commands:
        output = entry.get("output", "")
        m = re.search(r"CMakeFiles/(bench|minimal)_([A-Za-z0-9_]+)\.dir/", output + " " + entry.get("command", ""))
        if not m or m.group(1) != "bench":
            continue
        library = m.group(2)
        if library not in libraries:  # the harness, generated-code libraries
            continue
        tokens = entry.get("command", "").split()[1:]
        kept, skip = [], False
        for t in tokens:
            if skip:
                skip = False
                continue
            if t in ("-o", "-c", "-MT", "-MF", "-isystem", "-I", "-include", "-x"):
                skip = True
                continue
            if t.startswith(("-I", "-isystem", "-MD", "-MF", "-MT")) or not t.startswith("-"):
                continue
            kept.append(t)
        # Prefer the adapter's own file over generated sources.
        own = entry.get("file", "").endswith(f"adapters/{library}.cpp")
        if library not in flags or own:
            flags[library] = kept
    return flags


def lscpu():
    info = {}
    for line in run(["lscpu"]).splitlines():
        if ":" in line:
            key, value = line.split(":", 1)
            info[key.strip()] = value.strip()
    return info


def package_versions(names):
    versions = {}
    for name in names:
        out = run(["dpkg-query", "-W", "-f=${Version}", name]).strip()
        versions[name] = out or None
    return versions


def system_library(path):
    base = os.path.basename(path)
    return base.startswith(("libc.so", "libm.so", "libstdc++.so", "libgcc_s.so", "ld-linux", "linux-vdso",
                            "libpthread.so", "libdl.so", "librt.so"))


def executable_sizes(build, libraries):
    sizes = {}
    with tempfile.TemporaryDirectory() as tmp:
        for library in libraries:
            exe = os.path.join(build, f"minimal_{library}")
            if not os.path.isfile(exe):
                continue
            stripped = os.path.join(tmp, library)
            subprocess.run(["strip", "-o", stripped, exe], check=False)
            shared = []
            for line in run(["ldd", exe]).splitlines():
                m = re.match(r"\s*(\S+)\s+=>\s+(\S+)", line)
                if m and os.path.exists(m.group(2)) and not system_library(m.group(2)):
                    shared.append({"name": m.group(1), "bytes": os.path.getsize(os.path.realpath(m.group(2)))})
            sizes[library] = {
                "bytes": os.path.getsize(exe),
                "stripped": os.path.getsize(stripped) if os.path.exists(stripped) else None,
                "shared_libraries": shared,
            }
    return sizes


def compiler_info(build, cache):
    """bench_compiler.txt (written by bench/CMakeLists.txt) with a one-line summary, e.g.
    'g++ 12.2.0 -O3 -DNDEBUG'."""
    info = {}
    for line in read_lines(os.path.join(build, "bench_compiler.txt")):
        key, _, value = line.partition("=")
        info[key] = value.strip()
    path = info.get("path") or cache.get("CMAKE_CXX_COMPILER", "c++")
    name = {"GNU": "g++", "Clang": "clang++", "AppleClang": "clang++"}.get(info.get("id", ""),
                                                                         os.path.basename(path))
    flags = " ".join(f for f in (info.get("flags", ""), info.get("flags_build_type", "")) if f)
    if not info:  # a build directory configured before bench_compiler.txt existed
        flags = " ".join(f for f in (cache.get("CMAKE_CXX_FLAGS", ""), cache.get(
            "CMAKE_CXX_FLAGS_" + cache.get("CMAKE_BUILD_TYPE", "").upper(), "")) if f)
    m = re.search(r"(?:^|\s)-O(\w*)", flags)
    return {
        "summary": " ".join(x for x in (name, info.get("version", ""), flags) if x),
        "name": name,
        "id": info.get("id", ""),
        "id_version": info.get("version", ""),
        "opt": f"O{m.group(1)}" if m else "",
        "flags": flags,
    }


def compile_times(results):
    """compile_times.txt (scripts/bench: 'lib=wall_ms,...;cpu_ms,...') as
    {lib: {'seconds': best wall, 'runs_seconds': [...], 'cpu_seconds': [...]}}."""
    out = {}
    for line in read_lines(os.path.join(results, "compile_times.txt")):
        lib, _, value = line.partition("=")
        walls, _, cpus = value.partition(";")
        try:
            wall = [int(x) / 1000 for x in walls.split(",") if x]
            cpu = [int(x) / 1000 for x in cpus.split(",") if x]
        except ValueError:
            continue
        if wall:
            out[lib] = {"seconds": min(wall), "runs_seconds": wall, "cpu_seconds": cpu}
    return out


def collect(results, build):
    progress("machine, compiler and package versions")
    cache = cmake_cache(build)
    cpu = lscpu()
    compiler = cache.get("CMAKE_CXX_COMPILER", "c++")
    libraries = read_lines(os.path.join(build, "bench_libraries.txt"))
    minimals = read_lines(os.path.join(build, "bench_minimals.txt"))
    run_libraries = run_info(results).get("libraries")
    if run_libraries:  # only the minimal programs of the libraries this run built
        minimals = [lib for lib in minimals if lib in run_libraries.split(",")]
    missing = []
    for line in read_lines(os.path.join(build, "bench_missing.txt")):
        name, _, reason = line.partition("=")
        missing.append({"library": name, "reason": reason})
    os_name = ""
    for line in read_lines("/etc/os-release"):
        if line.startswith("PRETTY_NAME="):
            os_name = line.split("=", 1)[1].strip('"')
    memory = ""
    for line in read_lines("/proc/meminfo"):
        if line.startswith("MemTotal:"):
            memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    packages = sorted({p for _, ps in PACKAGES_BY_LIBRARY for p in ps} | set(TOOL_PACKAGES))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = {
        "machine": {
            "host": os.uname().nodename,
            "cpu": cpu.get("Model name", "unknown"),
            "cpus": cpu.get("CPU(s)", str(os.cpu_count())),
            "threads_per_core": cpu.get("Thread(s) per core", ""),
            "cores_per_socket": cpu.get("Core(s) per socket", ""),
            "sockets": cpu.get("Socket(s)", ""),
            "hypervisor": cpu.get("Hypervisor vendor", ""),
            "memory": memory,
            "os": os_name,
            "kernel": " ".join(os.uname()[2:3]),
        },
        "compiler": {
            **compiler_info(build, cache),
            "path": compiler,
            "version": run([compiler, "--version"]).splitlines()[0:1],
            "build_type": cache.get("CMAKE_BUILD_TYPE", ""),
            "cxx_flags": cache.get("CMAKE_CXX_FLAGS", ""),
            "cxx_flags_build_type": cache.get("CMAKE_CXX_FLAGS_" + cache.get("CMAKE_BUILD_TYPE", "").upper(), ""),
            "per_library": compile_flags(build, libraries),
        },
        "packages": package_versions(packages),
        "other_versions": {k: v for k, v in cache.items() if re.search(r"SBE.*VERSION", k, re.I)},
        "bifrons": run(["git", "-C", root, "describe", "--always", "--dirty"]).strip(),
        "libraries": libraries,
        "missing": missing,
    }
    minimals = [lib for lib in minimals if os.path.isfile(os.path.join(build, f"minimal_{lib}"))]
    if minimals:
        progress(f"sizes of {len(minimals)} minimal programs (strip, ldd)")
    env["executables"] = executable_sizes(build, minimals)
    # Compile + link wall time of each minimal program (scripts/bench measured it), beside its size.
    times = compile_times(results)
    for lib, t in times.items():
        if lib in env["executables"]:
            env["executables"][lib]["compile"] = t
    runs = max((len(t["runs_seconds"]) for t in times.values()), default=0)
    env["compile_time_method"] = (
        "wall time of `ninja -j 1 minimal_<lib>` after deleting its objects, static libraries and "
        "executable (code generators not re-run), one program at a time, with the build's flags; " +
        (f"the fastest of {runs} runs" if runs > 1 else "one run")) if times else ""
    try:
        with open(os.path.join(results, "memcpy_probe.json"), encoding="utf-8") as f:
            env["memcpy_probe"] = json.load(f)
    except (OSError, ValueError):
        env["memcpy_probe"] = None
    info = run_info(results)
    env["run_environment"] = info.get("run_env", "")
    with open(os.path.join(results, "env.json"), "w", encoding="utf-8") as f:
        json.dump(env, f, indent=1)


# ---------------------------------------------------------------------------
# probe: the rep movsb trap
# ---------------------------------------------------------------------------
def loader_threshold(tunables):
    """The x86_rep_movsb_threshold glibc's dynamic loader reports under these GLIBC_TUNABLES (or
    None): shows that the tunable took effect."""
    import glob

    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    if tunables:
        env["GLIBC_TUNABLES"] = tunables
    for loader in sorted(glob.glob("/lib64/ld-linux-*.so*") + glob.glob("/lib/ld-linux-*.so*")):
        out = run([loader, "--list-tunables"], env=env)
        m = re.search(r"x86_rep_movsb_threshold:\s*(\S+)", out)
        if m:
            return m.group(1)
    return None


def probe(results, policy, tunable):
    """Compares memcpy_probe's two runs and decides whether the benchmarks run with the tunable."""
    def load(name):
        try:
            with open(os.path.join(results, name), encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    default, tuned = load("memcpy_probe_default.json"), load("memcpy_probe_tuned.json")
    rows = []
    if default and tuned:
        tuned_ns = {(r["bytes"], r["dst_offset"]): r["ns"] for r in tuned.get("results", [])}
        for r in default.get("results", []):
            t = tuned_ns.get((r["bytes"], r["dst_offset"]))
            if t:
                rows.append({"bytes": r["bytes"], "dst_offset": r["dst_offset"], "default_ns": r["ns"],
                             "tuned_ns": t, "ratio": r["ns"] / t})
    worst = max(rows, key=lambda r: r["ratio"]) if rows else None
    pathological = bool(worst and worst["ratio"] > REP_MOVSB_LIMIT)
    if policy == "disabled":
        use, why = True, "--rep-movsb disabled: the tunable is set whatever the probe measured"
    elif policy == "default":
        use, why = False, "--rep-movsb default: glibc's memcpy as is, whatever the probe measured"
    elif not rows:
        use, why = False, "the probe did not run, so glibc's memcpy runs as is"
    elif pathological:
        use, why = True, (f"rep movsb is pathological here: memcpy of {fmt_block(worst['bytes'])} "
                          f"(destination offset {worst['dst_offset']}) takes {worst['ratio']:.1f}× as long with "
                          f"it as without (limit {REP_MOVSB_LIMIT}×)")
    else:
        use, why = False, (f"rep movsb is not pathological here: at most {worst['ratio']:.2f}× as slow as "
                           f"without it (limit {REP_MOVSB_LIMIT}×)")
    data = {
        "tunable": tunable,
        "limit": REP_MOVSB_LIMIT,
        "policy": policy,
        "rows": rows,
        "worst_ratio": worst["ratio"] if worst else None,
        "worst_bytes": worst["bytes"] if worst else None,
        "worst_dst_offset": worst["dst_offset"] if worst else None,
        "pathological": pathological if rows else None,
        "tunable_used": use,
        "glibc_tunables": tunable if use else "",
        "reason": why,
        "loader_threshold_default": loader_threshold(""),
        "loader_threshold_tuned": loader_threshold(tunable),
    }
    with open(os.path.join(results, "memcpy_probe.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
    with open(os.path.join(results, "glibc_tunables.txt"), "w", encoding="utf-8") as f:
        f.write(data["glibc_tunables"])
    if rows:
        print(f"  {'bytes':>9} {'dst offset':>10} {'as is ns':>10} {'tunable ns':>11} {'ratio':>7}")
        for r in rows:
            print(f"  {r['bytes']:>9,} {r['dst_offset']:>10} {r['default_ns']:>10,.1f} {r['tuned_ns']:>11,.1f} "
                  f"{r['ratio']:>6.2f}×")
    print(f"  {why}")
    if use:
        print(f"  ==> every benchmark executable runs with GLIBC_TUNABLES={tunable}")
    else:
        print("  ==> the benchmark executables run with glibc's memcpy as is (no GLIBC_TUNABLES)")
    return 0


# ---------------------------------------------------------------------------
# Loading results
# ---------------------------------------------------------------------------
CASE_RE = re.compile(r"^(.*)_(\d+)$")


def split_case(case):
    """'cereal_fwd/vector_int32_8' -> ('cereal_fwd', 'vector_int32', 8); single objects have n None."""
    workload, name = case.split("/", 1)
    m = CASE_RE.match(name)
    if m:
        return workload, m.group(1), int(m.group(2))
    return workload, name, None


def to_ns(value, unit):
    return value * {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}.get(unit, 1.0)


def run_info(directory):
    info = {}
    for line in read_lines(os.path.join(directory, "run.txt")):
        key, _, value = line.partition("=")
        info[key] = value
    return info


def median_process(records):
    """One benchmark's record over the processes that ran it (scripts/bench --processes): an error
    in any of them, else the process with the median CPU time (the lower of the two middle ones for
    an even count), so that every number in the report comes from one real run."""
    for r in records:
        if r["error"]:
            return r
    ranked = sorted(records, key=lambda r: r["cpu"])
    return ranked[(len(ranked) - 1) // 2]


class Results:
    def __init__(self, directory):
        self.dir = directory
        self.run = run_info(directory)
        try:
            with open(os.path.join(directory, "env.json"), encoding="utf-8") as f:
                self.env = json.load(f)
        except (OSError, ValueError):
            self.env = {}
        self.checks = {}  # library -> {case: record}
        self.case_order = []  # every case, in the harness' order
        self.bench = {}  # (case, library, op) -> record
        self.contexts = {}
        self.load_errors = []
        runs = {}  # (case, library, op) -> [record of each process]
        for entry in sorted(os.listdir(directory)):
            path = os.path.join(directory, entry)
            m = re.match(r"^check_(.+)\.json$", entry)
            if m:
                self.load_checks(m.group(1), path)
            # bench_<lib>.json, and bench_<lib>.<k>.json for round k of --processes.
            m = re.match(r"^bench_(.+?)(?:\.\d+)?\.json$", entry)
            if m:
                self.load_bench(m.group(1), path, runs)
        for key, records in runs.items():
            self.bench[key] = median_process(records)
        self.failed_runs = read_lines(os.path.join(directory, "run_failed.txt"))
        self.failed_builds = [line.partition("=") for line in read_lines(os.path.join(directory, "build_failed.txt"))]
        libraries = set(self.checks) | {lib for _, lib, _ in self.bench}
        self.libraries = order_libraries(libraries)

    def load_checks(self, library, path):
        try:
            with open(path, encoding="utf-8") as f:
                records = json.load(f)
        except (OSError, ValueError) as e:
            self.load_errors.append(f"{os.path.basename(path)}: {e}")
            return
        self.checks[library] = {}
        for r in records:
            self.checks[library][r["case"]] = r
            if r["case"] not in self.case_order:
                self.case_order.append(r["case"])

    def load_bench(self, library, path, runs):
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            if os.path.getsize(path) > 0:
                self.load_errors.append(f"{os.path.basename(path)}: {e}")
            return
        self.contexts.setdefault(library, data.get("context", {}))
        for b in data.get("benchmarks", []):
            # One run per benchmark, or with --repetitions the median of them.
            run_type = b.get("run_type", "iteration")
            if run_type == "aggregate" and b.get("aggregate_name") != "median":
                continue
            if run_type not in ("iteration", "aggregate"):
                continue
            parts = b.get("run_name", b["name"]).split("/")
            if len(parts) != 4:
                continue
            case = parts[0] + "/" + parts[1]
            record = {
                "error": b.get("error_message") if b.get("error_occurred") else None,
                "cpu": to_ns(b.get("cpu_time", 0.0), b.get("time_unit", "ns")),
                "real": to_ns(b.get("real_time", 0.0), b.get("time_unit", "ns")),
                "iterations": b.get("iterations", 0),
                "allocs": b.get("allocs"),
                "peak_heap": b.get("peak_heap"),
                "bytes": b.get("bytes"),
            }
            runs.setdefault((case, parts[2], parts[3]), []).append(record)
            if case not in self.case_order:
                self.case_order.append(case)

    # Accessors -------------------------------------------------------------
    def time(self, case, library, op):
        r = self.bench.get((case, library, op))
        if r is None or r["error"] or not r["cpu"]:
            return None
        return r["cpu"]

    def size(self, case, library):
        c = self.checks.get(library, {}).get(case)
        if c and c["status"] == "ok":
            return c["bytes"]
        for op in OPS:
            r = self.bench.get((case, library, op))
            if r and not r["error"] and r["bytes"]:
                return int(r["bytes"])
        return None

    def ran(self, case, library):
        return any((case, library, op) in self.bench for op in OPS)

    def status(self, case, library):
        c = self.checks.get(library, {}).get(case)
        return c["status"] if c else None

    def families(self):
        """[(workload, family, [(n, case)...])] in the harness' order."""
        out, index = [], {}
        for case in self.case_order:
            if not any(self.ran(case, lib) for lib in self.libraries):
                continue
            workload, family, n = split_case(case)
            key = (workload, family)
            if key not in index:
                index[key] = len(out)
                out.append((workload, family, []))
            out[index[key]][2].append((n, case))
        for _, _, cases in out:
            cases.sort(key=lambda c: (c[0] is not None, c[0] or 0))
        return out

    def failures(self):
        """Every failed round trip and benchmark error: [(library, case, op or None, message)]."""
        out = []
        for library in self.libraries:
            for case, c in self.checks.get(library, {}).items():
                if c["status"] == "FAIL":
                    out.append((library, case, None, c["message"]))
        failed_checks = {(lib, case) for lib, case, _, _ in out}
        for (case, library, op), r in sorted(self.bench.items()):
            if r["error"] and (library, case) not in failed_checks:
                out.append((library, case, op, r["error"]))
        return out


def order_libraries(libraries):
    rest = sorted(lib for lib in libraries if lib not in (REFERENCE, RECORD) and lib not in BASELINES)
    head = [lib for lib in (REFERENCE, RECORD) if lib in libraries]
    return head + rest + [lib for lib in BASELINES if lib in libraries]


# ---------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------
def fmt_ns(ns):
    if ns is None:
        return "–"
    if ns < 10:
        return f"{ns:.2f}"
    if ns < 100:
        return f"{ns:.1f}"
    return f"{ns:,.0f}"


def fmt_ratio(x):
    if x is None:
        return "–"
    if x >= 100:
        return f"{x:,.0f}×"
    if x >= 10:
        return f"{x:.1f}×"
    return f"{x:.2f}×"


def fmt_bytes(b):
    if b is None:
        return "–"
    b = float(b)
    if b < 10 * 1024:
        return f"{b:,.0f}"
    if b < 10 * 1024 * 1024:
        return f"{b / 1024:,.0f} KiB"
    return f"{b / 1024 / 1024:,.1f} MiB"


def fmt_block(b):
    """A block size of the memcpy probe: '4 KiB', '256 KiB', '100 B'."""
    if b >= 1024 and b % 1024 == 0:
        return f"{b // 1024:,} KiB"
    return f"{b:,} B"


def fmt_count(x):
    if x is None:
        return "–"
    return f"{x:,.0f}"


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def md_escape(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(header, rows, align=None):
    align = align or ["---"] * len(header)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(md_escape(c) for c in row) + " |")
    return "\n".join(lines)


def slug(*parts):
    return "-".join(re.sub(r"[^A-Za-z0-9_]+", "_", p) for p in parts)


# ---------------------------------------------------------------------------
# Analysis
# ---------------------------------------------------------------------------
def ratio(res, case, library, op):
    """library's time / bifrons' time for one op: > 1 means bifrons is faster."""
    t, ref = res.time(case, library, op), res.time(case, REFERENCE, op)
    if t is None or ref is None:
        return None
    return t / ref


def summary_rows(res):
    rows = []
    for library in res.libraries:
        checks = res.checks.get(library, {})
        supported = [c for c in checks.values() if c["status"] != "unsupported"]
        failed = [c for c in checks.values() if c["status"] == "FAIL"]
        cases = [c for c in res.case_order if res.ran(c, library)]
        failed_cases = {c["case"] for c in failed}
        errors = len({c for (c, lib, _), r in res.bench.items()
                      if lib == library and r["error"] and c not in failed_cases})
        ser = geomean([ratio(res, c, library, "serialize") for c in cases])
        des = geomean([ratio(res, c, library, "deserialize") for c in cases])
        sizes = []
        for c in cases:
            s, ref = res.size(c, library), res.size(c, REFERENCE)
            if s and ref:
                sizes.append(s / ref)
        account = "account/account"
        rows.append([
            display(library),
            f"{len(supported)}/{len(checks)}" if checks else "–",
            str(len(failed) + errors) if (failed or errors) else "0",
            "–" if library == REFERENCE else fmt_ratio(ser),
            "–" if library == REFERENCE else fmt_ratio(des),
            "–" if library == REFERENCE else fmt_ratio(geomean(sizes)),
            fmt_ns(res.time(account, library, "serialize")),
            fmt_ns(res.time(account, library, "deserialize")),
            fmt_count(res.size(account, library)) if res.ran(account, library) else "–",
        ])
    header = ["library", "cases supported", "cases failed", "serialize: lib ÷ bifrons", "deserialize: lib ÷ bifrons",
              "bytes: lib ÷ bifrons", "Account serialize ns", "Account deserialize ns", "Account bytes"]
    return header, rows


def targets(res):
    """Every target, [(description, status, detail)]; status is 'met', 'NOT met' or 'not measured'."""
    return [t for _, group in target_groups(res) for t in group]


def target_groups(res):
    """[(title, [(description, status, detail)])]."""
    return [("Against the peers and memcpy", general_targets(res)),
            ("Issue 11: pointer trees", issue11_targets(res)),
            ("Issue 10: record blocks, bulk arrays, the hand-written codec, compile time and size",
             issue10_targets(res)),
            ("Issue 34: distinct inputs, the floors of blocks, instructions", issue34_targets(res))]


def general_targets(res):
    out = []
    account = "account/account"

    def speedup_target(op, threshold, verb):
        other = "cereal_binary"
        t, ref = res.time(account, other, op), res.time(account, REFERENCE, op)
        desc = f"Account: bifrons {verb} ≥ {threshold}× faster than {other}"
        if t is None or ref is None:
            missing = other if t is None else REFERENCE
            return desc, "not measured", f"no {op} result for {missing} in this run"
        x = t / ref
        return desc, "met" if x >= threshold else "NOT met", f"{x:.1f}× ({fmt_ns(t)} ns vs {fmt_ns(ref)} ns)"

    out.append(speedup_target("serialize", 15, "serializes"))
    out.append(speedup_target("deserialize", 12, "deserializes"))

    desc = "Account: bifrons' encoding is no larger than protobuf's"
    s, p = res.size(account, REFERENCE), res.size(account, "protobuf")
    if s is None or p is None or not res.ran(account, "protobuf") or not res.ran(account, REFERENCE):
        out.append((desc, "not measured", "protobuf or bifrons has no Account result in this run"))
    else:
        out.append((desc, "met" if s <= p else "NOT met", f"{s} B vs {p} B"))

    desc = "kelpie: bifrons serializes faster than xdr at every N"
    pairs = []
    for case in res.case_order:
        workload, family, n = split_case(case)
        if workload == "kelpie":
            t, ref = res.time(case, "xdr", "serialize"), res.time(case, REFERENCE, "serialize")
            if t is not None and ref is not None:
                pairs.append((n, t / ref))
    if not pairs:
        out.append((desc, "not measured", "no kelpie results for both xdr and bifrons in this run"))
    else:
        slower = [str(n) for n, x in pairs if x <= 1.0]
        detail = f"{len(pairs)} sizes (N = {pairs[0][0]}…{pairs[-1][0]}); xdr time ÷ bifrons time " \
                 f"from {min(x for _, x in pairs):.2f}× to {max(x for _, x in pairs):.2f}×"
        if slower:
            detail += f"; bifrons not faster at N = {', '.join(slower)}"
        out.append((desc, "NOT met" if slower else "met", detail))

    case = "survey/vector_double_1048576"
    # Its fresh read is judged against the resize + memcpy floor (issue 34's targets), not against
    # memcpy's assign() from aligned bytes.
    for op, label, informational in [("serialize", "serialize", False),
                                     ("deserialize_reuse", "deserialize into a reused vector", True)]:
        desc = f"survey/vector_double_1048576: bifrons {label} throughput ≥ 90% of memcpy"
        if informational:
            desc += " (informational)"
        t, ref = res.time(case, "memcpy", op), res.time(case, REFERENCE, op)
        if t is None or ref is None:
            out.append((desc, "not measured", f"no {op} result for memcpy and bifrons in this run"))
            continue
        x = t / ref
        out.append((desc, "met" if x >= 0.9 else "NOT met",
                    f"{100 * x:.1f}% ({fmt_ns(ref)} ns vs memcpy {fmt_ns(t)} ns; "
                    f"{8 * 1048576 / ref:.2f} GB/s)"))
    return out


OP_LABEL = {"serialize": "serialize", "serialize_fixed": "serialize_fixed", "deserialize": "deserialize",
            "deserialize_reuse": "deserialize into a reused container"}


def cases_of(res, families, min_n=None):
    """The cases of this run in these (workload, family) pairs, with n >= min_n."""
    out = []
    for case in res.case_order:
        workload, family, n = split_case(case)
        if (workload, family) in families and (min_n is None or (n is not None and n >= min_n)):
            out.append(case)
    return out


def case_label(case):
    workload, family, n = split_case(case)
    return f"{workload}/{family}" + (f" n = {n:,}" if n is not None else "")


def sizes_label(cases):
    """The sizes of each family among these cases: 'vector_int32 n = 32, 8,192; vector_float n = 32'."""
    by_family = {}
    for case in cases:
        workload, family, n = split_case(case)
        by_family.setdefault(family, set()).add(n)
    return "; ".join(f"{family} n = {', '.join(f'{n:,}' for n in sorted(x for x in ns if x is not None))}"
                     for family, ns in by_family.items())


def ratio_target(res, desc, library, other, cases, ops, threshold, kind):
    """One target over several cases and operations, judged by its worst one.

    kind 'throughput': other's time / library's time >= threshold (other is the baseline, e.g.
    memcpy: library reaches that fraction of its throughput). kind 'faster': other's time /
    library's time > threshold (library is faster). kind 'speedup': other's time / library's time
    >= threshold (library is at least that many times faster). kind 'at_most': library's time /
    other's time <= threshold (library takes at most that many times other's time)."""
    rows = []
    for case in cases:
        for op in ops:
            t, o = res.time(case, library, op), res.time(case, other, op)
            if t is not None and o is not None:
                x = t / o if kind == "at_most" else o / t
                rows.append((case, op, t, o, x))
    if not rows:
        wanted = ", ".join(OP_LABEL[op] for op in ops)
        return desc, "not measured", (f"no {wanted} results for both {display(library)} and {display(other)} "
                                      f"in this run" + (f" (cases: {sizes_label(cases)})" if cases else
                                                        " (none of the cases ran)"))
    if kind == "at_most":
        worst = max(rows, key=lambda r: r[4])
        bad = [r for r in rows if r[4] > threshold]
    elif kind == "faster":
        worst = min(rows, key=lambda r: r[4])
        bad = [r for r in rows if r[4] <= threshold]
    elif kind == "speedup":
        worst = min(rows, key=lambda r: r[4])
        bad = [r for r in rows if r[4] < threshold]
    else:
        worst = min(rows, key=lambda r: r[4])
        bad = [r for r in rows if r[4] < threshold]
    case, op, t, o, x = worst
    value = f"{100 * x:.1f}%" if kind == "throughput" else fmt_ratio(x)
    what = {"throughput": f"{possessive(other)} time ÷ {possessive(library)}",
            "faster": f"{possessive(other)} time ÷ {possessive(library)}",
            "speedup": f"{possessive(other)} time ÷ {possessive(library)}",
            "at_most": f"{possessive(library)} time ÷ {possessive(other)}"}[kind]
    detail = (f"{'worst ' if len(rows) > 1 else ''}{value} ({what}; {OP_LABEL[op]}, {case_label(case)}: {fmt_ns(t)} ns vs {display(other)} "
              f"{fmt_ns(o)} ns)")
    if len(rows) > 1:
        detail += f"; {len(rows) - len(bad)} of {len(rows)} measurements pass"
        detail += f" ({', '.join(OP_LABEL[op] for op in ops)}; {sizes_label(sorted({r[0] for r in rows}, key=cases.index))})"
    return desc, "NOT met" if bad else "met", detail


def with_tree_floor(res, target, cases, op, other, name, speedup):
    """A tree decode target, with the floor under it where handwritten_tree ran the case: its
    decode allocates every node, as any reader must, and does little else. A target below that
    floor cannot be met by any library."""
    desc, status, detail = target
    if op != "deserialize" or not cases:
        return target
    floor, theirs = res.time(cases[0], "handwritten_tree", op), res.time(cases[0], other, op)
    if floor is None or theirs is None:
        return target
    needed = theirs / speedup
    verdict = "below that floor" if needed < floor else "above that floor"
    return desc, status, (f"{detail}; floor: handwritten_tree (a `new` per node, preorder, nothing else) "
                          f"takes {fmt_ns(floor)} ns, and {speedup:g}× faster than {name} needs ≤ {fmt_ns(needed)} ns, "
                          f"{verdict}")


def tree_floor_target(res, cases, other, name, speedup):
    """Issue 11's target for the unique tree's decode, restated by issue 34 against the floor it
    found: what bifrons adds to handwritten_tree's decode is at most 1/speedup of what other adds."""
    desc = (f"unique_tree (depth 9, unique_ptr), restated by issue 34: bifrons' decode above the handwritten_tree "
            f"floor ≤ 1/{speedup:g} of {name}'s (bifrons − floor ≤ ({name} − floor) / {speedup:g})")
    times = {lib: res.time(cases[0], lib, "deserialize") if cases else None
             for lib in (REFERENCE, other, "handwritten_tree")}
    missing = [lib for lib, t in times.items() if t is None]
    if missing:
        return desc, "not measured", f"no deserialize result for {', '.join(missing)} in this run"
    floor = times["handwritten_tree"]
    ours, theirs = times[REFERENCE] - floor, times[other] - floor
    allowed = theirs / speedup
    detail = (f"bifrons − floor = {fmt_ns(ours)} ns, {name} − floor = {fmt_ns(theirs)} ns, allowed ≤ "
              f"{fmt_ns(allowed)} ns (bifrons {fmt_ns(times[REFERENCE])} ns, {name} {fmt_ns(times[other])} ns, "
              f"handwritten_tree {fmt_ns(floor)} ns)")
    if theirs > 0 and ours > 0:
        detail += f"; {name}'s excess is {theirs / ours:.1f}× bifrons'"
    return desc, "met" if ours <= allowed else "NOT met", detail


def issue11_targets(res):
    """Pointer trees at depth 9 (1,023 nodes): speed against cereal binary and Boost, bytes, and
    allocations per object when deserializing."""
    out = []
    for family, what in (("unique_tree", "unique_ptr"), ("shared_tree", "shared_ptr with weak_ptr parents"),
                         ("poly_tree", "polymorphic unique_ptr")):
        cases = cases_of(res, {("cereal_fwd", family)})
        cases = [c for c in cases if split_case(c)[2] == 9]
        speedup = 3.0
        for other, name in (("cereal_binary", "cereal binary"), ("boost_binary", "Boost binary")):
            for op in ("serialize", "deserialize"):
                if (family, other, op) == ("unique_tree", "cereal_binary", "deserialize"):
                    out.append(tree_floor_target(res, cases, other, name, speedup))
                    continue
                target = ratio_target(
                    res, f"{family} (depth 9, {what}): bifrons {op}s at least {speedup:g}× faster than {name}",
                    REFERENCE, other, cases, [op], speedup, "throughput")
                out.append(with_tree_floor(res, target, cases, op, other, name, speedup))
        desc = f"{family} (depth 9): bifrons writes fewer bytes than cereal binary and Boost binary"
        sizes = {lib: res.size(cases[0], lib) if cases else None for lib in (REFERENCE, "cereal_binary", "boost_binary")}
        if not cases or sizes[REFERENCE] is None or sizes["cereal_binary"] is None or sizes["boost_binary"] is None:
            out.append((desc, "not measured", "no sizes for bifrons, cereal binary and Boost binary in this run"))
        else:
            ok = sizes[REFERENCE] < min(sizes["cereal_binary"], sizes["boost_binary"])
            out.append((desc, "met" if ok else "NOT met", f"{sizes[REFERENCE]:,} B vs {sizes['cereal_binary']:,} B "
                        f"(cereal) and {sizes['boost_binary']:,} B (Boost)"))
        desc = f"{family} (depth 9): deserialize makes at most one allocation per object (1,023), plus 16"
        r = res.bench.get((cases[0], REFERENCE, "deserialize")) if cases else None
        if not r or r["error"] or r["allocs"] is None:
            out.append((desc, "not measured", "no allocation count for bifrons in this run"))
        else:
            allocs = float(r["allocs"])
            out.append((desc, "met" if allocs <= 1023 + 16 else "NOT met", f"{allocs:,.0f} allocations per deserialize"))
    return out


ARRAY_FAMILIES = {("cereal_fwd", "vector_int32"), ("cereal_fwd", "vector_float"), ("survey", "vector_int"),
                  ("survey", "vector_double")}
RECORD_FAMILIES = {("cereal_fwd", "vector_integer_class_uniform"), ("cereal_fwd", "vector_integer_class_normal")}


def issue10_targets(res):
    out = []
    record_cases = cases_of(res, RECORD_FAMILIES)
    rec = display(RECORD)
    # The fresh read's target against memcpy's aligned assign() is withdrawn (issue 34): fresh reads
    # are judged against the resize + memcpy floor in issue34_targets.
    out.append(ratio_target(
        res, f"record blocks: {rec} vector<IntegerClass> serialize throughput ≥ 80% of memcpy (uniform and normal, "
        f"every size)", RECORD, "memcpy", record_cases, ["serialize"], 0.8, "throughput"))
    for other, name in (("flatbuffers", "FlatBuffers"), ("sbe", "SBE")):
        out.append(ratio_target(
            res, f"record blocks: {rec} vector<IntegerClass> serializes and deserializes faster than {name} "
            f"(every case)", RECORD, other, record_cases, ["serialize", "deserialize"], 1.0, "faster"))
    for other, name in (("cereal_binary", "cereal binary"), ("boost_binary", "Boost binary"),
                        ("protobuf", "protobuf")):
        out.append(ratio_target(
            res, f"vector<IntegerClass>: bifrons (default encoding) serializes and deserializes faster than {name} "
            f"at every size", REFERENCE, other, record_cases, ["serialize", "deserialize"], 1.0, "faster"))
    array_cases = cases_of(res, ARRAY_FAMILIES, min_n=32)
    # No fresh read here: withdrawn with the other targets against memcpy's aligned assign() (issue 34).
    for op, threshold in (("serialize", 0.95), ("deserialize_reuse", 0.9)):
        what = {"serialize": "serialize", "deserialize": "deserialize into a fresh container",
                "deserialize_reuse": "deserialize into a reused container"}[op]
        out.append(ratio_target(
            res, f"arithmetic arrays (vector_int32, vector_float, vector_int, vector_double; n ≥ 32): bifrons {what} "
            f"throughput ≥ {100 * threshold:.0f}% of memcpy", REFERENCE, "memcpy", array_cases, [op], threshold,
            "throughput"))
    account = ["account/account"] if "account/account" in res.case_order else []
    for library, op, threshold in ((REFERENCE, "serialize", 1.1), (REFERENCE, "deserialize", 1.3),
                                   (RECORD, "serialize", 1.0), (RECORD, "deserialize", 1.0)):
        out.append(ratio_target(
            res, f"Account: {display(library)} {op} time ≤ {threshold:.1f}× the hand-written codec's", library,
            "handwritten", account, [op], threshold, "at_most"))
    exes = res.env.get("executables", {})
    other = "cereal_binary"
    mine, theirs = exes.get(REFERENCE, {}), exes.get(other, {})
    desc = f"compile time of the minimal program: bifrons ≤ cereal binary ({other})"
    a, b = (mine.get("compile") or {}).get("seconds"), (theirs.get("compile") or {}).get("seconds")
    if a is None or b is None:
        out.append((desc, "not measured", "no compile time for minimal_bifrons and minimal_cereal_binary in this run"
                    + (" (smoke runs do not build the minimal programs)" if res.run.get("mode") == "smoke" else "")))
    else:
        cpu = [min((x.get("compile") or {}).get("cpu_seconds") or [0]) for x in (mine, theirs)]
        out.append((desc, "met" if a <= b else "NOT met", f"{a:.2f} s vs {b:.2f} s wall ({a / b:.2f}×); "
                    f"CPU {cpu[0]:.2f} s vs {cpu[1]:.2f} s"))
    desc = f"stripped size of the minimal program: bifrons ≤ cereal binary ({other})"
    a, b = mine.get("stripped"), theirs.get("stripped")
    if not a or not b:
        out.append((desc, "not measured", "no stripped size for minimal_bifrons and minimal_cereal_binary in this run"))
    else:
        out.append((desc, "met" if a <= b else "NOT met", f"{a:,} B vs {b:,} B ({a / b:.2f}×)"))
    return out


# The distinct-input cases (bench/harness/harness.hpp): 64 vectors of 1,000 IntegerClass, cycled.
DISTINCT_CASES = {"normal": "cereal_fwd/vector_integer_class_normal_distinct_1000",
                  "uniform": "cereal_fwd/vector_integer_class_uniform_distinct_1000"}
# bifrons' times on them before issue 34's varint work, per optimization level: the baseline the
# "N× faster than today" targets are judged against (a committed file, since that code is gone
# once the work lands).
ISSUE34_BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "issue34_baseline.json")


def read_json(path):
    """The file's JSON, or None if it is missing or unreadable."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def load_issue34_baseline():
    return read_json(ISSUE34_BASELINE)


def baseline_targets(res, baseline):
    """The default encoding on distinct inputs, against its own times before issue 34."""
    out = []
    opt = res.run.get("opt") or res.env.get("compiler", {}).get("opt", "")
    level = (baseline or {}).get("levels", {}).get(opt)
    for values, what, speedup in (("normal", "normal values (σ 127)", 4.0), ("uniform", "full-range values", 2.0)):
        case = DISTINCT_CASES[values]
        for op in ("serialize", "deserialize"):
            desc = (f"vector<IntegerClass> × 1,000, 64 distinct inputs cycled, {what}: bifrons (default encoding) "
                    f"{op}s ≥ {speedup:g}× faster than before issue 34")
            if level is None:
                name = "bench/report/" + os.path.basename(ISSUE34_BASELINE)
                why = (f"no baseline at -{opt or '?'} in {name}" if baseline else f"{name} is missing or unreadable")
                out.append((desc, "not measured", why))
                continue
            before, now = level.get("ns", {}).get(case, {}).get(op), res.time(case, REFERENCE, op)
            if before is None or now is None:
                out.append((desc, "not measured", f"no {op} result for bifrons on {case} in this run"
                            if now is None else f"the baseline has no {op} time for {case}"))
                continue
            x = before / now
            out.append((desc, "met" if x >= speedup else "NOT met",
                        f"{fmt_ratio(x)} ({fmt_ns(now)} ns now vs {fmt_ns(before)} ns at {baseline.get('commit', '?')}, "
                        f"{baseline.get('date', '?')}, {level.get('compiler', '-' + opt)}; the baseline is another run, "
                        f"so machine load between the two runs moves this ratio)"))
    return out


def issue34_targets(res):
    out = baseline_targets(res, load_issue34_baseline())
    distinct = [case for case in DISTINCT_CASES.values() if case in res.case_order]
    out.append(ratio_target(
        res, "vector<IntegerClass> × 1,000, 64 distinct inputs cycled (normal and full-range values): bifrons "
        "(default encoding) serializes and deserializes ≥ 3× faster than protobuf", REFERENCE, "protobuf", distinct,
        ["serialize", "deserialize"], 3.0, "speedup"))
    array_cases = cases_of(res, ARRAY_FAMILIES, min_n=32)
    record_cases = cases_of(res, RECORD_FAMILIES, min_n=32)
    for library, cases, what in ((REFERENCE, array_cases, "arithmetic arrays (vector_int32, vector_float, vector_int, "
                                  "vector_double; n ≥ 32)"),
                                 (RECORD, record_cases, "record blocks (vector<IntegerClass>; n ≥ 32)")):
        out.append(ratio_target(
            res, f"{what}: {display(library)} deserialize into a fresh container ≤ 1.1× the resize + memcpy floor's "
            f"time (same unaligned bytes)", library, FLOOR, cases, ["deserialize"], 1.1, "at_most"))
        out.append(ratio_target(
            res, f"{what}: {display(library)} serialize and deserialize into a reused container ≤ 1.1× memcpy's time",
            library, "memcpy", cases, ["serialize", "deserialize_reuse"], 1.1, "at_most"))
    out += instruction_targets(load_instructions(res.dir), res.run.get("opt", ""))
    out.append(views_target(res))
    return out


# ---------------------------------------------------------------------------
# Instruction counts (scripts/bench --instructions; bench/harness/harness.hpp, "Instruction counts")
# ---------------------------------------------------------------------------
# Before issue 34's work (77a0751), per optimization level: the baseline of the Account and Kelpie
# instruction targets, made by scripts/bench --instructions --bifrons-from on that commit's tree.
ISSUE34_INSTRUCTIONS_BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                             "issue34_instructions_baseline.json")
INSTRUCTION_OPS = ["serialize", "deserialize", "deserialize_reuse"]
ACCOUNT, KELPIE_16 = "account/account", "kelpie/message_16"


def callgrind_total(path):
    """The instructions (Ir) a callgrind dump counted: its 'summary:' or 'totals:' line."""
    for line in read_lines(path):
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise ValueError(f"{path}: missing, or no summary line")


def collect_instructions(results):
    """Pairs each library's window lines with callgrind's dumps (one per window, in order): per
    case and operation, (second window - first window) / N - the empty operation's same difference.
    Returns the instructions.json record."""
    out = {"counts": {}, "bytes": {}, "digests": {}, "windows": {}, "calibration": {}, "unsupported": {}, "errors": []}
    for entry in sorted(os.listdir(results)):
        m = re.match(r"^instructions_(.+)\.txt$", entry)
        if not m:
            continue
        library = m.group(1)
        windows = {}  # (case, op) -> [(operations, instructions)]
        dump = 0
        for line in read_lines(os.path.join(results, entry)):
            fields = line.split(maxsplit=4)
            if fields and fields[0] == "unsupported" and len(fields) >= 3:
                out["unsupported"].setdefault(library, {})[fields[1]] = fields[3] if len(fields) > 3 else ""
            if len(fields) == 4 and fields[0] == "bytes" and fields[3].isdigit():
                out["bytes"].setdefault(library, {})[fields[1]] = int(fields[3])
            if len(fields) == 4 and fields[0] == "digest":
                out["digests"].setdefault(library, {})[fields[1]] = fields[3]
            if len(fields) != 5 or fields[0] != "window":
                continue
            dump += 1
            path = os.path.join(results, "callgrind", f"{library}.out.{dump}")
            try:
                windows.setdefault((fields[1], fields[3]), []).append((int(fields[4]), callgrind_total(path)))
            except (OSError, ValueError) as e:
                out["errors"].append(f"{library}: window {dump} ({fields[1]} {fields[3]}): {e}")
        # A window callgrind did not see (a clone of the window function under another name, say)
        # would pair every later window with the wrong dump.
        callgrind = os.path.join(results, "callgrind")
        dumps = len([f for f in (os.listdir(callgrind) if os.path.isdir(callgrind) else [])
                     if re.fullmatch(re.escape(library) + r"\.out\.\d+", f)])
        if dumps != dump:
            out["errors"].append(f"{library}: {dump} windows but {dumps} callgrind dumps; no counts")
            continue
        per_op = {}
        for key, pairs in windows.items():
            if len(pairs) != 2 or pairs[1][0] <= pairs[0][0]:
                out["errors"].append(f"{library}: {key[0]} {key[1]}: expected two windows of N and 2N operations")
                continue
            (n1, i1), (n2, i2) = pairs
            per_op[key] = (i2 - i1) / (n2 - n1)
            out["windows"].setdefault(library, {}).setdefault(key[0], {})[key[1]] = [[n1, i1], [n2, i2]]
        empty = per_op.pop(("calibration", "empty"), None)
        if empty is None:
            if per_op:
                out["errors"].append(f"{library}: no calibration window")
            continue
        out["calibration"][library] = round(empty, 2)
        for (case, op), value in per_op.items():
            if value <= empty:
                out["errors"].append(f"{library}: {case} {op}: {value:.1f} instructions per operation, no more "
                                     f"than the empty operation's {empty:.1f}")
                continue
            out["counts"].setdefault(library, {}).setdefault(case, {})[op] = round(value - empty, 1)
    return out


def load_instructions(directory):
    return read_json(os.path.join(directory, "instructions.json"))


def fmt_instructions(x):
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def instruction_targets(counts, opt):
    """Issue 34's instruction targets at this run's optimization level: Account (default encoding)
    and Kelpie N = 16 against the committed baseline, Account records against the hand-written codec."""
    baseline = read_json(ISSUE34_INSTRUCTIONS_BASELINE)
    level = (baseline or {}).get("levels", {}).get(opt)
    name = "bench/report/" + os.path.basename(ISSUE34_INSTRUCTIONS_BASELINE)
    no_counts = ("no instruction counts in this run (made before scripts/bench counted them, or valgrind was not "
                 "installed)"
                 if counts is None else None)

    def count(library, case, op, source):
        return ((source or {}).get("counts") or {}).get(library, {}).get(case, {}).get(op)

    # Why the targets against the baseline cannot be judged in this run, if they cannot.
    unmeasured = no_counts or (None if level is not None else
                               f"no baseline at -{opt or '?'} in {name}" if baseline else
                               f"{name} is missing or unreadable")

    def against_baseline(desc, case, limits):
        if unmeasured:
            return desc, "not measured", unmeasured
        parts, met = [], True
        for op, limit in limits:
            now, before = count(REFERENCE, case, op, counts), count(REFERENCE, case, op, level)
            if now is None or before is None:
                return desc, "not measured", (f"no {op} count for bifrons on {case} in this run" if now is None
                                              else f"the baseline has no {op} count for {case}")
            met = met and now <= limit * before
            parts.append(f"{op} {now / before:.0%} ({fmt_instructions(now)} vs {fmt_instructions(before)}, "
                         f"limit {limit:.0%})")
        return desc, "met" if met else "NOT met", (
            "; ".join(parts) + f"; instructions per operation, the baseline at {baseline.get('commit', '?')} "
            f"({level.get('compiler', '-' + opt)})")

    out = [account_target(counts, baseline, level, unmeasured, count)]

    desc = "Account, records: serialize and reused read at or below the hand-written codec's instructions"
    if no_counts:
        out.append((desc, "not measured", no_counts))
    else:
        parts, met, missing = [], True, None
        for op in ("serialize", "deserialize_reuse"):
            mine, theirs = count(RECORD, ACCOUNT, op, counts), count("handwritten", ACCOUNT, op, counts)
            if mine is None or theirs is None:
                missing = op
                break
            met = met and mine <= theirs
            parts.append(f"{op} {fmt_instructions(mine)} vs {fmt_instructions(theirs)} ({mine / theirs:.2f}×)")
        out.append((desc, "not measured", f"no {missing} count for both bifrons (records) and handwritten on "
                    f"{ACCOUNT} in this run") if missing else
                   (desc, "met" if met else "NOT met", "; ".join(parts) + "; instructions per operation, this run"))

    kelpie = "kelpie N = 16: serialize in ≤ 2/3 of the instructions before issue 34"
    out.append(against_baseline(kelpie, KELPIE_16, [("serialize", 2 / 3)]))
    return out


# The floor of the Account targets: a hand-written codec of the default encoding's very bytes,
# with the checks bifrons makes (bench/adapters/handwritten_varint.cpp).
VARINT_FLOOR = "handwritten_varint"
ACCOUNT_LIMITS = [("serialize", 0.70), ("deserialize_reuse", 0.70), ("deserialize", 0.85)]


def account_target(counts, baseline, level, unmeasured, count):
    """Issue 34's Account target (default encoding) for one optimization level: each operation in
    at most its share of the baseline's instructions, restated, where that share is below the
    floor (handwritten_varint's count in this run), as at most the floor's count."""
    desc = ("Account, default encoding: serialize and reused read in ≤ 70% of the instructions before issue 34, "
            "fresh read in ≤ 85%, with the same 118 bytes; where such a limit is below the floor, a hand-written "
            f"codec of the same bytes with the same checks ({VARINT_FLOOR}), restated as at most the floor")
    if unmeasured:
        return desc, "not measured", unmeasured
    parts, met = [], True
    for op, share in ACCOUNT_LIMITS:
        now, before = count(REFERENCE, ACCOUNT, op, counts), count(REFERENCE, ACCOUNT, op, level)
        floor = count(VARINT_FLOOR, ACCOUNT, op, counts)
        if now is None or before is None or floor is None:
            missing = ("bifrons" if now is None else VARINT_FLOOR) + " in this run" if before is not None \
                else "the baseline"
            return desc, "not measured", f"no {op} count for {ACCOUNT} from {missing}"
        if share * before >= floor:
            limit, why = share * before, f"{share:.0%} of {fmt_instructions(before)}"
        else:
            limit, why = floor, (f"restated: {share:.0%} of {fmt_instructions(before)} is "
                                 f"{fmt_instructions(share * before)}, below the floor's {fmt_instructions(floor)}")
        met = met and now <= limit
        parts.append(f"{op} {fmt_instructions(now)} ({now / floor:.2f}× the floor, {now / before:.0%} of the "
                     f"baseline; limit {fmt_instructions(limit)}: {why})")
    sizes = ((counts or {}).get("bytes") or {})
    own, floor_bytes = sizes.get(REFERENCE, {}).get(ACCOUNT), sizes.get(VARINT_FLOOR, {}).get(ACCOUNT)
    digests = ((counts or {}).get("digests") or {})
    own_digest, floor_digest = digests.get(REFERENCE, {}).get(ACCOUNT), digests.get(VARINT_FLOOR, {}).get(ACCOUNT)
    same = own_digest is not None and own_digest == floor_digest
    if own != 118 or floor_bytes != 118 or not same:
        met = False
    return desc, "met" if met else "NOT met", (
        "; ".join(parts) + f"; instructions per operation, the baseline at {baseline.get('commit', '?')} "
        f"({level.get('compiler', '?')}); encoding {own} B, the floor's {floor_bytes} B, "
        + ("the same bytes" if same else "NOT the same bytes (digests " + f"{own_digest} and {floor_digest})"))


def instructions_section(counts):
    """The instruction counts' table for report.md, or why there is none."""
    if counts is None:
        return "No instruction counts in this run (made before scripts/bench counted them, or valgrind was not installed)."
    rows = []
    for library in order_libraries(set(counts.get("counts", {}))):
        for case, ops in counts["counts"][library].items():
            rows.append([display(library), case] + [fmt_instructions(ops[op]) if op in ops else "–"
                                                    for op in INSTRUCTION_OPS])
    text = [table(["library", "case"] + INSTRUCTION_OPS, rows, [":--", ":--"] + ["--:"] * len(INSTRUCTION_OPS)),
            "", "Instructions per operation under callgrind (scripts/bench's header, \"Instruction counts\"): each "
            "operation ran N and then 2N times in a window callgrind counts alone, after a warm-up; a count is the "
            "difference of the two windows over N, less that of an empty operation (the window's own cost per "
            "operation: " + ", ".join(f"{display(lib)} {c}" for lib, c in counts.get("calibration", {}).items()) +
            "). Callgrind counts every byte a `rep movsb` copies as one instruction, so glibc's memcpy ran without "
            "it (GLIBC_TUNABLES as in the memcpy probe)."]
    for error in counts.get("errors", []):
        text.append(f"- not counted: {error}")
    return "\n".join(text)


def instructions_command(results, opt):
    counts = collect_instructions(results)
    with open(os.path.join(results, "instructions.json"), "w", encoding="utf-8") as f:
        json.dump(counts, f, indent=1, sort_keys=True)
        f.write("\n")
    for library in order_libraries(set(counts["counts"])):
        for case, ops in counts["counts"][library].items():
            print(f"  {display(library):<20} {case:<20} " +
                  "  ".join(f"{op} {fmt_instructions(ops[op])}" for op in INSTRUCTION_OPS if op in ops))
    for error in counts["errors"]:
        print(f"  not counted: {error}")
    print(f"Instruction targets at -{opt} (informational):")
    for desc, status, detail in instruction_targets(counts, opt):
        print(f"  [{status.lower()}] {desc}: {detail}")
    return 1 if counts["errors"] else 0


def views_results(directory):
    """views_bench.txt (bench_views: 'views <type> elements=<n> span_us=<t> view_us=<t> ratio=<r>
    [for_each_us=<t> for_each_ratio=<r> floor_us=<t> floor_ratio=<r>]') as {type: {field: value}}, the
    ratios as floats; empty when the run has none. Runs before the floor have only 'ratio'."""
    rows = {}
    for line in read_lines(os.path.join(directory, "views_bench.txt")):
        fields = line.split()
        if len(fields) < 3 or fields[0] != "views":
            continue
        values = dict(f.split("=", 1) for f in fields[2:] if "=" in f)
        row = {}
        for key in ("ratio", "for_each_ratio", "floor_ratio"):
            try:
                row[key] = float(values[key])
            except (KeyError, ValueError):
                pass
        if "ratio" in row:
            rows[fields[1]] = row
    return rows


def views_target(res):
    """Issue 34, restated for records against the floor bench_views measures. Numbers: a range-for over
    a block_view (one byte off its elements' alignment) within 10% of a loop over an aligned span.
    Records: their stride is the writer's, known only at run time, so a range-for is judged against the
    floor (a hand-written memcpy loop at a stride the compiler cannot see, on the same bytes), and
    for_each, which loads records written at the reader's own record size (bench_views' data) at a
    compile-time stride, against the span. At this run's optimization level."""
    desc = ("unaligned zero-copy views of blocks (bench_views, at -O2 and -O3): numbers (int32, double), a "
            "range-for over a block_view ≤ 1.1× a loop over an aligned span; records written at the reader's "
            "own record size, block_view::for_each ≤ 1.1× the span; records, a range-for (which tests the "
            "writer's stride at each element) ≤ 1.1× the floor of a hand-written memcpy loop at a stride "
            "known only at run time, on the same bytes")
    rows = views_results(res.dir)
    if not rows:
        return desc, "not measured", "no views_bench.txt in this run (bench_views did not run)"
    met, parts = True, []
    for name, row in rows.items():
        if not name.startswith("record"):
            met &= row["ratio"] <= 1.1
            parts.append(f"{name} view ÷ span {row['ratio']:.2f}×")
            continue
        if "for_each_ratio" not in row or "floor_ratio" not in row:
            met = False
            parts.append(f"{name} view ÷ span {row['ratio']:.2f}× (no for_each or floor in this run)")
            continue
        met &= row["for_each_ratio"] <= 1.1 and row["floor_ratio"] <= 1.1
        parts.append(f"{name} for_each ÷ span {row['for_each_ratio']:.2f}×, view ÷ floor {row['floor_ratio']:.2f}× "
                     f"(view ÷ span {row['ratio']:.2f}×)")
    return desc, "met" if met else "NOT met", "; ".join(parts)


# ---------------------------------------------------------------------------
# Plots
# ---------------------------------------------------------------------------
def not_built(res):
    """Libraries this run wanted but could not build: [(library, reason)]."""
    out = [(lib, reason) for lib, _, reason in res.failed_builds]
    requested = res.run.get("requested", "all")
    for m in res.env.get("missing", []):
        if requested == "all" or m["library"] in requested.split(","):
            out.append((m["library"], m["reason"]))
    return [(lib, reason) for lib, reason in out if lib not in res.libraries]


def lacking(res, cases, has_data):
    """The libraries with no data for these cases, grouped by why:
    [(why, [libraries])], e.g. [("not supported", ["sbe", "memcpy"])].
    has_data(library) says whether the plot has something to draw for it."""
    groups = {}
    for lib in res.libraries:
        if has_data(lib):
            continue
        statuses = {res.status(case, lib) for _, case in cases}
        errors = any(r["error"] for (c, l, _), r in res.bench.items() if l == lib and c in {c for _, c in cases})
        if "FAIL" in statuses:
            why = "round trip failed"
        elif errors:
            why = "benchmark error"
        elif statuses == {"unsupported"}:
            why = "not supported"
        elif any(res.ran(case, lib) for _, case in cases):
            why = "not timed"
        else:
            why = "not run"
        groups.setdefault(why, []).append(lib)
    built = [lib for lib, _ in not_built(res)]
    if built:
        groups.setdefault("not built here", []).extend(built)
    order = ["round trip failed", "benchmark error", "not built here", "not run", "not timed", "not supported"]
    return [(why, groups[why]) for why in order if why in groups]


def lacking_text(groups, width=None, prefix="no data: "):
    """'no data: sbe, capnp (not supported); xdr (not built here)', wrapped to width characters."""
    if not groups:
        return ""
    text = prefix + "; ".join(f"{', '.join(display(lib) for lib in libs)} ({why})" for why, libs in groups)
    if width:
        import textwrap

        text = "\n".join(textwrap.wrap(text, width, break_on_hyphens=False))
    return text


def library_styles(libraries):
    import matplotlib

    colors = list(matplotlib.colormaps["tab20"].colors)
    markers = ["s", "^", "v", "D", "P", "X", "<", ">", "p", "h", "*", "d", "H", "8"]
    styles, k = {}, 0
    for lib in libraries:
        if lib == REFERENCE:
            styles[lib] = dict(color="black", marker="o", linewidth=2.6, markersize=7, zorder=10)
        elif lib == RECORD:
            styles[lib] = dict(color="black", marker="D", linestyle="-.", linewidth=2.0, markersize=6, zorder=10)
        elif lib == "memcpy":
            styles[lib] = dict(color="0.45", marker="", linestyle="--", linewidth=1.8, zorder=9)
        elif lib == FLOOR:
            styles[lib] = dict(color="0.3", marker="", linestyle="-.", linewidth=1.8, zorder=9)
        elif lib in ("handwritten", "handwritten_varint", "handwritten_tree"):
            styles[lib] = dict(color="0.45", marker="P" if lib == "handwritten_varint" else "*", linestyle=":",
                               linewidth=1.8, markersize=9, zorder=9)
        else:
            # tab20's dark shades first, then the light ones; not its greys.
            palette = [colors[i] for i in range(0, 20, 2) if i != 14] + [colors[i] for i in range(1, 20, 2) if i != 15]
            styles[lib] = dict(color=palette[k % len(palette)], marker=markers[k % len(markers)], linewidth=1.4,
                               markersize=5)
            k += 1
    return styles


def x_of(workload, family, n):
    if "tree" in family:
        return 2 ** (n + 1) - 1
    return n


def x_label(workload, family):
    if "tree" in family:
        return "tree nodes (depth d: 2^(d+1) − 1 nodes)"
    if workload == "kelpie":
        return "entries per message"
    if family == "string":
        return "characters"
    if family.startswith("map"):
        return "map entries"
    return "elements"


def plot_sweep(res, workload, family, cases, styles, path):
    import matplotlib.pyplot as plt
    from matplotlib.ticker import LogLocator

    fig, axes = plt.subplots(1, 3, figsize=(17, 5.6))
    panels = [("serialize", "serialize: CPU time per operation"), ("deserialize", "deserialize (fresh object): CPU time"),
              (None, "encoded size")]
    handles = {}
    drawn = []  # per panel, the libraries it has a line for
    for ax, (op, title) in zip(axes, panels):
        drawn.append(set())
        for lib in res.libraries:
            xs, ys = [], []
            for n, case in cases:
                y = res.time(case, lib, op) if op else (res.size(case, lib) if res.ran(case, lib) else None)
                if y is not None and y > 0:
                    xs.append(x_of(workload, family, n))
                    ys.append(y)
            if xs:
                (line,) = ax.plot(xs, ys, label=display(lib), **styles[lib])
                handles.setdefault(lib, line)
                drawn[-1].add(lib)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(title, fontsize=11)
        ax.set_xlabel(x_label(workload, family))
        ax.set_ylabel("ns per operation (log)" if op else "bytes (log)")
        ax.grid(True, which="major", alpha=0.35)
        ax.grid(True, which="minor", alpha=0.12)
        ax.yaxis.set_major_locator(LogLocator(base=10))
    # A library in the legend but missing from one panel (e.g. simdjson, whose
    # serialize is not timed) says so in that panel.
    for ax, (op, _), libs in zip(axes, panels, drawn):
        notes = []
        absent = [lib for lib in res.libraries if lib in handles and lib not in libs]
        if absent:
            what = "no serialize time" if op == "serialize" else "no deserialize time" if op else "no size"
            notes.append(f"{what}: {', '.join(display(lib) for lib in absent)}")
        if op is None and REFERENCE in libs:
            # Sizes within 2% of bifrons' at every point draw under its line.
            ref = [res.size(case, REFERENCE) for _, case in cases]
            same = [lib for lib in res.libraries if lib in libs and lib != REFERENCE and all(
                abs((res.size(case, lib) or 0) - r) <= 0.02 * r
                for (_, case), r in zip(cases, ref) if r and res.ran(case, lib))]
            if same:
                notes.append(f"within 2% of {REFERENCE}, under its line:\n{', '.join(display(lib) for lib in same)}")
        if notes:
            ax.text(0.02, 0.98, "\n".join(notes), transform=ax.transAxes, va="top", fontsize=9,
                    color="0.3", bbox=dict(facecolor="white", edgecolor="0.8", alpha=0.85))
    title = f"{workload} / {family}: time and size vs size of the value (log–log; lower is better)"
    if REFERENCE in res.libraries and REFERENCE not in handles:
        title += f"\n{REFERENCE} does not support this case"
    fig.suptitle(title, fontsize=13)
    labels = [lib for lib in res.libraries if lib in handles]
    fig.legend([handles[lib] for lib in labels], [display(lib) for lib in labels], loc="center right", fontsize=10,
               frameon=False)
    note = lacking_text(lacking(res, cases, lambda lib: lib in handles), width=190,
                        prefix="Not in this plot (no data): ")
    bottom = 0.0
    if note:
        fig.text(0.01, 0.012, note, fontsize=10, color="0.25", va="bottom", ha="left")
        bottom = (0.045 + 0.035 * note.count("\n"))
    fig.tight_layout(rect=(0, bottom, 0.885, 0.93 if "\n" in title else 0.95))
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_single(res, workload, family, case, styles, path):
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    libs = [lib for lib in res.libraries if res.time(case, lib, "serialize") or res.time(case, lib, "deserialize")]
    if not libs:
        return False
    note = lacking_text(lacking(res, [(None, case)], lambda lib: lib in libs), width=150,
                        prefix="Not in this plot (no data): ")
    libs = list(reversed(libs))  # the reference at the top
    height = max(3.2, 0.42 * len(libs) + 1.6)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(15, height), gridspec_kw={"width_ratios": [2.2, 1]})
    ys = range(len(libs))
    bar = 0.38
    ser = [res.time(case, lib, "serialize") or 0 for lib in libs]
    des = [res.time(case, lib, "deserialize") or 0 for lib in libs]
    ax.barh([y + bar / 2 for y in ys], ser, height=bar, color="#4c72b0", label="serialize")
    ax.barh([y - bar / 2 for y in ys], des, height=bar, color="#dd8452", label="deserialize (fresh object)")
    for y, s, d in zip(ys, ser, des):
        if s:
            ax.text(s * 1.04, y + bar / 2, fmt_ns(s), va="center", fontsize=8)
        elif d:
            ax.text(min(v for v in ser + des if v > 0) / 1.9, y + bar / 2, "serialize not timed", va="center",
                    fontsize=8, color="0.4")
        if d:
            ax.text(d * 1.04, y - bar / 2, fmt_ns(d), va="center", fontsize=8)
    ax.set_xscale("log")
    positive = [v for v in ser + des if v > 0]
    ax.set_xlim(min(positive) / 2, max(positive) * 4)
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_yticks(list(ys))
    ax.set_yticklabels([display(lib) for lib in libs])
    for label in ax.get_yticklabels():
        if label.get_text() == REFERENCE:
            label.set_fontweight("bold")
    ax.set_xlabel("CPU time per operation [ns] (log; shorter is better)")
    ax.grid(True, axis="x", which="major", alpha=0.35)
    ax.legend(loc="lower right", fontsize=9)
    sizes = [res.size(case, lib) or 0 for lib in libs]
    colors = ["black" if lib == REFERENCE else "#55a868" for lib in libs]
    bx.barh(list(ys), sizes, color=colors, height=0.6)
    for y, s in zip(ys, sizes):
        if s:
            bx.text(s * 1.02, y, f"{s:,}", va="center", fontsize=8)
    bx.set_yticks(list(ys))
    bx.set_yticklabels([])
    bx.set_xlim(0, max(sizes + [1]) * 1.2)
    bx.set_xlabel("encoded size [bytes]")
    bx.grid(True, axis="x", alpha=0.35)
    _, _, n = split_case(case)
    if n is None:
        what = "one object"
    elif "tree" in family:
        what = f"depth {n} ({x_of(workload, family, n)} nodes)"
    else:
        what = f"n = {n:,}"
    fig.suptitle(f"{workload} / {family}: {what}", fontsize=13)
    bottom = 0.0
    if note:
        fig.text(0.01, 0.01, note, fontsize=10, color="0.25", va="bottom", ha="left")
        bottom = (0.3 + 0.2 * note.count("\n")) / height
    fig.tight_layout(rect=(0, bottom, 1, 0.95))
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def make_plots(res, outdir):
    import matplotlib

    matplotlib.use("Agg")
    os.makedirs(outdir, exist_ok=True)
    for old in os.listdir(outdir):
        if old.endswith(".png"):
            os.remove(os.path.join(outdir, old))
    styles = library_styles(res.libraries)
    plots = {}
    todo = []
    for workload, family, cases in res.families():
        if len(cases) > 1 and cases[0][0] is not None:
            todo.append((workload, family, cases, "sweep"))
        elif (workload, family) in SINGLE_OBJECT_FAMILIES or len(cases) == 1:
            todo.append((workload, family, cases, "single"))
    start = time.monotonic()
    for i, (workload, family, cases, kind) in enumerate(todo, 1):
        name = slug(workload, family) + ".png"
        path = os.path.join(outdir, name)
        progress(f"plot {i:>2}/{len(todo)}  {workload}/{family}", start)
        if kind == "sweep":
            plot_sweep(res, workload, family, cases, styles, path)
            plots[(workload, family)] = name
        elif plot_single(res, workload, family, cases[0][1], styles, path):
            plots[(workload, family)] = name
    return plots


def progress(message, start=None):
    """One line of progress, at once (the report phase takes a while)."""
    if start is not None:
        message = f"[{time.monotonic() - start:5.1f} s] {message}"
    print(f"  {message}", flush=True)


# ---------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------
def family_table(res, cases):
    rows = []
    multi = len(cases) > 1 or cases[0][0] is not None
    for n, case in cases:
        for lib in res.libraries:
            if not res.ran(case, lib):
                continue
            row = [str(n)] if multi else []
            row.append(f"**{lib}**" if lib == REFERENCE else display(lib))
            if res.status(case, lib) == "FAIL":
                msg = res.checks[lib][case]["message"]
                rows.append(row + [f"**FAILED**: {msg}"] + [""] * 6)
                continue
            for op in OPS:
                r = res.bench.get((case, lib, op))
                if r is None:
                    row.append("–")
                elif r["error"]:
                    row.append(f"**error**: {r['error']}")
                else:
                    cell = fmt_ns(r["cpu"])
                    x = ratio(res, case, lib, op)
                    if lib != REFERENCE and x is not None:
                        cell += f" ({fmt_ratio(x)})"
                    row.append(cell)
            row.append(fmt_count(res.size(case, lib)))
            allocs, peaks = [], []
            for op in OPS:
                r = res.bench.get((case, lib, op))
                ok = r is not None and not r["error"]
                allocs.append(fmt_count(r["allocs"]) if ok and r["allocs"] is not None else "–")
                peaks.append(fmt_bytes(r["peak_heap"]) if ok and r["peak_heap"] is not None else "–")
            row.append(" / ".join(allocs))
            row.append(" / ".join(peaks))
            rows.append(row)
    header = (["n"] if multi else []) + ["library", "serialize ns", "serialize_fixed ns", "deserialize ns",
                                         "deserialize_reuse ns", "bytes", "allocs/op", "peak heap"]
    align = (["--:"] if multi else []) + [":--"] + ["--:"] * 7
    return table(header, rows, align)


def unsupported_lines(res, cases):
    by_lib = {}
    case_names = {c for _, c in cases}
    for lib in res.libraries:
        for case in case_names:
            c = res.checks.get(lib, {}).get(case)
            if c and c["status"] == "unsupported":
                by_lib.setdefault(lib, c["message"])
    if not by_lib:
        return ""
    return "Not supported: " + "; ".join(f"{display(lib)} ({md_escape(msg)})" for lib, msg in by_lib.items()) + "."


def speedup_tables(res):
    others = [lib for lib in res.libraries if lib != REFERENCE]
    if REFERENCE not in res.libraries or not others:
        return ""
    parts = []
    for op, title in [("serialize", "serialize"), ("deserialize", "deserialize (fresh object)"),
                      ("deserialize_reuse", "deserialize into a reused object")]:
        rows = []
        for workload, family, cases in res.families():
            cells = []
            for lib in others:
                cells.append(fmt_ratio(geomean([ratio(res, c, lib, op) for _, c in cases])))
            if any(c != "–" for c in cells):
                rows.append([f"{workload}/{family}"] + cells)
        if rows:
            parts.append(f"**{title}** — other library's time ÷ bifrons' time (geometric mean over the sizes; "
                         f"> 1: bifrons is that many times faster)\n\n" +
                         table(["case family"] + [display(lib) for lib in others], rows,
                               [":--"] + ["--:"] * len(others)))
    rows = []
    for workload, family, cases in res.families():
        cells = []
        for lib in others:
            values = []
            for _, c in cases:
                s, ref = res.size(c, lib), res.size(c, REFERENCE)
                if s and ref and res.ran(c, lib):
                    values.append(s / ref)
            cells.append(fmt_ratio(geomean(values)))
        if any(c != "–" for c in cells):
            rows.append([f"{workload}/{family}"] + cells)
    if rows:
        parts.append("**encoded size** — other library's bytes ÷ bifrons' bytes (geometric mean over the sizes)\n\n" +
                     table(["case family"] + [display(lib) for lib in others], rows, [":--"] + ["--:"] * len(others)))
    return "\n\n".join(parts)


def machine_section(res):
    env = res.env
    m = env.get("machine", {})
    c = env.get("compiler", {})
    lines = []
    if m:
        cores = m.get("cpus", "?")
        detail = []
        if m.get("sockets") and m.get("cores_per_socket"):
            detail.append(f"sockets: {m['sockets']}, cores per socket: {m['cores_per_socket']}, "
                          f"threads per core: {m.get('threads_per_core', '?')}")
        if m.get("hypervisor"):
            detail.append(f"virtual machine ({m['hypervisor']})")
        lines.append(f"- CPU: {m.get('cpu', '?')}, {cores} logical CPUs" + (f" ({'; '.join(detail)})" if detail else ""))
        lines.append(f"- Memory: {m.get('memory', '?')}; OS: {m.get('os', '?')}, Linux {m.get('kernel', '?')}")
    ctx = next(iter(res.contexts.values()), {})
    if ctx:
        caches = ", ".join(f"L{x['level']} {x['type'].lower()} {fmt_bytes(x['size'])}" for x in ctx.get("caches", []))
        lines.append(f"- Google Benchmark: {ctx.get('mhz_per_cpu', '?')} MHz per CPU reported; caches: {caches}; "
                     f"CPU frequency scaling {'on' if ctx.get('cpu_scaling_enabled') else 'off'}")
        loads = [v.get("load_avg", [None])[0] for v in res.contexts.values() if v.get("load_avg")]
        if loads:
            lines.append(f"- Load average (1 min) when each executable started: "
                         f"{min(loads):.2f} to {max(loads):.2f} (other work on the machine shows up as noise)")
    if c:
        version = (c.get("version") or ["?"])[0]
        lines.append(f"- Compiler and flags: **{c.get('summary') or '?'}** — {version} (`{c.get('path', '?')}`), "
                     f"build type {c.get('build_type', '?')}")
        per = c.get("per_library", {})
        ref = per.get(REFERENCE) or next(iter(per.values()), None)
        if ref is not None:
            lines.append(f"- Flags (bifrons adapter): `{' '.join(ref)}`")
            extra = []
            for lib, flags in sorted(per.items()):
                added = [f for f in flags if f not in ref]
                removed = [f for f in ref if f not in flags]
                if added or removed:
                    words = ([f"adds `{' '.join(added)}`"] if added else []) + \
                            ([f"drops `{' '.join(removed)}`"] if removed else [])
                    extra.append(f"{lib} {' and '.join(words)}")
            if extra:
                lines.append("- Other adapters' flags: " + "; ".join(extra))
    if env.get("bifrons"):
        lines.append(f"- bifrons: commit {env['bifrons']}")
    packages = env.get("packages", {})
    if packages:
        rows = []
        for prefix, names in PACKAGES_BY_LIBRARY:
            libs = [lib for lib in res.libraries if lib.startswith(prefix)]
            versions = ", ".join(f"{p} {packages.get(p) or 'not installed'}" for p in names)
            if prefix == "sbe":
                for k, v in sorted(env.get("other_versions", {}).items()):
                    versions = f"sbe-all {v} (Maven Central, {k}); " + versions
            rows.append([", ".join(libs) or f"({prefix}: not in this run)", versions])
        tools = ", ".join(f"{p} {packages.get(p) or 'not installed'}" for p in TOOL_PACKAGES)
        rows.append(["tools", tools])
        lines.append("\nPackage versions (Debian, `dpkg-query`):\n")
        lines.append(table(["libraries", "packages"], rows))
    return "\n".join(lines)


def memcpy_banner(res):
    """The lines at the top of the report: compiler and flags, and whether glibc's rep movsb memcpy was
    disabled."""
    out = []
    summary = res.env.get("compiler", {}).get("summary")
    if summary:
        out.append(f"**Built with {summary}.**")
    p = res.env.get("memcpy_probe")
    run_env = res.run.get("run_env", "")
    if run_env:
        why = p.get("reason", "") if p else ""
        out.append(f"> **glibc's `rep movsb` memcpy was disabled for every library: every benchmark executable ran "
                   f"with `{run_env}`.** {why[:1].upper() + why[1:]}. Code that copies with memcpy (memcpy, "
                   "bifrons' bulk arrays, …) is faster here than with glibc's default; see the memcpy probe under "
                   "Machine.")
    elif p and p.get("worst_ratio") is not None:
        out.append(f"glibc's memcpy ran as is (no GLIBC_TUNABLES): {p.get('reason', '')} (memcpy probe under "
                   "Machine).")
    elif p:
        out.append(f"glibc's memcpy ran as is (no GLIBC_TUNABLES); {p.get('reason', '')}.")
    return "\n\n".join(out)


def memcpy_section(res):
    p = res.env.get("memcpy_probe")
    if not p:
        return "No memcpy probe in this run."
    lines = ["bench/probe/memcpy_probe copies one block repeatedly (the source page aligned, the destination page "
             "aligned plus an offset: 16 is what malloc gives a fresh vector) and keeps the fastest batch; it ran "
             f"twice, as is and with `GLIBC_TUNABLES={p.get('tunable', '?')}`, which keeps glibc's x86 memcpy from "
             "using `rep movsb`.", ""]
    rows = [[fmt_block(r["bytes"]), str(r["dst_offset"]), fmt_ns(r["default_ns"]), fmt_ns(r["tuned_ns"]),
             fmt_ratio(r["ratio"])] for r in p.get("rows", [])]
    if rows:
        lines.append(table(["block", "destination offset", "as is, ns", "with the tunable, ns",
                            "as is ÷ with the tunable"], rows, ["--:"] * 5))
        lines.append("")
    lines.append(f"- Verdict ({'policy ' + p['policy'] if p.get('policy') else ''}): {p.get('reason', '?')}; "
                 f"pathological means more than {p.get('limit', REP_MOVSB_LIMIT)}× as slow at any size.")
    lines.append("- Benchmark executables ran " + (f"**with `GLIBC_TUNABLES={p['glibc_tunables']}`**"
                                                   if p.get("glibc_tunables") else "with glibc's memcpy as is") + ".")
    if p.get("loader_threshold_default") or p.get("loader_threshold_tuned"):
        lines.append(f"- glibc's `x86_rep_movsb_threshold` (from `ld.so --list-tunables`): "
                     f"{p.get('loader_threshold_default') or '?'} as is, {p.get('loader_threshold_tuned') or '?'} "
                     "with the tunable.")
    return "\n".join(lines)


def run_section(res):
    r = res.run
    lines = []
    mode = r.get("mode", "?")
    repetitions = int(r.get("repetitions", "1") or 1)
    processes = int(r.get("processes", "1") or 1)
    runs = "one run per benchmark (no repetitions)" if repetitions <= 1 else \
        f"the median of {repetitions} repetitions per benchmark"
    if processes > 1:
        runs += f", in each of {processes} processes per library, run in rounds; each benchmark is the " \
                "process with the median time"
    lines.append(f"- Mode: **{mode}**, `--benchmark_min_time={r.get('min_time', '?')}` per benchmark, {runs}")
    compiler = res.env.get("compiler", {})
    summary = compiler.get("summary")
    # Runs from before --opt recorded only the flags.
    m = re.search(r"-O(\w+)", compiler.get("cxx_flags_build_type", ""))
    opt = r.get("opt") or compiler.get("opt") or (f"O{m.group(1)}" if m else "")
    if opt:
        lines.append(f"- Optimization: **-{opt}**" + (f" (`--opt {opt}`)" if mode != "smoke" else
                                                      " (smoke runs build at -O1)") +
                     (f"; every benchmark executable and minimal program built with **{summary}**" if summary else ""))
    if "rep_movsb_policy" in r:
        run_env = r.get("run_env", "")
        lines.append("- Benchmark executables ran with: " + (f"**`{run_env}`**" if run_env else
                                                             "no GLIBC_TUNABLES (glibc's memcpy as is)") +
                     f" (`--rep-movsb {r['rep_movsb_policy']}`; see the memcpy probe under Machine)")
    lines.append(f"- Libraries: {', '.join(display(lib) for lib in res.libraries)}")
    lines.append(f"- Workloads: {r.get('workloads', '?').replace(',', ', ')}; filter `{r.get('filter', '?')}`")
    times = [(k[len("time_ms_"):], int(v)) for k, v in r.items() if k.startswith("time_ms_") and v.isdigit()]
    if times:
        lines.append("- Wall time: " + ", ".join(f"{k} {v / 1000:.0f} s" for k, v in times))
    if r.get("date"):
        lines.append(f"- Started: {r['date']}, git {r.get('git', '?')}")
    return "\n".join(lines)


def sizes_section(res):
    exes = res.env.get("executables", {})
    if not exes:
        return "No minimal programs were built in this run."
    ref = exes.get(REFERENCE, {}).get("stripped")
    ref_time = (exes.get(REFERENCE, {}).get("compile") or {}).get("seconds")
    rows = []
    for lib, e in sorted(exes.items(), key=lambda kv: kv[1].get("stripped") or 0):
        shared = ", ".join(f"{s['name']} ({fmt_bytes(s['bytes'])})" for s in e.get("shared_libraries", []))
        compile_time = e.get("compile") or {}
        t = compile_time.get("seconds")
        cpu = min(compile_time.get("cpu_seconds") or [None], key=lambda x: x if x is not None else 0)
        rows.append([f"**{lib}**" if lib == REFERENCE else display(lib), f"{e.get('stripped') or 0:,}",
                     fmt_ratio(e["stripped"] / ref) if ref and e.get("stripped") else "–",
                     f"{t:.2f}" if t is not None else "–",
                     fmt_ratio(t / ref_time) if t is not None and ref_time else "–",
                     f"{cpu:.2f}" if cpu is not None else "–",
                     f"{e.get('bytes', 0):,}", shared or "none"])
    summary = res.env.get("compiler", {}).get("summary")
    method = res.env.get("compile_time_method")
    return ("Each `minimal_<lib>` program saves one small struct and loads it back (bench/minimal/). "
            "Sizes are of a stripped copy (`strip -o`). Every program links libc, libm, libstdc++ and libgcc_s "
            "dynamically; a peer library linked statically is counted, one loaded as a shared library is not "
            "(it is listed with its file size instead)." +
            (f" Compile + link: {method}" + (f" ({summary})" if summary else "") + ". On a machine other work "
             "shares the wall time grows with the load; the CPU time (user + sys of the compiler and linker, "
             "the fastest run's) grows less." if method else " No compile times in this run.") + "\n\n" +
            table(["library", "stripped bytes", "÷ bifrons", "compile + link s (wall)", "÷ bifrons", "CPU s",
                   "unstripped bytes", "shared libraries (not counted)"],
                  rows, [":--", "--:", "--:", "--:", "--:", "--:", "--:", ":--"]))


def not_measured_section(res):
    out = ["### Libraries not available here", ""]
    for name, reason in NOT_INSTALLABLE:
        out.append(f"- **{name}**: {reason}.")
    for m in res.env.get("missing", []):
        out.append(f"- **{m['library']}**: {m['reason']}")
    for lib, _, reason in res.failed_builds:
        out.append(f"- **{lib}**: {reason}")
    for line in res.failed_runs:
        out.append(f"- {line}")
    out += ["", "### Workloads a library does not support", ""]
    any_unsupported = False
    for lib in res.libraries:
        reasons, supported = {}, []
        for case in res.case_order:
            c = res.checks.get(lib, {}).get(case)
            if not c:
                continue
            workload, family, _ = split_case(case)
            name = f"{workload}/{family}"
            if c["status"] == "unsupported":
                names = reasons.setdefault(c["message"], [])
                if name not in names:
                    names.append(name)
            elif name not in supported:
                supported.append(name)
        unsupported = sum(len(v) for v in reasons.values())
        if unsupported > len(supported) and len(reasons) == 1:
            any_unsupported = True
            reason = next(iter(reasons))
            out.append(f"- **{lib}** supports only {', '.join(supported) or 'nothing'} — {md_escape(reason)}")
            continue
        for reason, names in reasons.items():
            any_unsupported = True
            out.append(f"- **{lib}**: {', '.join(names)} — {md_escape(reason)}")
    if not any_unsupported:
        out.append("None.")
    out += ["", "### Failed round trips and benchmark errors", ""]
    failures = res.failures()
    if failures:
        rows = [[lib, case, op or "round trip", msg] for lib, case, op, msg in failures]
        out.append(table(["library", "case", "operation", "failure"], rows))
    else:
        out.append("None: every supported case of every library round-tripped, and no benchmark reported an error.")
    for e in res.load_errors:
        out.append(f"- unreadable result file: {e}")
    return "\n".join(out)


def render_markdown(res, plots, image_prefix, published=False):
    out = ["# bifrons benchmarks", ""]
    if published:
        out += [f"<!-- Generated by `scripts/bench --publish` from bench/results/{os.path.basename(os.path.abspath(res.dir))}; "
                "do not edit by hand, except below the marker of hand-written sections, which publishing keeps: re-run the "
                "command. -->", ""]
    out.append("Generated by `scripts/bench` (bench/report/report.py). Times are **CPU time per operation in "
               "nanoseconds** (Google Benchmark's `cpu_time`), lower is better. In the tables, `(k×)` after a time "
               "is that library's time divided by bifrons' time for the same operation and case: **k > 1 means "
               "bifrons is k times faster**, k < 1 means the other library is faster.")
    banner = memcpy_banner(res)
    if banner:
        out += ["", banner]
    out += ["", "## Run", "", run_section(res)]
    out += ["", "## Machine", "", machine_section(res)]
    out += ["", "### memcpy probe (rep movsb)", "", memcpy_section(res)]
    out += ["", "## Targets", ""]
    if res.run.get("mode") == "smoke":
        out += ["*Smoke run (one iteration per benchmark, built at -O1): the timings below mean nothing.*", ""]
    out += [f"Performance goals, informational: a target not met is not a failure of the run. "
            f"{targets_line(res).capitalize()}. Each is computed from this run alone.", ""]
    for title, group in target_groups(res):
        out += [f"**{title}**", ""]
        for desc, status, detail in group:
            mark = {"met": "**met**", "NOT met": "**NOT met**"}.get(status, f"*{status}*")
            out.append(f"- {mark} — {desc}: {detail}")
        out.append("")
    header, rows = summary_rows(res)
    out += ["", "## Summary", "",
            "Ratios are geometric means over every case both the library and bifrons ran (so libraries that "
            "support different cases are not strictly comparable); > 1 means bifrons is faster or smaller.", "",
            table(header, rows, [":--"] + ["--:"] * (len(header) - 1))]
    speed = speedup_tables(res)
    if speed:
        out += ["", "## bifrons against each library, per case family", "", speed]
    out += ["", "## Results by workload", "",
            "Columns: time per operation for serialize (into a reused buffer the adapter owns), serialize_fixed "
            "(into a caller's fixed buffer, where the library offers it), deserialize (into a fresh object) and "
            "deserialize_reuse (into an object a previous decode filled); `bytes` is the encoded size; "
            "`allocs/op` and `peak heap` are heap allocations and the peak of live heap bytes during one "
            "operation after a warm-up one, in the order serialize / serialize_fixed / deserialize / "
            "deserialize_reuse (– where the operation does not exist)."]
    current = None
    for workload, family, cases in res.families():
        if workload != current:
            current = workload
            out += ["", f"### {WORKLOAD_TITLES.get(workload, workload)}"]
        out += ["", f"#### {workload}/{family}", ""]
        if (workload, family) in plots:
            out += [f"![{workload}/{family}]({image_prefix}{plots[(workload, family)]})", ""]
        out.append(family_table(res, cases))
        note = unsupported_lines(res, cases)
        if note:
            out += ["", note]
    out += ["", "## Executable size (cereal_fwd paper, Table 7)", "", sizes_section(res)]
    out += ["", "## Instructions per operation (callgrind)", "", instructions_section(load_instructions(res.dir))]
    out += ["", "## Not measured", "", not_measured_section(res)]
    out += ["", "## Method", "",
            "- Every library serializes the same C++ values (bench/harness/models.hpp); schema-based libraries "
            "(protobuf, FlatBuffers, Cap'n Proto, SBE) convert from and to those types inside the timed region.",
            "- Before anything is timed every case is round-tripped through a fresh object, a reused object and, "
            "where offered, a fixed buffer, and compared with the original; a failing case shows as FAILED.",
            "- `memcpy` copies a count and the raw bytes (flat arrays, strings and vector<IntegerClass> only): the "
            "speed limit. `handwritten` is a hand-written fixed-layout encoder/decoder of the Account model with "
            "bounds-checked decoding, `handwritten_varint` one of the very bytes of bifrons' default encoding of "
            "Account with the checks bifrons' reader makes (the floor of issue 34's Account instruction targets), "
            "and `handwritten_tree` one of the unique_ptr tree (preorder, a `new` per node: the floor under every "
            "tree decode).",
            f"- `{FLOOR}` reads bifrons' own bytes of a block (numbers, or IntegerClass records) into a fresh vector "
            "with `resize(count)` and one memcpy, the block at the same unaligned offset as bifrons reads it: the "
            "floor that std::vector's public interface allows (resize zero-fills before the copy), against which "
            "fresh reads of blocks are judged. bifrons does not skip the zero-fill by writing std::vector's private "
            "size, as struct_pack does with member-pointer tricks: that relies on one standard library's private "
            "layout, is undefined behaviour, and breaks with any change to that layout.",
            "- Cases named `*_distinct_1000` take 64 different vectors of 1,000 IntegerClass (each from its own seed) "
            "in turn, one per iteration, so that the branch predictor cannot learn one input's varint lengths as it "
            "learns the repeated input of every other case; the round trip checks all 64. Their values (2.5 MB) and "
            "encodings do not fit in L2, so the memory traffic is part of what they time (memcpy's times show its "
            "size).",
            "- Instructions per operation (issue 34's Account and Kelpie targets) are callgrind's counts, not "
            "times: each of bifrons', bifrons (records)' and the hand-written codec's executables runs once under "
            "callgrind with `--instructions`, which repeats each operation of account/account and kelpie/message_16 "
            "N and then 2N times (N = 1,000) in the one function callgrind counts in; the difference of the two over "
            "N, less an empty operation's, is one operation, with no start-up or set-up in it. Counts repeat to the "
            "instruction from run to run. Callgrind counts each byte a `rep movsb` copies as one instruction, so these "
            "runs keep glibc's memcpy from using it (the tunable of the memcpy probe, whatever the probe chose); these "
            "cases copy at most 118 bytes at a time anyway, far below the size at which glibc uses it.",
            f"- `{RECORD}` ({display(RECORD)}) is bifrons' adapter with IntegerClass, Order and Balance declared "
            "records (`bifrons::enable_record`): a different, fixed-width encoding, so its bytes differ from "
            "bifrons'; its round trips, like every library's, compare values.",
            "- One process per library (with `scripts/bench --processes N`, N processes per library, run in "
            "rounds, and each benchmark is the median process: Run, above); each benchmark runs until "
            "`--benchmark_min_time` seconds of CPU time are spent; heap counters come from an interposed malloc "
            "(bench/harness/alloc_hook.cpp).",
            "- CPU time, not wall time: on a virtual machine that other work shares, wall time also counts the "
            "time the CPU was taken away. Even so, small cases vary between runs on a busy machine (up to 2× for "
            "sub-microsecond operations when the load average above is high); compare runs made on a quiet "
            "machine, or use `scripts/bench --repetitions N`, before reading much into small differences.",
            "- Where malloc happens to put a buffer moves the small and mid-size cases by itself, and it changes "
            "with any edit to a binary. Measured on this suite (main at 7edcf26, -O3), by giving every adapter's "
            "output buffer and every input the same place: memcpy's own fresh decode of 2,048 floats (8 KiB) took "
            "46 ns with malloc's placement, 92 ns with page-aligned buffers and 64 ns with buffers 2 KiB into a "
            "page (4K aliasing: the copy's loads wait on stores whose address matches theirs in the low 12 bits); "
            "its serialize of 512 floats took 11, 12 and 20 ns. bifrons' unchanged code has read 68% and 45% of "
            "memcpy's serialize throughput at 8 records in two runs. No single fixed placement is fair to every "
            "case, so the harness leaves placement to malloc; a ratio of a few-nanosecond or few-KiB case within "
            "2× of a target is not conclusive from one run.",
            "- The same executable also differs from one process to the next, each with its own randomized address "
            "space layout (which addresses matter was not found: moving the stack alone did not reproduce the "
            "fast runs). Account's fresh decode, 8 processes of one build each (-O3, pinned, "
            "quiet machine, main at d20667b): bifrons (records) 28.9–54.9 ns, hand-written 30.0–45.6 ns, bifrons "
            "41.1–52.3 ns. With randomization off (`setarch -R`) each is steady, but at a level its layout decides "
            "(hand-written 47.8–51.7 ns, bifrons (records) 29.2–32.4 ns). With one process per library, the "
            "Account targets are decided by these layouts as much as by the code; `--processes 3` takes the "
            "median of three layouts, and instruction counts (docs/design.md) are steadier still.",
            ]
    return "\n".join(out) + "\n"


def target_counts(res):
    statuses = [status for _, status, _ in targets(res)]
    return {"total": len(statuses), "met": statuses.count("met"), "not met": statuses.count("NOT met"),
            "not measured": statuses.count("not measured")}


def targets_line(res):
    """'2 of 8 met, 3 not met, 3 not measured'"""
    n = target_counts(res)
    parts = [f"{n['met']} of {n['total']} met"]
    if n["not met"]:
        parts.append(f"{n['not met']} not met")
    if n["not measured"]:
        parts.append(f"{n['not measured']} not measured")
    return ", ".join(parts)


def problems(res):
    """Everything that makes the run a failure (targets never do)."""
    out = [f"round trip failed: {lib} {case}" if op is None else f"benchmark error: {lib} {case} {op}: {msg}"
           for lib, case, op, msg in res.failures()]
    out += [f"did not build: {lib}" for lib, _, _ in res.failed_builds]
    out += [f"benchmark run failed: {line}" for line in res.failed_runs]
    out += [f"unreadable result file: {e}" for e in res.load_errors]
    return out


def print_summary(res):
    header, rows = summary_rows(res)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))
    print()
    summary = res.env.get("compiler", {}).get("summary")
    if summary:
        print(f"Built with {summary}; benchmark executables ran with "
              f"{res.run.get('run_env') or 'no GLIBC_TUNABLES (glibc memcpy as is)'}.")
    if res.run.get("mode") == "smoke":
        print("Performance targets: not evaluated (smoke run: built at -O1, one iteration per benchmark).")
    else:
        print(f"Performance targets (informational; a target not met is not a failure): {targets_line(res)}")
        for title, group in target_groups(res):
            print(f" {title}:")
            for desc, status, detail in group:
                print(f"  [{status.lower()}] {desc}: {detail}")
    failures = res.failures()
    if failures:
        print()
        print(f"{len(failures)} failed round trip(s) / benchmark error(s):")
        for lib, case, op, msg in failures[:40]:
            print(f"  {lib} {case} {op or 'round trip'}: {msg}")
        if len(failures) > 40:
            print(f"  ... and {len(failures) - 40} more (see report.md)")


def write_verdict(res, path):
    """key=value lines scripts/bench reads for its final verdict."""
    n = target_counts(res)
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"problems={len(problems(res))}\n")
        f.write(f"failures={len(res.failures())}\n")
        f.write(f"targets={targets_line(res)}\n")
        f.write(f"targets_met={n['met']}\ntargets_total={n['total']}\n")


def render(results, plots_enabled=True):
    res = Results(results)
    plots = {}
    if plots_enabled:
        progress("loading matplotlib")
        plots = make_plots(res, os.path.join(results, "plots"))
    progress("report.md")
    text = render_markdown(res, plots, "plots/")
    with open(os.path.join(results, "report.md"), "w", encoding="utf-8") as f:
        f.write(text)
    return res, plots


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("probe")
    p.add_argument("results")
    p.add_argument("--policy", choices=["auto", "disabled", "default"], default="auto")
    p.add_argument("--tunable", required=True)
    p = sub.add_parser("collect")
    p.add_argument("results")
    p.add_argument("--build", required=True)
    p = sub.add_parser("render")
    p.add_argument("results")
    p.add_argument("--no-plots", action="store_true")
    p = sub.add_parser("publish")
    p.add_argument("results")
    p.add_argument("--markdown", required=True)
    p.add_argument("--images", required=True)
    p = sub.add_parser("instructions")
    p.add_argument("results")
    p.add_argument("--opt", required=True, help="the build's optimization level, e.g. O2")
    args = parser.parse_args()

    if args.command == "probe":
        return probe(args.results, args.policy, args.tunable)
    if args.command == "instructions":
        return instructions_command(args.results, args.opt)
    if args.command == "collect":
        collect(args.results, args.build)
        return 0
    if args.command == "render":
        res, _ = render(args.results, plots_enabled=not args.no_plots)
        write_verdict(res, os.path.join(args.results, "verdict.txt"))
        print()
        print_summary(res)
        # 3, not 1: an exception also exits with 1.
        return 3 if problems(res) else 0
    if args.command == "publish":
        images = os.path.abspath(args.images)
        markdown = os.path.abspath(args.markdown)
        prefix = os.path.relpath(images, os.path.dirname(markdown)) + "/"
        res, plots = render(args.results, plots_enabled=True)
        os.makedirs(images, exist_ok=True)
        for old in os.listdir(images):
            if old.endswith(".png"):
                os.remove(os.path.join(images, old))
        for name in plots.values():
            shutil.copy2(os.path.join(args.results, "plots", name), os.path.join(images, name))
        render_markdown_to(res, plots, prefix, markdown)
        print(f"published: {markdown} and {len(plots)} plots in {images}")
        return 0
    return 2


# In a published file, what follows this line is written by hand (measurements of their own, made
# outside the suite's timed run) and survives publishing again.
KEPT_MARKER = "<!-- Hand-written sections below: scripts/bench --publish keeps them as they are. -->"


def render_markdown_to(res, plots, prefix, path):
    kept = ""
    try:
        with open(path, encoding="utf-8") as f:
            old = f.read()
        at = old.find(KEPT_MARKER)
        if at >= 0:
            kept = "\n" + old[at:]
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(render_markdown(res, plots, prefix, published=True) + kept)


if __name__ == "__main__":
    sys.exit(main())
