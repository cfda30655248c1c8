"""What the evaluation smoke tests share: the repository root (ctest runs
them there), running a command in it with extra environment, and running
an experiment script on a settings file written from a dict.

A command that outlives STUCK_S is stuck, not slow: every command these
tests run takes seconds here (the longest, load_a.sh on 30 000 records,
about 10 s), and ctest would otherwise kill the whole test at its timeout
with nothing said. CI once saw eval.load_a_smoke run into its 600 s with
no output, a hang no local repeat reproduced; so a stuck command fails
its test with where it was stuck: every process it started, the stacks of
the harness's processes and the last lines each one wrote to stderr."""
import os
import signal
import subprocess
import sys

ROOT = os.getcwd()
SYSTEMS = ["rocksdb", "rocksdb-io", "vlsm"]
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
import systems  # noqa: E402


def unknown_system_message(name):
    """What systems.py says of a system it does not define: the name and
    every system it does (a test written with today's list broke when
    rocksdb-sm joined it). Raises AssertionError if systems.py defines
    `name`: the message would then test nothing."""
    assert name not in systems.SYSTEMS, f"systems.py defines '{name}'"
    return f"unknown system '{name}' (one of: {' '.join(systems.SYSTEMS)})"
STUCK_S = 240
# The processes whose threads' stacks say where a hang is.
HARNESS = ("ycsb_vlsm", "db_bench_vlsm")


def run(cmd, env=None, stuck_s=STUCK_S):
    """cmd's CompletedProcess (stdout and stderr as text); raises
    AssertionError with stuck_report's account if it runs over stuck_s."""
    e = dict(os.environ)
    e.update(env or {})
    # Its own session: on a hang the whole tree is found and killed, and
    # no grandchild is left holding the pipes open.
    p = subprocess.Popen(cmd, cwd=ROOT, env=e, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=stuck_s)
    except subprocess.TimeoutExpired:
        report = stuck_report(p.pid)
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        raise AssertionError(f"stuck: {' '.join(cmd)} still running after {stuck_s} s\n"
                             f"{report}\n--- its stdout (end)\n{out[-2000:]}\n"
                             f"--- its stderr (end)\n{err[-2000:]}") from None
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def stuck_report(session):
    """Every process of SESSION (its leader's pid) with its command line;
    for the harness's, their threads' stacks (gdb) and the end of what they
    wrote to stderr (the scripts send it to a NAME.err file)."""
    lines = ["--- processes still running"]
    pids = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                # Fields after the command's closing parenthesis: state,
                # ppid, pgrp, session.
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{d}/cmdline", "rb") as f:
                args = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue  # ended meanwhile
        if int(fields[3]) == session:
            pids.append(int(d))
            lines.append(f"{d} {fields[0]} {args}")
    for pid in pids:
        try:
            exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
            stderr_file = os.readlink(f"/proc/{pid}/fd/2")
        except OSError:
            continue
        if exe not in HARNESS:
            continue
        lines.append(f"--- {exe} {pid}: its threads")
        try:
            gdb = subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt"],
                                 capture_output=True, text=True, timeout=120)
            lines.append(gdb.stdout[-12000:] or gdb.stderr[-2000:])
        except (OSError, subprocess.TimeoutExpired) as e:
            lines.append(f"(no stacks: {e})")
        if os.path.isfile(stderr_file):
            with open(stderr_file, errors="replace") as f:
                lines.append(f"--- {exe} {pid}: the end of {stderr_file}")
                lines.append("".join(f.readlines()[-20:]))
    return "\n".join(lines)


def run_with_settings(script, path, settings, *overrides):
    """Writes SETTINGS (a dict) to PATH as a settings file, values quoted,
    and runs `bash SCRIPT PATH OVERRIDES...`."""
    with open(path, "w") as f:
        f.write("# written by the test\n\n")
        f.writelines(f'{k}="{v}"\n' for k, v in settings.items())
    return run(["bash", script, path, *overrides])
