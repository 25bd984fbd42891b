"""What the benchmark scripts that write a section of a Markdown file share (bench/strided.py,
bench/tail_report.py): the machine's processor name for the section's heading, and the
replacement of the section between its markers."""
import os
import platform
import re


def cpu_name():
    """The processor's model name (/proc/cpuinfo), else what platform knows."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def replace_section(path, begin, end, section):
    """Replaces the text between the markers begin and end (both included) in the Markdown file
    at path with section, which carries the markers itself; appends it where they are absent."""
    text = open(path).read() if os.path.exists(path) else ""
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    text = pattern.sub(lambda _: section, text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + section
    with open(path, "w") as f:
        f.write(text.rstrip("\n") + "\n")
