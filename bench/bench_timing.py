"""The Python benchmarks' one timing loop (the C harness has its own, bench_time in
tools/bench/bench_harness.c): every script in bench/ times its calls through it."""
import time


def time_calls(funcs, repeat, warmups=1):
    """Calls each function of `funcs` (name -> callable) `warmups` times untimed, the first
    of them timed apart, then `repeat` rounds that call each once in turn (interleaved, so
    that a drift of the machine touches all alike). Returns (name -> first call's ms,
    name -> the timed calls' ms)."""
    first = {}
    for name, function in funcs.items():
        for k in range(warmups):
            start = time.perf_counter()
            function()
            if k == 0:
                first[name] = (time.perf_counter() - start) * 1e3
    samples = {name: [] for name in funcs}
    for _ in range(repeat):
        for name, function in funcs.items():
            start = time.perf_counter()
            function()
            samples[name].append((time.perf_counter() - start) * 1e3)
    return first, samples
